package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Checkpoints (Flink's asynchronous barrier snapshots, on one machine).
//
// The coordinator of a job triggers checkpoint n every
// CheckpointConfig.Interval: each source task, between two batches of its
// reader, saves its reader's position and its chained operators' state and
// sends a barrier carrying n behind the batches already emitted. A task
// with inputs aligns the barriers: in EXACTLY_ONCE mode the events of a
// producer whose barrier has arrived are held back until every producer's
// barrier (or end of input) has, so the state it saves reflects exactly
// the events before the barriers; in AT_LEAST_ONCE mode nothing is held
// back. It then saves its operators' state, passes the barrier on and
// acknowledges. When every task acknowledged, the coordinator writes the
// checkpoint to disk (checkpoint_storage.go) and it is complete.
//
// A task that has finished (its input ended and everything it emitted has
// gone downstream) acknowledges every later checkpoint as finished; a job
// resumed from such a checkpoint does not run it again.

// CheckpointingMode is execution.checkpointing.mode.
type CheckpointingMode int

const (
	// ExactlyOnce aligns barriers: Flink's EXACTLY_ONCE, the default.
	ExactlyOnce CheckpointingMode = iota
	// AtLeastOnce does not hold events back while barriers align: after a
	// restore some rows may be processed twice (Flink's AT_LEAST_ONCE).
	AtLeastOnce
)

func (m CheckpointingMode) String() string {
	if m == AtLeastOnce {
		return "AT_LEAST_ONCE"
	}
	return "EXACTLY_ONCE"
}

// CheckpointConfig configures a job's checkpoints; the zero value takes
// none. The table layer fills it from Flink's options
// (execution.checkpointing.*, state.checkpoints.*).
type CheckpointConfig struct {
	// Interval between the triggers of two checkpoints
	// (execution.checkpointing.interval); 0 means no checkpoints.
	Interval time.Duration
	// Mode is execution.checkpointing.mode.
	Mode CheckpointingMode
	// Timeout aborts a checkpoint not complete after it
	// (execution.checkpointing.timeout; 0 means 10 minutes).
	Timeout time.Duration
	// MinPause is the least time between the end of one checkpoint and the
	// trigger of the next (execution.checkpointing.min-pause).
	MinPause time.Duration
	// TolerableFailures is how many checkpoints in a row may fail (time
	// out, or not be written) before the job fails
	// (execution.checkpointing.tolerable-failed-checkpoints, default 0).
	TolerableFailures int
	// Dir is where checkpoints are written: Dir/<job id>/chk-<n>
	// (execution.checkpointing.dir, state.checkpoints.dir). Required when
	// Interval > 0.
	Dir string
	// Retained is how many complete checkpoints are kept
	// (state.checkpoints.num-retained; 0 means 1).
	Retained int
	// RetainOnCancellation keeps the job's checkpoints when it is
	// cancelled (execution.checkpointing.externalized-checkpoint-retention
	// RETAIN_ON_CANCELLATION). They are always kept when the job fails (or
	// its process dies), and deleted when it finishes.
	RetainOnCancellation bool
	// Restore, when set, is the checkpoint or savepoint the job resumes
	// from (execution.state-recovery.path, execution.savepoint.path).
	Restore *Checkpoint
	// Incremental makes checkpoints of stores (disk state backend) link
	// the SST files the previous checkpoint holds instead of copying them
	// (execution.checkpointing.incremental, state.backend.incremental).
	Incremental bool
	// IgnoreUnclaimedState lets a job resume from a checkpoint holding
	// state of operators the job no longer has
	// (execution.savepoint.ignore-unclaimed-state).
	IgnoreUnclaimedState bool
	// NoFinalCheckpoint turns final checkpoints off
	// (execution.checkpointing.checkpoints-after-tasks-finish = false): a
	// sink that commits on checkpoints then publishes the end of a bounded
	// input at once, outside any checkpoint. With final checkpoints (the
	// default, as Flink's), it publishes it through one more checkpoint,
	// taken as soon as every task still running waits for it
	// (FinalCheckpointOperator).
	NoFinalCheckpoint bool
	// OnComplete, when set, is called (on the coordinator's goroutine)
	// after each checkpoint is complete.
	OnComplete func(CheckpointStats)
}

// CheckpointStats describes one completed checkpoint or savepoint.
type CheckpointStats struct {
	ID        int64
	Savepoint bool
	// Path is the checkpoint's directory.
	Path string
	// Triggered and Completed are when it was triggered and written.
	Triggered, Completed time.Time
	// Size is the bytes of state the checkpoint holds (Flink's full
	// checkpoint data size).
	Size int64
	// IncrementalSize is the bytes of it not shared with the previous
	// checkpoint (Flink's checkpointed data size): Size but for the SST
	// files an incremental checkpoint links from the previous one.
	IncrementalSize int64
}

// Duration is the time from trigger to completion.
func (s CheckpointStats) Duration() time.Duration { return s.Completed.Sub(s.Triggered) }

// CheckpointCounts are a job's checkpoint totals.
type CheckpointCounts struct {
	Completed, Failed int64
	// InProgress is the id of the pending checkpoint, 0 when none.
	InProgress int64
}

// operatorState is one operator instance's part of a checkpoint.
type operatorState struct {
	uid      string
	subtask  int
	state    []byte
	finished bool
	// dbDir is the directory of the instance's store: in a loaded
	// checkpoint, its folder there; in a pending one, the copy taken at
	// the barrier in the job's working directory
	dbDir string
}

// taskAck is a task's acknowledgement of a checkpoint.
type taskAck struct {
	task     int // index in coordinator.tasks
	id       int64
	states   []operatorState
	finished bool
}

// pendingCheckpoint collects the acknowledgements of one checkpoint.
type pendingCheckpoint struct {
	id        int64
	savepoint bool
	dir       string // where a savepoint goes ("": the checkpoint dir)
	triggered time.Time
	acked     map[int]bool
	states    []operatorState
	done      chan error // savepoints: told the result
	// writing is set once every task acknowledged; ended is closed when
	// the checkpoint is written or has failed
	writing bool
	ended   chan struct{}
}

// checkpointTask is one parallel instance of a chain, as the coordinator
// sees it.
type checkpointTask struct {
	nodes     []*Node
	subtask   int
	source    bool
	resumable bool           // a source that saves its position
	trigger   *sourceTrigger // source tasks only
	finished  bool
	// final is set once the task's input has ended and it waits for a
	// final checkpoint to commit: no barrier reaches it any more, so the
	// coordinator hands it each checkpoint here (awaitFinal)
	final chan *pendingCheckpoint
}

// coordinator triggers a job's checkpoints and writes them.
type coordinator struct {
	job  *Job
	cfg  CheckpointConfig
	uids map[*Node]string
	// streaming is false for a batch job, which takes no checkpoints
	streaming bool

	mu         sync.Mutex
	tasks      []*checkpointTask
	next       int64 // id of the next checkpoint
	pending    *pendingCheckpoint
	last       *CheckpointStats
	counts     CheckpointCounts
	failsInRow int
	// ready is set once the attempt's tasks are registered; readyCh is
	// closed then
	ready      bool
	readyCh    chan struct{}
	committers []committer    // told when a checkpoint completes
	writers    sync.WaitGroup // checkpoints being written
	retained   []string       // directories of complete checkpoints, oldest first
	wake       chan struct{}
	// stopping is set while a savepoint that stops the job is taken, and
	// after it: no other checkpoint is triggered (its sources are
	// suspended at its barrier)
	stopping bool
	// ended is set once the attempt's tasks have all returned: nothing is
	// triggered any more (a savepoint would be written after the job's
	// end, or left half-written by its process)
	ended bool
	// finalDue is set when every task still running waits for a final
	// checkpoint: the next one is triggered at once, not an interval after
	// the last, and the flag is cleared when one completes
	finalDue bool
}

// newCoordinator returns the coordinator of a job: every streaming job has
// one (a savepoint can be taken without periodic checkpoints); a batch job
// has none.
func newCoordinator(j *Job, g *Graph, cfg CheckpointConfig, batch bool) *coordinator {
	if batch {
		return nil
	}
	c := &coordinator{job: j, cfg: cfg, uids: operatorUIDs(g), next: 1, wake: make(chan struct{}, 1), streaming: true, readyCh: make(chan struct{})}
	if cfg.Restore != nil {
		c.next = cfg.Restore.ID + 1
	}
	return c
}

// operatorUIDs gives each node an id stable across runs of the same query:
// a hash of its name (the operator and its EXPLAIN attributes) and its
// inputs' ids and partitioning, as Flink's StreamGraphHasher hashes the
// topology. Identical twins are told apart by their order.
func operatorUIDs(g *Graph) map[*Node]string {
	uids := make(map[*Node]string, len(g.Nodes))
	seen := map[string]int{}
	for _, n := range g.Nodes {
		h := sha256.New()
		fmt.Fprintf(h, "%s\x00", n.Name)
		for _, e := range n.Inputs {
			fmt.Fprintf(h, "%s\x00%d\x00%v\x00", uids[e.From], e.Part, e.Keys)
		}
		uid := hex.EncodeToString(h.Sum(nil)[:8])
		if k := seen[uid]; k > 0 {
			seen[uid] = k + 1
			uid = fmt.Sprintf("%s-%d", uid, k)
		} else {
			seen[uid] = 1
		}
		uids[n] = uid
	}
	return uids
}

// committer is a committing operator instance.
type committer struct {
	op   CommittingOperator
	name string
}

// addCommitter registers an open committing operator.
func (c *coordinator) addCommitter(op CommittingOperator, n *Node) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.committers = append(c.committers, committer{op, n.Name})
}

