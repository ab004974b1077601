package ui

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// A tab often opens with a preamble: comments, SET statements and CREATE
// ... IF NOT EXISTS that set up the query below them (the demo tabs do). Ctrl+Enter with the
// cursor on that preamble would otherwise run only a SET and show no
// result, so the workbench runs the preamble through to the next query,
// the way Flink's SQL Client applies SETs to the statements after them,
// and says in the status bar and Messages what ran.

// isPreambleStatement reports whether span is a statement that sets the
// session up for the query below it: SET, RESET (judged by the first word)
// or a CREATE ... IF NOT EXISTS, which is harmless to run again.
func isPreambleStatement(span sql.StatementSpan) bool {
	return isConfigStatement(span) || isCreateIfNotExists(span)
}

// isConfigStatement reports a SET or RESET.
func isConfigStatement(span sql.StatementSpan) bool {
	w := strings.ToUpper(firstWord(span.Text))
	return w == "SET" || w == "RESET"
}

// isCreateIfNotExists reports a CREATE [TEMPORARY] ... IF NOT EXISTS.
func isCreateIfNotExists(span sql.StatementSpan) bool {
	f := strings.Fields(strings.ToUpper(span.Text))
	if len(f) == 0 || f[0] != "CREATE" {
		return false
	}
	head := strings.Join(f[:min(len(f), 8)], " ")
	return strings.Contains(head, " IF NOT EXISTS ")
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
// at byte offset off of script is a preamble statement (SET, RESET,
// CREATE ... IF NOT EXISTS) followed by a query: the text from that
// statement through the first statement that is not one, its byte offset,
// and the query's 1-based line. ok is false when the cursor's statement is
// not a preamble statement or no query follows it.
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

// firstQueryPosition is where a demo tab puts its cursor, so that
// Ctrl+Enter shows a result: the 0-based line and column of the first
// statement that is not a SET/RESET, when only SET/RESET come before it
// (the tab's runtime mode stands for them); else 0, 0, where Ctrl+Enter
// runs the setup (CREATE ... IF NOT EXISTS) with the query.
func firstQueryPosition(script string) (line, col int) {
	for _, s := range sql.SplitStatements(script) {
		if isConfigStatement(s) {
			continue
		}
		if isCreateIfNotExists(s) {
			return 0, 0
		}
		return s.Start.Line - 1, s.Start.Column - 1
	}
	return 0, 0
}

// runPreamble runs a preamble with the query after it (text at
// byte offset start of t, the query on 1-based line queryLine) and says so.
func (wb *Workbench) runPreamble(t *editorTab, text string, start, queryLine int) {
	msg := fmt.Sprintf("The cursor was on the tab's setup (SET, CREATE … IF NOT EXISTS): ran it with the query on line %d (select a statement to run it alone)", queryLine)
	wb.setStatus(msg)
	wb.post(levelInfo, msg, nil)
	wb.flash(t, start, start+len(text))
	wb.submit(runReq{source: srcEditor, tab: t, doc: t.ed.Text(), base: start, text: text})
}

// runEditorStatement is Ctrl+Enter: stmt (at byte offset start of t) is
// the selection or the statement under the cursor; with no selection and
// the cursor on a preamble, the preamble runs with its query.
func (wb *Workbench) runEditorStatement(t *editorTab, stmt string, start int) {
	if _, _, sel := t.ed.Selection(); strings.TrimSpace(sel) == "" {
		if text, pstart, line, ok := preambleRun(t.ed.Text(), t.ed.CursorOffset()); ok {
			wb.runPreamble(t, text, pstart, line)
			return
		}
	}
	wb.runStatementIn(t, stmt, start)
}
