//go:build interop

package interop

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	_ "github.com/jackc/pgx/v5/stdlib" // database/sql driver "pgx"
)

// Postgres is a running PostgreSQL server as scripts/db.sh start reports it
// in endpoints.env: a superuser with REPLICATION, wal_level=logical, 127.0.0.1.
type Postgres struct {
	Version  string // e.g. "15.18"
	Host     string // "127.0.0.1"
	Port     int
	User     string // "riffle", a superuser with REPLICATION
	Password string
	Database string // "riffle", or the one CreateDatabase made
	URL      string // JDBC form: jdbc:postgresql://127.0.0.1:PORT/DATABASE
	DSN      string // Go (pgx) form: postgres://USER:PASSWORD@127.0.0.1:PORT/DATABASE?sslmode=disable
	RunDir   string // the servers' run folder (scripts/db.sh's DB_RUN_DIR)
}

// MariaDB is a running MariaDB server as scripts/db.sh start reports it in
// endpoints.env: a user with all privileges, 127.0.0.1, UTC.
type MariaDB struct {
	Version  string // e.g. "10.11.19-MariaDB-0+deb12u1"
	Host     string // "127.0.0.1"
	Port     int
	User     string // "riffle", all privileges WITH GRANT OPTION
	Password string
	Database string // "riffle", or the one CreateDatabase made
	URL      string // JDBC form: jdbc:mysql://127.0.0.1:PORT/DATABASE
	DSN      string // go-sql-driver form: USER:PASSWORD@tcp(127.0.0.1:PORT)/DATABASE?parseTime=true&multiStatements=true
	RunDir   string // the servers' run folder (scripts/db.sh's DB_RUN_DIR)
}

// dbRunDir is scripts/db.sh's run folder: $DB_RUN_DIR, else
// $RIFFLE_CACHE/db-run, else ${XDG_CACHE_HOME:-~/.cache}/riffle/db-run.
func dbRunDir() string {
	if d := os.Getenv("DB_RUN_DIR"); d != "" {
		return d
	}
	return filepath.Join(cacheDir(), "db-run")
}

// dbVars returns the servers' endpoints: the environment's when it names
// key (scripts/interop.sh exports endpoints.env), else those in the run
// folder's endpoints.env; from says which.
func dbVars(key string) (vars map[string]string, from string, err error) {
	if os.Getenv(key) != "" {
		vars = map[string]string{}
		for _, n := range []string{"DB_RUN_DIR", "PG_VERSION", "PG_HOST", "PG_PORT", "PG_USER", "PG_PASSWORD",
			"PG_DATABASE", "MARIADB_VERSION", "MARIADB_HOST", "MARIADB_PORT", "MARIADB_USER", "MARIADB_PASSWORD",
			"MARIADB_DATABASE"} {
			vars[n] = os.Getenv(n)
		}
		return vars, "the environment", nil
	}
	vars, from, err = dbVarsFile(dbRunDir())
	if err != nil {
		return nil, "", fmt.Errorf("%s is not set and %w (start the servers with scripts/db.sh start)", key, err)
	}
	return vars, from, nil
}

// dbVarsFile reads runDir/endpoints.env (its values single-quoted for the
// shell).
func dbVarsFile(runDir string) (map[string]string, string, error) {
	path := filepath.Join(runDir, "endpoints.env")
	vars, err := readEnvFile(path)
	if err != nil {
		return nil, "", err
	}
	for k, v := range vars {
		if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
			vars[k] = v[1 : len(v)-1]
		}
	}
	if vars["DB_RUN_DIR"] == "" {
		vars["DB_RUN_DIR"] = runDir
	}
	return vars, path, nil
}

// FindPostgres returns the PostgreSQL server named by the environment
// (PG_HOST, PG_PORT, PG_USER, PG_PASSWORD, PG_DATABASE, PG_VERSION,
// DB_RUN_DIR: scripts/interop.sh exports them) or else by the file
// endpoints.env in $DB_RUN_DIR or in scripts/db.sh's default run folder
// ($RIFFLE_CACHE/db-run). It fails when none is named or when nothing
// listens at the named address (a 3 s TCP dial).
func FindPostgres() (Postgres, error) {
	vars, from, err := dbVars("PG_PORT")
	if err != nil {
		return Postgres{}, fmt.Errorf("interop: no running PostgreSQL: %w", err)
	}
	return postgresOf(vars, from)
}

