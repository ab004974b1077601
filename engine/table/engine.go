package table

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// Engine is what a SQL front end (`riffle sql`, the workbench) needs from an
// engine, so that one front end drives either the embedded engine
// (NewEmbeddedEngine) or a remote one behind a Flink SQL Gateway
// (gateway.Connect). Every method may block on the network for a remote
// engine and honours ctx; an implementation is safe for concurrent use.
type Engine interface {
	// ExecuteStatement runs one statement as TableEnvironment.ExecuteSQL
	// does. at is where the statement starts in a larger script (the zero
	// Pos when it stands alone), so that error positions ("line 3, column
	// 8") refer to the script.
	ExecuteStatement(ctx context.Context, statement string, at sql.Pos) (StatementResult, error)
	// ExecuteParsed runs a statement the caller has parsed: st is
	// sql.ParseAt(statement, at), or nil when Riffle's parser refused the
	// text (a statement for a gateway that knows newer syntax). The
	// embedded engine executes st without parsing the text again (nil:
	// it parses the text, as ExecuteStatement); a remote engine sends the
	// text, which its server parses. Errors as ExecuteStatement's.
	ExecuteParsed(ctx context.Context, st sql.Statement, statement string, at sql.Pos) (StatementResult, error)
	// CompleteStatement returns completion candidates (whole words:
	// keywords, catalog objects, functions) for the word at position, a
	// character offset in statement counted in UTF-16 code units as the
	// SQL Gateway's complete-statement endpoint does.
	CompleteStatement(ctx context.Context, statement string, position int) ([]string, error)
	// ListCatalogs lists the catalogs (SHOW CATALOGS).
	ListCatalogs(ctx context.Context) ([]string, error)
	// ListDatabases lists a catalog's databases (SHOW DATABASES FROM c).
	ListDatabases(ctx context.Context, catalog string) ([]string, error)
	// ListTables lists a database's tables and views (SHOW TABLES and SHOW
	// VIEWS FROM c.d), sorted by name.
	ListTables(ctx context.Context, catalog, database string) ([]TableInfo, error)
	// ListColumns describes a table's or view's columns (DESCRIBE c.d.t).
	ListColumns(ctx context.Context, catalog, database, table string) ([]ColumnInfo, error)
	// Jobs lists the jobs this session submitted (SHOW JOBS).
	Jobs(ctx context.Context) ([]JobInfo, error)
	// WaitJob blocks until a job ends or ctx is done. It returns nil when
	// the job FINISHED and an error naming the job otherwise.
	WaitJob(ctx context.Context, jobID string) error
	// CancelJob stops a job (STOP JOB 'id').
	CancelJob(ctx context.Context, jobID string) error
	// Close releases the engine: an embedded engine cancels its running
	// jobs; a remote one closes its gateway session, on which the gateway
	// (Riffle's or Flink's) cancels the jobs of the session's unfinished
	// queries while its INSERT jobs run on, outliving the session.
	Close() error
}

// StatementResult is the result of Engine.ExecuteStatement, the shape of
// TableResult shared by the embedded and the remote engine.
type StatementResult interface {
	// ResultKind returns SUCCESS or SUCCESS_WITH_CONTENT.
	ResultKind() ResultKind
	// Schema returns the result's columns.
	Schema() *TableSchema
	// IsQuery reports a SELECT result (its rows carry changelog RowKinds).
	IsQuery() bool
	// IsStreaming reports a result of streaming mode
	// (execution.runtime-mode): a streaming query's rows form a changelog
	// and are shown with an op column.
	IsStreaming() bool
	// TimeZone is the session time zone (table.local-time-zone) that
	// TIMESTAMP_LTZ values are shown in.
	TimeZone() *time.Location
	// JobID is the 32-hex-digit id of the job of a query or INSERT, or "".
	JobID() string
	// Message is the line the SQL Client prints for a statement without
	// rows to show, e.g. "[INFO] Execute statement succeeded.".
	Message() string
	// Collect returns an iterator over the rows; a query's rows stream in
	// while its job runs. Close the iterator to release the job (an
	// unfinished query is cancelled). Rows can be collected once.
	Collect() (Rows, error)
	// PrintTo writes the rows in the SQL Client's tableau layout.
	PrintTo(w io.Writer) error
}

