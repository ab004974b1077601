package sqltest

import (
	"path/filepath"
	"testing"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/table"
)

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
			RunFile(t, f, func() *table.TableEnvironment {
				env := table.MustCreate(table.InStreamingMode())
				env.GetConfig().Set("table.local-time-zone", "UTC")
				return env
			})
		})
	}
}
