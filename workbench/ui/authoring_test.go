package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/completion"
	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/workbench/catalogbrowser"
	"github.com/riffle-sql/riffle/workbench/ui/completionpopup"
	"github.com/riffle-sql/riffle/workbench/ui/designer"
)

// popup returns the open completion popup (failing when there is none).
func (h *harness) popup() *completionpopup.Popup {
	h.t.Helper()
	p := h.wb.authoring().popup
	if p == nil || !p.Visible() {
		h.t.Fatalf("no completion popup; editor %q", h.tab().ed.Text())
	}
	return p
}

// labels lists the popup's candidates as "label/kind".
func labels(p *completionpopup.Popup) []string {
	var out []string
	for _, it := range p.Result().Items {
		out = append(out, it.Label+"/"+it.Kind.String())
	}
	return out
}

// typeKeys types text where the keyboard focus is (the editor, or the
// popup once it is open) as Fyne's desktop driver does: the key
// (TypedKey, letters and digits included), then the character.
func (h *harness) typeKeys(text string) {
	h.t.Helper()
	names := map[rune]fyne.KeyName{' ': fyne.KeySpace, '.': fyne.KeyPeriod, ',': fyne.KeyComma, '\'': fyne.KeyApostrophe,
		'(': fyne.Key9, ')': fyne.Key0, '*': fyne.Key8, '=': fyne.KeyEqual, '`': fyne.KeyBackTick}
	for _, r := range text {
		f := h.w.Canvas().Focused()
		if f == nil {
			h.t.Fatal("nothing has the focus")
		}
		name, ok := names[r]
		if !ok && r < 128 && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			name, ok = fyne.KeyName(strings.ToUpper(string(r))), true
		}
		if ok {
			f.TypedKey(&fyne.KeyEvent{Name: name})
			f = h.w.Canvas().Focused()
		}
		f.TypedRune(r)
	}
}

// key presses a key where the keyboard focus is.
func (h *harness) key(name fyne.KeyName) {
	h.t.Helper()
	f := h.w.Canvas().Focused()
	if f == nil {
		h.t.Fatal("nothing has the focus")
	}
	f.TypedKey(&fyne.KeyEvent{Name: name})
}

func (h *harness) cursorAtEnd() {
	t := h.tab()
	t.ed.SetCursorOffset(len(t.ed.Text()))
}

func TestCompletionPopupOpensWhileTypingAndInsertsATable(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	h.w.Canvas().Focus(tab.ed)
	h.typeKeys("SELECT * FROM fl")
	p := h.popup()
	if p.Result().Context != "table" || !strings.Contains(strings.Join(labels(p), ","), "flights/table") {
		t.Fatalf("context %q, items %v", p.Result().Context, labels(p))
	}
	if h.w.Canvas().Focused() != p.Focus() {
		t.Fatalf("the popup does not have the keyboard: %T", h.w.Canvas().Focused())
	}
	// Typing goes on into the editor and narrows the list.
	h.typeKeys("i")
	if got := tab.ed.Text(); got != "SELECT * FROM fli" {
		t.Fatalf("editor %q", got)
	}
	if got := labels(h.popup()); len(got) != 1 || got[0] != "flights/table" {
		t.Fatalf("items %v", got)
	}
	h.key(fyne.KeyReturn)
	if got := tab.ed.Text(); got != "SELECT * FROM flights" {
		t.Fatalf("editor %q", got)
	}
	if h.wb.completionOpen(nil) {
		t.Error("the popup stays open after Enter")
	}
	if h.w.Canvas().Focused() != tab.ed {
		t.Errorf("focus on %T, not the editor", h.w.Canvas().Focused())
	}
}

