//go:build interop

package interop

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"golang.org/x/sys/unix"

	"github.com/riffle-sql/riffle/cli"
	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/table"
)

// Cancellation of jobs blocked in a connector's read or write against the
// real servers: a scan or a lookup waiting for a table lock, an INSERT
// waiting for a row lock, a Kafka poll of an empty topic, a Kafka sink
// whose broker does not answer, a PostgreSQL CDC stream without changes
// and a replication slot waiting for a running transaction. Each test
// waits (polling the server or the goroutine stacks) until the job is
// blocked, cancels it and waits for its end: the job must end CANCELED
// within cancelBound (without the fixes most of them wait for as long as
// the lock is held), its goroutines in the engine must be gone, and the
// server must have stopped the statement too (it is gone from
// pg_stat_activity / the processlist while the lock is still held). The
// measured time from Cancel to the job's end is logged.

// cancelBound is a generous bound for a cancelled job to end: the fixes
// end them in well under a second; without them they hang for as long as
// the server waits.
const cancelBound = 10 * time.Second

func cancelEnv(t *testing.T) *table.TableEnvironment {
	t.Helper()
	e := table.MustCreate(table.InStreamingMode())
	e.GetConfig().Set("table.local-time-zone", "UTC")
	return e
}

func cancelExec(t *testing.T, e *table.TableEnvironment, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := e.ExecuteSQL(s); err != nil {
			t.Fatalf("%s\n-> %v", s, err)
		}
	}
}

// startJob submits stmt (a query or an INSERT) and returns its running job.
func startJob(t *testing.T, e *table.TableEnvironment, stmt string) *table.JobClient {
	t.Helper()
	res, err := e.ExecuteSQL(stmt)
	if err != nil {
		t.Fatalf("%s\n-> %v", stmt, err)
	}
	jc := res.GetJobClient()
	if jc == nil {
		t.Fatalf("%s: no job", stmt)
	}
	t.Cleanup(func() { _ = jc.Cancel() })
	return jc
}

// engineGoroutines lists the stacks of goroutines running connector or
// runtime code.
func engineGoroutines() []string {
	buf := make([]byte, 4<<20)
	n := runtime.Stack(buf, true)
	var out []string
	for _, g := range strings.Split(string(buf[:n]), "\n\n") {
		if strings.Contains(g, "riffle/engine/connector/") || strings.Contains(g, "riffle/engine/internal/runtime.") {
			out = append(out, g)
		}
	}
	return out
}

// stackHas reports whether a goroutine's stack holds every one of parts.
func stackHas(parts ...string) bool {
	buf := make([]byte, 4<<20)
	n := runtime.Stack(buf, true)
	for _, g := range strings.Split(string(buf[:n]), "\n\n") {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(g, p)
		}
		if all {
			return true
		}
	}
	return false
}

// waitUntil polls cond every 20 ms until it holds, failing after 60 s.
func waitUntil(t *testing.T, what string, cond func() (bool, error)) {
	t.Helper()
	waitWithin(t, what, 60*time.Second, cond)
}

// waitWithin polls cond every 20 ms until it holds, failing after bound.
func waitWithin(t *testing.T, what string, bound time.Duration, cond func() (bool, error)) {
	t.Helper()
	deadline := time.Now().Add(bound)
	var last error
	for time.Now().Before(deadline) {
		ok, err := cond()
		if err == nil && ok {
			return
		}
		last = err
		time.Sleep(20 * time.Millisecond) // polling a condition with a deadline
	}
	t.Fatalf("%s: not within %v (last error: %v)", what, bound, last)
}

// serverStops waits, at most cancelBound after the job's end, until the
// server no longer runs the job's statement (it may keep waiting for a
// lock after its client went away, until the lock's holder lets go or a
// lock timeout fires).
func serverStops(t *testing.T, what string, cond func() (bool, error)) {
	t.Helper()
	start := time.Now()
	waitWithin(t, what, cancelBound, cond)
	t.Logf("%s: %v after the job's end", what, time.Since(start).Round(time.Millisecond))
}

