package gateway

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

func TestAPIVersionsAndInfoOnEveryPrefix(t *testing.T) {
	g := newTestGateway(t, Config{ProductName: "Riffle", Version: "9.9"})
	for _, p := range []string{"", "/v1", "/v2", "/v3", "/v4"} {
		m := g.mustOK(t, "GET", p+"/api_versions", nil)
		if fmt.Sprint(m["versions"]) != "[V1 V2]" {
			t.Errorf("%s/api_versions: %v", p, m)
		}
		m = g.mustOK(t, "GET", p+"/info", nil)
		if m["productName"] != "Riffle" || m["version"] != "9.9" {
			t.Errorf("%s/info: %v", p, m)
		}
	}
}

func TestUnversionedPathsAreV2(t *testing.T) {
	g := newTestGateway(t, Config{})
	m := g.mustOK(t, "POST", "/sessions", nil) // no body at all is {}
	s := m["sessionHandle"].(string)
	op := g.mustOK(t, "POST", "/sessions/"+s+"/statements", map[string]string{"statement": "SELECT 'x' AS c"})["operationHandle"].(string)
	// rowFormat is required in v2, so in unversioned paths too
	status, raw := g.call(t, "GET", "/sessions/"+s+"/operations/"+op+"/result/0", nil)
	if status != http.StatusBadRequest || !strings.Contains(string(raw), "rowFormat") {
		t.Errorf("missing rowFormat: %d %s", status, raw)
	}
	var fr map[string]any
	waitFor(10*time.Second, func() bool {
		fr = g.mustOK(t, "GET", "/sessions/"+s+"/operations/"+op+"/result/0?rowFormat=PLAIN_TEXT", nil)
		return fr["resultType"] != "NOT_READY"
	})
	if uri := fr["nextResultUri"].(string); !strings.HasPrefix(uri, "/v2/") || !strings.HasSuffix(uri, "/result/1?rowFormat=PLAIN_TEXT") {
		t.Errorf("nextResultUri %q", uri)
	}
	// v3 and v4 paths serve the endpoints they share with v2
	for _, v := range []string{"v3", "v4"} {
		m := g.mustOK(t, "GET", "/"+v+"/sessions/"+s+"/operations/"+op+"/status", nil)
		if m["status"] != "FINISHED" {
			t.Errorf("%s status %v", v, m)
		}
	}
}

func TestV1FetchHasNoRowFormat(t *testing.T) {
	g := newTestGateway(t, Config{})
	s := g.mustOK(t, "POST", "/v1/sessions", map[string]any{"properties": batchMode})["sessionHandle"].(string)
	op := g.mustOK(t, "POST", "/v1/sessions/"+s+"/statements", map[string]string{"statement": "SELECT DATE '2024-02-29' AS d"})["operationHandle"].(string)
	var m map[string]any
	waitFor(10*time.Second, func() bool {
		m = g.mustOK(t, "GET", "/v1/sessions/"+s+"/operations/"+op+"/result/0", nil)
		return m["resultType"] != "NOT_READY"
	})
	if uri := m["nextResultUri"].(string); uri != "/v1/sessions/"+s+"/operations/"+op+"/result/1" {
		t.Errorf("v1 nextResultUri %q", uri)
	}
	res := m["results"].(map[string]any)
	if res["rowFormat"] != "JSON" || fmt.Sprint(res["data"]) != "[map[fields:[2024-02-29] kind:INSERT]]" {
		t.Errorf("v1 results %v", res)
	}
	// v1 has neither complete-statement nor configure-session
	for _, p := range []string{"/complete-statement", "/configure-session"} {
		method := "GET"
		if p == "/configure-session" {
			method = "POST"
		}
		if status, _ := g.call(t, method, "/v1/sessions/"+s+p, map[string]any{"statement": "SET 'a'='b'"}); status != http.StatusNotFound {
			t.Errorf("v1 %s: status %d", p, status)
		}
	}
}

