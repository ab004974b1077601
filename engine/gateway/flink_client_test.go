package gateway

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// flinkValidationError is the error body Apache Flink 2.3.0's SQL Gateway
// answered to fetching the result of "SELECT 1 FROM nosuch" (stack frames
// shortened).
const flinkValidationError = "<Exception on server side:\n" +
	"org.apache.flink.table.gateway.api.utils.SqlGatewayException: org.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.\n" +
	"\tat org.apache.flink.table.gateway.rest.handler.statement.FetchResultsHandler.handleRequest(FetchResultsHandler.java:91)\n" +
	"Caused by: org.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.\n" +
	"\tat org.apache.flink.table.gateway.service.SqlGatewayServiceImpl.fetchResults(SqlGatewayServiceImpl.java:238)\n" +
	"\t... 40 more\n" +
	"Caused by: org.apache.flink.table.gateway.service.utils.SqlExecutionException: Failed to execute the operation 76959869-0745-4c8d-aa47-2d5d3533a475.\n" +
	"\tat org.apache.flink.table.gateway.service.operation.OperationManager$Operation.processThrowable(OperationManager.java:415)\n" +
	"Caused by: org.apache.flink.table.api.ValidationException: SQL validation failed. From line 1, column 15 to line 1, column 20: Object 'nosuch' not found\n" +
	"\tat org.apache.flink.table.planner.calcite.FlinkPlannerImpl.validate(FlinkPlannerImpl.scala:119)\n" +
	"\t... 7 more\n" +
	"Caused by: org.apache.calcite.runtime.CalciteContextException: From line 1, column 15 to line 1, column 20: Object 'nosuch' not found\n" +
	"\tat java.base/jdk.internal.reflect.NativeConstructorAccessorImpl.newInstance0(Native Method)\n" +
	"Caused by: org.apache.calcite.sql.validate.SqlValidatorException: Object 'nosuch' not found\n" +
	"\tat org.apache.calcite.runtime.Resources$ExInst.ex(Resources.java:601)\n" +
	"\t... 34 more\n" +
	"\nEnd of exception on server side>"

// TestErrorFlinkValidation: of Flink's chain the ValidationException is
// shown, with its position, not the Calcite exception below it.
func TestErrorFlinkValidation(t *testing.T) {
	e := &Error{StatusCode: 500, Errors: []string{"Internal server error.", flinkValidationError}}
	want := "SQL validation failed. From line 1, column 15 to line 1, column 20: Object 'nosuch' not found"
	if e.Error() != want {
		t.Fatalf("Error() = %q, want %q", e.Error(), want)
	}
	line, col, ok := e.Position()
	if !ok || line != 1 || col != 15 {
		t.Fatalf("Position() = %d, %d, %v; want 1, 15, true", line, col, ok)
	}
}

// TestErrorFlinkRuntimeCause: without a validation or parser exception the
// last cause is the message.
func TestErrorFlinkRuntimeCause(t *testing.T) {
	text := "<Exception on server side:\n" +
		"org.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.\n" +
		"\tat x.y(Z.java:1)\n" +
		"Caused by: org.apache.flink.table.api.TableException: Failed to execute the job.\n" +
		"Caused by: java.lang.ArithmeticException: / by zero\n" +
		"\tat a.b(C.java:2)\n" +
		"\nEnd of exception on server side>"
	if got := RootCause(text); got != "/ by zero" {
		t.Fatalf("RootCause = %q", got)
	}
	if got := RootCause("Internal server error. Could not map response to JSON."); got != "Internal server error. Could not map response to JSON." {
		t.Fatalf("RootCause of a plain message = %q", got)
	}
}

