package gateway

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// session is one client session: a TableEnvironment whose configuration
// is the session's properties, and the operations submitted to it.
// Operations execute one at a time in submission order (as Flink's
// OperationManager does with its operation lock); query jobs then run
// concurrently.
type session struct {
	id   string
	name string
	srv  *Server
	env  *table.TableEnvironment

	ctx    context.Context // cancelled when the session closes
	cancel context.CancelFunc

	lastAccess atomic.Int64 // unix nanoseconds of the last request

	// openQueries counts the session's queries whose results are still
	// open (admitQuery).
	openQueries atomic.Int64

	mu     sync.Mutex
	ops    map[string]*operation
	closed bool
	tail   chan struct{} // closed when the last submitted execution ended
	wg     sync.WaitGroup

	// queryJobs are the ids of the jobs that end with the session: its
	// queries' jobs and the jobs of statements whose execution was
	// cancelled (an INSERT with table.dml-sync, cancelled by its
	// operation's or its session's close); its other INSERT jobs run on
	// (jobs.go).
	queryJobs map[string]bool

	// statement set collected by BEGIN STATEMENT SET ... END; touched only
	// by executions, which are serialised.
	inSet   bool
	setStmt []string

	// setup are the statements that made the session's catalog objects,
	// kept for resuming its jobs (resume.go; guarded by mu).
	setup []string
}

// newUUID returns a random RFC 4122 version 4 UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// isUUID checks the textual form of a handle.
func isUUID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch i {
		case 8, 13, 18, 23:
			if c != '-' {
				return false
			}
		default:
			if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
				return false
			}
		}
	}
	return true
}

// newSession creates a session whose configuration is the server's
// defaults overridden by props.
func (s *Server) newSession(name string, props map[string]string) (*session, error) {
	conf := config.New()
	for k, v := range s.cfg.Defaults {
		conf.Set(k, v)
	}
	for k, v := range props {
		conf.Set(k, v)
	}
	settings := table.InStreamingMode()
	switch mode := strings.ToLower(conf.GetString(config.RuntimeMode.Key, "streaming")); mode {
	case "streaming":
	case "batch":
		settings = table.InBatchMode()
	default:
		return nil, fmt.Errorf("Could not parse value '%s' for key '%s': expected STREAMING or BATCH", mode, config.RuntimeMode.Key)
	}
	env, err := table.Create(settings.WithConfiguration(conf))
	if err != nil {
		return nil, err
	}
	// RESET returns to the gateway's defaults, dropping the session's
	// properties, as Flink's SQL Gateway does
	env.SetSessionDefaults(s.cfg.Defaults)
	// a SET of a display option is stored unchecked, as Flink's SQL
	// Gateway stores any SET: the client showing a result reads it
	env.StoreClientOptionsUnchecked()
	if s.cfg.PrintOutput != nil {
		env.SetStdout(s.cfg.PrintOutput)
	}
	if s.checkPath != nil {
		env.SetPathPolicy(s.checkPath)
	}
	// the gateway's log says when a job restarts after a failure, as a
	// Flink cluster's JobMaster log does
	env.OnJobRestart(func(e table.JobRestartEvent) {
		s.logf("job %s (%s) failed: %v; restarting (attempt %d, %s) in %s", e.JobID, e.JobName, e.Cause, e.Attempt, e.Strategy, e.Delay.Round(time.Millisecond))
	})
	ctx, cancel := context.WithCancel(context.Background())
	tail := make(chan struct{})
	close(tail)
	sess := &session{id: newUUID(), name: name, srv: s, env: env, ctx: ctx, cancel: cancel,
		ops: map[string]*operation{}, tail: tail, queryJobs: map[string]bool{}}
	sess.touch()
	return sess, nil
}

// timeZone is the session time zone (table.local-time-zone) that
// PLAIN_TEXT rows print TIMESTAMP_LTZ values in; UTC when the configured
// zone cannot be resolved (the statement that used it failed already).
func (ss *session) timeZone() *time.Location {
	loc, err := ss.env.Config().LocalTimeZoneLocation()
	if err != nil || loc == nil {
		return time.UTC
	}
	return loc
}

func (ss *session) touch() { ss.lastAccess.Store(ss.srv.now().UnixNano()) }

