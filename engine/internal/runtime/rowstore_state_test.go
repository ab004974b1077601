package runtime

import (
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
)

// A RowStore of every column kind (fixed-width, strings, bytes, nested)
// with and without NULLs is read back row for row.
func TestRowStoreState(t *testing.T) {
	ts := []*types.DataType{types.TinyIntType(), types.SmallIntType(), types.IntType(), types.BigIntType(),
		types.FloatType(), types.DoubleType(), types.DecimalType(20, 3), types.StringType(), types.BytesType(),
		types.DateType(), types.TimestampType(3), types.ArrayType(types.StringType())}
	rows := [][]any{
		{int8(1), int16(-2), int32(3), int64(-4), float32(0.5), 1.25, types.MustDecimal("12.345"), "short", []byte{1},
			types.Date(19000), ms(1_700_000_000_123), []any{"x", nil}},
		{nil, int16(7), nil, int64(8), nil, nil, nil, "a string longer than eight bytes", nil, nil, ms(1), nil},
		{int8(-128), nil, int32(-1), nil, float32(-1), 2.5, types.MustDecimal("-0.001"), "", []byte{}, types.Date(0), nil, []any{}},
	}
	bb := types.NewBatchBuilder(ts)
	for _, r := range rows {
		if err := bb.Append(types.Insert, r); err != nil {
			t.Fatal(err)
		}
	}
	batch := bb.Build()
	store := NewRowStore(ts)
	store.Append(batch, nil)
	store.Append(batch, []int32{2, 0})

	w := state.NewWriter(0)
	store.WriteState(w)
	if err := w.Err(); err != nil {
		t.Fatal(err)
	}
	r := state.NewReader(w.Data())
	got := ReadRowStore(r, ts)
	if err := r.Done(); err != nil {
		t.Fatal(err)
	}
	ids := []int32{0, 1, 2, 3, 4, -1}
	want := (&types.Batch{Cols: store.Gather(ids), Len: len(ids)}).Rows(ts)
	have := (&types.Batch{Cols: got.Gather(ids), Len: len(ids)}).Rows(ts)
	for i := range want {
		if want[i].String() != have[i].String() {
			t.Errorf("row %d: read %s, saved %s", ids[i], have[i], want[i])
		}
	}
	if got.Len() != 5 || !got.EqualRow(4, batch, 0) || got.EqualRow(4, batch, 1) {
		t.Errorf("restored store: %d rows, or EqualRow differs", got.Len())
	}
	// the restored store takes more rows
	got.Append(batch, []int32{1})
	if s := (&types.Batch{Cols: got.Gather([]int32{5}), Len: 1}).Rows(ts)[0].String(); !strings.Contains(s, "a string longer than eight bytes") {
		t.Errorf("row appended after restore: %s", s)
	}

	for n := 0; n < len(w.Data()); n++ {
		r := state.NewReader(w.Data()[:n])
		ReadRowStore(r, ts)
		if err := r.Done(); err == nil || !strings.HasPrefix(err.Error(), "state snapshot: at byte ") {
			t.Fatalf("the first %d bytes: %v", n, err)
		}
	}
	r = state.NewReader(w.Data())
	ReadRowStore(r, ts[:3])
	if err := r.Err(); err == nil || err.Error() != "state snapshot: at byte 2: want a row store of 3 columns, found 12" {
		t.Fatalf("a store of other columns: %v", err)
	}
}
