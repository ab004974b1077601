package gateway

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestClientEveryEndpoint calls every endpoint through Client, on an
// in-process server and over a loopback listener.
func TestClientEveryEndpoint(t *testing.T) {
	srv := NewServer(Config{PrintOutput: io.Discard, Version: "1.2.3"})
	defer srv.Close()
	inproc := httptest.NewServer(srv)
	defer inproc.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: srv}
	go hs.Serve(ln)
	defer hs.Close()

	for name, url := range map[string]string{"in-process": inproc.URL, "loopback": "http://" + ln.Addr().String()} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			hc := &http.Client{Transport: &http.Transport{}}
			defer hc.CloseIdleConnections()
			c, err := NewClient(url, ClientOptions{HTTPClient: hc})
			if err != nil {
				t.Fatal(err)
			}
			if v, err := c.Negotiate(ctx); err != nil || v != V2 || c.Version() != V2 {
				t.Fatalf("negotiated %v %v", v, err)
			}
			if info, err := c.Info(ctx); err != nil || info.ProductName != "Riffle" || info.Version != "1.2.3" {
				t.Errorf("info %+v %v", info, err)
			}
			s, err := c.OpenSession(ctx, OpenSessionRequest{SessionName: "n", Properties: map[string]string{"execution.runtime-mode": "batch", "a.b": "c"}})
			if err != nil || !specUUID.MatchString(s) {
				t.Fatalf("open %q %v", s, err)
			}
			conf, err := c.GetSessionConfig(ctx, s)
			if err != nil || conf["a.b"] != "c" || conf["execution.runtime-mode"] != "batch" {
				t.Errorf("config %v %v", conf, err)
			}
			if err := c.ConfigureSession(ctx, s, "CREATE TABLE gen (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3')", time.Minute); err != nil {
				t.Fatal(err)
			}
			if err := c.Heartbeat(ctx, s); err != nil {
				t.Error(err)
			}
			cands, err := c.CompleteStatement(ctx, s, "SELECT * FROM ge", 16)
			if err != nil || len(cands) != 1 || cands[0] != "gen" {
				t.Errorf("candidates %v %v", cands, err)
			}
			op, err := c.ExecuteStatement(ctx, s, ExecuteStatementRequest{Statement: "SELECT COUNT(*) AS n FROM gen"})
			if err != nil {
				t.Fatal(err)
			}
			var fr *FetchResults
			for fr == nil || fr.ResultType == ResultNotReady {
				if fr, err = c.FetchResults(ctx, s, op, 0, RowFormatJSON); err != nil {
					t.Fatal(err)
				}
			}
			if !fr.IsQueryResult || fr.ResultKind != ResultKindSuccessWithContent || len(fr.Columns) != 1 || fr.Columns[0].Name != "n" ||
				fr.Columns[0].Comment != nil || fr.RowFormat != RowFormatJSON || !specJobID.MatchString(fr.JobID) {
				t.Errorf("first page %+v", fr)
			}
			total := int64(0)
			for page := fr; ; {
				for _, r := range page.Rows {
					total += r.Values[0].(int64)
				}
				if page.ResultType == ResultEOS {
					break
				}
				if page, err = c.FetchURI(ctx, page.NextResultURI); err != nil {
					t.Fatal(err)
				}
			}
			if total != 3 {
				t.Errorf("COUNT(*) = %d", total)
			}
			if st, err := c.OperationStatus(ctx, s, op); err != nil || st != StatusFinished {
				t.Errorf("status %v %v", st, err)
			}
			if _, err := c.CancelOperation(ctx, s, op); err == nil {
				t.Error("a FINISHED operation was cancelled")
			}
			if st, err := c.CloseOperation(ctx, s, op); err != nil || st != StatusClosed {
				t.Errorf("close operation %v %v", st, err)
			}
			op2, _ := c.ExecuteStatement(ctx, s, ExecuteStatementRequest{Statement: "SELECT 1"})
			if st, err := c.CancelOperation(ctx, s, op2); err == nil && st != StatusCanceled {
				t.Errorf("cancel %v", st)
			}
			if err := c.CloseSession(ctx, s); err != nil {
				t.Fatal(err)
			}
			var ge *Error
			if err := c.Heartbeat(ctx, s); !errors.As(err, &ge) || ge.StatusCode != 500 {
				t.Errorf("heartbeat of a closed session: %v", err)
			}
		})
	}
	if n := srv.SessionCount(); n != 0 {
		t.Errorf("%d sessions open", n)
	}
}

func TestNewClientEndpoints(t *testing.T) {
	for in, want := range map[string]string{
		"localhost:8083":               "http://localhost:8083/v2/sessions",
		"http://h:1/":                  "http://h:1/v2/sessions",
		"https://proxy/flink/gateway/": "https://proxy/flink/gateway/v2/sessions",
	} {
		c, err := NewClient(in, ClientOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := c.url("/sessions"); got != want {
			t.Errorf("%s: %s, want %s", in, got, want)
		}
		if got := c.url("/v1/sessions/x/result/1?rowFormat=JSON"); got != want[:len(want)-len("/v2/sessions")]+"/v1/sessions/x/result/1?rowFormat=JSON" {
			t.Errorf("%s: next uri %s", in, got)
		}
	}
	if _, err := NewClient("ftp://h", ClientOptions{}); err == nil {
		t.Error("ftp accepted")
	}
}

// TestClientRetriesDroppedFetch drops the connection of fetches once the
// server has answered them; the client fetches the same token again and
// every row arrives once.
func TestClientRetriesDroppedFetch(t *testing.T) {
	srv := NewServer(Config{PrintOutput: io.Discard, PageRows: 10})
	defer srv.Close()
	var mu sync.Mutex
	dropped := map[string]bool{}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		drop := strings.Contains(r.URL.Path, "/result/") && !strings.HasSuffix(r.URL.Path, "/result/0") && !dropped[r.URL.Path]
		dropped[r.URL.Path] = true
		mu.Unlock()
		if drop {
			// the server serves the page, the answer is lost on the way
			srv.ServeHTTP(httptest.NewRecorder(), r)
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
			return
		}
		srv.ServeHTTP(w, r)
	}))
	defer hs.Close()
	hc := &http.Client{Transport: &http.Transport{}}
	defer hc.CloseIdleConnections()
	e, err := Connect(context.Background(), hs.URL, RemoteOptions{HTTPClient: hc, Properties: batchMode})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	res, err := e.ExecuteSQL("SELECT * FROM (VALUES " + strings.Repeat("(1),", 99) + "(1)) AS t(a)")
	if err != nil {
		t.Fatal(err)
	}
	it, _ := res.CollectRows()
	n := 0
	for it.Next() {
		n++
	}
	if it.Err() != nil || n != 100 {
		t.Errorf("%d rows, %v", n, it.Err())
	}
	mu.Lock()
	if len(dropped) < 5 {
		t.Errorf("only %d fetches went through the dropping proxy", len(dropped))
	}
	mu.Unlock()
}
