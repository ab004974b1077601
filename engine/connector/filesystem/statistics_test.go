package filesystem

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
)

// A csv table estimates its rows from its files' total size and the
// average length of the first file's first lines (every line of these
// files is 10 bytes: 300 rows in two files); a gzip file, a monitored
// path and a format that is not line-based report no estimate.
func TestEstimatedRowCount(t *testing.T) {
	dir := t.TempDir()
	var a, b strings.Builder
	for i := 0; i < 200; i++ {
		fmt.Fprintf(&a, "%03d,abcde\n", i)
	}
	for i := 0; i < 100; i++ {
		fmt.Fprintf(&b, "%03d,fghij\n", i)
	}
	write(t, filepath.Join(dir, "a.csv"), a.String())
	write(t, filepath.Join(dir, "b.csv"), b.String())
	estimate := func(opts map[string]string) (int64, bool) {
		t.Helper()
		src, err := connector.CreateSource(newCtx(opts, names, tys))
		if err != nil {
			t.Fatal(err)
		}
		r, ok := src.(connector.ReportsStatistics)
		if !ok {
			t.Fatalf("%T does not report statistics", src)
		}
		return r.EstimatedRowCount(context.Background())
	}
	if n, ok := estimate(map[string]string{"path": dir, "format": "csv"}); !ok || n != 300 {
		t.Errorf("csv directory: %d rows (known %v), want 300", n, ok)
	}
	if n, ok := estimate(map[string]string{"path": filepath.Join(dir, "b.csv"), "format": "csv"}); !ok || n != 100 {
		t.Errorf("csv file: %d rows (known %v), want 100", n, ok)
	}
	if _, ok := estimate(map[string]string{"path": dir, "format": "csv", "source.monitor-interval": "1s"}); ok {
		t.Error("a monitored path reported an estimate")
	}
	gz := t.TempDir()
	write(t, filepath.Join(gz, "a.csv.gz"), "not really gzip\n")
	if _, ok := estimate(map[string]string{"path": gz, "format": "csv"}); ok {
		t.Error("a compressed file reported an estimate")
	}
}
