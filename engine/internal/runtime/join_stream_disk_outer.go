package runtime

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
)

// Outer streaming joins (LEFT, RIGHT, FULL) with the disk state backend:
// the rows are kept as for an inner join (join_stream_disk.go), each
// distinct row's value being its multiplicity then its number of
// associations (Flink's numOfAssociations: the partners it is joined
// with, which decides when a preserved row goes from NULL-padded to
// joined and back). A batch scans each row's partners once per distinct
// stored row, so that the rows of a batch see each other's changes to a
// partner's associations, and writes the changed ones back at its end;
// the output follows the in-memory join row for row (join_stream.go).
// A row whose key is NULL never matches: it is not kept, and on a
// preserved side it is emitted NULL-padded (+I, and -D when retracted).

// diskPartner is a stored row of the other side met by a batch.
type diskPartner struct {
	key        []byte
	row        []any
	cnt, assoc int64
	dirty      bool
}

// diskOuterValue encodes a row's multiplicity and associations.
func diskOuterValue(cnt, assoc int64) []byte {
	return binary.AppendVarint(binary.AppendVarint(nil, cnt), assoc)
}

// diskOuterValueWith encodes a multiplicity with the associations assoc.
func diskOuterValueWith(assoc int64) func(cnt int64) []byte {
	return func(cnt int64) []byte { return diskOuterValue(cnt, assoc) }
}

func readDiskOuterValue(v []byte) (cnt, assoc int64, err error) {
	r := state.NewReader(v)
	cnt = r.Varint()
	assoc = r.Varint()
	if err := r.Done(); err != nil {
		return 0, 0, fmt.Errorf("StreamingJoin: a row count in the state backend does not decode: %w", err)
	}
	return cnt, assoc, nil
}

// diskAssociated is the other side's stored rows a batch of an outer,
// semi or anti join meets, each decoded once (by its key in seen) so that
// the batch's rows see each other's changes to its associations, written
// back at the batch's end when dirty.
type diskAssociated struct {
	parts []diskPartner
	seen  map[string]int32
}

// diskScanAssociated scans the partners of b's rows from row lo on
// (diskScanPartners) for an outer, semi or anti join, into a's parts:
// the candidate pairs (row of b, index in a.parts) satisfying the
// residual condition, and hi, the row they end before: the first row
// boundary at or past maxJoinBatchRows pairs (b.Len at the latest).
func (j *StreamingJoin) diskScanAssociated(side int, b *types.Batch, otherTypes []*types.DataType, lo int, a *diskAssociated) (pairs pairCursor, hi int, err error) {
	if a.seen == nil {
		a.seen = map[string]int32{}
	}
	var pRow, pEntry []int32
	full := func() bool { return len(pRow) >= maxJoinBatchRows }
	hi, err = j.diskScanPartners(side, b, lo, full, func(i int, k, v []byte, rowAt int) error {
		e, ok := a.seen[string(k)]
		if !ok {
			r := state.NewReader(k[rowAt:])
			row := make([]any, len(otherTypes))
			for c, t := range otherTypes {
				row[c] = r.Value(t)
			}
			if err := r.Done(); err != nil {
				return fmt.Errorf("StreamingJoin: a row in the state backend does not decode: %w", err)
			}
			cnt, assoc, err := readDiskOuterValue(v)
			if err != nil {
				return err
			}
			e = int32(len(a.parts))
			a.seen[string(k)] = e
			a.parts = append(a.parts, diskPartner{key: append([]byte(nil), k...), row: row, cnt: cnt, assoc: assoc})
		}
		pRow = append(pRow, int32(i))
		pEntry = append(pEntry, e)
		return nil
	})
	if err != nil {
		return pairCursor{}, 0, err
	}
	if j.residual != nil && len(pRow) > 0 {
		cand := &types.Batch{Cols: joinColumns(b, side, pRow, a.storedColumns(otherTypes, pEntry)), Len: len(pRow)}
		if pRow, pEntry, err = keepResidualPairs(j.residual, j.Ctx.Eval, cand, pRow, pEntry); err != nil {
			return pairCursor{}, 0, err
		}
	}
	return pairCursor{rows: pRow, entries: pEntry}, hi, nil
}

