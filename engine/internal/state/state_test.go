package state

import (
	"errors"
	"math"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// sqlValues is one value of every root a snapshot holds, with its type.
func sqlValues() ([]any, []*types.DataType) {
	rowT := types.RowType(types.Field{Name: "a", Type: types.IntType()}, types.Field{Name: "b", Type: types.StringType()})
	ts := []*types.DataType{
		types.BooleanType(), types.TinyIntType(), types.SmallIntType(), types.IntType(), types.BigIntType(),
		types.FloatType(), types.DoubleType(), types.DecimalType(38, 4), types.CharType(3), types.StringType(),
		types.BytesType(), types.BinaryType(2), types.DateType(), types.TimeType(9), types.TimestampType(3),
		types.TimestampLTZType(9), types.IntervalYearMonthType(types.ResYearToMonth, 2),
		types.IntervalDayTimeType(types.ResDayToSecond, 2, 3),
		types.ArrayType(types.IntType()), types.MapType(types.StringType(), types.DoubleType()),
		types.MultisetType(types.StringType()), rowT, types.ArrayType(rowT), types.BigIntType(),
	}
	vals := []any{
		true, int8(-7), int16(-300), int32(math.MinInt32), int64(math.MaxInt64),
		float32(1.5), math.Inf(-1), types.MustDecimal("-12345678901234567890123456789012.3456"), "abc", "ünïcode",
		[]byte{0, 1, 2}, []byte{9, 8}, types.DateOf(1, 1, 1), types.TimeOf(23, 59, 59, 999999999),
		time.Date(9999, 12, 31, 23, 59, 59, 999e6, time.UTC), time.Date(1677, 1, 1, 0, 0, 0, 1, time.UTC),
		types.Months(-14), -(49*time.Hour + 123*time.Millisecond),
		[]any{int32(1), nil, int32(3)}, &types.Map{Keys: []any{"x", "y"}, Values: []any{1.25, nil}},
		&types.Map{Keys: []any{"m"}, Values: []any{int32(2)}},
		&types.Row{Kind: types.Insert, Values: []any{int32(4), "four"}, Names: []string{"a", "b"}},
		[]any{&types.Row{Values: []any{nil, "n"}, Names: []string{"a", "b"}}}, nil,
	}
	return vals, ts
}

func TestValuesRoundTrip(t *testing.T) {
	vals, ts := sqlValues()
	w := NewWriter(0)
	w.Header("Test", 3)
	for i, v := range vals {
		w.Value(v, ts[i])
	}
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	r := NewReader(w.Data())
	r.Header("Test", 3)
	for i, want := range vals {
		got := r.Value(ts[i])
		if !types.ValuesEqual(got, want) {
			t.Errorf("%s: read %v, wrote %v", ts[i], got, want)
		}
	}
	if err := r.Done(); err != nil {
		t.Fatal(err)
	}
}

func TestNumbersRoundTrip(t *testing.T) {
	w := NewWriter(0)
	w.Uvarint(math.MaxUint64)
	w.Varint(math.MinInt64)
	w.Uint8(200)
	w.Uint16(65000)
	w.Uint32(1 << 31)
	w.Int64(-5)
	w.Float32(float32(math.NaN()))
	w.Bool(true)
	w.String("s")
	w.Bytes(nil)
	big1, _ := new(big.Int).SetString("-123456789012345678901234567890", 10)
	w.BigInt(big1)
	w.BigRat(big.NewRat(-3, 7))
	w.Int64s([]int64{1, -2, 3})
	w.Int32s([]int32{-1})
	w.Float64s([]float64{0.5})
	w.Bools([]bool{true, false, false, true, true, false, false, false, true})
	r := NewReader(w.Data())
	switch {
	case r.Uvarint() != math.MaxUint64, r.Varint() != math.MinInt64, r.Uint8() != 200,
		r.Uint16() != 65000, r.Uint32() != 1<<31, r.Int64() != -5:
		t.Fatal("integers differ")
	}
	if f := r.Float32(); f == f {
		t.Fatal("NaN lost")
	}
	if !r.Bool() || r.String() != "s" || len(r.Bytes()) != 0 {
		t.Fatal("bool, string or bytes differ")
	}
	if r.BigInt().Cmp(big1) != 0 || r.BigRat().Cmp(big.NewRat(-3, 7)) != 0 {
		t.Fatal("big numbers differ")
	}
	if x := r.Int64s(); len(x) != 3 || x[1] != -2 {
		t.Fatalf("Int64s %v", x)
	}
	if x := r.Int32s(); len(x) != 1 || x[0] != -1 {
		t.Fatalf("Int32s %v", x)
	}
	if x := r.Float64s(); len(x) != 1 || x[0] != 0.5 {
		t.Fatalf("Float64s %v", x)
	}
	if x := r.Bools(); len(x) != 9 || !x[0] || x[1] || !x[3] || !x[8] {
		t.Fatalf("Bools %v", x)
	}
	if err := r.Done(); err != nil {
		t.Fatal(err)
	}
}

func TestAnyRoundTrip(t *testing.T) {
	vals := []any{nil, true, int8(1), int16(2), int32(3), int64(4), 5, uint64(6), float32(7), 8.5, "s",
		[]byte("b"), types.MustDecimal("1.50"), types.Date(3), types.LocalTime(4), time.Unix(5, 6).UTC(),
		types.Months(7), time.Second, []any{int64(1), "x", []any{nil}},
		&types.Map{Keys: []any{"k"}, Values: []any{int32(1)}},
		&types.Row{Kind: types.UpdateAfter, Values: []any{int64(1)}, Names: []string{"n"}}}
	w := NewWriter(0)
	for _, v := range vals {
		w.Any(v)
	}
	n, s := int64(42), "acc"
	w.Any(&n)
	w.Any(&s)
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	r := NewReader(w.Data())
	for _, want := range vals {
		if got := r.Any(); !types.ValuesEqual(got, want) {
			t.Errorf("read %v (%T), wrote %v (%T)", got, got, want, want)
		}
	}
	if p, ok := r.Any().(*int64); !ok || *p != 42 {
		t.Errorf("pointer to int64 not read back")
	}
	if p, ok := r.Any().(*string); !ok || *p != "acc" {
		t.Errorf("pointer to string not read back")
	}
	if err := r.Done(); err != nil {
		t.Fatal(err)
	}

	w = NewWriter(0)
	w.Any(struct{ A int }{1})
	if err := w.Err(); err == nil || !strings.Contains(err.Error(), "Go type struct { A int } cannot be saved") {
		t.Fatalf("error %v", err)
	}
	w = NewWriter(0)
	w.Value("x", types.IntType())
	if err := w.Err(); err == nil || !strings.Contains(err.Error(), "value x (string) is not of type INT") {
		t.Fatalf("error %v", err)
	}
}

// Every truncation of a snapshot fails with the offset where the data
// ran out; none panics.
func TestTruncatedSnapshot(t *testing.T) {
	vals, ts := sqlValues()
	w := NewWriter(0)
	w.Header("Test", 1)
	for i, v := range vals {
		w.Value(v, ts[i])
	}
	data := w.Data()
	for n := 0; n < len(data); n++ {
		r := NewReader(data[:n])
		r.Header("Test", 1)
		for _, t := range ts {
			r.Value(t)
		}
		err := r.Done()
		var se *Error
		if !errors.As(err, &se) {
			t.Fatalf("%d bytes: error %v, want *state.Error", n, err)
		}
		if se.Offset > n || !strings.Contains(err.Error(), "at byte") {
			t.Fatalf("%d bytes: %v", n, err)
		}
	}
	r := NewReader(data[:10])
	r.Header("Test", 1)
	r.Value(types.BooleanType())
	r.Value(types.TinyIntType())
	r.Value(types.SmallIntType())
	if err := r.Err(); err == nil || err.Error() != "state snapshot: at byte 10: want 1 bytes of a byte, 0 left (truncated snapshot)" {
		t.Fatalf("error %v", err)
	}
}

func TestHeader(t *testing.T) {
	w := NewWriter(0)
	w.Header("Deduplicate", 1)
	for _, c := range []struct {
		kind    string
		version uint32
		data    []byte
		want    string
	}{
		{"GroupAgg", 1, w.Data(), "state snapshot: at byte 0: a snapshot of a Deduplicate, not of a GroupAgg"},
		{"Deduplicate", 2, w.Data(), "state snapshot: at byte 0: Deduplicate snapshot of format version 1; this build reads version 2"},
		{"Deduplicate", 1, []byte("junk data"), `state snapshot: at byte 0: not a Riffle state snapshot (no "RFST" magic; found "junk")`},
		{"Deduplicate", 1, nil, "state snapshot: at byte 0: want 4 bytes of the magic RFST, 0 left (truncated snapshot)"},
	} {
		r := NewReader(c.data)
		r.Header(c.kind, c.version)
		if err := r.Err(); err == nil || err.Error() != c.want {
			t.Errorf("%s %d: error %v\nwant %s", c.kind, c.version, err, c.want)
		}
	}
	r := NewReader(append(append([]byte{}, w.Data()...), 0))
	r.Header("Deduplicate", 1)
	if err := r.Done(); err == nil || !strings.Contains(err.Error(), "1 bytes left over") {
		t.Fatalf("error %v", err)
	}
}

// A corrupt count cannot make a reader allocate more than the data holds.
func TestCorruptCount(t *testing.T) {
	w := NewWriter(0)
	w.Uvarint(1 << 40)
	r := NewReader(w.Data())
	if v := r.Value(types.ArrayType(types.IntType())); v != nil {
		t.Fatalf("read %v", v)
	}
	r = NewReader(append([]byte{1}, w.Data()...))
	r.Value(types.ArrayType(types.IntType()))
	if err := r.Err(); err == nil || !strings.Contains(err.Error(), "want a count of at most 0 elements (0 bytes left), found 1099511627776") {
		t.Fatalf("error %v", err)
	}
}

// FuzzReader reads arbitrary bytes as a snapshot of every kind of field:
// it may fail, never panic, and a failure names an offset inside the data.
func FuzzReader(f *testing.F) {
	vals, ts := sqlValues()
	w := NewWriter(0)
	w.Header("Fuzz", 1)
	for i, v := range vals {
		w.Value(v, ts[i])
		w.Any(v)
	}
	w.BigRat(big.NewRat(1, 3))
	w.Bools([]bool{true})
	f.Add(w.Data())
	f.Add([]byte{})
	f.Add([]byte("RFST\x04Fuzz\x01\x01\x01\xff\xff\xff\xff\x0f"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewReader(data)
		r.Header("Fuzz", 1)
		for i := range ts {
			r.Value(ts[i])
			r.Any()
		}
		r.BigRat()
		r.Bools()
		r.Int64s()
		r.Int32s()
		r.Float64s()
		r.Bytes()
		err := r.Done()
		var se *Error
		if err != nil && (!errors.As(err, &se) || se.Offset > len(data)) {
			t.Fatalf("error %v", err)
		}
		// whatever reads without error must write back the same way
		if err == nil {
			r2 := NewReader(data)
			r2.Header("Fuzz", 1)
			w := NewWriter(0)
			w.Header("Fuzz", 1)
			for i := range ts {
				w.Value(r2.Value(ts[i]), ts[i])
				w.Any(r2.Any())
			}
			if w.Err() != nil {
				t.Fatalf("a value read back cannot be written: %v", w.Err())
			}
		}
	})
}