// idleSince returns when the session was last used.
func (ss *session) idleSince() time.Time { return time.Unix(0, ss.lastAccess.Load()) }

// operation finds a submitted operation.
func (ss *session) operation(id string) (*operation, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if o, ok := ss.ops[id]; ok {
		return o, nil
	}
	return nil, &causeError{class: classGatewayException,
		msg: fmt.Sprintf("Can not find the submitted operation in the OperationManager with the %s.", id)}
}

// submit registers an operation for statement and starts executing it
// after the operations submitted before it.
func (ss *session) submit(statement string, execConfig map[string]string, timeout time.Duration) (*operation, error) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.closed {
		return nil, errors.New("The OperationManager is closed.")
	}
	o := newOperation(ss, newUUID(), statement)
	ss.ops[o.id] = o
	prev := ss.tail
	done := make(chan struct{})
	ss.tail = done
	if timeout > 0 {
		o.mu.Lock()
		o.timer = time.AfterFunc(timeout, o.timeout)
		o.mu.Unlock()
	}
	_ = o.transition(StatusPending)
	ss.wg.Add(1)
	go func() {
		defer ss.wg.Done()
		defer close(done)
		select {
		case <-prev:
		case <-o.ctx.Done():
			return
		}
		if o.transition(StatusRunning) != nil {
			return // cancelled, closed or timed out while pending
		}
		res, err := ss.execute(o.ctx, statement, execConfig)
		if res != nil && res.isQuery {
			if aerr := ss.admitQuery(res); aerr != nil {
				res.abort() // its job is cancelled at once
				res, err = nil, aerr
			}
		}
		if res != nil && res.isQuery && res.job != nil {
			ss.mu.Lock()
			ss.queryJobs[res.job.JobID()] = true
			ss.mu.Unlock()
		}
		o.finish(res, err)
	}()
	return o, nil
}

// admitQuery counts res, a query's result, among the open queries of the
// session and of the gateway, or refuses it when either is at its limit
// (Config.MaxSessionQueries, Config.MaxQueries) with an error naming the
// limit and the option that raises it. An admitted result's slot gives
// its place back (opResult.freeSlot). Executions of one session are
// serialised, so only the gateway's count races, and it is reserved first.
func (ss *session) admitQuery(res *opResult) error {
	srv := ss.srv
	if n := srv.openQueries.Add(1); n > int64(srv.cfg.MaxQueries) {
		srv.openQueries.Add(-1)
		return fmt.Errorf("Too many open queries: the gateway already has %d open queries over all sessions, the limit sql-gateway.max-open-queries (%d). Fetch a query's results to the end or close its operation first, or raise the limit with riffle gateway -D sql-gateway.max-open-queries=<n>.", n-1, srv.cfg.MaxQueries)
	}
	if n := ss.openQueries.Add(1); n > int64(srv.cfg.MaxSessionQueries) {
		ss.openQueries.Add(-1)
		srv.openQueries.Add(-1)
		return fmt.Errorf("Too many open queries: this session already has %d open queries, the limit sql-gateway.session.max-open-queries (%d). Fetch a query's results to the end or close its operation first, or raise the limit with riffle gateway -D sql-gateway.session.max-open-queries=<n>.", n-1, srv.cfg.MaxSessionQueries)
	}
	res.slot = func() {
		ss.openQueries.Add(-1)
		srv.openQueries.Add(-1)
	}
	return nil
}

// run executes a statement synchronously through the session's queue (for
// configure-session) and releases its result.
func (ss *session) run(ctx context.Context, statement string, timeout time.Duration) error {
	return ss.runWith(ctx, statement, nil, timeout)
}

// runWith is run with execConfig overriding the session's configuration
// for the statement.
func (ss *session) runWith(ctx context.Context, statement string, execConfig map[string]string, timeout time.Duration) error {
	o, err := ss.submit(statement, execConfig, timeout)
	if err != nil {
		return err
	}
	defer ss.removeOp(o.id)
	for {
		st := o.Status()
		if st.IsTerminal() {
			o.mu.Lock()
			err := o.err
			o.mu.Unlock()
			o.closeOp()
			switch st {
			case StatusFinished:
				return nil
			case StatusError:
				return err
			}
			return fmt.Errorf("the statement ended in state %s", st)
		}
		o.waitChange(ctx, time.Minute)
		if ctx.Err() != nil {
			o.closeOp()
			return ctx.Err()
		}
	}
}

