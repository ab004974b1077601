//go:build interop

package interop

import (
	"context"
	"fmt"
	"math/rand"
	"net"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/riffle-sql/riffle/engine/connector"
	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/testwait"
	"github.com/riffle-sql/riffle/engine/types"
)

// cdcStream is a running streaming query over a postgres-cdc table, read
// row by row.
type cdcStream struct {
	t    *testing.T
	rows chan *types.Row
	errc chan error
	stop func()
}

func cdcEnv(t *testing.T) *table.TableEnvironment {
	t.Helper()
	e := table.MustCreate(table.InStreamingMode())
	e.GetConfig().Set("table.local-time-zone", "UTC")
	return e
}

func cdcExec(t *testing.T, e *table.TableEnvironment, sql string) {
	t.Helper()
	if _, err := e.ExecuteSQL(sql); err != nil {
		t.Fatalf("%s\n: %v", sql, err)
	}
}

func cdcStart(t *testing.T, e *table.TableEnvironment, sql string) *cdcStream {
	t.Helper()
	res, err := e.ExecuteSQL(sql)
	if err != nil {
		t.Fatalf("%s\n: %v", sql, err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	s := &cdcStream{t: t, rows: make(chan *types.Row, 1<<16), errc: make(chan error, 1)}
	go func() {
		for it.Next() {
			s.rows <- it.Row()
		}
		s.errc <- it.Err()
	}()
	var once sync.Once
	s.stop = func() { once.Do(func() { it.Close() }) }
	t.Cleanup(s.stop)
	return s
}

// next returns the next n rows as strings ("+I[1, a]"), failing after 30 s.
func (s *cdcStream) next(n int) []string {
	s.t.Helper()
	var out []string
	deadline := time.After(30 * time.Second)
	for len(out) < n {
		select {
		case r := <-s.rows:
			out = append(out, r.String())
		case err := <-s.errc:
			s.t.Fatalf("query ended after %v: %v", out, err)
		case <-deadline:
			s.t.Fatalf("got %d of %d rows within 30 s: %v", len(out), n, out)
		}
	}
	return out
}

// failure waits for the query to fail and returns its error.
func (s *cdcStream) failure() error {
	s.t.Helper()
	deadline := time.After(60 * time.Second)
	for {
		select {
		case <-s.rows:
		case err := <-s.errc:
			if err == nil {
				s.t.Fatal("query ended without an error")
			}
			return err
		case <-deadline:
			s.t.Fatal("query did not fail within 60 s")
		}
	}
}

// cdcTable is the WITH clause of a postgres-cdc table on p.
func cdcWith(p Postgres, table, slot string, extra ...string) string {
	opts := []string{
		"'connector' = 'postgres-cdc'",
		fmt.Sprintf("'hostname' = '%s'", p.Host),
		fmt.Sprintf("'port' = '%d'", p.Port),
		fmt.Sprintf("'username' = '%s'", p.User),
		fmt.Sprintf("'password' = '%s'", p.Password),
		fmt.Sprintf("'database-name' = '%s'", p.Database),
		"'schema-name' = 'public'",
		fmt.Sprintf("'table-name' = '%s'", table),
		fmt.Sprintf("'slot.name' = '%s'", slot),
		"'decoding.plugin.name' = 'pgoutput'",
	}
	opts = append(opts, extra...)
	return "WITH (" + strings.Join(opts, ", ") + ")"
}

// waitSlotActive waits until the slot is being streamed.
func waitSlotActive(t *testing.T, p Postgres, slot string) {
	t.Helper()
	c := p.Connect(t)
	testwait.Until(t, 30*time.Second, "slot "+slot+" to become active", func() bool {
		var active bool
		err := c.QueryRow(context.Background(), "SELECT active FROM pg_replication_slots WHERE slot_name = $1", slot).Scan(&active)
		return err == nil && active
	})
}

func sortedStrings(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

func sameStrings(t *testing.T, what string, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("%s:\ngot:\n  %s\nwant:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// TestPostgresCDCSnapshotThenChanges reads the snapshot as +I rows, then
// an INSERT, an UPDATE (as -U/+U with the before image of REPLICA
// IDENTITY FULL) and a DELETE (-D), in commit order.
func TestPostgresCDCSnapshotThenChanges(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "cdc_basic")
	p.Exec(t,
		"CREATE TABLE items (id INT PRIMARY KEY, name TEXT, price NUMERIC(10,2), qty SMALLINT, ok BOOLEAN, d DATE, ts TIMESTAMP(3), tz TIMESTAMPTZ, bin BYTEA, f DOUBLE PRECISION)",
		"ALTER TABLE items REPLICA IDENTITY FULL",
		"INSERT INTO items VALUES (1, 'apple', 1.50, 3, true, '2024-01-02', '2024-01-02 03:04:05.678', '2024-01-02 03:04:05+02', '\\x0102', 0.5)",
		"INSERT INTO items VALUES (2, 'pear', 2.25, NULL, false, NULL, NULL, NULL, NULL, NULL)",
	)
	e := cdcEnv(t)
	cdcExec(t, e, `CREATE TABLE items (id INT, name STRING, price DECIMAL(10, 2), qty SMALLINT, ok BOOLEAN, d DATE,
		ts TIMESTAMP(3), tz TIMESTAMP_LTZ(3), bin BYTES, f DOUBLE, PRIMARY KEY (id) NOT ENFORCED) `+cdcWith(p, "items", "cdc_basic_slot",
		"'debezium.slot.drop.on.stop' = 'true'"))
	s := cdcStart(t, e, "SELECT * FROM items")
	sameStrings(t, "snapshot", sortedStrings(s.next(2)), []string{
		"+I[1, apple, 1.50, 3, true, 2024-01-02, 2024-01-02T03:04:05.678, 2024-01-02T01:04:05, [1, 2], 0.5]",
		"+I[2, pear, 2.25, null, false, null, null, null, null, null]",
	})
	p.Exec(t,
		"INSERT INTO items (id, name, price) VALUES (3, 'plum', 0.99)",
		"UPDATE items SET price = 1.75, name = 'green apple' WHERE id = 1",
		"DELETE FROM items WHERE id = 2",
	)
	sameStrings(t, "changes", s.next(4), []string{
		"+I[3, plum, 0.99, null, null, null, null, null, null, null]",
		"-U[1, apple, 1.50, 3, true, 2024-01-02, 2024-01-02T03:04:05.678, 2024-01-02T01:04:05, [1, 2], 0.5]",
		"+U[1, green apple, 1.75, 3, true, 2024-01-02, 2024-01-02T03:04:05.678, 2024-01-02T01:04:05, [1, 2], 0.5]",
		"-D[2, pear, 2.25, null, false, null, null, null, null, null]",
	})
	// a transaction of several statements arrives whole and in order
	p.Exec(t, "BEGIN", "INSERT INTO items (id, name) VALUES (4, 'fig')", "UPDATE items SET name = 'figs' WHERE id = 4", "COMMIT")
	sameStrings(t, "transaction", s.next(3), []string{
		"+I[4, fig, null, null, null, null, null, null, null, null]",
		"-U[4, fig, null, null, null, null, null, null, null, null]",
		"+U[4, figs, null, null, null, null, null, null, null, null]",
	})
	// TRUNCATE is skipped, as Flink CDC (Debezium's truncate.handling.mode
	// = skip) does: the next change still arrives alone
	p.Exec(t, "TRUNCATE items", "INSERT INTO items (id, name) VALUES (5, 'kiwi')")
	sameStrings(t, "after truncate", s.next(1), []string{"+I[5, kiwi, null, null, null, null, null, null, null, null]"})
}

// TestPostgresCDCUpsertModeDefaultReplicaIdentity reads a table with the
// default replica identity in 'changelog-mode' = 'upsert': the planner
// normalizes the upserts on the primary key, so the query still sees
// -U/+U; in 'all' mode the missing before image is a clear error.
func TestPostgresCDCUpsertModeDefaultReplicaIdentity(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "cdc_upsert")
	p.Exec(t, "CREATE TABLE acc (id INT PRIMARY KEY, owner TEXT, balance BIGINT)", "INSERT INTO acc VALUES (1, 'ann', 10)")
	e := cdcEnv(t)
	cdcExec(t, e, `CREATE TABLE acc (id INT, owner STRING, balance BIGINT, PRIMARY KEY (id) NOT ENFORCED) `+
		cdcWith(p, "acc", "cdc_upsert_slot", "'changelog-mode' = 'upsert'", "'debezium.slot.drop.on.stop' = 'true'"))
	s := cdcStart(t, e, "SELECT * FROM acc")
	sameStrings(t, "snapshot", s.next(1), []string{"+I[1, ann, 10]"})
	p.Exec(t, "UPDATE acc SET balance = 15 WHERE id = 1", "DELETE FROM acc WHERE id = 1")
	sameStrings(t, "changes", s.next(3), []string{"-U[1, ann, 10]", "+U[1, ann, 15]", "-D[1, ann, 15]"})
	s.stop()

	cdcExec(t, e, `CREATE TABLE acc_all (id INT, owner STRING, balance BIGINT, PRIMARY KEY (id) NOT ENFORCED) `+
		cdcWith(p, "acc", "cdc_upsert_all", "'debezium.slot.drop.on.stop' = 'true'"))
	// a retract changelog without before images is refused when the
	// query starts, not at the first UPDATE
	err := cdcQueryError(t, e, "SELECT * FROM acc_all")
	if err == nil || !strings.Contains(err.Error(), "REPLICA IDENTITY FULL") || !strings.Contains(err.Error(), `"public"."acc"`) || !strings.Contains(err.Error(), "'changelog-mode' = 'upsert'") {
		t.Fatalf("error: %v", err)
	}
}

// TestPostgresCDCNoGapNoDuplicate writes rows (inserts, updates, deletes)
// while the snapshot is taken and streamed; applying the changelog gives
// exactly the table at rest: no change lost, none twice (an +I of a key
// already present, or a -U/-D whose row differs from the one held, fails).
func TestPostgresCDCNoGapNoDuplicate(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "cdc_nogap")
	p.Exec(t, "CREATE TABLE ev (id INT PRIMARY KEY, v INT NOT NULL)", "ALTER TABLE ev REPLICA IDENTITY FULL",
		"INSERT INTO ev SELECT g, 0 FROM generate_series(1, 30000) g")
	e := cdcEnv(t)
	cdcExec(t, e, `CREATE TABLE ev (id INT, v INT, op_ts TIMESTAMP_LTZ(3) METADATA VIRTUAL, PRIMARY KEY (id) NOT ENFORCED) `+cdcWith(p, "ev", "cdc_nogap_slot",
		"'debezium.slot.drop.on.stop' = 'true'", "'scan.snapshot.fetch.size' = '512'"))

	// the writer runs before the query starts, while it takes the
	// snapshot, and until 300 writes after the first streamed change
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := p.Connect(t)
	var werr error
	var writes int
	started, streamed, writerDone := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(writerDone)
		rng := rand.New(rand.NewSource(7))
		next, after := 30001, 0
		for i := 0; ctx.Err() == nil; i++ {
			var err error
			switch i % 3 {
			case 0:
				_, err = c.Exec(ctx, "INSERT INTO ev VALUES ($1, $2)", next, i)
				next++
			case 1:
				_, err = c.Exec(ctx, "UPDATE ev SET v = v + 1 WHERE id = $1", 1+rng.Intn(next-1))
			case 2:
				_, err = c.Exec(ctx, "DELETE FROM ev WHERE id = $1", 1+rng.Intn(next-1))
			}
			if err != nil {
				werr = err
				return
			}
			writes = i + 1
			if i == 100 {
				close(started)
			}
			select {
			case <-streamed:
				if after++; after == 300 {
					return
				}
			default:
			}
		}
	}()
	<-started
	s := cdcStart(t, e, "SELECT id, v, op_ts FROM ev")
	got, want := map[int32]int32{}, map[int32]int32{}
	deadline := time.After(120 * time.Second)
	n, snapRows, streamedClosed := 0, 0, false
	for done := false; !done; {
		select {
		case r := <-s.rows:
			n++
			id, v := r.Values[0].(int32), r.Values[1].(int32)
			if r.Values[2].(time.Time).Unix() == 0 {
				snapRows++
			} else if !streamedClosed {
				close(streamed)
				streamedClosed = true
			}
			switch r.Kind {
			case types.Insert:
				if _, dup := got[id]; dup {
					t.Fatalf("duplicate +I of id %d (row %d)", id, n)
				}
				got[id] = v
			case types.UpdateBefore, types.Delete:
				old, ok := got[id]
				if !ok || old != v {
					t.Fatalf("%s of id %d v %d but the changelog holds %d (present %v): a change was lost or repeated", r.Kind.ShortString(), id, v, old, ok)
				}
				delete(got, id)
			case types.UpdateAfter:
				got[id] = v
			}
			done = id == -1
		case <-writerDone:
			writerDone = nil
			if werr != nil {
				t.Fatal(werr)
			}
			rows, err := c.Query(context.Background(), "SELECT id, v FROM ev")
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var id, v int32
				if err := rows.Scan(&id, &v); err != nil {
					t.Fatal(err)
				}
				want[id] = v
			}
			rows.Close()
			// the sentinel commits last: once it arrives every earlier
			// change has
			p.Exec(t, "INSERT INTO ev VALUES (-1, -1)")
			want[-1] = -1
		case err := <-s.errc:
			t.Fatalf("query ended: %v", err)
		case <-deadline:
			t.Fatalf("sentinel not seen within 120 s (%d rows read)", n)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("changelog holds %d rows, the table %d", len(got), len(want))
	}
	for id, v := range want {
		if got[id] != v {
			t.Fatalf("id %d: changelog %d, table %d", id, got[id], v)
		}
	}
	t.Logf("%d writes; %d rows applied: %d from the snapshot, %d streamed; %d rows in the table", writes, n, snapRows, n-snapRows, len(want))
}

// TestPostgresCDCAggregateMatchesTableAtRest runs a GROUP BY over the CDC
// table while rows are inserted, updated and deleted, and checks that its
// final result equals the same aggregate computed by PostgreSQL over the
// table at rest.
func TestPostgresCDCAggregateMatchesTableAtRest(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "cdc_agg")
	p.Exec(t, "CREATE TABLE orders (id INT PRIMARY KEY, region TEXT NOT NULL, amount NUMERIC(12,2) NOT NULL)",
		"ALTER TABLE orders REPLICA IDENTITY FULL",
		"INSERT INTO orders SELECT g, 'r' || (g % 5), (g % 97) + 0.25 FROM generate_series(1, 5000) g")
	e := cdcEnv(t)
	cdcExec(t, e, `CREATE TABLE orders (id INT, region STRING, amount DECIMAL(12, 2), PRIMARY KEY (id) NOT ENFORCED) `+
		cdcWith(p, "orders", "cdc_agg_slot", "'debezium.slot.drop.on.stop' = 'true'"))
	s := cdcStart(t, e, "SELECT region, COUNT(*) AS n, SUM(amount) AS total FROM orders GROUP BY region")

	c := p.Connect(t)
	ctx := context.Background()
	rng := rand.New(rand.NewSource(3))
	for i := 0; i < 600; i++ {
		id := 1 + rng.Intn(6000)
		var err error
		switch rng.Intn(4) {
		case 0:
			_, err = c.Exec(ctx, "INSERT INTO orders VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET amount = orders.amount + 1", id, fmt.Sprintf("r%d", rng.Intn(7)), rng.Intn(1000))
		case 1:
			_, err = c.Exec(ctx, "UPDATE orders SET region = $2 WHERE id = $1", id, fmt.Sprintf("r%d", rng.Intn(7)))
		case 2:
			_, err = c.Exec(ctx, "UPDATE orders SET amount = amount * 2 WHERE id = $1", id)
		case 3:
			_, err = c.Exec(ctx, "DELETE FROM orders WHERE id = $1", id)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	// the result over the table at rest, computed by PostgreSQL
	want := map[string]string{}
	rows, err := c.Query(ctx, "SELECT region, count(*), sum(amount)::text FROM orders GROUP BY region")
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var region, sum string
		var n int64
		if err := rows.Scan(&region, &n, &sum); err != nil {
			t.Fatal(err)
		}
		want[region] = fmt.Sprintf("%d, %s", n, sum)
	}
	rows.Close()
	// apply the aggregate's changelog until it equals the table's result
	got := map[string]string{}
	deadline := time.After(60 * time.Second)
	equal := func() bool {
		if len(got) != len(want) {
			return false
		}
		for k, v := range want {
			if got[k] != v {
				return false
			}
		}
		return true
	}
	for !equal() {
		select {
		case r := <-s.rows:
			region := r.Values[0].(string)
			val := fmt.Sprintf("%v, %v", r.Values[1], r.Values[2])
			switch r.Kind {
			case types.Insert, types.UpdateAfter:
				got[region] = val
			case types.UpdateBefore, types.Delete:
				if got[region] != val {
					t.Fatalf("%s %s: %s retracts %s", r.Kind.ShortString(), region, val, got[region])
				}
				delete(got, region)
			}
		case err := <-s.errc:
			t.Fatalf("query ended: %v", err)
		case <-deadline:
			t.Fatalf("aggregate never matched the table at rest:\ngot  %v\nwant %v", got, want)
		}
	}
	t.Logf("aggregate over the changelog equals PostgreSQL's: %v", want)
}

// TestPostgresCDCMetadata reads op_ts (0 for snapshot rows, the commit
// time for changes), table_name, schema_name, database_name and row_kind.
func TestPostgresCDCMetadata(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "cdc_meta")
	p.Exec(t, "CREATE TABLE m (id INT PRIMARY KEY, created TIMESTAMPTZ)", "ALTER TABLE m REPLICA IDENTITY FULL", "INSERT INTO m VALUES (1, now())")
	e := cdcEnv(t)
	cdcExec(t, e, `CREATE TABLE m (
		db STRING METADATA FROM 'database_name' VIRTUAL,
		sch STRING METADATA FROM 'schema_name' VIRTUAL,
		tbl STRING METADATA FROM 'table_name' VIRTUAL,
		op_ts TIMESTAMP_LTZ(3) METADATA VIRTUAL,
		kind STRING METADATA FROM 'row_kind' VIRTUAL,
		id INT, created TIMESTAMP_LTZ(6), PRIMARY KEY (id) NOT ENFORCED) `+cdcWith(p, "m", "cdc_meta_slot", "'debezium.slot.drop.on.stop' = 'true'"))
	s := cdcStart(t, e, "SELECT db, sch, tbl, op_ts, kind, id FROM m")
	sameStrings(t, "snapshot", s.next(1), []string{"+I[cdc_meta, public, m, 1970-01-01T00:00, +I, 1]"})
	s.stop()

	s = cdcStart(t, e, "SELECT id, kind, op_ts, created FROM m")
	s.next(1)
	p.Exec(t, "BEGIN", "INSERT INTO m VALUES (2, now())", "DELETE FROM m WHERE id = 1", "COMMIT")
	var committed time.Time // the server's clock once the COMMIT has returned
	if err := p.Connect(t).QueryRow(context.Background(), "SELECT clock_timestamp()").Scan(&committed); err != nil {
		t.Fatal(err)
	}
	var rows []*types.Row
	deadline := time.After(30 * time.Second)
	for len(rows) < 2 {
		select {
		case r := <-s.rows:
			rows = append(rows, r)
		case err := <-s.errc:
			t.Fatal(err)
		case <-deadline:
			t.Fatal("changes not seen")
		}
	}
	if rows[0].Values[1] != "+I" || rows[1].Values[1] != "-D" || rows[0].Kind != types.Insert || rows[1].Kind != types.Delete {
		t.Fatalf("rows %v %v", rows[0], rows[1])
	}
	// op_ts is the commit time: the same for both rows of the
	// transaction, at or after its start (the row's now()) and not after
	// the server's clock read once the COMMIT returned (op_ts is in
	// milliseconds, the bounds are truncated to them)
	op0, op1, at := rows[0].Values[2].(time.Time), rows[1].Values[2].(time.Time), rows[0].Values[3].(time.Time)
	if !op0.Equal(op1) || op0.Before(at.Truncate(time.Millisecond)) || op0.After(committed.Truncate(time.Millisecond).Add(time.Millisecond)) {
		t.Fatalf("op_ts %v %v, transaction start %v, after the commit %v", op0, op1, at, committed)
	}
	s.stop()

	// scan.read-changelog-as-append-only.enabled: every change an INSERT,
	// row_kind telling what it was; Flink CDC's incremental snapshot
	// tuning options are accepted
	cdcExec(t, e, `CREATE TABLE m_log (kind STRING METADATA FROM 'row_kind' VIRTUAL, id INT, PRIMARY KEY (id) NOT ENFORCED) `+
		cdcWith(p, "m", "cdc_meta_log", "'debezium.slot.drop.on.stop' = 'true'", "'scan.read-changelog-as-append-only.enabled' = 'true'",
			"'scan.incremental.snapshot.enabled' = 'true'", "'scan.incremental.snapshot.chunk.size' = '4096'"))
	s = cdcStart(t, e, "SELECT kind, id FROM m_log")
	sameStrings(t, "append-only snapshot", s.next(1), []string{"+I[+I, 2]"})
	p.Exec(t, "UPDATE m SET id = 3 WHERE id = 2", "DELETE FROM m WHERE id = 3")
	sameStrings(t, "append-only changes", s.next(3), []string{"+I[-U, 2]", "+I[+U, 3]", "+I[-D, 3]"})
}

