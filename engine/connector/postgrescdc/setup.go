package postgrescdc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
)

func (t *tableOptions) addr() string { return net.JoinHostPort(t.host, strconv.Itoa(t.port)) }

// connConfig builds a connection configuration; replication selects a
// logical replication connection.
func (t *tableOptions) connConfig(replication bool) (*pgconn.Config, error) {
	q := func(s string) string {
		return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `'`, `\'`) + "'"
	}
	dsn := fmt.Sprintf("host=%s port=%d user=%s password=%s dbname=%s sslmode=prefer",
		q(t.host), t.port, q(t.user), q(t.password), q(t.database))
	cfg, err := pgconn.ParseConfig(dsn)
	if err != nil {
		return nil, t.errorf("bad connection settings: %v", err)
	}
	cfg.ConnectTimeout = t.connTimeout
	cfg.RuntimeParams["TimeZone"] = "UTC"
	cfg.RuntimeParams["DateStyle"] = "ISO"
	cfg.RuntimeParams["application_name"] = "riffle-postgres-cdc"
	if replication {
		cfg.RuntimeParams["replication"] = "database"
	}
	// a cancelled context reaches the server: pgx sends a CancelRequest
	// (which stops a statement waiting for a lock, or CREATE_REPLICATION_SLOT
	// waiting for the transactions that run when it starts) and closes the
	// socket if the server has not answered within cancelGrace; pgx's
	// default only closes the socket and the server goes on waiting
	cfg.BuildContextWatcherHandler = func(c *pgconn.PgConn) ctxwatch.Handler {
		h := &cancelHandler{
			request:  &pgconn.CancelRequestContextWatcherHandler{Conn: c, DeadlineDelay: cancelGrace},
			deadline: &pgconn.DeadlineContextWatcherHandler{Conn: c.Conn()},
		}
		c.CustomData()[cancelHandlerKey] = h
		return h
	}
	return cfg, nil
}

// cancelHandler is how a connection reacts to a cancelled context: with a
// CancelRequest to the server (see connConfig) until the connection
// streams, then by a read deadline only. A CancelRequest to a walsender in
// COPY BOTH mode ends the stream, and the final standby status update
// that records the position 'committed-offset' resumes from would then
// not be received; the deadline interrupts the wait and leaves the stream
// open for it.
type cancelHandler struct {
	request   *pgconn.CancelRequestContextWatcherHandler
	deadline  *pgconn.DeadlineContextWatcherHandler
	streaming atomic.Bool
	// used is the handler of the last HandleCancel
	used ctxwatch.Handler
}

func (h *cancelHandler) HandleCancel(ctx context.Context) {
	h.used = h.request
	if h.streaming.Load() {
		h.used = h.deadline
	}
	h.used.HandleCancel(ctx)
}

func (h *cancelHandler) HandleUnwatchAfterCancel() {
	if h.used != nil {
		h.used.HandleUnwatchAfterCancel()
	}
}

// cancelHandlerKey is where a connection's CustomData holds its
// cancelHandler.
const cancelHandlerKey = "riffle.cancelHandler"

// setStreaming switches c's cancellation to the read deadline (c has
// entered the replication stream).
func setStreaming(c *pgconn.PgConn) {
	if h, ok := c.CustomData()[cancelHandlerKey].(*cancelHandler); ok {
		h.streaming.Store(true)
	}
}

// cancelGrace is how long a cancelled statement's connection waits for the
// server to confirm the cancellation before it is closed.
const cancelGrace = 500 * time.Millisecond

// connectError describes a failed connection: unreachable server, wrong
// password, missing database.
func (t *tableOptions) connectError(err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "28P01", "28000":
			return t.errorf("cannot log in to PostgreSQL at %s as user '%s': %s (check 'username' and 'password')", t.addr(), t.user, pe.Message)
		case "3D000":
			return t.errorf("database '%s' does not exist on PostgreSQL at %s (option 'database-name')", t.database, t.addr())
		}
		return t.errorf("cannot connect to PostgreSQL at %s, database '%s': %s (SQLSTATE %s)", t.addr(), t.database, pe.Message, pe.Code)
	}
	return t.errorf("cannot connect to PostgreSQL at %s (options 'hostname' and 'port'): %v", t.addr(), unwrapConnect(err))
}

