package runtime

import (
	"math"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// keyHasNull reports whether a key column is NULL at row i where NULL must
// not match (SQL equality).
func keyHasNull(b *types.Batch, keys []int, nullSafe []bool, i int) bool {
	for k, c := range keys {
		if b.Cols[c].IsNull(i) && (nullSafe == nil || !nullSafe[k]) {
			return true
		}
	}
	return false
}

// HashJoin is the batch-mode join: it reads its build side (input 1, the
// right side) completely into a hash table, then streams the probe side
// (input 0). Output is insert-only.
type HashJoin struct {
	BaseOperator
	Spec     opspec.JoinSpec
	residual expr.Evaluator

	buildBatches []*types.Batch
	built        bool
	build        *types.Batch
	table        map[string][]int32
	// strKeys replaces table when the join has one key, a character
	// string on both sides (see finishBuild).
	strKeys   *strJoinIndex
	matched   []bool
	keyBuf    []byte
	buildDone bool

	// Out lists the columns of the joined row (the left input's, then the
	// right input's) that the join emits, in that order; nil emits them
	// all. Semi and anti joins emit left rows, so their Out holds left
	// columns only. The planner sets it when the join's parent reads
	// fewer columns (jobgraph's planJoinOutputs).
	Out []int
	// li and ri are the matching pairs' buffers, kept between probe
	// batches (Take copies the rows out of them).
	li, ri []int32
}

// NextInput implements InputSelector: the build side first.
func (j *HashJoin) NextInput() int {
	if !j.buildDone {
		return 1
	}
	return 0
}

// Open implements Operator.
func (j *HashJoin) Open(ctx *OpContext, out Output) error {
	j.BaseOperator.Open(ctx, out)
	if j.Spec.Residual != nil {
		ev, err := expr.Compile(j.Spec.Residual)
		if err != nil {
			return err
		}
		j.residual = ev
	}
	return nil
}

// ProcessBatch implements Operator.
func (j *HashJoin) ProcessBatch(in int, b *types.Batch) error {
	if in == 1 {
		j.buildBatches = append(j.buildBatches, b)
		return nil
	}
	j.finishBuild()
	return j.probe(b)
}

// ProcessWatermark implements Operator (batch: nothing to do until the end).
func (j *HashJoin) ProcessWatermark(int, int64) error { return nil }

func (j *HashJoin) finishBuild() {
	if j.built {
		return
	}
	j.built = true
	if len(j.buildBatches) == 0 {
		j.build = emptyBatch(j.Spec.RightTypes)
	} else {
		j.build = ConcatBatches(j.buildBatches, len(j.Spec.RightTypes))
	}
	j.buildBatches = nil
	j.matched = make([]bool, j.build.Len)
	if len(j.Spec.RightKeys) == 1 && isStringKey(j.Spec.LeftTypes[j.Spec.LeftKeys[0]]) &&
		isStringKey(j.Spec.RightTypes[j.Spec.RightKeys[0]]) {
		j.strKeys = newStrJoinIndex(j.build, j.Spec.RightKeys[0], len(j.Spec.NullSafe) > 0 && j.Spec.NullSafe[0])
		if j.Ctx != nil {
			j.Ctx.ReportState(j.strKeys.x.count(), int64(j.build.Len)*48)
		}
		return
	}
	j.table = make(map[string][]int32, j.build.Len)
	for i := 0; i < j.build.Len; i++ {
		if keyHasNull(j.build, j.Spec.RightKeys, j.Spec.NullSafe, i) {
			continue
		}
		j.keyBuf = AppendRowKey(j.keyBuf[:0], j.build, j.Spec.RightKeys, i)
		k := string(j.keyBuf)
		j.table[k] = append(j.table[k], int32(i))
	}
	if j.Ctx != nil {
		j.Ctx.ReportState(int64(len(j.table)), int64(j.build.Len)*48)
	}
}

func emptyBatch(ts []*types.DataType) *types.Batch {
	return types.NewBatchBuilder(ts).Build()
}

// maxJoinBatchRows bounds the rows of one batch the hash join emits. A
// probe batch whose rows each match many build rows (a join that fans
// out, a cross join) emits its pairs in batches of at most this many rows,
// each sent on before the next is made: the join holds one such batch at a
// time, and the channel's byte budget
// (riffle.exchange.max-bytes-per-channel) holds it back from there. A
// variable for tests.
var maxJoinBatchRows = 1 << 16

// probeCursor is where the pairs of a probe batch go on from: the next
// probe row, and how many of that row's matching build rows are paired
// already.
type probeCursor struct{ row, off int }

func (j *HashJoin) probe(b *types.Batch) error {
	if j.strKeys != nil {
		j.strKeys.lookup(b.Cols[j.Spec.LeftKeys[0]], b.Len)
	}
	kind := j.Spec.Kind
	semi := kind == opspec.SemiJoin || kind == opspec.AntiJoin
	var probeMatched []bool
	if semi || kind == opspec.LeftJoin || kind == opspec.FullJoin {
		probeMatched = make([]bool, b.Len)
	}
	var cur probeCursor
	for done := false; !done; {
		var li, ri []int32
		li, ri, cur = j.pairs(b, cur, j.li[:0], j.ri[:0], maxJoinBatchRows)
		j.li, j.ri = li, ri
		done = cur.row >= b.Len
		// residual condition on candidate pairs, over the whole joined row
		if j.residual != nil && len(li) > 0 {
			var err error
			if li, ri, err = keepResidualPairs(j.residual, j.Ctx.Eval, joinRows(b, j.build, li, ri, nil), li, ri); err != nil {
				return err
			}
		}
		if kind == opspec.RightJoin || kind == opspec.FullJoin {
			for _, r := range ri {
				j.matched[r] = true
			}
		}
		if probeMatched != nil {
			for _, l := range li {
				probeMatched[l] = true
			}
		}
		if semi {
			continue
		}
		if done && probeMatched != nil {
			// LEFT and FULL: the probe rows that matched nothing, with
			// NULLs for the build side, after the last pairs
			for i, m := range probeMatched {
				if !m {
					li = append(li, int32(i))
					ri = append(ri, -1)
				}
			}
		}
		if len(li) > 0 {
			if err := j.Emit(joinRows(b, j.build, li, ri, j.Out)); err != nil {
				return err
			}
		}
	}
	if !semi {
		return nil
	}
	var sel []int32
	for i, m := range probeMatched {
		if m == (kind == opspec.SemiJoin) {
			sel = append(sel, int32(i))
		}
	}
	if len(sel) == 0 {
		return nil
	}
	return j.Emit(TakeRows(projectCols(b, j.Out), sel))
}

// pairs appends to li and ri the matching pairs (probe row, build row) of
// probe batch b from cur on, in probe order and build order within, and
// stops after limit pairs (limit >= 1). It returns the cursor after the
// last pair; its row is b.Len when the batch has no pairs left. With
// string keys, strKeys.lookup must have been called for b.
func (j *HashJoin) pairs(b *types.Batch, cur probeCursor, li, ri []int32, limit int) ([]int32, []int32, probeCursor) {
	if j.strKeys != nil {
		return j.strKeys.pairs(cur, li, ri, limit)
	}
	return pairsOf(b.Len, func(i int) []int32 {
		if keyHasNull(b, j.Spec.LeftKeys, j.Spec.NullSafe, i) {
			return nil
		}
		j.keyBuf = AppendRowKey(j.keyBuf[:0], b, j.Spec.LeftKeys, i)
		return j.table[vector.UnsafeString(j.keyBuf)]
	}, cur, li, ri, limit)
}

// pairsOf appends to li and ri the pairs (i, r) of probe rows i from cur
// on, below n, and the build rows r that matches(i) gives for each, in
// that order, and stops after limit pairs; it returns the cursor after the
// last pair (row n when none is left).
func pairsOf(n int, matches func(i int) []int32, cur probeCursor, li, ri []int32, limit int) ([]int32, []int32, probeCursor) {
	for i := cur.row; i < n; i++ {
		rows := matches(i)
		off := 0
		if i == cur.row {
			off = cur.off
		}
		var k int
		if li, ri, k = appendPairs(li, ri, int32(i), rows[off:], limit); off+k < len(rows) {
			return li, ri, probeCursor{row: i, off: off + k}
		}
	}
	return li, ri, probeCursor{row: n}
}

// appendPairs appends the pairs (row, r) for the build rows r of rows to
// li and ri, as many as keep len(li) at most limit, and returns how many
// of rows it paired.
func appendPairs(li, ri []int32, row int32, rows []int32, limit int) ([]int32, []int32, int) {
	n := min(len(rows), limit-len(li))
	for _, r := range rows[:n] {
		li = append(li, row)
		ri = append(ri, r)
	}
	return li, ri, n
}

// projectCols is b with only the columns out (nil: b itself).
func projectCols(b *types.Batch, out []int) *types.Batch {
	if out == nil {
		return b
	}
	cols := make([]arrow.Array, len(out))
	for k, c := range out {
		cols[k] = b.Cols[c]
	}
	return &types.Batch{Cols: cols, Len: b.Len, Kinds: b.Kinds}
}

// joinRows builds rows left[li[k]] ++ right[ri[k]]; index -1 gives NULLs.
// out lists the joined row's columns to build (left columns first, then
// right; nil: all of them), in order. When li is every left row in order
// (each probe row matched once, the common case of a join with a
// dimension table), the left columns are shared, not copied.
func joinRows(left, right *types.Batch, li, ri []int32, out []int) *types.Batch {
	nl := len(left.Cols)
	shareLeft := isIdentity(li, left.Len)
	takeLeft := func(c arrow.Array) arrow.Array {
		if shareLeft {
			return c
		}
		return vector.Take(c, li)
	}
	if out == nil {
		cols := make([]arrow.Array, 0, nl+len(right.Cols))
		for _, c := range left.Cols {
			cols = append(cols, takeLeft(c))
		}
		for _, c := range right.Cols {
			cols = append(cols, vector.Take(c, ri))
		}
		return &types.Batch{Cols: cols, Len: len(li)}
	}
	cols := make([]arrow.Array, len(out))
	for k, c := range out {
		if c < nl {
			cols[k] = takeLeft(left.Cols[c])
		} else {
			cols[k] = vector.Take(right.Cols[c-nl], ri)
		}
	}
	return &types.Batch{Cols: cols, Len: len(li)}
}

// isIdentity reports whether idx is 0, 1, ..., n-1.
func isIdentity(idx []int32, n int) bool {
	if len(idx) != n || n == 0 {
		return false
	}
	for i, x := range idx {
		if x != int32(i) {
			return false
		}
	}
	return true
}

// EndInput emits unmatched build rows for RIGHT and FULL joins.
func (j *HashJoin) EndInput(in int) error {
	if in == 1 {
		j.buildDone = true
		return nil
	}
	j.finishBuild()
	if j.Spec.Kind != opspec.RightJoin && j.Spec.Kind != opspec.FullJoin {
		return nil
	}
	var li, ri []int32
	for r, m := range j.matched {
		if !m {
			li = append(li, -1)
			ri = append(ri, int32(r))
		}
	}
	if len(ri) == 0 {
		return nil
	}
	left := emptyBatch(j.Spec.LeftTypes)
	return j.Emit(joinRows(left, j.build, li, ri, j.Out))
}

// keepResidualPairs evaluates a join's residual condition over cand, the
// batch of candidate pairs (pair k joins input row rows[k] with partner
// entries[k]), and returns the pairs for which it is TRUE (FALSE and NULL
// drop the pair), in their order. rows and entries are returned unchanged
// when every pair qualifies. Errors are the condition's evaluation errors.
func keepResidualPairs(residual expr.Evaluator, ev *expr.Ctx, cand *types.Batch, rows, entries []int32) ([]int32, []int32, error) {
	v, err := residual(ev, cand)
	if err != nil {
		return nil, nil, err
	}
	sel, all := vector.SelectionFromBools(v.Materialize(cand.Len))
	if all {
		return rows, entries, nil
	}
	nr, ne := make([]int32, len(sel)), make([]int32, len(sel))
	for k, s := range sel {
		nr[k], ne[k] = rows[s], entries[s]
	}
	return nr, ne, nil
}

// isStringKey reports a key of a character string type (CHAR, VARCHAR,
// STRING), held in an Arrow String array.
func isStringKey(t *types.DataType) bool {
	return t != nil && types.ToArrow(t).ID() == arrow.STRING
}

// strJoinIndex is the batch hash join's table for one character string
// key: the build side's key values are numbered by a strIndex (values of
// up to 7 bytes in an open-addressing table, longer ones in a Go map) and
// the build rows of value g are rows[start[g]:start[g+1]], in build order.
// NULL keys match only when nullSafe (IS NOT DISTINCT FROM).
type strJoinIndex struct {
	x           *strIndex
	start, rows []int32
	nullSafe    bool
	// unique: every key value has one build row, rows[g] (start[g] = g).
	unique bool
	// probe's buffers: a probe is not safe for concurrent use
	ids  []int32
	keys []uint64
}

func newStrJoinIndex(build *types.Batch, col int, nullSafe bool) *strJoinIndex {
	ix := &strJoinIndex{x: newStrIndex(col), nullSafe: nullSafe}
	ids := make([]int32, build.Len)
	var counts []int32
	c := build.Cols[col]
	for i := range ids {
		if !nullSafe && c.IsNull(i) {
			ids[i] = -1
			continue
		}
		g, isNew := ix.x.lookup(build, i, int32(len(counts)))
		if isNew {
			counts = append(counts, 0)
		}
		ids[i] = g
		counts[g]++
	}
	ix.start = make([]int32, len(counts)+1)
	for g, n := range counts {
		ix.start[g+1] = ix.start[g] + n
	}
	ix.rows = make([]int32, ix.start[len(counts)])
	ix.unique = len(ix.rows) == len(counts)
	next := append([]int32(nil), ix.start[:len(counts)]...)
	for i, g := range ids {
		if g >= 0 {
			ix.rows[next[g]] = int32(i)
			next[g]++
		}
	}
	return ix
}

// probe appends the matching pairs (probe row, build row) for the n rows
// of the probe side's key column c to li and ri, in probe order, build
// order within: lookup and then pairs with no limit.
func (ix *strJoinIndex) probe(c arrow.Array, n int, li, ri []int32) ([]int32, []int32) {
	ix.lookup(c, n)
	li, ri, _ = ix.pairs(probeCursor{}, li, ri, math.MaxInt)
	return li, ri
}

// lookup finds the build key group of each of the n rows of the probe
// side's key column c in one pass (strIndex.findBatch), for pairs: -1 for
// no match and for NULL unless null-safe.
func (ix *strJoinIndex) lookup(c arrow.Array, n int) {
	ix.ids = growIDs(ix.ids, n)
	ix.keys = ix.x.findBatch(c, ix.nullSafe, ix.ids, ix.keys)
}

// pairs is HashJoin.pairs over the groups lookup found. A unique build
// key (the common case of a join with a dimension table) matches at most
// once per probe row: when the whole batch fits under limit its pairs are
// written into buffers sized once for the batch.
func (ix *strJoinIndex) pairs(cur probeCursor, li, ri []int32, limit int) ([]int32, []int32, probeCursor) {
	ids := ix.ids
	n := len(ids)
	if ix.unique && cur.row == 0 && len(li)+n <= limit {
		base := len(li)
		li, ri = slices.Grow(li, n)[:base+n], slices.Grow(ri, n)[:base+n]
		pl, pr := li[base:], ri[base:]
		k := 0
		for i, g := range ids {
			if g < 0 {
				continue
			}
			pl[k], pr[k] = int32(i), ix.rows[g]
			k++
		}
		return li[:base+k], ri[:base+k], probeCursor{row: n}
	}
	if limit == math.MaxInt {
		li, ri = slices.Grow(li, n), slices.Grow(ri, n)
	}
	return pairsOf(n, func(i int) []int32 {
		if g := ids[i]; g >= 0 {
			return ix.rows[ix.start[g]:ix.start[g+1]]
		}
		return nil
	}, cur, li, ri, limit)
}
