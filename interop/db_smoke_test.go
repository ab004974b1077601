//go:build interop

package interop

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5/pgconn"
)

// TestDBPostgres: the PostgreSQL of scripts/db.sh answers as riffle (a
// superuser with REPLICATION), runs with wal_level=logical, refuses a wrong
// password, takes a replication connection, and a pgoutput slot on it
// decodes a committed insert.
func TestDBPostgres(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "db_smoke")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := p.Connect(t)

	var version string
	var num int
	if err := c.QueryRow(ctx, "SELECT version(), current_setting('server_version_num')::int").Scan(&version, &num); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(version, "PostgreSQL ") || num < 140000 {
		t.Fatalf("version() = %q, server_version_num = %d; want PostgreSQL 14 or later", version, num)
	}
	if p.Version == "" || !strings.HasPrefix(version, "PostgreSQL "+p.Version) {
		t.Errorf("endpoints name version %q, the server says %q", p.Version, version)
	}
	var walLevel, user, tz string
	var super, repl bool
	if err := c.QueryRow(ctx, `SELECT current_setting('wal_level'), current_user, current_setting('TimeZone'), rolsuper, rolreplication
		FROM pg_roles WHERE rolname = current_user`).Scan(&walLevel, &user, &tz, &super, &repl); err != nil {
		t.Fatal(err)
	}
	if walLevel != "logical" || user != "riffle" || !super || !repl || tz != "UTC" {
		t.Fatalf("wal_level=%s user=%s TimeZone=%s superuser=%v replication=%v; want logical riffle UTC true true",
			walLevel, user, tz, super, repl)
	}

	// A wrong password is refused (SQLSTATE 28P01, invalid_password).
	bad := p
	bad.Password = "wrong"
	if _, err := pgconn.Connect(ctx, bad.WithDatabase(p.Database).DSN); err == nil {
		t.Fatal("a wrong password was accepted")
	} else if pe := (*pgconn.PgError)(nil); !errors.As(err, &pe) || pe.Code != "28P01" {
		t.Fatalf("wrong password: %v; want SQLSTATE 28P01", err)
	}

	// A replication connection (pg_hba's host replication line) identifies
	// the system and its database.
	rc, err := pgconn.Connect(ctx, p.DSN+"&replication=database")
	if err != nil {
		t.Fatalf("replication connection: %v", err)
	}
	defer rc.Close(context.Background())
	sys, err := pglogrepl.IdentifySystem(ctx, rc)
	if err != nil {
		t.Fatalf("IDENTIFY_SYSTEM: %v", err)
	}
	if sys.DBName != "db_smoke" || sys.XLogPos == 0 {
		t.Fatalf("IDENTIFY_SYSTEM = %+v; want database db_smoke and a WAL position", sys)
	}

	// A pgoutput slot decodes an insert committed after it was made.
	p.Exec(t,
		"CREATE TABLE items (id INT PRIMARY KEY, name TEXT)",
		"CREATE PUBLICATION db_smoke_pub FOR TABLE items",
		"SELECT pg_create_logical_replication_slot('db_smoke_slot', 'pgoutput')",
		"INSERT INTO items VALUES (1, 'ada'), (2, 'bo')",
	)
	var changes int
	var plugin string
	if err := c.QueryRow(ctx, `SELECT count(*) FROM pg_logical_slot_peek_binary_changes('db_smoke_slot', NULL, NULL,
		'proto_version', '1', 'publication_names', 'db_smoke_pub')`).Scan(&changes); err != nil {
		t.Fatal(err)
	}
	if err := c.QueryRow(ctx, "SELECT plugin FROM pg_replication_slots WHERE slot_name = 'db_smoke_slot'").Scan(&plugin); err != nil {
		t.Fatal(err)
	}
	// BEGIN, RELATION, INSERT, INSERT, COMMIT.
	if plugin != "pgoutput" || changes != 5 {
		t.Fatalf("slot plugin %q decoded %d messages; want pgoutput and 5 (begin, relation, 2 inserts, commit)", plugin, changes)
	}
	p.Exec(t, "SELECT pg_drop_replication_slot('db_smoke_slot')")
}