func TestCompletionPopupKeyboard(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	h.w.Canvas().Focus(tab.ed)
	h.typeKeys("SELECT de")
	p := h.popup()
	first := p.Result().Items[0]
	h.key(fyne.KeyDown)
	if p.Selected() != 1 || !p.Rows()[1].Background().Visible() {
		t.Fatalf("selection %d", p.Selected())
	}
	h.key(fyne.KeyUp)
	h.key(fyne.KeyUp) // wraps to the last
	if p.Selected() != len(p.Result().Items)-1 {
		t.Fatalf("selection %d of %d", p.Selected(), len(p.Result().Items))
	}
	h.key(fyne.KeyDown) // back to the first
	h.key(fyne.KeyTab)  // Tab accepts too
	if got := tab.ed.Text(); got != "SELECT "+first.Insert {
		t.Fatalf("editor %q, want the first item %q", got, first.Insert)
	}
	// Esc closes without inserting; Backspace past the word closes.
	h.typeKeys(" AND xx")
	tab.ed.SetText("SELECT ab")
	tab.ed.SetCursorOffset(9)
	h.wb.showCompletion(tab, true)
	if h.wb.completionOpen(nil) {
		h.key(fyne.KeyEscape)
		if h.wb.completionOpen(nil) || tab.ed.Text() != "SELECT ab" {
			t.Errorf("Esc: open %v, editor %q", h.wb.completionOpen(nil), tab.ed.Text())
		}
	}
	tab.ed.SetText("SELECT co")
	tab.ed.SetCursorOffset(9)
	h.wb.showCompletion(tab, true)
	p = h.popup()
	n := len(p.Result().Items)
	h.key(fyne.KeyBackspace)
	if tab.ed.Text() != "SELECT c" || len(h.popup().Result().Items) <= n {
		t.Errorf("after Backspace: editor %q, %d items (had %d)", tab.ed.Text(), len(h.popup().Result().Items), n)
	}
	h.key(fyne.KeyBackspace)
	h.key(fyne.KeyBackspace)
	if h.wb.completionOpen(nil) {
		t.Errorf("the popup stays open when the cursor leaves the word: %q", tab.ed.Text())
	}
}

func TestCompletionInEachContext(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	cases := []struct {
		name   string
		before string // text before the typed part (the cursor is at its end)
		after  string // text after the cursor
		typed  string
		ctx    string
		want   []string // label/kind, each must be offered
		detail string   // the first wanted item's detail contains it
	}{
		{"statement start", "", "", "se", "statement", []string{"SELECT/keyword", "SET/keyword"}, ""},
		{"table after FROM", "SELECT * FROM ", "", "ai", "table", []string{"airports/table"}, "table"},
		{"column in the select list", "SELECT ", " FROM flights", "de", "column", []string{"delay/column", "destination/column"}, "INT"},
		{"column after an alias and a dot", "SELECT ", " FROM flights AS f", "f.d", "qualified", []string{"date/column", "delay/column"}, "TIMESTAMP(0)"},
		{"function with its signature", "SELECT ", " FROM flights", "AV", "column", []string{"AVG/function"}, "AVG("},
		{"option key inside WITH", "CREATE TABLE t (a INT) WITH (", "", "'", "option key", []string{"connector/option"}, ""},
		{"option value", "CREATE TABLE t (a INT) WITH ('connector' = ", "", "'", "option value", []string{"filesystem/value", "datagen/value"}, ""},
		{"type in a column definition", "CREATE TABLE t (a ", "", "TI", "type", []string{"TIMESTAMP/type", "TINYINT/type"}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h.wb.closeCompletion()
			tab.ed.SetText(c.before + c.after)
			tab.ed.SetCursorOffset(len(c.before))
			h.w.Canvas().Focus(tab.ed)
			h.typeKeys(c.typed)
			p := h.wb.authoring().popup
			if p == nil || !p.Visible() {
				t.Fatalf("no popup after typing %q into %q", c.typed, tab.ed.Text())
			}
			if p.Result().Context != c.ctx {
				t.Errorf("context %q, want %q", p.Result().Context, c.ctx)
			}
			got := labels(p)
			for _, w := range c.want {
				if !contains(got, w) {
					t.Errorf("%s not offered: %v", w, got)
				}
			}
			if c.detail != "" {
				for _, it := range p.Result().Items {
					if it.Label+"/"+it.Kind.String() == c.want[0] && !strings.Contains(it.Detail, c.detail) {
						t.Errorf("%s detail %q lacks %q", c.want[0], it.Detail, c.detail)
					}
				}
				if !strings.Contains(p.Detail(), p.Result().Items[p.Selected()].Kind.String()) {
					t.Errorf("detail line %q", p.Detail())
				}
			}
		})
	}
	h.wb.closeCompletion()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestCompletionCtrlSpaceAndTheCatalog(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	// a table created in the session is offered at once
	tab.ed.SetText("CREATE TABLE sensors (id INT) WITH ('connector' = 'datagen');\nSELECT * FROM ")
	tab.ed.SetCursorOffset(strings.Index(tab.ed.Text(), ";"))
	h.runStatement()
	tab.ed.SetCursorOffset(len(tab.ed.Text()))
	tab.ed.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeySpace, Modifier: fyne.KeyModifierControl})
	p := h.popup()
	if !contains(labels(p), "sensors/table") {
		t.Fatalf("items %v", labels(p))
	}
	// the popup sits under the cursor
	at := tab.ed.CursorScreenPosition()
	if pos := p.PopUp().Content.Position(); pos.Y < at.Y-1 || pos.Y > at.Y+2*theme.Padding() || pos.X < at.X-1 || pos.X > at.X+2*theme.Padding() {
		t.Errorf("popup content at %v, the cursor at %v", pos, at)
	}
	// a tap on a row inserts it
	for _, r := range p.Rows() {
		if r.Visible() && r.Label() == "sensors" {
			test.Tap(r)
		}
	}
	if !strings.HasSuffix(tab.ed.Text(), "SELECT * FROM sensors") {
		t.Errorf("editor %q", tab.ed.Text())
	}
	// a single candidate is inserted without a popup
	tab.ed.SetText("SELECT * FROM senso")
	tab.ed.SetCursorOffset(len(tab.ed.Text()))
	h.wb.showCompletion(tab, true)
	if tab.ed.Text() != "SELECT * FROM sensors" || h.wb.completionOpen(nil) {
		t.Errorf("single candidate: editor %q, popup %v", tab.ed.Text(), h.wb.completionOpen(nil))
	}
}

