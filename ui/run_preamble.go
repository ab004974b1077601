package ui

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// A tab often opens with a preamble: comments and SET statements that
// configure the query below them (the demo tabs do). Ctrl+Enter with the
// cursor on that preamble would otherwise run only a SET and show no
// result, so the workbench runs the preamble through to the next query,
// the way Flink's SQL Client applies SETs to the statements after them,
// and says in the status bar and Messages what ran.

// isPreambleStatement reports whether span is a statement that only
// configures the session (SET, RESET), judged by its first word.
func isPreambleStatement(span sql.StatementSpan) bool {
	w := strings.ToUpper(firstWord(span.Text))
	return w == "SET" || w == "RESET"
}

// firstWord returns s's first run of letters.
func firstWord(s string) string {
	s = strings.TrimSpace(s)
	for i, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '_') {
			return s[:i]
		}
	}
	return s
}

// preambleRun is what Ctrl+Enter runs when the statement under the cursor
// at byte offset off of script is a SET or RESET followed by a query: the
// text from that statement through the first statement that is not a
// SET/RESET, its byte offset, and the query's 1-based line. ok is false
// when the cursor's statement is not a SET/RESET or none follows it.
func preambleRun(script string, off int) (text string, start, queryLine int, ok bool) {
	spans := sql.SplitStatements(script)
	at, found := sql.StatementAt(script, off)
	if !found || !isPreambleStatement(at) {
		return "", 0, 0, false
	}
	for i, s := range spans {
		if s.Start.Offset != at.Start.Offset {
			continue
		}
		for _, next := range spans[i+1:] {
			if isPreambleStatement(next) {
				continue
			}
			return script[at.Start.Offset:next.End], at.Start.Offset, next.Start.Line, true
		}
		return "", 0, 0, false
	}
	return "", 0, 0, false
}

// firstQueryPosition returns the 0-based line and column of script's first
// statement that is not a SET/RESET (0, 0 when there is none): where a
// demo tab puts its cursor, so that Ctrl+Enter runs its query.
func firstQueryPosition(script string) (line, col int) {
	for _, s := range sql.SplitStatements(script) {
		if !isPreambleStatement(s) {
			return s.Start.Line - 1, s.Start.Column - 1
		}
	}
	return 0, 0
}

// runPreamble runs a SET/RESET preamble with the query after it (text at
// byte offset start of t, the query on 1-based line queryLine) and says so.
func (wb *Workbench) runPreamble(t *editorTab, text string, start, queryLine int) {
	msg := fmt.Sprintf("The cursor was on a SET: ran it with the query on line %d (select a statement to run it alone)", queryLine)
	wb.setStatus(msg)
	wb.post(levelInfo, msg, nil)
	wb.flash(t, start, start+len(text))
	wb.submit(runReq{source: srcEditor, tab: t, doc: t.ed.Text(), base: start, text: text})
}

// runEditorStatement is Ctrl+Enter: stmt (at byte offset start of t) is
// the selection or the statement under the cursor; with no selection and
// the cursor on a SET/RESET preamble, the preamble runs with its query.
func (wb *Workbench) runEditorStatement(t *editorTab, stmt string, start int) {
	if _, _, sel := t.ed.Selection(); strings.TrimSpace(sel) == "" {
		if text, pstart, line, ok := preambleRun(t.ed.Text(), t.ed.CursorOffset()); ok {
			wb.runPreamble(t, text, pstart, line)
			return
		}
	}
	wb.runStatementIn(t, stmt, start)
}
