package gateway

import (
	"testing"
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
