package runtime

import (
	"context"
	"fmt"
	"log/slog"
	"os"
)

// taskCheckpoint is one task's side of checkpoints: it restores the
// chain's state when the job resumes, saves it when a barrier has passed,
// passes the barrier on and acknowledges.
type taskCheckpoint struct {
	coord   *coordinator
	index   int // in coord.tasks
	chain   []*Node
	subtask int
	trigger *sourceTrigger // source tasks

	// set by runTask once the chain's operators are open
	built  []chainedOp
	router *router
	// final are the chain's operators that commit the end of the input
	// through a final checkpoint (opened)
	final []finalCommitter
	// inputEnded is set once the task waits for a final checkpoint
	inputEnded bool
}

// finalCommitter is an operator of the chain that commits through a final
// checkpoint, and its node.
type finalCommitter struct {
	op FinalCheckpointOperator
	n  *Node
}

// newTaskCheckpoint registers a task with the job's coordinator (nil when
// the job takes no checkpoints).
func (e *executor) newTaskCheckpoint(chain []*Node, inst int) *taskCheckpoint {
	c := e.job.coord
	if c == nil {
		return nil
	}
	t := &taskCheckpoint{coord: c, chain: chain, subtask: inst}
	ct := &checkpointTask{nodes: chain, subtask: inst}
	if chain[0].Source != nil {
		t.trigger = newSourceTrigger()
		ct.source, ct.trigger, ct.resumable = true, t.trigger, chain[0].Resumable
	}
	t.index = c.register(ct)
	return t
}

// checkCheckpoints refuses, at submission, a job that takes checkpoints
// with a source that cannot save its position or an operator that holds
// state it cannot save, and a job resuming from a checkpoint that does not
// fit it.
func (e *executor) checkCheckpoints() error {
	c := e.job.coord
	if c == nil {
		if e.cfg.Checkpoint.Restore != nil {
			return fmt.Errorf("a batch job cannot resume from checkpoint %s", e.cfg.Checkpoint.Restore.Path)
		}
		return nil
	}
	if e.cfg.Checkpoint.Interval > 0 {
		if e.cfg.Checkpoint.Dir == "" {
			return fmt.Errorf("checkpointing is on (execution.checkpointing.interval %v) but no directory is set: set 'execution.checkpointing.dir'", e.cfg.Checkpoint.Interval)
		}
		if err := checkpointable(e.g); err != nil {
			return err
		}
		// the directory is made now, so a path that cannot be written
		// fails the job at submission, not at its first checkpoint
		if err := os.MkdirAll(c.jobDir(), 0o755); err != nil {
			return fmt.Errorf("checkpoint directory %s (execution.checkpointing.dir): %w", e.cfg.Checkpoint.Dir, err)
		}
		if removed := RemoveDiscardedJobDirs(e.cfg.Checkpoint.Dir); len(removed) > 0 {
			slog.Info("removed the checkpoints of jobs whose process ended while it deleted them", "dir", e.cfg.Checkpoint.Dir, "removed", removed)
		}
	}
	if e.cfg.Checkpoint.Restore != nil {
		return c.checkRestore(e.g)
	}
	return nil
}

// checkpointable reports the first source or operator of g that cannot
// take part in checkpoints.
func checkpointable(g *Graph) error {
	for _, n := range g.Nodes {
		if n.Source != nil {
			if !n.Resumable {
				return fmt.Errorf("checkpointing is on, but source %s cannot save its read position (its connector does not support checkpoints)", n.Name)
			}
			continue
		}
		if err := operatorCheckpointable(n.Name, n.NewOperator()); err != nil {
			return err
		}
	}
	return nil
}

// operatorCheckpointable says why op cannot be checkpointed: it holds
// state (a StateReporter) but cannot save it.
func operatorCheckpointable(name string, op Operator) error {
	if _, ok := op.(CheckpointedOperator); ok {
		return nil
	}
	if _, ok := op.(StateReporter); ok {
		return fmt.Errorf("checkpointing is on, but operator %s cannot save its state yet (see docs/known-gaps.md)", shortName(name))
	}
	return nil
}

