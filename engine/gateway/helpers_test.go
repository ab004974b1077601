package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/testwait"
)

// testGateway is a Server behind an httptest server.
type testGateway struct {
	srv *Server
	hs  *httptest.Server
	url string
	hc  *http.Client
}

func newTestGateway(t *testing.T, cfg Config) *testGateway {
	t.Helper()
	if cfg.PrintOutput == nil {
		cfg.PrintOutput = io.Discard
	}
	srv := NewServer(cfg)
	hs := httptest.NewServer(srv)
	g := &testGateway{srv: srv, hs: hs, url: hs.URL, hc: &http.Client{Transport: &http.Transport{}, Timeout: time.Minute}}
	t.Cleanup(func() {
		g.hc.CloseIdleConnections()
		hs.Close()
		srv.Close()
	})
	return g
}

// call sends a request with an optional JSON body and returns the status
// and the raw answer.
func (g *testGateway) call(t *testing.T, method, path string, body any, header ...string) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		switch b := body.(type) {
		case string:
			rd = strings.NewReader(b)
		default:
			raw, err := json.Marshal(body)
			if err != nil {
				t.Fatal(err)
			}
			rd = bytes.NewReader(raw)
		}
	}
	req, err := http.NewRequest(method, g.url+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := g.hc.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, raw
}

// callJSON is call decoding a JSON object answer.
func (g *testGateway) callJSON(t *testing.T, method, path string, body any) (int, map[string]any) {
	t.Helper()
	status, raw := g.call(t, method, path, body)
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("%s %s: answer %q is not a JSON object: %v", method, path, raw, err)
	}
	return status, m
}

// mustOK is callJSON failing the test unless the status is 200.
func (g *testGateway) mustOK(t *testing.T, method, path string, body any) map[string]any {
	t.Helper()
	status, m := g.callJSON(t, method, path, body)
	if status != http.StatusOK {
		t.Fatalf("%s %s: status %d, body %v", method, path, status, m)
	}
	return m
}

func (g *testGateway) openSession(t *testing.T, props map[string]string) string {
	t.Helper()
	m := g.mustOK(t, "POST", "/v2/sessions", map[string]any{"sessionName": "test", "properties": props})
	return m["sessionHandle"].(string)
}

func (g *testGateway) execute(t *testing.T, session, statement string) string {
	t.Helper()
	m := g.mustOK(t, "POST", "/v2/sessions/"+session+"/statements", map[string]any{"statement": statement})
	return m["operationHandle"].(string)
}

// fetchUntilReady fetches token 0 until the answer is not NOT_READY.
func (g *testGateway) fetchUntilReady(t *testing.T, session, op string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		m := g.mustOK(t, "GET", "/v2/sessions/"+session+"/operations/"+op+"/result/0?rowFormat=JSON", nil)
		if m["resultType"] != "NOT_READY" {
			return m
		}
	}
	t.Fatalf("operation %s stayed NOT_READY", op)
	return nil
}

// connect opens a RemoteEngine on the test gateway.
func (g *testGateway) connect(t *testing.T, props map[string]string) *RemoteEngine {
	t.Helper()
	e, err := Connect(context.Background(), g.url, RemoteOptions{Properties: props, HTTPClient: g.hc, PollMin: time.Millisecond, PollMax: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

// waitFor reports whether cond held within d (testwait.Poll).
func waitFor(d time.Duration, cond func() bool) bool {
	return testwait.Poll(d, cond)
}

var batchMode = map[string]string{"execution.runtime-mode": "batch"}
