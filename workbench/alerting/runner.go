package alerting

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/workbench/monitor"
)

// Clock is a Runner's time source; tests pass one they advance.
type Clock interface {
	Now() time.Time
	// Every returns a channel that receives the time every d, and the
	// function that stops it.
	Every(d time.Duration) (<-chan time.Time, func())
}

// WallClock is the real clock.
type WallClock struct{}

// Now is time.Now.
func (WallClock) Now() time.Time { return time.Now() }

// Every is a time.Ticker's channel and Stop.
func (WallClock) Every(d time.Duration) (<-chan time.Time, func()) {
	t := time.NewTicker(d)
	return t.C, t.Stop
}

// Options tune a Runner.
type Options struct {
	// Clock is the time source (nil: WallClock).
	Clock Clock
	// Tick is how often the time conditions (no row, watermark lag) are
	// checked (0: one second).
	Tick time.Duration
	// OnEvent receives every alert and every failure, on the runner's
	// goroutine (the workbench logs it, notifies and redraws through
	// fyne.Do). It must not block for long.
	OnEvent func(Event)
	// SinkTimeout bounds how long a sink statement's job is waited for
	// (0: 30 s); one still running then is left running and logged.
	SinkTimeout time.Duration
	// OnSink, when set, is told of each sink statement run (with its
	// placeholders filled) and its outcome, on the sink goroutine; a
	// failure is also an Event of kind SinkFailed.
	OnSink func(stmt string, err error)
}

// State is where a Runner is.
type State int

// The runner states.
const (
	Running State = iota
	// Finished: the query ended (a bounded query read all its input).
	Finished
	// Stopped: Stop was called or the job was cancelled.
	Stopped
	// Failed: the query failed (Err says why).
	Failed
)

func (s State) String() string {
	return [...]string{"running", "finished", "stopped", "failed"}[s]
}

// Runner evaluates one rule on its running query: a goroutine reads the
// query's rows (the engine's collect iterator) and evaluates them, and the
// time conditions on a ticker; sink statements run on a goroutine of
// their own, one at a time. Nothing of it runs on the UI goroutine.
type Runner struct {
	rule  Rule
	env   *table.TableEnvironment
	opts  Options
	job   *table.JobClient
	names []string

	cancel context.CancelFunc
	done   chan struct{}
	sinks  chan Event

	mu        sync.Mutex
	state     State
	err       error
	fired     int
	lastFired time.Time
}

// Prepare runs the statements before the rule's query (SET, CREATE
// TEMPORARY TABLE, …) in env and starts the query, returning its result
// (whose rows are not read yet). The last statement must be a query.
// Errors carry the statement's line and column as the engine reports them.
func Prepare(ctx context.Context, env *table.TableEnvironment, statement string) (*table.TableResult, error) {
	spans := sql.SplitStatements(statement)
	if len(spans) == 0 {
		return nil, errors.New("the rule has no statement: write the live query (a SELECT)")
	}
	for i, sp := range spans {
		st, err := sp.Parse()
		if err != nil {
			return nil, err
		}
		last := i == len(spans)-1
		if last {
			if _, ok := st.(*sql.Query); !ok {
				return nil, fmt.Errorf("%s: the last statement of an alert rule must be a query (SELECT …), not %s", sp.Start, firstWord(sp.Text))
			}
		}
		res, err := env.ExecuteParsed(ctx, st, sp.Text, sp.Start)
		if err != nil {
			return nil, err
		}
		if last {
			return res, nil
		}
		if res.IsQuery() || res.JobClient() != nil {
			if j := res.JobClient(); j != nil {
				_ = j.Cancel()
			}
			return nil, fmt.Errorf("%s: only the last statement of an alert rule may be a query or start a job (the ones before prepare it: SET, CREATE TEMPORARY TABLE, USE)", sp.Start)
		}
	}
	return nil, errors.New("unreachable")
}

func firstWord(s string) string {
	for i, r := range s {
		if r == ' ' || r == '\n' || r == '\t' || r == '(' {
			return s[:i]
		}
	}
	return s
}

// Columns returns the names and types of a result's columns.
func Columns(res *table.TableResult) ([]string, []*types.DataType) {
	s := res.Schema()
	if s == nil {
		return nil, nil
	}
	return s.FieldNames(), s.FieldDataTypes()
}