// unwrapConnect shortens pgconn's connect errors to their cause.
func unwrapConnect(err error) error {
	var oe *net.OpError
	if errors.As(err, &oe) {
		return oe
	}
	var ce *pgconn.ConnectError
	if errors.As(err, &ce) && ce.Unwrap() != nil {
		return ce.Unwrap()
	}
	return err
}

func (t *tableOptions) connectRegular(ctx context.Context) (*pgx.Conn, error) {
	cfg, err := t.connConfig(false)
	if err != nil {
		return nil, err
	}
	pcfg, err := pgx.ParseConfig("")
	if err != nil {
		return nil, err
	}
	pcfg.Config = *cfg
	pcfg.DefaultQueryExecMode = pgx.QueryExecModeSimpleProtocol
	c, err := pgx.ConnectConfig(ctx, pcfg)
	if err != nil {
		return nil, t.connectError(err)
	}
	return c, nil
}

func (t *tableOptions) connectReplication(ctx context.Context) (*pgconn.PgConn, error) {
	cfg, err := t.connConfig(true)
	if err != nil {
		return nil, err
	}
	c, err := pgconn.ConnectConfig(ctx, cfg)
	if err != nil {
		return nil, t.connectError(err)
	}
	return c, nil
}

func (t *tableOptions) qualified() string {
	return pgx.Identifier{t.schema, t.tableName}.Sanitize()
}

// tableColumns checks the server and the table: wal_level, the table's
// existence, and returns its columns.
func (t *tableOptions) tableColumns(ctx context.Context, c *pgx.Conn) ([]pgColumn, error) {
	var walLevel string
	if err := c.QueryRow(ctx, "SHOW wal_level").Scan(&walLevel); err != nil {
		return nil, t.errorf("cannot read wal_level: %v", err)
	}
	if walLevel != "logical" {
		return nil, t.errorf("PostgreSQL at %s has wal_level = '%s'; change data capture needs wal_level = 'logical' (set it in postgresql.conf and restart the server)", t.addr(), walLevel)
	}
	var relid uint32
	var kind string
	err := c.QueryRow(ctx, `SELECT c.oid, c.relkind::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
		WHERE n.nspname = $1 AND c.relname = $2`, t.schema, t.tableName).Scan(&relid, &kind)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, t.errorf("table %s does not exist in database '%s' on %s (options 'schema-name' and 'table-name')", t.qualified(), t.database, t.addr())
	}
	if err != nil {
		return nil, t.errorf("cannot look up table %s: %v", t.qualified(), err)
	}
	if kind != "r" && kind != "p" {
		return nil, t.errorf("%s is not a table (relkind '%s'); only tables can be captured", t.qualified(), kind)
	}
	rows, err := c.Query(ctx, `SELECT a.attname, a.atttypid, format_type(a.atttypid, a.atttypmod),
			CASE WHEN t.typtype = 'e' THEN 'enum' ELSE coalesce(bt.typname, t.typname)::text END
		FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
		LEFT JOIN pg_type bt ON t.typtype = 'd' AND bt.oid = t.typbasetype
		WHERE a.attrelid = $1 AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`, relid)
	if err != nil {
		return nil, t.errorf("cannot read the columns of %s: %v", t.qualified(), err)
	}
	defer rows.Close()
	var out []pgColumn
	for rows.Next() {
		var col pgColumn
		if err := rows.Scan(&col.Name, &col.TypeOID, &col.Formatted, &col.TypeName); err != nil {
			return nil, t.errorf("cannot read the columns of %s: %v", t.qualified(), err)
		}
		out = append(out, col)
	}
	if err := rows.Err(); err != nil {
		return nil, t.errorf("cannot read the columns of %s: %v", t.qualified(), err)
	}
	return out, nil
}

// findColumn finds a Riffle column among the PostgreSQL columns: by exact
// name, else by a unique case-insensitive match.
func findColumn(cols []pgColumn, name string) int {
	hit := -1
	for i, c := range cols {
		if c.Name == name {
			return i
		}
		if strings.EqualFold(c.Name, name) {
			if hit >= 0 {
				return -2
			}
			hit = i
		}
	}
	return hit
}

