package runtime

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	goruntime "runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riffle-sql/riffle/engine/common"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/gctuning"
	"github.com/riffle-sql/riffle/engine/internal/kvstate"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// ErrCanceled is the error of a job that was cancelled: common.ErrCanceled,
// which table.ErrCanceled also names.
var ErrCanceled = common.ErrCanceled

// Job is a running dataflow.
type Job struct {
	ID    string
	Name  string
	Graph *Graph

	status atomic.Int32
	mu     sync.Mutex
	err    error
	cancel context.CancelFunc
	ctx    context.Context
	done   chan struct{}
	start  time.Time
	end    time.Time
	// canceled is set by Cancel to tell cancellation from failure.
	canceled atomic.Bool
	// coord takes the job's checkpoints (nil for a batch job).
	coord *coordinator
	// stopped is set by Stop: the job ends FINISHED, not CANCELED.
	stopped atomic.Bool
	// attempt cancels the running attempt (a restart runs a new one);
	// restarts counts them and lastFailure is the last failure restarted
	// from (under mu)
	attempt     context.CancelFunc
	restarts    int
	lastFailure error
	// disk is the job's disk state backend (JobConfig.DiskState; nil:
	// state in memory), closed and its directory removed when the job ends
	disk *kvstate.Backend
	// gcEnded ends a batch job's raise of the garbage collector's heap
	// floor (gctuning.BatchJobStarted; nil for a streaming job)
	gcEnded func()
}

// NewJobID returns a random 32-hex-digit job id (Flink's JobID format).
func NewJobID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

type event struct {
	kind     uint8 // evData, evWatermark, evEnd, evIdle, evActive, evBarrier
	batch    *types.Batch
	wm       int64 // the watermark; for evBarrier the checkpoint id
	producer int
	// size is the batch's inFlightBytes, acquired from the channel's byte
	// budget by the sender and released by the receiver (0: not counted)
	size int64
}

// channel carries events from the producers of one input of one consumer
// instance: at most JobConfig.ChannelCapacity events and, with a byte
// budget (JobConfig.ChannelBytes), at most that many bytes of batches
// (or one larger batch).
type channel struct {
	c      chan event
	budget *byteBudget // nil: bounded by count only
	// pool, when not nil, holds this input's rows (a balanced hash
	// exchange, exchange_balanced.go): the channel carries only the
	// producers' watermarks and ends. Shared by the consumer's instances.
	pool *keyGroupPool
}

// processData hands a data event taken out of ch, input in of op, to op,
// counting its rows, its batch and op's busy time in m.
func processData(m *OperatorMetrics, op Operator, in int, ch *channel, ev *event) error {
	ch.received(ev)
	m.RecordsIn.Add(int64(ev.batch.Len))
	m.BatchesIn.Add(1)
	t0 := time.Now()
	if err := op.ProcessBatch(in, ev.batch); err != nil {
		return err
	}
	m.BusyNanos.Add(int64(time.Since(t0)))
	return nil
}

// received accounts for an event taken out of the channel.
func (c *channel) received(ev *event) {
	if ev.size > 0 {
		c.budget.release(ev.size)
	}
}

const (
	evData uint8 = iota
	evWatermark
	evEnd
	// evIdle and evActive carry a producer's watermark status (Flink's
	// WatermarkStatus IDLE / ACTIVE): idle producers are ignored when
	// watermarks are combined.
	evIdle
	evActive
	// evBarrier is a checkpoint's barrier (checkpoint.go): the events
	// before it are in the checkpoint, those after it are not.
	evBarrier
)

// InputIdler is implemented by multi-input operators that combine their
// inputs' watermarks: the task tells them when every producer of an input
// became idle (or active again), so the idle input does not hold back the
// combined watermark.
type InputIdler interface {
	SetInputIdle(in int, idle bool) error
}