func postgresOf(vars map[string]string, from string) (Postgres, error) {
	port, err := strconv.Atoi(vars["PG_PORT"])
	if err != nil || vars["PG_HOST"] == "" || vars["PG_USER"] == "" {
		return Postgres{}, fmt.Errorf("interop: %s names no PostgreSQL (PG_HOST=%q PG_PORT=%q PG_USER=%q)",
			from, vars["PG_HOST"], vars["PG_PORT"], vars["PG_USER"])
	}
	p := Postgres{Version: vars["PG_VERSION"], Host: vars["PG_HOST"], Port: port, User: vars["PG_USER"],
		Password: vars["PG_PASSWORD"], RunDir: vars["DB_RUN_DIR"]}
	p = p.WithDatabase(vars["PG_DATABASE"])
	if err := dialCheck("PostgreSQL", p.Host, p.Port, from); err != nil {
		return Postgres{}, err
	}
	return p, nil
}

// FindMariaDB is FindPostgres for the MariaDB server (MARIADB_HOST,
// MARIADB_PORT, MARIADB_USER, MARIADB_PASSWORD, MARIADB_DATABASE,
// MARIADB_VERSION).
func FindMariaDB() (MariaDB, error) {
	vars, from, err := dbVars("MARIADB_PORT")
	if err != nil {
		return MariaDB{}, fmt.Errorf("interop: no running MariaDB: %w", err)
	}
	return mariaDBOf(vars, from)
}

func mariaDBOf(vars map[string]string, from string) (MariaDB, error) {
	port, err := strconv.Atoi(vars["MARIADB_PORT"])
	if err != nil || vars["MARIADB_HOST"] == "" || vars["MARIADB_USER"] == "" {
		return MariaDB{}, fmt.Errorf("interop: %s names no MariaDB (MARIADB_HOST=%q MARIADB_PORT=%q MARIADB_USER=%q)",
			from, vars["MARIADB_HOST"], vars["MARIADB_PORT"], vars["MARIADB_USER"])
	}
	m := MariaDB{Version: vars["MARIADB_VERSION"], Host: vars["MARIADB_HOST"], Port: port, User: vars["MARIADB_USER"],
		Password: vars["MARIADB_PASSWORD"], RunDir: vars["DB_RUN_DIR"]}
	m = m.WithDatabase(vars["MARIADB_DATABASE"])
	if err := dialCheck("MariaDB", m.Host, m.Port, from); err != nil {
		return MariaDB{}, err
	}
	return m, nil
}

func dialCheck(what, host string, port int, from string) error {
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	c, err := net.DialTimeout("tcp", addr, 3*time.Second)
	if err != nil {
		return fmt.Errorf("interop: no %s answers at %s (named by %s): %w (start the servers with scripts/db.sh start)", what, addr, from, err)
	}
	return c.Close()
}

