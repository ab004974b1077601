package table

import (
	"strconv"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// Two branches of one query that read one table read one source, as
// Flink's sub-plan reuse makes them (table.optimizer.reuse-source-enabled):
// both see the same rows, even a datagen table's random values. With a
// source per branch the join below matched almost no row.
func TestBranchesOfOneTableReadOneSource(t *testing.T) {
	for _, mode := range []string{"batch", "streaming"} {
		for _, p := range []int{1, 2} {
			t.Run(mode+"/p"+strconv.Itoa(p), func(t *testing.T) {
				env := MustCreate(InBatchMode())
				for _, s := range []string{
					"SET 'execution.runtime-mode' = '" + mode + "'",
					"SET 'parallelism.default' = '" + strconv.Itoa(p) + "'",
					`CREATE TABLE g (id BIGINT, v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '500',
						'rows-per-second' = '100000000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1',
						'fields.id.end' = '500', 'fields.v.min' = '1', 'fields.v.max' = '1000000000')`,
				} {
					if _, err := env.ExecuteSQL(s); err != nil {
						t.Fatalf("%s: %v", s, err)
					}
				}
				q := `SELECT COUNT(*) FROM (SELECT id, v FROM g) a JOIN (SELECT id, v + 1 AS w FROM g) b
					ON a.id = b.id AND a.v + 1 = b.w`
				it, err := queryWith(t, env, q, 1).Collect()
				if err != nil {
					t.Fatal(err)
				}
				defer it.Close()
				var last int64 = -1 // streaming: the count's final update
				for it.Next() {
					if k := it.Kind(); k == types.Insert || k == types.UpdateAfter {
						last = it.Row().Values[0].(int64)
					}
				}
				if err := it.Err(); err != nil {
					t.Fatal(err)
				}
				if last != 500 {
					t.Errorf("rows of both branches that agree: %d, want all 500", last)
				}
			})
		}
	}
}