// Submit starts a job running g and returns at once. The job stops when
// every sink has seen the end of its input, on the first error, or when
// Cancel is called or parent is cancelled.
func Submit(parent context.Context, name string, g *Graph, cfg JobConfig, ev *expr.Ctx, batch bool) (*Job, error) {
	if err := g.validate(); err != nil {
		return nil, err
	}
	if cfg.ChannelCapacity <= 0 {
		cfg.ChannelCapacity = 16
	}
	if cfg.ChannelBytes == 0 {
		cfg.ChannelBytes = DefaultChannelBytes
	}
	ctx, cancel := context.WithCancel(parent)
	j := &Job{ID: NewJobID(), Name: name, Graph: g, cancel: cancel, ctx: ctx, done: make(chan struct{}), start: time.Now()}
	for _, n := range g.Nodes {
		n.metrics = newMetrics(n.ID, n.Name)
	}
	e := &executor{job: j, g: g, cfg: cfg, ev: ev, batch: batch, oneCore: goruntime.GOMAXPROCS(0) == 1}
	e.budget = newMemoryBudget(cfg.MemoryLimit, g, j.fail)
	j.coord = newCoordinator(j, g, cfg.Checkpoint, batch)
	if !batch {
		cleanRestoreLeftovers(cfg.Checkpoint.Restore)
	}
	if err := e.checkCheckpoints(); err != nil {
		cancel()
		return nil, err
	}
	if err := e.build(); err != nil {
		cancel()
		return nil, err
	}
	if cfg.DiskState != nil && !batch {
		d, err := kvstate.NewBackend(j.ID, cfg.DiskState.Store)
		if err != nil {
			cancel()
			return nil, err
		}
		j.disk = d
	}
	if batch {
		// a batch job allocates its input and output at once: the
		// collector's goal is raised while it runs (engine/gctuning; only
		// where the program set a heap floor, as the riffle binary does)
		j.gcEnded = gctuning.BatchJobStarted()
	}
	j.status.Store(int32(Running))
	go e.run(ctx)
	return j, nil
}

// Status returns the current state.
func (j *Job) Status() JobStatus { return JobStatus(j.status.Load()) }

// Err returns the failure cause (nil unless FAILED or CANCELED).
func (j *Job) Err() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.err
}

// Done is closed when the job reaches a terminal state.
func (j *Job) Done() <-chan struct{} { return j.done }

// Cancel stops the job; it returns at once (use Wait to wait).
func (j *Job) Cancel() {
	if j.Status().IsTerminal() {
		return
	}
	j.canceled.Store(true)
	j.cancel()
}

// Stop ends the job as Cancel does, but its final status is FINISHED:
// what stop-with-savepoint does once the savepoint is written.
func (j *Job) Stop() {
	j.stopped.Store(true)
	j.cancel()
}

// Wait blocks until the job ends or ctx is done, and returns the job's error.
func (j *Job) Wait(ctx context.Context) error {
	select {
	case <-j.done:
		return j.Err()
	case <-ctx.Done():
		return ctx.Err()
	}
}

// StartTime is when the job was submitted.
func (j *Job) StartTime() time.Time { return j.start }

// EndTime is when the job ended (zero while running).
func (j *Job) EndTime() time.Time {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.end
}

// Metrics returns the live metrics of every node, in node order.
func (j *Job) Metrics() []*OperatorMetrics {
	out := make([]*OperatorMetrics, len(j.Graph.Nodes))
	for i, n := range j.Graph.Nodes {
		out[i] = n.metrics
	}
	return out
}

func (j *Job) fail(err error) {
	j.mu.Lock()
	if j.err == nil {
		j.err = err
	}
	cancel := j.attempt
	j.mu.Unlock()
	if cancel != nil {
		cancel() // the attempt ends; run decides whether to restart
		return
	}
	j.cancel()
}

// Restarts returns how often the job restarted after a failure and the
// last failure it restarted, or is waiting to restart (Restarting), from.
func (j *Job) Restarts() (n int, last error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.restarts, j.lastFailure
}

