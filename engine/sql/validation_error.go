package sql

import "fmt"

// ValidationError is an error in a statement that parsed but does not
// validate (an unknown column, a type mismatch, a statement Riffle does not
// run), with the position of the offending SQL: 1-based Line and Column in
// Unicode code points, as Error's, and where the span ends (EndLine,
// EndColumn, 0 when the planner reported a point). Msg is the bare message
// in Calcite's wording; Error prefixes the position as Calcite does:
// "From line 1, column 8 to line 1, column 11: Column 'pric' not found in
// any table; did you mean 'price'?". A Line of 0 means no position.
//
// The planner reports its errors with this type (engine/internal/plan's Error is an
// alias), and engine/table names it table.ValidationError, so callers find
// the fields with errors.As.
type ValidationError struct {
	Line, Column       int
	EndLine, EndColumn int
	Msg                string
}

// Error renders the message with its position, in Calcite's wording.
func (e *ValidationError) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	if e.EndLine == 0 || (e.EndLine == e.Line && e.EndColumn == e.Column) {
		return fmt.Sprintf("At line %d, column %d: %s", e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("From line %d, column %d to line %d, column %d: %s", e.Line, e.Column, e.EndLine, e.EndColumn, e.Msg)
}
