package runtime

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// ConnectorSink is a CommittingOperator: when its writer is a
// connector.CommittingWriter, a checkpoint's barrier makes it prepare a
// commit (the writer flushes and returns a committable), the committables
// of checkpoints not yet complete are its state, and each is published
// (CommitCheckpoint) once its checkpoint, or a later one, is complete.
// A job resumed from a checkpoint publishes the committables that
// checkpoint holds (they may not have been published before the job
// stopped; publishing is idempotent). At the end of a bounded input the
// committables still waiting are published and the writer's Commit
// publishes the rest, as without checkpoints; with final checkpoints on
// (the default), a final checkpoint publishes it instead, and Commit only
// ends the write (FinalCheckpointOperator). A writer that is not a
// CommittingWriter keeps today's behaviour: everything is published by
// Commit at the end of input, and the sink saves no state.

var _ FinalCheckpointOperator = (*ConnectorSink)(nil)

// CommitAtFinalCheckpoint implements FinalCheckpointOperator: a writer
// that commits on checkpoints publishes the end of the input through the
// job's final checkpoint.
func (s *ConnectorSink) CommitAtFinalCheckpoint() bool {
	s.commits.mu.Lock()
	defer s.commits.mu.Unlock()
	s.finalCommit = s.commits.cw != nil
	return s.finalCommit
}

// FinishCommit implements FinalCheckpointOperator: once the final
// checkpoint is complete (its files published), the writer's Commit ends
// the write.
func (s *ConnectorSink) FinishCommit() error { return s.commitAll() }

// sinkCommits is the committing side of a ConnectorSink. mu serializes
// the writer's calls: the task's writes and prepares, the coordinator's
// notifications.
type sinkCommits struct {
	mu      sync.Mutex
	cw      connector.CommittingWriter // nil: the writer does not commit on checkpoints
	pending []sinkCommittable          // by checkpoint id, ascending
}

// sinkCommittable is what PrepareCommit of one checkpoint returned.
type sinkCommittable struct {
	id   int64
	data []byte
}

// opened records the writer once the sink is open.
func (s *ConnectorSink) opened() {
	s.commits.cw, _ = s.w.(connector.CommittingWriter)
}

// write writes a batch under the lock the notifications take.
func (s *ConnectorSink) write(b *types.Batch) error {
	s.commits.mu.Lock()
	defer s.commits.mu.Unlock()
	return s.w.Write(s.Ctx.Ctx, b)
}

// commitCtx is the context of publishing: a checkpoint on disk is
// published even while the job is being cancelled.
func (s *ConnectorSink) commitCtx() context.Context {
	if s.Ctx == nil || s.Ctx.Ctx == nil {
		return context.Background()
	}
	return context.WithoutCancel(s.Ctx.Ctx)
}

// PrepareCommit implements CommittingOperator.
func (s *ConnectorSink) PrepareCommit(checkpointID int64) error {
	s.commits.mu.Lock()
	defer s.commits.mu.Unlock()
	if s.commits.cw == nil || s.committed {
		return nil
	}
	data, err := s.commits.cw.PrepareCommit(s.Ctx.Ctx, checkpointID)
	if err != nil {
		return err
	}
	s.commits.pending = append(s.commits.pending, sinkCommittable{id: checkpointID, data: data})
	return nil
}

// NotifyCheckpointComplete implements CommittingOperator: it publishes
// the committables of checkpoint id and of earlier ones.
func (s *ConnectorSink) NotifyCheckpointComplete(checkpointID int64) error {
	s.commits.mu.Lock()
	defer s.commits.mu.Unlock()
	return s.publishLocked(checkpointID)
}

// publishLocked publishes the waiting committables up to checkpoint id
// (all of them when id < 0).
func (s *ConnectorSink) publishLocked(id int64) error {
	for len(s.commits.pending) > 0 {
		c := s.commits.pending[0]
		if id >= 0 && c.id > id {
			break
		}
		if err := s.commits.cw.CommitCheckpoint(s.commitCtx(), c.id, c.data); err != nil {
			return err
		}
		s.commits.pending = s.commits.pending[1:]
	}
	return nil
}

