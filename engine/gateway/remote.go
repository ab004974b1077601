package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/plan"
	"github.com/riffle-sql/riffle/engine/runtime"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// RemoteOptions configure Connect.
type RemoteOptions struct {
	// Token is the bearer token of the gateway, if it wants one.
	Token string
	// SessionName names the session on the gateway.
	SessionName string
	// Properties are the session's properties (its configuration), e.g.
	// {"execution.runtime-mode": "batch"}.
	Properties map[string]string
	// HTTPClient is the HTTP client (see ClientOptions).
	HTTPClient *http.Client
	// Heartbeat is how often the session is kept alive while the engine is
	// open (default 60 s; negative: never).
	Heartbeat time.Duration
	// ClusterREST is the REST API of the Flink cluster the gateway submits
	// to (its JobManager's rest.address:rest.port, e.g.
	// "http://127.0.0.1:8081"), optional. A SQL Gateway says little about
	// jobs: SHOW JOBS gives id, name, state and start time of every job of
	// the cluster, and nothing tells when a job ended. With ClusterREST
	// set, Jobs, WaitJob and the RemoteJob snapshots read the cluster's
	// /jobs/overview and /jobs/:jobid instead (end time included), and
	// CancelJob falls back to the cluster's cancel request when STOP JOB
	// fails. Riffle's own gateway has no such API: leave it empty there.
	ClusterREST string
	// PollMin and PollMax bound the back-off between fetches that found no
	// rows (NOT_READY, or an empty page of a running query): it starts at
	// PollMin and doubles up to PollMax (defaults 10 ms and 1 s).
	PollMin, PollMax time.Duration
}

// RemoteEngine runs SQL on a SQL Gateway session, Riffle's or a Flink
// cluster's. It has the shape of the embedded API (ExecuteSQL returns a
// result whose Collect pages through the rows) and implements
// table.Engine, so `riffle sql` and the workbench drive it like the
// embedded engine. It is safe for concurrent use.
type RemoteEngine struct {
	client  *Client
	session string
	opts    RemoteOptions
	info    GetInfoResponse
	// ltzWallClock: the server writes TIMESTAMP_LTZ values as wall-clock
	// times in the session time zone, as Apache Flink's and Riffle's
	// gateways both do; see wallClockToInstant.
	ltzWallClock bool

	mu         sync.Mutex
	conf       map[string]string // cached session configuration; nil = stale
	statements map[string]string // job id -> the statement that started it
	closed     bool
	stop       chan struct{}
	hbDone     chan struct{}
}

// Connect negotiates the API version with the gateway at endpoint, opens a
// session with opts.Properties and starts heart-beating it.
func Connect(ctx context.Context, endpoint string, opts RemoteOptions) (*RemoteEngine, error) {
	c, err := NewClient(endpoint, ClientOptions{Token: opts.Token, HTTPClient: opts.HTTPClient})
	if err != nil {
		return nil, err
	}
	v, err := c.Negotiate(ctx)
	if err != nil {
		var ge *Error
		if errors.As(err, &ge) && ge.StatusCode == http.StatusNotFound {
			// e.g. a Flink cluster's REST API (rest.port) instead of its
			// SQL Gateway (sql-gateway.endpoint.rest.port)
			return nil, fmt.Errorf("%s is not a SQL Gateway: GET /api_versions answered %d %s (a Flink cluster's own REST API answers so; the gateway listens on sql-gateway.endpoint.rest.port)", endpoint, ge.StatusCode, ge.Error())
		}
		return nil, err
	}
	if v < V2 {
		return nil, fmt.Errorf("gateway: %s speaks only REST API %s; Riffle needs v2 or later", endpoint, v)
	}
	info, err := c.Info(ctx)
	if err != nil {
		return nil, err
	}
	id, err := c.OpenSession(ctx, OpenSessionRequest{SessionName: opts.SessionName, Properties: opts.Properties})
	if err != nil {
		return nil, err
	}
	e := newRemote(c, id, opts)
	e.info = info
	e.ltzWallClock = true // Flink's and Riffle's gateways alike (RowDataLocalTimeZoneConverter)
	return e, nil
}

// FlinkProductName is the product name Apache Flink's SQL Gateway gives in
// GET /info.
const FlinkProductName = "Apache Flink"

// ServerInfo is the gateway's product name and version (GET /info) as
// Connect found them.
func (e *RemoteEngine) ServerInfo() GetInfoResponse { return e.info }

