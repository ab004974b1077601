package sqltest

import (
	"path/filepath"
	"testing"

	"github.com/riffle-sql/riffle/engine/table"
)

// parallelEngine is EmbeddedEngine at parallelism.default = 2 with
// two-phase aggregation forced (table.optimizer.agg-phase-strategy
// TWO_PHASE), so that the small single-split tables of the scripts also
// take the local and merge phases.
func parallelEngine() NewEngine {
	return func(*testing.T) table.Engine {
		env := table.MustCreate(table.InStreamingMode())
		env.Config().Set("table.local-time-zone", "UTC")
		env.Config().Set("parallelism.default", "2")
		env.Config().Set("table.optimizer.agg-phase-strategy", "TWO_PHASE")
		return table.NewEmbeddedEngine(env)
	}
}

// TestGoldenScriptsParallel runs the batch scripts with aggregates at
// parallelism 2 against the same expected outputs as at parallelism 1:
// rows of a query without ORDER BY are compared ignoring their order,
// EXPLAIN statements are skipped (their plans differ by design).
func TestGoldenScriptsParallel(t *testing.T) {
	RegisterDocFunctions()
	for _, name := range parallelScripts {
		f := filepath.Join("testdata", name)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			RunScript(t, f, parallelEngine(), Options{Unordered: true})
		})
	}
}
