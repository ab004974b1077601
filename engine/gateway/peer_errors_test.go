package gateway

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"
)

// sqlClientReason is the line Flink 2.3.0's SQL Client prints after
// "[ERROR] Could not execute SQL statement. Reason:" for a REST error
// (CliStrings.messageError): the text after the last "Caused by: " of the
// body's message, cut at the first stack frame ("\tat "), trimmed. The
// message is the errors list as Java prints a list: "[a, b]".
func sqlClientReason(errs []string) string {
	msg := "[" + strings.Join(errs, ", ") + "]"
	parts := strings.Split(msg, "Caused by: ")
	return strings.TrimSpace(strings.Split(parts[len(parts)-1], "\tat ")[0])
}

// TestErrorBodyAsFlinkClientsRead checks that the error of a failed
// statement reads, with the SQL Client's rule, as the exception and message
// of its cause alone (before the fix the client showed the rest of the
// body: "End of exception on server side>]").
func TestErrorBodyAsFlinkClientsRead(t *testing.T) {
	g := newTestGateway(t, Config{})
	s := g.openSession(t, batchMode)
	op := g.execute(t, s, "SELECT nosuch FROM (VALUES (1)) AS t(x)")
	var status int
	var raw []byte
	waitFor(10*time.Second, func() bool {
		status, raw = g.call(t, "GET", "/v2/sessions/"+s+"/operations/"+op+"/result/0?rowFormat=PLAIN_TEXT", nil)
		return status != 200 || !strings.Contains(string(raw), "NOT_READY")
	})
	var er ErrorResponse
	if err := json.Unmarshal(raw, &er); err != nil || status != 500 || len(er.Errors) != 2 {
		t.Fatalf("status %d, body %s", status, raw)
	}
	// Flink 2.3.0's SQL Client printed this line for the same statement on
	// Flink's gateway
	got := sqlClientReason(er.Errors)
	want := "org.apache.calcite.sql.validate.SqlValidatorException: Column 'nosuch' not found in any table"
	if got != want {
		t.Errorf("SQL Client reason\n got %q\nwant %q", got, want)
	}
	if !strings.HasSuffix(er.Errors[1], "\n\nEnd of exception on server side>") {
		t.Errorf("body does not end as Flink's: %q", er.Errors[1])
	}
	// Riffle's own client reads the positioned ValidationException above it
	rerr := &Error{StatusCode: status, Errors: er.Errors}
	if rc := rerr.Error(); rc != "From line 1, column 8 to line 1, column 13: Column 'nosuch' not found in any table" {
		t.Errorf("RootCause %q", rc)
	}
	if line, col, ok := rerr.Position(); !ok || line != 1 || col != 8 {
		t.Errorf("Position %d %d %v", line, col, ok)
	}
}

// A syntax error ends, as in Flink, in the parser's ParseException, which
// Flink's clients show; the message keeps the "Encountered "<EOF>"" the SQL
// Client looks for to read on. Above it, as in Flink 2.3.0's chain,
// Calcite's SqlParseException and the planner's SqlParserException ("SQL
// parse failed. ...", which Riffle's client reads) or, when the statement
// ended early, SqlParserEOFException without the prefix.
func TestParseErrorBodyAsFlinkClientsRead(t *testing.T) {
	g := newTestGateway(t, Config{})
	s := g.openSession(t, batchMode)
	for _, c := range []struct{ stmt, reason, top, root string }{
		{"SELECT CAST(1 AS\n;", classParseException + `: Encountered ";" at line 2, column 1.`,
			classParserException + `: SQL parse failed. Encountered ";" at line 2, column 1.`, `SQL parse failed. Encountered ";" at line 2, column 1.`},
		{"SELECT * FROM", classParseException + `: Encountered "<EOF>" at line 1, column 13.`,
			classParserEOFException + `: Encountered "<EOF>" at line 1, column 13.`, `Encountered "<EOF>" at line 1, column 13.`},
	} {
		op := g.execute(t, s, c.stmt)
		var status int
		var raw []byte
		waitFor(10*time.Second, func() bool {
			status, raw = g.call(t, "GET", "/v2/sessions/"+s+"/operations/"+op+"/result/0?rowFormat=PLAIN_TEXT", nil)
			return status != 200 || !strings.Contains(string(raw), "NOT_READY")
		})
		var er ErrorResponse
		if err := json.Unmarshal(raw, &er); err != nil || status != 500 {
			t.Fatalf("%q: status %d, body %s", c.stmt, status, raw)
		}
		if got := sqlClientReason(er.Errors); !strings.HasPrefix(got, c.reason) {
			t.Errorf("%q: SQL Client reason %q, want it to start with %q", c.stmt, got, c.reason)
		}
		if rc := (&Error{StatusCode: status, Errors: er.Errors}).Error(); !strings.HasPrefix(rc, c.root) {
			t.Errorf("%q: RootCause %q, want it to start with %q", c.stmt, rc, c.root)
		}
		if !strings.Contains(er.Errors[1], "\nCaused by: "+c.top) || !strings.Contains(er.Errors[1], "\nCaused by: "+classCalciteParse+": ") {
			t.Errorf("%q: chain lacks %q or Calcite's SqlParseException:\n%s", c.stmt, c.top, er.Errors[1])
		}
	}
}