func TestTypedOneRune(t *testing.T) {
	cases := []struct {
		old, text string
		off       int
		want      bool
	}{
		{"SELEC", "SELECT", 6, true},
		{"SELECT  FROM t", "SELECT a FROM t", 8, true},
		{"ab", "aéb", 3, true},
		{"SELECT", "SELECT x, y", 11, false},
		{"abc", "ab", 2, false},
		{"abc", "abd", 3, false},
	}
	for _, c := range cases {
		if got := completionpopup.TypedOneRune(c.old, c.text, c.off); got != c.want {
			t.Errorf("TypedOneRune(%q, %q, %d) = %v", c.old, c.text, c.off, got)
		}
	}
	if completion.AutoTrigger("SELECT 1", 8) {
		t.Error("AutoTrigger in a number")
	}
}

func TestFormatStatementOrSelection(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	script := "select origin,count(*) as n from flights where delay>60 group by origin;\nselect 1;"
	tab.ed.SetText(script)
	tab.ed.SetCursorOffset(3)
	tab.ed.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift})
	want := "SELECT\n  origin,\n  count(*) AS n\nFROM flights\nWHERE delay > 60\nGROUP BY origin;\nselect 1;"
	if got := tab.ed.Text(); got != want {
		t.Fatalf("statement formatted:\n%s\nwant\n%s", got, want)
	}
	// one undo step
	tab.ed.Undo()
	if tab.ed.Text() != script {
		t.Fatalf("undo: %q", tab.ed.Text())
	}
	// the selection only
	tab.ed.Select(strings.Index(script, "select 1"), len(script)-1)
	h.wb.formatCurrent()
	if got := tab.ed.Text(); !strings.HasSuffix(got, "group by origin;\nSELECT 1;") {
		t.Fatalf("selection formatted: %q", got)
	}
	// text that does not parse is left alone, the error is marked
	tab.ed.SetText("SELECT FROM WHERE")
	tab.ed.SetCursorOffset(2)
	h.wb.formatCurrent()
	if tab.ed.Text() != "SELECT FROM WHERE" || len(tab.ed.ErrorMarkers()) == 0 || !strings.Contains(h.messages(), "Format:") {
		t.Errorf("bad SQL: editor %q, markers %v", tab.ed.Text(), tab.ed.ErrorMarkers())
	}
}

// runBatch types a query into a new batch tab, runs it and waits.
func (h *harness) runBatch(query string) *resultTab {
	h.t.Helper()
	tab := h.newTab("")
	tab.ed.SetText(query)
	tab.mode = modeBatch
	tab.ed.SetCursorOffset(1)
	rt := h.runStatement()
	if rt == nil {
		h.t.Fatalf("no result for %q; messages:\n%s", query, h.messages())
	}
	h.waitDone(rt)
	rt.Refresh(true)
	return rt
}

