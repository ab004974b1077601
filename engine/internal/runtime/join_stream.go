package runtime

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// StreamingJoin is the streaming regular join (Flink's
// StreamingJoinOperator): both inputs are kept in keyed state and each
// input row is joined with the other side's rows of its key that satisfy
// the residual condition. Output row kinds follow Flink exactly:
//
//   - inner join: the input's kind is forwarded (+I/+U for accumulating
//     rows, -D/-U for retractions);
//   - a row of an outer side with no partner is emitted NULL-padded (+I,
//     retracted with -D); when the first partner of a NULL-padded row of
//     the other (outer) side arrives, -D[null+other] is emitted before the
//     joined rows (+I), and when its last partner leaves, +I[null+other];
//     outer joins emit only +I and -D.
//
// Each side's rows are stored column-wise (RowStore) with their
// multiplicity and, for outer sides, their number of associations;
// candidate pairs of a whole batch are checked against the residual
// condition in one vectorised evaluation.
type StreamingJoin struct {
	BaseOperator
	Spec     opspec.JoinSpec
	residual expr.Evaluator
	wms      *WatermarkTracker

	keys  *joinKeyIndex
	sides [2]*joinSide
	// disk keeps both sides' rows in the disk state backend
	// (join_stream_disk.go); nil: in memory
	disk *joinDisk
}

// joinSide is one input's state.
type joinSide struct {
	store   *RowStore
	count   []int32 // multiplicity of entry (0 = removed)
	assoc   []int32 // outer sides: number of associations
	buckets [][]int32
	live    int64
	// ttl tracks the last write of every entry (join_stream_ttl.go)
	ttl ttlState
}

func (s *joinSide) bucket(k int32) []int32 {
	if int(k) < len(s.buckets) {
		return s.buckets[k]
	}
	return nil
}

func (s *joinSide) setBucket(k int32, b []int32) {
	for int(k) >= len(s.buckets) {
		s.buckets = append(s.buckets, nil)
	}
	s.buckets[k] = b
}

// joinKeyIndex maps join keys of both sides to shared ids.
type joinKeyIndex struct {
	intKey bool
	ints   map[int64]int32
	strs   map[string]int32
	n      int32
	buf    []byte
}

func newJoinKeyIndex(spec opspec.JoinSpec) *joinKeyIndex {
	x := &joinKeyIndex{}
	if len(spec.LeftKeys) == 1 {
		t := spec.LeftTypes[spec.LeftKeys[0]]
		if t.IsIntegral() || t.IsDatetime() || t.IsInterval() {
			x.intKey = true
			x.ints = map[int64]int32{}
			return x
		}
	}
	x.strs = map[string]int32{}
	return x
}

// keyIDs computes the key id of every row of a side's batch.
func (j *StreamingJoin) keyIDs(b *types.Batch, side int, create bool) []int32 {
	keys := j.Spec.LeftKeys
	if side == 1 {
		keys = j.Spec.RightKeys
	}
	return j.keys.ids(b, keys, j.Spec.NullSafe, create)
}

// ids computes the key id of every row (-1 when a key column is NULL and
// NULL must not match). create adds unknown keys; otherwise unknown keys
// get -2.
func (x *joinKeyIndex) ids(b *types.Batch, keys []int, nullSafe []bool, create bool) []int32 {
	out := make([]int32, b.Len)
	if x.intKey {
		col := b.Cols[keys[0]]
		nulls := col.NullN() > 0
		var vals []int64
		if col.DataType().ID() == arrow.INT64 || col.DataType().ID() == arrow.TIMESTAMP {
			vals = vector.Values[int64](col)
		}
		for i := 0; i < b.Len; i++ {
			if nulls && col.IsNull(i) && (nullSafe == nil || !nullSafe[0]) {
				out[i] = -1
				continue
			}
			var k int64
			switch {
			case nulls && col.IsNull(i):
				k = math64MinSentinel
			case vals != nil:
				k = vals[i]
			default:
				k = int64Of(col, i)
			}
			id, ok := x.ints[k]
			if !ok {
				if !create {
					out[i] = -2
					continue
				}
				id = x.n
				x.n++
				x.ints[k] = id
			}
			out[i] = id
		}
		return out
	}
	for i := 0; i < b.Len; i++ {
		if keyHasNull(b, keys, nullSafe, i) {
			out[i] = -1
			continue
		}
		x.buf = AppendRowKey(x.buf[:0], b, keys, i)
		id, ok := x.strs[vector.UnsafeString(x.buf)]
		if !ok {
			if !create {
				out[i] = -2
				continue
			}
			id = x.n
			x.n++
			x.strs[string(x.buf)] = id
		}
		out[i] = id
	}
	return out
}

