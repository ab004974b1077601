// Package gateway speaks Apache Flink's SQL Gateway REST protocol both
// ways: Server serves Riffle's embedded engine to any SQL Gateway client
// (Flink's SQL Client in gateway mode, the Flink JDBC driver, Riffle
// itself), and Client / RemoteEngine drive any SQL Gateway endpoint, Riffle's
// or a Flink cluster's, with the shape of the embedded table API.
//
// The wire format follows Flink's OpenAPI specifications
// (docs/static/generated/rest_v{1,2}_sql_gateway.yml) and the serializers
// of flink-sql-gateway (FetchResultsResponseBodySerializer,
// ResultInfoSerializer, LogicalTypeJsonSerializer): URL paths are prefixed
// with the API version (/v1, /v2; an unversioned path means the default,
// v2), request and response bodies are JSON with Flink's field names,
// errors are {"errors": [...]} with an HTTP error status. docs/gateway.md lists
// the few places where Riffle's server differs from Flink's.
package gateway

import (
	"fmt"
	"strings"
)

// APIVersion is a SQL Gateway REST API version (Flink's
// SqlGatewayRestAPIVersion).
type APIVersion int

// The API versions. V1 submits statements and fetches results in JSON; V2
// adds the rowFormat query parameter, complete-statement and
// configure-session; V3 (materialized-table refresh) and V4 (application
// mode scripts) add endpoints Riffle does not serve, but the server
// accepts their paths for the endpoints they share with V2.
const (
	V1 APIVersion = 1
	V2 APIVersion = 2
	V3 APIVersion = 3
	V4 APIVersion = 4
)

// DefaultVersion is the version of unversioned paths and of clients that
// do not negotiate (Flink's default is v2).
const DefaultVersion = V2

// String is the version's name as /api_versions lists it: "V1", "V2".
func (v APIVersion) String() string { return fmt.Sprintf("V%d", int(v)) }

// Prefix is the version's URL prefix: "v1", "v2".
func (v APIVersion) Prefix() string { return fmt.Sprintf("v%d", int(v)) }

// ParseAPIVersion parses "V2" or "v2".
func ParseAPIVersion(s string) (APIVersion, bool) {
	switch strings.ToUpper(s) {
	case "V1":
		return V1, true
	case "V2":
		return V2, true
	case "V3":
		return V3, true
	case "V4":
		return V4, true
	}
	return 0, false
}

// OperationStatus is the state of an operation (a statement being run):
// Flink's OperationStatus. INITIALIZED, PENDING and RUNNING are not
// terminal; the others are.
type OperationStatus string

// Operation states.
const (
	StatusInitialized OperationStatus = "INITIALIZED"
	StatusPending     OperationStatus = "PENDING"
	StatusRunning     OperationStatus = "RUNNING"
	StatusFinished    OperationStatus = "FINISHED"
	StatusCanceled    OperationStatus = "CANCELED"
	StatusClosed      OperationStatus = "CLOSED"
	StatusError       OperationStatus = "ERROR"
	StatusTimeout     OperationStatus = "TIMEOUT"
)

// IsTerminal reports FINISHED, CANCELED, CLOSED, ERROR and TIMEOUT.
func (s OperationStatus) IsTerminal() bool {
	switch s {
	case StatusInitialized, StatusPending, StatusRunning:
		return false
	}
	return true
}

// CanTransition reports whether Flink allows an operation to move from s
// to to: INITIALIZED → PENDING, PENDING → RUNNING, RUNNING → FINISHED; any
// non-terminal state → CANCELED, CLOSED, TIMEOUT or ERROR; any terminal
// state but CLOSED → CLOSED.
func (s OperationStatus) CanTransition(to OperationStatus) bool {
	switch s {
	case StatusInitialized:
		return to == StatusPending || to == StatusCanceled || to == StatusClosed || to == StatusTimeout || to == StatusError
	case StatusPending:
		return to == StatusRunning || to == StatusCanceled || to == StatusClosed || to == StatusTimeout || to == StatusError
	case StatusRunning:
		return to == StatusFinished || to == StatusCanceled || to == StatusClosed || to == StatusTimeout || to == StatusError
	case StatusFinished, StatusCanceled, StatusTimeout, StatusError:
		return to == StatusClosed
	}
	return false
}