// cancelAndMeasure cancels the job and waits for its end (bounded by
// cancelBound); it checks the job ended CANCELED, that no engine goroutine
// beyond the baseline count is left and logs the time from Cancel to the
// end.
func cancelAndMeasure(t *testing.T, jc *table.JobClient, baseline int) time.Duration {
	t.Helper()
	if st := jc.Status(); st.IsTerminal() {
		t.Fatalf("the job ended before it was cancelled: %v, %v", st, jc.Err())
	}
	start := time.Now()
	if err := jc.Cancel(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-jc.Done():
	case <-time.After(cancelBound):
		t.Fatalf("the job did not end within %v of its cancellation", cancelBound)
	}
	d := time.Since(start)
	t.Logf("from Cancel to the job's end: %v", d.Round(time.Millisecond))
	if st := jc.Status(); st != table.JobCanceled {
		t.Fatalf("the cancelled job ended %v (%v), want CANCELED", st, jc.Err())
	}
	if err := jc.Err(); !errors.Is(err, table.ErrCanceled) {
		t.Fatalf("the cancelled job's error is %v, want ErrCanceled", err)
	}
	var left []string
	waitUntil(t, "the job's goroutines end", func() (bool, error) {
		left = engineGoroutines()
		return len(left) <= baseline, nil
	})
	return d
}

// --- JDBC on PostgreSQL ---

