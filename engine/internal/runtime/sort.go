package runtime

import (
	"bytes"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// rowComparator compares rows i and j of the same columns.
type rowComparator func(i, j int) int

// cmpTotalF orders floating point sort and partition keys as Java's
// Double.compare does in Flink's sort: NaN equals NaN and follows every
// number (cmpF, as SQL's < and >, finds NaN equal to everything, which is
// no order: a sort around NaNs came out unsorted and OVER partitions
// merged). Unlike Double.compare, -0.0 equals 0.0.
func cmpTotalF(a, b float64) int {
	if c := cmpF(a, b); c != 0 {
		return c
	}
	switch an, bn := math.IsNaN(a), math.IsNaN(b); {
	case an && !bn:
		return 1
	case bn && !an:
		return -1
	}
	return 0
}

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
		return func(i, j int) int { return cmpTotalF(float64(v[i]), float64(v[j])) }
	case arrow.FLOAT64:
		v := vector.Values[float64](arr)
		return func(i, j int) int { return cmpTotalF(v[i], v[j]) }
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

// newRowEqual reports whether rows i and j of b hold equal values in the
// columns cols (NULL equals NULL), as partitioning needs: strings compare
// for equality, without ordering their bytes.
func newRowEqual(b *types.Batch, cols []int, ts []*types.DataType) func(i, j int) bool {
	eqs := make([]func(i, j int) bool, len(cols))
	for k, c := range cols {
		col := b.Cols[c]
		var eq func(i, j int) bool
		switch col.DataType().ID() {
		case arrow.STRING, arrow.BINARY:
			offs, data := vector.StringData(col)
			eq = func(i, j int) bool {
				return vector.UnsafeString(data[offs[i]:offs[i+1]]) == vector.UnsafeString(data[offs[j]:offs[j+1]])
			}
		default:
			cmp := columnComparator(col, ts[c])
			eq = func(i, j int) bool { return cmp(i, j) == 0 }
		}
		if col.NullN() > 0 {
			values := eq
			eq = func(i, j int) bool {
				ni, nj := col.IsNull(i), col.IsNull(j)
				if ni || nj {
					return ni == nj
				}
				return values(i, j)
			}
		}
		eqs[k] = eq
	}
	if len(eqs) == 1 {
		return eqs[0]
	}
	return func(i, j int) bool {
		for _, eq := range eqs {
			if !eq(i, j) {
				return false
			}
		}
		return true
	}
}

// newRowComparator builds a comparator over the key columns of a batch,
// for callers that compare about once per row (a bounded heap, a scan for
// partition boundaries). Each key's comparator folds in its direction and
// null ordering and skips the null checks when the column has no nulls.
func newRowComparator(b *types.Batch, keys []opspec.SortKey, ts []*types.DataType) rowComparator {
	return buildRowComparator(b, keys, ts, false)
}

// newSortComparator is newRowComparator for a full sort of the batch
// (n log n comparisons): it also compares low cardinality string columns
// of large batches by precomputed ranks, which pays for the one hash
// lookup per row that builds them.
func newSortComparator(b *types.Batch, keys []opspec.SortKey, ts []*types.DataType) rowComparator {
	return buildRowComparator(b, keys, ts, true)
}

func buildRowComparator(b *types.Batch, keys []opspec.SortKey, ts []*types.DataType, ranked bool) rowComparator {
	cmps := make([]func(i, j int) int, len(keys))
	for k, key := range keys {
		cmps[k] = keyComparator(b.Cols[key.Col], ts[key.Col], key, ranked)
	}
	switch len(cmps) {
	case 0:
		return func(i, j int) int { return 0 }
	case 1:
		return cmps[0]
	case 2:
		c0, c1 := cmps[0], cmps[1]
		return func(i, j int) int {
			if c := c0(i, j); c != 0 {
				return c
			}
			return c1(i, j)
		}
	}
	return func(i, j int) int {
		for _, c := range cmps {
			if r := c(i, j); r != 0 {
				return r
			}
		}
		return 0
	}
}

// keyComparator compares rows i and j of one key column in the key's
// direction and null ordering.
func keyComparator(col arrow.Array, t *types.DataType, key opspec.SortKey, ranked bool) func(i, j int) int {
	c := columnComparator(col, t)
	if ranked {
		if ranks, _ := stringRanks(col); ranks != nil {
			c = func(i, j int) int { return cmp64(int64(ranks[i]), int64(ranks[j])) }
		}
	}
	desc := key.Desc
	if col.NullN() == 0 {
		if desc {
			asc := c
			return func(i, j int) int { return asc(j, i) }
		}
		return c
	}
	nullCmp := 1 // a NULL i sorts after a value j
	if key.NullsFirst {
		nullCmp = -1
	}
	return func(i, j int) int {
		ni, nj := col.IsNull(i), col.IsNull(j)
		switch {
		case ni && nj:
			return 0
		case ni:
			return nullCmp
		case nj:
			return -nullCmp
		case desc:
			return c(j, i)
		}
		return c(i, j)
	}
}

// stringRanks returns, for a string column of at least rankMinRows rows
// with at most one distinct value per rankMaxRatio rows, each row's rank
// among the column's sorted distinct values (null rows get rank 0 and are
// ordered by the null checks) and the distinct values in rank order;
// otherwise nil. Comparing ranks replaces a byte comparison per sort
// comparison with an integer one.
func stringRanks(col arrow.Array) (ranks []int32, sorted []string) {
	if col.Len() < rankMinRows {
		return nil, nil
	}
	switch col.DataType().ID() {
	case arrow.STRING, arrow.BINARY:
	default:
		return nil, nil
	}
	return stringRanksParts([]selectedRows{{b: &types.Batch{Cols: []arrow.Array{col}, Len: col.Len()}}}, 0, col.Len())
}

// rankMinRows and rankMaxRatio bound the string columns stringRanks ranks:
// at least rankMinRows rows, at most one distinct value per rankMaxRatio
// rows.
const rankMinRows, rankMaxRatio = 4096, 8

// stringRanksParts is stringRanks for the string column c of the selected
// rows of parts, total of them, in order (as if gathered into one column),
// read where they are.
func stringRanksParts(parts []selectedRows, c, total int) (ranks []int32, sorted []string) {
	if total < rankMinRows {
		return nil, nil
	}
	ids := make(map[string]int32)
	var shortIDs u64Table // values of up to 7 bytes
	rowID := make([]int32, total)
	var distinct []string
	k := 0
	for _, p := range parts {
		col := p.b.Cols[c]
		offs, data := vector.StringData(col)
		nulls := col.NullN() > 0
		for j := range p.len() {
			i := j
			if p.sel != nil {
				i = int(p.sel[j])
			}
			k++
			if nulls && col.IsNull(i) {
				continue
			}
			var id int32
			var ok bool
			key, short := shortKey(offs, data, i)
			if short {
				if p := shortIDs.find(key); p != nil {
					id, ok = int32(*p), true
				}
			} else {
				id, ok = ids[vector.UnsafeString(data[offs[i]:offs[i+1]])]
			}
			if !ok {
				if len(distinct) >= total/rankMaxRatio {
					return nil, nil
				}
				id = int32(len(distinct))
				s := string(data[offs[i]:offs[i+1]])
				if short {
					p, _ := shortIDs.slot(key)
					*p = int64(id)
				} else {
					ids[s] = id
				}
				distinct = append(distinct, s)
			}
			rowID[k-1] = id
		}
	}
	if len(distinct) == 0 {
		// every row NULL: rank 0 each, no values
		return rowID, nil
	}
	order := make([]int32, len(distinct))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(distinct[a], distinct[b]) })
	rank := make([]int32, len(distinct))
	sorted = make([]string, len(distinct))
	for r, id := range order {
		rank[id] = int32(r)
		sorted[r] = distinct[id]
	}
	for i, id := range rowID {
		rowID[i] = rank[id]
	}
	return rowID, sorted
}