// TestPostgresCDCLatestOffset reads only changes made after the query
// started, and none of the rows already there.
func TestPostgresCDCLatestOffset(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "cdc_latest")
	p.Exec(t, "CREATE TABLE l (id INT PRIMARY KEY, s TEXT)", "ALTER TABLE l REPLICA IDENTITY FULL", "INSERT INTO l VALUES (1, 'old'), (2, 'old')")
	e := cdcEnv(t)
	cdcExec(t, e, `CREATE TABLE l (id INT, s STRING, PRIMARY KEY (id) NOT ENFORCED) `+
		cdcWith(p, "l", "cdc_latest_slot", "'scan.startup.mode' = 'latest-offset'", "'debezium.slot.drop.on.stop' = 'true'"))
	s := cdcStart(t, e, "SELECT * FROM l")
	waitSlotActive(t, p, "cdc_latest_slot")
	p.Exec(t, "INSERT INTO l VALUES (3, 'new')", "UPDATE l SET s = 'changed' WHERE id = 1")
	sameStrings(t, "changes", s.next(3), []string{"+I[3, new]", "-U[1, old]", "+U[1, changed]"})
	s.stop()

	// an existing slot is advanced to now: changes made while no query
	// read it are skipped too
	cdcExec(t, e, `CREATE TABLE l2 (id INT, s STRING, PRIMARY KEY (id) NOT ENFORCED) `+
		cdcWith(p, "l", "cdc_latest_keep", "'scan.startup.mode' = 'latest-offset'"))
	s = cdcStart(t, e, "SELECT * FROM l2")
	waitSlotActive(t, p, "cdc_latest_keep")
	s.stop()
	waitSlotInactive(t, p, "cdc_latest_keep")
	p.Exec(t, "INSERT INTO l VALUES (4, 'while stopped')")
	s = cdcStart(t, e, "SELECT * FROM l2")
	waitSlotActive(t, p, "cdc_latest_keep")
	p.Exec(t, "INSERT INTO l VALUES (5, 'after restart')")
	sameStrings(t, "after restart", s.next(1), []string{"+I[5, after restart]"})
	s.stop()
	waitSlotInactive(t, p, "cdc_latest_keep")
	p.Exec(t, "SELECT pg_drop_replication_slot('cdc_latest_keep')")
}

