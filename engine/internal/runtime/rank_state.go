package runtime

import (
	"errors"
	"fmt"

	"github.com/riffle-sql/riffle/engine/internal/state"
)

// rankStateVersion is the format version of Rank snapshots.
const rankStateVersion = 1

// A Rank snapshot (CheckpointedOperator) holds, after the header and the
// operator's shape (partition keys, sort keys, row types, the range, the
// rank number, the strategy): the arrival counter, the TTL's cleanup
// timer, and each partition: its key, its last write, its kept rows in
// rank order (arrival number and values) and which of them are emitted
// (the visible range, by position in the kept rows). A Top-N in batch
// mode (emitting at the end of input) has no checkpointed state.

func (r *Rank) stateShape() string {
	return fmt.Sprintf("partition %v; order %v; rows (%s); %s from %d to %d; rank number %v; append-only %v",
		r.PartitionKeys, r.Keys, typesShape(r.Types), r.RankType, r.RankStart, r.RankEnd, r.WithRankNum, r.AppendOnly)
}

var errBatchRankState = errors.New("Rank: a batch Top-N (emitting at the end of input) has no checkpointed state")

// SnapshotState implements CheckpointedOperator.
func (r *Rank) SnapshotState() ([]byte, error) {
	if r.Ctx != nil && r.Ctx.Batch {
		return nil, errBatchRankState
	}
	if r.disk != nil {
		return r.snapshotDiskState()
	}
	w := state.NewWriter(64 + int(r.nRows)*(8+8*len(r.Types)))
	w.Header("Rank", rankStateVersion)
	w.String(r.stateShape())
	w.Varint(r.seq)
	w.Varint(r.ttl.next)
	w.Count(len(r.parts))
	for k, p := range r.parts {
		w.String(k)
		w.Varint(p.last)
		r.writePartitionRows(w, p)
	}
	if err := w.Err(); err != nil {
		return nil, fmt.Errorf("Rank: %w", err)
	}
	return w.Data(), nil
}

// RestoreState implements CheckpointedOperator: the state is decoded into
// new structures and replaces the operator's only when all of it decoded.
func (r *Rank) RestoreState(snapshot []byte) error {
	if r.Ctx != nil && r.Ctx.Batch {
		return errBatchRankState
	}
	if r.disk != nil {
		return r.restoreDiskState(snapshot)
	}
	rd := state.NewReader(snapshot)
	rd.Header("Rank", rankStateVersion)
	checkShape(rd, "Rank", r.stateShape())
	seq := rd.Varint()
	next := rd.Varint()
	nParts := rd.Count(3)
	parts := make(map[string]*rankPartition, nParts)
	var nRows int64
	for i := 0; i < nParts && rd.Err() == nil; i++ {
		key := rd.String()
		p := &rankPartition{last: rd.Varint()}
		r.readPartitionRows(rd, p)
		parts[key] = p
		nRows += int64(len(p.rows))
	}
	if err := rd.Done(); err != nil {
		return fmt.Errorf("Rank: restoring state: %w", err)
	}
	r.parts, r.nRows, r.seq, r.ttl.next = parts, nRows, seq, next
	if r.Ctx != nil {
		r.Ctx.ReportState(r.StateSize())
	}
	return nil
}

// writePartitionRows writes p's kept rows in rank order (arrival number,
// values) then the positions among them of its emitted rows; an emitted
// row that is not kept fails w.
func (r *Rank) writePartitionRows(w *state.Writer, p *rankPartition) {
	w.Count(len(p.rows))
	pos := make(map[*rankRow]int, len(p.rows))
	for i, row := range p.rows {
		pos[row] = i
		w.Varint(row.seq)
		for c, v := range row.vals {
			w.Value(v, r.Types[c])
		}
	}
	w.Count(len(p.visible))
	for _, row := range p.visible {
		i, ok := pos[row]
		if !ok {
			w.Fail(errors.New("an emitted row is not among the partition's kept rows"))
		}
		w.Count(i)
	}
}

// readPartitionRows reads into p what writePartitionRows wrote; an error
// is left in rd.
func (r *Rank) readPartitionRows(rd *state.Reader, p *rankPartition) {
	p.rows = make([]*rankRow, rd.Count(1+len(r.Types)))
	for j := range p.rows {
		row := &rankRow{seq: rd.Varint(), vals: make([]any, len(r.Types))}
		for c := range row.vals {
			row.vals[c] = rd.Value(r.Types[c])
		}
		p.rows[j] = row
	}
	if vis := rd.Count(1); vis > 0 {
		p.visible = make([]*rankRow, vis)
	}
	for j := range p.visible {
		at := rd.Uvarint()
		if rd.Err() != nil {
			break
		}
		if at >= uint64(len(p.rows)) {
			rd.Failf("want the position of an emitted row below %d, found %d", len(p.rows), at)
			break
		}
		p.visible[j] = p.rows[at]
	}
}