func newRemote(c *Client, session string, opts RemoteOptions) *RemoteEngine {
	if opts.Heartbeat == 0 {
		opts.Heartbeat = 60 * time.Second
	}
	if opts.PollMin <= 0 {
		opts.PollMin = 10 * time.Millisecond
	}
	if opts.PollMax <= 0 {
		opts.PollMax = time.Second
	}
	e := &RemoteEngine{client: c, session: session, opts: opts, stop: make(chan struct{}), hbDone: make(chan struct{})}
	go e.heartbeat()
	return e
}

func (e *RemoteEngine) heartbeat() {
	defer close(e.hbDone)
	if e.opts.Heartbeat < 0 {
		<-e.stop
		return
	}
	t := time.NewTicker(e.opts.Heartbeat)
	defer t.Stop()
	for {
		select {
		case <-e.stop:
			return
		case <-t.C:
			ctx, cancel := context.WithTimeout(context.Background(), e.opts.Heartbeat)
			_ = e.client.Heartbeat(ctx, e.session)
			cancel()
		}
	}
}

// Client returns the underlying REST client.
func (e *RemoteEngine) Client() *Client { return e.client }

// SessionHandle returns the session's handle.
func (e *RemoteEngine) SessionHandle() string { return e.session }

// Config returns the session's configuration (cached until a statement
// other than a query runs).
func (e *RemoteEngine) Config(ctx context.Context) (map[string]string, error) {
	e.mu.Lock()
	conf := e.conf
	e.mu.Unlock()
	if conf != nil {
		return conf, nil
	}
	conf, err := e.client.GetSessionConfig(ctx, e.session)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	e.conf = conf
	e.mu.Unlock()
	return conf, nil
}

func (e *RemoteEngine) invalidateConfig() {
	e.mu.Lock()
	e.conf = nil
	e.mu.Unlock()
}

// ExecuteSQL runs one statement (see ExecuteSQLContext).
func (e *RemoteEngine) ExecuteSQL(statement string) (*RemoteResult, error) {
	return e.ExecuteSQLContext(context.Background(), statement)
}

// ExecuteSQLContext submits one statement and waits until the gateway has
// executed it (for a query: planned and started; for an INSERT with
// table.dml-sync: run), polling NOT_READY with back-off. Errors of the
// statement come back as *Error. The result's rows are fetched as Collect
// reads them.
func (e *RemoteEngine) ExecuteSQLContext(ctx context.Context, statement string) (*RemoteResult, error) {
	return e.execute(ctx, statement)
}

// ExecuteStatement implements table.Engine. A statement from a larger
// script is sent with as many leading line breaks and spaces as put it at
// its place in the script, so that the gateway's error positions refer to
// the script.
func (e *RemoteEngine) ExecuteStatement(ctx context.Context, statement string, at sql.Pos) (table.StatementResult, error) {
	if at.Line > 1 || at.Column > 1 {
		statement = strings.Repeat("\n", max(at.Line-1, 0)) + strings.Repeat(" ", max(at.Column-1, 0)) + statement
	}
	res, err := e.execute(ctx, statement)
	if err != nil {
		return nil, err
	}
	return res, nil
}

func (e *RemoteEngine) execute(ctx context.Context, statement string) (*RemoteResult, error) {
	op, err := e.client.ExecuteStatement(ctx, e.session, ExecuteStatementRequest{Statement: statement})
	if err != nil {
		return nil, err
	}
	first, err := e.fetchReady(ctx, op, RowFormatJSON)
	plain := false
	if isJSONMappingError(err) {
		// Flink's JSON row format cannot write this result (a MAP whose
		// key is not a string): fetch the same page as text
		plain = true
		first, err = e.fetchReady(ctx, op, RowFormatPlainText)
	} else if err == nil && e.info.ProductName == FlinkProductName && needsPlainText(first.Columns) {
		plain = true
		if len(first.Rows) > 0 {
			first, err = e.fetchReady(ctx, op, RowFormatPlainText)
		}
	}
	if err != nil {
		// release the operation; its error is what matters
		cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, _ = e.client.CloseOperation(cctx, e.session, op)
		cancel()
		return nil, err
	}
	res := &RemoteResult{eng: e, op: op, first: first, isQuery: first.IsQueryResult, jobID: first.JobID, plain: plain}
	res.kind = table.SuccessWithContent
	if first.ResultKind == ResultKindSuccess {
		res.kind = table.Success
	}
	names := make([]string, len(first.Columns))
	ts := make([]*types.DataType, len(first.Columns))
	for i, c := range first.Columns {
		names[i], ts[i] = c.Name, c.Type
		if plain {
			ts[i] = types.StringType()
		}
	}
	res.schema = table.NewTableSchema(names, ts)
	if res.jobID != "" {
		e.mu.Lock()
		if e.statements == nil || len(e.statements) >= maxRememberedStatements {
			e.statements = map[string]string{}
		}
		e.statements[res.jobID] = strings.TrimSpace(statement)
		e.mu.Unlock()
	}
	if !res.isQuery {
		e.invalidateConfig() // SET, RESET, USE... may have changed it
	}
	conf, err := e.Config(ctx)
	if err != nil {
		res.release()
		return nil, err
	}
	res.streaming = !strings.EqualFold(conf["execution.runtime-mode"], "batch")
	res.zone = time.Local
	if z := conf["table.local-time-zone"]; z != "" && z != "default" {
		if loc, err := time.LoadLocation(z); err == nil {
			res.zone = loc
		}
	}
	if e.ltzWallClock {
		for _, t := range ts {
			if hasLTZ(t) {
				res.ltzZone = res.zone
				break
			}
		}
	}
	res.maxWidth = math.MaxInt32 // as the embedded engine: non-query results are not truncated
	if res.isQuery {
		res.maxWidth = 30
	}
	for _, k := range []string{"sql-client.display.max-column-width", "table.display.max-column-width"} {
		if n, err := strconv.Atoi(conf[k]); err == nil && n > 0 && res.isQuery {
			res.maxWidth = n
			break
		}
	}
	res.dmlSync = strings.EqualFold(conf["table.dml-sync"], "true")
	if res.kind == table.Success || (!res.isQuery && res.jobID != "") {
		// nothing worth fetching later: release the operation now
		res.drainStatic(ctx)
	}
	return res, nil
}

