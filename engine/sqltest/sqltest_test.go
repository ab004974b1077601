package sqltest

import (
	"flag"
	"path/filepath"
	"testing"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/table"
)

// update rewrites the expected outputs of the scripts run (review the
// diff!): go test ./engine/sqltest -run 'TestGoldenScripts/name.q' -update
var update = flag.Bool("update", false, "rewrite the expected outputs of the golden scripts")

func TestGoldenScripts(t *testing.T) {
	RegisterDocFunctions()
	files, err := filepath.Glob("testdata/*.q")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	for _, f := range files {
		f := f
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			newEnv := func() *table.TableEnvironment {
				env := table.MustCreate(table.InStreamingMode())
				env.GetConfig().Set("table.local-time-zone", "UTC")
				return env
			}
			if *update {
				Record(t, f, newEnv)
				return
			}
			RunFile(t, f, newEnv)
		})
	}
}