// ensurePublication creates the publication for the captured table, or
// adds the table to an existing one (unless it publishes all tables).
func (t *tableOptions) ensurePublication(ctx context.Context, c *pgx.Conn) error {
	pub := pgx.Identifier{t.publication}.Sanitize()
	var all bool
	err := c.QueryRow(ctx, "SELECT puballtables FROM pg_publication WHERE pubname = $1", t.publication).Scan(&all)
	if errors.Is(err, pgx.ErrNoRows) {
		if err := t.checkReplicaIdentity(ctx, c); err != nil {
			return err
		}
		if _, err := c.Exec(ctx, "CREATE PUBLICATION "+pub+" FOR TABLE "+t.qualified()); err != nil {
			return t.errorf("cannot create publication %s for %s: %v (the user needs CREATE on the database and ownership of the table, or create the publication beforehand)", pub, t.qualified(), err)
		}
		return nil
	}
	if err != nil {
		return t.errorf("cannot look up publication %s: %v", pub, err)
	}
	if all {
		return nil
	}
	var n int
	if err := c.QueryRow(ctx, "SELECT count(*) FROM pg_publication_tables WHERE pubname = $1 AND schemaname = $2 AND tablename = $3",
		t.publication, t.schema, t.tableName).Scan(&n); err != nil {
		return t.errorf("cannot look up publication %s: %v", pub, err)
	}
	if n == 0 {
		if err := t.checkReplicaIdentity(ctx, c); err != nil {
			return err
		}
		if _, err := c.Exec(ctx, "ALTER PUBLICATION "+pub+" ADD TABLE "+t.qualified()); err != nil {
			return t.errorf("cannot add %s to publication %s: %v", t.qualified(), pub, err)
		}
	}
	return nil
}

// checkReplicaIdentity refuses to publish a table that has no replica
// identity (REPLICA IDENTITY NOTHING, or DEFAULT without a primary key):
// once a publication publishes its updates and deletes, PostgreSQL refuses
// every UPDATE and DELETE on it, for every application, until the
// publication or the identity changes.
func (t *tableOptions) checkReplicaIdentity(ctx context.Context, c *pgx.Conn) error {
	var ident string
	var keyed bool
	err := c.QueryRow(ctx, `SELECT c.relreplident::text,
	       EXISTS (SELECT 1 FROM pg_index i WHERE i.indrelid = c.oid AND (i.indisprimary OR i.indisreplident))
	  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	 WHERE n.nspname = $1 AND c.relname = $2`, t.schema, t.tableName).Scan(&ident, &keyed)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // a missing table is reported where it is read
	}
	if err != nil {
		return t.errorf("cannot read the replica identity of %s: %v", t.qualified(), err)
	}
	if ident == "n" || (ident == "d" && !keyed) {
		return t.errorf("table %s has no replica identity (no primary key, REPLICA IDENTITY %s): publishing it for change capture would make PostgreSQL refuse every UPDATE and DELETE on it; add a primary key or run ALTER TABLE %s REPLICA IDENTITY FULL first",
			t.qualified(), map[string]string{"n": "NOTHING", "d": "DEFAULT"}[ident], t.qualified())
	}
	return nil
}

// checkBeforeImages refuses, when the query starts, a retract changelog
// ('changelog-mode' = 'all') of a table whose replica identity is not FULL:
// PostgreSQL then logs no before image of an UPDATE, and the first one
// would fail the query, maybe hours later.
func (t *tableOptions) checkBeforeImages(ctx context.Context, c *pgx.Conn) error {
	if t.upsert || t.appendOnly {
		return nil
	}
	var ident string
	err := c.QueryRow(ctx, `SELECT c.relreplident::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
	 WHERE n.nspname = $1 AND c.relname = $2`, t.schema, t.tableName).Scan(&ident)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // a missing table is reported where it is read
	}
	if err != nil {
		return t.errorf("cannot read the replica identity of %s: %v", t.qualified(), err)
	}
	if ident != "f" {
		return t.errorf("'changelog-mode' = 'all' needs the \"before\" image of every UPDATE, which PostgreSQL logs only with REPLICA IDENTITY FULL: run ALTER TABLE %s REPLICA IDENTITY FULL, or use 'changelog-mode' = 'upsert'", t.qualified())
	}
	return nil
}

