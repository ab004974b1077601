package sql

// StatementSpan is one statement of a script as found by SplitStatements.
type StatementSpan struct {
	// Text is the statement text, from its first token to its last token,
	// without the terminating ";" and without leading comments.
	Text string
	// Start is the position of the first token in the script.
	Start Pos
	// End is the byte offset in the script just past the last token.
	End int
}

// Parse parses the statement with positions relative to the whole script.
func (s StatementSpan) Parse() (Statement, error) { return ParseAt(s.Text, s.Start) }

// SplitStatements splits a script into statements at ";" outside string
// literals, quoted identifiers, comments and hints. A final statement
// without ";" counts; empty (or comment-only) statements are dropped. The
// blocks of EXECUTE STATEMENT SET BEGIN ...; ...; END and EXPLAIN STATEMENT
// SET BEGIN ... END are kept whole, while the SQL Client form BEGIN
// STATEMENT SET; INSERT ...; END; yields separate statements (BEGIN
// STATEMENT SET, each INSERT, END), matching ParseScript. Unterminated
// quotes or comments extend to the end of the script. It never fails.
func SplitStatements(script string) []StatementSpan {
	l := newLexer(script)
	l.comments = true
	l.recover = true
	var out []StatementSpan
	first, last := -1, -1 // token start offset / end offset of current statement
	var firstPos Pos
	var words [3]string // last three words of the current statement
	nwords := 0
	inBlock := false
	caseDepth := 0 // CASE ... END nesting, so that END of a CASE does not end a block
	flush := func() {
		if first >= 0 {
			out = append(out, StatementSpan{Text: script[first:last], Start: firstPos, End: last})
		}
		first, last = -1, -1
		nwords = 0
		inBlock = false
		caseDepth = 0
	}
	for {
		t := l.next()
		if t.Kind == TokEOF {
			break
		}
		if t.Kind == TokComment {
			continue
		}
		if t.Kind == TokOp && t.Text == ";" && !inBlock {
			flush()
			continue
		}
		if first < 0 {
			first, firstPos = t.Pos.Offset, t.Pos
		}
		last = t.End
		if t.Kind == TokIdent {
			w := t.upper
			switch {
			case w == "BEGIN" && nwords >= 2 && words[1] == "STATEMENT" && words[2] == "SET":
				inBlock = true
			case w == "CASE":
				caseDepth++
			case w == "END" && caseDepth > 0:
				caseDepth--
			case w == "END" && inBlock:
				inBlock = false
			}
			words[0], words[1], words[2] = words[1], words[2], w
			nwords++
		} else {
			words[0], words[1], words[2] = words[1], words[2], ""
			nwords++
		}
	}
	flush()
	return out
}

// StatementAt returns the statement of script under the cursor at byte
// offset: the statement containing it, or, when the cursor is between
// statements, the nearest statement before it (else the next one). ok is
// false when the script has no statements.
func StatementAt(script string, offset int) (span StatementSpan, ok bool) {
	spans := SplitStatements(script)
	if len(spans) == 0 {
		return StatementSpan{}, false
	}
	for i, s := range spans {
		if offset < s.Start.Offset {
			if i == 0 {
				return s, true
			}
			// between spans[i-1] and s: prefer the previous statement
			// when the cursor is on the same line as its end.
			prev := spans[i-1]
			if !containsNewline(script, prev.End, offset) {
				return prev, true
			}
			return s, true
		}
		if offset <= s.End {
			return s, true
		}
	}
	return spans[len(spans)-1], true
}

func containsNewline(s string, from, to int) bool {
	if from < 0 {
		from = 0
	}
	if to > len(s) {
		to = len(s)
	}
	for i := from; i < to; i++ {
		if s[i] == '\n' {
			return true
		}
	}
	return false
}