func TestFetchPagingRetriesAndEOS(t *testing.T) {
	g := newTestGateway(t, Config{PageRows: 3})
	s := g.openSession(t, batchMode)
	op := g.execute(t, s, "SELECT * FROM (VALUES (1), (2), (3), (4), (5), (6), (7)) AS t(a)")
	first := g.fetchUntilReady(t, s, op)
	var got []string
	page := first
	for token := 0; ; token++ {
		if page["resultType"] == "EOS" {
			if _, ok := page["nextResultUri"]; ok {
				t.Errorf("EOS with nextResultUri: %v", page)
			}
			if page["isQueryResult"] != true || page["resultKind"] != "SUCCESS_WITH_CONTENT" {
				t.Errorf("EOS page %v", page)
			}
			break
		}
		if page["resultType"] != "PAYLOAD" {
			t.Fatalf("token %d: %v", token, page)
		}
		data := page["results"].(map[string]any)["data"].([]any)
		if len(data) > 3 {
			t.Errorf("page of %d rows, PageRows is 3", len(data))
		}
		for _, r := range data {
			got = append(got, fmt.Sprint(r.(map[string]any)["fields"]))
		}
		// a retried fetch of the same token returns the same page
		path := fmt.Sprintf("/v2/sessions/%s/operations/%s/result/%d?rowFormat=JSON", s, op, token)
		again := g.mustOK(t, "GET", path, nil)
		if fmt.Sprint(again) != fmt.Sprint(page) {
			t.Errorf("token %d again:\n%v\nfirst time:\n%v", token, again, page)
		}
		uri := page["nextResultUri"].(string)
		if want := fmt.Sprintf("/result/%d?rowFormat=JSON", token+1); !strings.HasSuffix(uri, want) {
			t.Fatalf("nextResultUri %q, want ...%s", uri, want)
		}
		page = g.mustOK(t, "GET", uri, nil)
	}
	if strings.Join(got, " ") != "[1] [2] [3] [4] [5] [6] [7]" {
		t.Errorf("rows %v", got)
	}
	// a token neither current nor the previous one is refused
	status, raw := g.call(t, "GET", fmt.Sprintf("/v2/sessions/%s/operations/%s/result/0?rowFormat=JSON", s, op), nil)
	if status != http.StatusInternalServerError || !strings.Contains(string(raw), "Expecting token to be") {
		t.Errorf("stale token: %d %s", status, raw)
	}
}

func TestNonQueryResults(t *testing.T) {
	g := newTestGateway(t, Config{})
	s := g.openSession(t, batchMode)
	m := g.fetchUntilReady(t, s, g.execute(t, s, "CREATE TABLE snk (a INT) WITH ('connector' = 'blackhole')"))
	res := m["results"].(map[string]any)
	if m["resultKind"] != "SUCCESS" || m["isQueryResult"] != false || m["jobID"] != nil ||
		fmt.Sprint(res["columns"]) != "[map[comment:<nil> logicalType:map[length:2.147483647e+09 nullable:true type:VARCHAR] name:result]]" ||
		fmt.Sprint(res["data"]) != "[map[fields:[OK] kind:INSERT]]" {
		t.Errorf("DDL answer %v", m)
	}
	// an INSERT answers with its job id (table.dml-sync off: at once)
	m = g.fetchUntilReady(t, s, g.execute(t, s, "INSERT INTO snk VALUES (1), (2)"))
	res = m["results"].(map[string]any)
	job, _ := m["jobID"].(string)
	if m["resultKind"] != "SUCCESS_WITH_CONTENT" || m["isQueryResult"] != false || !specJobID.MatchString(job) ||
		fmt.Sprint(res["data"]) != "[map[fields:["+job+"] kind:INSERT]]" ||
		res["columns"].([]any)[0].(map[string]any)["name"] != "job id" {
		t.Errorf("INSERT answer %v", m)
	}
}