// slotState is a row of pg_replication_slots.
type slotState struct {
	exists   bool
	plugin   string
	database string
	active   bool
	pid      int32
}

// slotBusyWait is how long Open waits for an active slot to be let go (a
// query rerun right after the previous one was stopped: its walsender
// exits a moment later).
var slotBusyWait = 5 * time.Second

// lookupSlot reads the slot's state, waiting up to slotBusyWait for an
// active slot to become inactive.
func (t *tableOptions) lookupSlot(ctx context.Context, c *pgx.Conn) (slotState, error) {
	deadline := time.Now().Add(slotBusyWait)
	for {
		s, err := t.lookupSlotOnce(ctx, c)
		if err == nil || !s.active || !time.Now().Before(deadline) {
			return s, err
		}
		select {
		case <-ctx.Done():
			return s, ctx.Err()
		case <-time.After(50 * time.Millisecond):
		}
	}
}

func (t *tableOptions) lookupSlotOnce(ctx context.Context, c *pgx.Conn) (slotState, error) {
	var s slotState
	var plugin, db *string
	var pid *int32
	err := c.QueryRow(ctx, "SELECT plugin, database, active, active_pid FROM pg_replication_slots WHERE slot_name = $1", t.slot).
		Scan(&plugin, &db, &s.active, &pid)
	if errors.Is(err, pgx.ErrNoRows) {
		return s, nil
	}
	if err != nil {
		return s, t.errorf("cannot look up replication slot '%s': %v", t.slot, err)
	}
	s.exists = true
	if plugin != nil {
		s.plugin = *plugin
	}
	if db != nil {
		s.database = *db
	}
	if pid != nil {
		s.pid = *pid
	}
	if s.plugin != "pgoutput" {
		return s, t.errorf("replication slot '%s' exists with plug-in '%s'; postgres-cdc needs a pgoutput slot: drop it (SELECT pg_drop_replication_slot('%s')) or choose another 'slot.name'", t.slot, s.plugin, t.slot)
	}
	if s.database != t.database {
		return s, t.errorf("replication slot '%s' belongs to database '%s', not '%s': choose another 'slot.name'", t.slot, s.database, t.database)
	}
	if s.active {
		return s, t.errorf("replication slot '%s' is active for PID %d: another reader uses it; give each table its own 'slot.name'", t.slot, s.pid)
	}
	return s, nil
}

// dropInactiveSlot drops the slot, retrying for slotBusyWait while another
// backend holds it (the previous reader's walsender exiting, or its own
// drop); a slot gone meanwhile is fine.
func (t *tableOptions) dropInactiveSlot(ctx context.Context, c *pgx.Conn) error {
	deadline := time.Now().Add(slotBusyWait)
	for {
		_, err := c.Exec(ctx, "SELECT pg_drop_replication_slot($1)", t.slot)
		var pe *pgconn.PgError
		switch {
		case err == nil:
			return nil
		case errors.As(err, &pe) && pe.Code == "42704":
			return nil
		case errors.As(err, &pe) && pe.Code == "55006" && time.Now().Before(deadline):
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(50 * time.Millisecond):
			}
		default:
			return t.errorf("cannot drop replication slot '%s' to take a new snapshot: %v", t.slot, err)
		}
	}
}

func quoteLiteral(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// slotError describes a failed slot command.
func (t *tableOptions) slotError(what string, err error) error {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "42501":
			return t.errorf("user '%s' may not %s replication slot '%s': %s (the user needs the REPLICATION attribute)", t.user, what, t.slot, pe.Message)
		case "53400":
			return t.errorf("cannot %s replication slot '%s': %s (raise max_replication_slots or drop unused slots)", what, t.slot, pe.Message)
		case "55006":
			return t.errorf("replication slot '%s' is in use: %s; give each table its own 'slot.name'", t.slot, pe.Message)
		}
	}
	return t.errorf("cannot %s replication slot '%s': %v", what, t.slot, err)
}