// notifyComplete tells the committing operators that checkpoint id is
// complete; an error fails the job.
func (c *coordinator) notifyComplete(id int64) {
	c.mu.Lock()
	cs := append([]committer(nil), c.committers...)
	c.mu.Unlock()
	for _, k := range cs {
		if err := k.op.NotifyCheckpointComplete(id); err != nil {
			c.job.fail(&TaskError{Operator: k.name, Err: fmt.Errorf("committing checkpoint %d: %w", id, err)})
			return
		}
	}
}

// setReady says every task of the attempt is registered.
func (c *coordinator) setReady() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.ready {
		c.ready = true
		close(c.readyCh)
	}
}

// unready starts a new attempt's registration.
func (c *coordinator) unready() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ready = false
	c.readyCh = make(chan struct{})
}

// register adds a task before the job starts.
func (c *coordinator) register(t *checkpointTask) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tasks = append(c.tasks, t)
	return len(c.tasks) - 1
}

// restored returns the saved state of node n's instance subtask from the
// checkpoint the job resumes from (ok false: none).
func (c *coordinator) restored(n *Node, subtask int) (st operatorState, ok bool) {
	if c == nil || c.cfg.Restore == nil {
		return operatorState{}, false
	}
	return c.cfg.Restore.state(c.uids[n], subtask)
}