func TestStatementSetInSession(t *testing.T) {
	g := newTestGateway(t, Config{})
	s := g.openSession(t, map[string]string{"execution.runtime-mode": "batch", "table.dml-sync": "true"})
	for _, st := range []string{"CREATE TABLE snk (a INT) WITH ('connector' = 'blackhole')", "BEGIN STATEMENT SET",
		"INSERT INTO snk VALUES (1)", "INSERT INTO snk VALUES (2)"} {
		m := g.fetchUntilReady(t, s, g.execute(t, s, st))
		if m["resultKind"] != "SUCCESS" {
			t.Errorf("%s: %v", st, m)
		}
	}
	// only INSERTs inside a set
	op := g.execute(t, s, "SELECT 1")
	waitFor(10*time.Second, func() bool {
		_, m := g.callJSON(t, "GET", "/v2/sessions/"+s+"/operations/"+op+"/status", nil)
		return m["status"] == "ERROR"
	})
	status, raw := g.call(t, "GET", "/v2/sessions/"+s+"/operations/"+op+"/result/0?rowFormat=JSON", nil)
	if status != 500 || !strings.Contains(string(raw), "Only 'INSERT/CREATE TABLE AS' statement is allowed in Statement Set") {
		t.Errorf("SELECT in a set: %d %s", status, raw)
	}
	m := g.fetchUntilReady(t, s, g.execute(t, s, "END"))
	if m["resultKind"] != "SUCCESS_WITH_CONTENT" || !specJobID.MatchString(fmt.Sprint(m["jobID"])) {
		t.Errorf("END: %v", m)
	}
	op = g.execute(t, s, "END")
	waitFor(10*time.Second, func() bool {
		_, m := g.callJSON(t, "GET", "/v2/sessions/"+s+"/operations/"+op+"/status", nil)
		return m["status"] == "ERROR"
	})
	status, raw = g.call(t, "GET", "/v2/sessions/"+s+"/operations/"+op+"/result/0?rowFormat=JSON", nil)
	if status != 500 || !strings.Contains(string(raw), "No Statement Set to submit") {
		t.Errorf("END without BEGIN: %d %s", status, raw)
	}
}

func TestOperationStatesCancelAndClose(t *testing.T) {
	g := newTestGateway(t, Config{})
	s := g.openSession(t, nil)
	g.fetchUntilReady(t, s, g.execute(t, s, "CREATE TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100')"))
	g.fetchUntilReady(t, s, g.execute(t, s, "CREATE TABLE snk (a BIGINT) WITH ('connector' = 'blackhole')"))
	g.fetchUntilReady(t, s, g.execute(t, s, "SET 'table.dml-sync' = 'true'"))
	// an unbounded INSERT with dml-sync stays RUNNING
	insert := g.execute(t, s, "INSERT INTO snk SELECT a FROM gen")
	statusOf := func(op string) string {
		_, m := g.callJSON(t, "GET", "/v2/sessions/"+s+"/operations/"+op+"/status", nil)
		return fmt.Sprint(m["status"])
	}
	if !waitFor(10*time.Second, func() bool { return statusOf(insert) == "RUNNING" }) {
		t.Fatalf("INSERT status %s", statusOf(insert))
	}
	// statements run in order: the next one waits
	next := g.execute(t, s, "SELECT 1")
	if st := statusOf(next); st != "PENDING" {
		t.Errorf("queued statement is %s, want PENDING", st)
	}
	fr := g.mustOK(t, "GET", "/v2/sessions/"+s+"/operations/"+insert+"/result/0?rowFormat=JSON", nil)
	if fr["resultType"] != "NOT_READY" || !strings.HasSuffix(fr["nextResultUri"].(string), "/result/0?rowFormat=JSON") || len(fr) != 2 {
		t.Errorf("fetch of a RUNNING operation: %v", fr)
	}
	c := g.mustOK(t, "POST", "/v2/sessions/"+s+"/operations/"+insert+"/cancel", nil)
	if c["status"] != "CANCELED" || statusOf(insert) != "CANCELED" {
		t.Errorf("cancel: %v, status %s", c, statusOf(insert))
	}
	// the INSERT's job was cancelled with it, and the queue moves on
	if !waitFor(10*time.Second, func() bool { return statusOf(next) == "FINISHED" }) {
		t.Errorf("queued statement did not run: %s", statusOf(next))
	}
	stopped := waitFor(10*time.Second, func() bool {
		jobs := g.fetchUntilReady(t, s, g.execute(t, s, "SHOW JOBS"))
		for _, r := range jobs["results"].(map[string]any)["data"].([]any) {
			f := r.(map[string]any)["fields"].([]any)
			if strings.HasPrefix(f[1].(string), "insert-into") && f[2] != "CANCELED" {
				return false
			}
		}
		return true
	})
	if !stopped {
		t.Error("the INSERT's job was not cancelled with its operation")
	}
	// a terminal operation cannot be cancelled again (Flink: 500)
	status, raw := g.call(t, "POST", "/v2/sessions/"+s+"/operations/"+insert+"/cancel", nil)
	if status != 500 || !strings.Contains(string(raw), "Failed to convert the Operation Status from CANCELED to CANCELED") {
		t.Errorf("second cancel: %d %s", status, raw)
	}
	fetchStatus, raw := g.call(t, "GET", "/v2/sessions/"+s+"/operations/"+insert+"/result/0?rowFormat=JSON", nil)
	if fetchStatus != 500 || !strings.Contains(string(raw), "in CANCELED status") {
		t.Errorf("fetch of a cancelled operation: %d %s", fetchStatus, raw)
	}
	// close removes it; closing again is fine; it is then unknown
	for i := 0; i < 2; i++ {
		c = g.mustOK(t, "DELETE", "/v2/sessions/"+s+"/operations/"+insert+"/close", nil)
		if c["status"] != "CLOSED" {
			t.Errorf("close: %v", c)
		}
	}
	status, raw = g.call(t, "GET", "/v2/sessions/"+s+"/operations/"+insert+"/status", nil)
	if status != 500 || !strings.Contains(string(raw), "Can not find the submitted operation") {
		t.Errorf("status of a closed operation: %d %s", status, raw)
	}
}

