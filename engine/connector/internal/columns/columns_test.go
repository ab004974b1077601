package columns

import (
	"fmt"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/types"
)

func TestRoundTripEveryType(t *testing.T) {
	ts := time.Date(2024, 1, 31, 12, 0, 1, 123456789, time.UTC)
	cases := []struct {
		t    *types.DataType
		vals []any
	}{
		{types.BooleanType(), []any{true, nil, false, true, true, false, true, false, nil, true}},
		{types.TinyIntType(), []any{int8(-128), nil, int8(127)}},
		{types.SmallIntType(), []any{int16(1), int16(-2), nil}},
		{types.IntType(), []any{nil, int32(7), int32(-9)}},
		{types.BigIntType(), []any{int64(1) << 60, nil}},
		{types.FloatType(), []any{float32(1.5), nil}},
		{types.DoubleType(), []any{0.1, nil, -2.5}},
		{types.DecimalType(10, 2), []any{types.MustDecimal("12.34"), nil, types.MustDecimal("-0.05")}},
		{types.StringType(), []any{"a", nil, "", "héllo"}},
		{types.BytesType(), []any{[]byte{1, 2}, nil, []byte{}}},
		{types.DateType(), []any{types.DateOf(2024, 1, 31), nil}},
		{types.TimeType(3), []any{types.TimeOf(12, 0, 1, 5_000_000), nil}},
		{types.TimeType(9), []any{types.TimeOf(12, 0, 1, 5), nil}},
		{types.TimestampType(3), []any{ts.Truncate(time.Millisecond), nil}},
		{types.TimestampType(6), []any{ts.Truncate(time.Microsecond)}},
		{types.TimestampType(9), []any{ts}},
		{types.TimestampLTZType(3), []any{ts.Truncate(time.Millisecond), nil}},
		{types.IntervalYearMonthType(types.ResYearToMonth, 2), []any{types.Months(14), nil}},
		{types.IntervalDayTimeType(types.ResDayToSecond, 2, 3), []any{90 * time.Second, nil}},
		{types.ArrayType(types.IntType()), []any{[]any{int32(1), nil, int32(3)}, nil, []any{}}},
		{types.MapType(types.StringType().NotNull(), types.DoubleType()), []any{&types.Map{Keys: []any{"a", "b"}, Values: []any{1.0, nil}}, nil}},
		{types.MultisetType(types.StringType()), []any{&types.Map{Keys: []any{"x"}, Values: []any{int32(2)}}}},
		{types.RowType(types.NewField("a", types.IntType()), types.NewField("b", types.ArrayType(types.StringType()))),
			[]any{types.NewRow(int32(1), []any{"x"}), nil, types.NewRow(nil, nil)}},
	}
	for _, c := range cases {
		col := MustNew(c.t, 2)
		for _, v := range c.vals {
			if err := AppendValue(col, v); err != nil {
				t.Fatalf("%s: append %v: %v", c.t, v, err)
			}
		}
		if col.Len() != len(c.vals) {
			t.Fatalf("%s: len %d", c.t, col.Len())
		}
		for round := 0; round < 2; round++ { // the column is reusable after Build
			arr := col.Build()
			if arr.Len() != len(c.vals) {
				t.Fatalf("%s: arrow len %d", c.t, arr.Len())
			}
			if v, ok := arr.(interface{ ValidateFull() error }); ok {
				if err := v.ValidateFull(); err != nil {
					t.Fatalf("%s: invalid array: %v", c.t, err)
				}
			}
			if !arrow.TypeEqual(arr.DataType(), types.ToArrow(c.t)) {
				t.Fatalf("%s: arrow type %s", c.t, arr.DataType())
			}
			for i, want := range c.vals {
				got := types.ValueAt(arr, i, c.t)
				if r, ok := got.(*types.Row); ok {
					r.Names = nil
				}
				if !types.ValuesEqual(got, want) {
					t.Errorf("%s[%d]: got %v, want %v", c.t, i, types.FormatValue(got), types.FormatValue(want))
				}
			}
			if col.Len() != 0 {
				t.Fatalf("not reset")
			}
			for _, v := range c.vals {
				_ = AppendValue(col, v)
			}
		}
	}
}