// action runs the menu item labelled label (prefix) and returns the new
// result tab once its query has ended.
func (h *harness) action(items []*fyne.MenuItem, label string) *resultTab {
	h.t.Helper()
	for _, it := range items {
		if strings.HasPrefix(it.Label, label) {
			before := len(h.wb.results)
			var last *resultTab
			if before > 0 {
				last = h.wb.results[before-1]
			}
			it.Action()
			h.settle()
			n := len(h.wb.results)
			if n == 0 || h.wb.results[n-1] == last {
				h.t.Fatalf("%s: no new result; messages:\n%s", label, h.messages())
			}
			rt := h.wb.results[n-1]
			h.waitDone(rt)
			rt.Refresh(true)
			return rt
		}
	}
	var labels []string
	for _, it := range items {
		labels = append(labels, it.Label)
	}
	h.t.Fatalf("no menu item %q in %v", label, labels)
	return nil
}

func TestGridActionsEditTheSQLAndRerun(t *testing.T) {
	h := newHarness(t)
	rt := h.runBatch("SELECT origin, delay FROM flights WHERE delay > 300 ORDER BY delay DESC LIMIT 20")
	tab := h.tab()
	first := rows(rt.Grid())[0] // "ORD | 1200"-like
	origin := strings.Split(first, " | ")[0]

	// a cell: Filter = value
	items := rt.cellActions(widget.TableCellID{Row: 0, Col: 1})
	rt2 := h.action(items, "Filter = "+origin)
	// the one-line query stays on one line (issue 21)
	wantSQL := "SELECT origin, delay FROM flights WHERE delay > 300 AND origin = '" + origin + "' ORDER BY delay DESC LIMIT 20"
	if got := tab.ed.Text(); got != wantSQL {
		t.Fatalf("editor after Filter =:\n%s\nwant\n%s", got, wantSQL)
	}
	if h.tab() != tab {
		t.Error("the query's tab is not selected")
	}
	for _, r := range rows(rt2.Grid()) {
		if !strings.HasPrefix(r, origin+" | ") {
			t.Fatalf("row %q after Filter = %s", r, origin)
		}
	}
	// the previous result stays open beside the new one (issue 21)
	if h.wb.resultFor(rt.Item()) == nil || h.wb.bottom.Selected() != rt2.Item() {
		t.Error("the old result tab was closed, or the new one is not in front")
	}
	// Filter > on a number replaces the > 300 filter of the same column
	rt3 := h.action(rt2.cellActions(widget.TableCellID{Row: 0, Col: 2}), "Filter <")
	if got := tab.ed.Text(); !strings.Contains(got, "WHERE delay > 300 AND origin = '"+origin+"' AND delay < ") {
		t.Fatalf("editor after Filter <:\n%s", got)
	}
	_ = rt3

	// headers
	rt4 := h.runBatch("SELECT origin, destination, delay FROM flights WHERE origin IN ('SFO', 'LAX')")
	tab = h.tab()
	rt5 := h.action(rt4.headerActions(1), "Group by this column")
	if got := tab.ed.Text(); got != "SELECT origin, COUNT(*) AS cnt FROM flights WHERE origin IN ('SFO', 'LAX') GROUP BY origin" {
		t.Fatalf("group by: %q", got)
	}
	if got := rows(rt5.Grid()); len(got) != 2 {
		t.Fatalf("group by rows %q", got)
	}
	rt6 := h.action(rt5.headerActions(2), "Sort descending")
	if got := tab.ed.Text(); !strings.HasSuffix(got, "GROUP BY origin ORDER BY cnt DESC") {
		t.Fatalf("sort: %q", got)
	}
	g := rows(rt6.Grid())
	if len(g) != 2 || g[0] == g[1] {
		t.Fatalf("sorted rows %q", g)
	}
	rt7 := h.action(rt6.headerActions(1), "Hide column")
	if got := tab.ed.Text(); !strings.HasPrefix(got, "SELECT COUNT(*) AS cnt FROM flights") {
		t.Fatalf("hide: %q", got)
	}
	if n := len(rt7.Grid().Columns()); n != 1 {
		t.Errorf("%d columns after hiding", n)
	}
	rt8 := h.runBatch("SELECT origin, destination FROM flights WHERE origin = 'SFO'")
	rt9 := h.action(rt8.headerActions(2), "Count distinct")
	if got := h.tab().ed.Text(); got != "SELECT COUNT(DISTINCT destination) AS count_distinct_destination FROM flights WHERE origin = 'SFO'" {
		t.Fatalf("count distinct: %q", got)
	}
	if got := rows(rt9.Grid()); len(got) != 1 || got[0] == "0" {
		t.Errorf("count distinct rows %q", got)
	}
}