func TestCloseOperationCancelsQuery(t *testing.T) {
	g := newTestGateway(t, Config{})
	s := g.openSession(t, nil)
	g.fetchUntilReady(t, s, g.execute(t, s, "CREATE TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '50')"))
	op := g.execute(t, s, "SELECT a FROM gen")
	fr := g.fetchUntilReady(t, s, op)
	job := fr["jobID"].(string)
	g.mustOK(t, "DELETE", "/v2/sessions/"+s+"/operations/"+op+"/close", nil)
	ok := waitFor(10*time.Second, func() bool {
		m := g.fetchUntilReady(t, s, g.execute(t, s, "SHOW JOBS"))
		for _, r := range m["results"].(map[string]any)["data"].([]any) {
			f := r.(map[string]any)["fields"].([]any)
			if f[0] == job {
				return f[2] == "CANCELED"
			}
		}
		return false
	})
	if !ok {
		t.Error("the query's job was not cancelled by closing its operation")
	}
}

func TestExecutionTimeout(t *testing.T) {
	g := newTestGateway(t, Config{})
	s := g.openSession(t, map[string]string{"table.dml-sync": "true"})
	g.fetchUntilReady(t, s, g.execute(t, s, "CREATE TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '10')"))
	g.fetchUntilReady(t, s, g.execute(t, s, "CREATE TABLE snk (a BIGINT) WITH ('connector' = 'blackhole')"))
	op := g.mustOK(t, "POST", "/v2/sessions/"+s+"/statements", map[string]any{"statement": "INSERT INTO snk SELECT a FROM gen", "executionTimeout": 50})["operationHandle"].(string)
	ok := waitFor(10*time.Second, func() bool {
		m := g.mustOK(t, "GET", "/v2/sessions/"+s+"/operations/"+op+"/status", nil)
		return m["status"] == "TIMEOUT"
	})
	if !ok {
		t.Fatal("the operation did not time out")
	}
	// a query finishes executing at once: its timeout does not matter
	op = g.mustOK(t, "POST", "/v2/sessions/"+s+"/statements", map[string]any{"statement": "SELECT 1", "executionTimeout": 60000})["operationHandle"].(string)
	if m := g.fetchUntilReady(t, s, op); m["resultType"] != "PAYLOAD" {
		t.Errorf("query with a timeout: %v", m)
	}
}

func TestExecutionConfigIsPerStatement(t *testing.T) {
	g := newTestGateway(t, Config{})
	s := g.openSession(t, map[string]string{"execution.runtime-mode": "streaming"})
	op := g.mustOK(t, "POST", "/v2/sessions/"+s+"/statements", map[string]any{"statement": "SET",
		"executionConfig": map[string]string{"pipeline.name": "mine"}})["operationHandle"].(string)
	m := g.fetchUntilReady(t, s, op)
	if !strings.Contains(fmt.Sprint(m["results"]), "[pipeline.name mine]") {
		t.Errorf("executionConfig not applied: %v", m["results"])
	}
	props := g.mustOK(t, "GET", "/v2/sessions/"+s, nil)["properties"].(map[string]any)
	if _, ok := props["pipeline.name"]; ok {
		t.Errorf("executionConfig leaked into the session: %v", props)
	}
}

