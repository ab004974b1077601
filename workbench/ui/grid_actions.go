package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/workbench/authoring"
)

// Grid actions: a right-click on a data cell offers "Filter = value",
// "Filter ≠ value", "Filter > value" and "Filter < value"; on a column
// header "Group by this column", "Count distinct", "Sort ascending/
// descending" and "Hide column". Each rewrites the result's query with
// package authoring, puts the new SQL in place of the statement in its
// editor tab (a new tab for results of the catalog's Preview), and runs it
// into a new result tab; the previous result stays open. The user's text
// keeps its shape: a filter adds its condition to the query as written, a
// one-line query stays on one line (grid_filter_text.go).

// actionable reports whether the result's statement is a query the grid
// actions can rewrite.
func (rt *resultTab) actionable() bool {
	if rt.Grid() == nil || rt.Text != "" {
		return false
	}
	st, err := sql.Parse(rt.stmt)
	if err != nil {
		return false
	}
	_, ok := st.(*sql.Query)
	return ok
}

// cellActions are the filter actions of a data cell.
func (rt *resultTab) cellActions(id widget.TableCellID) []*fyne.MenuItem {
	g := rt.Grid()
	dc := g.DataColumn(id.Col)
	if dc < 0 || !rt.actionable() {
		return nil
	}
	v, ok := g.CellValue(id.Row, id.Col)
	if !ok {
		return nil
	}
	col := g.Columns()[dc]
	text, null, _ := g.CellText(id.Row, id.Col)
	shown := shortValue(text)
	if null {
		shown = "NULL"
	}
	act := func(label string, op authoring.Op) *fyne.MenuItem {
		return fyne.NewMenuItem(label, func() {
			rt.wb.gridAction(rt, func(q string) (string, error) { return authoring.FilterByValue(q, col.Name, op, v, col.Type) })
		})
	}
	if !null {
		// ARRAY, MAP, ROW and MULTISET values (and NaN) have no literal
		// to compare with: say so rather than fail after the click
		if _, err := authoring.Literal(v, col.Type); err != nil {
			kind := "these"
			if col.Type != nil {
				kind = col.Type.String()
			}
			it := fyne.NewMenuItem("Filter by value: not for "+kind+" values", nil)
			it.Disabled = true
			return []*fyne.MenuItem{it}
		}
	}
	items := []*fyne.MenuItem{
		act("Filter = "+shown, authoring.OpEq),
		act("Filter ≠ "+shown, authoring.OpNe),
	}
	if !null && orderable(col.Type) {
		items = append(items, act("Filter > "+shown, authoring.OpGt), act("Filter < "+shown, authoring.OpLt))
	}
	return items
}

// orderable reports types that compare with < and >.
func orderable(t *types.DataType) bool {
	return t != nil && (t.IsNumeric() || t.IsString() || t.IsDatetime())
}

// shortValue shortens a cell's text for a menu label.
func shortValue(s string) string {
	s = strings.ReplaceAll(s, "\n", " ")
	if r := []rune(s); len(r) > 32 {
		s = string(r[:31]) + "…"
	}
	if s == "" {
		return "''"
	}
	return s
}

// headerActions are the actions of a column header.
func (rt *resultTab) headerActions(col int) []*fyne.MenuItem {
	g := rt.Grid()
	dc := g.DataColumn(col)
	if dc < 0 || !rt.actionable() {
		return nil
	}
	name := g.Columns()[dc].Name
	var names []string
	for _, c := range g.Columns() {
		names = append(names, c.Name)
	}
	do := func(label string, f func(q string) (string, error)) *fyne.MenuItem {
		return fyne.NewMenuItem(label, func() { rt.wb.gridAction(rt, f) })
	}
	sortAsc := do("Sort ascending", func(q string) (string, error) { return authoring.SortBy(q, name, false) })
	sortDesc := do("Sort descending", func(q string) (string, error) { return authoring.SortBy(q, name, true) })
	if rt.streaming {
		sortAsc, sortDesc = rt.gridSortItem("Sort ascending", dc, false), rt.gridSortItem("Sort descending", dc, true)
	}
	return []*fyne.MenuItem{
		do("Group by this column", func(q string) (string, error) { return authoring.GroupByColumn(q, name) }),
		do("Count distinct", func(q string) (string, error) { return authoring.CountDistinct(q, name) }),
		sortAsc,
		sortDesc,
		do("Hide column", func(q string) (string, error) { return authoring.HideColumn(q, name, names) }),
	}
}

// gridSortItem sorts a streaming result in the grid: a streaming ORDER BY
// must start with a time attribute, so the query is not rewritten (nor
// its job stopped). While the query runs the item is disabled, saying
// why.
func (rt *resultTab) gridSortItem(label string, dc int, desc bool) *fyne.MenuItem {
	g := rt.Grid()
	it := fyne.NewMenuItem(label+" (in the grid)", func() { g.Sort(dc, desc) })
	if err := g.Unsortable(); err != nil {
		it.Label = label + " — after Stop or when finished (a streaming ORDER BY needs a time attribute)"
		if g.View() == results.ChangelogView {
			it.Label = label + " — in the table view"
		}
		it.Disabled = true
	}
	return it
}

// ranStreaming reports whether a query runs in streaming mode: the
// embedded engine's mode as it starts (a script may have SET it), a
// gateway session's as the tab asked.
func (wb *Workbench) ranStreaming(req runReq) bool {
	if req.conn == nil || req.conn.embedded() {
		return wb.env.IsStreaming()
	}
	return req.mode != modeBatch
}

// gridAction rewrites the result's query with f, shows the new SQL in the
// editor in place of the old statement and runs it.
func (wb *Workbench) gridAction(rt *resultTab, f func(query string) (string, error)) {
	out, err := f(rt.stmt)
	if err == nil {
		out = keepShape(rt.stmt, out) // grid_filter_text.go: the user's text keeps its shape
	}
	if err != nil {
		wb.setStatus("Cannot apply: " + err.Error())
		wb.messages.add(levelWarning, "The grid action cannot rewrite the query: "+err.Error(), nil)
		return
	}
	t := wb.editors.byID(rt.editorTab)
	start := -1
	if t != nil {
		start = statementOffset(t.ed.Text(), rt.stmt)
	}
	if start < 0 {
		// A preview, or the statement was edited since: a new tab.
		mode := modeStreaming
		if cur := wb.editors.current(); cur != nil {
			mode = cur.mode
		}
		t = wb.editors.newTab("", out+";\n")
		if t == nil {
			return
		}
		t.mode = mode
		wb.editors.saveMode(t)
		if rt.conn != nil {
			wb.setTabConnection(t, rt.conn) // the preview's connection
		}
		start = 0
	} else {
		t.ed.ReplaceRange(start, start+len(rt.stmt), out)
		wb.editors.tabs.Select(t.item)
	}
	t.ed.SetCursorOffset(start)
	// the previous result stays open beside the new one (issue 21)
	wb.runStatementIn(t, out, start)
}

// statementOffset finds the statement stmt in the script: the offset of
// the statement whose text equals it (the first, when it occurs several
// times), or -1.
func statementOffset(script, stmt string) int {
	for _, sp := range sql.SplitStatements(script) {
		if sp.Text == stmt {
			return sp.Start.Offset
		}
	}
	return -1
}
