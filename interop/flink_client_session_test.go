//go:build interop

package interop

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/engine/testwait"
)

// fcPrivateGateway starts a second Flink SQL Gateway of its own (the
// running cluster's configuration, another port on 127.0.0.1, and the
// given gateway options, e.g. a short session idle timeout), waits until it
// answers and stops it by PID when the test ends. It returns its URL.
func fcPrivateGateway(t testing.TB, f Flink, opts map[string]string) string {
	t.Helper()
	if f.ConfDir == "" || f.Home == "" {
		t.Fatal("FLINK_CONF_DIR and FLINK_HOME are needed to start a gateway")
	}
	base, err := os.ReadFile(filepath.Join(f.ConfDir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	var conf bytes.Buffer
	for _, line := range strings.Split(string(base), "\n") {
		key, _, _ := strings.Cut(line, ":")
		if _, over := opts[strings.TrimSpace(key)]; over || strings.HasPrefix(key, "sql-gateway.endpoint.rest.port") {
			continue
		}
		conf.WriteString(line + "\n")
	}
	fmt.Fprintf(&conf, "sql-gateway.endpoint.rest.port: %d\n", port)
	for k, v := range opts {
		fmt.Fprintf(&conf, "%s: %s\n", k, v)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), conf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	logFile := filepath.Join(dir, "sql-gateway.log")
	cmd := exec.Command("java", "-Xmx384m", "-Dlog.file="+logFile,
		"-Dlog4j.configurationFile=file:"+filepath.Join(f.ConfDir, "log4j.properties"),
		"-cp", filepath.Join(f.Home, "lib")+"/*", "org.apache.flink.table.gateway.SqlGateway", "--configDir", dir)
	cmd.Env = append(os.Environ(), "FLINK_CONF_DIR="+dir)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = syscall.Kill(cmd.Process.Pid, syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(20 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})
	endpoint := fmt.Sprintf("http://127.0.0.1:%d", port)
	gone := false
	if !testwait.Poll(2*time.Minute, func() bool {
		select {
		case <-exited:
			gone = true
			return true
		default:
		}
		if resp, err := http.Get(endpoint + "/v1/info"); err == nil {
			resp.Body.Close()
			return resp.StatusCode == http.StatusOK
		}
		return false
	}) {
		t.Fatalf("the private SQL Gateway did not answer within 2 minutes: %s", out.String())
	}
	if gone {
		logText, _ := os.ReadFile(logFile)
		t.Fatalf("the private SQL Gateway exited: %s\n%s", out.String(), fcTail(string(logText), 2000))
	}
	return endpoint
}

func fcTail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// TestFlinkClientSessionExpiry runs on a gateway of its own whose sessions
// expire after 3 s without a request: a RemoteEngine that heart-beats
// every 500 ms keeps its session across many idle periods, one that does
// not heart-beat loses it, and its next statement fails at once with an
// error saying so (gateway.SessionLost), not a hang.
func TestFlinkClientSessionExpiry(t *testing.T) {
	f := fcRequire(t)
	endpoint := fcPrivateGateway(t, f, map[string]string{
		"sql-gateway.session.idle-timeout":   "3 s",
		"sql-gateway.session.check-interval": "500 ms",
	})
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	connect := func(hb time.Duration) *gateway.RemoteEngine {
		e, err := gateway.Connect(ctx, endpoint, gateway.RemoteOptions{Properties: fcBatchProps(), Heartbeat: hb, ClusterREST: f.REST})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = e.Close() })
		return e
	}
	alive := connect(500 * time.Millisecond)
	idle := connect(-1)
	fcMustEqual(t, "first query", fcRowsOf(t, ctx, idle, "SELECT 1"), []string{"+I[1]"})
	handle := idle.SessionHandle()

	// wait until the gateway has dropped the idle session. Asking for the
	// session's configuration would keep it alive, so it is asked only
	// every 4 s, more than the idle timeout plus the check interval.
	probe, err := gateway.NewClient(endpoint, gateway.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	tick := time.NewTicker(4 * time.Second)
	defer tick.Stop()
	for expired := false; !expired; {
		select {
		case <-tick.C:
		case <-ctx.Done():
			t.Fatal("the idle session did not expire")
		}
		_, err := probe.GetSessionConfig(ctx, handle)
		expired = gateway.SessionLost(err)
		if err != nil && !expired {
			t.Fatal(err)
		}
	}
	// the heart-beating session has been idle as long (at least 4 s, more
	// than the idle timeout), and stays idle until three timeouts passed
	if d := 9*time.Second - time.Since(start); d > 0 {
		<-time.After(d)
	}
	fcMustEqual(t, "query on the kept session", fcRowsOf(t, ctx, alive, "SELECT 2"), []string{"+I[2]"})

	// the expired session: a clear error, fast
	sctx, scancel := context.WithTimeout(ctx, 30*time.Second)
	defer scancel()
	_, err = idle.ExecuteStatement(sctx, "SELECT 3", fcZeroPos)
	if err == nil || sctx.Err() != nil {
		t.Fatalf("statement on the expired session: %v (ctx %v)", err, sctx.Err())
	}
	if !gateway.SessionLost(err) || !strings.Contains(err.Error(), handle) {
		t.Errorf("error %q: want one saying that session %s does not exist", err, handle)
	}
	// closing it is no error: it is gone already
	if err := idle.Close(); err != nil {
		t.Errorf("Close of the expired session: %v", err)
	}
}

// TestFlinkClientSessionClosed: a session closed on the server while a
// streaming query's rows are being read ends the read with an error, and
// later statements fail with Flink's "does not exist", not a hang.
func TestFlinkClientSessionClosed(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e := fcConnectFlink(t, f, fcStreamingProps())
	fcExec(t, ctx, e, "CREATE TABLE endless (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '20')")
	res := fcExec(t, ctx, e, "SELECT id FROM endless")
	job := res.JobID()
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if !it.Next() {
		t.Fatalf("no first row: %v", it.Err())
	}
	// another client closes the session (as expiry would)
	other, err := gateway.NewClient(f.Gateway, gateway.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := other.CloseSession(ctx, e.SessionHandle()); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		for it.Next() {
		}
		done <- it.Err()
	}()
	select {
	case err := <-done:
		if err == nil || !gateway.SessionLost(err) {
			t.Errorf("reading after the session was closed ended with %v, want the session lost", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("reading the rows hangs after the session was closed")
	}
	if _, err := e.ExecuteStatement(ctx, "SELECT 1", fcZeroPos); !gateway.SessionLost(err) {
		t.Errorf("statement after the session was closed: %v, want the session lost", err)
	}
	// closing the session cancelled the query's job
	fcWaitUntil(t, time.Minute, func() bool { return fcClusterJobState(t, f, job) == "CANCELED" },
		func() string { return "job " + job + " is " + fcClusterJobState(t, f, job) })
}

// fcVersionProxy forwards to the Flink gateway and answers GET
// /api_versions (any prefix) with the given versions instead; it records
// the paths it forwarded.
type fcVersionProxy struct {
	srv   *httptest.Server
	mu    sync.Mutex
	paths []string
}

func fcNewVersionProxy(t testing.TB, target string, versions []string) *fcVersionProxy {
	t.Helper()
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	p := &fcVersionProxy{}
	rp := httputil.NewSingleHostReverseProxy(u)
	p.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.paths = append(p.paths, r.Method+" "+r.URL.Path)
		p.mu.Unlock()
		if strings.HasSuffix(r.URL.Path, "/api_versions") {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"versions":["%s"]}`, strings.Join(versions, `","`))
			return
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *fcVersionProxy) seen() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.paths...)
}

// TestFlinkClientVersionNegotiation: the client speaks the highest REST API
// version both it (V1..V4) and the gateway know, as Flink's own SQL Client
// picks the latest version the gateway lists; versions it does not know
// are ignored, and a gateway offering only V1 (no rowFormat, no
// configure-session) or nothing in common is refused with a clear error.
func TestFlinkClientVersionNegotiation(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	// the real gateway offers V1..V4: V4
	c, err := gateway.NewClient(f.Gateway, gateway.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := c.APIVersions(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(vs, ",") != "V1,V2,V3,V4" {
		t.Errorf("Flink 2.3.0 offers %v, want V1..V4", vs)
	}
	if v, err := c.Negotiate(ctx); err != nil || v != gateway.V4 {
		t.Fatalf("Negotiate = %v, %v; want V4", v, err)
	}

	cases := []struct {
		offer   []string
		want    gateway.APIVersion
		wantErr string
	}{
		{[]string{"V1", "V2", "V3", "V4"}, gateway.V4, ""},
		{[]string{"V1", "V2"}, gateway.V2, ""},
		{[]string{"V2", "V3", "V9"}, gateway.V3, ""},
		{[]string{"V1"}, 0, "speaks only REST API V1"},
		{[]string{"V7", "V8"}, 0, "no common API version"},
	}
	for _, tc := range cases {
		p := fcNewVersionProxy(t, f.Gateway, tc.offer)
		e, err := gateway.Connect(ctx, p.srv.URL, gateway.RemoteOptions{Properties: fcBatchProps()})
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
				t.Errorf("offer %v: Connect error %v, want %q", tc.offer, err, tc.wantErr)
			}
			if e != nil {
				e.Close()
			}
			continue
		}
		if err != nil {
			t.Errorf("offer %v: %v", tc.offer, err)
			continue
		}
		if got := e.Client().Version(); got != tc.want {
			t.Errorf("offer %v: speaks %v, want %v", tc.offer, got, tc.want)
		}
		got := fcRowsOf(t, ctx, e, "SELECT 40 + 2")
		e.Close()
		fcMustEqual(t, fmt.Sprintf("offer %v", tc.offer), got, []string{"+I[42]"})
		prefix := "/" + tc.want.Prefix() + "/sessions"
		n := 0
		for _, path := range p.seen() {
			if strings.Contains(path, "/sessions") {
				n++
				if !strings.Contains(path, prefix) {
					t.Errorf("offer %v: request %s does not use %s", tc.offer, path, prefix)
				}
			}
		}
		if n < 3 {
			t.Errorf("offer %v: only %d session requests seen: %v", tc.offer, n, p.seen())
		}
	}
}

// TestFlinkClientNotAGateway: pointing the client at the cluster's REST
// API instead of its SQL Gateway says so.
func TestFlinkClientNotAGateway(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := gateway.Connect(ctx, f.REST, gateway.RemoteOptions{})
	if err == nil || !strings.Contains(err.Error(), "is not a SQL Gateway") || !strings.Contains(err.Error(), "sql-gateway.endpoint.rest.port") {
		t.Errorf("Connect to the cluster's REST API: %v", err)
	}
}

// TestFlinkClientHeartbeat: heartbeats reach Flink's gateway at the
// configured interval and Flink accepts them.
func TestFlinkClientHeartbeat(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	u, _ := url.Parse(f.Gateway)
	rp := httputil.NewSingleHostReverseProxy(u)
	var mu sync.Mutex
	accepted := 0
	var bad []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasSuffix(r.URL.Path, "/heartbeat") {
			rp.ServeHTTP(w, r)
			return
		}
		rec := httptest.NewRecorder()
		rp.ServeHTTP(rec, r)
		mu.Lock()
		switch {
		case rec.Code == http.StatusOK:
			accepted++
		case r.Context().Err() != nil:
			// the client gave up on this heartbeat (its timeout is the
			// 100 ms interval, which Flink on a loaded machine can
			// miss) and the proxy answered 502: Flink refused nothing
		default:
			bad = append(bad, fmt.Sprint(rec.Code, " ", rec.Body.String()))
		}
		mu.Unlock()
		for k, v := range rec.Header() {
			w.Header()[k] = v
		}
		w.WriteHeader(rec.Code)
		_, _ = io.Copy(w, rec.Body)
	}))
	defer srv.Close()
	e, err := gateway.Connect(ctx, srv.URL, gateway.RemoteOptions{Heartbeat: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	fcWaitUntil(t, 30*time.Second, func() bool {
		mu.Lock()
		defer mu.Unlock()
		return accepted >= 5 || len(bad) > 0
	}, func() string { return "fewer than 5 heartbeats arrived" })
	mu.Lock()
	defer mu.Unlock()
	if len(bad) > 0 {
		t.Fatalf("Flink refused heartbeats: %v", bad)
	}
}