func TestConfigureSession(t *testing.T) {
	g := newTestGateway(t, Config{})
	s := g.openSession(t, nil)
	for _, st := range []string{"CREATE TABLE t (a INT) WITH ('connector' = 'datagen')", "SET 'table.local-time-zone' = 'Europe/Paris'", "CREATE DATABASE db2", "USE db2"} {
		if m := g.mustOK(t, "POST", "/v2/sessions/"+s+"/configure-session", map[string]any{"statement": st}); len(m) != 0 {
			t.Errorf("%s: %v", st, m)
		}
	}
	props := g.mustOK(t, "GET", "/v2/sessions/"+s, nil)["properties"].(map[string]any)
	if props["table.local-time-zone"] != "Europe/Paris" {
		t.Errorf("properties %v", props)
	}
	m := g.fetchUntilReady(t, s, g.execute(t, s, "SHOW CURRENT DATABASE"))
	if fmt.Sprint(m["results"].(map[string]any)["data"]) != "[map[fields:[db2] kind:INSERT]]" {
		t.Errorf("current database %v", m["results"])
	}
	for _, bad := range []string{"SELECT 1", "INSERT INTO t VALUES (1)", "SET 'a' = 'b'; SET 'c' = 'd'", "CREATE TABLE"} {
		status, raw := g.call(t, "POST", "/v2/sessions/"+s+"/configure-session", map[string]any{"statement": bad})
		if status != 500 || !strings.Contains(string(raw), "Internal server error.") {
			t.Errorf("%s: %d %s", bad, status, raw)
		}
	}
}

func TestCompleteStatementEndpoint(t *testing.T) {
	g := newTestGateway(t, Config{})
	s := g.openSession(t, nil)
	g.fetchUntilReady(t, s, g.execute(t, s, "CREATE TABLE orders (order_id INT, `order total` DOUBLE) WITH ('connector' = 'datagen')"))
	cases := []struct {
		stmt string
		pos  int
		want []string // must be among the candidates
		not  []string
	}{
		{"SEL", 3, []string{"SELECT"}, []string{"FROM"}},
		{"SELECT * FROM ord", 17, []string{"orders"}, []string{"ORDER"}},
		{"SELECT ord FROM orders", 10, []string{"order_id", "`order total`", "ORDER"}, nil},
		{"SELECT * FROM default_database.or", 33, []string{"orders"}, nil},
		{"SELECT UPP", 10, []string{"UPPER"}, nil},
		{"SELECT 'SEL", 11, nil, []string{"SELECT"}},
	}
	for _, c := range cases {
		m := g.mustOK(t, "GET", "/v2/sessions/"+s+"/complete-statement", map[string]any{"statement": c.stmt, "position": c.pos})
		raw, _ := json.Marshal(m["candidates"])
		var got []string
		_ = json.Unmarshal(raw, &got)
		for _, w := range c.want {
			if !contains(got, w) {
				t.Errorf("%q @%d: %q not in %v", c.stmt, c.pos, w, got)
			}
		}
		for _, w := range c.not {
			if contains(got, w) {
				t.Errorf("%q @%d: %q should not be offered: %v", c.stmt, c.pos, w, got)
			}
		}
	}
}