// pgWaiting counts the statements of other sessions of the database that
// are running and whose text starts with prefix and names tbl.
func pgWaiting(c *pgx.Conn, prefix, tbl string) func() (int, error) {
	return func() (int, error) {
		var n int
		err := c.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'
			AND wait_event_type = 'Lock' AND query LIKE $1`, prefix+"%"+tbl+"%").Scan(&n)
		return n, err
	}
}

func pgActive(c *pgx.Conn, prefix, tbl string) func() (int, error) {
	return func() (int, error) {
		var n int
		err := c.QueryRow(context.Background(), `SELECT count(*) FROM pg_stat_activity
			WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active'
			AND query LIKE $1`, prefix+"%"+tbl+"%").Scan(&n)
		return n, err
	}
}

func is(n int) func(f func() (int, error)) func() (bool, error) {
	return func(f func() (int, error)) func() (bool, error) {
		return func() (bool, error) {
			got, err := f()
			return err == nil && got == n, err
		}
	}
}

// pgLockTable holds an ACCESS EXCLUSIVE lock on tbl until the test ends
// (or release is called): every other statement on it waits.
func pgLockTable(t *testing.T, p Postgres, tbl string) (release func()) {
	t.Helper()
	c := p.Connect(t)
	ctx := context.Background()
	tx, err := c.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, "LOCK TABLE "+tbl+" IN ACCESS EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release = func() { once.Do(func() { _ = tx.Rollback(ctx) }) }
	t.Cleanup(release)
	return release
}

// pgHold runs stmt in a transaction on p that stays open, holding its
// locks, until rollback is called or the test ends.
func pgHold(t *testing.T, p Postgres, stmt string) (rollback func() error) {
	t.Helper()
	ctx := context.Background()
	tx, err := p.Connect(t).Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tx.Rollback(ctx) })
	if _, err := tx.Exec(ctx, stmt); err != nil {
		t.Fatal(err)
	}
	return func() error { return tx.Rollback(ctx) }
}

// mariaDBHold runs stmt in a transaction on m that stays open, holding its
// locks, until rollback is called or the test ends.
func mariaDBHold(t *testing.T, m MariaDB, stmt string) (rollback func() error) {
	t.Helper()
	ctx := context.Background()
	conn, err := m.DB(t).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tx.Rollback(); _ = conn.Close() })
	if _, err := tx.ExecContext(ctx, stmt); err != nil {
		t.Fatal(err)
	}
	return tx.Rollback
}

func jdbcTableDDL(name, cols, url, user, password, dbTable string, more ...string) string {
	opts := []string{"'connector' = 'jdbc'", fmt.Sprintf("'url' = '%s'", url), fmt.Sprintf("'table-name' = '%s'", dbTable),
		fmt.Sprintf("'username' = '%s'", user), fmt.Sprintf("'password' = '%s'", password)}
	opts = append(opts, more...)
	return fmt.Sprintf("CREATE TABLE %s (%s) WITH (%s)", name, cols, strings.Join(opts, ", "))
}

// A jdbc scan waiting for a table lock on PostgreSQL: the cancelled job
// ends, and the server stops its SELECT (pgx sends a CancelRequest)
// while the lock is still held.
func TestCancelJDBCScanWaitingForLockPostgres(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "cancel_jdbc_scan")
	p.Exec(t, "CREATE TABLE cancel_src (id INT PRIMARY KEY, v TEXT)", "INSERT INTO cancel_src VALUES (1, 'a')")
	release := pgLockTable(t, p, "cancel_src")
	mon := p.Connect(t)
	e := cancelEnv(t)
	cancelExec(t, e, jdbcTableDDL("src", "id INT, v STRING", p.URL, p.User, p.Password, "cancel_src"))
	base := len(engineGoroutines())
	jc := startJob(t, e, "SELECT id, v FROM src")
	waitUntil(t, "the scan waits for the lock", is(1)(pgWaiting(mon, "SELECT", "cancel_src")))
	cancelAndMeasure(t, jc, base)
	serverStops(t, "the scan's SELECT ends on the server while the lock is held", is(0)(pgActive(mon, "SELECT", "cancel_src")))
	release()
}

// A lookup join whose lookup query waits for a table lock on PostgreSQL.
func TestCancelJDBCLookupWaitingForLockPostgres(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "cancel_jdbc_lookup")
	p.Exec(t, "CREATE TABLE cancel_dim (id INT PRIMARY KEY, name TEXT)", "INSERT INTO cancel_dim VALUES (7, 'seven')")
	release := pgLockTable(t, p, "cancel_dim")
	mon := p.Connect(t)
	e := cancelEnv(t)
	cancelExec(t, e,
		jdbcTableDDL("dim", "id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED", p.URL, p.User, p.Password, "cancel_dim"),
		"CREATE TEMPORARY VIEW orders AS SELECT * FROM (VALUES (1, 7)) AS o(oid, k)")
	base := len(engineGoroutines())
	jc := startJob(t, e, "SELECT o.oid, d.name FROM (SELECT *, PROCTIME() AS pt FROM orders) AS o "+
		"JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.k = d.id")
	waitUntil(t, "the lookup waits for the lock", is(1)(pgWaiting(mon, "SELECT", "cancel_dim")))
	cancelAndMeasure(t, jc, base)
	serverStops(t, "the lookup's SELECT ends on the server while the lock is held", is(0)(pgActive(mon, "SELECT", "cancel_dim")))
	release()
}

// A jdbc sink whose INSERT waits for a row another transaction inserted
// and has not committed: the cancelled job ends, the server stops the
// INSERT, and nothing of the job's row is written.
func TestCancelJDBCSinkWaitingForRowLockPostgres(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "cancel_jdbc_sink")
	p.Exec(t, "CREATE TABLE cancel_sink (id INT PRIMARY KEY, v TEXT)")
	ctx := context.Background()
	rollback := pgHold(t, p, "INSERT INTO cancel_sink VALUES (1, 'held')")
	mon := p.Connect(t)
	e := cancelEnv(t)
	cancelExec(t, e, jdbcTableDDL("snk", "id INT, v STRING", p.URL, p.User, p.Password, "cancel_sink"))
	base := len(engineGoroutines())
	jc := startJob(t, e, "INSERT INTO snk VALUES (1, 'riffle')")
	waitUntil(t, "the sink's INSERT waits for the row lock", is(1)(pgWaiting(mon, "INSERT", "cancel_sink")))
	cancelAndMeasure(t, jc, base)
	serverStops(t, "the sink's INSERT ends on the server while the row is held", is(0)(pgActive(mon, "INSERT", "cancel_sink")))
	if err := rollback(); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := mon.QueryRow(ctx, "SELECT count(*) FROM cancel_sink").Scan(&n); err != nil || n != 0 {
		t.Fatalf("rows in cancel_sink after the cancelled INSERT: %d, %v; want 0", n, err)
	}
}

// --- JDBC on MariaDB ---

// myProcesses counts the other sessions' statements that start with
// prefix and name tbl (the processlist keeps a statement until it ends,
// also after its client went away).
func myProcesses(db *sql.DB, prefix, tbl string) func() (int, error) {
	return func() (int, error) {
		var n int
		err := db.QueryRow(`SELECT COUNT(*) FROM information_schema.processlist
			WHERE db = DATABASE() AND id <> CONNECTION_ID() AND info LIKE ?`, prefix+"%"+tbl+"%").Scan(&n)
		return n, err
	}
}

// A jdbc scan waiting for LOCK TABLES ... WRITE on MariaDB: go-sql-driver
// only closes its socket on cancellation, so the server would go on
// waiting (lock_wait_timeout is a year by default); the source's KILL
// QUERY stops it.
func TestCancelJDBCScanWaitingForLockMariaDB(t *testing.T) {
	m := MariaDBFromEnv(t).CreateDatabase(t, "cancel_jdbc_scan")
	m.Exec(t, "CREATE TABLE cancel_src (id INT PRIMARY KEY, v TEXT)", "INSERT INTO cancel_src VALUES (1, 'a')")
	ctx := context.Background()
	locker, err := m.DB(t).Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer locker.Close()
	if _, err := locker.ExecContext(ctx, "LOCK TABLES cancel_src WRITE"); err != nil {
		t.Fatal(err)
	}
	mon := m.DB(t)
	e := cancelEnv(t)
	cancelExec(t, e, jdbcTableDDL("src", "id INT, v STRING", m.URL, m.User, m.Password, "cancel_src"))
	base := len(engineGoroutines())
	jc := startJob(t, e, "SELECT id, v FROM src")
	waitUntil(t, "the scan waits for the lock", is(1)(myProcesses(mon, "SELECT", "cancel_src")))
	cancelAndMeasure(t, jc, base)
	serverStops(t, "the scan's SELECT ends on the server while the lock is held", is(0)(myProcesses(mon, "SELECT", "cancel_src")))
	if _, err := locker.ExecContext(ctx, "UNLOCK TABLES"); err != nil {
		t.Fatal(err)
	}
}

// A jdbc sink whose INSERT waits for a row lock on MariaDB (InnoDB waits
// innodb_lock_wait_timeout, 50 s by default, and the sink would retry).
func TestCancelJDBCSinkWaitingForRowLockMariaDB(t *testing.T) {
	m := MariaDBFromEnv(t).CreateDatabase(t, "cancel_jdbc_sink")
	m.Exec(t, "CREATE TABLE cancel_sink (id INT PRIMARY KEY, v TEXT) ENGINE=InnoDB")
	rollback := mariaDBHold(t, m, "INSERT INTO cancel_sink VALUES (1, 'held')")
	mon := m.DB(t)
	e := cancelEnv(t)
	cancelExec(t, e, jdbcTableDDL("snk", "id INT, v STRING", m.URL, m.User, m.Password, "cancel_sink"))
	base := len(engineGoroutines())
	jc := startJob(t, e, "INSERT INTO snk VALUES (1, 'riffle')")
	waitUntil(t, "the sink's INSERT waits for the row lock", is(1)(myProcesses(mon, "INSERT", "cancel_sink")))
	cancelAndMeasure(t, jc, base)
	serverStops(t, "the sink's INSERT ends on the server while the row is held", is(0)(myProcesses(mon, "INSERT", "cancel_sink")))
	if err := rollback(); err != nil {
		t.Fatal(err)
	}
	var n int
	if err := mon.QueryRow("SELECT COUNT(*) FROM cancel_sink").Scan(&n); err != nil || n != 0 {
		t.Fatalf("rows in cancel_sink after the cancelled INSERT: %d, %v; want 0", n, err)
	}
}

// --- Kafka ---

// A streaming query over an empty topic waits in franz-go's poll.
func TestCancelKafkaSourcePollingEmptyTopic(t *testing.T) {
	k := kafkaRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	topic := UniqueTopic("cancel_src")
	if err := k.CreateTopic(ctx, topic, 2, nil); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = k.DeleteTopic(context.Background(), topic) })
	e := cancelEnv(t)
	cancelExec(t, e, fmt.Sprintf(`CREATE TABLE k (v STRING) WITH ('connector' = 'kafka', 'topic' = '%s',
		'properties.bootstrap.servers' = '%s', 'scan.startup.mode' = 'earliest-offset', 'format' = 'raw')`, topic, k.Bootstrap))
	base := len(engineGoroutines())
	jc := startJob(t, e, "SELECT v FROM k")
	waitUntil(t, "the source polls the empty topic", func() (bool, error) {
		return stackHas("connector/kafka.(*reader).Next", "PollFetches"), nil
	})
	cancelAndMeasure(t, jc, base)
}

// A Kafka sink whose broker does not answer (a listening port that never
// replies): the sink waits for the topic's metadata; cancelling ends it.
func TestCancelKafkaSinkBrokerNotAnswering(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c) // accepted, never answered
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
	}()
	e := cancelEnv(t)
	cancelExec(t, e, fmt.Sprintf(`CREATE TABLE k (v STRING) WITH ('connector' = 'kafka', 'topic' = 'cancel_sink',
		'properties.bootstrap.servers' = '%s', 'format' = 'raw')`, ln.Addr()))
	base := len(engineGoroutines())
	jc := startJob(t, e, "INSERT INTO k VALUES ('x')")
	waitUntil(t, "the sink waits for the broker", func() (bool, error) {
		return stackHas("connector/kafka.(*tableOptions).topicPartitions"), nil
	})
	cancelAndMeasure(t, jc, base)
}

// --- PostgreSQL CDC ---

// A postgres-cdc stream with no changes waits for the server's next
// message; cancelling ends it and frees the slot.
func TestCancelPostgresCDCStreamWithoutChanges(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "cancel_cdc_stream")
	p.Exec(t, "CREATE TABLE items (id INT PRIMARY KEY, name TEXT)", "ALTER TABLE items REPLICA IDENTITY FULL",
		"INSERT INTO items VALUES (1, 'a')")
	e := cancelEnv(t)
	cancelExec(t, e, "CREATE TABLE items (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) "+cdcWith(p, "items", "cancel_stream"))
	base := len(engineGoroutines())
	jc := startJob(t, e, "SELECT id, name FROM items")
	waitSlotActive(t, p, "cancel_stream")
	cancelAndMeasure(t, jc, base)
	waitSlotInactive(t, p, "cancel_stream")
}

// Creating the replication slot waits for the transactions that were
// running when it started (a logical slot needs a consistent point): a
// transaction that wrote and stays open keeps the source waiting in
// CREATE_REPLICATION_SLOT. Cancelling ends the job and the walsender's
// wait.
func TestCancelPostgresCDCSlotWaitingForTransaction(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "cancel_cdc_slot")
	p.Exec(t, "CREATE TABLE items (id INT PRIMARY KEY, name TEXT)", "ALTER TABLE items REPLICA IDENTITY FULL",
		"CREATE TABLE other (id INT)")
	ctx := context.Background()
	pgHold(t, p, "INSERT INTO other VALUES (1)")
	mon := p.Connect(t)
	walsenderWaiting := func() (int, error) {
		var n int
		err := mon.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity
			WHERE backend_type = 'walsender' AND datname = current_database() AND wait_event_type = 'Lock'`).Scan(&n)
		return n, err
	}
	e := cancelEnv(t)
	cancelExec(t, e, "CREATE TABLE items (id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED) "+cdcWith(p, "items", "cancel_slot"))
	base := len(engineGoroutines())
	jc := startJob(t, e, "SELECT id, name FROM items")
	waitUntil(t, "the slot's creation waits for the open transaction", is(1)(walsenderWaiting))
	cancelAndMeasure(t, jc, base)
	serverStops(t, "the walsender stops waiting while the transaction is open", is(0)(walsenderWaiting))
	var slots int
	if err := mon.QueryRow(ctx, "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'cancel_slot'").Scan(&slots); err != nil || slots != 0 {
		t.Fatalf("slots named cancel_slot after the cancelled creation: %d, %v; want 0", slots, err)
	}
}