func TestValidityLateNull(t *testing.T) {
	c := NewFixed[int64](types.BigIntType(), 0)
	for i := 0; i < 100; i++ {
		c.Append(int64(i))
	}
	c.AppendNull()
	c.Append(5)
	arr := c.Build()
	if arr.NullN() != 1 || !arr.IsNull(100) || arr.IsNull(99) || arr.IsNull(101) || arr.IsNull(0) {
		t.Fatalf("validity wrong: nulls=%d", arr.NullN())
	}
}

// TestStructDeferredNulls builds the same ROW<a BIGINT, s VARCHAR,
// r ROW<x BIGINT>> column twice, NULL rows appended at once (AppendNull)
// and deferred (AppendNullDeferred, AppendNulls, SyncFields before each
// valid row, Build at the end), over runs of NULLs crossing byte
// boundaries of the validity bitmaps: the arrays are equal.
func TestStructDeferredNulls(t *testing.T) {
	rt := types.RowType(types.Field{Name: "a", Type: types.BigIntType()}, types.Field{Name: "s", Type: types.VarCharType(types.MaxLength)},
		types.Field{Name: "r", Type: types.RowType(types.Field{Name: "x", Type: types.BigIntType()})})
	pattern := []int{0, 3, 1, 0, 9, 17, 2, 0, 0, 64, 1, 5}
	build := func(deferred bool) arrow.Array {
		col, err := New(rt, 0)
		if err != nil {
			t.Fatal(err)
		}
		c := col.(*Struct)
		inner := c.Fields[2].(*Struct)
		for k, nulls := range pattern {
			if deferred {
				if k%2 == 0 {
					c.AppendNulls(nulls)
				} else {
					for range nulls {
						c.AppendNullDeferred()
					}
				}
				c.SyncFields()
			} else {
				for range nulls {
					c.AppendNull()
				}
			}
			c.Fields[0].(*Fixed[int64]).Append(int64(k))
			c.Fields[1].(*Bytes).AppendString(fmt.Sprint("v", k))
			if k%3 == 0 {
				if deferred {
					inner.AppendNullDeferred()
				} else {
					inner.AppendNull()
				}
			} else {
				if deferred {
					inner.SyncFields()
				}
				inner.Fields[0].(*Fixed[int64]).Append(int64(-k))
				inner.Append()
			}
			c.Append()
		}
		if deferred {
			c.AppendNulls(4)
		} else {
			for range 4 {
				c.AppendNull()
			}
		}
		return c.Build()
	}
	want, got := build(false), build(true)
	if !array.Equal(want, got) {
		t.Fatalf("deferred NULLs:\n%v\nwant\n%v", got, want)
	}
	if got.NullN() != want.NullN() || got.Len() != want.Len() {
		t.Fatalf("nulls %d/%d len %d/%d", got.NullN(), want.NullN(), got.Len(), want.Len())
	}
}

// After a batch, Bytes makes room for the next at the bytes per row it
// saw (with an eighth more), not at its first guess of 16 a row.
func TestBytesNextBatchRoomFollowsRowBytes(t *testing.T) {
	c := NewBytes(types.StringType(), 1000)
	for range 1000 {
		c.AppendString("LAX")
	}
	c.Build()
	if got := cap(c.data); got < 3000 || got > 3000+3000/8 {
		t.Fatalf("room for %d bytes after 1000 values of 3, want 3000 to 3375", got)
	}
	for range 500 { // a half batch of 6-byte values: 12 a row for a full one
		c.AppendString("LAXSFO")
	}
	c.Build()
	if got := cap(c.data); got < 6000 || got > 6000+6000/8 {
		t.Fatalf("room for %d bytes after 500 values of 6, want 6000 to 6750", got)
	}
}
