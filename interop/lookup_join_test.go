//go:build interop

package interop

import (
	"database/sql"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/testwait"
)

// The planner's side of the jdbc connector on a real PostgreSQL: a
// processing-time temporal join plans a LookupJoin that asks PostgreSQL
// for each key by its index (no scan of the 100,000-row table), and a
// batch query's WHERE and LIMIT reach PostgreSQL's SELECT (filter=[...]
// and limit=[n] in EXPLAIN, the Calc gone).

// dimReads reads PostgreSQL's counters for table dim: the rows read by
// sequential scans and the number of index scans, once want accepts them
// (nil: at once). Sequential scans are counted by rows read, not scans:
// building the primary key's index scans the (then empty) table once, and
// when that count arrives depends on when the backend flushes it.
func dimReads(t *testing.T, db *sql.DB, want func(seqRows, idx int64) bool) (int64, int64) {
	t.Helper()
	var seqRows, idx int64
	if !testwait.Poll(30*time.Second, func() bool {
		// a fresh snapshot each time: backends flush their counters at
		// the end of a transaction, at most once a second, or on exit
		if _, err := db.Exec("SELECT pg_stat_clear_snapshot()"); err != nil {
			t.Fatal(err)
		}
		if err := db.QueryRow("SELECT COALESCE(seq_tup_read, 0), COALESCE(idx_scan, 0) FROM pg_stat_user_tables WHERE relname = 'dim'").Scan(&seqRows, &idx); err != nil {
			t.Fatal(err)
		}
		return want == nil || want(seqRows, idx)
	}) {
		t.Fatalf("PostgreSQL's counters of dim stay at seq_tup_read=%d idx_scan=%d", seqRows, idx)
	}
	return seqRows, idx
}

