package session

import (
	"errors"

	"github.com/riffle-sql/riffle/engine/sql"
)

// ErrorPosition returns the 1-based line and column (in code points) an
// error names in its document: a syntax error's (*sql.Error), a
// validation error's (the planner's), or the position a SQL Gateway's
// message names ("At line 2, column 5: …"). ok is false for an error
// without a position; a front end then points at the statement
// (Error.Statement.Pos).
func ErrorPosition(err error) (line, col int, ok bool) {
	var se *sql.Error
	if errors.As(err, &se) && se.Line > 0 {
		return se.Line, se.Column, true
	}
	var pe *sql.ValidationError
	if errors.As(err, &pe) && pe.Line > 0 {
		return pe.Line, pe.Column, true
	}
	var re interface{ Position() (int, int, bool) }
	if errors.As(err, &re) {
		return re.Position()
	}
	return 0, 0, false
}

// ErrorEnd returns where the span an error names ends (1-based line, the
// column of its last character) when the planner reported one; ok is
// false otherwise.
func ErrorEnd(err error) (line, col int, ok bool) {
	var pe *sql.ValidationError
	if errors.As(err, &pe) && pe.EndLine > 0 {
		return pe.EndLine, pe.EndColumn, true
	}
	return 0, 0, false
}