// storedColumns builds the columns of the parts at entries (of types ts),
// NULLs where an entry is -1 (NULL padding).
func (a *diskAssociated) storedColumns(ts []*types.DataType, entries []int32) []arrow.Array {
	return diskStoredColumns(ts, entries, func(e int32) []any {
		if e < 0 {
			return nil
		}
		return a.parts[e].row
	})
}

// writeBack stores the parts whose associations the batch changed.
func (a *diskAssociated) writeBack(d *joinDisk) error {
	for _, pt := range a.parts {
		if pt.dirty {
			if err := d.store.Put(pt.key, diskOuterValue(pt.cnt, pt.assoc)); err != nil {
				return err
			}
		}
	}
	return nil
}

// processDiskOuter is processDisk for outer joins.
func (j *StreamingJoin) processDiskOuter(side int, b *types.Batch) error {
	d := j.disk
	other := 1 - side
	keys, myTypes := j.Spec.LeftKeys, j.Spec.LeftTypes
	otherTypes := j.Spec.RightTypes
	if side == 1 {
		keys, myTypes, otherTypes = j.Spec.RightKeys, j.Spec.RightTypes, j.Spec.LeftTypes
	}
	inOuter, otherOuter := j.outer(side), j.outer(other)
	var a diskAssociated
	out := &joinOutput{}
	segs := pairSegments{next: func(lo int) (pairCursor, int, error) { return j.diskScanAssociated(side, b, otherTypes, lo, &a) }}
	for i := 0; i < b.Len; i++ {
		if len(out.kinds) >= maxJoinBatchRows {
			// a batch that fans out sends its changes on as they are made,
			// at a row's boundary, as in memory
			if err := j.Emit(&types.Batch{Cols: joinColumns(b, side, out.inRows, a.storedColumns(otherTypes, out.stored)), Kinds: out.rowKinds(), Len: len(out.kinds)}); err != nil {
				return err
			}
			out = &joinOutput{}
		}
		partners, err := segs.partners(i)
		if err != nil {
			return err
		}
		kind := b.Kind(i)
		if keyHasNull(b, keys, j.Spec.NullSafe, i) {
			if inOuter {
				k := types.Insert
				if !kind.IsAccumulate() {
					k = types.Delete
				}
				out.add(k, int32(i), -1)
			}
			continue
		}
		// this row's multiplicity and associations
		val, found, err := j.diskLookupRow(side, b, i, myTypes)
		if err != nil {
			return err
		}
		var cnt, assoc int64
		if found {
			if cnt, assoc, err = readDiskOuterValue(val); err != nil {
				return err
			}
		}
		if kind.IsAccumulate() {
			additional := otherOuter && !found
			if inOuter && len(partners) == 0 {
				out.add(types.Insert, int32(i), -1)
			} else {
				var assocs int64
				for _, e := range partners {
					pt := &a.parts[e]
					old := pt.assoc
					out.joinPartner(types.Insert, int32(i), e, pt.cnt, old, otherOuter)
					assocs += pt.cnt
					if otherOuter && (old == 0 || additional) {
						pt.assoc, pt.dirty = old+1, true
					}
				}
				if inOuter {
					assoc = assocs
				}
			}
			if err := d.countRow(found, true, cnt, diskOuterValueWith(assoc)); err != nil {
				return err
			}
			continue
		}
		// retraction: one occurrence of the row leaves the state
		if err := d.countRow(found, false, cnt, diskOuterValueWith(assoc)); err != nil {
			return err
		}
		if len(partners) == 0 {
			if inOuter {
				out.add(types.Delete, int32(i), -1)
			}
			continue
		}
		for _, e := range partners {
			pt := &a.parts[e]
			old := pt.assoc
			out.retractPartner(kind, int32(i), e, pt.cnt, old, inOuter, otherOuter)
			if otherOuter {
				pt.assoc, pt.dirty = old-1, true
			}
		}
	}
	if err := a.writeBack(d); err != nil {
		return err
	}
	j.Ctx.ReportState(j.StateSize())
	if len(out.kinds) == 0 {
		return nil
	}
	return j.Emit(&types.Batch{Cols: joinColumns(b, side, out.inRows, a.storedColumns(otherTypes, out.stored)), Kinds: out.rowKinds(), Len: len(out.kinds)})
}