func TestGridActionOnAPreviewOpensATab(t *testing.T) {
	h := newHarness(t)
	h.wb.catalog.OpenPath("default_catalog", "default_database", "airports")
	tabs := len(h.wb.editors.list)
	h.wb.runDetached("SELECT * FROM `default_catalog`.`default_database`.`airports` LIMIT 100", "Preview of airports")
	h.settle()
	rt := h.wb.results[len(h.wb.results)-1]
	h.waitDone(rt)
	rt.Refresh(true)
	if items := rt.cellActions(widget.TableCellID{Row: 0, Col: 0}); items != nil {
		t.Errorf("the row-number column has actions: %d", len(items))
	}
	// a NULL-free string column: state (column 4)
	rt2 := h.action(rt.cellActions(widget.TableCellID{Row: 0, Col: 4}), "Filter ≠")
	if len(h.wb.editors.list) != tabs+1 {
		t.Fatalf("no new tab for the preview's query")
	}
	if got := h.tab().ed.Text(); !strings.Contains(got, "WHERE state <> ") {
		t.Errorf("new tab's SQL %q", got)
	}
	if len(rows(rt2.Grid())) == 0 {
		t.Error("no rows")
	}
	// EXPLAIN-like text results and SHOW results have no actions
	show := h.runBatch("SHOW TABLES")
	if show.actionable() || show.headerActions(1) != nil {
		t.Error("SHOW TABLES has grid actions")
	}
}

// waitBG waits for the authoring background work (inference, DDL) and
// runs what it posted.
func (h *harness) waitBG() {
	h.t.Helper()
	for i := 0; i < 10; i++ {
		h.wb.authoring().bg.Wait()
		if h.q.drain() == 0 {
			return
		}
	}
}

func TestOpenFileReviewCreatesATable(t *testing.T) {
	test.NewTempApp(t)
	h := open(t, filepath.Join(t.TempDir(), "ws.riffle"))
	closed := false
	defer func() {
		if !closed {
			h.close()
		}
	}()
	path, _ := filepath.Abs(filepath.Join("..", "..", "engine", "connector", "testdata", "flights-head2000.csv"))
	h.wb.openDataFile(path)
	h.waitBG()
	r := h.wb.authoring().review
	if r == nil || r.Result().Path != path {
		t.Fatalf("no review; messages:\n%s", h.messages())
	}
	if r.NameEntry().Text != "flights_head2000" || r.RowtimeCheck() == nil || !r.RowtimeCheck().Checked {
		t.Fatalf("name %q, rowtime offered %v", r.NameEntry().Text, r.RowtimeCheck() != nil)
	}
	ddl := r.DDL().Text()
	for _, want := range []string{"CREATE TABLE flights_head2000 (", "`date` TIMESTAMP(0)", "WATERMARK FOR `date` AS `date` - INTERVAL '1' SECOND", "'csv.ignore-first-line' = 'true'", "'path' = '" + path + "'"} {
		if !strings.Contains(ddl, want) {
			t.Errorf("DDL lacks %q:\n%s", want, ddl)
		}
	}
	// the form rewrites the statement
	r.DelayEntry().SetText("5")
	r.UnitSelect().SetSelected("MINUTE")
	if !strings.Contains(r.DDL().Text(), "INTERVAL '5' MINUTE") {
		t.Errorf("delay not applied:\n%s", r.DDL().Text())
	}
	r.RowtimeCheck().SetChecked(false)
	if strings.Contains(r.DDL().Text(), "WATERMARK") {
		t.Errorf("rowtime not removed:\n%s", r.DDL().Text())
	}
	r.RowtimeCheck().SetChecked(true)
	r.NameEntry().SetText("flights_file")
	// a broken edit disables Create; the user's own edit is what runs
	r.DDL().SetText("CREATE TABLE x (")
	if !r.CreateButton().Disabled() || r.StatusLabel().Importance != widget.DangerImportance {
		t.Errorf("broken DDL: create enabled %v, status %q", !r.CreateButton().Disabled(), r.StatusLabel().Text)
	}
	edited := strings.Replace(r.Statement(), "delay BIGINT", "delay INT COMMENT 'minutes'", 1)
	r.DDL().SetText(edited)
	if r.CreateButton().Disabled() {
		t.Fatalf("create disabled: %s", r.StatusLabel().Text)
	}
	test.Tap(r.CreateButton())
	h.waitBG()
	if r.Created() != "flights_file" {
		t.Fatalf("not created: %s; messages:\n%s", r.StatusLabel().Text, h.messages())
	}
	// registered, in the init script, in the catalog tree
	if !strings.Contains(h.wb.initScript, edited) {
		t.Errorf("init script lacks the statement:\n%s", h.wb.initScript)
	}
	if got := strings.Join(h.wb.catalog.VisibleLabels(), "\n"); !strings.Contains(got, "flights_file") {
		t.Errorf("catalog tree:\n%s", got)
	}
	rt := h.runBatch("SELECT COUNT(*) AS n, MAX(delay) AS m FROM flights_file")
	if got := rows(rt.Grid()); len(got) != 1 || !strings.HasPrefix(got[0], "2000 | ") {
		t.Errorf("rows %q; messages:\n%s", got, h.messages())
	}
	if typ := rt.Grid().Columns()[1].Type.String(); typ != "INT" {
		t.Errorf("the edited type was not used: %s", typ)
	}
	// opening it again proposes another name
	h.wb.openDataFile(path)
	h.waitBG()
	if r2 := h.wb.authoring().review; r2 == r || r2.NameEntry().Text != "flights_head2000" {
		t.Errorf("second open: name %q", r2.NameEntry().Text)
	}
	// the init script brings the table back when the workspace opens again
	h.close()
	closed = true
	h2 := open(t, h.path)
	defer h2.close()
	h2.settle()
	if _, err := h2.wb.Env().FromPath("flights_file"); err != nil {
		t.Errorf("after reopening: %v; messages:\n%s", err, h2.messages())
	}
}