// math64MinSentinel stands for a NULL key matched null-safely.
const math64MinSentinel = -1 << 63

// Open implements Operator.
func (j *StreamingJoin) Open(ctx *OpContext, out Output) error {
	j.BaseOperator.Open(ctx, out)
	j.wms = NewWatermarkTracker(2)
	j.keys = newJoinKeyIndex(j.Spec)
	j.sides[0] = &joinSide{store: NewRowStore(j.Spec.LeftTypes)}
	j.sides[1] = &joinSide{store: NewRowStore(j.Spec.RightTypes)}
	j.sides[0].ttl.open(ctx)
	j.sides[1].ttl.open(ctx)
	if j.Spec.Residual != nil {
		ev, err := expr.Compile(j.Spec.Residual)
		if err != nil {
			return err
		}
		j.residual = ev
	}
	return j.openDisk(ctx)
}

// ProcessWatermark implements Operator.
func (j *StreamingJoin) ProcessWatermark(in int, wm int64) error {
	if m, ok := j.wms.Update(in, wm); ok {
		return j.Out.EmitWatermark(m)
	}
	return nil
}

// SetInputIdle implements InputIdler.
func (j *StreamingJoin) SetInputIdle(in int, idle bool) error {
	if m, ok := j.wms.SetIdle(in, idle); ok {
		return j.Out.EmitWatermark(m)
	}
	return nil
}

// outer reports whether a side is preserved (NULL-padded when unmatched).
func (j *StreamingJoin) outer(side int) bool {
	switch j.Spec.Kind {
	case opspec.LeftJoin:
		return side == 0
	case opspec.RightJoin:
		return side == 1
	case opspec.FullJoin:
		return true
	}
	return false
}

// StateSize implements StateReporter.
func (j *StreamingJoin) StateSize() (int64, int64) {
	if j.disk != nil {
		return j.disk.rows, 0 // in the store, bounded by its caches
	}
	keys := int64(j.keys.n)
	bytes := keys * 48
	for _, s := range j.sides {
		bytes += s.store.Bytes() + int64(len(s.count))*8
	}
	return keys, bytes
}

// joinOutput collects output rows as references: the input batch row
// (or -1) and the stored row of the other side (or -1).
type joinOutput struct {
	kinds  []types.RowKind
	inRows []int32
	stored []int32
}

func (o *joinOutput) add(k types.RowKind, in, st int32) {
	o.kinds = append(o.kinds, k)
	o.inRows = append(o.inRows, in)
	o.stored = append(o.stored, st)
}

// pairCursor walks candidate pairs (rows[x], entries[x]) sorted by row.
type pairCursor struct {
	rows, entries []int32
	p             int
}

// partners returns the entries paired with row i; calls go by increasing i.
func (c *pairCursor) partners(i int) []int32 {
	start := c.p
	for c.p < len(c.rows) && int(c.rows[c.p]) == i {
		c.p++
	}
	return c.entries[start:c.p]
}

// pairSegments walks a batch's candidate pairs a segment of input rows at
// a time, so that a batch that fans out holds no more of them at once:
// next makes the pairs of the rows from lo on and returns the row they
// end before (past lo).
type pairSegments struct {
	next  func(lo int) (pairCursor, int, error)
	pairs pairCursor
	hi    int
}

// partners returns the entries paired with row i, making the next
// segment's pairs when i reaches it; calls go by increasing i from 0.
func (s *pairSegments) partners(i int) ([]int32, error) {
	if i == s.hi {
		var err error
		if s.pairs, s.hi, err = s.next(i); err != nil {
			return nil, err
		}
	}
	return s.pairs.partners(i), nil
}

