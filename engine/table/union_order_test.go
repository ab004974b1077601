package table

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// A streaming UNION ALL of updating inputs keeps each row's changes in
// order: the -U of a row arrives after the +I it retracts. The union's
// edges once sent the batches of one producer instance round robin to
// the union's instances (a rebalance, also at equal parallelism), so a
// key's -U could overtake its +U on the other path and the GROUP BY above
// dropped it as a retraction of nothing: wrong totals in most runs at
// parallelism 2. The last query unions two global aggregates (parallelism
// 1) into a union of parallelism 2.
func TestUnionOfUpdatingInputsKeepsOrder(t *testing.T) {
	for _, c := range []struct{ query, want string }{
		{`WITH a AS (SELECT v % 10 AS k, COUNT(*) AS c FROM seq GROUP BY v % 10)
			SELECT COUNT(*), SUM(c) FROM (SELECT k, c FROM a UNION ALL SELECT k + 1, c FROM a)`, "[20 60000]"},
		{`SELECT COUNT(*), SUM(c) FROM (SELECT v % 10 AS k, COUNT(*) AS c FROM seq GROUP BY v % 10
			UNION ALL SELECT v % 7, COUNT(*) FROM seq GROUP BY v % 7)`, "[17 60000]"},
		{`SELECT COUNT(*), SUM(c) FROM (SELECT COUNT(*) AS c FROM seq UNION ALL
			SELECT COUNT(*) AS c FROM seq WHERE v > 10)`, "[2 59990]"},
	} {
		for _, reuse := range []string{"true", "false"} {
			for run := 0; run < 4; run++ {
				env := sequenceEnv(t, 30000, 2, "SET 'execution.runtime-mode' = 'streaming'",
					"SET 'table.optimizer.reuse-sub-plan-enabled' = '"+reuse+"'")
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				it, err := queryWith(t, env, c.query, 1).CollectContext(ctx)
				if err != nil {
					t.Fatal(err)
				}
				var got []any // the last update
				for it.Next() {
					if k := it.Kind(); k == types.Insert || k == types.UpdateAfter {
						got = it.Row().Values
					}
				}
				if err := it.Err(); err != nil {
					t.Errorf("reuse %s run %d: %s: %v", reuse, run, c.query, err)
				} else if fmt.Sprint(got) != c.want {
					t.Errorf("reuse %s run %d: %s: got %v, want %s", reuse, run, c.query, got, c.want)
				}
				it.Close()
				cancel()
			}
		}
	}
}