func TestOpenFileThatIsNotATable(t *testing.T) {
	h := newHarness(t)
	path, _ := filepath.Abs(filepath.Join("..", "..", "engine", "connector", "testdata", "README.md"))
	before := h.wb.authoring().review
	h.wb.openDataFile(path)
	h.waitBG()
	if h.wb.authoring().review != before {
		t.Error("a review for a README")
	}
	if !strings.Contains(h.messages(), "does not look like a table") {
		t.Errorf("messages:\n%s", h.messages())
	}
}

func TestOpenEveryFileOfTheSharedData(t *testing.T) {
	// ../shared/data beside the project (a worktree is one level deeper)
	var files []string
	for _, dir := range []string{filepath.Join("..", "..", "..", "shared", "data"), filepath.Join("..", "..", "..", "..", "shared", "data")} {
		if files, _ = filepath.Glob(filepath.Join(dir, "*")); len(files) > 0 {
			break
		}
	}
	if len(files) == 0 {
		t.Skip("no shared data here")
	}
	h := newHarness(t)
	for _, f := range files {
		if strings.HasSuffix(f, ".md") || strings.HasSuffix(f, ".txt") {
			continue
		}
		if st, err := os.Stat(f); err != nil || st.IsDir() {
			continue
		}
		h.wb.authoring().review = nil
		h.wb.openDataFile(f)
		h.waitBG()
		r := h.wb.authoring().review
		if r == nil {
			t.Errorf("%s: no review; messages:\n%s", f, h.messages())
			continue
		}
		test.Tap(r.CreateButton())
		h.waitBG()
		if r.Created() == "" {
			t.Errorf("%s: not created: %s", f, r.StatusLabel().Text)
			continue
		}
		rt := h.runBatch("SELECT COUNT(*) FROM " + r.Created())
		if got := rows(rt.Grid()); len(got) != 1 || got[0] != fmt.Sprint(r.Result().Records) {
			t.Errorf("%s: COUNT(*) %q, inference read %d records; messages:\n%s", f, got, r.Result().Records, h.messages())
		}
	}
}

// findButton finds a shown button by its text under o.
func findButton(o fyne.CanvasObject, text string) *widget.Button {
	for _, x := range shown(o) {
		if b, ok := x.(*widget.Button); ok && b.Text == text {
			return b
		}
	}
	return nil
}

// applyDesign presses the designer's apply button and waits for its
// statements.
func (h *harness) applyDesign(dd *designer.Dialog) error {
	h.t.Helper()
	var res error
	ran := false
	dd.Done = func(err error) { res, ran = err, true }
	test.Tap(dd.Apply)
	h.waitBG()
	if c := h.wb.authoring().confirm; c != nil && !ran {
		b := findButton(h.w.Canvas().Overlays().Top(), "Drop and create")
		if b == nil {
			h.t.Fatal("no Drop and create button")
		}
		test.Tap(b)
		h.waitBG()
	}
	if !ran {
		h.t.Fatalf("nothing ran: apply disabled %v; problems:\n%s", dd.Apply.Disabled(), dd.Problems.Text)
	}
	return res
}