// sinkStateMagic starts a ConnectorSink's snapshot: its kind and version.
const sinkStateMagic = "csk1"

// SnapshotState implements CheckpointedOperator: the committables not yet
// published (nil when the writer does not commit on checkpoints).
func (s *ConnectorSink) SnapshotState() ([]byte, error) {
	s.commits.mu.Lock()
	defer s.commits.mu.Unlock()
	if s.commits.cw == nil {
		return nil, nil
	}
	b := []byte(sinkStateMagic)
	b = binary.AppendUvarint(b, uint64(len(s.commits.pending)))
	for _, c := range s.commits.pending {
		b = binary.AppendVarint(b, c.id)
		b = binary.AppendUvarint(b, uint64(len(c.data)))
		b = append(b, c.data...)
	}
	return b, nil
}

// RestoreState implements CheckpointedOperator: it publishes the restored
// committables (their checkpoint is complete: the job resumes from it).
func (s *ConnectorSink) RestoreState(snapshot []byte) error {
	restored, err := decodeSinkState(snapshot)
	if err != nil {
		return err
	}
	s.commits.mu.Lock()
	defer s.commits.mu.Unlock()
	if len(restored) > 0 && s.commits.cw == nil {
		return fmt.Errorf("the saved state holds %d uncommitted checkpoint(s) of sink %s, whose writer cannot commit them", len(restored), s.Table)
	}
	s.commits.pending = append(restored, s.commits.pending...)
	return s.publishLocked(-1)
}

func decodeSinkState(b []byte) ([]sinkCommittable, error) {
	if len(b) < len(sinkStateMagic) || string(b[:len(sinkStateMagic)]) != sinkStateMagic {
		return nil, errors.New("not the state of a connector sink")
	}
	b = b[len(sinkStateMagic):]
	n, k := binary.Uvarint(b)
	if k <= 0 || n > uint64(len(b)) {
		return nil, errors.New("the connector sink's state is corrupt")
	}
	b = b[k:]
	out := make([]sinkCommittable, 0, n)
	for i := uint64(0); i < n; i++ {
		id, k := binary.Varint(b)
		if k <= 0 {
			return nil, errors.New("the connector sink's state is truncated")
		}
		b = b[k:]
		l, k := binary.Uvarint(b)
		if k <= 0 || l > uint64(len(b)-k) {
			return nil, errors.New("the connector sink's state is truncated")
		}
		out = append(out, sinkCommittable{id: id, data: append([]byte(nil), b[k:k+int(l)]...)})
		b = b[k+int(l):]
	}
	if len(b) != 0 {
		return nil, errors.New("the connector sink's state has trailing bytes")
	}
	return out, nil
}

// commitAll ends the write at the end of input: the waiting committables
// are published, then the writer's Commit publishes the rest. A task
// ending because its attempt's context ended (cancel, STOP JOB, a failure
// elsewhere) ends its chain too: for a CommittingWriter that is no end of
// input, and nothing is committed (a plain Writer commits, as before).
func (s *ConnectorSink) commitAll() error {
	s.commits.mu.Lock()
	defer s.commits.mu.Unlock()
	if s.w == nil || s.committed {
		return nil
	}
	if s.commits.cw != nil && s.Ctx != nil && s.Ctx.Ctx != nil && s.Ctx.Ctx.Err() != nil {
		// not the end of the input: the attempt was cancelled, stopped
		// (after a savepoint) or failed, and its task ends its chain;
		// Close aborts what no checkpoint committed
		return nil
	}
	s.committed = true
	if s.commits.cw != nil {
		if err := s.publishLocked(-1); err != nil {
			s.w.Abort()
			return err
		}
	}
	return s.w.Commit()
}

// abort discards what was not committed (a CommittingWriter keeps what it
// prepared for a checkpoint: a restore may publish it).
func (s *ConnectorSink) abort() {
	s.commits.mu.Lock()
	defer s.commits.mu.Unlock()
	if s.w != nil && !s.committed {
		s.w.Abort()
	}
}
