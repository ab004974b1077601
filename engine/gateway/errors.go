package gateway

import (
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/sql"
)

// Errors travel as Flink's REST handlers send them: an HTTP error status
// and {"errors": [...]}. Failures of the service (unknown session, a
// statement that failed) are 500 with two entries, "Internal server
// error." and the server-side exception chain,
//
//	<Exception on server side:
//	org.apache.flink.table.gateway.api.utils.SqlGatewayException: Failed to fetchResults.
//		at github.com/riffle-sql/riffle/engine/gateway(Riffle SQL Gateway)
//	Caused by: org.apache.flink.table.api.ValidationException: At line 1, column 8: Column 'x' not found ...
//		at github.com/riffle-sql/riffle/engine/gateway(Riffle SQL Gateway)
//
//	End of exception on server side>
//
// so that Flink's own clients (SQL Client, JDBC driver), which read the
// last "Caused by:" line, show the cause. The exception class names are
// Flink's names for the kind of failure: SqlParserException for syntax
// errors, ValidationException for validation errors, TableException
// otherwise. Malformed requests are 400, unknown paths 404 and missing or
// wrong bearer tokens 401, each with a single message.

// Flink exception class names used in error chains.
const (
	classGatewayException   = "org.apache.flink.table.gateway.api.utils.SqlGatewayException"
	classExecutionException = "org.apache.flink.table.gateway.service.utils.SqlExecutionException"
	classParserException    = "org.apache.flink.table.api.SqlParserException"
	classParserEOFException = "org.apache.flink.table.api.SqlParserEOFException"
	classCalciteParse       = "org.apache.calcite.sql.parser.SqlParseException"
	classValidation         = "org.apache.flink.table.api.ValidationException"
	classTableException     = "org.apache.flink.table.api.TableException"

	classSqlValidatorException = "org.apache.calcite.sql.validate.SqlValidatorException"
	classParseException        = "org.apache.flink.sql.parser.impl.ParseException"
)

// httpError is an error with its HTTP status and response messages.
type httpError struct {
	status int
	msgs   []string
}

func (e *httpError) Error() string { return strings.Join(e.msgs, ": ") }

// badRequest is a 400 with one message.
func badRequest(msg string) *httpError {
	return &httpError{status: http.StatusBadRequest, msgs: []string{msg}}
}

// serviceError is a 500 with Flink's internal-server-error body: top is
// the outer exception's message, cause the error that caused it.
func serviceError(top string, cause error) *httpError {
	var b strings.Builder
	b.WriteString("<Exception on server side:\n")
	b.WriteString(classGatewayException)
	b.WriteString(": ")
	b.WriteString(top)
	writeCauses(&b, cause)
	b.WriteString(serverFrame)
	b.WriteString("\n\nEnd of exception on server side>")
	return &httpError{status: http.StatusInternalServerError, msgs: []string{"Internal server error.", b.String()}}
}

// writeCauses appends the "Caused by:" links of cause, each after the
// frame that ends the link before it.
func writeCauses(b *strings.Builder, cause error) {
	for c := cause; c != nil; {
		b.WriteString(serverFrame)
		var ce *causeError
		if errors.As(c, &ce) && ce == c {
			b.WriteString("\nCaused by: ")
			b.WriteString(ce.class)
			b.WriteString(": ")
			b.WriteString(ce.msg)
			c = ce.cause
			continue
		}
		b.WriteString("\nCaused by: ")
		class, msg := exceptionClass(c), c.Error()
		var se *sql.Error
		if errors.As(c, &se) {
			class, msg = parserException(msg)
		}
		b.WriteString(class)
		b.WriteString(": ")
		b.WriteString(msg)
		for _, link := range innerCauses(c) {
			b.WriteString(serverFrame)
			b.WriteString("\nCaused by: ")
			b.WriteString(link[0])
			b.WriteString(": ")
			b.WriteString(link[1])
		}
		break
	}
}

// classRestHandlerException is the exception Flink's operation and
// session handlers (status, cancel, close, session configuration) throw
// around a failure of the service.
const classRestHandlerException = "org.apache.flink.runtime.rest.handler.RestHandlerException"

// restHandlerOps are the operations whose failures Flink 2.3.0's gateway
// answers as a RestHandlerException: a 500 whose only "errors" entry is
// the printed exception chain, "<class>: Failed to <op>." caused by the
// SqlGatewayException of the same message caused by the failure, without
// the "Internal server error." and "<Exception on server side:" framing.
var restHandlerOps = map[string]bool{"getOperationInfo": true, "cancelOperation": true,
	"closeOperation": true, "closeSession": true, "getSessionConfig": true}

