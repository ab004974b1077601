package sqltest

import (
	"path/filepath"
	goruntime "runtime"
	"testing"
)

// TestGoldenScriptsOneCore runs the batch scripts at parallelism 1 on one
// core (GOMAXPROCS 1), where the executor chains every operator of
// parallelism 1 to its one producer over any edge and a Calc feeding a
// GROUP BY of integer keys recycles its result buffers (runtime
// reuseChainedOutputs): the same expected outputs as TestGoldenScripts.
// The scripts run one after another, since GOMAXPROCS is the process's.
func TestGoldenScriptsOneCore(t *testing.T) {
	RegisterDocFunctions()
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(1))
	for _, name := range parallelScripts {
		t.Run(name, func(t *testing.T) {
			RunFile(t, filepath.Join("testdata", name), EmbeddedEngine())
		})
	}
}
