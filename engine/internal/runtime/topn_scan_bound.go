package runtime

import (
	"math"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// TopNScanBound is shared by a Top-N Sort (ORDER BY ... LIMIT k, first
// key integral or temporal) and the scan it reads: the Sort publishes the
// first key's value of the k-th best row it holds, and the scan, through
// it as a connector.RowFilter, drops the rows whose key is strictly worse,
// which cannot enter the result (late materialization: a CSV reader then
// builds the string columns only for the rows that may). The bound only
// tightens; one bound serves every parallel instance, since the k-th best
// of any instance's rows bounds the final k best as well. Rows with a NULL
// key are kept (the Sort's comparator places them).
type TopNScanBound struct {
	col  int
	desc bool
	// a row is dropped when its key is below lo or above hi
	lo, hi atomic.Int64
}

// NewTopNScanBound returns the bound of a Top-N over key, a column of
// type t, or false when t is not integral or temporal.
func NewTopNScanBound(key opspec.SortKey, t *types.DataType) (*TopNScanBound, bool) {
	switch t.Root {
	case types.TinyInt, types.SmallInt, types.Integer, types.BigInt, types.DateRoot, types.TimeRoot, types.TimestampRoot:
	default:
		return nil, false
	}
	b := &TopNScanBound{col: key.Col, desc: key.Desc}
	b.lo.Store(math.MinInt64)
	b.hi.Store(math.MaxInt64)
	return b, true
}

// publish tightens the bound to the Sort's (lo, hi).
func (t *TopNScanBound) publish(lo, hi int64) {
	if t.desc {
		for cur := t.lo.Load(); lo > cur && !t.lo.CompareAndSwap(cur, lo); cur = t.lo.Load() {
		}
		return
	}
	for cur := t.hi.Load(); hi < cur && !t.hi.CompareAndSwap(cur, hi); cur = t.hi.Load() {
	}
}

// Columns implements connector.RowFilter.
func (t *TopNScanBound) Columns() []bool {
	c := make([]bool, t.col+1)
	c[t.col] = true
	return c
}

// Keep implements connector.RowFilter: the rows whose key is NULL or not
// strictly worse than the bound.
func (t *TopNScanBound) Keep(b *types.Batch) ([]int32, bool, error) {
	lo, hi := t.lo.Load(), t.hi.Load()
	if lo == math.MinInt64 && hi == math.MaxInt64 || t.col >= len(b.Cols) || b.Cols[t.col] == nil {
		return nil, true, nil
	}
	col := b.Cols[t.col]
	sel := make([]int32, 0, 64)
	switch col.DataType().ID() {
	case arrow.INT32, arrow.DATE32, arrow.TIME32:
		for i, v := range vector.Values[int32](col) {
			if x := int64(v); x >= lo && x <= hi || col.IsNull(i) {
				sel = append(sel, int32(i))
			}
		}
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64:
		for i, x := range vector.Values[int64](col) {
			if x >= lo && x <= hi || col.IsNull(i) {
				sel = append(sel, int32(i))
			}
		}
	default:
		vals, ok := intKeyValues(col)
		if !ok {
			return nil, true, nil
		}
		for i, x := range vals {
			if x >= lo && x <= hi || col.IsNull(i) {
				sel = append(sel, int32(i))
			}
		}
	}
	return sel, len(sel) == b.Len, nil
}