// TestDBMariaDB: the MariaDB of scripts/db.sh answers as riffle in UTC,
// refuses a wrong password, and a table round-trips its values.
func TestDBMariaDB(t *testing.T) {
	m := MariaDBFromEnv(t).CreateDatabase(t, "db_smoke")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db := m.DB(t)

	var version, tz, user, dbName string
	if err := db.QueryRowContext(ctx, "SELECT version(), @@time_zone, current_user(), database()").Scan(&version, &tz, &user, &dbName); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(version, "MariaDB") || version != m.Version {
		t.Fatalf("version() = %q; want a MariaDB, the %q endpoints.env names", version, m.Version)
	}
	if tz != "+00:00" || user != "riffle@127.0.0.1" || dbName != "db_smoke" {
		t.Fatalf("time_zone=%s user=%s database=%s; want +00:00 riffle@127.0.0.1 db_smoke", tz, user, dbName)
	}

	bad := m
	bad.Password = "wrong"
	if err := bad.WithDatabase(m.Database).DB(t).PingContext(ctx); err == nil {
		t.Fatal("a wrong password was accepted")
	} else if me := (*mysql.MySQLError)(nil); !errors.As(err, &me) || me.Number != 1045 {
		t.Fatalf("wrong password: %v; want error 1045 (access denied)", err)
	}

	m.Exec(t,
		`CREATE TABLE items (id INT PRIMARY KEY, name VARCHAR(20), price DECIMAL(10,2), at DATETIME(3), note TEXT)`,
		`INSERT INTO items VALUES (1, 'ada', 1.50, '2024-05-06 07:08:09.123', NULL), (2, 'bö', -3.00, '1999-12-31 23:59:59.999', 'x')`,
	)
	rows, err := db.QueryContext(ctx, "SELECT id, name, price, at, note FROM items ORDER BY id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var id int
		var name, price string
		var at time.Time
		var note *string
		if err := rows.Scan(&id, &name, &price, &at, &note); err != nil {
			t.Fatal(err)
		}
		n := "NULL"
		if note != nil {
			n = *note
		}
		got = append(got, strings.Join([]string{name, price, at.UTC().Format("2006-01-02 15:04:05.000"), n}, "|"))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	want := []string{"ada|1.50|2024-05-06 07:08:09.123|NULL", "bö|-3.00|1999-12-31 23:59:59.999|x"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDBRestartPostgres: a private pair; after RestartPostgres the same
// port answers and the table and the replication slot are still there.
func TestDBRestartPostgres(t *testing.T) {
	p, m := StartPrivateDB(t)
	shared, err := FindPostgres()
	if err == nil && shared.Port == p.Port {
		t.Fatalf("the private PostgreSQL has the shared one's port %d", p.Port)
	}
	m.Exec(t, "SELECT 1")
	p = p.CreateDatabase(t, "db_restart")
	p.Exec(t,
		"CREATE TABLE items (id INT PRIMARY KEY)",
		"SELECT pg_create_logical_replication_slot('db_restart_slot', 'pgoutput')",
		"INSERT INTO items VALUES (1), (2), (3)",
	)
	RestartPostgres(t, p)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c := p.Connect(t)
	var n, slots int
	if err := c.QueryRow(ctx, "SELECT (SELECT count(*) FROM items), (SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'db_restart_slot')").Scan(&n, &slots); err != nil {
		t.Fatal(err)
	}
	if n != 3 || slots != 1 {
		t.Fatalf("after the restart: %d rows and %d slots; want 3 and 1", n, slots)
	}
}

// TestDBFindFails: with no server named, or a named one that is gone,
// FindPostgres and FindMariaDB fail with a message that says how to start
// the servers.
func TestDBFindFails(t *testing.T) {
	for _, k := range []string{"PG_PORT", "MARIADB_PORT"} {
		t.Setenv(k, "")
	}
	dir := t.TempDir()
	t.Setenv("DB_RUN_DIR", dir)
	if _, err := FindPostgres(); err == nil || !strings.Contains(err.Error(), "no running PostgreSQL") ||
		!strings.Contains(err.Error(), "scripts/db.sh start") {
		t.Errorf("FindPostgres with no endpoints.env: %v", err)
	}
	if _, err := FindMariaDB(); err == nil || !strings.Contains(err.Error(), "no running MariaDB") {
		t.Errorf("FindMariaDB with no endpoints.env: %v", err)
	}
	// A stale endpoints.env: a port nothing listens on (one just closed).
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	env := fmt.Sprintf("PG_HOST='127.0.0.1'\nPG_PORT='%d'\nPG_USER='riffle'\nMARIADB_HOST='127.0.0.1'\nMARIADB_PORT='%d'\nMARIADB_USER='riffle'\n", port, port)
	if err := os.WriteFile(filepath.Join(dir, "endpoints.env"), []byte(env), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := FindPostgres(); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("no PostgreSQL answers at 127.0.0.1:%d", port)) {
		t.Errorf("FindPostgres with a stale endpoints.env: %v", err)
	}
	if _, err := FindMariaDB(); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("no MariaDB answers at 127.0.0.1:%d", port)) {
		t.Errorf("FindMariaDB with a stale endpoints.env: %v", err)
	}
}