func (ss *session) removeOp(id string) {
	ss.mu.Lock()
	delete(ss.ops, id)
	ss.mu.Unlock()
}

// closeOperation removes and closes an operation; closing an unknown
// operation succeeds, as in Flink.
func (ss *session) closeOperation(id string) {
	ss.mu.Lock()
	o := ss.ops[id]
	delete(ss.ops, id)
	ss.mu.Unlock()
	if o != nil {
		o.closeOp()
	}
}

// close closes every operation, cancels the session's query jobs and
// waits (bounded by wait) for them and for executions to end; so it does
// for the jobs of statements whose execution it cancelled (an INSERT with
// table.dml-sync still executing). The jobs of its other INSERTs and
// statement sets still running run on: the server keeps
// them (jobs.go), as a Flink session cluster keeps a closed session's jobs;
// close returns them for the caller's one log line (runOnText), nil when
// the session was closed already.
func (ss *session) close(wait time.Duration) (runOn []*table.JobClient) {
	ss.mu.Lock()
	if ss.closed {
		ss.mu.Unlock()
		return nil
	}
	ss.closed = true
	ops := ss.ops
	ss.ops = map[string]*operation{}
	ss.mu.Unlock()
	ss.cancel()
	for _, o := range ops {
		o.closeOp()
	}
	deadline, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	// executions end first (they see the cancelled context), so that no
	// job starts after the jobs are sorted out below
	done := make(chan struct{})
	go func() { ss.wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-deadline.Done():
	}
	var queries []*table.JobClient
	for _, j := range ss.env.Jobs() {
		// the server's job store lists them all, ended ones included,
		// as a cluster's does (jobstore.expiration-time)
		if j.Status().IsTerminal() {
			ss.srv.detached.adopt(j, ss.srv.now())
			continue
		}
		ss.mu.Lock()
		query := ss.queryJobs[j.JobID()]
		ss.mu.Unlock()
		if !query {
			ss.srv.detached.adopt(j, ss.srv.now())
			runOn = append(runOn, j)
			continue
		}
		_ = j.Cancel()
		ss.srv.detached.adopt(j, ss.srv.now()) // listed CANCELED
		queries = append(queries, j)
	}
	for _, j := range queries {
		select {
		case <-j.Done():
		case <-deadline.Done():
			return runOn
		}
	}
	return runOn
}

// runOnText ends the log line of a closed session with the jobs it left
// running ("; job <id> (<name>) runs on"), "" when there are none.
func runOnText(jobs []*table.JobClient) string {
	if len(jobs) == 0 {
		return ""
	}
	names := make([]string, len(jobs))
	for i, j := range jobs {
		names[i] = fmt.Sprintf("%s (%s)", j.JobID(), j.JobName())
	}
	if len(jobs) == 1 {
		return "; job " + names[0] + " runs on"
	}
	return "; jobs " + strings.Join(names, ", ") + " run on"
}

// Statements configure-session accepts (Flink's ConfigureSession list).
func configureAllowed(st sql.Statement) bool {
	switch st.(type) {
	case *sql.Set, *sql.Reset, *sql.CreateTable, *sql.CreateView, *sql.CreateDatabase, *sql.CreateCatalog,
		*sql.CreateFunction, *sql.Drop, *sql.AlterTable, *sql.AlterView, *sql.AlterDatabase, *sql.Use,
		*sql.LoadModule, *sql.UnloadModule, *sql.UseModules, *sql.Jar:
		return true
	}
	return false
}

