package plan

import (
	"fmt"
)

// Error is a validation error with the position of the offending SQL
// (1-based line and column in Unicode code points, as the parser's), in
// Calcite's wording: "From line 1, column 8 to line 1, column 11: Column
// 'pric' not found in any table; did you mean 'price'?".
type Error struct {
	Line, Column       int
	EndLine, EndColumn int
	Msg                string
}

func (e *Error) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	if e.EndLine == 0 || (e.EndLine == e.Line && e.EndColumn == e.Column) {
		return fmt.Sprintf("At line %d, column %d: %s", e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("From line %d, column %d to line %d, column %d: %s", e.Line, e.Column, e.EndLine, e.EndColumn, e.Msg)
}
