package gateway

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/runtime"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// collectAll runs a statement and returns its rows (kind and values).
func collectAll(t *testing.T, e table.Engine, statement string) (table.StatementResult, []*types.Row) {
	t.Helper()
	res, err := e.ExecuteStatement(context.Background(), statement, sql.Pos{})
	if err != nil {
		t.Fatalf("%s: %v", statement, err)
	}
	rows, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []*types.Row
	for rows.Next() {
		r := rows.Row()
		out = append(out, &types.Row{Kind: r.Kind, Values: r.Values})
	}
	if err := rows.Err(); err != nil {
		t.Fatalf("%s: %v", statement, err)
	}
	return res, out
}

func embedded(t *testing.T, streaming bool) *table.EmbeddedEngine {
	s := table.InBatchMode()
	if streaming {
		s = table.InStreamingMode()
	}
	env := table.MustCreate(s)
	// one task, as the remote sessions compared with it: rows in the
	// order one task gives (the default is the number of cores)
	env.Config().Set("parallelism.default", "1")
	return table.NewEmbeddedEngine(env)
}

// TestRemoteMatchesEmbedded runs the same statements on the embedded
// engine and through the gateway and compares schemas, kinds and values
// (every type round-trips through Flink's JSON format).
func TestRemoteMatchesEmbedded(t *testing.T) {
	g := newTestGateway(t, Config{})
	for _, streaming := range []bool{false, true} {
		mode := map[bool]string{false: "batch", true: "streaming"}[streaming]
		// both at parallelism 1: rows and the changelog below in one task's order
		remote := g.connect(t, map[string]string{"execution.runtime-mode": mode, "parallelism.default": "1"})
		local := embedded(t, streaming)
		stmts := []string{
			`CREATE VIEW v AS SELECT * FROM (VALUES
				(1, 'a', TIMESTAMP '2024-01-02 03:04:05.123456', DATE '2024-02-29', CAST(1.50 AS DECIMAL(5,2)), 1.5e0, TRUE),
				(2, 'b"\', TIMESTAMP '1969-12-31 23:59:59.9', DATE '1900-01-01', CAST(-2.25 AS DECIMAL(5,2)), CAST(NULL AS DOUBLE), FALSE),
				(1, 'ünï', NULL, NULL, NULL, -0.1e0, NULL)) AS t(k, s, ts, d, dc, dbl, b)`,
			"SELECT * FROM v",
			"SELECT k, COUNT(*) AS c, SUM(dc) AS total, MAX(s) AS m FROM v GROUP BY k",
			"SELECT CAST(1 AS TINYINT), CAST(2 AS SMALLINT), CAST(3 AS BIGINT), CAST(1.25 AS FLOAT), CAST('12:34:56.789' AS TIME(3)), " +
				"X'CAFE', ARRAY[1, NULL, 3], MAP['k', 1, 'j', NULL], ROW(1, 'x'), INTERVAL '2' DAY, INTERVAL '14' MONTH, " +
				"CAST(TIMESTAMP '2024-05-06 07:08:09.5' AS TIMESTAMP_LTZ(3)), CAST(NULL AS STRING)",
			"SHOW TABLES",
			"DESCRIBE v",
			"SET 'x.y' = 'z'",
		}
		for _, st := range stmts {
			lres, lrows := collectAll(t, local, st)
			rres, rrows := collectAll(t, remote, st)
			if lres.ResultKind() != rres.ResultKind() || lres.IsQuery() != rres.IsQuery() || lres.IsStreaming() != rres.IsStreaming() {
				t.Errorf("%s %s: kind %v/%v query %v/%v streaming %v/%v", mode, st, lres.ResultKind(), rres.ResultKind(),
					lres.IsQuery(), rres.IsQuery(), lres.IsStreaming(), rres.IsStreaming())
			}
			if ls, rs := lres.Schema().String(), rres.Schema().String(); ls != rs {
				t.Errorf("%s %s: schema\n%s\nremote\n%s", mode, st, ls, rs)
			}
			if lres.Message() != rres.Message() {
				t.Errorf("%s %s: message %q, remote %q", mode, st, lres.Message(), rres.Message())
			}
			if len(lrows) != len(rrows) {
				t.Errorf("%s %s: %d rows, remote %d", mode, st, len(lrows), len(rrows))
				continue
			}
			for i := range lrows {
				if !reflect.DeepEqual(lrows[i], rrows[i]) {
					t.Errorf("%s %s: row %d\n local %s %#v\nremote %s %#v", mode, st, i, lrows[i].Kind, lrows[i].Values, rrows[i].Kind, rrows[i].Values)
				}
			}
		}
		// streaming aggregates emit the same changelog (-U/+U) remotely
		if streaming {
			_, rows := collectAll(t, remote, "SELECT k, COUNT(*) AS c FROM v GROUP BY k")
			var kinds []string
			for _, r := range rows {
				kinds = append(kinds, r.Kind.ShortString()+fmt.Sprint(r.Values))
			}
			if got := strings.Join(kinds, " "); got != "+I[1 1] +I[2 1] -U[1 1] +U[1 2]" {
				t.Errorf("changelog %s", got)
			}
		}
	}
}