// joinPartner adds the output of input row i joining cnt copies of the
// stored partner e, which had old associations: each joined row with
// kind, preceded by -D of the NULL-padded partner while it had none (the
// other side preserved).
func (o *joinOutput) joinPartner(kind types.RowKind, i, e int32, cnt, old int64, otherOuter bool) {
	for c := int64(0); c < cnt; c++ {
		if otherOuter && old == 0 {
			o.add(types.Delete, -1, e)
		}
		o.add(kind, i, e)
	}
}

// retractPartner adds the output of retracting input row i against cnt
// copies of the stored partner e, which had old associations: each joined
// row retracted (-D when this side is preserved, else the input's kind),
// followed by +I of the NULL-padded partner when this was its last
// association (the other side preserved).
func (o *joinOutput) retractPartner(kind types.RowKind, i, e int32, cnt, old int64, inOuter, otherOuter bool) {
	for c := int64(0); c < cnt; c++ {
		if inOuter {
			o.add(types.Delete, i, e)
		} else {
			o.add(kind, i, e)
		}
		if otherOuter && old == 1 {
			o.add(types.Insert, -1, e)
		}
	}
}

// ProcessBatch implements Operator.
func (j *StreamingJoin) ProcessBatch(side int, b *types.Batch) error {
	if j.disk != nil {
		return j.processDisk(side, b)
	}
	if j.Spec.Kind == opspec.SemiJoin || j.Spec.Kind == opspec.AntiJoin {
		return j.processSemiAnti(side, b)
	}
	other := 1 - side
	me, them := j.sides[side], j.sides[other]
	insertOnly := b.InsertOnly()
	keyIDs := j.keyIDs(b, side, true)
	now := me.ttl.now()
	inOuter, otherOuter := j.outer(side), j.outer(other)
	upsert := j.Spec.UpsertInputs[side] && j.Spec.Kind == opspec.InnerJoin
	needLookup := !insertOnly || otherOuter || inOuter || upsert
	out := &joinOutput{}
	var appendRows []int32
	next := me.store.Len()
	segs := pairSegments{next: func(lo int) (pairCursor, int, error) { return j.candidates(b, side, keyIDs, them, now, lo, false) }}
	for i := 0; i < b.Len; i++ {
		if len(out.kinds) >= maxJoinBatchRows {
			// a batch that fans out sends its changes on as they are made,
			// at a row's boundary (they read only this batch and the other
			// side's stored rows, which this batch does not change)
			if err := j.Emit(j.buildOutput(b, side, out)); err != nil {
				return err
			}
			out = &joinOutput{}
		}
		partners, err := segs.partners(i)
		if err != nil {
			return err
		}
		kind := b.Kind(i)
		k := keyIDs[i]
		if upsert {
			// the key's stored row is replaced or removed (join_upsert.go)
			me.clearKey(k)
		}
		if upsert && !kind.IsAccumulate() {
			for _, e := range partners {
				for c := int32(0); c < them.count[e]; c++ {
					out.add(kind, int32(i), e)
				}
			}
			continue
		}
		if kind.IsAccumulate() {
			// find an equal stored record (multiplicity, additional match)
			existing := int32(-1)
			if needLookup && k >= 0 {
				for _, e := range me.bucket(k) {
					if me.count[e] > 0 && !me.ttl.expired(e, now) && me.store.EqualRow(e, b, i) {
						existing = e
						break
					}
				}
			}
			additional := otherOuter && existing < 0
			entry := existing
			if entry < 0 {
				entry = next
				next++
				if needLookup {
					// later rows of this batch may retract or repeat it
					me.store.Append(b, []int32{int32(i)})
				} else {
					appendRows = append(appendRows, int32(i))
				}
				me.count = append(me.count, 0)
				me.assoc = append(me.assoc, 0)
				if k >= 0 {
					me.setBucket(k, append(me.bucket(k), entry))
				}
				me.live++
			}
			me.count[entry]++
			me.ttl.write(entry, now)
			if inOuter && len(partners) == 0 {
				out.add(types.Insert, int32(i), -1)
				continue
			}
			outKind := kind
			if inOuter || otherOuter {
				outKind = types.Insert
			}
			assocs := int32(0)
			for _, e := range partners {
				cnt, old := them.count[e], them.assoc[e]
				out.joinPartner(outKind, int32(i), e, int64(cnt), int64(old), otherOuter)
				assocs += cnt
				if otherOuter && (old == 0 || additional) {
					them.assoc[e] = old + 1
					them.ttl.write(e, now)
				}
			}
			if inOuter {
				me.assoc[entry] = assocs
			}
			continue
		}
		// retraction: remove one occurrence of the record from state
		j.removeRow(me, b, i, k, now)
		if len(partners) == 0 {
			if inOuter {
				out.add(types.Delete, int32(i), -1)
			}
			continue
		}
		for _, e := range partners {
			// every copy of a partner sees the association count as it
			// was before (Flink iterates a snapshot of the records)
			cnt, old := them.count[e], them.assoc[e]
			out.retractPartner(kind, int32(i), e, int64(cnt), int64(old), inOuter, otherOuter)
			if otherOuter {
				them.assoc[e] = old - 1
				them.ttl.write(e, now)
			}
		}
	}
	if len(appendRows) > 0 {
		me.store.Append(b, appendRows)
	}
	if me.maybeCompact() {
		j.maybeCompactKeys()
	}
	j.Ctx.ReportState(j.StateSize())
	if len(out.kinds) == 0 {
		return nil
	}
	return j.Emit(j.buildOutput(b, side, out))
}

