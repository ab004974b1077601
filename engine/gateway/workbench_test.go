package gateway

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"
)

// What the workbench needs beyond table.Engine: error positions, a lost
// session, and stopping a streaming read from another goroutine.

func TestErrorPosition(t *testing.T) {
	g := newTestGateway(t, Config{})
	e := g.connect(t, batchMode)
	for _, c := range []struct {
		stmt      string
		line, col int
	}{
		{"SELEC 1", 1, 1},
		{"SELECT 1 +", 1, 10}, // Flink 2.3.0: column 10, the last character
		{"SELECT nope\nFROM (VALUES (1)) AS t(a)", 1, 8},
	} {
		_, err := e.ExecuteSQL(c.stmt)
		var ge *Error
		if !errors.As(err, &ge) {
			t.Fatalf("%q: %v", c.stmt, err)
		}
		line, col, ok := ge.Position()
		if !ok || line != c.line || col != c.col {
			t.Errorf("%q: position %d:%d %v, want %d:%d (%v)", c.stmt, line, col, ok, c.line, c.col, err)
		}
	}
	if _, _, ok := (&Error{StatusCode: 500, Errors: []string{"Internal server error.", "boom"}}).Position(); ok {
		t.Error("a message without a position has one")
	}
}

func TestSessionLost(t *testing.T) {
	g := newTestGateway(t, Config{})
	e := g.connect(t, batchMode)
	if _, err := e.ExecuteSQL("SELEC 1"); err == nil || SessionLost(err) {
		t.Errorf("SessionLost(%v)", err)
	}
	if err := e.Client().CloseSession(context.Background(), e.SessionHandle()); err != nil {
		t.Fatal(err)
	}
	_, err := e.ExecuteSQL("SELECT 1")
	if !SessionLost(err) {
		t.Errorf("after the session closed: %v (SessionLost false)", err)
	}
	if SessionLost(errors.New("Session 'x' does not exist")) {
		t.Error("a plain error counts as a gateway answer")
	}
}

func TestRemoteRowsAbort(t *testing.T) {
	g := newTestGateway(t, Config{})
	e := g.connect(t, nil)
	if _, err := e.ExecuteSQL("CREATE TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100')"); err != nil {
		t.Fatal(err)
	}
	res, err := e.ExecuteSQL("SELECT a FROM gen")
	if err != nil {
		t.Fatal(err)
	}
	it, err := res.CollectRows()
	if err != nil {
		t.Fatal(err)
	}
	if !it.Next() {
		t.Fatal(it.Err())
	}
	done := make(chan int)
	var read atomic.Int64
	go func() {
		for it.Next() {
			read.Add(1)
		}
		done <- int(read.Load())
	}()
	// Abort while the reader is in its loop (a row at 100 rows/s: Next
	// mostly waits)
	if !waitFor(10*time.Second, func() bool { return read.Load() >= 2 }) {
		t.Fatal("the reader got no rows")
	}
	it.Abort()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Next still blocks after Abort")
	}
	if it.Err() != nil {
		t.Errorf("Err after Abort: %v", it.Err())
	}
	it.Close()
	if err := e.WaitJob(context.Background(), res.JobID()); err == nil {
		t.Error("the job still runs after Abort and Close")
	}
}