func TestErrors(t *testing.T) {
	g := newTestGateway(t, Config{})
	s := g.openSession(t, nil)
	cases := []struct {
		method, path string
		body         any
		status       int
		text         string
	}{
		{"GET", "/v2/nowhere", nil, 404, "Not found: /v2/nowhere"},
		{"PUT", "/v2/sessions", nil, 404, "Not found: /v2/sessions"},
		{"POST", "/v2/sessions", "{not json", 400, "Request did not match expected format OpenSessionRequestBody."},
		{"POST", "/v2/sessions/" + s + "/statements", `{"statement": 3}`, 400, "ExecuteStatementRequestBody"},
		{"GET", "/v2/sessions/not-a-uuid", nil, 400, `Cannot resolve path parameter (session_handle) from value "not-a-uuid"`},
		{"GET", "/v2/sessions/" + newUUID(), nil, 500, "does not exist."},
		{"GET", "/v2/sessions/" + s + "/operations/" + newUUID() + "/status", nil, 500, "Can not find the submitted operation"},
		{"GET", "/v2/sessions/" + s + "/operations/" + newUUID() + "/result/x?rowFormat=JSON", nil, 500, "Can not find"},
		{"POST", "/v2/sessions", map[string]any{"properties": map[string]string{"execution.runtime-mode": "fast"}}, 500, "Could not parse value 'fast'"},
	}
	for _, c := range cases {
		status, raw := g.call(t, c.method, c.path, c.body)
		var er ErrorResponse
		if err := json.Unmarshal(raw, &er); err != nil || len(er.Errors) == 0 {
			t.Errorf("%s %s: body %q is not {\"errors\": [...]}", c.method, c.path, raw)
			continue
		}
		if status != c.status || !strings.Contains(strings.Join(er.Errors, "\n"), c.text) {
			t.Errorf("%s %s: %d %v, want %d with %q", c.method, c.path, status, er.Errors, c.status, c.text)
		}
		restHandler := len(er.Errors) == 1 && strings.HasPrefix(er.Errors[0], classRestHandlerException+": ") // Flink's session and status handlers
		if status == 500 && !restHandler && (er.Errors[0] != "Internal server error." || !strings.HasPrefix(er.Errors[1], "<Exception on server side:\n") ||
			!strings.HasSuffix(er.Errors[1], "\nEnd of exception on server side>")) {
			t.Errorf("%s %s: 500 body %q", c.method, c.path, er.Errors)
		}
	}
	// a failing statement: ERROR, and its fetch names the cause
	op := g.execute(t, s, "SELECT nope FROM (VALUES (1)) AS t(a)")
	waitFor(10*time.Second, func() bool {
		return g.mustOK(t, "GET", "/v2/sessions/"+s+"/operations/"+op+"/status", nil)["status"] == "ERROR"
	})
	status, raw := g.call(t, "GET", "/v2/sessions/"+s+"/operations/"+op+"/result/0?rowFormat=JSON", nil)
	var er ErrorResponse
	_ = json.Unmarshal(raw, &er)
	if status != 500 || len(er.Errors) != 2 || !strings.Contains(er.Errors[1], "Caused by: org.apache.flink.table.api.ValidationException: From line 1, column 8 to line 1, column 11: Column 'nope' not found") {
		t.Errorf("failed statement: %d %q", status, er.Errors)
	}
	if got := (&Error{StatusCode: status, Errors: er.Errors}).Error(); !strings.HasPrefix(got, "From line 1, column 8 to line 1, column 11: Column 'nope' not found") {
		t.Errorf("root cause %q", got)
	}
}

func TestMaxSessions(t *testing.T) {
	g := newTestGateway(t, Config{MaxSessions: 2})
	g.openSession(t, nil)
	g.openSession(t, nil)
	status, raw := g.call(t, "POST", "/v2/sessions", nil)
	if status != 500 || !strings.Contains(string(raw), "exceeds the max count: 2") {
		t.Errorf("third session: %d %s", status, raw)
	}
}

func TestPlainTextRows(t *testing.T) {
	g := newTestGateway(t, Config{})
	s := g.openSession(t, batchMode)
	op := g.execute(t, s, "SELECT 1 AS i, CAST(2.50 AS DECIMAL(4,2)) AS d, 'x\"y' AS s, TRUE AS b, DATE '1970-01-02' AS dt, "+
		"TIMESTAMP '2024-01-02 03:04:00' AS ts, CAST(NULL AS INT) AS n, CAST(1.5 AS DOUBLE) AS f")
	var m map[string]any
	waitFor(10*time.Second, func() bool {
		m = g.mustOK(t, "GET", "/v2/sessions/"+s+"/operations/"+op+"/result/0?rowFormat=PLAIN_TEXT", nil)
		return m["resultType"] != "NOT_READY"
	})
	res := m["results"].(map[string]any)
	if res["rowFormat"] != "PLAIN_TEXT" {
		t.Errorf("rowFormat %v", res["rowFormat"])
	}
	raw, _ := json.Marshal(res["data"])
	want := `[{"fields":["1","2.50","x\"y","TRUE","1970-01-02","2024-01-02 03:04:00",null,"1.5"],"kind":"INSERT"}]`
	if string(raw) != want {
		t.Errorf("PLAIN_TEXT rows\n got %s\nwant %s", raw, want)
	}
}