// candidates returns the candidate partners of the rows of b (side's
// input) from row lo on: pairs (row, entry of the other side's store them)
// in row order, expired entries left out and, with a residual condition,
// the pairs it is TRUE for; and hi, the row they end before: the first row
// boundary at or past maxJoinBatchRows pairs (b.Len at the latest), so
// that a batch that fans out holds no more of them at a time. Processing
// rows before hi does not change them's entries or their expiry (it only
// writes their associations and last-write times), so the pairs of later
// rows are those the batch's start would give. liveOnly leaves out entries
// whose rows all left (a semi or anti join's).
func (j *StreamingJoin) candidates(b *types.Batch, side int, keyIDs []int32, them *joinSide, now int64, lo int, liveOnly bool) (pairCursor, int, error) {
	var pRow, pEntry []int32
	hi := lo
	for ; hi < b.Len && len(pRow) < maxJoinBatchRows; hi++ {
		k := keyIDs[hi]
		if k < 0 {
			continue
		}
		for _, e := range them.bucket(k) {
			if them.ttl.expired(e, now) || liveOnly && them.count[e] <= 0 {
				continue
			}
			pRow = append(pRow, int32(hi))
			pEntry = append(pEntry, e)
		}
	}
	if j.residual != nil && len(pRow) > 0 {
		var err error
		if pRow, pEntry, err = keepResidualPairs(j.residual, j.Ctx.Eval, j.pairBatch(b, side, pRow, pEntry), pRow, pEntry); err != nil {
			return pairCursor{}, 0, err
		}
	}
	return pairCursor{rows: pRow, entries: pEntry}, hi, nil
}

// pairBatch builds the joined rows of candidate pairs (input row, stored
// row of the other side) in left ++ right column order.
func (j *StreamingJoin) pairBatch(b *types.Batch, side int, rows, entries []int32) *types.Batch {
	return &types.Batch{Cols: joinColumns(b, side, rows, j.sides[1-side].store.Gather(entries)), Len: len(rows)}
}

// joinColumns puts the rows of b (side's input) taken at rows and the
// matching stored columns of the other side in left ++ right order.
func joinColumns(b *types.Batch, side int, rows []int32, stored []arrow.Array) []arrow.Array {
	inCols := make([]arrow.Array, len(b.Cols))
	for c, col := range b.Cols {
		inCols[c] = vector.Take(col, rows)
	}
	if side == 0 {
		return append(inCols, stored...)
	}
	return append(stored, inCols...)
}

func (j *StreamingJoin) buildOutput(b *types.Batch, side int, out *joinOutput) *types.Batch {
	cols := joinColumns(b, side, out.inRows, j.sides[1-side].store.Gather(out.stored))
	return &types.Batch{Cols: cols, Kinds: out.rowKinds(), Len: len(out.kinds)}
}

// rowKinds is the output's kinds, nil when all are inserts.
func (o *joinOutput) rowKinds() []types.RowKind {
	for _, k := range o.kinds {
		if k != types.Insert {
			return o.kinds
		}
	}
	return nil
}