// stableSortIndex sorts idx, a permutation of row positions, by cmp,
// keeping rows that compare equal in their original order (SQL ORDER BY
// over a batch is deterministic in Riffle: ties keep arrival order). The
// positions are distinct, so breaking ties on them turns pattern-defeating
// quicksort into a stable O(n log n) sort, faster than an insertion and
// merge based stable sort on large batches.
func stableSortIndex(idx []int32, cmp rowComparator) {
	slices.SortFunc(idx, func(a, b int32) int {
		if c := cmp(int(a), int(b)); c != 0 {
			return c
		}
		return int(a) - int(b)
	})
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
	Keys   []opspec.SortKey
	Types  []*types.DataType
	Offset int64
	Fetch  int64 // -1: no limit
	// ScanBound, when set, receives the top-N's bound on its first key
	// for the scan it reads (TopNScanBound).
	ScanBound *TopNScanBound
	buf       []*types.Batch
	held      int
}

// TopNLimit bounds the offset+fetch up to which Sort selects the best rows
// of each batch with a heap (Flink's SortLimit) instead of buffering.
const TopNLimit = 1 << 16

// ProcessBatch implements Operator.
func (s *Sort) ProcessBatch(_ int, b *types.Batch) error {
	if k := s.Offset + s.Fetch; s.Fetch >= 0 && k <= TopNLimit {
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
	return sortRows(all, s.Keys, s.Types)
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
	// rows strictly worse than the k-th best row so far in the first key
	// cannot enter: a typed test of that key skips them before the
	// comparator
	bound := newTopNBound(b, s.Keys[0])
	if bound != nil && len(s.buf) == 1 && s.held >= k {
		bound.setFrom(s.buf[0].Cols[s.Keys[0].Col], s.held-1)
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
		if bound != nil && bound.excludes(int(i)) {
			continue
		}
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
			if bound != nil && len(h) == k {
				bound.setFrom(b.Cols[s.Keys[0].Col], int(h[0]))
			}
			continue
		}
		if worse(h[0], i) {
			h[0] = i
			down(0)
			if bound != nil {
				bound.setFrom(b.Cols[s.Keys[0].Col], int(h[0]))
			}
		}
	}
	if s.ScanBound != nil && bound != nil && len(h) == k {
		s.ScanBound.publish(bound.lo, bound.hi)
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

// topNBound holds the first sort key's value of the worst row a top-N
// keeps (an integral or temporal key): a row whose key is strictly worse
// cannot enter, whatever its other keys.
type topNBound struct {
	vals     []int64 // the batch's key values
	col      arrow.Array
	valid    []byte // the batch's validity bitmap, nil without NULLs
	validOff int
	desc     bool
	// a row is excluded when its value is below lo or above hi
	lo, hi int64
}

// newTopNBound returns the bound for b's first sort key, or nil when the
// key is not integral or temporal.
func newTopNBound(b *types.Batch, key opspec.SortKey) *topNBound {
	col := b.Cols[key.Col]
	vals, ok := intKeyValues(col)
	if !ok {
		return nil
	}
	t := &topNBound{vals: vals, col: col, desc: key.Desc, lo: math.MinInt64, hi: math.MaxInt64}
	if col.NullN() > 0 {
		t.valid, t.validOff = col.NullBitmapBytes(), col.Data().Offset()
	}
	return t
}

// setFrom makes row i of col (a column of the key's type) the bound; a
// NULL there leaves no bound.
func (t *topNBound) setFrom(col arrow.Array, i int) {
	t.lo, t.hi = math.MinInt64, math.MaxInt64
	if col.IsNull(i) {
		return
	}
	var v int64
	if col == t.col {
		v = t.vals[i]
	} else if vals, ok := intKeyValues(col); ok {
		v = vals[i]
	} else {
		return
	}
	if t.desc {
		t.lo = v
	} else {
		t.hi = v
	}
}

// excludes reports whether row i's key is strictly worse than the bound
// (a NULL key is left to the comparator).
func (t *topNBound) excludes(i int) bool {
	if v := t.vals[i]; v >= t.lo && v <= t.hi {
		return false
	}
	if t.valid != nil {
		j := i + t.validOff
		return t.valid[j>>3]&(1<<(j&7)) != 0
	}
	return true
}