type executor struct {
	job   *Job
	g     *Graph
	cfg   JobConfig
	ev    *expr.Ctx
	batch bool
	// inbound[node][instance][input] channels
	inbound map[int][][]*channel
	chains  [][]*Node
	chained map[int]bool
	budget  *memoryBudget // nil without a memory limit
	// oneCore: the process runs Go code on one core (GOMAXPROCS 1), so
	// no two tasks of the job ever run at the same time
	oneCore bool
}

func (e *executor) build() error {
	e.chains = nil
	e.inbound = map[int][][]*channel{}
	e.chained = map[int]bool{}
	// chaining: a node with one forward input whose producer has exactly
	// one consumer runs in its producer's task
	for _, n := range e.g.Nodes {
		if len(n.Inputs) == 1 && n.Inputs[0].Part == opspec.Forward && len(n.Inputs[0].From.consumers) == 1 {
			e.chained[n.ID] = true
		}
	}
	// in a batch job without checkpoints on one core, a node of
	// parallelism 1 with one input from a producer of parallelism 1 that
	// feeds it alone runs in its producer's task whatever the edge's
	// partitioning: one instance sends every row to one instance, in
	// order, as a forward edge does. On one core the two tasks could
	// never run at once, so the hand-off only cost a switch; chained, the
	// GROUP BY reads its Calc's batches in the same call and the Calc
	// can recycle its result buffers (reuseChainedOutputs). With more
	// cores the tasks stay apart and run as a pipeline (a join's probe
	// and the aggregate after it at parallelism 1 overlap on two cores).
	if e.batch && e.job.coord == nil && e.oneCore {
		for _, n := range e.g.Nodes {
			if len(n.Inputs) == 1 && n.Parallelism == 1 && n.Inputs[0].From.Parallelism == 1 &&
				n.Inputs[0].KeyGroups == 0 && len(n.Inputs[0].From.consumers) == 1 {
				e.chained[n.ID] = true
			}
		}
	}
	// and in a batch job, a BuildFirst node (the hash join) whose first
	// input comes forward, from a producer it alone reads, out of a chain
	// headed by a source: the task reads the join's other inputs to their
	// end, then its source (readSideInputs), so that the probe rows of a
	// broadcast hash join go from the source's reader through the join
	// without a hand-off between tasks (Flink chains the probe side's
	// source and the join into one MultipleInput task). Nodes are in
	// topological order (inputs first), so a join's producers are
	// decided before it.
	if e.batch && e.job.coord == nil {
		for _, n := range e.g.Nodes {
			if n.BuildFirst && len(n.Inputs) > 1 && n.Inputs[0].Part == opspec.Forward &&
				len(n.Inputs[0].From.consumers) == 1 && e.sourceHeaded(n.Inputs[0].From) {
				e.chained[n.ID] = true
			}
		}
	}
	for _, n := range e.g.Nodes {
		if e.chained[n.ID] && len(n.Inputs) > 1 {
			// a chained join's side inputs keep their channels
			e.inbound[n.ID] = e.newInbound(n)
		}
		if e.chained[n.ID] {
			continue
		}
		chain := []*Node{n}
		// (a chained join is in its first input's chain, not its others')
		for cur := n; len(cur.consumers) == 1 && e.chained[cur.consumers[0].ID] && cur.consumers[0].Inputs[0].From == cur; {
			cur = cur.consumers[0]
			chain = append(chain, cur)
		}
		e.chains = append(e.chains, chain)
		if len(n.Inputs) > 0 {
			e.inbound[n.ID] = e.newInbound(n)
		}
	}
	return nil
}

// sourceHeaded reports whether n is a source or runs in the task of one
// (every node from n up its chain is chained to the one before).
func (e *executor) sourceHeaded(n *Node) bool {
	for e.chained[n.ID] {
		n = n.Inputs[0].From
	}
	return n.Source != nil
}