// fetchReady fetches token 0 until the statement has been executed.
func (e *RemoteEngine) fetchReady(ctx context.Context, op string, format RowFormat) (*FetchResults, error) {
	wait := e.opts.PollMin
	for {
		fr, err := e.client.FetchResults(ctx, e.session, op, 0, format)
		if err != nil {
			return nil, err
		}
		if fr.ResultType != ResultNotReady {
			return fr, nil
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return nil, err
		}
		wait = min(wait*2, e.opts.PollMax)
	}
}

// CompleteStatement implements table.Engine with the complete-statement
// endpoint.
func (e *RemoteEngine) CompleteStatement(ctx context.Context, statement string, position int) ([]string, error) {
	return e.client.CompleteStatement(ctx, e.session, statement, position)
}

// ListCatalogs implements table.Engine (SHOW CATALOGS).
func (e *RemoteEngine) ListCatalogs(ctx context.Context) ([]string, error) {
	return table.ListCatalogsSQL(ctx, e)
}

// ListDatabases implements table.Engine (SHOW DATABASES FROM).
func (e *RemoteEngine) ListDatabases(ctx context.Context, catalog string) ([]string, error) {
	return table.ListDatabasesSQL(ctx, e, catalog)
}

// ListTables implements table.Engine (SHOW TABLES, SHOW VIEWS).
func (e *RemoteEngine) ListTables(ctx context.Context, catalog, database string) ([]table.TableInfo, error) {
	return table.ListTablesSQL(ctx, e, catalog, database)
}

// ListColumns implements table.Engine (DESCRIBE).
func (e *RemoteEngine) ListColumns(ctx context.Context, catalog, database, tbl string) ([]table.ColumnInfo, error) {
	return table.ListColumnsSQL(ctx, e, catalog, database, tbl)
}

// Jobs implements table.Engine: the jobs this engine started (queries,
// INSERTs, statement sets), with their current state. A Flink gateway's
// SHOW JOBS lists every job of the cluster, other clients' too; they are
// left out here, as the embedded engine and Riffle's gateway list only the
// session's jobs. With RemoteOptions.ClusterREST the states come from the
// cluster's /jobs/overview, otherwise from SHOW JOBS.
func (e *RemoteEngine) Jobs(ctx context.Context) ([]table.JobInfo, error) {
	all, err := e.allJobs(ctx)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []table.JobInfo
	for _, j := range all {
		if _, ok := e.statements[j.info.ID]; ok {
			out = append(out, j.info)
		}
	}
	return out, nil
}

// remoteJobInfo is a job as the gateway or the cluster reports it.
type remoteJobInfo struct {
	info table.JobInfo
	end  time.Time // zero when unknown or still running
}