// checkRestore verifies that the checkpoint the job resumes from fits the
// graph: same parallelism per operator, no state of an operator the job no
// longer has (unless IgnoreUnclaimedState), every operator holding state
// able to restore it.
func (c *coordinator) checkRestore(g *Graph) error {
	cp := c.cfg.Restore
	byUID := map[string]*Node{}
	for _, n := range g.Nodes {
		byUID[c.uids[n]] = n
	}
	var unclaimed []string
	for _, op := range cp.Operators {
		n := byUID[op.UID]
		if n == nil {
			for _, t := range op.Subtasks {
				if t.File != "" {
					unclaimed = append(unclaimed, fmt.Sprintf("%s (%s)", shortName(op.Name), op.UID))
					break
				}
			}
			continue
		}
		if op.Parallelism != n.Parallelism {
			return fmt.Errorf("checkpoint %s: operator %s ran with parallelism %d, the job has %d (changing the parallelism of a resumed job is not supported: set 'parallelism.default' to %[3]d)",
				cp.Path, shortName(n.Name), op.Parallelism, n.Parallelism)
		}
	}
	if len(unclaimed) > 0 && !c.cfg.IgnoreUnclaimedState {
		sort.Strings(unclaimed)
		return fmt.Errorf("checkpoint %s holds state of operators this job does not have: %s (the query changed; set 'execution.state-recovery.ignore-unclaimed-state' = 'true' to drop that state)",
			cp.Path, strings.Join(unclaimed, ", "))
	}
	return nil
}