// newInbound makes the input channels of n's instances: [instance][input].
func (e *executor) newInbound(n *Node) [][]*channel {
	chans := make([][]*channel, n.Parallelism)
	pools := e.keyGroupPools(n)
	for i := range chans {
		chans[i] = make([]*channel, len(n.Inputs))
		for k := range chans[i] {
			chans[i][k] = &channel{c: make(chan event, e.cfg.ChannelCapacity), budget: newByteBudget(e.cfg.ChannelBytes), pool: pools[k]}
		}
	}
	return chans
}

// run runs the job's attempts: one, or after a failure as many as the
// restart strategy allows, each resuming from the last checkpoint.
func (e *executor) run(ctx context.Context) {
	j := e.job
	for {
		actx, acancel := context.WithCancel(ctx)
		j.mu.Lock()
		j.attempt = acancel
		j.mu.Unlock()
		e.runAttempt(actx)
		acancel()
		if !e.restart(ctx) {
			break
		}
	}
	e.finish(ctx)
}

// runAttempt runs every task of the job once, and its coordinator.
func (e *executor) runAttempt(ctx context.Context) {
	var wg sync.WaitGroup
	coord := e.job.coord
	type task struct {
		chain []*Node
		inst  int
		cp    *taskCheckpoint
	}
	var tasks []task
	for _, chain := range e.chains {
		if chain[0].Source != nil && e.batch {
			chain[0].shared = &sharedSplits{}
		}
		for inst := 0; inst < chain[0].Parallelism; inst++ {
			tasks = append(tasks, task{chain, inst, e.newTaskCheckpoint(chain, inst)})
		}
	}
	if coord != nil {
		coord.setReady()
	}
	for _, t := range tasks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// CPU profiles name each sample's task: its chain's head
			// and subtask index (go tool pprof -tagfocus task=…)
			labels := pprof.Labels("task", taskLabel(t.chain), "subtask", strconv.Itoa(t.inst))
			pprof.Do(ctx, labels, func(ctx context.Context) {
				if err := e.runTask(ctx, t.chain, t.inst, t.cp); err != nil {
					e.job.fail(err)
				} else if t.cp != nil && ctx.Err() == nil {
					coord.taskFinished(t.cp.index)
				}
			})
		}()
	}
	var coordDone chan struct{}
	coordCtx, coordCancel := context.WithCancel(ctx)
	defer coordCancel()
	if coord != nil {
		coordDone = make(chan struct{})
		go func() {
			defer close(coordDone)
			coord.run(coordCtx)
		}()
	}
	wg.Wait()
	if coord != nil {
		// a checkpoint being written completes before the job ends; none
		// is started any more
		coord.endAttempt()
		coordCancel()
		<-coordDone
		coord.abort(errors.New("the job ended"))
		coord.writers.Wait()
	}
}

// taskLabel names a chain for profiles: its operators' names without
// their arguments, joined by " -> ".
func taskLabel(chain []*Node) string {
	names := make([]string, len(chain))
	for i, n := range chain {
		name := n.Name
		if k := strings.IndexByte(name, '('); k > 0 {
			name = name[:k]
		}
		names[i] = name
	}
	return strings.Join(names, " -> ")
}

// finish sets the job's final status.
func (e *executor) finish(ctx context.Context) {
	coord := e.job.coord
	j := e.job
	j.mu.Lock()
	j.attempt = nil
	j.end = time.Now()
	switch {
	case j.stopped.Load() && (j.err == nil || errors.Is(j.err, context.Canceled)):
		// stopped after a savepoint (Flink's stop-with-savepoint)
		j.err = nil
		j.status.Store(int32(Finished))
	case j.canceled.Load():
		j.status.Store(int32(Canceled))
		if j.err == nil || errors.Is(j.err, context.Canceled) {
			j.err = ErrCanceled
		}
	case j.err != nil:
		j.status.Store(int32(Failed))
	case ctx.Err() != nil:
		j.status.Store(int32(Canceled))
		j.err = ErrCanceled
	default:
		j.status.Store(int32(Finished))
	}
	j.mu.Unlock()
	if coord != nil {
		coord.cleanUp(j.Status())
	}
	if j.disk != nil {
		_ = j.disk.Close()
	}
	j.cancel()
	if j.gcEnded != nil {
		j.gcEnded()
	}
	close(j.done)
}

