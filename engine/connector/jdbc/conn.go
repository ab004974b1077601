package jdbc

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"strings"
	"sync"
	"time"

	"database/sql/driver"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/pgtype"
)

// conn is one database session, on pgx for PostgreSQL and on
// database/sql with go-sql-driver for MySQL and MariaDB. It is used by one
// goroutine at a time.
type conn interface {
	// query runs a SELECT; fetchSize > 0 with inTx reads through a cursor
	// (PostgreSQL) FETCHing that many rows at a time.
	query(ctx context.Context, sql string, args []any, q queryMode) (resultRows, error)
	// execBatch runs the statements in one transaction: all or nothing.
	execBatch(ctx context.Context, stmts []statement) error
	close()
}

type queryMode struct {
	fetchSize int
	inTx      bool // scan.auto-commit = false
}

type statement struct {
	sql  string
	args []any
}

// dbColumn describes one result column as the database types it.
type dbColumn struct {
	name string
	// typ is the database's type name in lower case: int4, numeric,
	// timestamptz, _int4 (an int4 array) for PostgreSQL; int, unsigned
	// int, decimal, datetime for MySQL.
	typ string
}

// rawRows is implemented by PostgreSQL results: the wire values of the
// current row and how each column is encoded (the scan's fast path).
type rawRows interface {
	fieldDescriptions() []pgconn.FieldDescription
	rawValues() [][]byte
}

type resultRows interface {
	columns() []dbColumn
	next() bool
	values() ([]any, error)
	err() error
	close()
}

// connect opens a session, bounding the attempt by timeout (the table's
// connection.max-retry-timeout, or the URL's connectTimeout when shorter).
func connect(ctx context.Context, t *tableOptions) (conn, error) {
	ep := t.endpoint
	timeout := t.maxRetryTimeout
	if ep.ConnectTimeout > 0 && ep.ConnectTimeout < timeout {
		timeout = ep.ConnectTimeout
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if ep.Dialect.Name == DialectPostgres {
		cfg, err := ep.PgxConfig()
		if err != nil {
			return nil, t.errorf("%v", err)
		}
		cfg.ConnectTimeout = timeout
		cfg.BuildContextWatcherHandler = pgCancelHandler
		c, err := pgx.ConnectConfig(cctx, cfg)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, t.connectError(err, timeout)
		}
		return &pgConn{c: c}, nil
	}
	cfg := ep.MySQLConfig()
	cfg.Timeout = timeout
	connector, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, t.errorf("cannot use the MySQL URL's settings: %v", err)
	}
	db := sql.OpenDB(connector)
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	if err := db.PingContext(cctx); err != nil {
		db.Close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, t.connectError(err, timeout)
	}
	m := &myConn{db: db, connector: connector, timeout: timeout}
	// one session for the connection's life, whose id KILL QUERY names
	// when a statement's context is cancelled
	if m.c, err = db.Conn(cctx); err == nil {
		err = m.c.QueryRowContext(cctx, "SELECT CONNECTION_ID()").Scan(&m.id)
	}
	if err != nil {
		m.close()
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, t.connectError(err, timeout)
	}
	return m, nil
}

// cancelGrace is how long a cancelled statement's connection waits for the
// server to confirm the cancellation before it is closed.
const cancelGrace = 500 * time.Millisecond

// pgCancelHandler makes a cancelled context reach the server: pgx sends a
// CancelRequest for the running statement (the server stops it, also while
// it waits for a lock or sleeps) and closes the socket after cancelGrace
// if the server has not answered by then. pgx's default only closes the
// socket, which leaves the statement running on the server until it next
// writes to the client.
func pgCancelHandler(c *pgconn.PgConn) ctxwatch.Handler {
	return &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: cancelGrace}
}

// connectError turns a driver's connection failure into one message
// naming the server, database and user and the reason.
func (t *tableOptions) connectError(err error, timeout time.Duration) error {
	ep := t.endpoint
	who := fmt.Sprintf("%s at %s (database '%s', user '%s')", ep.Dialect.Name, ep.Addr(), ep.Database, ep.User)
	var pgErr *pgconn.PgError
	var myErr *mysql.MySQLError
	var netErr net.Error
	var opErr *net.OpError
	reason := ""
	switch {
	case errors.As(err, &pgErr):
		reason = fmt.Sprintf("%s (SQLSTATE %s)", pgErr.Message, pgErr.Code)
	case errors.As(err, &myErr):
		reason = fmt.Sprintf("%s (error %d)", myErr.Message, myErr.Number)
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		reason = fmt.Sprintf("no answer within %g s ('%s')", timeout.Seconds(), OptMaxRetryTimeout)
	case errors.As(err, &opErr):
		reason = opErr.Err.Error()
	default:
		reason = rootCause(err).Error()
	}
	return t.errorf("cannot connect to %s: %s", who, reason)
}