// --- riffle sql ---

// riffle sql running a query whose scan waits for a table lock: cancelling
// its context (what SIGTERM does in main) makes it exit, and the server's
// statement ends.
func TestCancelSQLClientScanWaitingForLock(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "cancel_jdbc_cli")
	p.Exec(t, "CREATE TABLE cancel_src (id INT PRIMARY KEY, v TEXT)", "INSERT INTO cancel_src VALUES (1, 'a')")
	pgLockTable(t, p, "cancel_src")
	mon := p.Connect(t)
	script := jdbcTableDDL("src", "id INT, v STRING", p.URL, p.User, p.Password, "cancel_src") + ";\nSELECT id, v FROM src;\n"
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- cli.Main(ctx, cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, []string{"sql", "-e", script})
	}()
	waitUntil(t, "the scan waits for the lock", is(1)(pgWaiting(mon, "SELECT", "cancel_src")))
	start := time.Now()
	cancel()
	select {
	case code := <-done:
		t.Logf("from the cancellation to riffle sql's exit: %v (exit code %d)", time.Since(start).Round(time.Millisecond), code)
		if code == 0 {
			t.Errorf("a cancelled query exited 0; stderr: %s", errb.String())
		}
	case <-time.After(cancelBound):
		t.Fatalf("riffle sql did not exit within %v of its cancellation", cancelBound)
	}
	serverStops(t, "the SELECT ends on the server while the lock is held", is(0)(pgActive(mon, "SELECT", "cancel_src")))
}

