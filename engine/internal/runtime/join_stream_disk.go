package runtime

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/internal/kvstate"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
)

// A streaming inner join with the disk state backend (JobConfig.DiskState)
// keeps both inputs' rows in its store, each distinct row of a side under
//
//	side (1 byte) | length of the join key (uvarint) | join key | the row
//
// (integral and temporal key values as 8-byte integers, so INT and BIGINT
// keys meet; the row's values in the state codec) with its multiplicity
// as the value. A row looks up its partners with a prefix scan of the
// other side's key, then its own row's multiplicity is updated (deleted at
// zero). Rows whose key is NULL (not null-safe) never match and are not
// kept. Output follows the in-memory join: the input's kind, once per
// copy of each partner satisfying the residual condition. Outer, semi
// and anti joins keep each row's associations too
// (join_stream_disk_outer.go, join_stream_disk_semi.go). Upsert-input
// joins and state TTL are refused with this backend.

// joinDisk is a StreamingJoin's store.
type joinDisk struct {
	ctx    *OpContext
	store  *kvstate.Store
	rows   int64 // distinct rows stored
	keyBuf []byte
	w      *state.Writer
}

// openDisk opens the join's store when the job keeps state on disk.
func (j *StreamingJoin) openDisk(ctx *OpContext) error {
	s, ok, err := ctx.OpenKeyedStore()
	if err != nil || !ok {
		return err
	}
	switch {
	case j.Spec.UpsertInputs[0] || j.Spec.UpsertInputs[1]:
		err = errors.New("StreamingJoin: a join of upsert inputs cannot keep its state in the disk state backend yet; use state.backend.type 'hashmap'")
	case j.sides[0].ttl.on():
		err = errors.New("StreamingJoin: state TTL (table.exec.state.ttl) is not supported with state.backend.type 'rocksdb' yet; use 'hashmap'")
	}
	if err != nil {
		_ = s.Close()
		return err
	}
	j.disk = &joinDisk{ctx: ctx, store: s, w: state.NewWriter(64)}
	return nil
}

// UsesDisk implements DiskStateOperator.
func (j *StreamingJoin) UsesDisk() bool { return j.disk != nil }

// Close implements Operator: it closes the store.
func (j *StreamingJoin) Close() error {
	if j.disk == nil {
		return nil
	}
	return j.disk.store.Close()
}

// diskKeyPrefix appends side | key length | key of row i of b.
func (j *StreamingJoin) diskKeyPrefix(buf []byte, side int, b *types.Batch, i int) []byte {
	keys, ts := j.Spec.LeftKeys, j.Spec.LeftTypes
	if side == 1 {
		keys, ts = j.Spec.RightKeys, j.Spec.RightTypes
	}
	buf = append(buf, byte(side), 0)
	start := len(buf)
	for _, c := range keys {
		col := b.Cols[c]
		t := ts[c]
		switch {
		case col.IsNull(i):
			buf = append(buf, 0)
		case t.IsIntegral() || t.IsDatetime() || t.IsInterval():
			buf = append(buf, 1)
			buf = binary.BigEndian.AppendUint64(buf, uint64(int64Of(col, i)))
		default:
			buf = AppendKey(buf, col, i)
		}
	}
	n := len(buf) - start
	// the length goes before the key: a uvarint, one byte reserved above
	var lb [binary.MaxVarintLen64]byte
	l := binary.PutUvarint(lb[:], uint64(n))
	if l == 1 {
		buf[start-1] = lb[0]
		return buf
	}
	buf = append(buf, make([]byte, l-1)...)
	copy(buf[start-1+l:], buf[start:start+n])
	copy(buf[start-1:], lb[:l])
	return buf
}