func rootCause(err error) error {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err
		}
		err = u
	}
}

// queryError describes a failed statement on the table.
func (t *tableOptions) queryError(what string, err error) error {
	ep := t.endpoint
	var pgErr *pgconn.PgError
	var myErr *mysql.MySQLError
	switch {
	case errors.As(err, &pgErr):
		if pgErr.Code == "42P01" {
			return t.errorf("table '%s' does not exist in %s database '%s' at %s (%s)", t.dbTable, ep.Dialect.Name, ep.Database, ep.Addr(), pgErr.Message)
		}
		if pgErr.Code == "42703" {
			return t.errorf("%s on %s table '%s' at %s: %s (SQLSTATE %s); the table's columns must exist in the database table", what, ep.Dialect.Name, t.dbTable, ep.Addr(), pgErr.Message, pgErr.Code)
		}
		msg := pgErr.Message
		if pgErr.Detail != "" {
			msg += ": " + pgErr.Detail
		}
		return t.errorf("%s on %s table '%s' at %s failed: %s (SQLSTATE %s)", what, ep.Dialect.Name, t.dbTable, ep.Addr(), msg, pgErr.Code)
	case errors.As(err, &myErr):
		if myErr.Number == 1146 {
			return t.errorf("table '%s' does not exist in %s database '%s' at %s (%s)", t.dbTable, ep.Dialect.Name, ep.Database, ep.Addr(), myErr.Message)
		}
		return t.errorf("%s on %s table '%s' at %s failed: %s (error %d)", what, ep.Dialect.Name, t.dbTable, ep.Addr(), myErr.Message, myErr.Number)
	}
	return t.errorf("%s on %s table '%s' at %s failed: %v", what, ep.Dialect.Name, t.dbTable, ep.Addr(), err)
}

// permanent reports errors that another attempt cannot fix: bad data,
// constraint violations, missing tables or columns, syntax and
// permission errors. Connection failures and deadlocks are retried.
func permanent(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		switch pgErr.Code[:2] {
		case "22", "23", "42", "28", "0A":
			return true
		}
		return false
	}
	var myErr *mysql.MySQLError
	if errors.As(err, &myErr) {
		switch myErr.Number {
		case 1040, 1053, 1205, 1213, 1317, 1927: // too many connections, shutdown, lock wait, deadlock, interrupted, killed
			return false
		}
		// 2000-2999 are client (connection) errors; the rest come from
		// the server about the statement (1000-1999, MySQL 3000+,
		// MariaDB 4000+ such as 4025, a CHECK constraint)
		return myErr.Number < 2000 || myErr.Number >= 3000
	}
	return errors.Is(err, context.Canceled)
}

// --- PostgreSQL on pgx ---

type pgConn struct {
	c *pgx.Conn
}

func (p *pgConn) close() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = p.c.Close(ctx)
}

func (p *pgConn) query(ctx context.Context, sql string, args []any, q queryMode) (resultRows, error) {
	if q.inTx {
		tx, err := p.c.Begin(ctx)
		if err != nil {
			return nil, err
		}
		if q.fetchSize > 0 {
			if _, err := tx.Exec(ctx, "DECLARE riffle_scan NO SCROLL CURSOR FOR "+sql, args...); err != nil {
				_ = tx.Rollback(ctx)
				return nil, err
			}
			r := &pgCursorRows{ctx: ctx, p: p, tx: tx, fetch: fmt.Sprintf("FETCH FORWARD %d FROM riffle_scan", q.fetchSize)}
			if err := r.fetchNext(); err != nil {
				_ = tx.Rollback(ctx)
				return nil, err
			}
			return r, nil
		}
		rows, err := tx.Query(ctx, sql, args...)
		if err != nil {
			_ = tx.Rollback(ctx)
			return nil, err
		}
		return &pgRows{p: p, rows: rows, tx: tx, ctx: ctx}, nil
	}
	rows, err := p.c.Query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return &pgRows{p: p, rows: rows, ctx: ctx}, nil
}

