package filesystem

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
)

// A monitored directory is read file by file as files appear; the source
// is unbounded and stops only when cancelled.
func TestMonitorReadsNewFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.csv"), "1,one\n2,two\n")
	src, err := connector.CreateSource(newCtx(map[string]string{"path": dir, "format": "csv", "source.monitor-interval": "5 ms"}, names, tys))
	if err != nil {
		t.Fatal(err)
	}
	if src.Bounded() {
		t.Fatal("a monitored source is bounded")
	}
	splits, err := src.Splits(context.Background())
	if err != nil || len(splits) != 1 {
		t.Fatalf("splits %v, %v", splits, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r, err := src.Open(ctx, splits[0], connector.ReadSpec{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	b, err := r.Next(ctx)
	if err != nil || b.Len != 2 {
		t.Fatalf("first file: %v rows, %v", b, err)
	}
	// a file being written under a hidden name is not read; once moved in,
	// it is
	tmp := filepath.Join(dir, ".b.csv.tmp")
	write(t, tmp, "3,three\n")
	go func() {
		time.Sleep(20 * time.Millisecond)
		os.Rename(tmp, filepath.Join(dir, "b.csv"))
	}()
	b, err = r.Next(ctx)
	if err != nil || b.Len != 1 || b.Row(0, tys).Values[1] != "three" {
		t.Fatalf("second file: %v, %v", b, err)
	}
	// nothing new: Next waits until cancelled
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	if _, err := r.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("after cancel: %v", err)
	}
}
