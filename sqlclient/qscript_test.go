package sqlclient

import (
	"bytes"
	"context"
	"flag"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/gateway"
)

var updateQ = flag.Bool("update-q", false, "rewrite the expected outputs of sqlclient/testdata/*.q from the embedded client (review the diff)")

// TestQScripts replays every script of testdata/ — scripts in Flink's SQL
// Client test format (statement; optional !output; expected output;
// !ok/!info/!error, as CliClientITCase reads them) — through `riffle sql`
// statement by statement: once on the embedded engine and once with
// --endpoint against `riffle gateway` (gateway.NewServer on a loopback
// port), so both front ends print what Flink's SQL Client prints.
func TestQScripts(t *testing.T) {
	files, err := filepath.Glob("testdata/*.q")
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	srv := gateway.NewServer(gateway.Config{PrintOutput: io.Discard})
	defer srv.Close()
	hs := httptest.NewServer(srv)
	defer hs.Close()
	for _, f := range files {
		f := f
		t.Run(filepath.Base(f)+"/embedded", func(t *testing.T) { runQScript(t, f, Options{}, *updateQ) })
		if !*updateQ {
			t.Run(filepath.Base(f)+"/gateway", func(t *testing.T) { runQScript(t, f, Options{Endpoint: hs.URL}, false) })
		}
	}
}

func runQScript(t *testing.T, file string, opts Options, update bool) {
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	cases, err := ParseQScript(string(raw))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var out, errOut bytes.Buffer
	s, err := NewSession(ctx, opts, &out, &errOut)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var rewritten []string
	text := strings.Split(strings.ReplaceAll(string(raw), "\r\n", "\n"), "\n")
	from := 0
	for _, c := range cases {
		out.Reset()
		errOut.Reset()
		ok := s.Execute(ctx, c.SQL)
		got := out.String() + errOut.String()
		lines := QNormalize(strings.Split(got, "\n"))
		if update {
			// the text before the statement's end (comments, the
			// statement), then the new output and terminator
			rewritten = append(rewritten, text[from:c.StmtEnd]...)
			rewritten = append(rewritten, "!output")
			for _, l := range lines {
				if !strings.HasPrefix(l, "(in the statement at ") {
					rewritten = append(rewritten, l)
				}
			}
			kind := "!ok"
			switch {
			case !ok:
				kind = "!error"
			case len(lines) == 1 && strings.HasPrefix(lines[0], "[INFO]"):
				kind = "!info"
			}
			rewritten = append(rewritten, kind)
			from = c.End
			continue
		}
		switch c.Kind {
		case "error":
			if ok || !QErrorMatches(c.Output, got) {
				t.Errorf("%s:%d: %s\n--- want an error with:\n%s\n--- got:\n%s", file, c.Line, c.SQL, strings.Join(c.Output, "\n"), got)
			}
		default:
			want := QNormalize(c.Output)
			if !ok || strings.Join(want, "\n") != strings.Join(lines, "\n") {
				t.Errorf("%s:%d: %s\n--- want:\n%s\n--- got:\n%s", file, c.Line, c.SQL, strings.Join(want, "\n"), got)
			}
		}
	}
	if update {
		rewritten = append(rewritten, text[min(from, len(text)):]...)
		if err := os.WriteFile(file, []byte(strings.Join(rewritten, "\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