type chainedOp struct {
	op  Operator
	out Output
	n   *Node
}

// TaskError wraps an operator failure with the operator's name.
type TaskError struct {
	Operator string
	Err      error
}

func (e *TaskError) Error() string {
	op := e.Operator
	if i := strings.IndexByte(op, '('); i > 0 {
		op = op[:i]
	}
	return fmt.Sprintf("%v (in operator %s)", e.Err, op)
}
func (e *TaskError) Unwrap() error { return e.Err }

func (e *executor) runTask(ctx context.Context, chain []*Node, inst int, cp *taskCheckpoint) (err error) {
	current := chain[0].Name
	defer func() {
		if r := recover(); r != nil {
			if ue, ok := r.(*UDFError); ok {
				// a user-defined aggregate's error, raised through the
				// accumulator interface (udaf.go): no stack, it is not a bug
				err = &TaskError{Operator: current, Err: ue}
				return
			}
			err = &TaskError{Operator: current, Err: expr.NewPanicError(r)}
		}
	}()
	// build operators of the chain (all but a source head)
	last := chain[len(chain)-1]
	router := e.newRouter(ctx, last, inst)
	var ops []Operator
	var outs []Output
	next := Output(router)
	var built []chainedOp
	for k := len(chain) - 1; k >= 0; k-- {
		n := chain[k]
		if n.Source != nil {
			continue
		}
		op := n.NewOperator()
		out := &countingOutput{next: next, m: n.metrics, wm: MinWatermark}
		built = append([]chainedOp{{op, out, n}}, built...)
		next = &chainInput{op: op, m: n.metrics, name: n.Name}
	}
	var splits *SourceSplits
	if chain[0].Source != nil {
		splits = newSourceSplits()
		chain[0].metrics.addSplits(inst, splits)
	}
	for _, p := range built {
		octx := &OpContext{Ctx: ctx, JobCtx: e.job.ctx, Eval: e.ev, Metrics: p.n.metrics, Batch: e.batch, Config: e.cfg, Subtask: inst, Parallel: p.n.Parallelism,
			SetIdle: router.setIdle, Splits: splits, budget: e.budget, disk: e.job.disk, diskLabel: fmt.Sprintf("n%d-%d", p.n.ID, inst)}
		current = p.n.Name
		if err := p.op.Open(octx, p.out); err != nil {
			return &TaskError{Operator: p.n.Name, Err: err}
		}
		ops = append(ops, p.op)
		outs = append(outs, p.out)
	}
	reuseChainedOutputs(built)
	defer func() {
		for _, op := range ops {
			if cerr := op.Close(); cerr != nil && err == nil {
				err = cerr
			}
		}
	}()
	head := chain[0]
	sourceEnded := false
	if cp != nil {
		cp.built, cp.router = built, router
		finished, ended, err := cp.restore()
		if err != nil {
			return err
		}
		if finished {
			// it had finished before the checkpoint the job resumes
			// from: everything it emitted is in its consumers' state
			return router.end()
		}
		sourceEnded = ended
		cp.opened()
	}
	if head.Source != nil {
		// a chained hash join reads its build side first
		for _, p := range built {
			if len(p.n.Inputs) > 1 {
				current = p.n.Name
				if err := e.readSideInputs(ctx, p.n, inst, p.op); err != nil {
					return e.opErr(ctx, p.n.Name, err)
				}
			}
		}
		current = head.Name
		// a source read to its end before the (final) checkpoint the
		// job resumes from is not read again
		if !sourceEnded {
			if err := e.runSource(ctx, head, inst, next, ops, splits, cp); err != nil {
				return err
			}
		}
		// end of a bounded source: watermark to +inf, then end of input
		// (a task ended by a cancel, a stop or a failure elsewhere fires
		// no timer: that is no end of event time)
		if ctx.Err() == nil {
			if err := next.EmitWatermark(MaxWatermark); err != nil {
				return e.opErr(ctx, head.Name, err)
			}
		}
		if err := e.endChain(ctx, built, router); err != nil {
			return err
		}
		return cp.finish(ctx)
	}
	// operator head: read its input channels
	headOp := built[0].op
	current = head.Name
	if err := e.readInputs(ctx, head, inst, headOp, router, cp); err != nil {
		return e.opErr(ctx, head.Name, err)
	}
	if err := e.endChain(ctx, built[1:], router); err != nil {
		return err
	}
	return cp.finish(ctx)
}