// opError is the error answer of a failed service operation op ("Failed
// to <op>.") caused by cause, in the shape Flink 2.3.0's gateway gives it:
// a RestHandlerException for restHandlerOps; for fetchResults the
// SqlGatewayException wrapped once more by the handler (its message the
// inner exception's "class: message"); the plain service error otherwise.
func opError(op string, cause error) *httpError {
	top := fmt.Sprintf("Failed to %s.", op)
	switch {
	case restHandlerOps[op]:
		var b strings.Builder
		b.WriteString(classRestHandlerException + ": " + top + serverFrame)
		b.WriteString("\nCaused by: " + classGatewayException + ": " + top)
		writeCauses(&b, cause)
		b.WriteString(serverFrame + "\n")
		return &httpError{status: http.StatusInternalServerError, msgs: []string{b.String()}}
	case op == "fetchResults":
		return serviceError(classGatewayException+": "+top, &causeError{class: classGatewayException, msg: top, cause: cause})
	}
	return serviceError(top, cause)
}

// serverFrame follows each exception message of a chain where a Java
// server prints the stack frames. Flink's SQL Client and JDBC driver cut the
// message they show at the first frame ("\tat "); without one they would
// show the rest of the body, "End of exception on server side>]" included.
// Riffle has no Java stack: the frame names the Go package that answered.
const serverFrame = "\n\tat github.com/riffle-sql/riffle/engine/gateway(Riffle SQL Gateway)"

// causeError is a link of an exception chain with an explicit class.
type causeError struct {
	class string
	msg   string
	cause error
}

func (e *causeError) Error() string {
	if e.cause != nil {
		return e.msg + ": " + e.cause.Error()
	}
	return e.msg
}

func (e *causeError) Unwrap() error { return e.cause }

// innerCauses are the exceptions (class, message) Flink's planner chains
// below the one of an engine error, ending where Flink's clients read the
// cause: a positioned validation error ends in Calcite's
// SqlValidatorException with the bare message ("Column 'x' not found in
// any table"; the ValidationException above it keeps the position for
// Riffle's clients), a syntax error in Calcite's SqlParseException and the
// parser's ParseException, both with the parser's message. Other errors
// have none.
func innerCauses(err error) [][2]string {
	var se *sql.Error
	var pe *sql.ValidationError
	switch {
	case errors.As(err, &se):
		return [][2]string{{classCalciteParse, err.Error()}, {classParseException, err.Error()}}
	case errors.As(err, &pe) && pe.Line > 0 && pe.Msg != "":
		return [][2]string{{classSqlValidatorException, pe.Msg}}
	}
	return nil
}

// parserException is the class and message Flink 2.3.0's planner throws
// for a syntax error with the parser's message msg: SqlParserEOFException
// with msg as it is when the statement ended too early (Encountered
// "<EOF>" ...), SqlParserException with "SQL parse failed. " before msg
// otherwise.
func parserException(msg string) (class, message string) {
	if strings.HasPrefix(msg, `Encountered "<EOF>" `) {
		return classParserEOFException, msg
	}
	return classParserException, "SQL parse failed. " + msg
}

// exceptionClass names the Flink exception class for an engine error.
func exceptionClass(err error) string {
	var se *sql.Error
	var pe *sql.ValidationError
	var de *connector.DataError
	switch {
	case errors.As(err, &se):
		return classParserException
	case errors.As(err, &pe):
		return classValidation
	case errors.As(err, &de):
		return classTableException
	}
	return classTableException
}

// Error is an error answer of a SQL Gateway: the HTTP status and the
// "errors" list of the body. Error() is the root cause as Flink's SQL
// Client shows it: the message of the last "Caused by:" of a server-side
// exception chain, or the last message.
type Error struct {
	// StatusCode is the HTTP status (400, 401, 404, 500...).
	StatusCode int
	// Errors is the body's "errors" list as sent.
	Errors []string
}

// Error returns the root cause: the last "Caused by:" message of a
// server-side exception chain, the last message otherwise, or the HTTP
// status text of an answer without messages.
func (e *Error) Error() string {
	if len(e.Errors) == 0 {
		return http.StatusText(e.StatusCode)
	}
	return RootCause(e.Errors[len(e.Errors)-1])
}

var positionRe = regexp.MustCompile(`\b[Ll]ine (\d+), column (\d+)`)