// execute runs one statement in the session's environment.
func (ss *session) execute(ctx context.Context, statement string, execConfig map[string]string) (*opResult, error) {
	stmts, err := sql.ParseScript(statement)
	if err != nil {
		return nil, err
	}
	if len(stmts) != 1 {
		return nil, errors.New("Unsupported SQL statement! Execute statement only accepts a single SQL statement or multiple 'INSERT INTO' statements wrapped in a 'STATEMENT SET' block.")
	}
	st := stmts[0]
	if ss.inSet {
		switch st.(type) {
		case *sql.End:
			set := ss.setStmt
			ss.inSet, ss.setStmt = false, nil
			if len(set) == 0 {
				return okResult(), nil
			}
			text := "EXECUTE STATEMENT SET BEGIN\n" + strings.Join(set, ";\n") + ";\nEND"
			stmts, err := sql.ParseScript(text)
			if err != nil {
				return nil, err
			}
			return ss.executeParsed(ctx, stmts[0], text, execConfig)
		case *sql.Insert:
			ss.setStmt = append(ss.setStmt, strings.TrimRight(strings.TrimSpace(statement), ";"))
			return okResult(), nil
		}
		return nil, errors.New("Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set or use 'END' statement to submit Statement Set.")
	}
	switch s := st.(type) {
	case *sql.BeginStatementSet:
		ss.inSet = true
		return okResult(), nil
	case *sql.Show:
		if strings.EqualFold(s.What, "JOBS") {
			return ss.srv.showJobs() // every session's jobs, as a cluster lists them
		}
	case *sql.StopJob:
		if _, own := ss.env.JobByID(s.JobID); !own {
			if res, found, err := ss.srv.stopJob(ctx, ss.env, s); found {
				return res, err
			}
		}
	case *sql.End:
		return nil, errors.New("No Statement Set to submit. 'END' statement should be used after 'BEGIN STATEMENT SET'.")
	}
	return ss.executeParsed(ctx, st, statement, execConfig)
}

// executeParsed runs a statement with execConfig overriding the session
// configuration for its planning (executions are serialised, so the
// override is not seen by other statements). Jobs it started are
// cancelled when ctx ends before it returns (a cancelled INSERT with
// table.dml-sync).
func (ss *session) executeParsed(ctx context.Context, st sql.Statement, text string, execConfig map[string]string) (*opResult, error) {
	conf := ss.env.Config().Configuration()
	if len(execConfig) > 0 {
		saved := map[string]*string{}
		for k, v := range execConfig {
			if old, ok := conf.Get(k); ok {
				saved[k] = &old
			} else {
				saved[k] = nil
			}
			conf.Set(k, v)
		}
		defer func() {
			for k, v := range saved {
				if v == nil {
					conf.Remove(k)
				} else {
					conf.Set(k, *v)
				}
			}
		}()
	}
	before := len(ss.env.Jobs())
	res, err := ss.env.ExecuteParsed(ctx, st, text, sql.Pos{})
	if err != nil {
		if ctx.Err() != nil {
			for _, j := range ss.env.Jobs()[before:] {
				_ = j.Cancel()
				// it ends with the session, not logged as running on
				// (close sees it still RUNNING while it winds down)
				ss.mu.Lock()
				ss.queryJobs[j.JobID()] = true
				ss.mu.Unlock()
			}
		}
		return nil, err
	}
	ss.noteSetup(st, text)
	if jc := res.JobClient(); jc != nil && !res.IsQuery() {
		ss.rememberJob(text, jc)
	}
	return resultOf(res)
}

// okResult is Flink's TABLE_RESULT_OK: one column "result" with "OK".
func okResult() *opResult {
	ts := []*types.DataType{types.StringType()}
	src, _ := newStaticSource(ts, types.NewRow("OK"))
	return &opResult{kind: ResultKindSuccess, names: []string{"result"}, types: ts, src: src}
}

// resultOf turns a TableResult into what the gateway serves. An INSERT or
// statement set answers, as Flink's gateway does, with one column "job id"
// holding the job's id.
func resultOf(res *table.TableResult) (*opResult, error) {
	kind := res.ResultKind().String()
	if jc := res.JobClient(); jc != nil && !res.IsQuery() {
		ts := []*types.DataType{types.StringType()}
		src, err := newStaticSource(ts, types.NewRow(jc.JobID()))
		if err != nil {
			return nil, err
		}
		return &opResult{kind: kind, jobID: jc.JobID(), job: jc, names: []string{"job id"}, types: ts, src: src}, nil
	}
	it, err := res.Collect()
	if err != nil {
		return nil, err
	}
	schema := res.Schema()
	r := &opResult{kind: kind, isQuery: res.IsQuery(), names: schema.GetFieldNames(), types: schema.GetFieldDataTypes(), src: &iterSource{it}, buffer: res.ResultBuffer()}
	if jc := res.JobClient(); jc != nil {
		r.jobID, r.job = jc.JobID(), jc
	}
	return r, nil
}