// Rows iterates a result's rows:
//
//	rows, _ := res.Collect()
//	defer rows.Close()
//	for rows.Next() { r := rows.Row() ... }
//	if err := rows.Err(); err != nil { ... }
type Rows interface {
	// Next advances to the next row; it returns false at the end or on
	// error.
	Next() bool
	// Row returns the current row (valid until the next call to Next).
	Row() *types.Row
	// Err returns the error that ended iteration, if any.
	Err() error
	// Close stops reading; an unfinished query is cancelled.
	Close() error
}

// TableInfo names a table or view of a database.
type TableInfo struct {
	Name string
	// IsView reports a view (otherwise a table).
	IsView bool
}

// ColumnInfo is one row of DESCRIBE: a column's name, its type as Flink's
// summary string without NOT NULL (e.g. "DECIMAL(10, 2)",
// "TIMESTAMP(3) *ROWTIME*"), nullability, key ("PRI(id)"), extras
// ("AS price * 2", "METADATA VIRTUAL") and watermark expression.
type ColumnInfo struct {
	Name      string
	Type      string
	Nullable  bool
	Key       string
	Extras    string
	Watermark string
}

// JobInfo is one row of SHOW JOBS.
type JobInfo struct {
	ID   string
	Name string
	// Status is the job state as Flink names it: CREATED, RUNNING,
	// FINISHED, CANCELED, FAILED (a Flink cluster also reports
	// INITIALIZING, CANCELLING, FAILING, RESTARTING, SUSPENDED...).
	Status    string
	StartTime time.Time
	// Restarts is how many times the job restarted after a failure
	// (Flink's numRestarts), and LastFailure the message of the last
	// failure it restarted, or is RESTARTING, from ("" when none). Jobs
	// of the embedded engine report them; a gateway's jobs report 0, "".
	Restarts    int
	LastFailure string
}

// IsTerminal reports a job that has ended: FINISHED, CANCELED or FAILED.
func (j JobInfo) IsTerminal() bool {
	switch j.Status {
	case "FINISHED", "CANCELED", "FAILED":
		return true
	}
	return false
}

// ErrJobNotFound is returned by WaitJob and CancelJob for an unknown job.
var ErrJobNotFound = errors.New("no such job in this session")

// StatementExecutor runs statements; the catalog helpers of this file need
// nothing more.
type StatementExecutor interface {
	ExecuteStatement(ctx context.Context, statement string, at sql.Pos) (StatementResult, error)
}

// ---- the embedded engine ---------------------------------------------------

// EmbeddedEngine is the Engine of a TableEnvironment in this process.
type EmbeddedEngine struct {
	env *TableEnvironment
}

// NewEmbeddedEngine wraps env as an Engine.
func NewEmbeddedEngine(env *TableEnvironment) *EmbeddedEngine { return &EmbeddedEngine{env: env} }

// Environment returns the wrapped TableEnvironment (for what only the
// embedded engine offers: job plans, per-operator metrics, the Table API).
func (e *EmbeddedEngine) Environment() *TableEnvironment { return e.env }

// ExecuteStatement implements Engine.
func (e *EmbeddedEngine) ExecuteStatement(ctx context.Context, statement string, at sql.Pos) (StatementResult, error) {
	res, err := e.env.executeAt(ctx, statement, at)
	if err != nil {
		return nil, err
	}
	return &embeddedResult{TableResult: res, streaming: e.env.IsStreaming(), zone: e.env.resultZone()}, nil
}

// ExecuteParsed implements Engine: st runs as parsed (nil: statement is
// parsed, as ExecuteStatement does).
func (e *EmbeddedEngine) ExecuteParsed(ctx context.Context, st sql.Statement, statement string, at sql.Pos) (StatementResult, error) {
	if st == nil {
		return e.ExecuteStatement(ctx, statement, at)
	}
	res, err := e.env.ExecuteParsed(ctx, st, statement, at)
	if err != nil {
		return nil, err
	}
	return &embeddedResult{TableResult: res, streaming: e.env.IsStreaming(), zone: e.env.resultZone()}, nil
}

// CompleteStatement implements Engine with CompleteStatement.
func (e *EmbeddedEngine) CompleteStatement(_ context.Context, statement string, position int) ([]string, error) {
	return CompleteStatement(e.env, statement, position), nil
}

