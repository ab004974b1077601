package table

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// Two branches of one query that read one table read one source, as
// Flink's sub-plan reuse makes them (table.optimizer.reuse-source-enabled):
// both see the same rows, even a datagen table's random values. With a
// source per branch (either reuse option false) the join below matches
// almost no row.
func TestBranchesOfOneTableReadOneSource(t *testing.T) {
	for _, reuse := range []struct{ name, set string }{
		{"default", ""},
		{"no-source-reuse", "SET 'table.optimizer.reuse-source-enabled' = 'false'"},
		{"no-sub-plan-reuse", "SET 'table.optimizer.reuse-sub-plan-enabled' = 'false'"},
	} {
		for _, mode := range []string{"batch", "streaming"} {
			for _, p := range []int{1, 2} {
				t.Run(reuse.name+"/"+mode+"/p"+strconv.Itoa(p), func(t *testing.T) {
					branchesAgree(t, mode, p, reuse.set, reuse.set == "")
				})
			}
		}
	}
}

// branchesAgree runs a query whose two branches read one datagen table of
// 500 random rows and counts the rows on which they agree: all 500 when
// shared, else (a source each, random values from 1 to 10^9) almost none.
func branchesAgree(t *testing.T, mode string, p int, set string, shared bool) {
	env := MustCreate(InBatchMode())
	for _, s := range []string{
		set,
		"SET 'execution.runtime-mode' = '" + mode + "'",
		"SET 'parallelism.default' = '" + strconv.Itoa(p) + "'",
		`CREATE TABLE g (id BIGINT, v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '500',
			'rows-per-second' = '100000000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',
			'fields.id.end' = '500', 'fields.v.min' = '1', 'fields.v.max' = '1000000000')`,
	} {
		if s == "" {
			continue
		}
		if _, err := env.ExecuteSQL(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	q := `SELECT COUNT(*) FROM (SELECT id, v FROM g) a JOIN (SELECT id, v + 1 AS w FROM g) b
		ON a.id = b.id AND a.v + 1 = b.w`
	if mode == "batch" {
		// a batch hash join's two sides keep their own
		// sources (TestBatchJoinOfOneTableEnds)
		q = `SELECT COUNT(*) FROM (SELECT id FROM (SELECT id, v FROM g UNION ALL
			SELECT id, v + 1 FROM g) GROUP BY id HAVING MAX(v) - MIN(v) = 1)`
	}
	it, err := queryWith(t, env, q, 1).Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var last int64 // streaming: the count's final update (no row: none agree)
	for it.Next() {
		if k := it.Kind(); k == types.Insert || k == types.UpdateAfter {
			last = it.Row().Values[0].(int64)
		}
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	if shared && last != 500 {
		t.Errorf("rows of both branches that agree: %d, want all 500", last)
	}
	if !shared && last > 5 {
		t.Errorf("rows of both branches that agree: %d, want almost none (a source each)", last)
	}
}

// The batch hash join reads its build side to its end before its probe
// side: with one source for both sides (two Calcs of one table), the
// source filled the probe side's channel and waited on it, the build side
// waited for the source's end, and the job hung. Each side keeps its own
// source.
func TestBatchJoinOfOneTableEnds(t *testing.T) {
	for _, p := range []int{1, 2} {
		t.Run("p"+strconv.Itoa(p), func(t *testing.T) {
			env := sequenceEnv(t, 300000, p)
			q := `SELECT COUNT(*), SUM(a.v) FROM (SELECT v FROM seq) a JOIN (SELECT v + 1 AS w FROM seq) b
				ON a.v = b.w`
			got := lastRowWithin(t, env, q, 30*time.Second)
			if fmt.Sprint(got) != "[299999 45000149999]" {
				t.Errorf("got %v, want [299999 45000149999]", got)
			}
		})
	}
}

// A table read by the probe side of one batch hash join and the build
// side of another (a UNION ALL of a JOIN b and b JOIN a) keeps a source
// per scan: shared, each join's build side waited on a source that waited
// on the other join's probe side, and the query never ended.
func TestBatchCrossedJoinsOfTwoTablesEnd(t *testing.T) {
	for _, p := range []int{1, 2} {
		t.Run("p"+strconv.Itoa(p), func(t *testing.T) {
			env := sequenceEnv(t, 300000, p,
				`CREATE TABLE seq2 (v BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '300000',
				'rows-per-second' = '1000000000', 'fields.v.kind' = 'sequence', 'fields.v.start' = '1',
				'fields.v.end' = '300000')`)
			q := `SELECT COUNT(*) FROM (SELECT a.v FROM seq a JOIN seq2 b ON a.v = b.v
				UNION ALL SELECT b.v FROM seq2 b JOIN seq a ON b.v = a.v)`
			got := lastRowWithin(t, env, q, 30*time.Second)
			if fmt.Sprint(got) != "[600000]" {
				t.Errorf("got %v, want [600000]", got)
			}
		})
	}
}

// lastRowWithin runs batch query q in env and returns its last row; a
// query that has not ended within d fails the test (a hung job).
func lastRowWithin(t *testing.T, env *TableEnvironment, q string, d time.Duration) []any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	it, err := queryWith(t, env, q, 1).CollectContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var got []any
	for it.Next() {
		got = it.Row().Values
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return got
}

// Queries that read one table in several branches (shared sources, or
// not: a self-join, a batch hash join's two sides) give the answers of a
// source per branch.
func TestBranchesOfOneTable(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{`SELECT COUNT(*), SUM(x) FROM (SELECT v AS x FROM seq UNION ALL SELECT v + 1 FROM seq
			UNION ALL SELECT v * 2 FROM seq)`, "[90000 1800090000]"},
		{`SELECT COUNT(*) FROM (SELECT v FROM seq EXCEPT SELECT v + 100 FROM seq)`, "[100]"},
		{`SELECT COUNT(*) FROM (SELECT v FROM seq INTERSECT SELECT v + 100 FROM seq)`, "[29900]"},
		{`SELECT COUNT(*) FROM seq WHERE v IN (SELECT v * 2 FROM seq)`, "[15000]"},
		{`SELECT COUNT(*), SUM(a.v) FROM (SELECT v, v % 10 AS k FROM seq) a
			JOIN (SELECT v % 10 AS k, COUNT(*) AS c FROM seq GROUP BY v % 10) b ON a.k = b.k`, "[30000 450015000]"},
		{`SELECT COUNT(*) FROM ((SELECT a.v FROM seq a JOIN seq b ON a.v = b.v)
			UNION ALL SELECT v + 1 FROM seq)`, "[60000]"},
		{`SELECT COUNT(*), SUM(x) FROM ((SELECT v + 2 AS x FROM seq ORDER BY v DESC LIMIT 3)
			UNION ALL SELECT v + 1 FROM seq)`, "[30003 450135003]"},
		// a view used twice (sub-plan reuse): joined with itself, with a
		// projection of itself, in a union, and a view of a view
		{`WITH a AS (SELECT v % 10 AS k, COUNT(*) AS c FROM seq GROUP BY v % 10)
			SELECT COUNT(*), SUM(x.c) FROM a x JOIN a y ON x.k = y.k`, "[10 30000]"},
		{`WITH a AS (SELECT v % 10 AS k, COUNT(*) AS c FROM seq GROUP BY v % 10)
			SELECT COUNT(*), SUM(x.c + y.c) FROM a x JOIN (SELECT k + 1 AS k, c FROM a) y ON x.k = y.k`, "[9 54000]"},
		{`WITH a AS (SELECT v % 10 AS k, COUNT(*) AS c FROM seq GROUP BY v % 10)
			SELECT COUNT(*), SUM(c) FROM (SELECT k, c FROM a UNION ALL SELECT k + 1, c FROM a)`, "[20 60000]"},
		{`WITH a AS (SELECT v % 10 AS k, COUNT(*) AS c FROM seq GROUP BY v % 10),
			b AS (SELECT c, COUNT(*) AS n FROM a GROUP BY c)
			SELECT COUNT(*), SUM(x.n) FROM b x JOIN (SELECT c, n + 0 AS n FROM b) y ON x.c = y.c`, "[1 10]"},
		{`WITH a AS (SELECT v, v % 7 AS k FROM seq WHERE v % 3 = 0)
			SELECT COUNT(*) FROM (SELECT k, COUNT(*) AS c FROM a GROUP BY k) x
			JOIN (SELECT k, MAX(v) AS m FROM a GROUP BY k) y ON x.k = y.k`, "[7]"},
	} {
		for _, mode := range []string{"batch", "streaming"} {
			for _, p := range []int{1, 2} {
				env := sequenceEnv(t, 30000, p, "SET 'execution.runtime-mode' = '"+mode+"'")
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				it, err := queryWith(t, env, c.query, 1).CollectContext(ctx)
				if err != nil {
					t.Fatal(err)
				}
				var got []any // streaming: the last update
				for it.Next() {
					if k := it.Kind(); k == types.Insert || k == types.UpdateAfter {
						got = it.Row().Values
					}
				}
				if err := it.Err(); err != nil {
					t.Errorf("%s p%d: %s: %v", mode, p, c.query, err)
				} else if fmt.Sprint(got) != c.want {
					t.Errorf("%s p%d: %s: got %v, want %s", mode, p, c.query, got, c.want)
				}
				it.Close()
				cancel()
			}
		}
	}
}

// A view used twice runs once, its rows sent to both uses, as Flink's
// sub-plan reuse makes it (table.optimizer.reuse-sub-plan-enabled): both
// uses of an aggregate of random values see the same sums. With the
// option false each use runs its own aggregate and the sums differ.
func TestSubPlanRunsOnce(t *testing.T) {
	const view = `WITH r AS (SELECT v % 10 AS k, SUM(RAND()) AS s FROM seq GROUP BY v % 10) `
	queries := map[string]string{
		"streaming": view + `SELECT COUNT(*) FROM r a JOIN (SELECT k + 0 AS k, s FROM r) b ON a.k = b.k AND a.s = b.s`,
		// a batch hash join's two sides read their own producers
		// (TestBatchJoinOfOneTableEnds): a UNION ALL instead
		"batch": view + `SELECT COUNT(*) FROM (SELECT k FROM (SELECT k, s FROM r UNION ALL SELECT k + 0, s FROM r)
			GROUP BY k HAVING MAX(s) = MIN(s))`,
	}
	for _, shared := range []bool{true, false} {
		for _, mode := range []string{"batch", "streaming"} {
			for _, p := range []int{1, 2} {
				t.Run(fmt.Sprintf("shared=%t/%s/p%d", shared, mode, p), func(t *testing.T) {
					env := sequenceEnv(t, 3000, p, "SET 'execution.runtime-mode' = '"+mode+"'",
						fmt.Sprintf("SET 'table.optimizer.reuse-sub-plan-enabled' = '%t'", shared))
					ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
					defer cancel()
					it, err := queryWith(t, env, queries[mode], 1).CollectContext(ctx)
					if err != nil {
						t.Fatal(err)
					}
					defer it.Close()
					var agree int64 // streaming: the last update (no row: none agree)
					for it.Next() {
						if k := it.Kind(); k == types.Insert || k == types.UpdateAfter {
							agree = it.Row().Values[0].(int64)
						}
					}
					if err := it.Err(); err != nil {
						t.Fatal(err)
					}
					if want := map[bool]int64{true: 10, false: 0}[shared]; agree != want {
						t.Errorf("keys whose sums agree between the view's two uses: %d, want %d", agree, want)
					}
				})
			}
		}
	}
}

// The INSERTs of a batch statement set that read one view share its
// operators: the aggregate of random values runs once and both tables get
// its sums. (A streaming aggregate's updates cannot go to a filesystem
// table; TestSubPlanRunsOnce covers streaming.)
func TestStatementSetSharesAView(t *testing.T) {
	for _, p := range []int{1, 2} {
		t.Run(fmt.Sprintf("p%d", p), func(t *testing.T) {
			dir := t.TempDir()
			env := sequenceEnv(t, 3000, p, "SET 'execution.runtime-mode' = 'batch'")
			mustExec(t, env, "CREATE TEMPORARY VIEW r AS SELECT v % 10 AS k, SUM(RAND()) AS s FROM seq GROUP BY v % 10")
			for _, name := range []string{"a", "b"} {
				mustExec(t, env, "CREATE TABLE "+name+" (k BIGINT, s DOUBLE) WITH ('connector'='filesystem', 'path'='"+
					filepath.Join(dir, name)+"', 'format'='csv')")
			}
			res, err := env.ExecuteSQL("EXECUTE STATEMENT SET BEGIN INSERT INTO a SELECT k, s FROM r; INSERT INTO b SELECT k, s * 1 FROM r; END")
			if err != nil {
				t.Fatal(err)
			}
			if err := res.Wait(0); err != nil {
				t.Fatal(err)
			}
			read := func(name string) string {
				res, err := env.ExecuteSQL("SELECT k, s FROM " + name)
				if err != nil {
					t.Fatal(err)
				}
				rows := strings.Split(collectResult(t, res), "\n")
				sort.Strings(rows)
				return strings.Join(rows, " ")
			}
			a, b := read("a"), read("b")
			if a != b || strings.Count(a, "+I") != 10 {
				t.Errorf("the tables differ or lack rows:\na: %s\nb: %s", a, b)
			}
		})
	}
}