// shortName is an operator's name without its attributes.
func shortName(name string) string {
	if i := strings.IndexByte(name, '('); i > 0 {
		return name[:i]
	}
	return name
}

// run triggers checkpoints every Interval until ctx ends.
func (c *coordinator) run(ctx context.Context) {
	if c.cfg.Interval <= 0 {
		return
	}
	timeout := c.cfg.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Minute
	}
	// Checkpoints are triggered Interval apart (from trigger to trigger),
	// never while one is in progress and never sooner than MinPause after
	// the last one ended, as Flink's CheckpointRequestDecider spaces them.
	var lastTrigger, lastEnd time.Time
	timer := time.NewTimer(c.cfg.Interval)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			c.abort(ctx.Err())
			return
		case <-timer.C:
		case <-c.wake: // a checkpoint ended: the next may be due sooner
		}
		c.mu.Lock()
		p := c.pending
		writing := p != nil && p.writing
		if c.last != nil && c.last.Completed.After(lastEnd) {
			lastEnd = c.last.Completed
		}
		finalDue := c.finalDue
		stopping := c.stopping
		c.mu.Unlock()
		if stopping {
			// the job stops at its savepoint: nothing after it
			timer.Reset(c.cfg.Interval)
			continue
		}
		now := time.Now()
		if p != nil {
			if !writing && now.Sub(p.triggered) >= timeout {
				c.fail(p, fmt.Errorf("checkpoint %d expired before completing (execution.checkpointing.timeout %v)", p.id, timeout))
				lastEnd = now
			} else {
				// look again when it may have expired (a completion wakes us)
				timer.Reset(min(c.cfg.Interval, max(timeout-now.Sub(p.triggered), time.Millisecond)))
				continue
			}
		}
		due := now
		if !lastTrigger.IsZero() {
			due = lastTrigger.Add(c.cfg.Interval)
		}
		if !lastEnd.IsZero() && lastEnd.Add(c.cfg.MinPause).After(due) {
			due = lastEnd.Add(c.cfg.MinPause)
		}
		if finalDue {
			due = now // the job's input has ended: commit it now
		}
		if now.Before(due) {
			timer.Reset(due.Sub(now))
			continue
		}
		if np, err := c.trigger(false, ""); err != nil && err != errBusy && err != errNotReady && err != errStopping && err != errJobEnded {
			c.job.fail(err)
			return
		} else if err == nil {
			lastTrigger = np.triggered
		}
		timer.Reset(c.cfg.Interval)
	}
}

// trigger starts checkpoint c.next (a savepoint into dir when savepoint is
// set) unless one is pending. It returns the pending checkpoint.
func (c *coordinator) trigger(savepoint bool, dir string) (*pendingCheckpoint, error) {
	return c.triggerWith(savepoint, savepointOnly, dir)
}

// savepointKind is what a savepoint does to the job.
type savepointKind int

const (
	// savepointOnly leaves the job running (or is a checkpoint)
	savepointOnly savepointKind = iota
	// savepointDrain makes the savepoint the job's last: each source
	// emits MAX_WATERMARK before its barrier and ends after it
	// (stop-with-savepoint --drain)
	savepointDrain
	// savepointStop stops the job at the savepoint: each source emits
	// nothing after its barrier, and no other checkpoint is triggered,
	// so nothing after it is committed (stop-with-savepoint)
	savepointStop
)