func (p *pgConn) execBatch(ctx context.Context, stmts []statement) error {
	tx, err := p.c.Begin(ctx)
	if err != nil {
		return err
	}
	b := &pgx.Batch{}
	for _, s := range stmts {
		b.Queue(s.sql, s.args...)
	}
	br := tx.SendBatch(ctx, b)
	for range stmts {
		if _, err := br.Exec(); err != nil {
			br.Close()
			_ = tx.Rollback(context.Background())
			return err
		}
	}
	if err := br.Close(); err != nil {
		_ = tx.Rollback(context.Background())
		return err
	}
	return tx.Commit(ctx)
}

func (p *pgConn) columnsOf(fds []pgconn.FieldDescription) []dbColumn {
	out := make([]dbColumn, len(fds))
	for i, fd := range fds {
		out[i] = dbColumn{name: fd.Name, typ: pgTypeName(p.c.TypeMap(), fd.DataTypeOID)}
	}
	return out
}

func pgTypeName(m *pgtype.Map, oid uint32) string {
	if t, ok := m.TypeForOID(oid); ok {
		return t.Name
	}
	return fmt.Sprintf("oid %d", oid)
}

type pgRows struct {
	p    *pgConn
	rows pgx.Rows
	tx   pgx.Tx
	ctx  context.Context
}

func (r *pgRows) columns() []dbColumn    { return r.p.columnsOf(r.rows.FieldDescriptions()) }
func (r *pgRows) next() bool             { return r.rows.Next() }
func (r *pgRows) values() ([]any, error) { return r.rows.Values() }
func (r *pgRows) err() error             { return r.rows.Err() }
func (r *pgRows) close() {
	r.rows.Close()
	if r.tx != nil {
		_ = r.tx.Rollback(context.Background())
		r.tx = nil
	}
}

// pgCursorRows reads a DECLAREd cursor FETCH by FETCH (scan.fetch-size
// with scan.auto-commit = false, as PostgreSQL's JDBC driver does).
type pgCursorRows struct {
	ctx   context.Context
	p     *pgConn
	tx    pgx.Tx
	fetch string
	rows  pgx.Rows
	cols  []dbColumn
	n     int // rows seen in the current FETCH
	done  bool
	e     error
}

func (r *pgCursorRows) fetchNext() error {
	rows, err := r.tx.Query(r.ctx, r.fetch)
	if err != nil {
		return err
	}
	r.rows, r.n = rows, 0
	if r.cols == nil {
		r.cols = r.p.columnsOf(rows.FieldDescriptions())
	}
	return nil
}

func (r *pgCursorRows) columns() []dbColumn { return r.cols }

func (r *pgCursorRows) next() bool {
	for !r.done {
		if r.rows.Next() {
			r.n++
			return true
		}
		r.rows.Close()
		if err := r.rows.Err(); err != nil {
			r.e = err
			return false
		}
		if r.n == 0 {
			r.done = true
			return false
		}
		if err := r.fetchNext(); err != nil {
			r.e = err
			return false
		}
	}
	return false
}

func (r *pgCursorRows) values() ([]any, error) { return r.rows.Values() }
func (r *pgCursorRows) err() error             { return r.e }
func (r *pgCursorRows) close() {
	if r.rows != nil {
		r.rows.Close()
	}
	if r.tx != nil {
		_ = r.tx.Rollback(context.Background())
		r.tx = nil
	}
}

// --- MySQL and MariaDB on database/sql ---

// myConn is one session (a *sql.Conn pinned for the connection's life).
// go-sql-driver answers a cancelled context by closing the socket, which
// the server notices only when it next writes to the client: a statement
// waiting for a lock or computing goes on. So a cancelled statement is
// also stopped on the server with KILL QUERY <id> from a second, short
// connection.
type myConn struct {
	db        *sql.DB
	c         *sql.Conn
	id        int64 // CONNECTION_ID() of c
	connector driver.Connector
	timeout   time.Duration
	kills     sync.WaitGroup // KILL QUERYs in flight; close waits for them
}

func (m *myConn) close() {
	if m.c != nil {
		_ = m.c.Close()
	}
	_ = m.db.Close()
	m.kills.Wait()
}

