package runtime

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// Streaming semi and anti joins (IN / EXISTS subqueries; Flink's
// StreamingSemiAntiJoinOperator). Both sides are kept in state; every
// stored left row counts its matching right rows (its associations). The
// output has the left columns only:
//
//   - a left row is forwarded with its own kind (+I/+U, or -U/-D for a
//     retraction) when it has a match (semi) or none (anti);
//   - a right row that gives a left row its first match emits +I of that
//     left row (semi) or -D (anti), once per copy of it; a right
//     retraction that removes a left row's last match emits -D (semi) or
//     +I (anti).

// processSemiAnti handles a batch of either side of a semi or anti join.
func (j *StreamingJoin) processSemiAnti(side int, b *types.Batch) error {
	other := 1 - side
	me, them := j.sides[side], j.sides[other]
	anti := j.Spec.Kind == opspec.AntiJoin
	keyIDs := j.keyIDs(b, side, true)
	now := me.ttl.now()
	var kinds []types.RowKind
	var rows []int32 // side 0: input rows; side 1: left store entries
	emit := func(k types.RowKind, r int32) {
		kinds = append(kinds, k)
		rows = append(rows, r)
	}
	// candidate pairs, a segment of rows at a time (candidates): the rows
	// processed change only this side's store and the other's
	// associations and last-write times
	segs := pairSegments{next: func(lo int) (pairCursor, int, error) { return j.candidates(b, side, keyIDs, them, now, lo, true) }}
	for i := 0; i < b.Len; i++ {
		if len(rows) >= maxJoinBatchRows {
			// sent on at a row's boundary
			if err := j.Emit(semiAntiOutput(b, side, kinds, rows, j.sides[0].store.Gather)); err != nil {
				return err
			}
			kinds, rows = nil, nil
		}
		partners, err := segs.partners(i)
		if err != nil {
			return err
		}
		kind := b.Kind(i)
		k := keyIDs[i]
		if side == 0 {
			matches := int32(0)
			for _, e := range partners {
				matches += them.count[e]
			}
			if kind.IsAccumulate() {
				e := j.storeRow(me, b, i, k, now)
				me.assoc[e] = matches
			} else {
				j.removeRow(me, b, i, k, now)
			}
			if (matches > 0) != anti {
				emit(kind, int32(i))
			}
			continue
		}
		// a right row: update the stored left rows it matches
		if kind.IsAccumulate() {
			j.storeRow(me, b, i, k, now)
		} else {
			j.removeRow(me, b, i, k, now)
		}
		for _, e := range partners {
			assoc, out, changes := semiAntiOnRight(anti, kind.IsAccumulate(), int64(them.assoc[e]))
			if changes {
				for c := int32(0); c < them.count[e]; c++ {
					emit(out, e)
				}
			}
			them.assoc[e] = int32(assoc)
			them.ttl.write(e, now)
		}
	}
	if me.maybeCompact() {
		j.maybeCompactKeys()
	}
	j.Ctx.ReportState(j.StateSize())
	if len(rows) == 0 {
		return nil
	}
	return j.Emit(semiAntiOutput(b, side, kinds, rows, j.sides[0].store.Gather))
}

// semiAntiOutput builds a semi or anti join's output rows: on side 0 the
// rows of b at rows, on side 1 the stored left rows at rows (columns from
// stored); kinds nil when all are inserts.
func semiAntiOutput(b *types.Batch, side int, kinds []types.RowKind, rows []int32, stored func(rows []int32) []arrow.Array) *types.Batch {
	var out *types.Batch
	if side == 0 {
		out = TakeRows(b, rows)
		out.Kinds = kinds
	} else {
		out = &types.Batch{Cols: stored(rows), Kinds: kinds, Len: len(rows)}
	}
	if out.InsertOnly() {
		out.Kinds = nil
	}
	return out
}

// semiAntiOnRight is what a right row, accumulated (add) or retracted,
// does to a stored left row matching it with old associations: its new
// associations, and whether its result changes, with out the kind to emit
// once per copy of it. Its first match emits +I (semi) or -D (anti), the
// loss of its last match -D (semi) or +I (anti).
func semiAntiOnRight(anti, add bool, old int64) (assoc int64, out types.RowKind, changes bool) {
	switch {
	case add:
		out = types.Insert
		if anti {
			out = types.Delete
		}
		return old + 1, out, old == 0
	case old > 0:
		out = types.Delete
		if anti {
			out = types.Insert
		}
		return old - 1, out, old == 1
	default:
		return old, out, false
	}
}

// storeRow adds one occurrence of row i of b to side s (an equal stored
// row gets its count raised) and returns its entry.
func (j *StreamingJoin) storeRow(s *joinSide, b *types.Batch, i int, k int32, now int64) int32 {
	if k >= 0 {
		for _, e := range s.bucket(k) {
			if s.count[e] > 0 && !s.ttl.expired(e, now) && s.store.EqualRow(e, b, i) {
				s.count[e]++
				s.ttl.write(e, now)
				return e
			}
		}
	}
	e := s.store.Len()
	s.store.Append(b, []int32{int32(i)})
	s.count = append(s.count, 1)
	s.assoc = append(s.assoc, 0)
	if k >= 0 {
		s.setBucket(k, append(s.bucket(k), e))
	}
	s.live++
	s.ttl.write(e, now)
	return e
}

// removeRow removes one occurrence of row i of b from side s, if stored.
func (j *StreamingJoin) removeRow(s *joinSide, b *types.Batch, i int, k int32, now int64) {
	if k < 0 {
		return
	}
	bk := s.bucket(k)
	for x, e := range bk {
		if s.count[e] > 0 && !s.ttl.expired(e, now) && s.store.EqualRow(e, b, i) {
			s.count[e]--
			s.ttl.write(e, now)
			if s.count[e] == 0 {
				bk[x] = bk[len(bk)-1]
				s.setBucket(k, bk[:len(bk)-1])
				s.live--
			}
			return
		}
	}
}