func TestCompletionPopupPassesShiftAndPrefersTheTypedWord(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	h.w.Canvas().Focus(tab.ed)
	// Shift pressed in the editor, released while the popup is open
	shift := &fyne.KeyEvent{Name: desktop.KeyShiftLeft}
	tab.ed.KeyDown(shift)
	h.typeKeys("SELECT * FR")
	h.popup()
	h.w.Canvas().Focused().(desktop.Keyable).KeyUp(shift)
	h.typeKeys("OM")
	p := h.popup()
	if it := p.Result().Items[p.Selected()]; it.Label != "FROM" {
		t.Errorf("selected %q, not the typed word", it.Label)
	}
	h.key(fyne.KeyEscape)
	h.key(fyne.KeyHome)
	h.key(fyne.KeyRight)
	if s, e, _ := tab.ed.Selection(); s != e {
		t.Errorf("Shift is stuck: selection %d..%d", s, e)
	}
}

func TestAuthoringOnAGatewayTab(t *testing.T) {
	g := startGateway(t, gateway.Config{})
	h := newHarness(t)
	tab := h.newTab("")
	h.addConnection("gw", g.url, "", "")
	// no popup while typing: the gateway completes on Ctrl+Space
	h.w.Canvas().Focus(tab.ed)
	h.typeKeys("SELECT * FROM fl")
	if h.wb.completionOpen(nil) {
		t.Error("the embedded catalog's popup opened on a gateway tab")
	}
	// the builder says it reads the embedded engine and leaves the tab alone
	h.wb.toggleBuilder()
	b := h.wb.builder()
	if b.Query() != nil || !strings.Contains(b.Status(), "runs on gw") {
		t.Errorf("builder status %q", b.Status())
	}
	b.TableSelect().SetSelected("airports")
	if tab.ed.Text() != "SELECT * FROM fl" {
		t.Errorf("the builder wrote into a gateway tab: %q", tab.ed.Text())
	}
	// Edit table… on the gateway's catalog explains instead of opening
	before := h.wb.authoring().designer
	h.wb.showTableDesignerFor(catalogbrowser.Ref{Catalog: "default_catalog", Database: "default_database", Object: "x", Kind: catalogbrowser.KindTable})
	if h.wb.authoring().designer != before {
		t.Error("the designer opened on a gateway table")
	}
}

func TestResultTitleOfAWindowTVF(t *testing.T) {
	for stmt, want := range map[string]string{
		"SELECT window_start, COUNT(*) FROM TABLE(TUMBLE(TABLE flights, DESCRIPTOR(`date`), INTERVAL '1' HOUR)) GROUP BY window_start": "flights",
		"SELECT * FROM TABLE(HOP(TABLE cat.db.`my events`, DESCRIPTOR(ts), INTERVAL '1' MINUTE, INTERVAL '5' MINUTE))":                 "my events",
		"SELECT * FROM flights": "flights",
	} {
		if got := resultTitle(stmt); got != want {
			t.Errorf("resultTitle(%q) = %q, want %q", stmt, got, want)
		}
	}
}

func TestDroppingAFileOpensItsReview(t *testing.T) {
	h := newHarness(t)
	path, _ := filepath.Abs(filepath.Join("..", "..", "engine", "connector", "testdata", "earthquakes-head300.jsonl"))
	web, _ := storage.ParseURI("https://example.com/x.csv")
	h.wb.filesDropped(fyne.NewPos(10, 10), []fyne.URI{web, storage.NewFileURI(path)})
	h.waitBG()
	r := h.wb.authoring().review
	if r == nil || r.Result().Path != path || r.Result().Format != "json" {
		t.Fatalf("review %+v; messages:\n%s", r, h.messages())
	}
	if r.RowtimeCheck() == nil || !strings.Contains(r.DDL().Text(), "TO_TIMESTAMP_LTZ") {
		t.Errorf("no rowtime offer:\n%s", r.DDL().Text())
	}
}

