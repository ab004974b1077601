package runtime

import (
	"reflect"
	"testing"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// TestTopNScanBound: the bound only tightens, keeps rows whose key is not
// strictly worse and every NULL key, and keeps all rows before the Sort
// published one.
func TestTopNScanBound(t *testing.T) {
	ts := []*types.DataType{types.StringType(), types.IntType()}
	bb := types.NewBatchBuilder(ts)
	for _, v := range []any{int32(5), nil, int32(9), int32(7), int32(1)} {
		if err := bb.Append(types.Insert, []any{"x", v}); err != nil {
			t.Fatal(err)
		}
	}
	b := bb.Build()
	desc, ok := NewTopNScanBound(opspec.SortKey{Col: 1, Desc: true}, types.IntType())
	if !ok {
		t.Fatal("declined INT")
	}
	if _, all, _ := desc.Keep(b); !all {
		t.Fatal("dropped rows before any bound")
	}
	desc.publish(7, 1<<62)
	desc.publish(3, 1<<62) // looser: ignored
	if sel, all, _ := desc.Keep(b); all || !reflect.DeepEqual(sel, []int32{1, 2, 3}) {
		t.Fatalf("DESC bound 7 kept %v", sel)
	}
	asc, _ := NewTopNScanBound(opspec.SortKey{Col: 1}, types.IntType())
	asc.publish(-1<<62, 5)
	if sel, _, _ := asc.Keep(b); !reflect.DeepEqual(sel, []int32{0, 1, 4}) {
		t.Fatalf("ASC bound 5 kept %v", sel)
	}
	if got := desc.Columns(); !reflect.DeepEqual(got, []bool{false, true}) {
		t.Fatalf("columns %v", got)
	}
	if _, ok := NewTopNScanBound(opspec.SortKey{Col: 0}, types.StringType()); ok {
		t.Fatal("took a STRING key")
	}
}
