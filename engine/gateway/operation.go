package gateway

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// operation is one statement submitted to a session: its state machine
// (Flink's OperationManager.Operation) and, once FINISHED, its result
// fetcher.
type operation struct {
	id        string
	sess      *session
	statement string

	ctx    context.Context // cancelled when the operation is cancelled, closed or times out
	cancel context.CancelFunc

	mu      sync.Mutex
	status  OperationStatus
	changed chan struct{} // closed and replaced at every status change
	err     error         // the cause of ERROR
	result  *opResult     // set when FINISHED
	timer   *time.Timer   // executionTimeout

	fetch fetcher
}

func newOperation(sess *session, id, statement string) *operation {
	ctx, cancel := context.WithCancel(sess.ctx)
	return &operation{id: id, sess: sess, statement: statement, ctx: ctx, cancel: cancel,
		status: StatusInitialized, changed: make(chan struct{})}
}

// Status returns the current state.
func (o *operation) Status() OperationStatus {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.status
}

// transition moves to state to if Flink allows it; it reports whether it
// did. The caller holds o.mu.
func (o *operation) transitionLocked(to OperationStatus) error {
	if !o.status.CanTransition(to) {
		return fmt.Errorf("Failed to convert the Operation Status from %s to %s for OperationHandle{identifier=%s}.", o.status, to, o.id)
	}
	o.status = to
	close(o.changed)
	o.changed = make(chan struct{})
	if to.IsTerminal() && o.timer != nil {
		o.timer.Stop()
	}
	return nil
}

func (o *operation) transition(to OperationStatus) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.transitionLocked(to)
}

// finish records the outcome of the execution: FINISHED with res, or ERROR
// with err. When the operation was cancelled, closed or timed out
// meanwhile, the result is released instead.
func (o *operation) finish(res *opResult, err error) {
	o.mu.Lock()
	if o.status != StatusRunning {
		o.mu.Unlock()
		if res != nil {
			res.abort() // cancelled, closed or timed out while executing
		}
		return
	}
	if err != nil {
		o.err = err
		_ = o.transitionLocked(StatusError)
		o.mu.Unlock()
		return
	}
	o.result = res
	o.fetch.init(res, o.sess.srv.cfg.PageRows)
	_ = o.transitionLocked(StatusFinished)
	o.mu.Unlock()
}

// cancelOp implements the cancel endpoint: only a non-terminal operation
// can be cancelled (Flink refuses the others).
func (o *operation) cancelOp() error {
	o.mu.Lock()
	err := o.transitionLocked(StatusCanceled)
	o.mu.Unlock()
	if err != nil {
		return err
	}
	o.releaseResources()
	return nil
}

// closeOp moves to CLOSED and releases the result: an unfinished query's
// job is cancelled.
func (o *operation) closeOp() {
	o.mu.Lock()
	if o.status != StatusClosed {
		_ = o.transitionLocked(StatusClosed)
	}
	o.mu.Unlock()
	o.releaseResources()
}

// timeout moves a still executing operation to TIMEOUT.
func (o *operation) timeout() {
	o.mu.Lock()
	err := o.transitionLocked(StatusTimeout)
	o.mu.Unlock()
	if err == nil {
		o.releaseResources()
	}
}

func (o *operation) releaseResources() {
	o.cancel()
	o.mu.Lock()
	res := o.result
	o.mu.Unlock()
	if res != nil {
		res.release()
	}
}

// waitChange blocks until the status changes, ctx ends or d passes.
func (o *operation) waitChange(ctx context.Context, d time.Duration) {
	o.mu.Lock()
	ch := o.changed
	o.mu.Unlock()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
	case <-ctx.Done():
	case <-t.C:
	}
}

// opResult is what a FINISHED operation serves.
type opResult struct {
	kind    string // SUCCESS or SUCCESS_WITH_CONTENT
	isQuery bool
	jobID   string
	job     *table.JobClient // the job of a query or INSERT, or nil
	names   []string
	types   []*types.DataType
	src     batchSource
	// buffer is a query's result buffer (nil for other statements).
	buffer table.ResultBuffer

	once sync.Once
	// slot, when set, gives back the query's place among the open queries
	// of its session and of the gateway (session.admitQuery); called once.
	slot     func()
	slotOnce sync.Once
}

// release closes the source: an unfinished query's job is cancelled (an
// INSERT's job runs on).
func (r *opResult) release() {
	r.once.Do(func() { _ = r.src.close() })
	r.freeSlot()
}

// freeSlot ends the query's count as an open query: when its operation is
// closed, cancelled or timed out, its session closes, or its results were
// fetched to the end or its job failed (nothing is buffered for it then).
func (r *opResult) freeSlot() {
	r.slotOnce.Do(func() {
		if r.slot != nil {
			r.slot()
		}
	})
}

// abort releases the result and cancels its job: the statement's operation
// was cancelled, closed or timed out before it finished executing.
func (r *opResult) abort() {
	r.release()
	if r.job != nil && !r.job.Status().IsTerminal() {
		_ = r.job.Cancel()
	}
}