// TestOpenDataFileTakesATypedPath: File ▸ Open data file… has a box to
// type or paste a path in (Fyne's file dialog has none; issue 21): a
// missing file says so and keeps the dialog, Enter on a real one opens
// its review.
func TestOpenDataFileTakesATypedPath(t *testing.T) {
	h := newHarness(t)
	path, _ := filepath.Abs(filepath.Join("..", "..", "engine", "connector", "testdata", "earthquakes-head300.jsonl"))
	h.wb.showOpenFileDialog()
	top := h.w.Canvas().Overlays().Top()
	var entry *widget.Entry
	var problem *widget.Label
	if top != nil {
		for _, o := range test.LaidOutObjects(top) {
			switch x := o.(type) {
			case *widget.Entry:
				entry = x
			case *widget.Label:
				if x.Importance == widget.DangerImportance {
					problem = x
				}
			}
		}
	}
	if entry == nil || problem == nil {
		t.Fatal("Open data file… shows no path entry")
	}
	entry.SetText(path + ".missing")
	entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if !problem.Visible() || !strings.Contains(problem.Text, "no file") || h.w.Canvas().Overlays().Top() != top {
		t.Fatalf("a missing file: problem %q (visible %v)", problem.Text, problem.Visible())
	}
	entry.SetText(" '" + path + "' ") // as pasted from a shell
	entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	h.waitBG()
	r := h.wb.authoring().review
	if r == nil || r.Result().Path != path {
		t.Fatalf("review %+v; messages:\n%s", r, h.messages())
	}
}

// typeLines types text as typeKeys does, pressing Return for each "\n".
func (h *harness) typeLines(text string) {
	h.t.Helper()
	for i, line := range strings.Split(text, "\n") {
		if i > 0 {
			h.key(fyne.KeyReturn)
		}
		h.typeKeys(line)
	}
}

func TestCompletionEnterAfterAWordTypedInFullIsALineBreak(t *testing.T) {
	h := newHarness(t)
	h.newTab("")
	h.run("CREATE TABLE flights_live (x INT) WITH ('connector' = 'datagen')")
	tab := h.newTab("")
	h.w.Canvas().Focus(tab.ed)

	// "flights" is offered beside "flights_live": Enter keeps the word and
	// breaks the line, the popup closes.
	h.typeKeys("SELECT * FROM flights")
	if got := strings.Join(labels(h.popup()), ","); !strings.Contains(got, "flights/table") || !strings.Contains(got, "flights_live/table") {
		t.Fatalf("items %s", got)
	}
	h.key(fyne.KeyReturn)
	if h.wb.completionOpen(nil) {
		t.Error("the popup stays open after Enter")
	}
	h.typeKeys("WHERE x")
	if got := tab.ed.Text(); got != "SELECT * FROM flights\nWHERE x" {
		t.Errorf("editor %q", got)
	}

	// A keyword typed in lower case is typed in full too.
	tab.ed.SetText("")
	h.typeKeys("SELECT * from")
	if it := h.popup().Result().Items[h.popup().Selected()]; it.Label != "FROM" {
		t.Fatalf("selected %q", it.Label)
	}
	h.key(fyne.KeyReturn)
	if got := tab.ed.Text(); got != "SELECT * from\n" {
		t.Errorf("editor %q", got)
	}

	// Enter still completes a word begun, and an item chosen with the arrows.
	tab.ed.SetText("")
	h.typeKeys("SELECT * FROM flights_l")
	h.key(fyne.KeyReturn)
	if got := tab.ed.Text(); got != "SELECT * FROM flights_live" {
		t.Errorf("a begun word: editor %q", got)
	}
	tab.ed.SetText("")
	h.typeKeys("SELECT * FROM flights")
	p := h.popup()
	h.key(fyne.KeyDown)
	want := p.Result().Items[p.Selected()].Insert
	h.key(fyne.KeyReturn)
	if got := tab.ed.Text(); got != "SELECT * FROM "+want || want == "flights" {
		t.Errorf("a chosen item %q: editor %q", want, got)
	}
}

func TestCompletionKeepsTheLineBreaksOfATypedScript(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	h.w.Canvas().Focus(tab.ed)
	script := "CREATE TABLE t (\nid INT,\nname STRING\n) WITH (\n'connector' = 'datagen',\n'rows-per-second' = '1'\n)"
	h.typeLines(script)
	// the editor indents new lines; the lines themselves are the typed ones
	var got []string
	for _, l := range strings.Split(tab.ed.Text(), "\n") {
		got = append(got, strings.TrimSpace(l))
	}
	if strings.Join(got, "\n") != script {
		t.Errorf("editor\n%s\nwant\n%s", tab.ed.Text(), script)
	}
}