// riffleBin is the riffle binary RIFFLE_BIN names, or one built here
// from the repository (once per test binary) when RIFFLE_BIN is not set.
func riffleBin(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("RIFFLE_BIN"); bin != "" {
		bin, err := filepath.Abs(bin)
		if err != nil {
			t.Fatal(err)
		}
		return bin
	}
	builtRiffle.once.Do(func() {
		dir, err := os.MkdirTemp("", "riffle-bin-")
		if err != nil {
			builtRiffle.err = err
			return
		}
		builtRiffle.path = filepath.Join(dir, "riffle")
		cmd := exec.Command("go", "build", "-tags", "migrated_fynedo", "-o", builtRiffle.path, ".")
		cmd.Dir = ".." // the repository's root: tests run in interop/
		if out, err := cmd.CombinedOutput(); err != nil {
			builtRiffle.err = fmt.Errorf("go build riffle: %v\n%s", err, out)
		}
	})
	if builtRiffle.err != nil {
		t.Fatal(builtRiffle.err)
	}
	return builtRiffle.path
}

// builtRiffle is the riffle binary riffleBin built.
var builtRiffle struct {
	once sync.Once
	path string
	err  error
}

// sigtermRiffleSQL runs `riffle sql -e script` (the binary bin),
// waits until blocked() holds, sends SIGTERM and waits for the process to
// exit (bounded by cancelBound), logging the time.
func sigtermRiffleSQL(t *testing.T, bin, script string, blocked func() (bool, error)) {
	t.Helper()
	var out, errb bytes.Buffer
	cmd := exec.Command(bin, "sql", "-e", script)
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	done := false
	defer func() {
		if !done {
			_ = cmd.Process.Kill()
			<-exited
		}
	}()
	waitUntil(t, "riffle sql's job is blocked", blocked)
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		done = true
		t.Logf("from SIGTERM to riffle sql's exit: %v (%v); stderr: %s", time.Since(start).Round(time.Millisecond), err, strings.TrimSpace(errb.String()))
	case <-time.After(cancelBound):
		t.Fatalf("riffle sql did not exit within %v of SIGTERM; stderr: %s", cancelBound, errb.String())
	}
}