// readSideInputs reads every input of n but the first to its end, in
// order, into op: n is an operator chained into a source's task with
// inputs of its own (a batch hash join's build side, see executor.build),
// read before the source. A batch job has no checkpoints, so the inputs
// carry data, watermarks, idleness and ends only; op sees each input's
// end of event time, then its EndInput.
func (e *executor) readSideInputs(ctx context.Context, n *Node, inst int, op Operator) error {
	m := n.metrics
	for in := 1; in < len(n.Inputs); in++ {
		producers := n.Inputs[in].From.Parallelism
		if n.Inputs[in].Part == opspec.Forward {
			producers = 1
		}
		ch := e.inbound[n.ID][inst][in]
		for ended := 0; ended < producers; {
			var ev event
			select {
			case ev = <-ch.c:
			case <-ctx.Done():
				return ctx.Err()
			}
			switch ev.kind {
			case evData:
				if err := processData(m, op, in, ch, &ev); err != nil {
					return err
				}
			case evEnd:
				ended++
			}
		}
		if err := op.ProcessWatermark(in, MaxWatermark); err != nil {
			return err
		}
		if err := op.EndInput(in); err != nil {
			return err
		}
	}
	return nil
}

// runSource reads a source in its own goroutine and pushes its batches
// through the task's chained operators, firing their processing-time
// timers (periodic watermarks, idleness) between batches.
func (e *executor) runSource(ctx context.Context, head *Node, inst int, next Output, ops []Operator, splits *SourceSplits, cp *taskCheckpoint) error {
	srcCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	if splits != nil {
		srcCtx = context.WithValue(srcCtx, sourceSplitsKey{}, splits)
	}
	if head.shared != nil && cp == nil {
		srcCtx = context.WithValue(srcCtx, sharedSplitsKey{}, head.shared)
	}
	// a batch and, for a reader of several splits, its split; or a
	// checkpoint's barrier with the source's position
	type srcBatch struct {
		b      *types.Batch
		split  string
		active []string
		size   int64 // inFlightBytes, acquired from handoff

		barrier  int64 // checkpoint id, 0 for a batch
		position []byte
		posErr   error
	}
	// the hand-off holds 2 batches, and no more than the byte budget of a
	// channel (or one larger batch)
	batches := make(chan srcBatch, 2)
	handoff := newByteBudget(e.cfg.ChannelBytes)
	errc := make(chan error, 1)
	if cp != nil {
		sc := &SourceCheckpoint{trigger: cp.trigger, barrier: func(id int64, pos []byte, err error) error {
			select {
			case batches <- srcBatch{barrier: id, position: pos, posErr: err}:
				return nil
			case <-srcCtx.Done():
				return srcCtx.Err()
			}
		}}
		if st, ok := cp.coord.restored(head, inst); ok {
			sc.restore = st.state
		}
		srcCtx = context.WithValue(srcCtx, sourceCheckpointKey{}, sc)
	}
	go func() {
		defer close(batches)
		var err error
		defer func() {
			if r := recover(); r != nil {
				err = expr.NewPanicError(r)
			}
			errc <- err
		}()
		err = head.Source(srcCtx, inst, head.Parallelism, func(b *types.Batch) error {
			if b == nil || b.Len == 0 {
				return nil
			}
			sb := srcBatch{b: b}
			if splits != nil && splits.tag != "" {
				sb.split, sb.active = splits.tag, splits.tagActive
			}
			// a source waiting for its task is back-pressured, as a task
			// waiting for a full channel is (router.send)
			if handoff != nil {
				sb.size = inFlightBytes(b)
				if sb.size > 0 && !handoff.tryAcquire(sb.size) {
					head.metrics.Backpressure.Add(1) // before waiting
					if _, err := handoff.acquire(srcCtx, sb.size); err != nil {
						return err
					}
				}
			}
			select {
			case batches <- sb:
				return nil
			default:
			}
			head.metrics.Backpressure.Add(1)
			select {
			case batches <- sb:
				return nil
			case <-srcCtx.Done():
				return srcCtx.Err()
			}
		})
	}()
	drain := func() {
		cancel()
		for range batches {
		}
	}
	var timerOps []ProcessingTimeOperator
	for _, op := range ops {
		if t, ok := op.(ProcessingTimeOperator); ok {
			timerOps = append(timerOps, t)
		}
	}
	timers := newChainTimers(timerOps, e.cfg.clock())
	defer timers.stop()
	for {
		timers.arm()
		select {
		case sb, ok := <-batches:
			if ok && sb.barrier != 0 {
				drains := cp.trigger.drains(sb.barrier)
				if drains {
					// stop-with-savepoint --drain: event time to its end
					// before the savepoint, so that every timer fires
					if err := next.EmitWatermark(MaxWatermark); err != nil {
						drain()
						return e.opErr(ctx, head.Name, err)
					}
				}
				if err := cp.sourceBarrier(sb.barrier, sb.position, sb.posErr); err != nil {
					drain()
					return e.opErr(ctx, head.Name, err)
				}
				if drains {
					drain() // the source reads no more: its task ends
					return nil
				}
				if resume, stops := cp.trigger.suspends(sb.barrier); stops {
					// stop-with-savepoint: nothing after the savepoint's
					// barrier; the job is stopped once it is written, or
					// the source goes on when it fails
					select {
					case <-ctx.Done():
						drain()
						return nil
					case <-resume:
					}
				}
				continue
			}
			b := sb.b
			handoff.release(sb.size)
			if ok && sb.split != "" {
				splits.setCurrent(sb.split, sb.active)
			}
			if !ok {
				if err := <-errc; err != nil {
					if ctx.Err() != nil {
						return nil
					}
					return &TaskError{Operator: head.Name, Err: err}
				}
				return nil
			}
			head.metrics.RecordsOut.Add(int64(b.Len))
			if err := next.Emit(b); err != nil {
				drain()
				return e.opErr(ctx, head.Name, err)
			}
		case <-timers.c:
			if err := timers.fire(); err != nil {
				drain()
				return e.opErr(ctx, head.Name, err)
			}
		case <-ctx.Done():
			drain()
			return nil
		}
	}
}

