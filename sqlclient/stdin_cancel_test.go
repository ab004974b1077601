package sqlclient

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"
	"time"
)

// A script read from standard input that stops arriving (a pipe whose
// writer neither writes nor closes): cancelling the context (SIGTERM)
// ends the run while the read waits, after the statements already read
// have run.
func TestCancelWhileReadingStdin(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb bytes.Buffer
	code := make(chan int, 1)
	go func() { code <- Run(ctx, Options{Mode: ModeBatch}, pr, &out, &errb) }()
	if _, err := pw.Write([]byte("SELECT 41 + 1;\nSELECT")); err != nil {
		t.Fatal(err)
	}
	// the write returns once the client took the input; cancel while it
	// waits for the rest of the second statement
	cancel()
	select {
	case c := <-code:
		if c == 0 {
			t.Fatalf("exit status 0 after a cancelled read; stderr: %s", errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the client did not stop after its context was cancelled")
	}
	if !strings.Contains(errb.String(), "Cancelled while reading <stdin>") {
		t.Fatalf("stderr: %q", errb.String())
	}
}