// The built riffle binary (riffleBin) and a real SIGTERM: a
// query whose scan waits for a table lock.
func TestCancelSQLBinarySIGTERMScanWaitingForLock(t *testing.T) {
	bin := riffleBin(t)
	p := PostgresFromEnv(t).CreateDatabase(t, "cancel_jdbc_bin")
	p.Exec(t, "CREATE TABLE cancel_src (id INT PRIMARY KEY, v TEXT)", "INSERT INTO cancel_src VALUES (1, 'a')")
	pgLockTable(t, p, "cancel_src")
	mon := p.Connect(t)
	script := jdbcTableDDL("src", "id INT, v STRING", p.URL, p.User, p.Password, "cancel_src") + ";\nSELECT id, v FROM src;\n"
	sigtermRiffleSQL(t, bin, script, is(1)(pgWaiting(mon, "SELECT", "cancel_src")))
	serverStops(t, "the SELECT ends on the server while the lock is held", is(0)(pgActive(mon, "SELECT", "cancel_src")))
}

// The same with an INSERT into a jdbc table waiting for a row lock on
// MariaDB: riffle sql cancels the job and waits for it to end before it
// exits (EmbeddedEngine.Close), so the sink's KILL QUERY reaches the
// server; without that wait the server's INSERT went on after the exit
// until innodb_lock_wait_timeout (50 s).
func TestCancelSQLBinarySIGTERMInsertWaitingForRowLock(t *testing.T) {
	bin := riffleBin(t)
	m := MariaDBFromEnv(t).CreateDatabase(t, "cancel_jdbc_bin")
	m.Exec(t, "CREATE TABLE cancel_sink (id INT PRIMARY KEY, v TEXT) ENGINE=InnoDB")
	mariaDBHold(t, m, "INSERT INTO cancel_sink VALUES (1, 'held')")
	mon := m.DB(t)
	script := jdbcTableDDL("snk", "id INT, v STRING", m.URL, m.User, m.Password, "cancel_sink") + ";\nINSERT INTO snk VALUES (1, 'riffle');\n"
	sigtermRiffleSQL(t, bin, script, is(1)(myProcesses(mon, "INSERT", "cancel_sink")))
	serverStops(t, "the INSERT ends on the server while the row is held", is(0)(myProcesses(mon, "INSERT", "cancel_sink")))
}

