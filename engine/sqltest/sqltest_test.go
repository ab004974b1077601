package sqltest

import (
	"flag"
	"path/filepath"
	"testing"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
)

// update rewrites the expected outputs of the scripts run (review the
// diff!): go test ./engine/sqltest -run 'TestGoldenScripts/name.q' -update
var update = flag.Bool("update", false, "rewrite the expected outputs of the golden scripts")

func scripts(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/*.q")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	return files
}

// TestGoldenScripts runs every script on the embedded engine.
func TestGoldenScripts(t *testing.T) {
	RegisterDocFunctions()
	for _, f := range scripts(t) {
		f := f
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			if *update {
				Record(t, f, EmbeddedEngine())
				return
			}
			RunFile(t, f, EmbeddedEngine())
		})
	}
}

// TestGoldenScriptsOnGateway runs every script (riffle-only cases
// included) through Riffle's SQL Gateway over loopback, with the same
// expectations as TestGoldenScripts: LoopbackGateway serves it on a free
// 127.0.0.1 port in the test process, with a bearer token as `riffle
// gateway` has by default, and GatewayEngine opens one session per
// script, so statements, rows and errors travel the REST API and its JSON
// encoding before they are rendered as the embedded results are.
func TestGoldenScriptsOnGateway(t *testing.T) {
	if *update {
		t.Skip("-update records from the embedded engine")
	}
	RegisterDocFunctions()
	newEngine := GatewayEngine(LoopbackGateway(t), "")
	// the subtests run in parallel inside one group, so that the gateway
	// stops (t.Cleanup) after the last of them
	t.Run("scripts", func(t *testing.T) {
		for _, f := range scripts(t) {
			f := f
			t.Run(filepath.Base(f), func(t *testing.T) {
				t.Parallel()
				RunFile(t, f, newEngine)
			})
		}
	})
}