func physicalPlanOf(t *testing.T, env *table.TableEnvironment, q string) string {
	t.Helper()
	text, err := env.ExplainSQL(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	_, after, _ := strings.Cut(text, "== Optimized Physical Plan ==\n")
	plan, _, _ := strings.Cut(after, "\n\n== Optimized Execution Plan ==")
	return plan
}

func TestPlannerLookupJoinPostgres(t *testing.T) {
	p := PostgresFromEnv(t).CreateDatabase(t, "planner_lookup")
	p.Exec(t, "CREATE TABLE dim (id INT PRIMARY KEY, name TEXT NOT NULL, price NUMERIC(10, 2))",
		"INSERT INTO dim SELECT g, 'n' || g, g * 1.5 FROM generate_series(1, 100000) g",
		"ANALYZE dim")
	db := p.DB(t)
	ddl := "CREATE TABLE dim (id INT, name STRING, price DECIMAL(10, 2), PRIMARY KEY (id) NOT ENFORCED) " +
		jdbcWith(p.URL, p.User, p.Password, "dim", "'lookup.cache' = 'PARTIAL'", "'lookup.partial-cache.max-rows' = '100'")

	env := jdbcEnv(t, true)
	jdbcExec(t, env, ddl,
		"CREATE TEMPORARY VIEW orders AS SELECT * FROM (VALUES (1, 7), (2, 99999), (3, 7), (4, CAST(NULL AS INT)), (5, 200000)) AS o(oid, k)")
	q := "SELECT o.oid, d.name, d.price FROM (SELECT *, PROCTIME() AS pt FROM orders) AS o " +
		"LEFT JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.k = d.id"
	plan := physicalPlanOf(t, env, q)
	t.Logf("lookup join plan:\n%s", plan)
	if want := "LookupJoin(table=[default_catalog.default_database.dim], joinType=[LeftOuterJoin], lookup=[id=k]"; !strings.Contains(plan, want) {
		t.Fatalf("plan:\n%s\nwant %s", plan, want)
	}
	if strings.Contains(plan, "TableSourceScan(table=[[default_catalog, default_database, dim") {
		t.Fatalf("the lookup table is scanned:\n%s", plan)
	}
	_, idx0 := dimReads(t, db, nil)
	jdbcEqual(t, "lookup join", jdbcSorted(jdbcQuery(t, env, q)), []string{
		"+I[1, n7, 10.50]", "+I[2, n99999, 149998.50]", "+I[3, n7, 10.50]", "+I[4, null, null]", "+I[5, null, null]"})
	// the three distinct non-NULL keys are index lookups; nothing reads
	// the table's 100,000 rows
	seqRows, idx := dimReads(t, db, func(_, idx int64) bool { return idx >= idx0+3 })
	if seqRows > 100 {
		t.Fatalf("the lookup join read dim: %d rows by sequential scans", seqRows)
	}
	t.Logf("index scans of dim during the join: %d, rows read by sequential scans: %d", idx-idx0, seqRows)

	// a batch query: the WHERE conjuncts PostgreSQL can evaluate and the
	// LIMIT go into its SELECT
	benv := jdbcEnv(t, false)
	jdbcExec(t, benv, ddl)
	bq := "SELECT id, name FROM dim WHERE id BETWEEN 10 AND 20 AND name LIKE 'n1%' AND price > 15 LIMIT 100"
	bplan := physicalPlanOf(t, benv, bq)
	t.Logf("filter and limit pushdown plan:\n%s", bplan)
	want := "Limit(offset=[0], fetch=[100])\n+- Exchange(distribution=[single])\n" +
		"   +- TableSourceScan(table=[[default_catalog, default_database, dim, filter=[AND(>=(id, 10), <=(id, 20), LIKE(name, _UTF-16LE'n1%'), >(CAST(price AS DECIMAL(12, 2)), 15.00))], project=[id, name], limit=[100]]], fields=[id, name])"
	if bplan != want {
		t.Errorf("plan:\n%s\nwant:\n%s", bplan, want)
	}
	_, idx0 = dimReads(t, db, nil)
	var wantRows []string
	for id := 11; id <= 19; id++ {
		wantRows = append(wantRows, "+I["+strconv.Itoa(id)+", n"+strconv.Itoa(id)+"]")
	}
	jdbcEqual(t, "filtered rows", jdbcSorted(jdbcQuery(t, benv, bq)), jdbcSorted(wantRows))
	seqRows, _ = dimReads(t, db, func(seqRows, idx int64) bool { return idx > idx0 || seqRows > 100 })
	if seqRows > 100 {
		t.Fatalf("the filtered query read dim whole: %d rows by sequential scans", seqRows)
	}
}

// The same lookup join and pushdown over MariaDB (MySQL dialect): the plan
// and the rows.
func TestPlannerLookupJoinMariaDB(t *testing.T) {
	m := MariaDBFromEnv(t).CreateDatabase(t, "planner_lookup")
	m.Exec(t, "CREATE TABLE dim (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, price DECIMAL(10, 2))",
		"INSERT INTO dim SELECT seq, CONCAT('n', seq), seq * 1.5 FROM seq_1_to_1000")
	ddl := "CREATE TABLE dim (id INT, name STRING, price DECIMAL(10, 2), PRIMARY KEY (id) NOT ENFORCED) " +
		jdbcWith(m.URL, m.User, m.Password, "dim", "'lookup.cache' = 'PARTIAL'", "'lookup.partial-cache.max-rows' = '100'")
	env := jdbcEnv(t, true)
	jdbcExec(t, env, ddl,
		"CREATE TEMPORARY VIEW orders AS SELECT * FROM (VALUES (1, 7), (2, 999), (3, 7), (4, CAST(NULL AS INT)), (5, 2000)) AS o(oid, k)")
	q := "SELECT o.oid, d.name, d.price FROM (SELECT *, PROCTIME() AS pt FROM orders) AS o " +
		"LEFT JOIN dim FOR SYSTEM_TIME AS OF o.pt AS d ON o.k = d.id AND d.price > 1"
	if plan := physicalPlanOf(t, env, q); !strings.Contains(plan, "LookupJoin(table=[default_catalog.default_database.dim], joinType=[LeftOuterJoin], lookup=[id=k], where=[>(CAST(price AS DECIMAL(12, 2)), 1.00)], select=[") {
		t.Fatalf("plan:\n%s", plan)
	}
	jdbcEqual(t, "lookup join", jdbcSorted(jdbcQuery(t, env, q)), []string{
		"+I[1, n7, 10.50]", "+I[2, n999, 1498.50]", "+I[3, n7, 10.50]", "+I[4, null, null]", "+I[5, null, null]"})

	benv := jdbcEnv(t, false)
	jdbcExec(t, benv, ddl)
	bq := "SELECT id, name FROM dim WHERE id IN (3, 5, 8) OR name = 'n11' LIMIT 10"
	want := "Limit(offset=[0], fetch=[10])\n+- Exchange(distribution=[single])\n" +
		"   +- TableSourceScan(table=[[default_catalog, default_database, dim, filter=[OR(IN(id, 3, 5, 8), =(name, _UTF-16LE'n11'))], project=[id, name], limit=[10]]], fields=[id, name])"
	if plan := physicalPlanOf(t, benv, bq); plan != want {
		t.Errorf("plan:\n%s\nwant:\n%s", plan, want)
	}
	jdbcEqual(t, "filtered rows", jdbcSorted(jdbcQuery(t, benv, bq)), []string{"+I[11, n11]", "+I[3, n3]", "+I[5, n5]", "+I[8, n8]"})
}
