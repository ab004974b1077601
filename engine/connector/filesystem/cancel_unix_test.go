//go:build unix

package filesystem

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/testwait"
)

// waitForStack polls the goroutine stacks until one holds every one of
// parts (a reader parked in open(2) or in a read), or fails the test after
// a generous deadline.
func waitForStack(t *testing.T, parts ...string) {
	t.Helper()
	buf := make([]byte, 1<<20)
	testwait.Until(t, 30*time.Second, fmt.Sprintf("a goroutine in %v", parts), func() bool {
		n := runtime.Stack(buf, true)
		for _, g := range strings.Split(string(buf[:n]), "\n\n") {
			all := true
			for _, p := range parts {
				all = all && strings.Contains(g, p)
			}
			if all {
				return true
			}
		}
		return false
	})
}

// readFIFO reads the FIFO's single split until an error and sends it.
func readFIFO(ctx context.Context, t *testing.T, fifo string) (<-chan error, <-chan int) {
	t.Helper()
	src, err := connector.CreateSource(newCtx(map[string]string{"path": fifo, "format": "csv"}, names, tys))
	if err != nil {
		t.Fatal(err)
	}
	splits, err := src.Splits(ctx)
	if err != nil || len(splits) != 1 {
		t.Fatalf("splits %v, %v", splits, err)
	}
	errc, rows := make(chan error, 1), make(chan int, 16)
	go func() {
		r, err := src.Open(ctx, splits[0], connector.ReadSpec{})
		if err != nil {
			errc <- err
			return
		}
		defer r.Close()
		for {
			b, err := r.Next(ctx)
			if err != nil {
				errc <- err
				return
			}
			rows <- b.Len
		}
	}()
	return errc, rows
}

func awaitCanceled(t *testing.T, errc <-chan error) {
	t.Helper()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("reading ended with %v, want context.Canceled", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("reading did not end after its context was cancelled")
	}
}

// A FIFO without a writer: open(2) waits for one; cancelling the context
// ends the open with context.Canceled (and releases the waiting open).
func TestCancelOpeningFIFOWithoutWriter(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "x.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc, _ := readFIFO(ctx, t, fifo)
	waitForStack(t, "filesystem.openRead", "syscall.openat")
	cancel()
	awaitCanceled(t, errc)
	// the abandoned open(2) was woken and its file closed: nothing is
	// left waiting in open(2)
	buf := make([]byte, 1<<20)
	testwait.Until(t, 30*time.Second, "the open of the FIFO to end", func() bool {
		n := runtime.Stack(buf, true)
		return !strings.Contains(string(buf[:n]), "syscall.openat")
	})
}

// A FIFO whose writer wrote a row and then stopped writing (without
// closing): the reader waits in read(2); cancelling ends it with
// context.Canceled. The same FIFO read to its end gives the rows.
func TestCancelReadingStalledFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "x.fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc, _ := readFIFO(ctx, t, fifo)
	w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // waits for the reader
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if _, err := w.WriteString("1,one\n"); err != nil {
		t.Fatal(err)
	}
	// the reader consumed the row and waits for more in the poller
	waitForStack(t, "filesystem.(*fileReader).Next", "internal/poll.(*FD).Read", "runtime_pollWait")
	cancel()
	awaitCanceled(t, errc)
	w.Close()

	// not cancelled: the writer's rows are read up to its close
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel2()
	errc, rows := readFIFO(ctx2, t, fifo)
	w2, err := os.OpenFile(fifo, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w2.WriteString("1,one\n2,two\n"); err != nil {
		t.Fatal(err)
	}
	w2.Close()
	select {
	case err := <-errc:
		if err != io.EOF {
			t.Fatalf("reading ended with %v, want EOF", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("reading did not end at the writer's close")
	}
	if n := <-rows; n != 2 {
		t.Fatalf("read %d rows, want 2", n)
	}
}
