package gateway

import (
	"strings"
	"testing"
	"time"
)

// statusOf reads an operation's status.
func (g *testGateway) statusOf(t *testing.T, s, op string) string {
	t.Helper()
	_, m := g.callJSON(t, "GET", "/v2/sessions/"+s+"/operations/"+op+"/status", nil)
	s2, _ := m["status"].(string)
	return s2
}

// refusedWith waits for op to end in ERROR and checks its fetch names
// every part of want.
func (g *testGateway) refusedWith(t *testing.T, s, op string, want ...string) {
	t.Helper()
	if !waitFor(20*time.Second, func() bool { return g.statusOf(t, s, op) == "ERROR" }) {
		t.Fatalf("query over the limit: status %s, want ERROR", g.statusOf(t, s, op))
	}
	status, raw := g.call(t, "GET", "/v2/sessions/"+s+"/operations/"+op+"/result/0?rowFormat=JSON", nil)
	for _, w := range want {
		if status != 500 || !strings.Contains(string(raw), w) {
			t.Errorf("fetch of the refused query: %d %s\nwant %q", status, raw, w)
		}
	}
}

// runningJobs counts a session's jobs that have not ended.
func runningJobs(t *testing.T, g *testGateway, s string) int {
	t.Helper()
	ss, err := g.srv.session(s)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, j := range ss.env.Jobs() {
		if !j.Status().IsTerminal() {
			n++
		}
	}
	return n
}

// A session holds at most sql-gateway.session.max-open-queries open
// queries: one more ends in ERROR naming the limit and the option (its job
// cancelled at once), statements without a query still run, and closing a
// query's operation, or fetching a query to the end, makes room again.
func TestOpenQueriesPerSession(t *testing.T) {
	g := newTestGateway(t, Config{MaxSessionQueries: 2})
	s := g.openSession(t, nil)
	g.fetchUntilReady(t, s, g.execute(t, s, "CREATE TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')"))
	q1 := g.execute(t, s, "SELECT a FROM gen")
	g.fetchUntilReady(t, s, q1)
	q2 := g.execute(t, s, "SELECT a FROM gen")
	g.fetchUntilReady(t, s, q2)

	q3 := g.execute(t, s, "SELECT a FROM gen")
	g.refusedWith(t, s, q3, "this session already has 2 open queries",
		"sql-gateway.session.max-open-queries (2)", "-D sql-gateway.session.max-open-queries=")
	if !waitFor(20*time.Second, func() bool { return runningJobs(t, g, s) == 2 }) {
		t.Errorf("%d jobs running, want the 2 admitted queries' only", runningJobs(t, g, s))
	}
	if m := g.fetchUntilReady(t, s, g.execute(t, s, "SHOW TABLES")); m["resultType"] != "PAYLOAD" {
		t.Errorf("SHOW TABLES at the limit: %v", m)
	}

	// closing one admits the next
	g.mustOK(t, "DELETE", "/v2/sessions/"+s+"/operations/"+q1+"/close", nil)
	q4 := g.execute(t, s, "SELECT a FROM gen")
	if m := g.fetchUntilReady(t, s, q4); m["resultType"] != "PAYLOAD" {
		t.Fatalf("query after a close: %v", m)
	}
	g.refusedWith(t, s, g.execute(t, s, "SELECT a FROM gen"), "sql-gateway.session.max-open-queries (2)")

	// a bounded query fetched to its end holds no place, even unclosed
	g.mustOK(t, "DELETE", "/v2/sessions/"+s+"/operations/"+q4+"/close", nil)
	b := g.execute(t, s, "SELECT 1")
	uri := "/v2/sessions/" + s + "/operations/" + b + "/result/0?rowFormat=JSON"
	if !waitFor(20*time.Second, func() bool {
		m := g.mustOK(t, "GET", uri, nil)
		if next, ok := m["nextResultUri"].(string); ok {
			uri = next
		}
		return m["resultType"] == "EOS"
	}) {
		t.Fatal("SELECT 1 never reached EOS")
	}
	if m := g.fetchUntilReady(t, s, g.execute(t, s, "SELECT a FROM gen")); m["resultType"] != "PAYLOAD" {
		t.Errorf("query after another was fetched to its end: %v", m)
	}
}

// All sessions together hold at most sql-gateway.max-open-queries open
// queries; closing a session gives its queries' places back.
func TestOpenQueriesTotal(t *testing.T) {
	g := newTestGateway(t, Config{MaxQueries: 2})
	var sessions []string
	for i := 0; i < 2; i++ {
		s := g.openSession(t, nil)
		g.fetchUntilReady(t, s, g.execute(t, s, "CREATE TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')"))
		g.fetchUntilReady(t, s, g.execute(t, s, "SELECT a FROM gen"))
		sessions = append(sessions, s)
	}
	s3 := g.openSession(t, nil)
	g.fetchUntilReady(t, s3, g.execute(t, s3, "CREATE TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')"))
	g.refusedWith(t, s3, g.execute(t, s3, "SELECT a FROM gen"), "the gateway already has 2 open queries over all sessions",
		"sql-gateway.max-open-queries (2)", "-D sql-gateway.max-open-queries=")
	g.mustOK(t, "DELETE", "/v2/sessions/"+sessions[0], nil)
	if m := g.fetchUntilReady(t, s3, g.execute(t, s3, "SELECT a FROM gen")); m["resultType"] != "PAYLOAD" {
		t.Errorf("query after a session closed: %v", m)
	}
}