// TestPlainTextRowsAsFlinkPrints checks PLAIN_TEXT against what Flink
// 2.3.0's SQL Gateway answered for the same query (the SQL Client fetches
// PLAIN_TEXT and prints the strings as they come): the SQL Client's text of
// every type, TIMESTAMP_LTZ in the session time zone.
func TestPlainTextRowsAsFlinkPrints(t *testing.T) {
	g := newTestGateway(t, Config{})
	s := g.openSession(t, map[string]string{"execution.runtime-mode": "batch", "table.local-time-zone": "Asia/Shanghai"})
	op := g.execute(t, s, "SELECT DATE '2024-01-31' AS d, TRUE AS b, FALSE AS b2, TIMESTAMP '2024-01-31 10:00:00.5' AS ts, "+
		"TIMESTAMP '2024-01-31 10:00:00' AS ts0, CAST(1.50 AS DECIMAL(5,2)) AS dc, CAST(NULL AS INT) AS n, TIME '12:34:56' AS t, "+
		"ARRAY[1,2] AS arr, 1.5e0 AS dbl, X'0102' AS bin, MAP['a',1] AS m, ROW(1,'x') AS r, INTERVAL '14' MONTH AS ym, "+
		"CAST(1.0 AS FLOAT) AS f, TO_TIMESTAMP_LTZ(0, 3) AS ltz, CAST(5 AS TINYINT) AS ti, 'it''s' AS s, CAST(1e20 AS DOUBLE) AS big, "+
		"CAST(NULL AS VARCHAR) AS ns, CAST('ab' AS CHAR(4)) AS ch, 7000000000 AS bi")
	var m map[string]any
	waitFor(10*time.Second, func() bool {
		m = g.mustOK(t, "GET", "/v2/sessions/"+s+"/operations/"+op+"/result/0?rowFormat=PLAIN_TEXT", nil)
		return m["resultType"] != "NOT_READY"
	})
	raw, _ := json.Marshal(m["results"].(map[string]any)["data"])
	want := `[{"fields":["2024-01-31","TRUE","FALSE","2024-01-31 10:00:00.5","2024-01-31 10:00:00","1.50",null,"12:34:56",` +
		`"[1, 2]","1.5","x'0102'","{a=1}","(1, x)","+1-02","1.0","1970-01-01 08:00:00.000","5","it's","1.0E20",null,"ab  ","7000000000"],"kind":"INSERT"}]`
	if string(raw) != want {
		t.Errorf("PLAIN_TEXT rows\n got %s\nwant %s", raw, want)
	}
}

// TestSlowClientBackPressuresQuery checks that a client that stops
// fetching never makes the gateway buffer without bound: the query's job
// stalls once the result buffer is full, and resumes when fetched.
func TestSlowClientBackPressuresQuery(t *testing.T) {
	g := newTestGateway(t, Config{PageRows: 100})
	s := g.openSession(t, nil)
	g.fetchUntilReady(t, s, g.execute(t, s, "CREATE TABLE gen (a BIGINT, b STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '1000000000')"))
	op := g.execute(t, s, "SELECT a, b FROM gen")
	fr := g.fetchUntilReady(t, s, op)
	ss, _ := g.srv.session(s)
	jc, ok := ss.env.JobByID(fr["jobID"].(string))
	if !ok {
		t.Fatal("no job")
	}
	produced := func() int64 {
		var max int64
		for _, m := range jc.Metrics() {
			max = maxInt64(max, m.RecordsOut)
		}
		return max
	}
	backpressured := func() bool {
		for _, m := range jc.Metrics() {
			if m.Backpressure > 0 {
				return true
			}
		}
		return false
	}
	// wait until the source stops producing: it met a full channel
	// (Backpressure) and its count stays the same over 20 polls in a row
	var stalled int64 = -1
	same := 0
	ok = waitFor(20*time.Second, func() bool {
		if b := produced(); b != stalled {
			stalled, same = b, 0
		} else {
			same++
		}
		return stalled > 0 && same >= 20 && backpressured()
	})
	if !ok {
		var ms []string
		for _, m := range jc.Metrics() {
			ms = append(ms, fmt.Sprintf("%s: in %d, out %d, back-pressure %d", m.Name, m.RecordsIn, m.RecordsOut, m.Backpressure))
		}
		t.Fatalf("the job never stalled without a reader (produced %d rows; %s)", produced(), strings.Join(ms, "; "))
	}
	// the bound: the job's channels and the 64-batch result buffer, far
	// below what an unthrottled generator makes in the time waited
	if stalled > 5_000_000 {
		t.Errorf("%d rows produced without a reader", stalled)
	}
	// fetching resumes it (once a whole buffered batch has been read)
	uri := fr["nextResultUri"].(string)
	resumed := waitFor(20*time.Second, func() bool {
		uri = g.mustOK(t, "GET", uri, nil)["nextResultUri"].(string)
		return produced() > stalled
	})
	if !resumed {
		t.Error("the job did not resume after fetching")
	}
	t.Logf("stalled after %d rows", stalled)
}