// TestErrorFlinkRestClientCause: a chain through the cluster's REST client
// (STOP JOB of an unknown job on Flink 2.3.0) carries the cluster's error
// list in brackets; the closing bracket is not part of the message.
func TestErrorFlinkRestClientCause(t *testing.T) {
	text := "<Exception on server side:\n" +
		"org.apache.flink.table.gateway.service.utils.SqlExecutionException: Could not stop job deadbeef  for operation 1.\n" +
		"Caused by: java.util.concurrent.ExecutionException: org.apache.flink.runtime.rest.util.RestClientException: [org.apache.flink.runtime.rest.handler.RestHandlerException: Job could not be found.\n" +
		"Caused by: org.apache.flink.runtime.messages.FlinkJobNotFoundException: Could not find Flink job (deadbeef)\n" +
		"\tat a.b(C.java:2)\n" +
		"]\n" +
		"\tat d.e(F.java:3)\n" +
		"\nEnd of exception on server side>"
	if got := RootCause(text); got != "Could not find Flink job (deadbeef)" {
		t.Fatalf("RootCause = %q", got)
	}
}

// TestWallClockToInstant: Flink's gateway writes TIMESTAMP_LTZ in JSON as
// the wall clock of the session time zone with "Z" (epoch 0 in Tokyo is
// "1970-01-01T09:00:00Z"); the client turns it back into the instant, in
// nested values too.
func TestWallClockToInstant(t *testing.T) {
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Skip("no time zone database")
	}
	ltz := types.TimestampLTZType(3)
	colType := types.RowType(types.Field{Name: "a", Type: types.ArrayType(ltz)}, types.Field{Name: "m", Type: types.MapType(types.StringType(), ltz)})
	body := `{"resultType":"PAYLOAD","isQueryResult":true,"resultKind":"SUCCESS_WITH_CONTENT","results":{"columns":[` +
		`{"name":"t","logicalType":{"type":"TIMESTAMP_WITH_LOCAL_TIME_ZONE","nullable":false,"precision":3}},` +
		`{"name":"r","logicalType":` + string(AppendLogicalType(nil, colType)) + `}],` +
		`"rowFormat":"JSON","data":[{"kind":"INSERT","fields":["1970-01-01T09:00:00Z",{"a":["1970-01-01T09:00:01.5Z"],"m":{"k":"1970-01-01T09:00:02Z"}}]}]}}`
	fr, err := DecodeFetchResults([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	row := fr.Rows[0]
	for i, c := range fr.Columns {
		if !hasLTZ(c.Type) {
			t.Fatalf("column %s: hasLTZ false", c.Name)
		}
		row.Values[i] = wallClockToInstant(row.Values[i], c.Type, tokyo)
	}
	if got := row.Values[0].(time.Time); !got.Equal(time.Unix(0, 0)) {
		t.Errorf("t = %v, want the epoch", got)
	}
	nested := row.Values[1].(*types.Row)
	if got := nested.Values[0].([]any)[0].(time.Time); !got.Equal(time.UnixMilli(1500)) {
		t.Errorf("r.a[0] = %v, want epoch + 1.5 s", got)
	}
	if got := nested.Values[1].(*types.Map).Values[0].(time.Time); !got.Equal(time.Unix(2, 0)) {
		t.Errorf("r.m['k'] = %v, want epoch + 2 s", got)
	}
	if hasLTZ(types.ArrayType(types.TimestampType(3))) {
		t.Error("hasLTZ(ARRAY<TIMESTAMP>) = true")
	}
}

// TestNeedsPlainText: the columns Flink's JSON row format cannot write
// (a MAP or MULTISET key that is not a string, at any depth), Flink's
// answer to fetching them, and the page URIs the client then asks for.
func TestNeedsPlainText(t *testing.T) {
	str, i := types.StringType(), types.IntType()
	cases := []struct {
		t    *types.DataType
		want bool
	}{
		{types.MapType(str, i), false},
		{types.MapType(i, str), true},
		{types.ArrayType(types.MapType(types.CharType(3), types.MapType(i, i))), true},
		{types.RowType(types.Field{Name: "a", Type: types.MultisetType(i)}), true},
		{types.MultisetType(str), false},
		{types.ArrayType(i), false},
	}
	for _, c := range cases {
		if got := needsPlainText([]Column{{Name: "c", Type: c.t}}); got != c.want {
			t.Errorf("needsPlainText(%v) = %v", c.t, got)
		}
	}
	flinkAnswer := &Error{StatusCode: 500, Errors: []string{"Internal server error. Could not map response to JSON."}}
	if !isJSONMappingError(flinkAnswer) || isJSONMappingError(&Error{StatusCode: 500, Errors: []string{"x"}}) {
		t.Error("isJSONMappingError")
	}
	r := &RemoteResult{plain: true}
	if got := r.pageURI("/v4/sessions/s/operations/o/result/1?rowFormat=JSON"); got != "/v4/sessions/s/operations/o/result/1?rowFormat=PLAIN_TEXT" {
		t.Errorf("pageURI = %q", got)
	}
}

func TestJavaRootCause(t *testing.T) {
	trace := "org.apache.flink.runtime.JobException: Recovery is suppressed by NoRestartBackoffTimeStrategy\n" +
		"\tat org.apache.flink.runtime.executiongraph.failover.ExecutionFailureHandler.handleFailure(ExecutionFailureHandler.java:213)\n" +
		"Caused by: java.util.concurrent.CompletionException: org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not acquire the minimum required resources.\n" +
		"\tat a.b(C.java:1)\n" +
		"Caused by: org.apache.flink.runtime.jobmanager.scheduler.NoResourceAvailableException: Could not acquire the minimum required resources.\n" +
		"\t... 5 more\n"
	if got := javaRootCause(trace); got != "NoResourceAvailableException: Could not acquire the minimum required resources." {
		t.Errorf("javaRootCause = %q", got)
	}
	if got := javaRootCause("java.lang.IllegalStateException\n\tat x.y(Z.java:1)"); got != "IllegalStateException" {
		t.Errorf("javaRootCause = %q", got)
	}
}

// TestCollectContext: cancelling the context of CollectContext ends the
// rows of an unbounded query with the context's error and closes the
// operation (on Riffle's gateway here; the interop tests check Flink).
func TestCollectContext(t *testing.T) {
	g := newTestGateway(t, Config{})
	e := g.connect(t, map[string]string{"execution.runtime-mode": "streaming"})
	ctx := context.Background()
	if _, err := e.ExecuteSQLContext(ctx, "CREATE TABLE endless (id BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '100')"); err != nil {
		t.Fatal(err)
	}
	res, err := e.ExecuteSQLContext(ctx, "SELECT id FROM endless")
	if err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	it, err := res.CollectContext(rctx)
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	n := 0
	for it.Next() {
		if n++; n == 3 {
			cancel()
		}
	}
	if n < 3 || !errors.Is(it.Err(), context.Canceled) {
		t.Fatalf("%d rows, Err %v; want 3 or more and context.Canceled", n, it.Err())
	}
	if !waitFor(10*time.Second, func() bool {
		st, err := e.Client().OperationStatus(ctx, e.SessionHandle(), res.OperationHandle())
		return err != nil || st == StatusClosed
	}) {
		t.Error("the operation was not closed")
	}
}

// TestNegotiateHighestCommon: the client speaks the highest version both
// sides know, ignoring versions it does not know, as Flink's SQL Client
// picks the latest version the gateway lists.
func TestNegotiateHighestCommon(t *testing.T) {
	for _, c := range []struct {
		offer string
		want  APIVersion
	}{
		{`["V1","V2","V3","V4"]`, V4},
		{`["V2","V1"]`, V2},
		{`["V3","V9","v2"]`, V3},
		{`["V1"]`, V1},
		{`["V0","V7"]`, 0},
	} {
		hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"versions":` + c.offer + `}`))
		}))
		cl, err := NewClient(hs.URL, ClientOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := cl.Negotiate(context.Background())
		hs.Close()
		if got != c.want || (c.want == 0) != (err != nil) {
			t.Errorf("offer %s: %v, %v; want %v", c.offer, got, err, c.want)
		}
		if err == nil && cl.Version() != c.want {
			t.Errorf("offer %s: client speaks %v", c.offer, cl.Version())
		}
	}
}
