package runtime

import (
	"sync"

	"github.com/riffle-sql/riffle/engine/types"
)

// A query's results with periodic checkpoints: exactly once, as Flink's
// collect sink gives them. The rows a collect sink receives are held until
// a checkpoint taken after them completes, and only then handed to the
// Collector (what the result view and TableResult read). A job that fails
// and restarts from that checkpoint produces the rows after it again; the
// reader never saw them, so it sees each change once. The price is
// latency: results arrive once per checkpoint interval. At the end of a
// bounded input everything held is handed over; on cancellation or
// failure what is held is dropped. Without periodic checkpoints rows go to
// the Collector at once (ProcessBatch).

// heldResults are a collect sink's rows not yet handed over: pending since
// the last barrier, and staged per checkpoint.
type heldResults struct {
	mu      sync.Mutex
	pending []*types.Batch
	staged  []stagedResults
	// publish serializes hand-overs (the coordinator's and EndInput's)
	publish sync.Mutex
}

type stagedResults struct {
	id      int64
	batches []*types.Batch
}

func (h *heldResults) add(b *types.Batch) {
	h.mu.Lock()
	h.pending = append(h.pending, b)
	h.mu.Unlock()
}

// PrepareCommit implements CommittingOperator: the rows before the
// barrier wait for its checkpoint.
func (s *collectSink) PrepareCommit(id int64) error {
	h := &s.held
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.pending) > 0 {
		h.staged = append(h.staged, stagedResults{id: id, batches: h.pending})
		h.pending = nil
	}
	return nil
}

// SnapshotState implements CheckpointedOperator: the sink keeps nothing
// a resumed job needs (rows held for an incomplete checkpoint are
// produced again from it).
func (s *collectSink) SnapshotState() ([]byte, error) { return nil, nil }

// RestoreState implements CheckpointedOperator.
func (s *collectSink) RestoreState([]byte) error { return nil }

// NotifyCheckpointComplete implements CommittingOperator: the rows of
// checkpoint id and earlier go to the Collector.
func (s *collectSink) NotifyCheckpointComplete(id int64) error {
	h := &s.held
	h.publish.Lock()
	defer h.publish.Unlock()
	h.mu.Lock()
	var ready []stagedResults
	k := 0
	for k < len(h.staged) && h.staged[k].id <= id {
		k++
	}
	ready, h.staged = h.staged[:k], h.staged[k:]
	h.mu.Unlock()
	// the job's context, not the attempt's: a failure right after the
	// checkpoint must not keep its rows from the reader, since the
	// restarted job resumes after them
	ctx := s.Ctx.JobCtx
	if ctx == nil {
		ctx = s.Ctx.Ctx
	}
	for _, st := range ready {
		for _, b := range st.batches {
			if err := s.c.push(ctx, b); err != nil {
				return err
			}
		}
	}
	return nil
}

// EndInput hands over everything held: the input is complete. A task
// whose attempt ended (cancelled, stopped, failed) ends its chain too;
// that is not the end of the input: the rows after the last barrier are
// dropped (the restarted job produces them again), but the rows staged for
// a checkpoint stay, because that checkpoint may have completed already
// and its notification come after the teardown: the restarted job then
// resumes after those rows, so NotifyCheckpointComplete must still hand
// them over. The rows of a checkpoint that never completes are never
// handed over (the job resumes from an earlier one and produces them again).
func (s *collectSink) EndInput(int) error {
	h := &s.held
	h.publish.Lock()
	defer h.publish.Unlock()
	if s.Ctx.Ctx.Err() != nil {
		h.mu.Lock()
		h.pending = nil
		h.mu.Unlock()
		return nil
	}
	h.mu.Lock()
	var all []*types.Batch
	for _, st := range h.staged {
		all = append(all, st.batches...)
	}
	all = append(all, h.pending...)
	h.staged, h.pending = nil, nil
	h.mu.Unlock()
	for _, b := range all {
		if err := s.c.push(s.Ctx.Ctx, b); err != nil {
			return err
		}
	}
	return nil
}
