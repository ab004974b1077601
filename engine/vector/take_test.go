package vector

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestTakeStrings gathers strings of 0 to 20 bytes (short ones are copied
// as one word) from a sliced array with NULLs, including -1 indexes and
// the last values of the buffer, and compares them with the source.
func TestTakeStrings(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	bld := array.NewStringBuilder(memory.DefaultAllocator)
	var want []*string
	for i := 0; i < 500; i++ {
		if r.Intn(9) == 0 {
			bld.AppendNull()
			want = append(want, nil)
			continue
		}
		s := strings.Repeat(string(rune('a'+r.Intn(26))), r.Intn(21))
		bld.Append(s)
		want = append(want, &s)
	}
	full := bld.NewStringArray()
	src := array.NewSlice(full, 3, 500).(*array.String)
	want = want[3:]
	idx := []int32{int32(src.Len() - 1), -1}
	for i := 0; i < 2000; i++ {
		idx = append(idx, int32(r.Intn(src.Len())))
	}
	idx = append(idx, int32(src.Len()-1), int32(src.Len()-2))
	got := Take(src, idx).(*array.String)
	if got.Len() != len(idx) {
		t.Fatalf("%d values, want %d", got.Len(), len(idx))
	}
	for i, j := range idx {
		switch {
		case j < 0 || want[j] == nil:
			if !got.IsNull(i) {
				t.Fatalf("value %d (row %d): %q, want NULL", i, j, got.Value(i))
			}
		case got.IsNull(i) || got.Value(i) != *want[j]:
			t.Fatalf("value %d (row %d): %q, want %q", i, j, got.Value(i), *want[j])
		}
	}
}

// BenchmarkTakeStrings gathers 8,192 three-byte strings in random order.
func BenchmarkTakeStrings(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	bld := array.NewStringBuilder(memory.DefaultAllocator)
	for i := 0; i < 8192; i++ {
		bld.Append(string([]byte{byte('A' + r.Intn(26)), byte('A' + r.Intn(26)), byte('A' + r.Intn(26))}))
	}
	src := bld.NewStringArray()
	idx := make([]int32, 8192)
	for i := range idx {
		idx[i] = int32(r.Intn(8192))
	}
	b.ReportAllocs()
	for n := 0; n < b.N; n++ {
		Take(src, idx)
	}
}

// TestSelectionFromBools lists the TRUE rows of boolean arrays with and
// without NULLs, of lengths that are not a multiple of 8, sliced at byte
// and at bit offsets, and all-true.
func TestSelectionFromBools(t *testing.T) {
	r := rand.New(rand.NewSource(4))
	bld := array.NewBooleanBuilder(memory.DefaultAllocator)
	var vals, valid []bool
	for i := 0; i < 1003; i++ {
		v, ok := r.Intn(5) == 0, r.Intn(7) != 0
		vals, valid = append(vals, v), append(valid, ok)
		if ok {
			bld.Append(v)
		} else {
			bld.AppendNull()
		}
	}
	withNulls := bld.NewBooleanArray()
	for i := range vals {
		bld.Append(vals[i])
	}
	noNulls := bld.NewBooleanArray()
	check := func(name string, arr *array.Boolean, from int, nulls bool) {
		t.Helper()
		sel, all := SelectionFromBools(arr)
		var want []int32
		for i := 0; i < arr.Len(); i++ {
			if vals[from+i] && (!nulls || valid[from+i]) {
				want = append(want, int32(i))
			}
		}
		if len(sel) != len(want) || all != (len(want) == arr.Len()) {
			t.Fatalf("%s: %d rows (all %v), want %d", name, len(sel), all, len(want))
		}
		for i := range want {
			if sel[i] != want[i] {
				t.Fatalf("%s: selection[%d] = %d, want %d", name, i, sel[i], want[i])
			}
		}
	}
	check("nulls", withNulls, 0, true)
	check("no nulls", noNulls, 0, false)
	check("nulls sliced at byte 16", array.NewSlice(withNulls, 16, 1001).(*array.Boolean), 16, true)
	check("sliced at bit 5", array.NewSlice(noNulls, 5, 900).(*array.Boolean), 5, false)
	check("nulls sliced at bit 3", array.NewSlice(withNulls, 3, 77).(*array.Boolean), 3, true)
	for i := 0; i < 13; i++ {
		bld.Append(true)
	}
	if sel, all := SelectionFromBools(bld.NewBooleanArray()); !all || len(sel) != 13 || sel[12] != 12 {
		t.Fatalf("all true: %v %v", sel, all)
	}
}