// triggerWith is trigger with the savepoint's kind.
func (c *coordinator) triggerWith(savepoint bool, kind savepointKind, dir string) (*pendingCheckpoint, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.ready {
		return nil, errNotReady
	}
	if c.pending != nil {
		return c.pending, errBusy
	}
	if c.stopping {
		return nil, errStopping
	}
	if c.ended {
		return nil, errJobEnded
	}
	for _, t := range c.tasks {
		if t.source && !t.finished && !t.resumable {
			return nil, fmt.Errorf("source %s cannot save its read position (its connector does not support checkpoints)", t.nodes[0].Name)
		}
	}
	if kind == savepointStop {
		c.stopping = true
	}
	p := &pendingCheckpoint{id: c.next, savepoint: savepoint, dir: dir, triggered: time.Now(), acked: map[int]bool{}, done: make(chan error, 1), ended: make(chan struct{})}
	c.next++
	c.pending = p
	c.counts.InProgress = p.id
	for i, t := range c.tasks {
		switch {
		case t.finished:
			c.ackFinishedLocked(p, i)
		case t.final != nil:
			handFinalLocked(t, p)
		case t.source:
			switch kind {
			case savepointDrain:
				t.trigger.drainAt(p.id)
			case savepointStop:
				t.trigger.suspendAt(p.id)
			}
			t.trigger.set(p.id)
		}
	}
	c.maybeCompleteLocked()
	return p, nil
}

// ackFinishedLocked records task i of p as finished.
func (c *coordinator) ackFinishedLocked(p *pendingCheckpoint, i int) {
	if p.acked[i] {
		return
	}
	p.acked[i] = true
	t := c.tasks[i]
	for _, n := range t.nodes {
		p.states = append(p.states, operatorState{uid: c.uids[n], subtask: t.subtask, finished: true})
	}
}

// ack records a task's acknowledgement.
func (c *coordinator) ack(a taskAck) {
	c.mu.Lock()
	defer c.mu.Unlock()
	p := c.pending
	if p == nil || p.id != a.id || p.acked[a.task] {
		return // an aborted checkpoint's late ack
	}
	p.acked[a.task] = true
	p.states = append(p.states, a.states...)
	c.maybeCompleteLocked()
}

// decline fails checkpoint id: a task could not save its state.
func (c *coordinator) decline(id int64, err error) {
	c.mu.Lock()
	p := c.pending
	c.mu.Unlock()
	if p != nil && p.id == id {
		c.fail(p, err)
	}
}

// taskFinished marks task i finished: it acknowledges the pending
// checkpoint and every later one as finished.
func (c *coordinator) taskFinished(i int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tasks[i].finished = true
	if c.pending != nil {
		c.ackFinishedLocked(c.pending, i)
		c.maybeCompleteLocked()
	}
	c.checkFinalDueLocked()
}

// finalCheckpoints reports whether the job commits the end of its input
// through a final checkpoint: it takes periodic checkpoints and
// NoFinalCheckpoint is off.
func (c *coordinator) finalCheckpoints() bool {
	return c.cfg.Interval > 0 && !c.cfg.NoFinalCheckpoint
}

// awaitFinal records that task i has processed its whole input and waits
// for a checkpoint to commit it; the returned channel hands it the
// checkpoints to take part in: the pending one when it has not
// acknowledged it (its barrier can no longer reach the task), then each
// one triggered.
func (c *coordinator) awaitFinal(i int) <-chan *pendingCheckpoint {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.tasks[i]
	t.final = make(chan *pendingCheckpoint, 1)
	if p := c.pending; p != nil && !p.acked[i] && !p.writing {
		handFinalLocked(t, p)
	}
	c.checkFinalDueLocked()
	return t.final
}