func maxInt64(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// TestJSONRowsLTZAsFlinkWrites checks TIMESTAMP_LTZ in the JSON row format
// against what Flink 2.3.0's SQL Gateway answered in a session in
// Asia/Tokyo: the wall-clock time in the session time zone followed by "Z",
// nested values too (SELECT TO_TIMESTAMP_LTZ(0,3), ARRAY[...], MAP['k',
// ...] gave "1970-01-01T09:00:00Z", ["1970-01-01T09:00:00Z"] and
// {"k":"1970-01-01T09:00:00Z"}); and that Riffle's client reads them back
// as the instants they stand for.
func TestJSONRowsLTZAsFlinkWrites(t *testing.T) {
	g := newTestGateway(t, Config{})
	props := map[string]string{"execution.runtime-mode": "batch", "table.local-time-zone": "Asia/Tokyo"}
	s := g.openSession(t, props)
	const q = "SELECT TO_TIMESTAMP_LTZ(0, 3) AS a, ARRAY[TO_TIMESTAMP_LTZ(0, 3)] AS b, MAP['k', TO_TIMESTAMP_LTZ(1500, 3)] AS m, " +
		"TO_TIMESTAMP_LTZ(-1, 3) AS neg, CAST(NULL AS TIMESTAMP_LTZ(3)) AS n"
	op := g.execute(t, s, q)
	var m map[string]any
	waitFor(10*time.Second, func() bool {
		m = g.mustOK(t, "GET", "/v2/sessions/"+s+"/operations/"+op+"/result/0?rowFormat=JSON", nil)
		return m["resultType"] != "NOT_READY"
	})
	raw, _ := json.Marshal(m["results"].(map[string]any)["data"])
	want := `[{"fields":["1970-01-01T09:00:00Z",["1970-01-01T09:00:00Z"],{"k":"1970-01-01T09:00:01.5Z"},"1970-01-01T08:59:59.999Z",null],"kind":"INSERT"}]`
	if string(raw) != want {
		t.Errorf("JSON rows\n got %s\nwant %s", raw, want)
	}

	// round trip through Riffle's client: the instants come back
	e := g.connect(t, props)
	_, rows := collectAll(t, e, q)
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	v := rows[0].Values
	epoch := time.Unix(0, 0).UTC()
	if got, ok := v[0].(time.Time); !ok || !got.Equal(epoch) {
		t.Errorf("a = %v, want %v", v[0], epoch)
	}
	if arr, ok := v[1].([]any); !ok || len(arr) != 1 || !arr[0].(time.Time).Equal(epoch) {
		t.Errorf("b = %v, want [%v]", v[1], epoch)
	}
	if mp, ok := v[2].(*types.Map); !ok || len(mp.Values) != 1 || !mp.Values[0].(time.Time).Equal(time.UnixMilli(1500)) {
		t.Errorf("m = %v, want {k=1.5 s after epoch}", v[2])
	}
	if got, ok := v[3].(time.Time); !ok || !got.Equal(time.UnixMilli(-1)) {
		t.Errorf("neg = %v, want 1 ms before epoch", v[3])
	}
	if v[4] != nil {
		t.Errorf("n = %v, want NULL", v[4])
	}
}

// TestDescribeCarriesNulls: DESCRIBE answers with real JSON nulls for an
// absent key, extras and watermark, and a comment column when a column has
// a comment, as Flink 2.3.0's gateway does (its SQL Client prints those
// NULLs empty).
func TestDescribeCarriesNulls(t *testing.T) {
	g := newTestGateway(t, Config{})
	s := g.openSession(t, batchMode)
	g.fetchUntilReady(t, s, g.execute(t, s, "CREATE TABLE d (a INT COMMENT 'x', b STRING) WITH ('connector' = 'datagen')"))
	m := g.fetchUntilReady(t, s, g.execute(t, s, "DESCRIBE d"))
	res := m["results"].(map[string]any)
	var names []string
	for _, c := range res["columns"].([]any) {
		names = append(names, c.(map[string]any)["name"].(string))
	}
	if m["isQueryResult"] != false || strings.Join(names, ",") != "name,type,null,key,extras,watermark,comment" ||
		fmt.Sprint(res["data"]) != "[map[fields:[a INT true <nil> <nil> <nil> x] kind:INSERT] map[fields:[b STRING true <nil> <nil> <nil> <nil>] kind:INSERT]]" {
		t.Errorf("DESCRIBE answer %v", m)
	}
}