// chainTimers drives the processing-time timers of a source task's
// chained operators.
type chainTimers struct {
	ops    []ProcessingTimeOperator
	clock  Clock
	c      <-chan time.Time
	cancel func()
	at     int64
}

func newChainTimers(ops []ProcessingTimeOperator, clock Clock) *chainTimers {
	return &chainTimers{ops: ops, clock: clock, at: -1}
}

func (t *chainTimers) arm() {
	next, ok := int64(0), false
	for _, op := range t.ops {
		if n, has := op.NextProcessingTime(); has && (!ok || n < next) {
			next, ok = n, true
		}
	}
	if !ok {
		t.stop()
		return
	}
	if t.c != nil && next == t.at {
		return
	}
	t.stop()
	t.at = next
	t.c, t.cancel = t.clock.At(time.UnixMilli(next))
}

func (t *chainTimers) fire() error {
	t.c, t.cancel, t.at = nil, nil, -1
	now := t.clock.Now().UnixMilli()
	for _, op := range t.ops {
		if n, has := op.NextProcessingTime(); has && n <= now {
			if err := op.OnProcessingTime(now); err != nil {
				return err
			}
		}
	}
	return nil
}

func (t *chainTimers) stop() {
	if t.cancel != nil {
		t.cancel()
	}
	t.c, t.cancel, t.at = nil, nil, -1
}