func waitSlotInactive(t *testing.T, p Postgres, slot string) {
	t.Helper()
	c := p.Connect(t)
	testwait.Until(t, 30*time.Second, "slot "+slot+" to become inactive", func() bool {
		var active bool
		err := c.QueryRow(context.Background(), "SELECT active FROM pg_replication_slots WHERE slot_name = $1", slot).Scan(&active)
		return err == pgx.ErrNoRows || (err == nil && !active)
	})
}

// cdcQueryError runs a query that must fail and returns its error (from
// planning, or from the running job).
func cdcQueryError(t *testing.T, e *table.TableEnvironment, sql string) error {
	t.Helper()
	res, err := e.ExecuteSQL(sql)
	if err != nil {
		return err
	}
	it, err := res.Collect()
	if err != nil {
		return err
	}
	defer it.Close()
	done := make(chan error, 1)
	go func() {
		for it.Next() {
		}
		done <- it.Err()
	}()
	select {
	case err := <-done:
		if err == nil {
			t.Fatalf("%s: ended without an error", sql)
		}
		return err
	case <-time.After(60 * time.Second):
		t.Fatalf("%s: no error within 60 s", sql)
	}
	return nil
}

func wantErr(t *testing.T, what string, err error, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error lacks %q:\n%v", what, p, err)
			return
		}
	}
	t.Logf("%s: %v", what, err)
}