// diskScanPartners visits, for each row of b from row lo on (in order)
// whose key is not NULL, the other side's stored rows with that key: visit
// gets the row's index, the stored key and value (valid during the call
// only) and the offset in the key where the stored row's values start.
// It stops at the first row boundary where full reports true (a batch
// that fans out is joined a segment at a time, as in memory) and returns
// the row it stopped before (b.Len at the latest). An error of visit ends
// the scan and is returned.
func (j *StreamingJoin) diskScanPartners(side int, b *types.Batch, lo int, full func() bool, visit func(i int, k, v []byte, rowAt int) error) (hi int, err error) {
	d := j.disk
	keys := j.Spec.LeftKeys
	if side == 1 {
		keys = j.Spec.RightKeys
	}
	var visitErr error
	i := lo
	for ; i < b.Len && !full(); i++ {
		if keyHasNull(b, keys, j.Spec.NullSafe, i) {
			continue
		}
		d.keyBuf = j.diskKeyPrefix(d.keyBuf[:0], side, b, i)
		d.keyBuf[0] = byte(1 - side)
		rowAt := len(d.keyBuf)
		err := d.store.Scan(d.keyBuf, func(k, v []byte) bool {
			visitErr = visit(i, k, v, rowAt)
			return visitErr == nil
		})
		if err = errors.Join(err, visitErr); err != nil {
			return i, err
		}
	}
	return i, nil
}

// diskLookupRow sets the store's key buffer to row i of b on side (its
// key prefix, then its values in the state codec) and reads the row's
// stored value (found false when the store has none).
func (j *StreamingJoin) diskLookupRow(side int, b *types.Batch, i int, myTypes []*types.DataType) (val []byte, found bool, err error) {
	d := j.disk
	d.keyBuf = j.diskKeyPrefix(d.keyBuf[:0], side, b, i)
	d.w.Reset()
	for c, t := range myTypes {
		d.w.Value(types.ValueAt(b.Cols[c], i, t), t)
	}
	if err := d.w.Err(); err != nil {
		return nil, false, fmt.Errorf("StreamingJoin: %w", err)
	}
	d.keyBuf = append(d.keyBuf, d.w.Data()...)
	return d.store.Get(d.keyBuf)
}

// countRow stores the row under the key buffer (set by diskLookupRow)
// with one occurrence more (add) or one less than cnt, its stored
// multiplicity (0 when not found); it is deleted at zero, and a removal of
// a row never stored changes nothing, as in memory. value encodes the new
// multiplicity as the row's value.
func (d *joinDisk) countRow(found, add bool, cnt int64, value func(cnt int64) []byte) error {
	switch {
	case add:
		if !found {
			d.rows++
		}
		return d.store.Put(d.keyBuf, value(cnt+1))
	case !found:
		return nil
	case cnt <= 1:
		d.rows--
		return d.store.Delete(d.keyBuf)
	default:
		return d.store.Put(d.keyBuf, value(cnt-1))
	}
}

// diskInnerValue encodes an inner join row's multiplicity.
func diskInnerValue(cnt int64) []byte { return binary.AppendVarint(nil, cnt) }

// diskStoredColumns builds the columns of stored rows of types ts, one
// row per entry: rowOf's values, or NULLs where it gives nil.
func diskStoredColumns(ts []*types.DataType, entries []int32, rowOf func(e int32) []any) []arrow.Array {
	cols := make([]arrow.Array, len(ts))
	for c, t := range ts {
		bld := array.NewBuilder(memory.DefaultAllocator, types.ToArrow(t))
		for _, e := range entries {
			var v any
			if row := rowOf(e); row != nil {
				v = row[c]
			}
			types.AppendValue(bld, v, t)
		}
		cols[c] = bld.NewArray()
		bld.Release()
	}
	return cols
}