// A bounded INSERT into Kafka whose broker went away after the sink
// opened: the sink's last flush (Commit) waits for the broker, retrying;
// cancelling ends it (it had its own deadline of the API timeout + 5 s,
// 65 s by default). The rows come from a FIFO: once the job's reader opened
// it, the sink (chained in the same task, opened before the source reads)
// has opened on the running broker; the broker stops, and the rows reach
// the sink when the FIFO's writer closes (the reader hands them over at
// the end of its input), then Commit flushes them to the stopped broker.
func TestCancelKafkaSinkFlushBrokerGone(t *testing.T) {
	k := kcPrivateKafka(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	topic := UniqueTopic("cancel_flush")
	if err := k.CreateTopic(ctx, topic, 1, nil); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(t.TempDir(), "rows.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	e := cancelEnv(t)
	cancelExec(t, e,
		fmt.Sprintf("CREATE TABLE f (v STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')", fifo),
		fmt.Sprintf(`CREATE TABLE k (v STRING) WITH ('connector' = 'kafka', 'topic' = '%s',
		'properties.bootstrap.servers' = '%s', 'format' = 'raw', 'properties.linger.ms' = '60000')`, topic, k.Bootstrap))
	base := len(engineGoroutines())
	jc := startJob(t, e, "INSERT INTO k SELECT v FROM f")
	opened := make(chan *os.File, 1)
	go func() { // the open waits for the job's reader
		if f, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			opened <- f
		}
	}()
	var w *os.File
	select {
	case w = <-opened:
	case <-jc.Done():
		// wake the open above
		if r, err := os.OpenFile(fifo, os.O_RDONLY|syscall.O_NONBLOCK, 0); err == nil {
			defer r.Close()
		}
		t.Fatalf("the job ended before it read the FIFO: %v, %v", jc.Status(), jc.Err())
	}
	defer w.Close()
	if _, err := w.WriteString("a\nb\n"); err != nil {
		t.Fatal(err)
	}
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	stop := exec.Command(filepath.Join(root, "scripts", "kafka.sh"), "stop")
	stop.Env = append(os.Environ(), "KAFKA_RUN_DIR="+k.RunDir)
	if out, err := stop.CombinedOutput(); err != nil {
		t.Fatalf("scripts/kafka.sh stop: %v\n%s", err, out)
	}
	w.Close() // the input ends: the sink's Commit flushes to the stopped broker
	waitUntil(t, "the sink's last flush waits for the broker", func() (bool, error) {
		return stackHas("connector/kafka.(*writer).Commit", "Flush"), nil
	})
	cancelAndMeasure(t, jc, base)
}

// The built riffle binary writing rows into a pipe nobody reads: its write
// cannot be interrupted, so SIGTERM ends it through the exit watchdog
// (cli.StopGrace) with status 143 and a message, not never.
func TestCancelSQLBinarySIGTERMBlockedStdout(t *testing.T) {
	bin := riffleBin(t)
	r, w, err := os.Pipe() // r is never read
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var errb bytes.Buffer
	cmd := exec.Command(bin, "sql", "-e", "CREATE TABLE g (id BIGINT, s STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '100000'); SELECT * FROM g;")
	cmd.Stdout, cmd.Stderr = w, &errb
	cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	// blocked: the pipe's buffer is full and the process still runs
	waitUntil(t, "riffle sql blocks writing its rows", func() (bool, error) {
		select {
		case err := <-exited:
			return false, fmt.Errorf("riffle sql exited: %v; stderr: %s", err, errb.String())
		default:
		}
		n, err := pipeBuffered(r)
		return n >= 4096, err
	})
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 143 {
			t.Errorf("exit: %v, want status 143", err)
		}
		if !strings.Contains(errb.String(), "after SIGTERM") {
			t.Errorf("stderr does not say why it exits: %s", errb.String())
		}
		t.Logf("from SIGTERM to exit: %v", time.Since(start).Round(time.Millisecond))
	case <-time.After(cli.StopGrace + cancelBound):
		_ = cmd.Process.Kill()
		t.Fatalf("riffle sql did not exit within %v of SIGTERM", cli.StopGrace+cancelBound)
	}
}

// pipeBuffered returns the bytes waiting in the pipe r (FIONREAD).
func pipeBuffered(r *os.File) (int, error) {
	return unix.IoctlGetInt(int(r.Fd()), unix.TIOCINQ)
}