// TestPostgresCDCErrors: a wrong password, an unreachable server, a
// missing database, table or column, a type that does not map, an
// unsupported plug-in or startup mode, a table without a primary key, and
// a slot dropped while the query reads it: each a clear error naming what
// failed.
func TestPostgresCDCErrors(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "cdc_errors")
	p.Exec(t, "CREATE TABLE e (id INT PRIMARY KEY, name TEXT)", "ALTER TABLE e REPLICA IDENTITY FULL", "INSERT INTO e VALUES (1, 'a')")
	e := cdcEnv(t)
	n := 0
	try := func(cols string, p Postgres, tbl string, extra ...string) error {
		n++
		name := fmt.Sprintf("e%d", n)
		cdcExec(t, e, "CREATE TABLE "+name+" ("+cols+") "+cdcWith(p, tbl, fmt.Sprintf("cdc_errors_%d", n), extra...))
		return cdcQueryError(t, e, "SELECT * FROM "+name)
	}
	const cols = "id INT, name STRING, PRIMARY KEY (id) NOT ENFORCED"

	bad := p
	bad.Password = "wrong"
	wantErr(t, "wrong password", try(cols, bad, "e"), "cannot log in", "as user '"+p.User+"'", "password")

	down := p
	down.Port = freeLocalPort(t)
	wantErr(t, "unreachable", try(cols, down, "e"), fmt.Sprintf("cannot connect to PostgreSQL at 127.0.0.1:%d", down.Port))

	nodb := p
	nodb.Database = "cdc_no_such_db"
	wantErr(t, "missing database", try(cols, nodb, "e"), "database 'cdc_no_such_db' does not exist")

	wantErr(t, "missing table", try(cols, p, "nosuch"), `table "public"."nosuch" does not exist in database 'cdc_errors'`)
	wantErr(t, "missing column", try("id INT, label STRING, PRIMARY KEY (id) NOT ENFORCED", p, "e"), "column `label` does not exist", "its columns are: id, name")
	wantErr(t, "type mismatch", try("id INT, name INT, PRIMARY KEY (id) NOT ENFORCED", p, "e"), "column `name`: PostgreSQL type text cannot be read as INT")
	wantErr(t, "narrowing", try("id SMALLINT, name STRING, PRIMARY KEY (id) NOT ENFORCED", p, "e"), "PostgreSQL type integer cannot be read as SMALLINT")
	wantErr(t, "plug-in", try(cols, p, "e", "'decoding.plugin.name' = 'decoderbufs'"), "'decoding.plugin.name' = 'decoderbufs' is not supported", "pgoutput")
	wantErr(t, "startup mode", try(cols, p, "e", "'scan.startup.mode' = 'timestamp'"), "Supported values are [initial, latest-offset, committed-offset, snapshot], but was: timestamp")
	wantErr(t, "no primary key", try("id INT, name STRING", p, "e"), "a PRIMARY KEY is required")
	wantErr(t, "changelog mode", try(cols, p, "e", "'changelog-mode' = 'retract'"), "invalid value for option 'changelog-mode'")
	wantErr(t, "slot name", try(cols, p, "e", "'slot.name' = 'Bad-Slot'"), "is not a valid replication slot name")
	wantErr(t, "unknown option", try(cols, p, "e", "'scan.foo' = '1'"), "unsupported options found for 'postgres-cdc': scan.foo")

	// a table without a replica identity is refused before it is published:
	// publishing it would make PostgreSQL refuse its UPDATEs and DELETEs
	p.Exec(t, "CREATE TABLE noid (id INT, name TEXT)", "INSERT INTO noid VALUES (1, 'a')")
	wantErr(t, "no replica identity", try(cols, p, "noid"), `has no replica identity`, "REPLICA IDENTITY FULL")
	p.Exec(t, "UPDATE noid SET name = 'b'", "DELETE FROM noid")

	// a slot dropped while the query reads it
	cdcExec(t, e, "CREATE TABLE dropped ("+cols+") "+cdcWith(p, "e", "cdc_errors_dropped"))
	s := cdcStart(t, e, "SELECT * FROM dropped")
	s.next(1)
	waitSlotActive(t, p, "cdc_errors_dropped")
	c := p.Connect(t)
	ctx := context.Background()
	testwait.Until(t, 30*time.Second, "the slot to be dropped", func() bool {
		// end the walsender, then drop the slot before the reader is back
		c.Exec(ctx, "SELECT pg_terminate_backend(active_pid) FROM pg_replication_slots WHERE slot_name = 'cdc_errors_dropped' AND active")
		_, err := c.Exec(ctx, "SELECT pg_drop_replication_slot('cdc_errors_dropped')")
		return err == nil
	})
	wantErr(t, "dropped slot", s.failure(), "replication slot 'cdc_errors_dropped' no longer exists")
}