// handFinalLocked gives checkpoint p to a task waiting for a final
// checkpoint, in place of one it has not taken up (that one has ended).
func handFinalLocked(t *checkpointTask, p *pendingCheckpoint) {
	select {
	case <-t.final:
	default:
	}
	t.final <- p
}

// checkFinalDueLocked sets finalDue, and wakes the trigger loop, when
// every task not finished waits for a final checkpoint.
func (c *coordinator) checkFinalDueLocked() {
	waiting := false
	for _, t := range c.tasks {
		switch {
		case t.finished:
		case t.final != nil:
			waiting = true
		default:
			return
		}
	}
	if !waiting || c.finalDue {
		return
	}
	c.finalDue = true
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// completedSince reports whether a checkpoint with id at least id has
// completed.
func (c *coordinator) completedSince(id int64) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.last != nil && c.last.ID >= id
}

// maybeCompleteLocked writes the pending checkpoint once every task
// acknowledged it. Writing happens outside the lock's critical section of
// tasks: they only take c.mu briefly to ack.
func (c *coordinator) maybeCompleteLocked() {
	p := c.pending
	if p == nil || p.writing || len(p.acked) < len(c.tasks) {
		return
	}
	p.writing = true
	c.writers.Add(1)
	allFinished := true
	for _, t := range c.tasks {
		if !t.finished {
			allFinished = false
		}
	}
	go func() {
		defer c.writers.Done()
		c.complete(p, allFinished)
	}()
}

// complete writes p to disk and records it.
func (c *coordinator) complete(p *pendingCheckpoint, allFinished bool) {
	if allFinished && !p.savepoint {
		// the job has ended: nothing left to resume
		c.mu.Lock()
		c.pending = nil
		c.counts.InProgress = 0
		c.mu.Unlock()
		p.done <- nil
		close(p.ended)
		return
	}
	dir := p.dir
	if dir == "" {
		dir = c.jobDir()
	}
	c.mu.Lock()
	prev := ""
	if n := len(c.retained); n > 0 {
		prev = c.retained[n-1]
	}
	c.mu.Unlock()
	stats, err := writeCheckpoint(dir, c.job, p, c.uidNames(), c.parallelism(), prev, c.cfg.Incremental)
	c.pruneStaging(p.id)
	c.mu.Lock()
	if err != nil {
		c.mu.Unlock()
		c.fail(p, err)
		return
	}
	stats.Completed = time.Now()
	c.pending = nil
	c.counts.InProgress = 0
	c.last = &stats
	c.counts.Completed++
	c.failsInRow = 0
	c.finalDue = false
	var prune []string
	if !p.savepoint {
		c.retained = append(c.retained, stats.Path)
		keep := max(c.cfg.Retained, 1)
		if len(c.retained) > keep {
			prune = append(prune, c.retained[:len(c.retained)-keep]...)
			c.retained = append([]string(nil), c.retained[len(c.retained)-keep:]...)
		}
	}
	onComplete := c.cfg.OnComplete
	c.mu.Unlock()
	for _, d := range prune {
		removeCheckpoint(d)
	}
	c.notifyComplete(p.id)
	if onComplete != nil {
		onComplete(stats)
	}
	p.done <- nil
	close(p.ended)
	select {
	case c.wake <- struct{}{}:
	default:
	}
}

// fail records a failed checkpoint; past TolerableFailures in a row the
// job fails.
func (c *coordinator) fail(p *pendingCheckpoint, err error) {
	c.mu.Lock()
	if c.pending != p {
		c.mu.Unlock()
		return // already ended
	}
	c.pending = nil
	c.counts.InProgress = 0
	close(p.ended)
	c.counts.Failed++
	c.failsInRow++
	tooMany := c.failsInRow > c.cfg.TolerableFailures
	c.mu.Unlock()
	select {
	case p.done <- err:
	default:
	}
	if tooMany && !p.savepoint {
		c.job.fail(fmt.Errorf("%w (execution.checkpointing.tolerable-failed-checkpoints is %d)", err, c.cfg.TolerableFailures))
	}
}