// ListCatalogs implements Engine.
func (e *EmbeddedEngine) ListCatalogs(ctx context.Context) ([]string, error) {
	return ListCatalogsSQL(ctx, e)
}

// ListDatabases implements Engine.
func (e *EmbeddedEngine) ListDatabases(ctx context.Context, catalog string) ([]string, error) {
	return ListDatabasesSQL(ctx, e, catalog)
}

// ListTables implements Engine.
func (e *EmbeddedEngine) ListTables(ctx context.Context, catalog, database string) ([]TableInfo, error) {
	return ListTablesSQL(ctx, e, catalog, database)
}

// ListColumns implements Engine.
func (e *EmbeddedEngine) ListColumns(ctx context.Context, catalog, database, table string) ([]ColumnInfo, error) {
	return ListColumnsSQL(ctx, e, catalog, database, table)
}

// Jobs implements Engine.
func (e *EmbeddedEngine) Jobs(context.Context) ([]JobInfo, error) {
	var out []JobInfo
	for _, j := range e.env.Jobs() {
		info := JobInfo{ID: j.JobID(), Name: j.JobName(), Status: j.Status().String(), StartTime: j.StartTime(), Restarts: j.RestartCount()}
		if err := j.LastFailure(); err != nil {
			info.LastFailure = err.Error()
		}
		out = append(out, info)
	}
	return out, nil
}

// WaitJob implements Engine: it returns the job's own error (nil when it
// FINISHED).
func (e *EmbeddedEngine) WaitJob(ctx context.Context, jobID string) error {
	j, ok := e.env.JobByID(jobID)
	if !ok {
		return fmt.Errorf("job %s: %w", jobID, ErrJobNotFound)
	}
	return j.Wait(ctx)
}

// CancelJob implements Engine.
func (e *EmbeddedEngine) CancelJob(_ context.Context, jobID string) error {
	j, ok := e.env.JobByID(jobID)
	if !ok {
		return fmt.Errorf("job %s: %w", jobID, ErrJobNotFound)
	}
	return j.Cancel()
}

// Close implements Engine: it cancels the environment's unfinished jobs
// and waits for them to end, at most closeJobsWait in all, so that their
// connectors undo what they started on servers (a statement waiting for a
// lock is stopped, a transaction rolled back, a replication slot released)
// before the process exits (riffle sql on SIGTERM).
func (e *EmbeddedEngine) Close() error {
	var running []*JobClient
	for _, j := range e.env.Jobs() {
		if !j.Status().IsTerminal() {
			_ = j.Cancel()
			running = append(running, j)
		}
	}
	if len(running) == 0 {
		return nil
	}
	deadline := time.NewTimer(closeJobsWait)
	defer deadline.Stop()
	for _, j := range running {
		select {
		case <-j.Done():
		case <-deadline.C:
			return nil
		}
	}
	return nil
}

// closeJobsWait bounds how long Close waits for cancelled jobs to end.
const closeJobsWait = 5 * time.Second

// executeAt parses and runs one statement that starts at position at of a
// larger script.
func (t *TableEnvironment) executeAt(ctx context.Context, statement string, at sql.Pos) (*TableResult, error) {
	if at == (sql.Pos{}) {
		return t.ExecuteSQLContext(ctx, statement)
	}
	st, err := sql.ParseAt(statement, at)
	if err != nil {
		return nil, err
	}
	return t.ExecuteParsed(ctx, st, statement, at)
}

// embeddedResult adapts a TableResult to StatementResult; streaming and
// zone are the session's when the statement ran.
type embeddedResult struct {
	*TableResult
	streaming bool
	zone      *time.Location
}

// IsStreaming implements StatementResult.
func (r *embeddedResult) IsStreaming() bool { return r.streaming }

// TimeZone implements StatementResult.
func (r *embeddedResult) TimeZone() *time.Location { return r.zone }

// JobID implements StatementResult.
func (r *embeddedResult) JobID() string {
	if r.job == nil {
		return ""
	}
	return r.job.JobID()
}

// Collect implements StatementResult.
func (r *embeddedResult) Collect() (Rows, error) {
	it, err := r.TableResult.Collect()
	if err != nil {
		return nil, err
	}
	return it, nil
}

