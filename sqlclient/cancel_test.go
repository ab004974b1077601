package sqlclient

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"
)

// rowWatcher is the client's stdout: it keeps what is written and closes
// printed once a changelog row ("+I") has been printed.
type rowWatcher struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	printed chan struct{}
	once    sync.Once
}

func (w *rowWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.buf.Write(p)
	if strings.Contains(w.buf.String(), "+I") {
		w.once.Do(func() { close(w.printed) })
	}
	return n, err
}

// Cancelling the client's context (SIGINT/SIGTERM in riffle sql) stops an
// unbounded query that is printing its rows.
func TestCancelStopsUnboundedQuery(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &rowWatcher{printed: make(chan struct{})}
	var errb bytes.Buffer
	done := make(chan int)
	go func() {
		done <- Run(ctx, Options{Mode: "streaming", Statements: "CREATE TABLE g (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100'); SELECT id FROM g"},
			strings.NewReader(""), out, &errb)
	}()
	select {
	case <-out.printed: // it is printing its rows: cancel now
		cancel()
	case code := <-done:
		t.Fatalf("the unbounded query ended by itself (code %d): %s", code, errb.String())
	case <-time.After(30 * time.Second):
		t.Fatal("no row printed in 30 s")
	}
	select {
	case code := <-done:
		if code == 0 {
			t.Errorf("a cancelled query exited 0")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the query did not stop after the context was cancelled")
	}
}