// abort drops the pending checkpoint when the job ends.
func (c *coordinator) abort(err error) {
	c.mu.Lock()
	p := c.pending
	if p != nil && !p.writing {
		c.pending = nil
		c.counts.InProgress = 0
		close(p.ended)
	} else {
		p = nil // one being written completes
	}
	c.mu.Unlock()
	if p != nil {
		select {
		case p.done <- fmt.Errorf("checkpoint %d aborted: the job ended (%v)", p.id, err):
		default:
		}
	}
}

// cleanUp deletes the job's checkpoints once it has ended, as its status
// and RetainOnCancellation say.
func (c *coordinator) cleanUp(status JobStatus) {
	if c.cfg.Dir == "" || c.cfg.Interval <= 0 {
		return
	}
	switch {
	case status == Finished, status == Canceled && !c.cfg.RetainOnCancellation:
		removeCheckpoint(c.jobDir())
	default:
		_ = os.Remove(c.jobDir()) // only when empty: no checkpoint was written
	}
}

// jobDir is where the job's checkpoints go.
func (c *coordinator) jobDir() string { return checkpointJobDir(c.cfg.Dir, c.job.ID) }

func (c *coordinator) uidNames() map[string]string {
	m := make(map[string]string, len(c.uids))
	for n, uid := range c.uids {
		m[uid] = n.Name
	}
	return m
}

func (c *coordinator) parallelism() map[string]int {
	m := make(map[string]int, len(c.uids))
	for n, uid := range c.uids {
		m[uid] = n.Parallelism
	}
	return m
}

// errBusy is trigger's answer while a checkpoint is in progress, and
// errNotReady before the tasks have started.
var (
	errBusy     = errors.New("a checkpoint is in progress")
	errNotReady = errors.New("the job's tasks have not started")
	errStopping = errors.New("the job is stopping with a savepoint")
	errJobEnded = errors.New("savepoint: the job ended first")
)

// endAttempt records that the attempt's tasks have all returned: later
// triggers are refused (errJobEnded).
func (c *coordinator) endAttempt() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.ended = true
}

// ErrNoCheckpointing is returned by Job.TriggerSavepoint for a job that
// takes no checkpoints (a batch job).
var ErrNoCheckpointing = errors.New("the job takes no checkpoints")

// TriggerSavepoint takes a savepoint into dir (a new directory; a
// savepoint-<job id prefix>-<n> directory under it) and waits until it is
// written. It returns the savepoint's stats.
func (j *Job) TriggerSavepoint(ctx context.Context, dir string) (CheckpointStats, error) {
	return j.savepoint(ctx, dir, savepointOnly)
}

// StopWithSavepoint takes the job's last savepoint into dir and stops the
// job at it (Flink's stop-with-savepoint without --drain): each source
// emits nothing after the savepoint's barrier and no other checkpoint is
// taken, so nothing written after the barrier is committed; once the
// savepoint is written the job is stopped, and StopWithSavepoint returns
// when it has ended FINISHED (or ctx is done). When the savepoint fails,
// the sources go on and the job keeps running.
func (j *Job) StopWithSavepoint(ctx context.Context, dir string) (CheckpointStats, error) {
	st, err := j.savepoint(ctx, dir, savepointStop)
	if err != nil {
		j.coord.resumeAfterFailedStop()
		return st, err
	}
	j.Stop()
	select {
	case <-j.done:
	case <-ctx.Done():
	}
	return st, nil
}

// resumeAfterFailedStop lets the job go on after a stopping savepoint
// failed: its sources emit again and checkpoints are triggered again.
func (c *coordinator) resumeAfterFailedStop() {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopping = false
	for _, t := range c.tasks {
		if t.source {
			t.trigger.resumeAfterFailedStop()
		}
	}
}

