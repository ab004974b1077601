package alerting

import (
	"errors"
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// Param is one :column placeholder of a sink statement.
type Param struct {
	Name string
	// Pos is the position of the ':' in the statement (1-based line and
	// column, byte offset); End the byte offset just past the name.
	Pos sql.Pos
	End int
}

// SinkParams finds the :column placeholders of a sink statement: a ':'
// directly followed by a column name (plain or `quoted`), outside string
// literals, quoted identifiers and comments.
func SinkParams(stmt string) []Param {
	toks := sql.Tokenize(stmt)
	var out []Param
	for i := 0; i+1 < len(toks); i++ {
		t, n := toks[i], toks[i+1]
		if t.Kind != sql.TokOp || t.Text != ":" || n.Pos.Offset != t.End {
			continue
		}
		if n.Kind != sql.TokIdent && n.Kind != sql.TokQuotedIdent {
			continue
		}
		out = append(out, Param{Name: n.Value, Pos: t.Pos, End: n.End})
		i++
	}
	return out
}

// SinkError is a sink statement that does not parse or names a column the
// query does not have; Line and Column (1-based) locate it in the
// statement.
type SinkError struct {
	Line, Column int
	Msg          string
}

func (e *SinkError) Error() string {
	return fmt.Sprintf("sink statement, line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// ValidateSink checks a sink statement before the rule is saved: each
// :column must be one of the query's columns (names; case-insensitive),
// and the statement with its placeholders filled must parse as one
// statement. An empty statement is valid (no sink). Errors are *SinkError.
func ValidateSink(stmt string, names []string) error {
	if strings.TrimSpace(stmt) == "" {
		return nil
	}
	params := SinkParams(stmt)
	for _, p := range params {
		if columnIndex(names, p.Name) < 0 {
			return &SinkError{p.Pos.Line, p.Pos.Column, fmt.Sprintf("the query has no column %q (its columns: %s)", p.Name, strings.Join(names, ", "))}
		}
	}
	// fill each placeholder with an identifier of the same length, so
	// that the parser's positions are the statement's
	var b strings.Builder
	last := 0
	for _, p := range params {
		b.WriteString(stmt[last:p.Pos.Offset])
		b.WriteString("_" + strings.Repeat("x", p.End-p.Pos.Offset-1))
		last = p.End
	}
	b.WriteString(stmt[last:])
	stmts, err := sql.ParseScript(b.String())
	if err != nil {
		var se *sql.Error
		if errors.As(err, &se) {
			msg := firstLine(se.Msg)
			for _, p := range params { // name the placeholder, not its stand-in
				if p.Pos.Offset == se.Offset {
					msg = strings.Replace(msg, `"`+"_"+strings.Repeat("x", p.End-p.Pos.Offset-1)+`"`, `"`+stmt[p.Pos.Offset:p.End]+`"`, 1)
				}
			}
			return &SinkError{se.Line, se.Column, msg}
		}
		return &SinkError{1, 1, err.Error()}
	}
	if len(stmts) != 1 {
		return &SinkError{1, 1, fmt.Sprintf("write one statement, not %d (EXECUTE STATEMENT SET BEGIN … END runs several INSERTs)", len(stmts))}
	}
	return nil
}

// BindSink fills a sink statement's :column placeholders with the
// triggering row's values as SQL literals (sqlLiteral); a name not among
// the columns is an error.
func BindSink(stmt string, names []string, values []any) (string, error) {
	var b strings.Builder
	last := 0
	for _, p := range SinkParams(stmt) {
		i := columnIndex(names, p.Name)
		if i < 0 {
			return "", &SinkError{p.Pos.Line, p.Pos.Column, fmt.Sprintf("the row has no column %q", p.Name)}
		}
		var v any
		if i < len(values) {
			v = values[i]
		}
		b.WriteString(stmt[last:p.Pos.Offset])
		b.WriteString(sqlLiteral(v))
		last = p.End
	}
	b.WriteString(stmt[last:])
	return b.String(), nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
