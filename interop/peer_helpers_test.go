//go:build interop

package interop

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/cli"
	"github.com/riffle-sql/riffle/engine/gateway"
)

// lockedBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

var listeningRe = regexp.MustCompile(`listening on http://([0-9.]+:[0-9]+)`)

// startRiffleGateway runs `riffle gateway --listen 127.0.0.1:0` in this
// process (cli.Main, as the binary does) and returns its host:port. The
// gateway stops, and the test waits for it, when the test ends.
//
// The gateway requires a bearer token, as by default. Flink's SQL Client
// and JDBC driver send it from FLINK_REST_CLIENT_HEADERS, which is set for
// the test (child processes inherit it), and Riffle's own clients find it
// in the gateway's token file (the config folder is the test's own).
func startRiffleGateway(t *testing.T, defines ...string) string {
	t.Helper()
	token, err := gateway.NewToken()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	t.Setenv("FLINK_REST_CLIENT_HEADERS", "Authorization:Bearer "+token) // no space after the colon: Flink keeps it in the value, which netty refuses
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb lockedBuffer
	env := cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return map[string]string{cli.TokenEnv: token}[k] }}
	args := []string{"gateway", "--listen", "127.0.0.1:0"}
	for _, d := range defines {
		args = append(args, "-D", d)
	}
	done := make(chan int, 1)
	go func() { done <- cli.Main(ctx, env, args) }()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("riffle gateway exited with %d: %s", code, errb.String())
			}
		case <-time.After(30 * time.Second):
			t.Errorf("riffle gateway did not stop within 30 s")
		}
	})
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if m := listeningRe.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
		select {
		case code := <-done:
			t.Fatalf("riffle gateway exited with %d: %s %s", code, out.String(), errb.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("riffle gateway did not report its address: %q %q", out.String(), errb.String())
	return ""
}

// hostPort strips the scheme of a gateway URL: "http://127.0.0.1:8083" →
// "127.0.0.1:8083".
func hostPort(url string) string {
	return strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(url, "http://"), "https://"), "/")
}

// requireJava fails the test when no java is on PATH: the Flink clients
// are Java programs.
func requireJava(t *testing.T) string {
	t.Helper()
	java, err := exec.LookPath("java")
	if err != nil {
		t.Fatalf("java is not on PATH: Flink's SQL Client and JDBC driver need a Java 17 runtime (apt-get install openjdk-17-jdk-headless): %v", err)
	}
	return java
}

var ansiRe = regexp.MustCompile("\x1b\\[[0-9;]*m")

// runSQLClient runs Flink's own SQL Client (scripts/flink.sh sql-client) in
// gateway mode against endpoint (host:port) with script as its -f file
// (and extra arguments before it), and returns what it printed, ANSI
// colours removed.
func runSQLClient(t *testing.T, endpoint, script string, extra ...string) string {
	t.Helper()
	requireJava(t)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "script.sql")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	args := append([]string{"sql-client", "gateway", "--endpoint", endpoint}, extra...)
	cmd := exec.CommandContext(ctx, filepath.Join(root, "scripts", "flink.sh"), append(args, "-f", file)...)
	cmd.Dir = root
	cmd.Stdin = strings.NewReader("")
	out, err := cmd.CombinedOutput()
	text := ansiRe.ReplaceAllString(string(out), "")
	if err != nil {
		t.Fatalf("SQL Client against %s: %v\n%s", endpoint, err, text)
	}
	return text
}

// sqlClientLines normalises SQL Client output for comparison: prompts and
// the echo of the dumb terminal dropped, timings and job ids masked, blank
// lines removed.
func sqlClientLines(out string) []string {
	secondsRe := regexp.MustCompile(` \([0-9.]+ seconds\)`)
	jobRe := regexp.MustCompile(`\b[0-9a-f]{32}\b`)
	var lines []string
	started := false
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "Executing SQL from file.") {
			started = true
			continue
		}
		if !started {
			continue
		}
		for strings.HasPrefix(l, "Flink SQL> ") {
			l = strings.TrimPrefix(l, "Flink SQL> ")
			// the dumb terminal may echo a long statement before the output
			for _, mark := range []string{"+-", "[INFO]", "[ERROR]"} {
				if i := strings.Index(l, mark); i > 0 {
					l = l[i:]
					break
				}
			}
		}
		l = secondsRe.ReplaceAllString(l, "")
		l = jobRe.ReplaceAllString(l, "<job id>")
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "Command history file path") || l == "Flink SQL>" {
			continue
		}
		lines = append(lines, l)
	}
	return lines
}