// Start prepares the rule's query in env (see Prepare), checks the
// condition and the sink statement against its columns, and starts
// evaluating it. env should be a session of the rule's own (the sink
// runs there too). Stop ends it.
func Start(ctx context.Context, env *table.TableEnvironment, rule Rule, opts Options) (*Runner, error) {
	if opts.Clock == nil {
		opts.Clock = WallClock{}
	}
	if opts.Tick <= 0 {
		opts.Tick = time.Second
	}
	if opts.SinkTimeout <= 0 {
		opts.SinkTimeout = 30 * time.Second
	}
	if opts.OnEvent == nil {
		opts.OnEvent = func(Event) {}
	}
	runCtx, cancel := context.WithCancel(context.Background())
	res, err := Prepare(ctx, env, rule.Statement)
	if err != nil {
		cancel()
		return nil, err
	}
	names, ts := Columns(res)
	fail := func(err error) (*Runner, error) {
		if j := res.JobClient(); j != nil {
			_ = j.Cancel()
		}
		cancel()
		return nil, err
	}
	if err := rule.Condition.Check(names, ts); err != nil {
		return fail(err)
	}
	if err := ValidateSink(rule.Sink, names); err != nil {
		return fail(err)
	}
	it, err := res.CollectContext(runCtx)
	if err != nil {
		return fail(err)
	}
	r := &Runner{rule: rule, env: env, opts: opts, job: res.JobClient(), names: names,
		cancel: cancel, done: make(chan struct{}), sinks: make(chan Event, 16)}
	go r.run(runCtx, it, opts.Clock.Now())
	go r.runSinks(runCtx)
	return r, nil
}

// row is one row read, or the end of the rows.
type readRow struct {
	row *types.Row
	end bool
	err error
}

// run reads and evaluates the rows; a no-row rule's silence counts from
// start.
func (r *Runner) run(ctx context.Context, it *table.RowIterator, start time.Time) {
	defer close(r.done)
	rows := make(chan readRow, 64)
	go func() {
		for it.Next() {
			row := it.Row()
			cp := &types.Row{Kind: row.Kind, Values: append([]any(nil), row.Values...)}
			select {
			case rows <- readRow{row: cp}:
			case <-ctx.Done():
				it.Close()
				return
			}
		}
		select {
		case rows <- readRow{end: true, err: it.Err()}:
		case <-ctx.Done():
		}
	}()
	clock := r.opts.Clock
	ticks, stopTicks := clock.Every(r.opts.Tick)
	defer stopTicks()
	ev := NewEvaluator(r.rule, start)
	var lagJobs *monitor.Jobs
	if r.rule.Condition.Kind == WatermarkLag && r.job != nil {
		lagJobs = monitor.NewJobs()
	}
	rowErrs := 0
	for {
		select {
		case <-ctx.Done():
			it.Close()
			r.end(Stopped, nil)
			return
		case rr := <-rows:
			if rr.end {
				switch {
				case ctx.Err() != nil:
					r.end(Stopped, nil)
				case rr.err != nil && r.job != nil && r.job.Status() == table.JobCanceled:
					r.end(Stopped, nil)
				case rr.err != nil:
					r.end(Failed, rr.err)
					r.emit(Event{Kind: RuleFailed, RuleID: r.rule.ID, Rule: r.rule.Name, At: clock.Now(), Message: "the query failed: " + rr.err.Error()})
				default:
					if r.job != nil && r.job.Status() == table.JobCanceled {
						r.end(Stopped, nil)
					} else {
						r.end(Finished, nil)
					}
				}
				return
			}
			e, err := ev.Row(clock.Now(), r.names, rr.row)
			if err != nil {
				// said once: every row would say the same
				if rowErrs == 0 {
					r.emit(Event{Kind: RuleFailed, RuleID: r.rule.ID, Rule: r.rule.Name, At: clock.Now(), Message: "the condition cannot be evaluated: " + err.Error()})
				}
				rowErrs++
				continue
			}
			if e != nil {
				r.fire(*e)
			}
		case now := <-ticks:
			var lag time.Duration
			known := false
			if lagJobs != nil {
				lagJobs.Update(now, []monitor.Job{r.job})
				if rows := lagJobs.Rows(); len(rows) == 1 {
					jr := rows[0]
					known = jr.HasWatermark && jr.Watermark != monitor.EndWatermark && monitor.LiveLag(jr.Lag)
					lag = jr.Lag
				}
			}
			if e := ev.Tick(now, lag, known); e != nil {
				r.fire(*e)
			}
		}
	}
}