// A chain of several causes (the fetch of a failed operation) puts a frame
// after every message, so that each "Caused by:" segment ends at its frame.
func TestServiceErrorFramesEveryLink(t *testing.T) {
	he := serviceError("Failed to fetchResults.", &causeError{class: classExecutionException,
		msg: "Failed to execute the operation x.", cause: fmt.Errorf("boom")})
	body := he.msgs[1]
	if n := strings.Count(body, serverFrame); n != 3 {
		t.Errorf("%d frames in %q", n, body)
	}
	if got := sqlClientReason(he.msgs); got != classTableException+": boom" {
		t.Errorf("reason %q", got)
	}
}

// An unknown session or operation reads as in Flink 2.3.0: the outer
// message names the service call, the cause the missing handle, and
// Flink's clients show the cause alone. The body has Flink's shape per
// call, as its gateway answered (checked with unknown handles): the
// handlers of status, cancel, close and sessions answer a
// RestHandlerException alone (one "errors" entry, no "Internal server
// error."); fetchResults wraps its SqlGatewayException once more; execute
// and configure name the call in words.
func TestMissingHandleErrorsAsFlink(t *testing.T) {
	g := newTestGateway(t, Config{})
	s := g.openSession(t, nil)
	gone := newUUID()
	const rest, twice = "rest", "twice"
	for _, c := range []struct{ method, path, outer, reason, shape string }{
		{"GET", "/v2/sessions/" + gone, "Failed to getSessionConfig.", "Session '" + gone + "' does not exist.", rest},
		{"POST", "/v2/sessions/" + gone + "/heartbeat", "Failed to getSessionConfig.", "Session '" + gone + "' does not exist.", rest},
		{"DELETE", "/v2/sessions/" + gone, "Failed to closeSession.", "Session '" + gone + "' does not exist.", rest},
		{"POST", "/v2/sessions/" + gone + "/statements", "Failed to execute statement.", "Session '" + gone + "' does not exist.", ""},
		{"POST", "/v2/sessions/" + gone + "/configure-session", "Failed to configure session.", "Session '" + gone + "' does not exist.", ""},
		{"GET", "/v2/sessions/" + s + "/operations/" + gone + "/result/0?rowFormat=JSON", "Failed to fetchResults.",
			"Can not find the submitted operation in the OperationManager with the " + gone + ".", twice},
		{"GET", "/v2/sessions/" + s + "/operations/" + gone + "/status", "Failed to getOperationInfo.",
			"Can not find the submitted operation in the OperationManager with the " + gone + ".", rest},
		{"POST", "/v2/sessions/" + s + "/operations/" + gone + "/cancel", "Failed to cancelOperation.",
			"Can not find the submitted operation in the OperationManager with the " + gone + ".", rest},
	} {
		var body any
		if c.method == "POST" {
			body = map[string]any{"statement": "SELECT 1"}
		}
		status, raw := g.call(t, c.method, c.path, body)
		var er ErrorResponse
		if err := json.Unmarshal(raw, &er); err != nil || status != 500 {
			t.Errorf("%s %s: %d %s", c.method, c.path, status, raw)
			continue
		}
		chain := er.Errors[len(er.Errors)-1]
		switch c.shape {
		case rest:
			if len(er.Errors) != 1 || !strings.HasPrefix(chain, classRestHandlerException+": "+c.outer+"\n") ||
				!strings.Contains(chain, "\nCaused by: "+classGatewayException+": "+c.outer+"\n") {
				t.Errorf("%s %s: not Flink's RestHandlerException body: %q", c.method, c.path, er.Errors)
			}
		case twice:
			if len(er.Errors) != 2 || !strings.Contains(chain, classGatewayException+": "+classGatewayException+": "+c.outer+"\n") ||
				!strings.Contains(chain, "\nCaused by: "+classGatewayException+": "+c.outer+"\n") {
				t.Errorf("%s %s: the fetch error is not wrapped twice: %q", c.method, c.path, er.Errors)
			}
		default:
			if len(er.Errors) != 2 || !strings.Contains(chain, "\n"+classGatewayException+": "+c.outer+"\n") {
				t.Errorf("%s %s: no %q in %q", c.method, c.path, c.outer, er.Errors)
			}
		}
		if got := sqlClientReason(er.Errors); got != classGatewayException+": "+c.reason {
			t.Errorf("%s %s: SQL Client reason %q", c.method, c.path, got)
		}
		if got := (&Error{StatusCode: status, Errors: er.Errors}).Error(); got != c.reason {
			t.Errorf("%s %s: Riffle's client reads %q", c.method, c.path, got)
		}
	}
	if err := (&Error{StatusCode: 500, Errors: mustErrors(t, g, "GET", "/v2/sessions/"+gone)}); !SessionLost(err) {
		t.Errorf("SessionLost(%v) = false", err)
	}
	status, raw := g.call(t, "GET", "/v2/sessions/not-a-uuid/operations/"+gone+"/status", nil)
	if status != 400 || !strings.Contains(string(raw), `Cannot resolve path parameter (session_handle) from value \"not-a-uuid\"`) {
		t.Errorf("bad handle: %d %s", status, raw)
	}
}

func mustErrors(t *testing.T, g *testGateway, method, path string) []string {
	t.Helper()
	_, raw := g.call(t, method, path, nil)
	var er ErrorResponse
	if err := json.Unmarshal(raw, &er); err != nil {
		t.Fatal(err)
	}
	return er.Errors
}