// Unwrap returns the underlying TableResult.
func (r *embeddedResult) Unwrap() *TableResult { return r.TableResult }

// ---- catalog browsing through SHOW and DESCRIBE ------------------------------

// queryStrings runs a statement and returns the string values of column
// col of every row.
func queryStrings(ctx context.Context, x StatementExecutor, statement string, col int) ([]string, error) {
	res, err := x.ExecuteStatement(ctx, statement, sql.Pos{})
	if err != nil {
		return nil, err
	}
	rows, err := res.Collect()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		r := rows.Row()
		if col < len(r.Values) {
			s, _ := r.Values[col].(string)
			out = append(out, s)
		}
	}
	return out, rows.Err()
}

// ListCatalogsSQL lists catalogs with SHOW CATALOGS.
func ListCatalogsSQL(ctx context.Context, x StatementExecutor) ([]string, error) {
	return queryStrings(ctx, x, "SHOW CATALOGS", 0)
}

// ListDatabasesSQL lists a catalog's databases with SHOW DATABASES FROM.
func ListDatabasesSQL(ctx context.Context, x StatementExecutor, catalog string) ([]string, error) {
	return queryStrings(ctx, x, "SHOW DATABASES FROM "+sql.QuoteIdent(catalog), 0)
}

// ListTablesSQL lists a database's tables and views with SHOW TABLES and
// SHOW VIEWS, sorted by name.
func ListTablesSQL(ctx context.Context, x StatementExecutor, catalog, database string) ([]TableInfo, error) {
	from := " FROM " + sql.QuoteIdent(catalog) + "." + sql.QuoteIdent(database)
	tables, err := queryStrings(ctx, x, "SHOW TABLES"+from, 0)
	if err != nil {
		return nil, err
	}
	views, err := queryStrings(ctx, x, "SHOW VIEWS"+from, 0)
	if err != nil {
		return nil, err
	}
	isView := make(map[string]bool, len(views))
	for _, v := range views {
		isView[v] = true
	}
	out := make([]TableInfo, 0, len(tables))
	seen := map[string]bool{}
	for _, t := range append(tables, views...) {
		if seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, TableInfo{Name: t, IsView: isView[t]})
	}
	sortTableInfos(out)
	return out, nil
}

func sortTableInfos(ts []TableInfo) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && ts[j].Name < ts[j-1].Name; j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// ListColumnsSQL describes a table's columns with DESCRIBE.
func ListColumnsSQL(ctx context.Context, x StatementExecutor, catalog, database, table string) ([]ColumnInfo, error) {
	res, err := x.ExecuteStatement(ctx, "DESCRIBE "+sql.QuoteIdent(catalog)+"."+sql.QuoteIdent(database)+"."+sql.QuoteIdent(table), sql.Pos{})
	if err != nil {
		return nil, err
	}
	rows, err := res.Collect()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []ColumnInfo
	str := func(v []any, i int) string {
		if i < len(v) {
			s, _ := v[i].(string)
			return s
		}
		return ""
	}
	for rows.Next() {
		v := rows.Row().Values
		c := ColumnInfo{Name: str(v, 0), Type: str(v, 1), Key: str(v, 3), Extras: str(v, 4), Watermark: str(v, 5)}
		if len(v) > 2 {
			c.Nullable, _ = v[2].(bool)
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// JobsSQL lists jobs with SHOW JOBS (columns job id, job name, status,
// start time as ISO-8601).
func JobsSQL(ctx context.Context, x StatementExecutor) ([]JobInfo, error) {
	res, err := x.ExecuteStatement(ctx, "SHOW JOBS", sql.Pos{})
	if err != nil {
		return nil, err
	}
	rows, err := res.Collect()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []JobInfo
	for rows.Next() {
		v := rows.Row().Values
		if len(v) < 3 {
			continue
		}
		j := JobInfo{}
		j.ID, _ = v[0].(string)
		j.Name, _ = v[1].(string)
		j.Status, _ = v[2].(string)
		if len(v) > 3 {
			switch s := v[3].(type) {
			case string:
				j.StartTime, _ = time.Parse(time.RFC3339Nano, s)
			case time.Time:
				j.StartTime = s
			}
		}
		out = append(out, j)
	}
	return out, rows.Err()
}