func (e *executor) opErr(ctx context.Context, name string, err error) error {
	if ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, errStopped)) {
		return nil
	}
	var te *TaskError
	if errors.As(err, &te) {
		return err
	}
	return &TaskError{Operator: name, Err: err}
}

// endChain signals the end of input down the chained operators, then to
// the consumers.
func (e *executor) endChain(ctx context.Context, rest []chainedOp, router *router) error {
	for _, p := range rest {
		if err := p.op.ProcessWatermark(0, MaxWatermark); err != nil {
			return e.opErr(ctx, p.n.Name, err)
		}
		if err := p.op.EndInput(0); err != nil {
			return e.opErr(ctx, p.n.Name, err)
		}
	}
	return router.end()
}

var errStopped = errors.New("stopped")

// chainInput adapts an operator as the Output of the one before it.
type chainInput struct {
	op   Operator
	m    *OperatorMetrics
	name string
	wm   int64
}

func (c *chainInput) Emit(b *types.Batch) error {
	c.m.RecordsIn.Add(int64(b.Len))
	c.m.BatchesIn.Add(1)
	return c.blame(c.op.ProcessBatch(0, b))
}

func (c *chainInput) EmitWatermark(wm int64) error { return c.blame(c.op.ProcessWatermark(0, wm)) }

// blame names the chained operator that failed (a Calc's CAST error is the
// Calc's, not the source's that pushed the batch into the chain); an error
// already named by an operator further down keeps that name.
func (c *chainInput) blame(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, errStopped) {
		return err
	}
	var te *TaskError
	if errors.As(err, &te) {
		return err
	}
	return &TaskError{Operator: c.name, Err: err}
}

// countingOutput counts emitted rows and records the output watermark.
type countingOutput struct {
	next Output
	m    *OperatorMetrics
	// wm is the last watermark this instance emitted: each parallel
	// instance passes on its own increasing watermarks (the metric, shared
	// by the instances, shows the highest)
	wm int64
}

func (c *countingOutput) Emit(b *types.Batch) error {
	if b == nil || b.Len == 0 {
		return nil
	}
	c.m.RecordsOut.Add(int64(b.Len))
	return c.next.Emit(b)
}

func (c *countingOutput) EmitWatermark(wm int64) error {
	if wm <= c.wm {
		return nil
	}
	c.wm = wm
	for {
		cur := c.m.Watermark.Load()
		if wm <= cur || c.m.Watermark.CompareAndSwap(cur, wm) {
			break
		}
	}
	return c.next.EmitWatermark(wm)
}

// outputReuser is an operator that can recycle the buffers of the batches
// it emits once its consumer has returned from Emit (Calc: expr.Scratch).
type outputReuser interface{ ReuseOutput() }

// inputReleaser is an operator that may report it keeps no reference to an
// input batch, or to any of its buffers, once ProcessBatch returns.
type inputReleaser interface{ ReleasesInput() bool }

// reuseChainedOutputs lets each opened operator of a task's chain whose
// consumer, the next in the chain (called synchronously from its Emit),
// releases its input recycle its output buffers.
func reuseChainedOutputs(built []chainedOp) {
	for k := 0; k+1 < len(built); k++ {
		r, ok := built[k].op.(outputReuser)
		if !ok {
			continue
		}
		if c, ok := built[k+1].op.(inputReleaser); ok && c.ReleasesInput() {
			r.ReuseOutput()
		}
	}
}