// allJobs lists every job the gateway (SHOW JOBS) or the cluster
// (/jobs/overview) knows.
func (e *RemoteEngine) allJobs(ctx context.Context) ([]remoteJobInfo, error) {
	if e.opts.ClusterREST != "" {
		var body struct {
			Jobs []clusterJobJSON `json:"jobs"`
		}
		if _, err := e.clusterGet(ctx, "/jobs/overview", &body); err != nil {
			return nil, err
		}
		out := make([]remoteJobInfo, len(body.Jobs))
		for i, j := range body.Jobs {
			out[i] = j.info()
		}
		return out, nil
	}
	infos, err := table.JobsSQL(ctx, e)
	if err != nil {
		return nil, err
	}
	out := make([]remoteJobInfo, len(infos))
	for i, j := range infos {
		out[i] = remoteJobInfo{info: j}
	}
	return out, nil
}

// jobState returns a job's state ("" with found false for a job the
// gateway or cluster does not know).
func (e *RemoteEngine) jobState(ctx context.Context, jobID string) (state string, found bool, err error) {
	if e.opts.ClusterREST != "" {
		var j clusterJobJSON
		status, err := e.clusterGet(ctx, "/jobs/"+url.PathEscape(jobID), &j)
		if status == http.StatusNotFound {
			return "", false, nil
		}
		if err != nil {
			return "", false, err
		}
		return j.State, true, nil
	}
	all, err := e.allJobs(ctx)
	if err != nil {
		return "", false, err
	}
	for _, j := range all {
		if j.info.ID == jobID {
			return j.info.Status, true, nil
		}
	}
	return "", false, nil
}

// jobCanceledError is WaitJob's error for a CANCELED job: its text is
// "job <id> CANCELED" and errors.Is matches table.ErrCanceled.
type jobCanceledError string

func (id jobCanceledError) Error() string     { return "job " + string(id) + " CANCELED" }
func (jobCanceledError) Is(target error) bool { return target == table.ErrCanceled }

// WaitJob implements table.Engine by polling the job's state with
// back-off (50 ms doubling up to 2 s): nil when it FINISHED, an error
// naming the job when it was CANCELED ("job <id> CANCELED", matching
// table.ErrCanceled with errors.Is, as the embedded engine's does) or
// FAILED, or when the gateway or cluster does not know it
// (table.ErrJobNotFound).
func (e *RemoteEngine) WaitJob(ctx context.Context, jobID string) error {
	wait := 50 * time.Millisecond
	for {
		state, found, err := e.jobState(ctx, jobID)
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("job %s: %w", jobID, table.ErrJobNotFound)
		}
		switch state {
		case "FINISHED":
			return nil
		case "FAILED":
			if why := e.jobFailure(ctx, jobID); why != "" {
				return fmt.Errorf("job %s FAILED: %s", jobID, why)
			}
			return fmt.Errorf("job %s %s", jobID, state)
		case "CANCELED":
			return jobCanceledError(jobID)
		case "SUSPENDED":
			return fmt.Errorf("job %s %s", jobID, state)
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return err
		}
		wait = min(wait*2, 2*time.Second)
	}
}

// jobFailure is why a failed job failed, as the cluster's REST API
// (/jobs/:jobid/exceptions) tells: the root cause of the latest exception,
// "NoResourceAvailableException: Could not acquire the minimum required
// resources."; "" without RemoteOptions.ClusterREST or when unknown.
func (e *RemoteEngine) jobFailure(ctx context.Context, jobID string) string {
	if e.opts.ClusterREST == "" {
		return ""
	}
	var body struct {
		History struct {
			Entries []struct {
				Name       string `json:"exceptionName"`
				StackTrace string `json:"stacktrace"`
			} `json:"entries"`
		} `json:"exceptionHistory"`
		RootException string `json:"root-exception"`
	}
	if _, err := e.clusterGet(ctx, "/jobs/"+url.PathEscape(jobID)+"/exceptions", &body); err != nil {
		return ""
	}
	trace := body.RootException
	if len(body.History.Entries) > 0 {
		trace = body.History.Entries[0].StackTrace
	}
	return javaRootCause(trace)
}

// javaRootCause is the last "Caused by:" of a Java stack trace (or its
// first line), with the exception's simple class name: "java.lang.
// ArithmeticException: / by zero" becomes "ArithmeticException: / by zero".
func javaRootCause(trace string) string {
	line := trace
	if i := strings.LastIndex(trace, "\nCaused by: "); i >= 0 {
		line = trace[i+len("\nCaused by: "):]
	}
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(line)
	if i := strings.Index(line, ": "); i > 0 && !strings.Contains(line[:i], " ") {
		if j := strings.LastIndexByte(line[:i], '.'); j >= 0 {
			line = line[j+1:]
		}
	} else if j := strings.LastIndexByte(line, '.'); j >= 0 && !strings.Contains(line, " ") {
		line = line[j+1:]
	}
	return line
}

