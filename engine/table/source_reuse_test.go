package table

import (
	"context"
	"fmt"
	"strconv"
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
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
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
			if fmt.Sprint(got) != "[299999 45000149999]" {
				t.Errorf("got %v, want [299999 45000149999]", got)
			}
		})
	}
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