// freeLocalPort is a port on 127.0.0.1 nothing listens on.
func freeLocalPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	return port
}

// TestPostgresCDCServerRestart restarts a private PostgreSQL while a query
// streams: the reader reconnects and resumes after the last transaction it
// had, so every change arrives exactly once, those committed before the
// restart and not yet read included. Then a server with wal_level =
// replica is refused with a clear error.
func TestPostgresCDCServerRestart(t *testing.T) {
	priv, _ := StartPrivateDB(t)
	p := priv.CreateDatabase(t, "cdc_restart")
	p.Exec(t, "CREATE TABLE r (id INT PRIMARY KEY, s TEXT)", "ALTER TABLE r REPLICA IDENTITY FULL", "INSERT INTO r VALUES (1, 'a'), (2, 'b')")
	e := cdcEnv(t)
	cdcExec(t, e, `CREATE TABLE r (id INT, s STRING, PRIMARY KEY (id) NOT ENFORCED) `+cdcWith(p, "r", "cdc_restart_slot"))
	s := cdcStart(t, e, "SELECT * FROM r")
	sameStrings(t, "snapshot", sortedStrings(s.next(2)), []string{"+I[1, a]", "+I[2, b]"})
	p.Exec(t, "INSERT INTO r VALUES (3, 'c')", "UPDATE r SET s = 'bb' WHERE id = 2")
	sameStrings(t, "before restart", s.next(3), []string{"+I[3, c]", "-U[2, b]", "+U[2, bb]"})
	// committed, maybe not yet read when the server goes down
	p.Exec(t, "INSERT INTO r VALUES (4, 'd')", "DELETE FROM r WHERE id = 1")
	t0 := time.Now()
	RestartPostgres(t, p)
	t.Logf("restart took %s", time.Since(t0))
	p.Exec(t, "INSERT INTO r VALUES (5, 'e')")
	sameStrings(t, "after restart", s.next(3), []string{"+I[4, d]", "-D[1, a]", "+I[5, e]"})
	// a second restart while idle, then a change: still exactly once
	t0 = time.Now()
	RestartPostgres(t, p)
	t.Logf("restart took %s", time.Since(t0))
	p.Exec(t, "UPDATE r SET s = 'ee' WHERE id = 5")
	sameStrings(t, "after second restart", s.next(2), []string{"-U[5, e]", "+U[5, ee]"})
	p.Exec(t, "INSERT INTO r VALUES (6, 'sentinel')")
	sameStrings(t, "sentinel", s.next(1), []string{"+I[6, sentinel]"})
	s.stop()

	// wal_level = replica: logical decoding is impossible (the server
	// refuses to start while a logical slot exists, so drop it first)
	waitSlotInactive(t, p, "cdc_restart_slot")
	p.Exec(t, "SELECT pg_drop_replication_slot('cdc_restart_slot')", "ALTER SYSTEM SET wal_level = replica")
	t0 = time.Now()
	RestartPostgres(t, p)
	t.Logf("restart took %s", time.Since(t0))
	cdcExec(t, e, `CREATE TABLE r2 (id INT, s STRING, PRIMARY KEY (id) NOT ENFORCED) `+cdcWith(p, "r", "cdc_restart_other"))
	wantErr(t, "wal_level", cdcQueryError(t, e, "SELECT * FROM r2"), "has wal_level = 'replica'", "wal_level = 'logical'")
}

