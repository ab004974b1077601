package gateway

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
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

// ExecuteParsed implements table.Engine: the gateway parses the text, so
// st (the caller's parse, or nil) is not used.
func (e *RemoteEngine) ExecuteParsed(ctx context.Context, _ sql.Statement, statement string, at sql.Pos) (table.StatementResult, error) {
	return e.ExecuteStatement(ctx, statement, at)
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
	if res.isQuery {
		// Flink's SQL Client reads the width when it shows a query's
		// result and fails on a value that is not one; a gateway (Flink's
		// or Riffle's) stores any SET, so the error names the session's
		// configuration as where the value is, not the statement
		n, err := config.DisplayMaxColumnWidth(func(k string) (string, bool) { v, ok := conf[k]; return v, ok })
		if err != nil {
			res.release()
			key := config.SQLClientMaxColumnWidth.Key
			if _, ok := conf[key]; !ok {
				key = config.MaxColumnWidth.Key
			}
			return nil, &SessionConfigError{Key: key, Value: conf[key], Err: err}
		}
		res.maxWidth = n
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
