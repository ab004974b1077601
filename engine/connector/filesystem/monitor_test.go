package filesystem

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// A monitored directory is read file by file as files appear; the source
// is unbounded and stops only when cancelled. The reader's interval timer
// runs on synctest's fake clock: the test lets listings pass by stepping
// time, and waits (synctest.Wait) until Next is parked on its timer.
func TestMonitorReadsNewFiles(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const interval = 5 * time.Millisecond
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
		type answer struct {
			b   *types.Batch
			err error
		}
		next := func() chan answer {
			c := make(chan answer, 1)
			go func() {
				b, err := r.Next(ctx)
				c <- answer{b, err}
			}()
			return c
		}
		// a file being written under a hidden name is not read, however
		// many listings pass; once moved in, it is
		tmp := filepath.Join(dir, ".b.csv.tmp")
		write(t, tmp, "3,three\n")
		got := next()
		// not a wait: in the synctest bubble this moves the fake clock on
		// by ten listings (no real time passes)
		time.Sleep(10 * interval)
		synctest.Wait()
		select {
		case a := <-got:
			t.Fatalf("read while hidden: %v, %v", a.b, a.err)
		default:
		}
		if err := os.Rename(tmp, filepath.Join(dir, "b.csv")); err != nil {
			t.Fatal(err)
		}
		a := <-got // the next listing finds it
		if a.err != nil || a.b.Len != 1 || a.b.Row(0, tys).Values[1] != "three" {
			t.Fatalf("second file: %v, %v", a.b, a.err)
		}
		// nothing new: Next waits until cancelled
		got = next()
		time.Sleep(10 * interval) // ten more listings on the fake clock
		synctest.Wait()
		select {
		case a := <-got:
			t.Fatalf("Next returned with nothing new: %v, %v", a.b, a.err)
		default:
		}
		cancel()
		if a := <-got; !errors.Is(a.err, context.Canceled) {
			t.Fatalf("after cancel: %v", a.err)
		}
	})
}