// TestPostgresCDCCommittedOffsetAndSnapshotMode: 'committed-offset'
// resumes after the last transaction the previous query read (changes made
// while no query ran included, none twice); 'snapshot' reads the table once
// and ends, in batch mode too.
func TestPostgresCDCCommittedOffsetAndSnapshotMode(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "cdc_committed")
	p.Exec(t, "CREATE TABLE c (id INT PRIMARY KEY, s TEXT)", "ALTER TABLE c REPLICA IDENTITY FULL", "INSERT INTO c VALUES (1, 'before')")
	e := cdcEnv(t)
	cdcExec(t, e, `CREATE TABLE c (id INT, s STRING, PRIMARY KEY (id) NOT ENFORCED) `+
		cdcWith(p, "c", "cdc_committed_slot", "'scan.startup.mode' = 'committed-offset'"))
	s := cdcStart(t, e, "SELECT * FROM c")
	waitSlotActive(t, p, "cdc_committed_slot")
	p.Exec(t, "INSERT INTO c VALUES (2, 'first run')")
	sameStrings(t, "first run", s.next(1), []string{"+I[2, first run]"})
	s.stop()
	waitSlotInactive(t, p, "cdc_committed_slot")
	p.Exec(t, "INSERT INTO c VALUES (3, 'while stopped')", "UPDATE c SET s = 'changed' WHERE id = 1")
	s = cdcStart(t, e, "SELECT * FROM c")
	sameStrings(t, "second run", s.next(3), []string{"+I[3, while stopped]", "-U[1, before]", "+U[1, changed]"})
	s.stop()
	waitSlotInactive(t, p, "cdc_committed_slot")
	p.Exec(t, "SELECT pg_drop_replication_slot('cdc_committed_slot')")

	// snapshot mode: bounded and insert-only, so batch mode reads it
	b := table.MustCreate(table.InBatchMode())
	cdcExec(t, b, `CREATE TABLE c (id INT, s STRING, PRIMARY KEY (id) NOT ENFORCED) `+
		cdcWith(p, "c", "cdc_committed_snap", "'scan.startup.mode' = 'snapshot'"))
	res, err := b.ExecuteSQL("SELECT COUNT(*), MAX(id) FROM c")
	if err != nil {
		t.Fatal(err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for it.Next() {
		got = append(got, it.Row().String())
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	it.Close()
	sameStrings(t, "snapshot in batch mode", got, []string{"+I[3, 3]"})
	var n int
	if err := p.Connect(t).QueryRow(context.Background(), "SELECT count(*) FROM pg_replication_slots WHERE slot_name = 'cdc_committed_snap'").Scan(&n); err != nil || n != 0 {
		t.Fatalf("snapshot mode created a slot (%d, %v)", n, err)
	}
}

// TestPostgresCDCWatermarkAndProgress: a rowtime column of a CDC table
// gets watermarks as on other sources, and the Jobs panel's split progress
// shows the LSN handed downstream and the server's WAL end.
func TestPostgresCDCWatermarkAndProgress(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "cdc_wm")
	p.Exec(t, "CREATE TABLE w (id INT PRIMARY KEY, ts TIMESTAMP(3))", "ALTER TABLE w REPLICA IDENTITY FULL",
		"INSERT INTO w VALUES (1, '2024-01-01 00:00:01'), (2, '2024-01-01 00:00:05')")
	e := cdcEnv(t)
	cdcExec(t, e, `CREATE TABLE w (id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND, PRIMARY KEY (id) NOT ENFORCED) `+
		cdcWith(p, "w", "cdc_wm_slot", "'debezium.slot.drop.on.stop' = 'true'"))
	res, err := e.ExecuteSQL("SELECT id FROM w")
	if err != nil {
		t.Fatal(err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	rows := make(chan string, 16)
	go func() {
		for it.Next() {
			rows <- it.Row().String()
		}
		close(rows)
	}()
	read := func(n int) []string {
		var out []string
		deadline := time.After(30 * time.Second)
		for len(out) < n {
			select {
			case r, ok := <-rows:
				if !ok {
					t.Fatalf("query ended: %v", it.Err())
				}
				out = append(out, r)
			case <-deadline:
				t.Fatalf("rows: %v", out)
			}
		}
		return out
	}
	progress := func(ok func(connector.SplitProgress) bool) connector.SplitProgress {
		var last []connector.SplitProgress
		if testwait.Poll(30*time.Second, func() bool {
			for _, m := range res.GetJobClient().Metrics() {
				if sp := m.Splits; len(sp) == 1 {
					last = sp
					if ok(sp[0]) {
						return true
					}
				}
			}
			return false
		}) {
			return last[0]
		}
		t.Fatalf("progress never matched; last %+v", last)
		return connector.SplitProgress{}
	}
	sameStrings(t, "snapshot", sortedStrings(read(2)), []string{"+I[1]", "+I[2]"})
	// 2024-01-01 00:00:04 UTC in epoch ms
	sp := progress(func(sp connector.SplitProgress) bool { return sp.Watermark == 1704067204000 })
	if sp.Split != "public.w" {
		t.Fatalf("split %+v", sp)
	}
	p.Exec(t, "INSERT INTO w VALUES (3, '2024-01-01 00:00:09')")
	sameStrings(t, "change", read(1), []string{"+I[3]"})
	sp = progress(func(sp connector.SplitProgress) bool { return sp.Watermark == 1704067208000 && sp.Offset > 0 })
	if sp.LogEnd < sp.Offset {
		t.Fatalf("progress %+v: WAL end before the handed position", sp)
	}
	var lsn string
	if err := p.Connect(t).QueryRow(context.Background(), "SELECT pg_current_wal_lsn()::text").Scan(&lsn); err != nil {
		t.Fatal(err)
	}
	t.Logf("progress %+v (handed LSN %X, server at %s)", sp, sp.Offset, lsn)
}