// ResultType says what a fetch returned: NOT_READY (the statement is still
// being executed; fetch the same token again), PAYLOAD (rows, possibly
// none yet) or EOS (no more rows).
type ResultType string

// Result types.
const (
	ResultNotReady ResultType = "NOT_READY"
	ResultPayload  ResultType = "PAYLOAD"
	ResultEOS      ResultType = "EOS"
)

// RowFormat is how fetched rows encode their fields: JSON (Flink's JSON
// format conversion, ISO-8601 timestamps) or PLAIN_TEXT (every field as a
// string).
type RowFormat string

// Row formats.
const (
	RowFormatJSON      RowFormat = "JSON"
	RowFormatPlainText RowFormat = "PLAIN_TEXT"
)

// Result kinds as the wire names them.
const (
	ResultKindSuccess            = "SUCCESS"
	ResultKindSuccessWithContent = "SUCCESS_WITH_CONTENT"
)

// GetAPIVersionResponse is the body of GET /api_versions.
type GetAPIVersionResponse struct {
	// Versions lists version names, e.g. ["V1", "V2"].
	Versions []string `json:"versions"`
}

// GetInfoResponse is the body of GET /info.
type GetInfoResponse struct {
	ProductName string `json:"productName"`
	Version     string `json:"version"`
}

// OpenSessionRequest is the body of POST /sessions. Both fields are
// optional; Properties override the gateway's defaults and become the
// session's configuration.
type OpenSessionRequest struct {
	SessionName string            `json:"sessionName,omitempty"`
	Properties  map[string]string `json:"properties,omitempty"`
}

// OpenSessionResponse is the body answering POST /sessions.
type OpenSessionResponse struct {
	// SessionHandle is the session's UUID.
	SessionHandle string `json:"sessionHandle"`
}

// GetSessionConfigResponse is the body of GET /sessions/{session}: the
// session's configuration.
type GetSessionConfigResponse struct {
	Properties map[string]string `json:"properties"`
}

// CloseSessionResponse answers DELETE /sessions/{session}: {"status":"CLOSED"}.
type CloseSessionResponse struct {
	Status string `json:"status"`
}

// ConfigureSessionRequest is the body of POST
// /sessions/{session}/configure-session (v2+): one SET, RESET, CREATE,
// DROP, ALTER, USE, LOAD/UNLOAD MODULE or ADD JAR statement, run at once;
// ExecutionTimeout is in milliseconds (0 = none).
type ConfigureSessionRequest struct {
	Statement        string `json:"statement"`
	ExecutionTimeout int64  `json:"executionTimeout,omitempty"`
}

// ExecuteStatementRequest is the body of POST /sessions/{session}/statements.
// ExecutionTimeout is in milliseconds (0 = none): an operation that has
// not finished executing by then moves to TIMEOUT. ExecutionConfig
// overrides session configuration for this statement only.
type ExecuteStatementRequest struct {
	Statement        string            `json:"statement"`
	ExecutionTimeout int64             `json:"executionTimeout,omitempty"`
	ExecutionConfig  map[string]string `json:"executionConfig,omitempty"`
}

// ExecuteStatementResponse answers POST /sessions/{session}/statements.
type ExecuteStatementResponse struct {
	// OperationHandle is the operation's UUID.
	OperationHandle string `json:"operationHandle"`
}

// OperationStatusResponse answers the status, cancel and close operation
// endpoints: {"status": "RUNNING"}.
type OperationStatusResponse struct {
	Status string `json:"status"`
}

// CompleteStatementRequest is the body of GET
// /sessions/{session}/complete-statement (v2+; a GET with a body, as
// Flink defines it). Position counts UTF-16 code units.
type CompleteStatementRequest struct {
	Statement string `json:"statement"`
	Position  int    `json:"position"`
}

// CompleteStatementResponse answers complete-statement.
type CompleteStatementResponse struct {
	Candidates []string `json:"candidates"`
}

// ErrorResponse is the body of every error response:
// {"errors": ["Internal server error.", "<Exception on server side: ...>"]}.
type ErrorResponse struct {
	Errors []string `json:"errors"`
}