// fire records an alert, reports it and queues its sink statement.
func (r *Runner) fire(e Event) {
	r.mu.Lock()
	r.fired++
	r.lastFired = e.At
	r.mu.Unlock()
	r.emit(e)
	if r.rule.Sink == "" {
		return
	}
	select {
	case r.sinks <- e:
	default:
		r.emit(Event{Kind: SinkFailed, RuleID: r.rule.ID, Rule: r.rule.Name, At: e.At, Columns: e.Columns, Values: e.Values,
			Message: "skipped: 16 earlier sink statements of this rule are still waiting to run"})
	}
}

func (r *Runner) emit(e Event) {
	defer func() {
		if p := recover(); p != nil { // a handler's panic must not take the engine's process down
			_ = p
		}
	}()
	r.opts.OnEvent(e)
}

// runSinks runs the alerts' sink statements one at a time.
func (r *Runner) runSinks(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case e := <-r.sinks:
			if err := r.runSink(ctx, e); err != nil {
				r.emit(Event{Kind: SinkFailed, RuleID: r.rule.ID, Rule: r.rule.Name, At: r.opts.Clock.Now(),
					Columns: e.Columns, Values: e.Values, Message: err.Error()})
			}
		}
	}
}

// runSink runs the sink statement of one alert and waits for its job.
func (r *Runner) runSink(ctx context.Context, e Event) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: %v", p)
		}
	}()
	stmt, err := BindSink(r.rule.Sink, e.Columns, e.Values)
	if err != nil {
		return err
	}
	if r.opts.OnSink != nil {
		defer func() { r.opts.OnSink(stmt, err) }()
	}
	ctx, cancel := context.WithTimeout(ctx, r.opts.SinkTimeout)
	defer cancel()
	res, err := r.env.ExecuteSQLContext(ctx, stmt)
	if err != nil {
		return err
	}
	if err := res.WaitContext(ctx); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("its job still runs after %s (left running)", r.opts.SinkTimeout)
		}
		return err
	}
	return nil
}

func (r *Runner) end(s State, err error) {
	r.mu.Lock()
	r.state, r.err = s, err
	r.mu.Unlock()
}

// Stop cancels the rule's query and waits for the runner to end.
func (r *Runner) Stop() {
	r.cancel()
	if r.job != nil && !r.job.Status().IsTerminal() {
		_ = r.job.Cancel()
	}
	<-r.done
}

// Done is closed when the runner has ended (State says how).
func (r *Runner) Done() <-chan struct{} { return r.done }

// State reports whether the runner runs, and the error it failed with.
func (r *Runner) State() (State, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.state, r.err
}

// Fired counts the alerts raised since Start and tells the last one's time.
func (r *Runner) Fired() (int, time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.fired, r.lastFired
}

// Job is the rule's query job (nil for a query that needs none).
func (r *Runner) Job() *table.JobClient { return r.job }

// Columns are the query's column names.
func (r *Runner) Columns() []string { return r.names }

// Rule is the rule evaluated.
func (r *Runner) Rule() Rule { return r.rule }

// Validate checks a rule before it is saved, in env (a session of its
// own, which it leaves with the preparing statements run): the statement
// must prepare and plan a query (the engine's errors carry their line and
// column), the condition must fit the query's columns (*ConditionError),
// and the sink statement must parse with known :columns (*SinkError). The
// query's job is cancelled at once. It returns the query's columns.
func Validate(ctx context.Context, env *table.TableEnvironment, rule Rule) ([]string, error) {
	res, err := Prepare(ctx, env, rule.Statement)
	if err != nil {
		return nil, err
	}
	if j := res.JobClient(); j != nil {
		_ = j.Cancel()
	}
	names, ts := Columns(res)
	if err := rule.Condition.Check(names, ts); err != nil {
		return names, err
	}
	if err := ValidateSink(rule.Sink, names); err != nil {
		return names, err
	}
	return names, nil
}