// restore gives each operator of the chain its saved state. finished
// reports that the task had finished before the checkpoint; sourceEnded
// that its source had read everything while the operators after it
// waited for a final checkpoint (the task then goes straight to the end
// of its input).
func (t *taskCheckpoint) restore() (finished, sourceEnded bool, err error) {
	c := t.coord
	if c.cfg.Restore == nil {
		return false, false, nil
	}
	ended, running := 0, 0
	for _, n := range t.chain {
		if st, ok := c.restored(n, t.subtask); ok && st.finished {
			ended++
		} else if ok {
			running++
		}
	}
	switch {
	case ended > 0 && running == 0:
		return true, false, nil
	case ended > 0:
		// a final checkpoint's: the source had ended, the rest had not
		if st, ok := c.restored(t.chain[0], t.subtask); !ok || !st.finished || t.chain[0].Source == nil {
			return false, false, &RestoreError{Err: fmt.Errorf("checkpoint %s holds subtask %d of %s as both finished and running", c.cfg.Restore.Path, t.subtask, shortName(t.chain[0].Name))}
		}
		sourceEnded = true
	}
	for _, p := range t.built {
		st, ok := c.restored(p.n, t.subtask)
		if !ok || len(st.state) == 0 {
			continue
		}
		co, isCP := p.op.(CheckpointedOperator)
		if !isCP {
			return false, false, &RestoreError{Err: fmt.Errorf("checkpoint %s holds state of %s, which cannot restore state", c.cfg.Restore.Path, shortName(p.n.Name))}
		}
		d, isDisk := p.op.(DiskStateOperator)
		onDisk := isDisk && d.UsesDisk()
		switch {
		case st.dbDir != "" && !onDisk:
			return false, false, &RestoreError{Err: fmt.Errorf("checkpoint %s holds the state of %s in the disk state backend's format: resume it with state.backend.type 'rocksdb'", c.cfg.Restore.Path, shortName(p.n.Name))}
		case st.dbDir == "" && onDisk:
			return false, false, &RestoreError{Err: fmt.Errorf("checkpoint %s holds the state of %s in memory's format: resume it with state.backend.type 'hashmap'", c.cfg.Restore.Path, shortName(p.n.Name))}
		case onDisk:
			if err := d.RestoreDisk(st.dbDir); err != nil {
				return false, false, &TaskError{Operator: p.n.Name, Err: &RestoreError{Err: fmt.Errorf("restoring from checkpoint %s: %w", c.cfg.Restore.Path, err)}}
			}
		}
		if err := co.RestoreState(st.state); err != nil {
			return false, false, &TaskError{Operator: p.n.Name, Err: &RestoreError{Err: fmt.Errorf("restoring from checkpoint %s: %w", c.cfg.Restore.Path, err)}}
		}
	}
	return false, sourceEnded, nil
}

// opened registers the chain's committing operators with the
// coordinator, once they are open, and tells those that can commit the
// end of the input through a final checkpoint that the job takes one.
func (t *taskCheckpoint) opened() {
	for _, p := range t.built {
		if co, ok := p.op.(CommittingOperator); ok {
			t.coord.addCommitter(co, p.n)
		}
		if fo, ok := p.op.(FinalCheckpointOperator); ok && t.coord.finalCheckpoints() && fo.CommitAtFinalCheckpoint() {
			t.final = append(t.final, finalCommitter{fo, p.n})
		}
	}
}

// finish ends a task whose input has ended (its chain's EndInput has run):
// when the chain commits through a final checkpoint, it takes part in
// checkpoints until one completes, then ends the write (FinishCommit). A
// job that ends first (cancelled, stopped, failed elsewhere) leaves
// without committing: Close aborts what no checkpoint holds.
func (t *taskCheckpoint) finish(ctx context.Context) error {
	if t == nil || len(t.final) == 0 || ctx.Err() != nil {
		return nil
	}
	t.inputEnded = true
	handed := t.coord.awaitFinal(t.index)
	for {
		var p *pendingCheckpoint
		select {
		case p = <-handed:
		case <-ctx.Done():
			return nil
		}
		states, err := t.snapshot(p.id, nil)
		if err != nil {
			t.coord.decline(p.id, fmt.Errorf("checkpoint %d declined by %s (subtask %d): %w", p.id, shortName(t.chain[0].Name), t.subtask, err))
			continue
		}
		t.coord.ack(taskAck{task: t.index, id: p.id, states: states})
		select {
		case <-p.ended:
		case <-ctx.Done():
			return nil
		}
		if t.coord.completedSince(p.id) {
			break
		}
	}
	for _, f := range t.final {
		if err := f.op.FinishCommit(); err != nil {
			return &TaskError{Operator: f.n.Name, Err: err}
		}
	}
	return nil
}

// snapshot saves the state of the chain's operators (and, for a source
// task, the source's position) for checkpoint id.
func (t *taskCheckpoint) snapshot(id int64, sourcePos []byte) ([]operatorState, error) {
	var states []operatorState
	if t.chain[0].Source != nil {
		// a task waiting for a final checkpoint has read its source to
		// the end
		states = append(states, operatorState{uid: t.coord.uids[t.chain[0]], subtask: t.subtask, state: sourcePos, finished: t.inputEnded})
	}
	for _, p := range t.built {
		st := operatorState{uid: t.coord.uids[p.n], subtask: t.subtask}
		if co, ok := p.op.(CommittingOperator); ok {
			if err := co.PrepareCommit(id); err != nil {
				return nil, fmt.Errorf("%s: %w", shortName(p.n.Name), err)
			}
		}
		if co, ok := p.op.(CheckpointedOperator); ok {
			b, err := co.SnapshotState()
			if err != nil {
				return nil, fmt.Errorf("%s: %w", shortName(p.n.Name), err)
			}
			st.state = b
			if d, ok := p.op.(DiskStateOperator); ok && d.UsesDisk() {
				dir := t.coord.stageDir(id, st.uid, t.subtask)
				if err := d.SnapshotDisk(dir); err != nil {
					return nil, fmt.Errorf("%s: %w", shortName(p.n.Name), err)
				}
				st.dbDir = dir
			}
		} else if err := operatorCheckpointable(p.n.Name, p.op); err != nil {
			return nil, err
		}
		states = append(states, st)
	}
	return states, nil
}

