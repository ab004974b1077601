package runtime

import (
	"fmt"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// flightsLikeBatch is n rows of (origin STRING, delay BIGINT): 3-letter
// codes of 229 airports, some short and long strings, and NULLs.
func flightsLikeBatch(n int) *types.Batch {
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	delays := make([]int64, n)
	for i := 0; i < n; i++ {
		switch {
		case i%97 == 0:
			sb.AppendNull()
		case i%89 == 0:
			sb.Append("")
		case i%83 == 0:
			sb.Append(fmt.Sprintf("a long airport name number %d", i%7))
		default:
			sb.Append(fmt.Sprintf("%c%c%c", 'A'+i*7%229%26, 'A'+i*7%229/26, 'X'))
		}
		delays[i] = int64(i % 300)
	}
	return &types.Batch{Cols: []arrow.Array{sb.NewArray(), vector.FromValues(arrow.PrimitiveTypes.Int64, delays, nil, -1)}, Len: n}
}

// PartitionBatch puts every row in exactly one part and rows of equal
// keys (NULL, "", 3-letter codes, longer strings) in the same part.
func TestPartitionBatchKeepsKeysTogether(t *testing.T) {
	b := flightsLikeBatch(20000)
	for _, n := range []int{1, 2, 3, 8} {
		parts := PartitionBatch(b, []int{0}, n)
		partOf := map[string]int{}
		total := 0
		for p, pb := range parts {
			if pb == nil {
				continue
			}
			total += pb.Len
			for i := 0; i < pb.Len; i++ {
				key := "NULL"
				if !pb.Cols[0].IsNull(i) {
					key = "v:" + pb.Cols[0].(*array.String).Value(i)
				}
				if q, ok := partOf[key]; ok && q != p {
					t.Fatalf("n=%d: key %q in parts %d and %d", n, key, q, p)
				}
				partOf[key] = p
			}
		}
		if total != b.Len {
			t.Fatalf("n=%d: %d rows in the parts, want %d", n, total, b.Len)
		}
		if n > 1 && len(parts) == n {
			used := 0
			for _, pb := range parts {
				if pb != nil {
					used++
				}
			}
			if used < n {
				t.Errorf("n=%d: only %d parts used for %d keys", n, used, len(partOf))
			}
		}
	}
}

func BenchmarkPartitionBatchStringKey(b *testing.B) {
	batch := flightsLikeBatch(8192)
	b.ReportAllocs()
	for b.Loop() {
		PartitionBatch(batch, []int{0}, 2)
	}
}
