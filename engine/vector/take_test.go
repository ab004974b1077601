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