// CancelJob implements table.Engine with STOP JOB; when that fails and
// RemoteOptions.ClusterREST is set, the cluster is asked to cancel the job
// (PATCH /jobs/:jobid?mode=cancel) and the STOP JOB error is returned only
// if that fails too.
func (e *RemoteEngine) CancelJob(ctx context.Context, jobID string) error {
	res, err := e.execute(ctx, "STOP JOB '"+strings.ReplaceAll(jobID, "'", "''")+"'")
	if err == nil {
		res.release()
		return nil
	}
	if e.opts.ClusterREST == "" || ctx.Err() != nil {
		return err
	}
	if _, _, rerr := e.clusterRequest(ctx, http.MethodPatch, "/jobs/"+url.PathEscape(jobID)+"?mode=cancel"); rerr != nil {
		return err
	}
	return nil
}

// clusterJobJSON is a job as the cluster's REST API describes it
// (/jobs/overview entries and /jobs/:jobid); times are epoch milliseconds,
// -1 while unknown.
type clusterJobJSON struct {
	ID    string `json:"jid"`
	Name  string `json:"name"`
	State string `json:"state"`
	Start int64  `json:"start-time"`
	End   int64  `json:"end-time"`
}

func (j clusterJobJSON) info() remoteJobInfo {
	r := remoteJobInfo{info: table.JobInfo{ID: j.ID, Name: j.Name, Status: j.State}}
	if j.Start > 0 {
		r.info.StartTime = time.UnixMilli(j.Start)
	}
	if j.End > 0 {
		r.end = time.UnixMilli(j.End)
	}
	return r
}

// clusterGet GETs a path of the cluster's REST API and decodes the JSON
// answer into out; it returns the HTTP status too.
func (e *RemoteEngine) clusterGet(ctx context.Context, path string, out any) (int, error) {
	raw, status, err := e.clusterRequest(ctx, http.MethodGet, path)
	if err != nil {
		return status, err
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return status, fmt.Errorf("cluster REST API %s: bad answer: %w", path, err)
	}
	return status, nil
}

