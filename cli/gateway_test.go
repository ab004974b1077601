package cli

import (
	"bytes"
	"context"
	"io"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

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

func TestGatewayRefusesNonLoopbackWithoutToken(t *testing.T) {
	var out, errb bytes.Buffer
	env := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: noEnv}
	code := Main(context.Background(), env, []string{"gateway", "--listen", "0.0.0.0:0"})
	if code == 0 || !strings.Contains(errb.String(), "requires a bearer token") {
		t.Fatalf("code %d, stderr %q", code, errb.String())
	}
	if strings.Contains(out.String(), "listening") {
		t.Errorf("it listened: %q", out.String())
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

// TestGatewayServesSQLEndpoint starts `riffle gateway` with a token and
// runs `riffle sql --endpoint` against it, with the token from the
// environment, then with a wrong token.
func TestGatewayServesSQLEndpoint(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var gwOut, gwErr syncBuffer
	getenv := func(k string) string {
		if k == TokenEnv {
			return "s3cret"
		}
		return ""
	}
	gw := Env{Stdin: strings.NewReader(""), Stdout: &gwOut, Stderr: &gwErr, Getenv: getenv}
	done := make(chan int, 1)
	go func() {
		done <- Main(ctx, gw, []string{"gateway", "--listen", "127.0.0.1:0", "-D", "execution.runtime-mode=batch"})
	}()
	var url string
	deadline := time.Now().Add(10 * time.Second)
	for url == "" && time.Now().Before(deadline) {
		if m := listenRe.FindStringSubmatch(gwOut.String()); m != nil {
			url = m[1]
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if url == "" {
		t.Fatalf("gateway did not start: %q %q", gwOut.String(), gwErr.String())
	}

	var out, errb bytes.Buffer
	client := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: getenv}
	code := Main(ctx, client, []string{"sql", "--endpoint", url, "-e", "SELECT 40 + 2 AS answer"})
	// without --mode the gateway's -D default (batch) applies
	want := "+--------+\n| answer |\n+--------+\n|     42 |\n+--------+\n1 row in set\n"
	if code != 0 || out.String() != want {
		t.Fatalf("code %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}

	out.Reset()
	errb.Reset()
	code = Main(ctx, client, []string{"sql", "--endpoint", url, "--token", "wrong", "-e", "SELECT 1"})
	if code == 0 || !strings.Contains(errb.String(), "Unauthorized") || out.Len() != 0 {
		t.Fatalf("wrong token: code %d, stdout %q, stderr %q", code, out.String(), errb.String())
	}

	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("gateway exit status %d, stderr %q", code, gwErr.String())
		}
	case <-time.After(20 * time.Second):
		t.Fatal("gateway did not stop")
	}
}

func TestSQLEndpointTokenFromEnvironment(t *testing.T) {
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
	if code := Main(context.Background(), env, []string{"sql", "--endpoint", "http://h:1", "--token", "flag", "-e", "SELECT 1"}); code != 0 || got.Token != "flag" {
		t.Errorf("code %d, token %q: the flag should win", code, got.Token)
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