// watch kills the session's statement on the server if ctx is cancelled
// before the returned stop is called (the statement's end).
func (m *myConn) watch(ctx context.Context) (stop func()) {
	if m.id == 0 {
		return func() {}
	}
	m.kills.Add(1)
	unregister := context.AfterFunc(ctx, func() {
		defer m.kills.Done()
		m.killQuery()
	})
	return func() {
		if unregister() {
			m.kills.Done()
		}
	}
}

// killQuery runs KILL QUERY on the session from a new connection, bounded
// by the connection timeout; errors are ignored (the session may be gone).
func (m *myConn) killQuery() {
	ctx, cancel := context.WithTimeout(context.Background(), m.timeout)
	defer cancel()
	c, err := m.connector.Connect(ctx)
	if err != nil {
		return
	}
	defer c.Close()
	if ex, ok := c.(driver.ExecerContext); ok {
		_, _ = ex.ExecContext(ctx, fmt.Sprintf("KILL QUERY %d", m.id), nil)
	}
}

func (m *myConn) query(ctx context.Context, q string, args []any, mode queryMode) (resultRows, error) {
	var tx *sql.Tx
	var rows *sql.Rows
	var err error
	stop := m.watch(ctx)
	if mode.inTx {
		if tx, err = m.c.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}); err != nil {
			stop()
			return nil, err
		}
		rows, err = tx.QueryContext(ctx, q, args...)
	} else {
		rows, err = m.c.QueryContext(ctx, q, args...)
	}
	if err != nil {
		stop()
		if tx != nil {
			_ = tx.Rollback()
		}
		return nil, err
	}
	cts, err := rows.ColumnTypes()
	if err != nil {
		stop()
		rows.Close()
		if tx != nil {
			_ = tx.Rollback()
		}
		return nil, err
	}
	cols := make([]dbColumn, len(cts))
	for i, ct := range cts {
		cols[i] = dbColumn{name: ct.Name(), typ: strings.ToLower(ct.DatabaseTypeName())}
	}
	r := &myRows{rows: rows, tx: tx, cols: cols, vals: make([]any, len(cols)), ptrs: make([]any, len(cols)), stop: stop}
	for i := range r.vals {
		r.ptrs[i] = &r.vals[i]
	}
	return r, nil
}

func (m *myConn) execBatch(ctx context.Context, stmts []statement) error {
	stop := m.watch(ctx)
	defer stop()
	tx, err := m.c.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	prepared := map[string]*sql.Stmt{}
	defer func() {
		for _, p := range prepared {
			p.Close()
		}
	}()
	for _, s := range stmts {
		p := prepared[s.sql]
		if p == nil {
			if p, err = tx.PrepareContext(ctx, s.sql); err != nil {
				_ = tx.Rollback()
				return err
			}
			prepared[s.sql] = p
		}
		if _, err := p.ExecContext(ctx, s.args...); err != nil {
			_ = tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

type myRows struct {
	rows *sql.Rows
	tx   *sql.Tx
	cols []dbColumn
	vals []any
	ptrs []any
	stop func() // ends the KILL QUERY watch of the statement
}

func (r *myRows) columns() []dbColumn { return r.cols }
func (r *myRows) next() bool          { return r.rows.Next() }
func (r *myRows) values() ([]any, error) {
	for i := range r.vals {
		r.vals[i] = nil
	}
	if err := r.rows.Scan(r.ptrs...); err != nil {
		return nil, err
	}
	return r.vals, nil
}
func (r *myRows) err() error { return r.rows.Err() }
func (r *myRows) close() {
	r.rows.Close()
	if r.tx != nil {
		_ = r.tx.Rollback()
		r.tx = nil
	}
	if r.stop != nil {
		r.stop()
		r.stop = nil
	}
}

func (r *pgRows) rawValues() [][]byte { return r.rows.RawValues() }
func (r *pgRows) fieldDescriptions() []pgconn.FieldDescription {
	return r.rows.FieldDescriptions()
}
func (r *pgCursorRows) rawValues() [][]byte { return r.rows.RawValues() }
func (r *pgCursorRows) fieldDescriptions() []pgconn.FieldDescription {
	return r.rows.FieldDescriptions()
}

var (
	_ rawRows = (*pgRows)(nil)
	_ rawRows = (*pgCursorRows)(nil)
)