// StopWithDrain takes the job's last savepoint into dir as
// TriggerSavepoint does, after advancing event time to its end: each
// source emits MAX_WATERMARK, so that every event-time timer fires and
// every window emits, then the savepoint's barrier, and then ends; the job
// ends FINISHED (Flink's stop-with-savepoint --drain). When the savepoint
// fails the sources have ended all the same and the job finishes.
func (j *Job) StopWithDrain(ctx context.Context, dir string) (CheckpointStats, error) {
	return j.savepoint(ctx, dir, savepointDrain)
}

func (j *Job) savepoint(ctx context.Context, dir string, kind savepointKind) (CheckpointStats, error) {
	c := j.coord
	if c == nil || !c.streaming {
		return CheckpointStats{}, ErrNoCheckpointing
	}
	if dir == "" {
		return CheckpointStats{}, errors.New("no savepoint directory: give one, or set 'execution.checkpointing.savepoint-dir'")
	}
	var p *pendingCheckpoint
	for {
		var err error
		p, err = c.triggerWith(true, kind, dir)
		if err == nil {
			break
		}
		if err == errNotReady {
			c.mu.Lock()
			ready := c.readyCh
			c.mu.Unlock()
			select {
			case <-ready:
				continue
			case <-ctx.Done():
				return CheckpointStats{}, ctx.Err()
			case <-j.done:
				return CheckpointStats{}, errors.New("savepoint: the job ended first")
			}
		}
		if err != errBusy {
			return CheckpointStats{}, err
		}
		// a checkpoint is in progress: the savepoint follows it
		select {
		case <-p.ended:
		case <-ctx.Done():
			return CheckpointStats{}, ctx.Err()
		case <-j.done:
			return CheckpointStats{}, errors.New("savepoint: the job ended first")
		}
	}
	select {
	case err := <-p.done:
		if err != nil {
			return CheckpointStats{}, err
		}
	case <-ctx.Done():
		return CheckpointStats{}, ctx.Err()
	case <-j.done:
		// a drained job ends right after its savepoint: the savepoint's
		// result is told before the job ends
		select {
		case err := <-p.done:
			if err != nil {
				return CheckpointStats{}, err
			}
		default:
			return CheckpointStats{}, fmt.Errorf("savepoint %d: the job ended first", p.id)
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil || c.last.ID != p.id {
		return CheckpointStats{}, fmt.Errorf("savepoint %d was not written", p.id)
	}
	return *c.last, nil
}

// LastCheckpoint returns the last complete checkpoint or savepoint (ok
// false: none yet).
func (j *Job) LastCheckpoint() (CheckpointStats, bool) {
	c := j.coord
	if c == nil {
		return CheckpointStats{}, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.last == nil {
		return CheckpointStats{}, false
	}
	return *c.last, true
}

// CheckpointCounts returns the job's checkpoint totals.
func (j *Job) CheckpointCounts() CheckpointCounts {
	c := j.coord
	if c == nil {
		return CheckpointCounts{}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.counts
}

// stageDir is where a task puts the copy of an operator instance's store
// taken at checkpoint id's barrier, in the job's working directory, until
// the checkpoint is written (writeCheckpoint moves it in).
func (c *coordinator) stageDir(id int64, uid string, subtask int) string {
	return filepath.Join(c.job.disk.Dir(), "checkpoints", "chk-"+strconv.FormatInt(id, 10), uid+"-"+strconv.Itoa(subtask))
}

// pruneStaging removes the stores' copies staged for checkpoints up to id
// (those of failed checkpoints too: every task has acknowledged id, so
// none is still writing an older one).
func (c *coordinator) pruneStaging(id int64) {
	if c.job.disk == nil {
		return
	}
	root := filepath.Join(c.job.disk.Dir(), "checkpoints")
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		n, err := strconv.ParseInt(strings.TrimPrefix(e.Name(), "chk-"), 10, 64)
		if err == nil && n <= id {
			_ = os.RemoveAll(filepath.Join(root, e.Name()))
		}
	}
}
