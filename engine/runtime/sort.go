package runtime

import (
	"bytes"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// SortKey is one ORDER BY key.
type SortKey struct {
	Col        int
	Desc       bool
	NullsFirst bool
}

// DefaultNullsFirst is Flink's default null ordering: NULL is the smallest
// value, so NULLS FIRST for ASC and NULLS LAST for DESC.
func DefaultNullsFirst(desc bool) bool { return !desc }

// rowComparator compares rows i and j of the same columns.
type rowComparator func(i, j int) int

func columnComparator(arr arrow.Array, t *types.DataType) func(i, j int) int {
	switch arr.DataType().ID() {
	case arrow.INT8:
		v := vector.Values[int8](arr)
		return func(i, j int) int { return cmp64(int64(v[i]), int64(v[j])) }
	case arrow.INT16:
		v := vector.Values[int16](arr)
		return func(i, j int) int { return cmp64(int64(v[i]), int64(v[j])) }
	case arrow.INT32, arrow.DATE32, arrow.TIME32, arrow.INTERVAL_MONTHS:
		v := vector.Values[int32](arr)
		return func(i, j int) int { return cmp64(int64(v[i]), int64(v[j])) }
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		v := vector.Values[int64](arr)
		return func(i, j int) int { return cmp64(v[i], v[j]) }
	case arrow.FLOAT32:
		v := vector.Values[float32](arr)
		return func(i, j int) int { return cmpF(float64(v[i]), float64(v[j])) }
	case arrow.FLOAT64:
		v := vector.Values[float64](arr)
		return func(i, j int) int { return cmpF(v[i], v[j]) }
	case arrow.DECIMAL128:
		v := vector.Values[decimal128.Num](arr)
		return func(i, j int) int { return v[i].Cmp(v[j]) }
	case arrow.STRING, arrow.BINARY:
		offs, data := vector.StringData(arr)
		return func(i, j int) int {
			return bytes.Compare(data[offs[i]:offs[i+1]], data[offs[j]:offs[j+1]])
		}
	case arrow.BOOL:
		b := arr.(*array.Boolean)
		return func(i, j int) int {
			x, y := b.Value(i), b.Value(j)
			switch {
			case x == y:
				return 0
			case !x:
				return -1
			}
			return 1
		}
	}
	return func(i, j int) int {
		return CompareValues(types.ValueAt(arr, i, t), types.ValueAt(arr, j, t))
	}
}

// newRowComparator builds a comparator over the key columns of a batch.
func newRowComparator(b *types.Batch, keys []SortKey, ts []*types.DataType) rowComparator {
	cmps := make([]func(i, j int) int, len(keys))
	for k, key := range keys {
		cmps[k] = columnComparator(b.Cols[key.Col], ts[key.Col])
	}
	return func(i, j int) int {
		for k, key := range keys {
			col := b.Cols[key.Col]
			ni, nj := col.IsNull(i), col.IsNull(j)
			var c int
			switch {
			case ni && nj:
				c = 0
			case ni || nj:
				c = 1
				if ni == key.NullsFirst {
					c = -1
				}
				if c != 0 {
					return c
				}
			default:
				c = cmps[k](i, j)
				if key.Desc {
					c = -c
				}
			}
			if c != 0 {
				return c
			}
		}
		return 0
	}
}

// ConcatBatches joins batches into one (kinds included).
func ConcatBatches(bs []*types.Batch, ncols int) *types.Batch {
	if len(bs) == 1 {
		return bs[0]
	}
	cols := make([]arrow.Array, ncols)
	n := 0
	hasKinds := false
	for _, b := range bs {
		n += b.Len
		if b.Kinds != nil {
			hasKinds = true
		}
	}
	for c := 0; c < ncols; c++ {
		parts := make([]arrow.Array, len(bs))
		for i, b := range bs {
			parts[i] = b.Cols[c]
		}
		cols[c] = vector.Concat(parts)
	}
	var kinds []types.RowKind
	if hasKinds {
		kinds = make([]types.RowKind, 0, n)
		for _, b := range bs {
			for i := 0; i < b.Len; i++ {
				kinds = append(kinds, b.Kind(i))
			}
		}
	}
	return &types.Batch{Cols: cols, Kinds: kinds, Len: n}
}

// Sort is a blocking sort with optional OFFSET/FETCH (batch mode ORDER BY;
// Flink's Sort / SortLimit). With a fetch it keeps only the best
// offset+fetch rows while reading.
type Sort struct {
	BaseOperator
	Keys   []SortKey
	Types  []*types.DataType
	Offset int64
	Fetch  int64 // -1: no limit
	buf    []*types.Batch
	held   int
}

// topNLimit bounds the offset+fetch up to which Sort selects the best rows
// of each batch with a heap (Flink's SortLimit) instead of buffering.
const topNLimit = 1 << 16

// ProcessBatch implements Operator.
func (s *Sort) ProcessBatch(_ int, b *types.Batch) error {
	if k := s.Offset + s.Fetch; s.Fetch >= 0 && k <= topNLimit {
		s.topN(b, int(k))
		return nil
	}
	s.buf = append(s.buf, b)
	s.held += b.Len
	if s.Fetch >= 0 && int64(s.held) > 2*(s.Offset+s.Fetch)+4096 {
		s.compact(int(s.Offset + s.Fetch))
	}
	return nil
}

func (s *Sort) sorted() *types.Batch {
	if len(s.buf) == 0 {
		return nil
	}
	all := ConcatBatches(s.buf, len(s.Types))
	idx := make([]int32, all.Len)
	for i := range idx {
		idx[i] = int32(i)
	}
	cmp := newRowComparator(all, s.Keys, s.Types)
	slices.SortStableFunc(idx, func(a, b int32) int { return cmp(int(a), int(b)) })
	return TakeRows(all, idx)
}

func (s *Sort) compact(keep int) {
	b := s.sorted()
	if b.Len > keep {
		b = b.Slice(0, keep)
	}
	s.buf = []*types.Batch{b}
	s.held = b.Len
}

// ProcessWatermark implements Operator (sorting holds everything until the end).
func (s *Sort) ProcessWatermark(int, int64) error { return nil }

// EndInput emits the sorted rows.
func (s *Sort) EndInput(int) error {
	b := s.sorted()
	if b == nil {
		return nil
	}
	from := int(min(s.Offset, int64(b.Len)))
	to := b.Len
	if s.Fetch >= 0 && int64(from)+s.Fetch < int64(to) {
		to = from + int(s.Fetch)
	}
	b = b.Slice(from, to)
	size := max(s.Ctx.Config.BatchSize, 1)
	for i := 0; i < b.Len; i += size {
		if err := s.Emit(b.Slice(i, min(i+size, b.Len))); err != nil {
			return err
		}
	}
	return s.Out.EmitWatermark(MaxWatermark)
}

// Limit passes the rows [offset, offset+fetch) of its input in arrival
// order (LIMIT/OFFSET without ORDER BY) and drops the rest.
type Limit struct {
	BaseOperator
	Offset, Fetch int64
	seen          int64
}

// ProcessBatch implements Operator.
func (l *Limit) ProcessBatch(_ int, b *types.Batch) error {
	start := l.seen
	l.seen += int64(b.Len)
	from := max(l.Offset-start, 0)
	to := int64(b.Len)
	if l.Fetch >= 0 {
		to = min(to, l.Offset+l.Fetch-start)
	}
	if from >= to {
		return nil
	}
	return l.Emit(b.Slice(int(from), int(to)))
}

// topN keeps in s.buf only the best k rows seen so far: it selects the
// best k rows of b with a bounded heap (n log k comparisons), then merges
// them with the rows kept so far. Ties keep arrival order.
func (s *Sort) topN(b *types.Batch, k int) {
	if k == 0 || b.Len == 0 {
		return
	}
	cmp := newRowComparator(b, s.Keys, s.Types)
	// worse reports row x after row y (ties: the later row is worse)
	worse := func(x, y int32) bool {
		if c := cmp(int(x), int(y)); c != 0 {
			return c > 0
		}
		return x > y
	}
	// max-heap of the best rows: the root is the worst of them
	h := make([]int32, 0, min(k, b.Len))
	down := func(i int) {
		for {
			l, r, m := 2*i+1, 2*i+2, i
			if l < len(h) && worse(h[l], h[m]) {
				m = l
			}
			if r < len(h) && worse(h[r], h[m]) {
				m = r
			}
			if m == i {
				return
			}
			h[i], h[m] = h[m], h[i]
			i = m
		}
	}
	for i := int32(0); i < int32(b.Len); i++ {
		if len(h) < k {
			h = append(h, i)
			for c := len(h) - 1; c > 0; {
				p := (c - 1) / 2
				if !worse(h[c], h[p]) {
					break
				}
				h[c], h[p] = h[p], h[c]
				c = p
			}
			continue
		}
		if worse(h[0], i) {
			h[0] = i
			down(0)
		}
	}
	slices.SortFunc(h, func(x, y int32) int {
		if worse(x, y) {
			return 1
		}
		if worse(y, x) {
			return -1
		}
		return 0
	})
	best := TakeRows(b, h)
	if len(s.buf) == 0 {
		s.buf, s.held = []*types.Batch{best}, best.Len
		return
	}
	s.buf = append(s.buf, best)
	s.compact(k)
}