// PostgresFromEnv returns the running PostgreSQL server (see FindPostgres)
// or fails the test: under the interop tag a missing server is a failure,
// never a skip.
func PostgresFromEnv(t testing.TB) Postgres {
	t.Helper()
	p, err := FindPostgres()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// MariaDBFromEnv returns the running MariaDB server (see FindMariaDB) or
// fails the test.
func MariaDBFromEnv(t testing.TB) MariaDB {
	t.Helper()
	m, err := FindMariaDB()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// WithDatabase returns p with Database, URL and DSN naming database db.
func (p Postgres) WithDatabase(db string) Postgres {
	p.Database = db
	hostPort := net.JoinHostPort(p.Host, strconv.Itoa(p.Port))
	p.URL = "jdbc:postgresql://" + hostPort + "/" + db
	u := url.URL{Scheme: "postgres", User: url.UserPassword(p.User, p.Password), Host: hostPort,
		Path: "/" + db, RawQuery: "sslmode=disable"}
	p.DSN = u.String()
	return p
}

// WithDatabase returns m with Database, URL and DSN naming database db.
func (m MariaDB) WithDatabase(db string) MariaDB {
	m.Database = db
	hostPort := net.JoinHostPort(m.Host, strconv.Itoa(m.Port))
	m.URL = "jdbc:mysql://" + hostPort + "/" + db
	cfg := mysql.NewConfig()
	cfg.User, cfg.Passwd, cfg.Net, cfg.Addr, cfg.DBName = m.User, m.Password, "tcp", hostPort, db
	cfg.ParseTime, cfg.MultiStatements = true, true
	m.DSN = cfg.FormatDSN()
	return m
}

// dbNameRE is what CreateDatabase accepts: a plain identifier that needs no
// quoting on either server (and stays under both servers' 63/64-byte limit).
var dbNameRE = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

func dbCtx(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

// Connect opens a pgx connection to p's database, closed when the test
// ends; it fails the test when the server refuses.
func (p Postgres) Connect(t testing.TB) *pgx.Conn {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, p.DSN)
	if err != nil {
		t.Fatalf("interop: connect to PostgreSQL %s:%d/%s: %v", p.Host, p.Port, p.Database, err)
	}
	t.Cleanup(func() { _ = c.Close(context.Background()) })
	return c
}

// DB opens a database/sql handle (driver "pgx") on p's database, closed
// when the test ends.
func (p Postgres) DB(t testing.TB) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", p.DSN)
	if err != nil {
		t.Fatalf("interop: open PostgreSQL %s:%d/%s: %v", p.Host, p.Port, p.Database, err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// Exec runs each statement in order on one connection to p's database and
// fails the test at the first error, naming the statement.
func (p Postgres) Exec(t testing.TB, stmts ...string) {
	t.Helper()
	ctx := dbCtx(t)
	c, err := pgx.Connect(ctx, p.DSN)
	if err != nil {
		t.Fatalf("interop: connect to PostgreSQL %s:%d/%s: %v", p.Host, p.Port, p.Database, err)
	}
	defer c.Close(context.Background())
	for _, s := range stmts {
		if _, err := c.Exec(ctx, s); err != nil {
			t.Fatalf("interop: PostgreSQL %s: %s: %v", p.Database, s, err)
		}
	}
}

// CreateDatabase drops the database name if it exists (with the
// replication slots on it and its connections) and creates it empty; it
// returns p on that database. name is a lower-case identifier
// ([a-z_][a-z0-9_]*, at most 63 bytes); give each test its own (e.g.
// "jdbc_scan") so that tests sharing the server never clash.
func (p Postgres) CreateDatabase(t testing.TB, name string) Postgres {
	t.Helper()
	if !dbNameRE.MatchString(name) {
		t.Fatalf("interop: database name %q: want [a-z_][a-z0-9_]*, at most 63 bytes", name)
	}
	admin := p.WithDatabase("postgres")
	ctx := dbCtx(t)
	c, err := pgx.Connect(ctx, admin.DSN)
	if err != nil {
		t.Fatalf("interop: connect to PostgreSQL %s:%d: %v", p.Host, p.Port, err)
	}
	defer c.Close(context.Background())
	// A logical slot keeps its database from being dropped: end the
	// walsender that uses it, then drop it.
	steps := []string{
		`SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE database = $1 AND active_pid IS NOT NULL`,
		`SELECT pg_drop_replication_slot(slot_name) FROM pg_replication_slots WHERE database = $1`,
	}
	for _, s := range steps {
		if err := retry(ctx, func() error { _, err := c.Exec(ctx, s, name); return err }); err != nil {
			t.Fatalf("interop: PostgreSQL: dropping the replication slots on %s: %v", name, err)
		}
	}
	for _, s := range []string{"DROP DATABASE IF EXISTS " + name + " WITH (FORCE)", "CREATE DATABASE " + name} {
		if _, err := c.Exec(ctx, s); err != nil {
			t.Fatalf("interop: PostgreSQL: %s: %v", s, err)
		}
	}
	return p.WithDatabase(name)
}

// retry runs f until it succeeds, at most 5 times 200 ms apart (a
// terminated walsender lets go of its slot a moment after it is told).
func retry(ctx context.Context, f func() error) error {
	var err error
	for i := 0; i < 5; i++ {
		if err = f(); err == nil {
			return nil
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(200 * time.Millisecond):
		}
	}
	return err
}

// DB opens a database/sql handle on m's database, closed when the test ends.
func (m MariaDB) DB(t testing.TB) *sql.DB {
	t.Helper()
	db, err := sql.Open("mysql", m.DSN)
	if err != nil {
		t.Fatalf("interop: open MariaDB %s:%d/%s: %v", m.Host, m.Port, m.Database, err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

// Exec runs each statement in order on one connection to m's database and
// fails the test at the first error, naming the statement.
func (m MariaDB) Exec(t testing.TB, stmts ...string) {
	t.Helper()
	ctx := dbCtx(t)
	db, err := sql.Open("mysql", m.DSN)
	if err != nil {
		t.Fatalf("interop: open MariaDB %s:%d/%s: %v", m.Host, m.Port, m.Database, err)
	}
	defer db.Close()
	c, err := db.Conn(ctx)
	if err != nil {
		t.Fatalf("interop: connect to MariaDB %s:%d/%s: %v", m.Host, m.Port, m.Database, err)
	}
	defer c.Close()
	for _, s := range stmts {
		if _, err := c.ExecContext(ctx, s); err != nil {
			t.Fatalf("interop: MariaDB %s: %s: %v", m.Database, s, err)
		}
	}
}

// CreateDatabase drops the database name if it exists and creates it
// empty (utf8mb4); it returns m on that database. name is as for
// Postgres.CreateDatabase.
func (m MariaDB) CreateDatabase(t testing.TB, name string) MariaDB {
	t.Helper()
	if !dbNameRE.MatchString(name) {
		t.Fatalf("interop: database name %q: want [a-z_][a-z0-9_]*, at most 63 bytes", name)
	}
	m.WithDatabase("").Exec(t, "DROP DATABASE IF EXISTS "+name, "CREATE DATABASE "+name+" CHARACTER SET utf8mb4")
	return m.WithDatabase(name)
}

// RestartPostgres stops p's server and starts it again on the same port
// and data (scripts/db.sh restart-postgres; fast shutdown, so open
// connections break and replication slots stay); it returns once the
// server answers queries again. Every test using that server sees the
// restart: a test that restarts should start its own servers
// (StartPrivateDB) rather than restart the shared ones.
func RestartPostgres(t testing.TB, p Postgres) {
	t.Helper()
	dbScript(t, p.RunDir, "restart-postgres")
}

// StartPrivateDB starts a PostgreSQL and MariaDB pair of the test's own
// (scripts/db.sh start in a fresh run folder, about 2 s) and deletes it
// when the test ends (scripts/db.sh purge).
func StartPrivateDB(t testing.TB) (Postgres, MariaDB) {
	t.Helper()
	dir, err := os.MkdirTemp("", "riffle-db-test.")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { dbScriptQuiet(dir, "purge"); _ = os.RemoveAll(dir) })
	dbScript(t, dir, "start")
	vars, from, err := dbVarsFile(dir)
	if err != nil {
		t.Fatal(err)
	}
	p, err := postgresOf(vars, from)
	if err != nil {
		t.Fatal(err)
	}
	m, err := mariaDBOf(vars, from)
	if err != nil {
		t.Fatal(err)
	}
	return p, m
}

func dbScript(t testing.TB, runDir, cmd string) {
	t.Helper()
	if runDir == "" {
		t.Fatalf("interop: scripts/db.sh %s: no run folder known (DB_RUN_DIR)", cmd)
	}
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command(filepath.Join(root, "scripts", "db.sh"), cmd)
	c.Env = append(os.Environ(), "DB_RUN_DIR="+runDir)
	out, err := c.CombinedOutput()
	if err != nil {
		t.Fatalf("interop: DB_RUN_DIR=%s scripts/db.sh %s: %v\n%s", runDir, cmd, err, strings.TrimSpace(string(out)))
	}
}

func dbScriptQuiet(runDir, cmd string) {
	root, err := RepoRoot()
	if err != nil {
		return
	}
	c := exec.Command(filepath.Join(root, "scripts", "db.sh"), cmd)
	c.Env = append(os.Environ(), "DB_RUN_DIR="+runDir)
	_ = c.Run()
}