func (e *RemoteEngine) clusterRequest(ctx context.Context, method, path string) ([]byte, int, error) {
	base := strings.TrimRight(e.opts.ClusterREST, "/")
	if !strings.Contains(base, "://") {
		base = "http://" + base
	}
	req, err := http.NewRequestWithContext(ctx, method, base+path, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("cluster REST API: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := e.client.http.Do(req)
	if err != nil {
		return nil, 0, fmt.Errorf("cannot reach the cluster REST API at %s: %w", base, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, resp.StatusCode, fmt.Errorf("cluster REST API %s %s: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		var er ErrorResponse
		msg := strings.TrimSpace(string(raw))
		if json.Unmarshal(raw, &er) == nil && len(er.Errors) > 0 {
			msg = RootCause(er.Errors[len(er.Errors)-1])
		}
		return nil, resp.StatusCode, fmt.Errorf("cluster REST API %s %s: %s: %s", method, path, resp.Status, msg)
	}
	return raw, resp.StatusCode, nil
}

// Close stops heart-beating and closes the session. Riffle's gateway and
// Flink's alike then cancel the jobs of the session's unfinished queries
// (SELECT) and leave its INSERT jobs running: those outlive the session
// and stay listed, and stoppable, in the gateway's and the cluster's job
// lists (STOP JOB from another session, Flink's web UI or REST API).
func (e *RemoteEngine) Close() error {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return nil
	}
	e.closed = true
	e.mu.Unlock()
	close(e.stop)
	<-e.hbDone
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := e.client.CloseSession(ctx, e.session); err != nil && !SessionLost(err) {
		return err
	}
	return nil // a session the gateway no longer knows is closed already
}

// RemoteResult is the result of a statement run on a gateway, with the
// shape of table.TableResult; it implements table.StatementResult.
type RemoteResult struct {
	eng       *RemoteEngine
	op        string
	first     *FetchResults
	kind      table.ResultKind
	schema    *table.TableSchema
	isQuery   bool
	jobID     string
	streaming bool
	zone      *time.Location
	maxWidth  int
	dmlSync   bool
	// plain: the rows are fetched in PLAIN_TEXT (every column a STRING as
	// Flink's SQL Client shows it), because Flink's JSON row format cannot
	// write them; see needsPlainText
	plain bool
	// ltzZone is set when TIMESTAMP_LTZ values arrive as wall-clock times
	// in this zone (Apache Flink's gateway): Next turns them into instants
	ltzZone *time.Location

	mu        sync.Mutex
	collected bool
	released  bool
	static    []*types.Row // rows of a result already read in full
}

// GetResultKind returns SUCCESS or SUCCESS_WITH_CONTENT.
func (r *RemoteResult) GetResultKind() table.ResultKind { return r.kind }

// GetTableSchema returns the result's columns.
func (r *RemoteResult) GetTableSchema() *table.TableSchema { return r.schema }

// IsQuery reports a query result (isQueryResult).
func (r *RemoteResult) IsQuery() bool { return r.isQuery }

// IsStreaming reports a result of a streaming-mode session.
func (r *RemoteResult) IsStreaming() bool { return r.streaming }

// TimeZone is the session's table.local-time-zone.
func (r *RemoteResult) TimeZone() *time.Location { return r.zone }

// JobID is the job of a query or INSERT, or "".
func (r *RemoteResult) JobID() string { return r.jobID }

// GetJobID is JobID (the name TableResult users know from JobClient).
func (r *RemoteResult) GetJobID() string { return r.jobID }

// OperationHandle is the gateway's handle of the statement's operation.
func (r *RemoteResult) OperationHandle() string { return r.op }

// Message is the SQL Client's line for statements without rows, as the
// embedded engine gives it.
func (r *RemoteResult) Message() string {
	switch {
	case r.kind == table.Success:
		return "[INFO] Execute statement succeeded."
	case !r.isQuery && r.jobID != "":
		if r.dmlSync {
			return "[INFO] Complete execution of the SQL update statement."
		}
		return "[INFO] Submitting SQL update statement to the cluster...\n[INFO] SQL update statement has been successfully submitted to the cluster:\nJob ID: " + r.jobID
	}
	return ""
}

// pageURI is the URI of a next page in the result's row format (a
// gateway's nextResultUri repeats the format of the request before).
func (r *RemoteResult) pageURI(uri string) string {
	if !r.plain || uri == "" {
		return uri
	}
	return strings.Replace(uri, "rowFormat="+string(RowFormatJSON), "rowFormat="+string(RowFormatPlainText), 1)
}

// drainStatic reads a small non-query result in full and closes the
// operation.
func (r *RemoteResult) drainStatic(ctx context.Context) {
	fr := r.first
	rows := append([]*types.Row(nil), fr.Rows...)
	for fr.NextResultURI != "" && fr.ResultType != ResultEOS {
		next, err := r.eng.client.FetchURI(ctx, r.pageURI(fr.NextResultURI))
		if err != nil {
			return // leave it to Collect
		}
		fr = next
		rows = append(rows, fr.Rows...)
	}
	r.mu.Lock()
	r.static = rows
	r.mu.Unlock()
	r.release()
}

// release closes the operation on the gateway (once).
func (r *RemoteResult) release() {
	r.mu.Lock()
	done := r.released
	r.released = true
	r.mu.Unlock()
	if done {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _ = r.eng.client.CloseOperation(ctx, r.eng.session, r.op)
}

// Collect returns an iterator over the rows. It follows nextResultUri page
// by page (fetching the next page while the current one is read) until
// EOS, polling empty pages with back-off. Close the iterator to close the
// operation (an unfinished query is cancelled). Rows can be collected
// once.
func (r *RemoteResult) Collect() (table.Rows, error) {
	it, err := r.CollectRows()
	if err != nil {
		return nil, err
	}
	return it, nil
}

// CollectRows is Collect returning the concrete iterator.
func (r *RemoteResult) CollectRows() (*RemoteRows, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.collected {
		return nil, table.ErrAlreadyCollected
	}
	r.collected = true
	it := &RemoteRows{res: r, ts: r.schema.GetFieldDataTypes(), names: r.schema.GetFieldNames()}
	if r.static != nil || r.released {
		it.rows = r.static
		it.done = true
		return it, nil
	}
	it.rows = r.first.Rows
	if r.first.ResultType == ResultEOS || r.first.NextResultURI == "" {
		it.done = true
		return it, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	it.cancel = cancel
	it.pages = make(chan pageOrErr, 1)
	go it.prefetch(ctx, r.pageURI(r.first.NextResultURI))
	return it, nil
}

// CollectContext is CollectRows bound to ctx: when ctx ends, fetching
// stops, Next returns false after the rows already fetched and Err returns
// ctx's error, and the operation is closed at once, which cancels an
// unfinished query's job on the gateway (Flink cancels it on the
// cluster). Close the iterator as usual.
func (r *RemoteResult) CollectContext(ctx context.Context) (*RemoteRows, error) {
	it, err := r.CollectRows()
	if err != nil {
		return nil, err
	}
	it.ctx = ctx
	it.stopCtx = context.AfterFunc(ctx, func() {
		it.Abort()
		r.release()
	})
	return it, nil
}

// Print writes the result to standard output in tableau layout.
func (r *RemoteResult) Print() error { return r.PrintTo(os.Stdout) }

// PrintTo writes the result in the SQL Client's tableau layout.
func (r *RemoteResult) PrintTo(w io.Writer) error {
	it, err := r.Collect()
	if err != nil {
		return err
	}
	defer it.Close()
	return table.PrintTableau(w, r.schema, it, table.TableauOptions{Streaming: r.isQuery && r.streaming, MaxColumnWidth: r.maxWidth, Zone: r.zone, NullAsEmpty: !r.isQuery})
}

type pageOrErr struct {
	rows []*types.Row
	err  error
}

// RemoteRows iterates a remote result (table.Rows).
type RemoteRows struct {
	res    *RemoteResult
	ts     []*types.DataType
	names  []string
	rows   []*types.Row
	pos    int
	row    *types.Row
	pages  chan pageOrErr
	cancel context.CancelFunc
	done   bool
	err    error
	closed bool
	// ctx and stopCtx are set by CollectContext
	ctx     context.Context
	stopCtx func() bool
}

// prefetch fetches pages ahead of the reader in a pipeline of two
// goroutines, so that fetching a page (the gateway encoding it, the
// transfer) overlaps decoding the previous one: the fetcher follows
// nextResultUri, backs off on empty pages and stops at EOS, on an error or
// when cancelled; the decoder turns pages into rows. At most one fetched
// and one decoded page wait, so memory stays bounded.
func (it *RemoteRows) prefetch(ctx context.Context, uri string) {
	raw := make(chan *FetchResults, 1)
	fetchErr := make(chan error, 1)
	go func() {
		defer close(raw)
		eng := it.res.eng
		wait := eng.opts.PollMin
		for uri != "" {
			fr, err := eng.client.fetchURI(ctx, uri, true)
			if err != nil {
				if ctx.Err() == nil {
					fetchErr <- err
				}
				return
			}
			if fr.ResultType == ResultEOS {
				return
			}
			if len(fr.rawData) > 2 { // not "[]"
				wait = eng.opts.PollMin
				select {
				case raw <- fr:
				case <-ctx.Done():
					return
				}
			} else if fr.NextResultURI != "" {
				if sleepCtx(ctx, wait) != nil {
					return
				}
				wait = min(wait*2, eng.opts.PollMax)
			}
			uri = it.res.pageURI(fr.NextResultURI)
		}
	}()
	defer close(it.pages)
	for fr := range raw {
		if err := fr.decodeData(); err != nil {
			it.send(ctx, pageOrErr{err: err})
			for range raw {
			}
			return
		}
		if len(fr.Rows) > 0 && !it.send(ctx, pageOrErr{rows: fr.Rows}) {
			for range raw {
			}
			return
		}
	}
	select {
	case err := <-fetchErr:
		it.send(ctx, pageOrErr{err: err})
	default:
	}
}

// send hands a page to the reader unless ctx ends first.
func (it *RemoteRows) send(ctx context.Context, p pageOrErr) bool {
	select {
	case it.pages <- p:
		return true
	case <-ctx.Done():
		return false
	}
}

// Next advances to the next row; false at the end or on error.
func (it *RemoteRows) Next() bool {
	for {
		if it.pos < len(it.rows) {
			it.row = it.rows[it.pos]
			it.rows[it.pos] = nil
			it.pos++
			if it.row.Names == nil {
				it.row.Names = it.names
			}
			if z := it.res.ltzZone; z != nil {
				for i, t := range it.ts {
					if i < len(it.row.Values) {
						it.row.Values[i] = wallClockToInstant(it.row.Values[i], t, z)
					}
				}
			}
			return true
		}
		if it.done || it.closed {
			if it.err == nil && it.ctx != nil && it.ctx.Err() != nil {
				it.err = it.ctx.Err()
			}
			it.finish()
			return false
		}
		p, ok := <-it.pages
		if !ok {
			it.done = true
			continue
		}
		if p.err != nil {
			it.err = p.err
			it.done = true
			continue
		}
		it.rows, it.pos = p.rows, 0
	}
}

// finish releases the operation once all rows are read.
func (it *RemoteRows) finish() {
	if it.stopCtx != nil {
		it.stopCtx()
	}
	if !it.closed {
		it.closed = true
		if it.cancel != nil {
			it.cancel()
		}
		it.res.release()
	}
}

// Row returns the current row. Rows are not reused: a row stays valid
// after Next.
func (it *RemoteRows) Row() *types.Row { return it.row }

// Buffered is how many rows Next returns without waiting for the gateway
// (the rest of the page fetched last): a reader that batches rows hands
// its batch on when it reaches 0.
func (it *RemoteRows) Buffered() int { return len(it.rows) - it.pos }

// Err returns the error that ended iteration: the gateway's error (a
// failed job) as *Error, or a transport error.
func (it *RemoteRows) Err() error { return it.err }

// Abort stops the fetching of pages; unlike the other methods it may be
// called from any goroutine, while another one waits in Next. Next then
// returns false after the rows already fetched (Err stays nil: check your
// own reason for aborting), and the reader's Close closes the operation,
// which cancels an unfinished query on the gateway.
func (it *RemoteRows) Abort() {
	if it.cancel != nil {
		it.cancel()
	}
}

// Close stops reading and closes the operation; the gateway cancels an
// unfinished query.
func (it *RemoteRows) Close() error {
	if it.stopCtx != nil {
		it.stopCtx()
	}
	if it.closed {
		return nil
	}
	it.closed = true
	if it.cancel != nil {
		it.cancel()
		for range it.pages { // let the prefetcher end
		}
	}
	it.res.release()
	return nil
}

// maxRememberedStatements bounds the job id → statement memory of a
// RemoteEngine (it is cleared when full).
const maxRememberedStatements = 10_000

// RemoteJobs lists the jobs this engine started as RemoteJob values,
// which a job list (the workbench's monitor.Jobs) shows like embedded
// jobs, without what a remote engine cannot give.
func (e *RemoteEngine) RemoteJobs(ctx context.Context) ([]*RemoteJob, error) {
	all, err := e.allJobs(ctx)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []*RemoteJob
	for _, j := range all {
		stmt, ok := e.statements[j.info.ID]
		if !ok {
			continue
		}
		out = append(out, &RemoteJob{eng: e, info: j.info, end: j.end, statement: stmt})
	}
	return out, nil
}

// RemoteJob is a job of a gateway session as SHOW JOBS listed it: a
// snapshot (list again to refresh). It has the methods of
// *table.JobClient that a job list needs. What a remote engine does not
// report is left empty rather than made up: Plan and NodeMetrics are nil
// (no per-operator metrics), EndTime is zero unless the cluster's REST API
// is known (RemoteOptions.ClusterREST), Err is nil. Only jobs this
// RemoteEngine started are listed.
type RemoteJob struct {
	eng       *RemoteEngine
	info      table.JobInfo
	end       time.Time
	statement string
}

// GetJobID returns the job's id.
func (j *RemoteJob) GetJobID() string { return j.info.ID }

// GetJobName returns the job's name.
func (j *RemoteJob) GetJobName() string { return j.info.Name }

// Statement is the SQL that started the job, or "" when unknown.
func (j *RemoteJob) Statement() string { return j.statement }

// StartTime is when the job started.
func (j *RemoteJob) StartTime() time.Time { return j.info.StartTime }

// EndTime is when the job ended, as the cluster's REST API reports it
// (RemoteOptions.ClusterREST); zero while it runs, or when only SHOW JOBS
// was asked, which does not report it.
func (j *RemoteJob) EndTime() time.Time { return j.end }

// Status is the state as the gateway names it (Flink's JobStatus).
func (j *RemoteJob) Status() string { return j.info.Status }

// GetJobStatus maps the gateway's state onto Riffle's: INITIALIZING is
// CREATED; RESTARTING, FAILING, CANCELLING and RECONCILING are RUNNING;
// SUSPENDED is FAILED.
func (j *RemoteJob) GetJobStatus() runtime.JobStatus {
	switch j.info.Status {
	case "CREATED", "INITIALIZING":
		return runtime.Created
	case "FINISHED":
		return runtime.Finished
	case "CANCELED":
		return runtime.Canceled
	case "FAILED", "SUSPENDED":
		return runtime.Failed
	}
	return runtime.Running
}

// Err is nil: SHOW JOBS does not report why a job failed.
func (j *RemoteJob) Err() error { return nil }

// Plan is nil: a remote engine does not send its plan with its jobs.
func (j *RemoteJob) Plan() *plan.PhysNode { return nil }

// NodeMetrics is nil: a remote engine gives no per-operator metrics.
func (j *RemoteJob) NodeMetrics(*plan.PhysNode) *runtime.OperatorMetrics { return nil }

// Cancel stops the job (STOP JOB).
func (j *RemoteJob) Cancel() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return j.eng.CancelJob(ctx, j.info.ID)
}

var _ table.Engine = (*RemoteEngine)(nil)
var _ table.StatementResult = (*RemoteResult)(nil)
