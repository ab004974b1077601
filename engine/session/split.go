package session

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// Statement is one statement of a script, split and parsed once: the
// runner hands Parsed to the engine (table.Engine.ExecuteParsed), which
// does not parse Text again.
type Statement struct {
	// Text is the statement without its terminating ';' and without
	// leading comments.
	Text string
	// Pos is where Text starts in the document the script came from: a
	// 1-based line, a 1-based column in Unicode code points, a byte offset.
	// Error positions of the engine refer to the same document.
	Pos sql.Pos
	// Parsed is the statement's syntax tree with positions in the
	// document; nil when Riffle's parser refused Text (ParseErr says why).
	Parsed sql.Statement
	// ParseErr is the parser's *sql.Error, or nil.
	ParseErr error
}

// Parse returns a statement of text that starts at position at of its
// document (the zero Pos: line 1, column 1), parsed.
func Parse(text string, at sql.Pos) Statement {
	at = origin(at)
	st := Statement{Text: text, Pos: at}
	st.Parsed, st.ParseErr = sql.ParseAt(text, at)
	return st
}

// Split splits a script into its statements (sql.SplitStatements: at ';'
// outside literals, comments and EXECUTE STATEMENT SET blocks) and parses
// each. at is where script starts in its document (the zero Pos: the
// script is the document). A script of comments only has no statement.
func Split(script string, at sql.Pos) []Statement {
	at = origin(at)
	spans := sql.SplitStatements(script)
	out := make([]Statement, len(spans))
	for i, sp := range spans {
		out[i] = Parse(sp.Text, ShiftPos(at, sp.Start))
	}
	return out
}

// SplitComplete splits the statements of text, which arrives a piece at a
// time (standard input, a terminal), that are complete: those followed by
// ';', and at the end of input (atEOF) a last one without it. consumed is
// the number of bytes of text they take up, through their ';'; the rest
// waits for more input. at is where text starts in the input (Advance
// moves it over the consumed bytes).
func SplitComplete(text string, atEOF bool, at sql.Pos) (stmts []Statement, consumed int) {
	at = origin(at)
	for _, sp := range sql.SplitStatements(text) {
		rest := strings.TrimLeft(text[sp.End:], " \t\r\n")
		if strings.HasPrefix(rest, ";") {
			stmts = append(stmts, Parse(sp.Text, ShiftPos(at, sp.Start)))
			consumed = sp.End + strings.Index(text[sp.End:], ";") + 1
			continue
		}
		if atEOF {
			stmts = append(stmts, Parse(sp.Text, ShiftPos(at, sp.Start)))
			consumed = len(text)
		}
		break
	}
	return stmts, consumed
}

// ShiftPos makes p, a position in a text that starts at base of a
// document, a position in the document.
func ShiftPos(base, p sql.Pos) sql.Pos {
	base = origin(base)
	if p.Line == 1 {
		p.Column += base.Column - 1
	}
	p.Line += base.Line - 1
	p.Offset += base.Offset
	return p
}

// Advance moves position p over text.
func Advance(p sql.Pos, text string) sql.Pos {
	p = origin(p)
	for _, r := range text {
		if r == '\n' {
			p.Line++
			p.Column = 1
		} else {
			p.Column++
		}
	}
	p.Offset += len(text)
	return p
}

// origin makes the zero Pos the start of a document.
func origin(p sql.Pos) sql.Pos {
	if p == (sql.Pos{}) {
		return sql.Pos{Line: 1, Column: 1}
	}
	return p
}
