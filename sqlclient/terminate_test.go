package sqlclient

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/testwait"
)

// Ctrl+C (the statement's context cancelled) during a synchronous INSERT
// says the query was terminated, not "context canceled", cancels the
// job, and the client runs the next statement.
func TestCancelledInsertSaysTerminated(t *testing.T) {
	var out, errb bytes.Buffer
	engine, err := openEngine(context.Background(), Options{Mode: ModeStreaming}, &out)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	c := newClient(engine, &out, &errb, FormatTableau)
	if !c.runScript(context.Background(), `CREATE TABLE g (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '50');
CREATE TABLE b (a BIGINT) WITH ('connector' = 'blackhole');`, "-e") {
		t.Fatalf("DDL failed: %s", errb.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan bool)
	go func() { done <- c.runScript(ctx, "INSERT INTO b SELECT a FROM g", "<stdin>") }()
	running := testwait.Poll(30*time.Second, func() bool {
		jobs, err := engine.Jobs(context.Background())
		return err == nil && len(jobs) == 1 && jobs[0].Status == "RUNNING"
	})
	if !running {
		t.Fatal("the INSERT's job did not start")
	}
	cancel()
	if <-done {
		t.Error("a cancelled INSERT reported success")
	}
	msg := errb.String()
	if strings.Contains(msg, "context canceled") || !strings.Contains(msg, "[INFO] Query terminated.") {
		t.Errorf("stderr = %q, want the query terminated and no context canceled", msg)
	}
	canceled := testwait.Poll(30*time.Second, func() bool {
		jobs, err := engine.Jobs(context.Background())
		return err == nil && len(jobs) == 1 && jobs[0].Status == "CANCELED"
	})
	if !canceled {
		jobs, err := engine.Jobs(context.Background())
		t.Errorf("jobs after Ctrl+C = %+v, %v; want the INSERT's CANCELED", jobs, err)
	}
	errb.Reset()
	out.Reset()
	if !c.runScript(context.Background(), "SELECT 1", "<stdin>") {
		t.Errorf("the next statement failed: %s", errb.String())
	}
}

// Ctrl+C while a streaming query prints its rows ends them with Flink's
// SQL Client's footer: "Query terminated, received a total of N rows".
func TestCancelledQueryFooter(t *testing.T) {
	out := &rowWatcher{printed: make(chan struct{})}
	var errb bytes.Buffer
	engine, err := openEngine(context.Background(), Options{Mode: ModeStreaming}, out)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	c := newClient(engine, out, &errb, FormatTableau)
	if !c.runScript(context.Background(), `CREATE TABLE g (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '50')`, "-e") {
		t.Fatalf("DDL failed: %s", errb.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan bool)
	go func() { done <- c.runScript(ctx, "SELECT a FROM g", "<stdin>") }()
	select {
	case <-out.printed:
		cancel()
	case <-done:
		t.Fatalf("the unbounded query ended by itself: %s", errb.String())
	}
	<-done
	out.mu.Lock()
	text := out.buf.String()
	out.mu.Unlock()
	n := strings.Count(text, "| +I |")
	want := "Query terminated, received a total of "
	if !strings.Contains(text, want) || strings.Contains(errb.String(), "context canceled") {
		t.Fatalf("stdout ends %q, stderr %q; want %q", text[max(0, len(text)-200):], errb.String(), want)
	}
	if !strings.HasSuffix(text, want+fmt.Sprintf("%d %s\n", n, rowTerm(n))) {
		t.Errorf("footer does not count the %d printed rows: %q", n, text[max(0, len(text)-120):])
	}
}
