package runtime

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// Semi and anti streaming joins (IN / EXISTS subqueries) with the disk
// state backend: both sides' rows are kept as for an outer join
// (join_stream_disk_outer.go: multiplicity, then associations, which for
// a left row count its matching right rows), and the output follows the
// in-memory operator (join_semi.go) row for row. A row whose key is NULL
// never matches and is not kept: a left one is forwarded by an anti join.

// processDiskSemiAnti is processDisk for semi and anti joins.
func (j *StreamingJoin) processDiskSemiAnti(side int, b *types.Batch) error {
	d := j.disk
	anti := j.Spec.Kind == opspec.AntiJoin
	keys, myTypes := j.Spec.LeftKeys, j.Spec.LeftTypes
	otherTypes := j.Spec.RightTypes
	if side == 1 {
		keys, myTypes, otherTypes = j.Spec.RightKeys, j.Spec.RightTypes, j.Spec.LeftTypes
	}
	var a diskAssociated
	storedCols := func(entries []int32) []arrow.Array { return a.storedColumns(otherTypes, entries) }
	var kinds []types.RowKind
	var rows []int32 // side 0: input rows; side 1: partners (left rows)
	emit := func(k types.RowKind, r int32) {
		kinds = append(kinds, k)
		rows = append(rows, r)
	}
	segs := pairSegments{next: func(lo int) (pairCursor, int, error) { return j.diskScanAssociated(side, b, otherTypes, lo, &a) }}
	for i := 0; i < b.Len; i++ {
		if len(rows) >= maxJoinBatchRows {
			// sent on at a row's boundary, as in memory
			if err := j.Emit(semiAntiOutput(b, side, kinds, rows, storedCols)); err != nil {
				return err
			}
			kinds, rows = nil, nil
		}
		partners, err := segs.partners(i)
		if err != nil {
			return err
		}
		kind := b.Kind(i)
		var matches int64
		for _, e := range partners {
			matches += a.parts[e].cnt
		}
		if !keyHasNull(b, keys, j.Spec.NullSafe, i) {
			if err := j.diskCountRow(side, b, i, myTypes, kind.IsAccumulate(), side == 0, matches); err != nil {
				return err
			}
		}
		if side == 0 {
			if (matches > 0) != anti {
				emit(kind, int32(i))
			}
			continue
		}
		// a right row: the stored left rows it matches
		for _, e := range partners {
			pt := &a.parts[e]
			assoc, out, changes := semiAntiOnRight(anti, kind.IsAccumulate(), pt.assoc)
			if changes {
				for c := int64(0); c < pt.cnt; c++ {
					emit(out, e)
				}
			}
			if assoc != pt.assoc {
				pt.assoc, pt.dirty = assoc, true
			}
		}
	}
	if err := a.writeBack(d); err != nil {
		return err
	}
	j.Ctx.ReportState(j.StateSize())
	if len(rows) == 0 {
		return nil
	}
	return j.Emit(semiAntiOutput(b, side, kinds, rows, storedCols))
}

// diskCountRow adds one occurrence of row i of b to side's rows in the
// store (add) or removes one if stored; with setAssoc an added row's
// associations become assoc (a left row of a semi or anti join: its
// matches).
func (j *StreamingJoin) diskCountRow(side int, b *types.Batch, i int, myTypes []*types.DataType, add, setAssoc bool, assoc int64) error {
	val, found, err := j.diskLookupRow(side, b, i, myTypes)
	if err != nil {
		return err
	}
	var cnt, old int64
	if found {
		if cnt, old, err = readDiskOuterValue(val); err != nil {
			return err
		}
	}
	if add && setAssoc {
		old = assoc
	}
	return j.disk.countRow(found, add, cnt, diskOuterValueWith(old))
}