// TestRemotePaging reads a result of many pages (PageRows 64): every row
// arrives once, in order.
func TestRemotePaging(t *testing.T) {
	g := newTestGateway(t, Config{PageRows: 64})
	// one datagen split, so that the ids arrive in order
	e := g.connect(t, map[string]string{"execution.runtime-mode": "batch", "parallelism.default": "1"})
	const n = 20000
	if _, err := e.ExecuteSQL(fmt.Sprintf("CREATE TABLE seq (id BIGINT, s STRING) WITH ('connector' = 'datagen', "+
		"'number-of-rows' = '%d', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '%d', 'fields.s.length' = '4', 'rows-per-second' = '100000000')", n, n)); err != nil {
		t.Fatal(err)
	}
	res, err := e.ExecuteSQL("SELECT id, s FROM seq")
	if err != nil {
		t.Fatal(err)
	}
	it, err := res.CollectRows()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	next := int64(1)
	for it.Next() {
		r := it.Row()
		if id := r.Values[0].(int64); id != next {
			t.Fatalf("row %d has id %d", next, id)
		}
		if s := r.Values[1].(string); len(s) != 4 {
			t.Fatalf("row %d: s %q", next, s)
		}
		next++
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	if next-1 != n {
		t.Fatalf("read %d rows, want %d", next-1, n)
	}
	if _, err := res.Collect(); !errors.Is(err, table.ErrAlreadyCollected) {
		t.Errorf("second Collect: %v", err)
	}
}

// TestRemoteCancelAndClose reads a few rows of an unbounded query, closes
// the iterator and checks that the gateway cancelled the job.
func TestRemoteCancelAndClose(t *testing.T) {
	g := newTestGateway(t, Config{})
	e := g.connect(t, nil)
	ctx := context.Background()
	if _, err := e.ExecuteSQL("CREATE TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000')"); err != nil {
		t.Fatal(err)
	}
	res, err := e.ExecuteSQL("SELECT a FROM gen")
	if err != nil {
		t.Fatal(err)
	}
	if !specJobID.MatchString(res.JobID()) {
		t.Fatalf("job id %q", res.JobID())
	}
	it, _ := res.CollectRows()
	for i := 0; i < 5; i++ {
		if !it.Next() {
			t.Fatalf("row %d: %v", i, it.Err())
		}
	}
	if err := it.Close(); err != nil {
		t.Fatal(err)
	}
	if err := e.WaitJob(ctx, res.JobID()); err == nil || !strings.Contains(err.Error(), "CANCELED") || !errors.Is(err, table.ErrCanceled) || !errors.Is(err, runtime.ErrCanceled) {
		t.Errorf("WaitJob after Close: %v, want CANCELED matching table.ErrCanceled", err)
	}
	// the operation is gone
	if _, err := e.Client().OperationStatus(ctx, e.SessionHandle(), res.OperationHandle()); err == nil {
		t.Error("the operation survived Close")
	}
	// CancelJob stops a job through STOP JOB
	res2, err := e.ExecuteSQL("SELECT a FROM gen")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.CancelJob(ctx, res2.JobID()); err != nil {
		t.Fatal(err)
	}
	if err := e.WaitJob(ctx, res2.JobID()); err == nil || !strings.Contains(err.Error(), "CANCELED") {
		t.Errorf("WaitJob after CancelJob: %v", err)
	}
	it2, _ := res2.CollectRows()
	for it2.Next() {
	}
	var ge *Error
	if !errors.As(it2.Err(), &ge) || !strings.Contains(ge.Error(), "job was cancelled") {
		t.Errorf("reading a cancelled query: %v", it2.Err())
	}
	it2.Close()
}

// TestRemoteErrors checks statement errors and their positions.
func TestRemoteErrors(t *testing.T) {
	g := newTestGateway(t, Config{})
	e := g.connect(t, batchMode)
	_, err := e.ExecuteSQL("SELEC 1")
	var ge *Error
	if !errors.As(err, &ge) || ge.StatusCode != 500 || !strings.Contains(err.Error(), "line 1, column 1") || !ge.Positioned() {
		t.Errorf("syntax error: %v", err)
	}
	// a statement from line 3, column 5 of a script reports script positions
	_, err = e.ExecuteStatement(context.Background(), "SELECT nope FROM (VALUES (1)) AS t(a)", sql.Pos{Line: 3, Column: 5, Offset: 40})
	if err == nil || !strings.HasPrefix(err.Error(), "From line 3, column 12 to line 3, column 15: Column 'nope' not found") {
		t.Errorf("validation error: %v", err)
	}
	_, local := embedded(t, false).ExecuteStatement(context.Background(), "SELECT nope FROM (VALUES (1)) AS t(a)", sql.Pos{Line: 3, Column: 5, Offset: 40})
	if local == nil || err == nil || local.Error() != err.Error() {
		t.Errorf("embedded %v, remote %v", local, err)
	}
}

// TestRemoteCatalogBrowsing compares the catalog tree and completion over
// the gateway with the embedded engine's.
func TestRemoteCatalogBrowsing(t *testing.T) {
	g := newTestGateway(t, Config{})
	remote := g.connect(t, batchMode)
	local := embedded(t, false)
	ctx := context.Background()
	for _, e := range []table.Engine{local, remote} {
		for _, st := range []string{"CREATE DATABASE db2", "CREATE TABLE db2.t (id INT NOT NULL, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED, WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH ('connector' = 'datagen')",
			"CREATE VIEW db2.v AS SELECT id FROM db2.t"} {
			if _, err := e.ExecuteStatement(ctx, st, sql.Pos{}); err != nil {
				t.Fatal(err)
			}
		}
	}
	type tree struct {
		Catalogs  []string
		Databases []string
		Tables    []table.TableInfo
		Columns   []table.ColumnInfo
		Complete  []string
	}
	get := func(e table.Engine) tree {
		var tr tree
		var err error
		if tr.Catalogs, err = e.ListCatalogs(ctx); err != nil {
			t.Fatal(err)
		}
		if tr.Databases, err = e.ListDatabases(ctx, "default_catalog"); err != nil {
			t.Fatal(err)
		}
		if tr.Tables, err = e.ListTables(ctx, "default_catalog", "db2"); err != nil {
			t.Fatal(err)
		}
		if tr.Columns, err = e.ListColumns(ctx, "default_catalog", "db2", "t"); err != nil {
			t.Fatal(err)
		}
		if tr.Complete, err = e.CompleteStatement(ctx, "SELECT * FROM db2.", 18); err != nil {
			t.Fatal(err)
		}
		return tr
	}
	lt, rt := get(local), get(remote)
	if !reflect.DeepEqual(lt, rt) {
		t.Errorf("embedded %+v\nremote %+v", lt, rt)
	}
	want := tree{
		Catalogs:  []string{"default_catalog"},
		Databases: []string{"db2", "default_database"},
		Tables:    []table.TableInfo{{Name: "t"}, {Name: "v", IsView: true}},
		Columns: []table.ColumnInfo{{Name: "id", Type: "INT", Key: "PRI(id)"},
			{Name: "ts", Type: "TIMESTAMP(3)", Nullable: true, Watermark: "`ts` - INTERVAL '1' SECOND"}},
		Complete: []string{"t", "v"},
	}
	if !reflect.DeepEqual(rt, want) {
		t.Errorf("remote tree %+v\nwant %+v", rt, want)
	}
}

// fakeClock is a settable clock for session expiry.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// TestSessionExpiry drives expiry with a fake clock and ticker: a
// heartbeat keeps a session; an idle one is closed with its jobs.
func TestSessionExpiry(t *testing.T) {
	clock := &fakeClock{now: time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)}
	ticks := make(chan time.Time)
	g := newTestGateway(t, Config{IdleTimeout: 10 * time.Minute, Now: clock.Now, Ticks: ticks})
	busy := g.openSession(t, nil)
	idle := g.openSession(t, nil)
	g.fetchUntilReady(t, idle, g.execute(t, idle, "CREATE TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')"))
	op := g.execute(t, idle, "SELECT a FROM gen")
	job := g.fetchUntilReady(t, idle, op)["jobID"].(string)
	ss, err := g.srv.session(idle)
	if err != nil {
		t.Fatal(err)
	}
	jc, ok := ss.env.JobByID(job)
	if !ok {
		t.Fatal("no job")
	}
	tick := func() { ticks <- clock.Now() }

	clock.Advance(6 * time.Minute)
	g.mustOK(t, "POST", "/v2/sessions/"+busy+"/heartbeat", nil)
	tick()
	if g.srv.SessionCount() != 2 {
		t.Fatalf("sessions closed too early: %d", g.srv.SessionCount())
	}
	clock.Advance(6 * time.Minute) // idle: 12 min, busy: 6 min since its heartbeat
	tick()
	tick() // the loop handled the first tick once it takes the second
	if n := g.srv.SessionCount(); n != 1 {
		t.Fatalf("%d sessions open, want 1", n)
	}
	if _, err := g.srv.session(busy); err != nil {
		t.Errorf("the heart-beaten session expired: %v", err)
	}
	status, raw := g.call(t, "GET", "/v2/sessions/"+idle, nil)
	if status != 500 || !strings.Contains(string(raw), "does not exist") {
		t.Errorf("expired session answers %d %s", status, raw)
	}
	select {
	case <-jc.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the expired session's job still runs")
	}
	if st := jc.Status(); st != table.JobCanceled {
		t.Errorf("job %s", st)
	}
}

