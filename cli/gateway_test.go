package cli

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/sqlclient"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func noEnv(string) string { return "" }

// Off loopback the gateway needs TLS (or --insecure) besides its token,
// and --no-auth is refused there.
func TestGatewayRefusesNonLoopbackWithoutTLS(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gateway", "--listen", "0.0.0.0:0"}, "requires TLS"},
		{[]string{"gateway", "--listen", "0.0.0.0:0", "--no-auth", "--insecure"}, "--no-auth is for loopback addresses only"},
		{[]string{"gateway", "--listen", "127.0.0.1:0", "--token", "s3cret-s3cret-s3cret"}, "use --token-file"},
		{[]string{"gateway", "--listen", "127.0.0.1:0", "--tls-cert", "c.pem"}, "needs both a certificate"},
	} {
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: noEnv}
		code := Main(context.Background(), env, c.args)
		if code == 0 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: code %d, stderr %q", c.args, code, errb.String())
		}
		if strings.Contains(out.String(), "listening") {
			t.Errorf("%v: it listened: %q", c.args, out.String())
		}
	}
}

// A short token from the environment is refused.
func TestGatewayRefusesShortToken(t *testing.T) {
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(k string) string { return map[string]string{TokenEnv: "x"}[k] }}
	if code := Main(context.Background(), env, []string{"gateway", "--listen", "127.0.0.1:0"}); code == 0 || !strings.Contains(errb.String(), "needs at least 16") {
		t.Fatalf("code %d, stderr %q", code, errb.String())
	}
}

func TestGatewayRejectsBadDefine(t *testing.T) {
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: noEnv}
	code := Main(context.Background(), env, []string{"gateway", "--listen", "127.0.0.1:0", "-D", "novalue"})
	if code == 0 || !strings.Contains(errb.String(), "want key=value") {
		t.Fatalf("code %d, stderr %q", code, errb.String())
	}
}

var listenRe = regexp.MustCompile(`listening on (http://[0-9.:]+)`)

// startGateway runs `riffle gateway` with args until the test ends and
// returns its URL and standard output.
func startGateway(t *testing.T, getenv func(string) string, args ...string) (string, *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var gwOut, gwErr syncBuffer
	gw := Env{Stdin: strings.NewReader(""), Stdout: &gwOut, Stderr: &gwErr, Getenv: getenv}
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, gw, append([]string{"gateway", "--listen", "127.0.0.1:0"}, args...))
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != 0 {
				t.Errorf("gateway exit status %d, stderr %q", code, gwErr.String())
			}
		case <-time.After(20 * time.Second):
			t.Error("gateway did not stop")
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := listenRe.FindStringSubmatch(gwOut.String()); m != nil {
			return m[1], &gwOut
		}
		select {
		case code := <-done:
			t.Fatalf("gateway exited with %d: %q %q", code, gwOut.String(), gwErr.String())
		case <-time.After(10 * time.Millisecond):
		}
	}
	t.Fatalf("gateway did not start: %q %q", gwOut.String(), gwErr.String())
	return "", nil
}

