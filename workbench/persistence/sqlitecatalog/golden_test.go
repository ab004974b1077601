package sqlitecatalog

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/riffle-sql/riffle/engine/sqltest"
)

var update = flag.Bool("update", false, "record the golden script's outputs")

// TestGoldenScript runs testdata/riffle_catalog.q on the embedded engine
// from a private copy of testdata (the script's ${TESTDATA}), so the
// catalog file it makes is new each run; -update records the outputs into
// testdata.
func TestGoldenScript(t *testing.T) {
	src := filepath.Join("testdata", "riffle_catalog.q")
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	copyPath := filepath.Join(t.TempDir(), "riffle_catalog.q")
	if err := os.WriteFile(copyPath, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if *update {
		sqltest.Record(t, copyPath, sqltest.EmbeddedEngine())
		out, err := os.ReadFile(copyPath)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(src, out, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	sqltest.RunFile(t, copyPath, sqltest.EmbeddedEngine())
}