// TestLoopbackWithToken serves over a real loopback listener with a
// bearer token.
func TestLoopbackWithToken(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() {
		done <- ListenAndServe(ctx, "127.0.0.1:0", Config{Token: "tok3n-tok3n-tok3n"}, func(a net.Addr) { addrc <- a })
	}()
	var addr net.Addr
	select {
	case addr = <-addrc:
	case err := <-done:
		t.Fatal(err)
	}
	url := "http://" + addr.String()
	hc := &http.Client{Transport: &http.Transport{}}
	defer hc.CloseIdleConnections()
	e, err := Connect(ctx, url, RemoteOptions{Token: "tok3n-tok3n-tok3n", HTTPClient: hc, Properties: batchMode})
	if err != nil {
		t.Fatal(err)
	}
	_, rows := collectAll(t, e, "SELECT 6 * 7")
	if len(rows) != 1 || rows[0].Values[0] != int32(42) {
		t.Errorf("rows %v", rows)
	}
	e.Close()
	for _, tok := range []string{"", "tok3", "tok3n2", "TOK3N"} {
		_, err := Connect(ctx, url, RemoteOptions{Token: tok, HTTPClient: hc})
		var ge *Error
		if !errors.As(err, &ge) || ge.StatusCode != http.StatusUnauthorized || ge.Error() != "Unauthorized." {
			t.Errorf("token %q: %v", tok, err)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("ListenAndServe: %v", err)
	}
}

// TestRemoteJobs lists a session's jobs with what a job list needs; what
// the gateway does not report stays empty.
func TestRemoteJobs(t *testing.T) {
	g := newTestGateway(t, Config{})
	e := g.connect(t, nil)
	if _, err := e.ExecuteSQL("CREATE TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')"); err != nil {
		t.Fatal(err)
	}
	res, err := e.ExecuteSQL("SELECT a FROM gen")
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := e.RemoteJobs(context.Background())
	if err != nil || len(jobs) != 1 {
		t.Fatalf("jobs %v %v", jobs, err)
	}
	j := jobs[0]
	_, hasMetrics := j.NodeMetrics(nil)
	if j.JobID() != res.JobID() || j.Statement() != "SELECT a FROM gen" || j.JobName() != "collect" ||
		j.Status() != runtime.Running || j.StartTime().IsZero() || j.Plan() != nil || hasMetrics || j.Err() != nil {
		t.Errorf("job %+v status %v", j.info, j.Status())
	}
	if err := j.Cancel(); err != nil {
		t.Fatal(err)
	}
	ok := waitFor(10*time.Second, func() bool {
		jobs, err := e.RemoteJobs(context.Background())
		return err == nil && len(jobs) == 1 && jobs[0].Status() == runtime.Canceled
	})
	if !ok {
		t.Error("the job was not cancelled")
	}
}

// TestUnreachableGatewayIsAConnectionError: a gateway that went away
// after the session was opened, and one that was never there, fail with a
// *ConnectionError that names the address and the reason only.
func TestUnreachableGatewayIsAConnectionError(t *testing.T) {
	g := newTestGateway(t, Config{})
	e := g.connect(t, batchMode)
	addr := strings.TrimPrefix(g.url, "http://")
	g.hc.CloseIdleConnections()
	g.hs.Close()
	_, err := e.ExecuteSQL("SELECT 42")
	var ce *ConnectionError
	if !errors.As(err, &ce) {
		t.Fatalf("%T %v", err, err)
	}
	if want := "cannot reach the SQL Gateway at " + addr + ": connection refused"; err.Error() != want || ce.Addr != addr {
		t.Errorf("error %q, want %q", err, want)
	}
	if !errors.Is(err, syscall.ECONNREFUSED) || ce.Method != http.MethodPost || !strings.HasSuffix(ce.URL, "/statements") {
		t.Errorf("cause %v, request %s %s", ce.Err, ce.Method, ce.URL)
	}

	_, err = Connect(context.Background(), "http://"+addr, RemoteOptions{HTTPClient: g.hc})
	if !errors.As(err, &ce) || ce.Reason() != "connection refused" {
		t.Errorf("connect: %T %v", err, err)
	}
	// a context cancelled by the caller is not the gateway's fault
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Connect(ctx, "http://"+addr, RemoteOptions{HTTPClient: g.hc})
	if errors.As(err, &ce) || !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %T %v", err, err)
	}
}
