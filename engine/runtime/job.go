package runtime

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// JobStatus is a job's state (Flink's JobStatus names).
type JobStatus int32

// Job states.
const (
	Created JobStatus = iota
	Running
	Finished
	Canceled
	Failed
)

func (s JobStatus) String() string {
	return [...]string{"CREATED", "RUNNING", "FINISHED", "CANCELED", "FAILED"}[s]
}

// IsTerminal reports FINISHED, CANCELED or FAILED.
func (s JobStatus) IsTerminal() bool { return s >= Finished }

// ErrCanceled is the error of a job that was cancelled.
var ErrCanceled = errors.New("job was cancelled")

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
}

// NewJobID returns a random 32-hex-digit job id (Flink's JobID format).
func NewJobID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

type event struct {
	kind     uint8 // evData, evWatermark, evEnd
	batch    *types.Batch
	wm       int64
	producer int
}

const (
	evData uint8 = iota
	evWatermark
	evEnd
)

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
	ctx, cancel := context.WithCancel(parent)
	j := &Job{ID: NewJobID(), Name: name, Graph: g, cancel: cancel, ctx: ctx, done: make(chan struct{}), start: time.Now()}
	for _, n := range g.Nodes {
		n.metrics = newMetrics(n.ID, n.Name)
	}
	e := &executor{job: j, g: g, cfg: cfg, ev: ev, batch: batch}
	if err := e.build(); err != nil {
		cancel()
		return nil, err
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
	j.mu.Unlock()
	j.cancel()
}

type executor struct {
	job   *Job
	g     *Graph
	cfg   JobConfig
	ev    *expr.Ctx
	batch bool
	// inbound[node][instance][input] channels
	inbound map[int][][]chan event
	chains  [][]*Node
	chained map[int]bool
}

func (e *executor) build() error {
	e.inbound = map[int][][]chan event{}
	e.chained = map[int]bool{}
	// chaining: a node with one forward input whose producer has exactly
	// one consumer runs in its producer's task
	for _, n := range e.g.Nodes {
		if len(n.Inputs) == 1 && n.Inputs[0].Part == Forward && len(n.Inputs[0].From.consumers) == 1 {
			e.chained[n.ID] = true
		}
	}
	for _, n := range e.g.Nodes {
		if e.chained[n.ID] {
			continue
		}
		chain := []*Node{n}
		for cur := n; len(cur.consumers) == 1 && e.chained[cur.consumers[0].ID]; {
			cur = cur.consumers[0]
			chain = append(chain, cur)
		}
		e.chains = append(e.chains, chain)
		if len(n.Inputs) > 0 {
			chans := make([][]chan event, n.Parallelism)
			for i := range chans {
				chans[i] = make([]chan event, len(n.Inputs))
				for k := range chans[i] {
					chans[i][k] = make(chan event, e.cfg.ChannelCapacity)
				}
			}
			e.inbound[n.ID] = chans
		}
	}
	return nil
}