// Positioned reports whether the message names a position in the
// statement ("line 2, column 5"), as syntax and validation errors do.
func (e *Error) Positioned() bool { return positionRe.MatchString(e.Error()) }

// Position returns the first position the message names ("At line 2,
// column 5: ..." of a validation error, "... at line 1, column 8." of a
// syntax error): 1-based line and column in the statement as sent.
func (e *Error) Position() (line, col int, ok bool) {
	m := positionRe.FindStringSubmatch(e.Error())
	if m == nil {
		return 0, 0, false
	}
	line, err1 := strconv.Atoi(m[1])
	col, err2 := strconv.Atoi(m[2])
	if err1 != nil || err2 != nil || line < 1 || col < 1 {
		return 0, 0, false
	}
	return line, col, true
}

var sessionLostRe = regexp.MustCompile(`Session '[^']*' does not exist`)

// SessionLost reports an error saying that the session is unknown to the
// gateway: it expired or the gateway restarted. A statement refused for
// that reason was not run, so a client may open a new session and send it
// again.
func SessionLost(err error) bool {
	var ge *Error
	if !errors.As(err, &ge) {
		return false
	}
	for _, m := range ge.Errors {
		if sessionLostRe.MatchString(m) {
			return true
		}
	}
	return false
}

// RootCause extracts the message of the exception that says what went
// wrong from a Flink server-side exception chain ("<Exception on server
// side: ... End of exception on server side>"): the last "Caused by:"
// that is a ValidationException or SqlParserException of Flink's table API
// when there is one (Flink's message with its position, "SQL validation
// failed. From line 1, column 15 to line 1, column 20: Object 'nosuch' not
// found"; the Calcite exceptions below it repeat it without the context),
// otherwise the last "Caused by:". The exception class and stack frames
// are dropped. Other text is returned unchanged.
func RootCause(text string) string {
	if strings.HasPrefix(text, classRestHandlerException+": ") {
		// Flink's handlers of operation status, cancel and close and of
		// sessions answer with the printed chain alone
		text = "<Exception on server side:\n" + text
	}
	if !strings.HasPrefix(text, "<Exception on server side:") {
		return text
	}
	body := strings.TrimPrefix(text, "<Exception on server side:")
	if i := strings.LastIndex(body, "End of exception on server side>"); i >= 0 {
		body = body[:i]
	}
	causes := strings.Split(body, "\nCaused by: ")
	pick := causes[len(causes)-1]
	if len(causes) == 1 {
		pick = strings.TrimLeft(pick, "\n")
	}
	for i := len(causes) - 1; i > 0; i-- {
		if strings.HasPrefix(causes[i], classValidation+":") || strings.HasPrefix(causes[i], classParserException+":") || strings.HasPrefix(causes[i], classParserEOFException+":") {
			pick = causes[i]
			break
		}
	}
	// drop the exception class: "a.b.SomeException: message"
	if i := strings.Index(pick, ": "); i > 0 && !strings.ContainsAny(pick[:i], " \n") {
		pick = pick[i+2:]
	}
	var lines []string
	for _, l := range strings.Split(pick, "\n") {
		if strings.HasPrefix(l, "\tat ") || strings.HasPrefix(l, "\t... ") {
			continue
		}
		lines = append(lines, l)
	}
	// A RestClientException's message is its server's error list in
	// brackets, "[a.b.X: msg\nCaused by: c.d.Y: msg\n]", so the last cause
	// of a chain through one ends with a line holding the closing bracket.
	for len(lines) > 0 && (strings.TrimSpace(lines[len(lines)-1]) == "]" || strings.TrimSpace(lines[len(lines)-1]) == "") {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n")
}

// SessionConfigError is a value of the session's configuration on the SQL
// Gateway that the client cannot read when it shows a result (a maximum
// column width that is not an integer above 0). The statement is not at
// fault: the value came from a SET, the session's properties or the
// gateway's -D, which a gateway stores unchecked (as Flink's does), so
// front ends do not point at the statement.
type SessionConfigError struct {
	Key, Value string
	Err        error
}

func (e *SessionConfigError) Error() string {
	return fmt.Sprintf("%v\n(The value '%s' of '%s' is in the session's configuration on the SQL Gateway: a SET, the session's properties or the gateway's -D set it; SET '%s' to an integer above 0.)",
		e.Err, e.Value, e.Key, e.Key)
}

func (e *SessionConfigError) Unwrap() error { return e.Err }