// processDisk is ProcessBatch with the disk backend.
func (j *StreamingJoin) processDisk(side int, b *types.Batch) error {
	switch j.Spec.Kind {
	case opspec.InnerJoin:
	case opspec.SemiJoin, opspec.AntiJoin:
		return j.processDiskSemiAnti(side, b) // join_stream_disk_semi.go
	default:
		return j.processDiskOuter(side, b) // join_stream_disk_outer.go
	}
	d := j.disk
	keys, myTypes := j.Spec.LeftKeys, j.Spec.LeftTypes
	otherTypes := j.Spec.RightTypes
	if side == 1 {
		keys, myTypes, otherTypes = j.Spec.RightKeys, j.Spec.RightTypes, j.Spec.LeftTypes
	}
	// candidate pairs: row i with a decoded partner row and its count,
	// made a segment of rows at a time (diskScanPartners)
	var pRow, pEntry []int32
	var partners [][]any
	var counts []int64
	visit := func(i int, k, v []byte, rowAt int) error {
		r := state.NewReader(k[rowAt:])
		row := make([]any, len(otherTypes))
		for c, t := range otherTypes {
			row[c] = r.Value(t)
		}
		cr := state.NewReader(v)
		cnt := cr.Varint()
		if err := errors.Join(r.Done(), cr.Done()); err != nil {
			return fmt.Errorf("StreamingJoin: a row in the state backend does not decode: %w", err)
		}
		pRow = append(pRow, int32(i))
		pEntry = append(pEntry, int32(len(partners)))
		partners = append(partners, row)
		counts = append(counts, cnt)
		return nil
	}
	full := func() bool { return len(pRow) >= maxJoinBatchRows }
	joined := func(rows, entries []int32) []arrow.Array {
		return joinColumns(b, side, rows, diskStoredColumns(otherTypes, entries, func(e int32) []any { return partners[e] }))
	}
	// output: each pair once per copy of the partner, with the input's
	// kind, sent on whenever maxJoinBatchRows are made (the rows read only
	// this batch and the other side's stored rows, which it does not change)
	out := &joinOutput{}
	flush := func() error {
		if len(out.kinds) == 0 {
			return nil
		}
		o := &types.Batch{Cols: joined(out.inRows, out.stored), Kinds: out.rowKinds(), Len: len(out.kinds)}
		out = &joinOutput{}
		return j.Emit(o)
	}
	for lo := 0; lo < b.Len; {
		pRow, pEntry, partners, counts = pRow[:0], pEntry[:0], partners[:0], counts[:0]
		hi, err := j.diskScanPartners(side, b, lo, full, visit)
		if err != nil {
			return err
		}
		lo = hi
		if j.residual != nil && len(pRow) > 0 {
			cand := &types.Batch{Cols: joined(pRow, pEntry), Len: len(pRow)}
			if pRow, pEntry, err = keepResidualPairs(j.residual, j.Ctx.Eval, cand, pRow, pEntry); err != nil {
				return err
			}
		}
		for p, i := range pRow {
			k := b.Kind(int(i))
			for c := int64(0); c < counts[pEntry[p]]; c++ {
				out.add(k, i, pEntry[p])
				if len(out.kinds) >= maxJoinBatchRows {
					if err := flush(); err != nil {
						return err
					}
				}
			}
		}
		// the next segment's partners replace these
		if err := flush(); err != nil {
			return err
		}
	}
	// this side's rows: multiplicities updated
	for i := 0; i < b.Len; i++ {
		if keyHasNull(b, keys, j.Spec.NullSafe, i) {
			continue
		}
		val, found, err := j.diskLookupRow(side, b, i, myTypes)
		if err != nil {
			return err
		}
		var cnt int64
		if found {
			r := state.NewReader(val)
			cnt = r.Varint()
			if err := r.Done(); err != nil {
				return fmt.Errorf("StreamingJoin: a row count in the state backend does not decode: %w", err)
			}
		}
		if err := d.countRow(found, b.Kind(i).IsAccumulate(), cnt, diskInnerValue); err != nil {
			return err
		}
	}
	j.Ctx.ReportState(j.StateSize())
	return nil
}

// SnapshotDisk implements DiskStateOperator.
func (j *StreamingJoin) SnapshotDisk(dir string) error { return j.disk.store.Checkpoint(dir) }

// RestoreDisk implements DiskStateOperator.
func (j *StreamingJoin) RestoreDisk(dir string) error {
	s, err := j.disk.ctx.restoreKeyedStore(dir)
	if err != nil {
		return err
	}
	_ = j.disk.store.Close()
	j.disk.store = s
	return nil
}

// joinDiskStateVersion is the format of a disk-backed StreamingJoin's
// snapshot bytes: its shape and the number of rows in the store.
const joinDiskStateVersion = 1

func (j *StreamingJoin) snapshotDiskState() ([]byte, error) {
	w := state.NewWriter(128)
	w.Header("StreamingJoinOnDisk", joinDiskStateVersion)
	w.String(j.stateShape())
	w.Varint(j.disk.rows)
	return w.Data(), w.Err()
}

func (j *StreamingJoin) restoreDiskState(snapshot []byte) error {
	r := state.NewReader(snapshot)
	r.Header("StreamingJoinOnDisk", joinDiskStateVersion)
	checkShape(r, "StreamingJoin", j.stateShape())
	rows := r.Varint()
	if err := r.Done(); err != nil {
		return fmt.Errorf("StreamingJoin: restoring state: %w", err)
	}
	j.disk.rows = rows
	return nil
}
