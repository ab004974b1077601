package sqlclient

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"
)

// Cancelling the client's context (SIGINT/SIGTERM in riffle sql) stops an
// unbounded query that is printing its rows.
func TestCancelStopsUnboundedQuery(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		time.Sleep(200 * time.Millisecond)
		cancel()
	}()
	var out, errb bytes.Buffer
	done := make(chan int)
	go func() {
		done <- Run(ctx, Options{Mode: "streaming", Statements: "CREATE TABLE g (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100'); SELECT id FROM g"},
			strings.NewReader(""), &out, &errb)
	}()
	select {
	case code := <-done:
		if code == 0 {
			t.Errorf("a cancelled query exited 0")
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the query did not stop after the context was cancelled")
	}
}