// batchSource yields a result's rows in batches.
type batchSource interface {
	// next returns the next batch, io.EOF at the end, ctx.Err() when ctx
	// ends first, or the job's error.
	next(ctx context.Context) (*types.Batch, error)
	close() error
}

// iterSource reads a TableResult's iterator.
type iterSource struct{ it *table.RowIterator }

func (s *iterSource) next(ctx context.Context) (*types.Batch, error) { return s.it.NextBatch(ctx) }
func (s *iterSource) close() error                                   { return s.it.Close() }

// staticSource serves rows held in memory.
type staticSource struct{ batch *types.Batch }

func (s *staticSource) next(context.Context) (*types.Batch, error) {
	if s.batch == nil {
		return nil, io.EOF
	}
	b := s.batch
	s.batch = nil
	return b, nil
}

func (s *staticSource) close() error { return nil }

// newStaticSource builds a source of rows of types ts.
func newStaticSource(ts []*types.DataType, rows ...*types.Row) (*staticSource, error) {
	bb := types.NewBatchBuilder(ts)
	for _, r := range rows {
		if err := bb.AppendRow(r); err != nil {
			return nil, err
		}
	}
	return &staticSource{batch: bb.Build()}, nil
}

// page is one fetched batch of rows, kept so that a retried fetch of the
// same token returns it again.
type page struct {
	batches []*types.Batch
	rows    int
}

// fetcher pages through a result by token (Flink's ResultFetcher): token
// n+1 is served after token n; token n may be fetched again (a retry) and
// returns the same rows; other tokens are refused.
type fetcher struct {
	mu       sync.Mutex
	res      *opResult
	pageRows int
	token    int64 // the next token that fetches new rows
	prev     page  // rows of token-1
	leftover *types.Batch
	eos      bool
	err      error // a failure of the job, returned by every later fetch
}

func (f *fetcher) init(res *opResult, pageRows int) {
	f.res = res
	f.pageRows = pageRows
}

// fetchResult is what one fetch returns.
type fetchResult struct {
	typ       ResultType
	rows      page
	nextToken int64 // -1: none (EOS)
}

// fetchPage serves token. wait bounds how long it waits for the first rows
// of a new page when none are buffered; it returns an empty PAYLOAD when
// none came.
func (f *fetcher) fetchPage(ctx context.Context, token int64, wait time.Duration) (fetchResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch {
	case token == f.token-1 && token >= 0:
		return fetchResult{typ: ResultPayload, rows: f.prev, nextToken: f.token}, nil
	case token != f.token:
		if f.token == 0 {
			return fetchResult{}, fmt.Errorf("Expecting token to be 0, but found %d.", token)
		}
		return fetchResult{}, fmt.Errorf("Expecting token to be %d or %d, but found %d.", f.token, f.token-1, token)
	}
	if f.eos {
		return fetchResult{typ: ResultEOS, nextToken: -1}, nil
	}
	if f.err != nil {
		return fetchResult{}, f.err
	}
	var pg page
	add := func(b *types.Batch) {
		if room := f.pageRows - pg.rows; b.Len > room {
			f.leftover = b.Slice(room, b.Len)
			b = b.Slice(0, room)
		}
		pg.batches = append(pg.batches, b)
		pg.rows += b.Len
	}
	if f.leftover != nil {
		b := f.leftover
		f.leftover = nil
		add(b)
	}
	srcDone := false
	waited := false
	for pg.rows < f.pageRows && f.leftover == nil {
		rctx, cancel := ctx, context.CancelFunc(func() {})
		if pg.rows > 0 || waited {
			rctx, cancel = context.WithCancel(ctx)
			cancel() // take only what is ready
		} else {
			rctx, cancel = context.WithTimeout(ctx, wait)
			waited = true
		}
		b, err := f.res.src.next(rctx)
		cancel()
		if err == io.EOF {
			srcDone = true
			break
		}
		if err != nil {
			if ctx.Err() != nil {
				return fetchResult{}, ctx.Err()
			}
			if rctx.Err() != nil && !isJobError(err) {
				break // nothing more is ready
			}
			f.err = err // the job failed: later fetches fail too
			f.res.freeSlot()
			if pg.rows > 0 {
				break
			}
			return fetchResult{}, err
		}
		if b.Len > 0 {
			add(b)
		}
	}
	if srcDone {
		f.res.freeSlot() // every row is fetched or in this page
	}
	if srcDone && pg.rows == 0 && token > 0 {
		f.eos = true
		f.prev = page{}
		return fetchResult{typ: ResultEOS, nextToken: -1}, nil
	}
	f.token++
	f.prev = pg
	return fetchResult{typ: ResultPayload, rows: pg, nextToken: f.token}, nil
}

// isJobError tells a job's failure from the end of a wait.
func isJobError(err error) bool {
	return !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled)
}