// barrier saves the chain's state for checkpoint id, passes the barrier
// downstream and acknowledges; a failure to save declines the checkpoint
// (it fails, the job goes on).
func (t *taskCheckpoint) barrier(id int64, sourcePos []byte, posErr error) error {
	var states []operatorState
	err := posErr
	if err == nil {
		states, err = t.snapshot(id, sourcePos)
	}
	if err := t.router.broadcast(event{kind: evBarrier, wm: id}); err != nil {
		return err
	}
	if err != nil {
		t.coord.decline(id, fmt.Errorf("checkpoint %d declined by %s (subtask %d): %w", id, shortName(t.chain[0].Name), t.subtask, err))
		return nil
	}
	t.coord.ack(taskAck{task: t.index, id: id, states: states})
	return nil
}

// sourceBarrier handles a barrier a source task's reader put behind its
// batches.
func (t *taskCheckpoint) sourceBarrier(id int64, pos []byte, posErr error) error {
	if posErr != nil {
		posErr = fmt.Errorf("source %s: %w", shortName(t.chain[0].Name), posErr)
	}
	return t.barrier(id, pos, posErr)
}

// heldEvent is an event held back while barriers align.
type heldEvent struct {
	in int
	ev event
}

// aligner tracks the barriers of the checkpoint a task is aligning: which
// producers of which inputs have sent it (or ended), and, in EXACTLY_ONCE
// mode, the events held back from those that have.
type aligner struct {
	exactlyOnce bool
	producers   []int
	endedP      [][]bool
	id          int64 // the checkpoint being aligned, 0 when none
	got         [][]bool
	count       int // producers whose barrier arrived or that ended
	total       int
	held        []heldEvent
	// replay are events held back by the last alignment, processed
	// before anything is read from the channels again
	replay []heldEvent
	doneID int64 // the last checkpoint aligned
}

func newAligner(producers []int, exactlyOnce bool) *aligner {
	a := &aligner{exactlyOnce: exactlyOnce, producers: producers}
	for _, p := range producers {
		a.endedP = append(a.endedP, make([]bool, p))
		a.got = append(a.got, make([]bool, p))
		a.total += p
	}
	return a
}

// holds reports whether an event from producer p of input in must wait:
// that producer's barrier has arrived and the others' have not.
func (a *aligner) holds(in, p int) bool {
	return a.exactlyOnce && a.id != 0 && a.got[in][p]
}

// barrier records the barrier of checkpoint id from producer p of input
// in; it returns id when that completes the alignment.
func (a *aligner) barrier(in, p int, id int64) int64 {
	switch {
	case id < a.id || (a.id == 0 && id <= a.lastDone()):
		return 0 // a failed checkpoint's late barrier
	case id > a.id:
		// a new checkpoint (an unfinished older one was given up)
		a.release()
		a.id = id
		a.count = 0
		for i := range a.got {
			for k := range a.got[i] {
				a.got[i][k] = false
				if a.endedP[i][k] {
					a.count++
				}
			}
		}
	}
	if !a.got[in][p] && !a.endedP[in][p] {
		a.got[in][p] = true
		a.count++
	}
	if a.count == a.total {
		return a.id
	}
	return 0
}

// done is the id of the last checkpoint aligned.
func (a *aligner) lastDone() int64 { return a.doneID }

// ended records the end of producer p of input in; it returns the id of
// the checkpoint being aligned when that completes its alignment.
func (a *aligner) ended(in, p int) int64 {
	if a.endedP[in][p] {
		return 0
	}
	a.endedP[in][p] = true
	if a.id == 0 || a.got[in][p] {
		return 0
	}
	a.count++
	if a.count == a.total {
		return a.id
	}
	return 0
}

// release ends an alignment: the held events are replayed first.
func (a *aligner) release() {
	if len(a.held) > 0 {
		a.replay = append(a.held, a.replay...)
		a.held = nil
	}
	a.id = 0
}

// complete saves the task's state for checkpoint id, sends the barrier on
// and releases the held events.
func (a *aligner) complete(t *taskCheckpoint, id int64) error {
	a.doneID = id
	a.release()
	return t.barrier(id, nil, nil)
}

// RestoreError is a failure to give a resumed job its saved state: the
// checkpoint does not fit the job (an operator of another shape, a source
// position past its data, a file changed since). Restarting cannot fix
// it, so a job failing with it is not restarted.
type RestoreError struct{ Err error }

func (e *RestoreError) Error() string { return e.Err.Error() }
func (e *RestoreError) Unwrap() error { return e.Err }