func (e *executor) run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, chain := range e.chains {
		for inst := 0; inst < chain[0].Parallelism; inst++ {
			wg.Add(1)
			go func(chain []*Node, inst int) {
				defer wg.Done()
				if err := e.runTask(ctx, chain, inst); err != nil {
					e.job.fail(err)
				}
			}(chain, inst)
		}
	}
	wg.Wait()
	j := e.job
	j.mu.Lock()
	j.end = time.Now()
	switch {
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
	j.cancel()
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

func (e *executor) runTask(ctx context.Context, chain []*Node, inst int) (err error) {
	current := chain[0].Name
	defer func() {
		if r := recover(); r != nil {
			err = &TaskError{Operator: current, Err: fmt.Errorf("panic: %v\n%s", r, debug.Stack())}
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
		out := &countingOutput{next: next, m: n.metrics}
		built = append([]chainedOp{{op, out, n}}, built...)
		next = &chainInput{op: op, m: n.metrics, name: n.Name}
	}
	for _, p := range built {
		octx := &OpContext{Ctx: ctx, Eval: e.ev, Metrics: p.n.metrics, Batch: e.batch, Config: e.cfg, Subtask: inst, Parallel: p.n.Parallelism}
		current = p.n.Name
		if err := p.op.Open(octx, p.out); err != nil {
			return &TaskError{Operator: p.n.Name, Err: err}
		}
		ops = append(ops, p.op)
		outs = append(outs, p.out)
	}
	defer func() {
		for _, op := range ops {
			if cerr := op.Close(); cerr != nil && err == nil {
				err = cerr
			}
		}
	}()
	head := chain[0]
	if head.Source != nil {
		current = head.Name
		emit := func(b *types.Batch) error {
			if b == nil || b.Len == 0 {
				return nil
			}
			head.metrics.RecordsOut.Add(int64(b.Len))
			return next.Emit(b)
		}
		if err := head.Source(ctx, inst, head.Parallelism, emit); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return &TaskError{Operator: head.Name, Err: err}
		}
		// end of a bounded source: watermark to +inf, then end of input
		if err := next.EmitWatermark(MaxWatermark); err != nil {
			return e.opErr(ctx, head.Name, err)
		}
		return e.endChain(ctx, built, router)
	}
	// operator head: read its input channels
	headOp := built[0].op
	current = head.Name
	if err := e.readInputs(ctx, head, inst, headOp); err != nil {
		return e.opErr(ctx, head.Name, err)
	}
	return e.endChain(ctx, built[1:], router)
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

// readInputs is the event loop of a task whose head has inputs.
func (e *executor) readInputs(ctx context.Context, n *Node, inst int, op Operator) error {
	chans := e.inbound[n.ID][inst]
	nIn := len(chans)
	producers := make([]int, nIn)
	for i, edge := range n.Inputs {
		switch edge.Part {
		case Forward:
			producers[i] = 1
		default:
			producers[i] = edge.From.Parallelism
		}
	}
	wms := make([][]int64, nIn)
	combined := make([]int64, nIn)
	ended := make([]int, nIn)
	for i := range wms {
		wms[i] = make([]int64, producers[i])
		for k := range wms[i] {
			wms[i][k] = MinWatermark
		}
		combined[i] = MinWatermark
	}
	open := nIn
	selector, _ := op.(InputSelector)
	cases := make([]reflect.SelectCase, nIn+1)
	cases[nIn] = reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())}
	m := n.metrics
	for open > 0 {
		var in int
		var ev event
		want := -1
		if selector != nil {
			want = selector.NextInput()
		}
		if want >= 0 && ended[want] < producers[want] {
			select {
			case ev = <-chans[want]:
				in = want
			case <-ctx.Done():
				return ctx.Err()
			}
		} else if nIn == 1 {
			select {
			case ev = <-chans[0]:
			case <-ctx.Done():
				return ctx.Err()
			}
		} else {
			for i, c := range chans {
				if ended[i] == producers[i] {
					cases[i] = reflect.SelectCase{Dir: reflect.SelectRecv}
				} else {
					cases[i] = reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(c)}
				}
			}
			chosen, v, _ := reflect.Select(cases)
			if chosen == nIn {
				return ctx.Err()
			}
			in = chosen
			ev = v.Interface().(event)
		}
		switch ev.kind {
		case evData:
			m.RecordsIn.Add(int64(ev.batch.Len))
			m.BatchesIn.Add(1)
			t0 := time.Now()
			if err := op.ProcessBatch(in, ev.batch); err != nil {
				return err
			}
			m.BusyNanos.Add(int64(time.Since(t0)))
		case evWatermark, evEnd:
			wm := ev.wm
			if ev.kind == evEnd {
				wm = MaxWatermark
			}
			if wm > wms[in][ev.producer] {
				wms[in][ev.producer] = wm
			}
			low := MaxWatermark
			for _, w := range wms[in] {
				if w < low {
					low = w
				}
			}
			if low > combined[in] {
				combined[in] = low
				if err := op.ProcessWatermark(in, low); err != nil {
					return err
				}
			}
			if ev.kind == evEnd {
				ended[in]++
				if ended[in] == producers[in] {
					open--
					if err := op.EndInput(in); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

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
	return c.op.ProcessBatch(0, b)
}

func (c *chainInput) EmitWatermark(wm int64) error { return c.op.ProcessWatermark(0, wm) }

// countingOutput counts emitted rows and records the output watermark.
type countingOutput struct {
	next Output
	m    *OperatorMetrics
}

func (c *countingOutput) Emit(b *types.Batch) error {
	if b == nil || b.Len == 0 {
		return nil
	}
	c.m.RecordsOut.Add(int64(b.Len))
	return c.next.Emit(b)
}

func (c *countingOutput) EmitWatermark(wm int64) error {
	if wm <= c.m.Watermark.Load() {
		return nil
	}
	c.m.Watermark.Store(wm)
	return c.next.EmitWatermark(wm)
}
