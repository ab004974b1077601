package table

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// captureStdout runs f and returns what it printed.
func captureStdout(t *testing.T, f func()) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	old := os.Stdout
	os.Stdout = w
	f()
	os.Stdout = old
	w.Close()
	var b bytes.Buffer
	io.Copy(&b, r)
	return b.String()
}

// Intervals whose SQL literal would exceed what Flink accepts (a day-time
// leading precision above 3) still work from the Table API, as they do in
// PyFlink (lit(1000).seconds).
func TestLargeIntervalLiterals(t *testing.T) {
	env := exampleEnv()
	got := captureStdout(t, func() {
		eval(env, Lit(1000).Seconds(), Lit(5000).Days(), Lit(-1500).Hours(), Lit(time.Duration(2000)*time.Hour))
	})
	want := "+0 00:16:40.000, +5000 00:00:00.000, -62 12:00:00.000, +83 08:00:00.000"
	if strings.TrimSpace(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