// TestGatewayServesSQLEndpoint starts `riffle gateway` with a token from
// the environment and runs `riffle sql --endpoint` against it, with the
// token from the environment, then from a file holding a wrong token.
func TestGatewayServesSQLEndpoint(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	const token = "s3cret-s3cret-s3cret"
	getenv := func(k string) string { return map[string]string{TokenEnv: token}[k] }
	url, _ := startGateway(t, getenv, "-D", "execution.runtime-mode=batch")
	ctx := context.Background()

	var out, errb bytes.Buffer
	client := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv}
	code := Main(ctx, client, []string{"sql", "--endpoint", url, "-e", "SELECT 40 + 2 AS answer"})
	// without --mode the gateway's -D default (batch) applies
	want := "+--------+\n| answer |\n+--------+\n|     42 |\n+--------+\n1 row in set\n"
	if code != 0 || out.String() != want {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}

	wrong := filepath.Join(t.TempDir(), "wrong.token")
	if err := os.WriteFile(wrong, []byte("wrong-wrong-wrong-wrong\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out.Reset()
	errb.Reset()
	code = Main(ctx, client, []string{"sql", "--endpoint", url, "--token-file", wrong, "-e", "SELECT 1"})
	if code == 0 || !strings.Contains(errb.String(), "Unauthorized") || out.Len() != 0 {
		t.Fatalf("wrong token: code %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}
}

// With no token given, the gateway makes one, prints it, writes it to a
// 0600 file for its port, and `riffle sql --endpoint` on this machine finds
// it there with nothing said; the file goes when the gateway stops.
func TestGatewayGeneratesTokenFoundByLocalClients(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	var tokenPath string
	t.Run("serve", func(t *testing.T) {
		url, gwOut := startGateway(t, noEnv, "-D", "execution.runtime-mode=batch")
		m := regexp.MustCompile(`Bearer token: (\S+)\n\[INFO\] Token file: (\S+) `).FindStringSubmatch(gwOut.String())
		if m == nil {
			t.Fatalf("no token announced: %q", gwOut.String())
		}
		tok, err := gateway.ReadTokenFile(m[2])
		if err != nil || tok != m[1] || len(tok) != 43 {
			t.Fatalf("token file %s: %q %v", m[2], tok, err)
		}
		tokenPath = m[2]
		var out, errb bytes.Buffer
		client := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: noEnv}
		if code := Main(context.Background(), client, []string{"sql", "--endpoint", url, "--format", "csv", "-e", "SELECT 7 AS x"}); code != 0 || out.String() != "x\n7\n" {
			t.Fatalf("code %d, stdout %q, stderr %q", code, out.String(), errb.String())
		}
		// a request without the token is refused
		resp, err := http.Post(url+"/v1/sessions", "application/json", strings.NewReader("{}"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Fatalf("no token: status %d", resp.StatusCode)
		}
	})
	if _, err := os.Stat(tokenPath); !os.IsNotExist(err) {
		t.Fatalf("token file left behind: %v", err)
	}
}

// --no-auth serves loopback without a token and says what that means.
func TestGatewayNoAuth(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	url, gwOut := startGateway(t, noEnv, "--no-auth")
	if !strings.Contains(gwOut.String(), "every user of this machine") {
		t.Fatalf("no warning: %q", gwOut.String())
	}
	resp, err := http.Get(url + "/v1/info")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("status %d", resp.StatusCode)
	}
}

func TestSQLEndpointTokenFromEnvironmentOrFile(t *testing.T) {
	var got sqlclient.Options
	env := Env{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: io.Discard,
		Getenv: func(k string) string { return map[string]string{TokenEnv: "tok"}[k] },
		RunSQL: func(_ context.Context, o sqlclient.Options, _ io.Reader, _, _ io.Writer) int { got = o; return 0 }}
	if code := Main(context.Background(), env, []string{"sql", "--endpoint", "http://h:1", "-e", "SELECT 1"}); code != 0 {
		t.Fatalf("code %d", code)
	}
	if got.Token != "tok" || got.Endpoint != "http://h:1" {
		t.Errorf("options %+v", got)
	}
	file := filepath.Join(t.TempDir(), "t")
	if err := os.WriteFile(file, []byte("from-file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := Main(context.Background(), env, []string{"sql", "--endpoint", "http://h:1", "--token-file", file, "-e", "SELECT 1"}); code != 0 || got.Token != "from-file" {
		t.Errorf("code %d, token %q: the file should win", code, got.Token)
	}
	if code := Main(context.Background(), env, []string{"sql", "--endpoint", "http://h:1", "--token", "x", "-e", "SELECT 1"}); code == 0 {
		t.Error("--token on the command line was accepted")
	}
}

// A malformed --listen address says so, rather than asking for a token
// (which is what a non-loopback address without one gets).
func TestGatewayRejectsMalformedListenAddress(t *testing.T) {
	for _, c := range []struct{ addr, want string }{
		{"nonsense", `invalid listen address "nonsense": missing port in address`},
		{"127.0.0.1", `invalid listen address "127.0.0.1": missing port in address`},
		{"localhost:http2", `invalid listen address "localhost:http2": the port must be a number`},
		{"127.0.0.1:99999", `invalid listen address "127.0.0.1:99999": the port must be a number`},
	} {
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: noEnv}
		code := Main(context.Background(), env, []string{"gateway", "--listen", c.addr})
		if code == 0 || !strings.Contains(errb.String(), c.want) || strings.Contains(errb.String(), "token") {
			t.Errorf("%s: code %d, stderr %q", c.addr, code, errb.String())
		}
		if strings.Contains(out.String(), "listening") {
			t.Errorf("%s: it listened: %q", c.addr, out.String())
		}
	}
}

// Invalid gateway options are refused, not taken as a default
// (-D sql-gateway.session.max-num=-5 used to mean 1,000,000).
func TestGatewayRefusesInvalidOptions(t *testing.T) {
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	for _, c := range []struct{ define, want string }{
		{"sql-gateway.session.max-num=-5", "at least 1"},
		{"sql-gateway.session.max-num=0", "at least 1"},
		{"sql-gateway.session.max-num=x", "invalid syntax"},
		{"sql-gateway.session.idle-timeout=soon", "sql-gateway.session.idle-timeout"},
	} {
		var out, errb bytes.Buffer
		env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: noEnv}
		code := Main(context.Background(), env, []string{"gateway", "--listen", "127.0.0.1:0", "-D", c.define})
		if code == 0 || !strings.Contains(errb.String(), c.want) {
			t.Errorf("-D %s: code %d, stderr %q", c.define, code, errb.String())
		}
		if strings.Contains(out.String(), "listening") {
			t.Errorf("-D %s: it listened", c.define)
		}
	}
}
