package editor

import (
	"strings"
)

// lexState is where a scanner is at a line break: in plain SQL code or inside
// a construct that can span lines.
type lexState uint8

const (
	stateCode    lexState = iota // plain SQL
	stateString                  // inside a '…' string literal
	stateQuoted                  // inside a `…` quoted identifier
	stateComment                 // inside a /* … */ comment
)

// scanner walks SQL text and tracks quotes and comments. It is shared by the
// statement splitter and by the highlighter, which needs the state at the
// start of every line.
type scanner struct {
	state       lexState
	lineComment bool // inside a -- comment (ends at the line break)
}

// step consumes s[i] and returns the index of the next byte to look at.
// When code is true the byte at i was plain code (not inside a string,
// quoted identifier or comment, and not the start of one).
func (sc *scanner) step(s string, i int) (next int, code bool) {
	c := s[i]
	if sc.lineComment {
		if c == '\n' {
			sc.lineComment = false
		}
		return i + 1, false
	}
	switch sc.state {
	case stateString:
		if c == '\'' {
			if i+1 < len(s) && s[i+1] == '\'' {
				return i + 2, false // '' is an escaped quote
			}
			sc.state = stateCode
		}
		return i + 1, false
	case stateQuoted:
		if c == '`' {
			if i+1 < len(s) && s[i+1] == '`' {
				return i + 2, false
			}
			sc.state = stateCode
		}
		return i + 1, false
	case stateComment:
		if c == '*' && i+1 < len(s) && s[i+1] == '/' {
			sc.state = stateCode
			return i + 2, false
		}
		return i + 1, false
	}
	switch c {
	case '\'':
		sc.state = stateString
		return i + 1, false
	case '`':
		sc.state = stateQuoted
		return i + 1, false
	case '-':
		if i+1 < len(s) && s[i+1] == '-' {
			sc.lineComment = true
			return i + 2, false
		}
	case '/':
		if i+1 < len(s) && s[i+1] == '*' {
			sc.state = stateComment
			return i + 2, false
		}
	}
	return i + 1, true
}

// scanLine returns the lexer state at the end of a line that starts in
// state st. A -- comment ends with its line, so it never carries over.
func scanLine(s string, st lexState) lexState {
	// Fast path: a line without quote, comment or backquote characters
	// leaves a code state untouched.
	if st == stateCode && strings.IndexAny(s, "'`-/") < 0 {
		return st
	}
	sc := scanner{state: st}
	for i := 0; i < len(s); {
		i, _ = sc.step(s, i)
	}
	return sc.state
}

// Statement is one SQL statement of a script.
type Statement struct {
	// Text is the statement without its terminating ';', without leading
	// white space and comments and without trailing white space.
	Text string
	// Start and End are the byte offsets of Text in the script
	// (script[Start:End] == Text).
	Start, End int
}

// Splitter splits a SQL script into statements, in order. An [Editor] uses
// its Splitter field for Ctrl+Enter; the engine's parser can provide one.
type Splitter func(script string) []Statement

// DefaultSplitter is the Splitter of editors whose Splitter field is nil. It
// is SplitStatements until the application installs another one (for example
// the engine parser's) at start-up, before any editor is used.
var DefaultSplitter Splitter = SplitStatements

// SplitStatements splits a Flink SQL script at every ';' that is outside a
// '…' string (with ” escapes), a `…` quoted identifier, a -- line comment
// and a /* … */ comment. An EXECUTE STATEMENT SET BEGIN … END block is kept
// as one statement although it holds ';'s. Statements that hold nothing but
// white space and comments are dropped. It never panics and is safe for
// concurrent use.
func SplitStatements(script string) []Statement {
	var out []Statement
	var sc scanner
	segStart := 0
	// Words of the current statement, to recognise statement sets.
	var first []string
	last := ""
	word := -1 // start of the identifier being read, or -1
	flushWord := func(end int) {
		if word < 0 {
			return
		}
		w := strings.ToUpper(script[word:end])
		if len(first) < 3 {
			first = append(first, w)
		}
		last = w
		word = -1
	}
	emit := func(end int) {
		if st, ok := trimStatement(script, segStart, end); ok {
			out = append(out, st)
		}
	}
	for i := 0; i < len(script); {
		next, code := sc.step(script, i)
		if !code {
			flushWord(i)
			i = next
			continue
		}
		c := script[i]
		if isASCIIWordByte(c) || c >= 0x80 {
			if word < 0 {
				word = i
			}
			i = next
			continue
		}
		flushWord(i)
		if c == ';' {
			inSet := len(first) == 3 && first[0] == "EXECUTE" && first[1] == "STATEMENT" && first[2] == "SET"
			if !inSet || last == "END" {
				emit(i)
				segStart = i + 1
				first, last = first[:0], ""
			}
		}
		i = next
	}
	emit(len(script))
	return out
}

func isASCIIWordByte(c byte) bool {
	return c == '_' || c == '$' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// trimStatement trims white space and leading comments from script[start:end]
// and reports whether anything is left.
func trimStatement(script string, start, end int) (Statement, bool) {
	for start < end {
		switch {
		case isSpace(script[start]):
			start++
		case strings.HasPrefix(script[start:end], "--"):
			nl := strings.IndexByte(script[start:end], '\n')
			if nl < 0 {
				return Statement{}, false
			}
			start += nl + 1
		case strings.HasPrefix(script[start:end], "/*"):
			cl := strings.Index(script[start+2:end], "*/")
			if cl < 0 {
				return Statement{}, false
			}
			start += 2 + cl + 2
		default:
			for end > start && isSpace(script[end-1]) {
				end--
			}
			return Statement{Text: script[start:end], Start: start, End: end}, true
		}
	}
	return Statement{}, false
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// StatementAt returns the statement of stmts (as returned by a [Splitter] for
// script, in order) that a cursor at byte offset off belongs to: the one that
// contains it; between two statements, the one before if the cursor is on the
// same line as its end (right after its ';'), else the one after; before the
// first, the first; after the last, the last. ok is false when stmts is
// empty.
func StatementAt(script string, stmts []Statement, off int) (st Statement, ok bool) {
	if len(stmts) == 0 {
		return Statement{}, false
	}
	off = max(0, min(off, len(script)))
	for i, s := range stmts {
		if off < s.Start {
			if i == 0 {
				return s, true
			}
			prev := stmts[i-1]
			if prev.End >= 0 && prev.End <= off && !strings.Contains(script[prev.End:off], "\n") {
				return prev, true
			}
			return s, true
		}
		if off <= s.End {
			return s, true
		}
	}
	return stmts[len(stmts)-1], true
}
