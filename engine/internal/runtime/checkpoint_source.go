package runtime

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// sourceTrigger is set by the coordinator to the id of a checkpoint it
// wants; a source task's reader goroutine polls it between batches.
type sourceTrigger struct {
	want atomic.Int64
	wake chan struct{} // signalled on each trigger (buffer 1)
	// drain is the id of a savepoint that drains the job (StopWithDrain):
	// the source task emits MAX_WATERMARK before its barrier and ends
	// after it
	drain atomic.Int64
	// suspend is the id of a savepoint that stops the job
	// (StopWithSavepoint): the source task emits nothing after its
	// barrier until the job ends, or until resume is closed (the
	// savepoint failed and the job goes on)
	suspend  atomic.Int64
	mu       sync.Mutex
	resume   chan struct{}
	resuming bool
}

func newSourceTrigger() *sourceTrigger { return &sourceTrigger{wake: make(chan struct{}, 1)} }

// suspendAt marks checkpoint id, about to be triggered, as a savepoint
// that stops the job.
func (t *sourceTrigger) suspendAt(id int64) {
	t.mu.Lock()
	t.resume, t.resuming = make(chan struct{}), false
	t.mu.Unlock()
	t.suspend.Store(id)
}

// suspends reports whether the barrier of checkpoint id stops the source,
// with the channel closed if the source is to go on after all.
func (t *sourceTrigger) suspends(id int64) (<-chan struct{}, bool) {
	if t == nil || id == 0 || t.suspend.Load() != id {
		return nil, false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.resume, true
}

// resumeAfterFailedStop lets a source suspended by a stopping savepoint
// that failed go on.
func (t *sourceTrigger) resumeAfterFailedStop() {
	t.suspend.Store(0)
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.resume != nil && !t.resuming {
		t.resuming = true
		close(t.resume)
	}
}

// drainAt marks checkpoint id, about to be triggered, as a draining
// savepoint.
func (t *sourceTrigger) drainAt(id int64) { t.drain.Store(id) }

// drains reports whether the barrier of checkpoint id ends the source.
func (t *sourceTrigger) drains(id int64) bool { return t != nil && id != 0 && t.drain.Load() == id }

func (t *sourceTrigger) set(id int64) {
	t.want.Store(id)
	select {
	case t.wake <- struct{}{}:
	default:
	}
}

// SourceCheckpoint is what a SourceFunc sees of checkpoints: the position
// to resume from, and Between, which it calls between two batches so that
// a checkpoint's barrier goes out behind the batches already emitted.
// SourceCheckpointOf returns it from the SourceFunc's context.
type SourceCheckpoint struct {
	trigger *sourceTrigger
	served  int64
	restore []byte
	// barrier hands the barrier of checkpoint id, with the source's
	// position (or the error that kept the source from saving it), to the
	// source's task, in order with the batches.
	barrier func(id int64, position []byte, err error) error
}

type sourceCheckpointKey struct{}

// SourceCheckpointOf returns the checkpoint hook of the source instance
// whose SourceFunc received ctx, or nil when the job takes no checkpoints
// (a batch job, a test driving a SourceFunc alone).
func SourceCheckpointOf(ctx context.Context) *SourceCheckpoint {
	sc, _ := ctx.Value(sourceCheckpointKey{}).(*SourceCheckpoint)
	return sc
}

// Restored returns the position this instance saved in the checkpoint the
// job resumes from, nil for a fresh start.
func (s *SourceCheckpoint) Restored() []byte {
	if s == nil {
		return nil
	}
	return s.restore
}

// Triggered returns a channel that receives when a checkpoint is
// triggered: a source waiting for data (an idle partition, a paused
// generator) selects on it and calls Between, so that checkpoints do not
// wait for its next batch.
func (s *SourceCheckpoint) Triggered() <-chan struct{} {
	if s == nil {
		return nil
	}
	return s.trigger.wake
}

// Between is called by a source between two batches. When a checkpoint is
// due it calls position and sends the checkpoint's barrier with it; a
// position error declines the checkpoint (it fails; the job goes on). It
// returns an error only when the job is ending.
func (s *SourceCheckpoint) Between(position func() ([]byte, error)) error {
	if s == nil {
		return nil
	}
	id := s.trigger.want.Load()
	if id <= s.served {
		return nil
	}
	s.served = id
	var pos []byte
	var err error
	if position == nil {
		err = errors.New("the source cannot save its position")
	} else {
		pos, err = position()
	}
	return s.barrier(id, pos, err)
}

// The position of a ConnectorSource instance, as the runtime saves it:
//
//	byte     version (1)
//	uvarint  k: the instance's split being read (its k-th; splits before it are done)
//	uvarint  len, bytes: that split's name (checked on restore)
//	uvarint  len, bytes: the reader's Position (empty: the split not opened yet)
//
// A MultiSplitSource instance saves version 2 and the reader's Position.
const (
	sourcePositionSplits = 1
	sourcePositionMulti  = 2
)

func encodeSourcePosition(k int, split string, pos []byte) []byte {
	b := []byte{sourcePositionSplits}
	b = binary.AppendUvarint(b, uint64(k))
	b = binary.AppendUvarint(b, uint64(len(split)))
	b = append(b, split...)
	b = binary.AppendUvarint(b, uint64(len(pos)))
	return append(b, pos...)
}

func decodeSourcePosition(b []byte) (k int, split string, pos []byte, err error) {
	bad := func(what string) error { return fmt.Errorf("saved source position is corrupt: %s", what) }
	if len(b) == 0 || b[0] != sourcePositionSplits {
		return 0, "", nil, bad("unknown version")
	}
	b = b[1:]
	uk, n := binary.Uvarint(b)
	if n <= 0 || uk > 1<<31 {
		return 0, "", nil, bad("split index")
	}
	b = b[n:]
	l, n := binary.Uvarint(b)
	if n <= 0 || l > uint64(len(b)-n) {
		return 0, "", nil, bad("split name")
	}
	split = string(b[n : n+int(l)])
	b = b[n+int(l):]
	l, n = binary.Uvarint(b)
	if n <= 0 || l != uint64(len(b)-n) {
		return 0, "", nil, bad("reader position")
	}
	return int(uk), split, b[n:], nil
}

// IsResumable reports whether a connector source can save and resume its
// position (connector.ResumableSource, or ResumableMultiSplitSource for a
// MultiSplitSource).
func IsResumable(src connector.Source) bool {
	if _, ok := src.(connector.MultiSplitSource); ok {
		_, ok := src.(connector.ResumableMultiSplitSource)
		return ok
	}
	_, ok := src.(connector.ResumableSource)
	return ok
}

// readSplitsResumable is ConnectorSource's loop over an instance's splits
// when the job takes checkpoints: it resumes at the saved position and
// offers a checkpoint between batches.
func readSplitsResumable(ctx context.Context, sc *SourceCheckpoint, src connector.Source, splits []connector.Split, inst, par int, spec connector.ReadSpec, emit func(*types.Batch) error, onSkip func(int64)) error {
	var mine []connector.Split
	for i := inst; i < len(splits); i += par {
		mine = append(mine, splits[i])
	}
	rs, resumable := src.(connector.ResumableSource)
	from, resumeAt := 0, []byte(nil)
	if saved := sc.Restored(); saved != nil {
		if !resumable {
			return &RestoreError{Err: errors.New("the source cannot resume from a saved position")}
		}
		k, name, pos, err := decodeSourcePosition(saved)
		if err != nil {
			return &RestoreError{Err: err}
		}
		if k > len(mine) || (k < len(mine) && mine[k].String() != name) {
			return &RestoreError{Err: fmt.Errorf("the source's splits changed since the checkpoint: split %d was %q", k, name)}
		}
		from, resumeAt = k, pos
	}
	for k := from; k < len(mine); k++ {
		split := mine[k]
		var r connector.Reader
		var err error
		if k == from && len(resumeAt) > 0 {
			if r, err = rs.OpenAt(ctx, split, spec, resumeAt); err != nil {
				return &RestoreError{Err: err}
			}
		} else if r, err = src.Open(ctx, split, spec); err != nil {
			return err
		}
		pr, _ := r.(connector.PositionReader)
		position := func() ([]byte, error) {
			if pr == nil {
				return nil, fmt.Errorf("the reader of %s cannot save its position", split)
			}
			p, err := pr.Position()
			if err != nil {
				return nil, err
			}
			return encodeSourcePosition(k, split.String(), p), nil
		}
		err = func() error {
			defer r.Close()
			if w, ok := r.(connector.WakeableReader); ok {
				defer wakeOnTrigger(ctx, w)()
			}
			if err := sc.Between(position); err != nil {
				return err
			}
			for {
				b, err := r.Next(ctx)
				if err == nil && b == nil {
					// woken for a checkpoint
					if err := sc.Between(position); err != nil {
						return err
					}
					continue
				}
				if err == io.EOF {
					if c, ok := r.(connector.SkipCounter); ok && onSkip != nil {
						onSkip(c.SkippedRows())
					}
					return nil
				}
				if err != nil {
					return err
				}
				if err := emit(b); err != nil {
					return err
				}
				if err := sc.Between(position); err != nil {
					return err
				}
			}
		}()
		if err != nil {
			return err
		}
	}
	return nil
}

// readInstanceResumable is readInstance for a MultiSplitSource when the
// job takes checkpoints.
func readInstanceResumable(ctx context.Context, sc *SourceCheckpoint, src connector.Source, ms connector.MultiSplitSource, splits []connector.Split, inst, par int, spec connector.ReadSpec, emit func(*types.Batch) error, onSkip func(int64)) error {
	var r connector.Reader
	var err error
	if saved := sc.Restored(); saved != nil {
		rms, ok := src.(connector.ResumableMultiSplitSource)
		if !ok {
			return &RestoreError{Err: errors.New("the source cannot resume from a saved position")}
		}
		if len(saved) == 0 || saved[0] != sourcePositionMulti {
			return &RestoreError{Err: errors.New("saved source position is corrupt: unknown version")}
		}
		if r, err = rms.OpenInstanceAt(ctx, splits, inst, par, spec, saved[1:]); err != nil {
			return &RestoreError{Err: err}
		}
	} else {
		r, err = ms.OpenInstance(ctx, splits, inst, par, spec)
	}
	if err != nil {
		return err
	}
	defer r.Close()
	pr, _ := r.(connector.PositionReader)
	position := func() ([]byte, error) {
		if pr == nil {
			return nil, errors.New("the source's reader cannot save its position")
		}
		p, err := pr.Position()
		if err != nil {
			return nil, err
		}
		return append([]byte{sourcePositionMulti}, p...), nil
	}
	if err := sc.Between(position); err != nil {
		return err
	}
	return readMulti(ctx, src, r, emit, onSkip, func() error { return sc.Between(position) })
}

// wakeOnTrigger wakes r whenever a checkpoint is triggered, so that a
// reader waiting for data lets the barrier go out; the returned function
// stops it.
func wakeOnTrigger(ctx context.Context, r connector.WakeableReader) (stop func()) {
	sc := SourceCheckpointOf(ctx)
	if sc == nil {
		return func() {}
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-sc.Triggered():
				r.Wake()
			case <-done:
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return func() { close(done) }
}
