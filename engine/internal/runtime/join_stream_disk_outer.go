package runtime

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
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

func readDiskOuterValue(v []byte) (cnt, assoc int64, err error) {
	r := state.NewReader(v)
	cnt = r.Varint()
	assoc = r.Varint()
	if err := r.Done(); err != nil {
		return 0, 0, fmt.Errorf("StreamingJoin: a row count in the state backend does not decode: %w", err)
	}
	return cnt, assoc, nil
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
	var parts []diskPartner
	seen := map[string]int32{}
	var pRow, pEntry []int32
	var scanErr error
	for i := 0; i < b.Len; i++ {
		if keyHasNull(b, keys, j.Spec.NullSafe, i) {
			continue
		}
		d.keyBuf = j.diskKeyPrefix(d.keyBuf[:0], side, b, i)
		d.keyBuf[0] = byte(other)
		prefixLen := len(d.keyBuf)
		err := d.store.Scan(d.keyBuf, func(k, v []byte) bool {
			e, ok := seen[string(k)]
			if !ok {
				r := state.NewReader(k[prefixLen:])
				row := make([]any, len(otherTypes))
				for c, t := range otherTypes {
					row[c] = r.Value(t)
				}
				if err := r.Done(); err != nil {
					scanErr = fmt.Errorf("StreamingJoin: a row in the state backend does not decode: %w", err)
					return false
				}
				cnt, assoc, err := readDiskOuterValue(v)
				if err != nil {
					scanErr = err
					return false
				}
				e = int32(len(parts))
				seen[string(k)] = e
				parts = append(parts, diskPartner{key: append([]byte(nil), k...), row: row, cnt: cnt, assoc: assoc})
			}
			pRow = append(pRow, int32(i))
			pEntry = append(pEntry, e)
			return true
		})
		if err = errors.Join(err, scanErr); err != nil {
			return err
		}
	}
	joined := func(rows, entries []int32) []arrow.Array {
		inCols := make([]arrow.Array, len(b.Cols))
		for c, col := range b.Cols {
			inCols[c] = vector.Take(col, rows)
		}
		stored := make([]arrow.Array, len(otherTypes))
		for c, t := range otherTypes {
			bld := array.NewBuilder(memory.DefaultAllocator, types.ToArrow(t))
			for _, e := range entries {
				var v any
				if e >= 0 {
					v = parts[e].row[c]
				}
				types.AppendValue(bld, v, t)
			}
			stored[c] = bld.NewArray()
			bld.Release()
		}
		if side == 0 {
			return append(inCols, stored...)
		}
		return append(stored, inCols...)
	}
	if j.residual != nil && len(pRow) > 0 {
		var err error
		cand := &types.Batch{Cols: joined(pRow, pEntry), Len: len(pRow)}
		if pRow, pEntry, err = keepResidualPairs(j.residual, j.Ctx.Eval, cand, pRow, pEntry); err != nil {
			return err
		}
	}
	out := &joinOutput{}
	p := 0
	for i := 0; i < b.Len; i++ {
		start := p
		for p < len(pRow) && int(pRow[p]) == i {
			p++
		}
		partners := pEntry[start:p]
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
		d.keyBuf = j.diskKeyPrefix(d.keyBuf[:0], side, b, i)
		d.w.Reset()
		for c, t := range myTypes {
			d.w.Value(types.ValueAt(b.Cols[c], i, t), t)
		}
		if err := d.w.Err(); err != nil {
			return fmt.Errorf("StreamingJoin: %w", err)
		}
		d.keyBuf = append(d.keyBuf, d.w.Data()...)
		val, found, err := d.store.Get(d.keyBuf)
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
			cnt++
			if inOuter && len(partners) == 0 {
				out.add(types.Insert, int32(i), -1)
			} else {
				var assocs int64
				for _, e := range partners {
					pt := &parts[e]
					old := pt.assoc
					for c := int64(0); c < pt.cnt; c++ {
						if otherOuter && old == 0 {
							out.add(types.Delete, -1, e)
						}
						out.add(types.Insert, int32(i), e)
						assocs++
					}
					if otherOuter && (old == 0 || additional) {
						pt.assoc, pt.dirty = old+1, true
					}
				}
				if inOuter {
					assoc = assocs
				}
			}
			if err := d.store.Put(d.keyBuf, diskOuterValue(cnt, assoc)); err != nil {
				return err
			}
			if !found {
				d.rows++
			}
			continue
		}
		// retraction: one occurrence of the row leaves the state
		if found {
			cnt--
			if cnt <= 0 {
				err = d.store.Delete(d.keyBuf)
				d.rows--
			} else {
				err = d.store.Put(d.keyBuf, diskOuterValue(cnt, assoc))
			}
			if err != nil {
				return err
			}
		}
		if len(partners) == 0 {
			if inOuter {
				out.add(types.Delete, int32(i), -1)
			}
			continue
		}
		for _, e := range partners {
			pt := &parts[e]
			old := pt.assoc
			for c := int64(0); c < pt.cnt; c++ {
				if inOuter {
					out.add(types.Delete, int32(i), e)
				} else {
					out.add(kind, int32(i), e)
				}
				if otherOuter && old == 1 {
					out.add(types.Insert, -1, e)
				}
			}
			if otherOuter {
				pt.assoc, pt.dirty = old-1, true
			}
		}
	}
	for _, pt := range parts {
		if pt.dirty {
			if err := d.store.Put(pt.key, diskOuterValue(pt.cnt, pt.assoc)); err != nil {
				return err
			}
		}
	}
	j.Ctx.ReportState(j.StateSize())
	if len(out.kinds) == 0 {
		return nil
	}
	kinds := out.kinds
	allInsert := true
	for _, k := range kinds {
		allInsert = allInsert && k == types.Insert
	}
	if allInsert {
		kinds = nil
	}
	return j.Emit(&types.Batch{Cols: joined(out.inRows, out.stored), Kinds: kinds, Len: len(out.kinds)})
}
