package ui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/authoring"
	"github.com/riffle-sql/riffle/workbench/catalogbrowser"
	"github.com/riffle-sql/riffle/workbench/ui/querybuilder"
)

// openBuilder shows the builder on a new empty tab in mode.
func (h *harness) openBuilder(mode string) *querybuilder.Panel {
	h.t.Helper()
	tab := h.newTab("")
	tab.mode = mode
	b := h.wb.builder()
	if !b.Shown() {
		h.wb.toggleBuilder()
	}
	b.Follow(h.wb.builderTab(tab), true)
	return b
}

// followedTab is the editor tab the builder follows.
func followedTab(b *querybuilder.Panel) *editorTab { return b.Tab().(builderTab).t }

// TestFilterByValueOfACollection: ARRAY, MAP and ROW cells have no
// literal to filter with: the item says so, disabled; NULL and scalar
// cells keep their filters.
func TestFilterByValueOfACollection(t *testing.T) {
	h := newHarness(t)
	rt := h.runBatch("SELECT a, m, r, n FROM (VALUES (ARRAY['x', 'y'], MAP['k', 1], ROW(1, 'b'), 7), (CAST(NULL AS ARRAY<STRING>), MAP['j', 2], ROW(2, 'c'), 8)) AS t(a, m, r, n)")
	for col, typ := range map[int]string{1: "ARRAY<STRING> values", 2: "MAP<", 3: "ROW<"} {
		items := rt.cellActions(widget.TableCellID{Row: 0, Col: col})
		if len(items) != 1 || !items[0].Disabled || !strings.HasPrefix(items[0].Label, "Filter by value: not for "+typ) {
			var labels []string
			for _, it := range items {
				labels = append(labels, it.Label)
			}
			t.Errorf("column %d: %q", col, labels)
		}
	}
	// a NULL array filters with IS NULL
	tab := h.tab()
	rt2 := h.action(rt.cellActions(widget.TableCellID{Row: 1, Col: 1}), "Filter = NULL")
	if got := tab.ed.Text(); !strings.Contains(got, "WHERE a IS NULL") {
		t.Errorf("editor: %q", got)
	}
	if got := rows(rt2.Grid()); len(got) != 1 || !strings.HasSuffix(got[0], " | 8") {
		t.Errorf("rows %q", got)
	}
	if items := rt.cellActions(widget.TableCellID{Row: 0, Col: 4}); len(items) != 4 || items[0].Label != "Filter = 7" {
		t.Errorf("scalar cell: %d items", len(items))
	}
}

// TestBuilderSelfJoin: the second flights is f2, no key is guessed, and
// columns of both with the same name get unique output names.
func TestBuilderSelfJoin(t *testing.T) {
	h := newHarness(t)
	b := h.openBuilder(modeBatch)
	b.TableSelect().SetSelected("flights")
	b.JoinTableSelect().SetSelected("flights")
	test.Tap(b.JoinButton())
	if !strings.Contains(b.Status(), "incomplete key") || b.JoinRows()[0].Left.Selected != "" {
		t.Fatalf("self-join: status %q, key %q; SQL:\n%s", b.Status(), b.JoinRows()[0].Left.Selected, b.Statement())
	}
	// plain names in the pickers
	if !slices.Contains(b.JoinRows()[0].Left.Options, "f.date") || !slices.Contains(b.JoinRows()[0].Right.Options, "date") {
		t.Errorf("key choices %q / %q", b.JoinRows()[0].Left.Options, b.JoinRows()[0].Right.Options)
	}
	b.JoinRows()[0].Left.SetSelected("f.destination")
	b.JoinRows()[0].Right.SetSelected("origin")
	b.ColumnChecks()[authoring.ColumnRef{Table: "f", Name: "origin"}].SetChecked(true)
	b.ColumnChecks()[authoring.ColumnRef{Table: "f2", Name: "origin"}].SetChecked(true)
	want := "SELECT\n  f.origin,\n  f2.origin AS f2_origin\nFROM flights AS f\nJOIN flights AS f2\n  ON f.destination = f2.origin"
	if got := b.Statement(); got != want {
		t.Fatalf("self-join:\n%s\nwant\n%s", got, want)
	}
	// the engine's names (authoring's TestSelfJoin runs it on an extract)
	tab, err := h.wb.Env().SQLQuery(want)
	if err != nil {
		t.Fatal(err)
	}
	if names := strings.Join(tab.GetSchema().GetFieldNames(), ","); names != "origin,f2_origin" {
		t.Errorf("columns %s", names)
	}
}

// TestBuilderChecksNumbersAndTakesDates: a number out of the column's
// range is refused before it runs; a TIMESTAMP filter takes a date alone;
// the filter's column choice shows plain names; BETWEEN's inputs are one
// under the other.
func TestBuilderChecksNumbersAndTakesDates(t *testing.T) {
	h := newHarness(t)
	b := h.openBuilder(modeBatch)
	b.TableSelect().SetSelected("flights")
	test.Tap(b.AddFilterButton())
	r := b.FilterRows()[0]
	if !slices.Contains(r.Column.Options, "date") || slices.Contains(r.Column.Options, "`date`") {
		t.Errorf("column choices %q", r.Column.Options)
	}
	r.Column.SetSelected("delay")
	r = b.FilterRows()[0]
	r.Values[0].SetText("1e400")
	if !strings.Contains(b.Status(), "✕ filter on delay: '1e400' is out of the range of DOUBLE") || strings.Contains(b.Statement(), "1e400") {
		t.Errorf("1e400: status %q, SQL %q", b.Status(), b.Statement())
	}
	b.FilterRows()[0].Values[0].SetText("3000000000")
	if !strings.Contains(b.Status(), "out of the range of INT") || strings.Contains(b.Statement(), "3000000000") {
		t.Errorf("3000000000: status %q, SQL %q", b.Status(), b.Statement())
	}
	b.FilterRows()[0].Values[0].SetText("30")
	if got := b.Statement(); got != "SELECT *\nFROM flights\nWHERE delay = 30" {
		t.Errorf("SQL %q, status %q", got, b.Status())
	}
	test.Tap(b.FilterRows()[0].Remove)
	test.Tap(b.AddFilterButton())
	b.FilterRows()[0].Column.SetSelected("date")
	b.FilterRows()[0].Op.SetSelected("BETWEEN")
	r = b.FilterRows()[0]
	r.Values[0].SetText("2001-01-01")
	r.Values[1].SetText("2001-01-02")
	if got := b.Statement(); got != "SELECT *\nFROM flights\nWHERE `date` BETWEEN TIMESTAMP '2001-01-01 00:00:00' AND TIMESTAMP '2001-01-02 00:00:00'" {
		t.Errorf("SQL %q, status %q", got, b.Status())
	}
	if r.Values[0].Size().Width < 150 || r.Values[1].Size().Width < 150 {
		t.Errorf("BETWEEN inputs %v and %v wide", r.Values[0].Size().Width, r.Values[1].Size().Width)
	}
}

// TestBuilderMessagesGiveEditorLines: SQL the builder cannot show is
// located by its line in the editor, not in the statement.
func TestBuilderMessagesGiveEditorLines(t *testing.T) {
	h := newHarness(t)
	b := h.openBuilder(modeBatch)
	tab := followedTab(b)
	tab.ed.SetText("SELECT 1;\n\n-- the next one\n\n\n\nSELECT origin\nFROM flights\nGROUP BY origin HAVING COUNT(*) > 1")
	tab.ed.SetCursorOffset(len(tab.ed.Text()) - 2)
	h.wb.builderEditorChanged(tab)
	if !strings.Contains(b.Status(), "HAVING") || !strings.Contains(b.Status(), "(line 9, column 24)") {
		t.Errorf("status %q", b.Status())
	}
}

// TestBuilderRewriteScrollsToTheLeft: after the builder replaces the
// statement, the editor shows its lines from column 0.
func TestBuilderRewriteScrollsToTheLeft(t *testing.T) {
	h := newHarness(t)
	b := h.openBuilder(modeBatch)
	tab := followedTab(b)
	long := "SELECT origin, destination, delay, distance FROM flights WHERE origin = 'SFO' AND destination = 'LAX' AND delay > 10"
	tab.ed.SetText(long)
	tab.ed.SetCursorOffset(len(long))
	h.wb.builderEditorChanged(tab)
	if tab.ed.FirstVisibleColumn() == 0 {
		t.Skipf("the editor (%v wide) shows the whole line", tab.ed.Size().Width)
	}
	b.ColumnChecks()[authoring.ColumnRef{Name: "distance"}].SetChecked(false)
	if !strings.HasPrefix(tab.ed.Text(), "SELECT\n  origin,") || tab.ed.FirstVisibleColumn() != 0 {
		t.Errorf("after the rewrite: left column %d, text %q", tab.ed.FirstVisibleColumn(), tab.ed.Text())
	}
}

func TestBuilderWindowedHourlyDelayPerAirportByClicking(t *testing.T) {
	h := newHarness(t)
	name := h.createFlightsWithRowtime()
	b := h.openBuilder(modeStreaming)
	if !contains(b.TableSelect().Options, name) {
		t.Fatalf("table list %v", b.TableSelect().Options)
	}
	b.TableSelect().SetSelected(name)
	if got := followedTab(b).ed.Text(); got != "SELECT *\nFROM "+name {
		t.Fatalf("editor after choosing the table: %q", got)
	}
	b.ColumnChecks()[authoring.ColumnRef{Name: "origin"}].SetChecked(true)
	b.Aggregates()[authoring.ColumnRef{Name: "delay"}].SetSelected("AVG")
	if b.WindowForm() == nil || !contains(b.WindowForm().Available, "date") {
		t.Fatalf("no window form for the rowtime table")
	}
	b.WindowForm().Kind.SetSelected("TUMBLE")
	if b.WindowForm().TimeCol.Selected != "date" || b.WindowForm().Size.Text != "1" || b.WindowForm().SizeUnit.Selected != "HOUR" {
		t.Errorf("window defaults: %s %s %s", b.WindowForm().TimeCol.Selected, b.WindowForm().Size.Text, b.WindowForm().SizeUnit.Selected)
	}
	want := "SELECT\n" +
		"  window_start,\n" +
		"  window_end,\n" +
		"  origin,\n" +
		"  AVG(delay) AS avg_delay\n" +
		"FROM TABLE(TUMBLE(TABLE " + name + ", DESCRIPTOR(`date`), INTERVAL '1' HOUR))\n" +
		"GROUP BY window_start, window_end, origin"
	if got := followedTab(b).ed.Text(); got != want {
		t.Fatalf("editor:\n%s\nwant\n%s", got, want)
	}
	if !strings.HasPrefix(b.Status(), "✓") {
		t.Errorf("status %q", b.Status())
	}
	// Copy as Go
	test.Tap(b.GoButton())
	if !strings.Contains(b.LastGo(), "Window(table.TumbleOver(table.Lit(1).Hours()).On(table.Col(\"date\")).Alias(\"w\"))") {
		t.Errorf("Go code:\n%s", b.LastGo())
	}
	// Run: window TVFs come with the streaming work; until then the
	// engine says so (and the rows come once it can).
	before := len(h.wb.results)
	test.Tap(b.RunButton())
	h.settle()
	if len(h.wb.results) > before {
		rt := h.wb.results[len(h.wb.results)-1]
		h.until("first windows", func() bool { return rt.Grid().Total() > 0 || !rt.IsRunning() })
		if rt.Grid().Total() == 0 {
			t.Errorf("no windows; messages:\n%s", h.messages())
		}
		rt.Stop()
	} else if !strings.Contains(h.messages(), "TUMBLE is not supported yet") {
		t.Errorf("the windowed query neither ran nor was refused for the TVF; messages:\n%s", h.messages())
	}
}

func TestBuilderFollowsTheEditorAndRoundTrips(t *testing.T) {
	h := newHarness(t)
	b := h.openBuilder(modeBatch)
	tab := followedTab(b)
	h.w.Canvas().Focus(tab.ed)
	h.typeKeys("SELECT origin, COUNT(*) AS cnt FROM flights WHERE delay > 60 AND `date` >= TIMESTAMP '2001-01-01 06:00:00' AND destination IN ('SFO', 'LAX') GROUP BY origin ORDER BY cnt DESC LIMIT 5")
	h.wb.closeCompletion()
	if b.Query() == nil || b.Unsupported() != "" {
		t.Fatalf("builder: q %v, unsupported %q", b.Query(), b.Unsupported())
	}
	if !b.ColumnChecks()[authoring.ColumnRef{Name: "origin"}].Checked || b.ColumnChecks()[authoring.ColumnRef{Name: "delay"}].Checked || !b.CountStar().Checked {
		t.Error("column ticks do not follow the SQL")
	}
	if len(b.FilterRows()) != 3 || b.FilterRows()[0].Op.Selected != ">" || b.FilterRows()[0].Values[0].Text != "60" ||
		b.FilterRows()[1].Pick == nil || b.FilterRows()[2].Op.Selected != "IN" || b.FilterRows()[2].Values[0].Text != "SFO, LAX" {
		t.Fatalf("filters: %d rows", len(b.FilterRows()))
	}
	if len(b.OrderRows()) != 1 || b.OrderRows()[0].Column.Selected != "cnt" || b.OrderRows()[0].Dir.Selected != "DESC" || b.Limit().Text != "5" {
		t.Errorf("order/limit: %+v, limit %q", b.OrderRows(), b.Limit().Text)
	}
	// builder edits go back into the editor
	b.Limit().SetText("10")
	b.FilterRows()[0].Values[0].SetText("90")
	b.FilterRows()[2].Values[0].SetText("SFO, LAX, ORD")
	b.OrderRows()[0].Dir.SetSelected("ASC")
	want := "SELECT\n  origin,\n  COUNT(*) AS cnt\nFROM flights\nWHERE delay > 90 AND `date` >= TIMESTAMP '2001-01-01 06:00:00' AND destination IN ('SFO', 'LAX', 'ORD')\nGROUP BY origin\nORDER BY cnt\nLIMIT 10"
	if got := tab.ed.Text(); got != want {
		t.Fatalf("editor:\n%s\nwant\n%s", got, want)
	}
	// round trip: the editor's SQL reads back to the same query
	q, err := authoring.ParseQuery(tab.ed.Text())
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := q.SQL(); s != want {
		t.Errorf("round trip:\n%s", s)
	}
	// the query runs
	rt := h.runStatement()
	h.waitDone(rt)
	rt.Refresh(true)
	if got := rows(rt.Grid()); len(got) != 10 || !strings.HasSuffix(got[0], " | 1") {
		t.Errorf("rows %q; messages:\n%s", got, h.messages())
	}
	// untick origin: no plain columns left, still grouped by nothing
	b.ColumnChecks()[authoring.ColumnRef{Name: "origin"}].SetChecked(false)
	if got := tab.ed.Text(); !strings.HasPrefix(got, "SELECT COUNT(*) AS cnt\nFROM flights") || strings.Contains(got, "GROUP BY") {
		t.Errorf("after unticking origin:\n%s", got)
	}
	// removing a filter
	test.Tap(b.FilterRows()[1].Remove)
	if strings.Contains(tab.ed.Text(), "`date`") {
		t.Errorf("filter not removed:\n%s", tab.ed.Text())
	}
}

func TestBuilderLeavesSQLItCannotShowAlone(t *testing.T) {
	h := newHarness(t)
	b := h.openBuilder(modeBatch)
	tab := followedTab(b)
	union := "SELECT origin FROM flights UNION SELECT destination FROM flights"
	tab.ed.SetText(union)
	tab.ed.SetCursorOffset(3)
	h.wb.builderEditorChanged(tab)
	if b.Query() != nil || !strings.Contains(b.Status(), "cannot show") || !strings.Contains(b.Status(), "UNION") {
		t.Fatalf("status %q", b.Status())
	}
	// choosing a table starts a new query after it; the UNION stays
	b.TableSelect().SetSelected("airports")
	if got := tab.ed.Text(); got != union+";\n\nSELECT *\nFROM airports" {
		t.Fatalf("editor %q", got)
	}
	b.ColumnChecks()[authoring.ColumnRef{Name: "state"}].SetChecked(true)
	if got := tab.ed.Text(); got != union+";\n\nSELECT state\nFROM airports" {
		t.Fatalf("editor %q", got)
	}
	// the cursor back in the UNION: the builder says so again
	tab.ed.SetCursorOffset(3)
	if b.Query() != nil || !strings.Contains(b.Status(), "UNION") {
		t.Errorf("after moving back: status %q", b.Status())
	}
	// an edit that leaves the builder's language is not overwritten
	tab.ed.SetCursorOffset(len(tab.ed.Text()))
	tab.ed.InsertAtCursor(" HAVING COUNT(*) > 1")
	if b.Query() != nil || !strings.Contains(b.Status(), "HAVING") {
		t.Errorf("HAVING: status %q", b.Status())
	}
}

func TestBuilderJoinsWithSuggestedKeys(t *testing.T) {
	h := newHarness(t)
	b := h.openBuilder(modeBatch)
	h.settle()
	for _, ddl := range []string{
		"CREATE TABLE orders (order_id BIGINT, customer_id BIGINT, amount DOUBLE) WITH ('connector' = 'datagen', 'number-of-rows' = '10')",
		"CREATE TABLE customers (id BIGINT, name STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'datagen', 'number-of-rows' = '10')",
	} {
		if _, err := h.wb.Env().ExecuteSQL(ddl); err != nil {
			t.Fatal(err)
		}
	}
	b.ReloadTables()
	b.TableSelect().SetSelected("orders")
	b.ColumnChecks()[authoring.ColumnRef{Name: "amount"}].SetChecked(true)
	b.JoinTableSelect().SetSelected("customers")
	test.Tap(b.JoinButton())
	want := "SELECT o.amount\nFROM orders AS o\nJOIN customers AS c\n  ON o.customer_id = c.id"
	if got := b.Statement(); got != want {
		t.Fatalf("join:\n%s\nwant\n%s", got, want)
	}
	// the joined table's columns can be ticked, the kind changed
	b.ColumnChecks()[authoring.ColumnRef{Table: "c", Name: "name"}].SetChecked(true)
	b.JoinRows()[0].Kind.SetSelected("LEFT")
	if got := b.Statement(); got != "SELECT\n  o.amount,\n  c.name\nFROM orders AS o\nLEFT JOIN customers AS c\n  ON o.customer_id = c.id" {
		t.Fatalf("join 2:\n%s", got)
	}
	// flights and airports: no key is suggested; the user picks one
	b.TableSelect().SetSelected("flights")
	b.JoinTableSelect().SetSelected("airports")
	test.Tap(b.JoinButton())
	if !strings.Contains(b.Status(), "incomplete key") {
		t.Errorf("status %q", b.Status())
	}
	b.JoinRows()[0].Left.SetSelected("f.origin")
	b.JoinRows()[0].Right.SetSelected("iata")
	b.ColumnChecks()[authoring.ColumnRef{Table: "a", Name: "state"}].SetChecked(true)
	if got := b.Statement(); got != "SELECT a.state\nFROM flights AS f\nJOIN airports AS a\n  ON f.origin = a.iata" {
		t.Fatalf("flights join:\n%s", got)
	}
	// removing the join unqualifies the columns again
	test.Tap(b.JoinRows()[0].Remove)
	if got := b.Statement(); got != "SELECT *\nFROM flights" {
		t.Errorf("after removing the join: %q", got)
	}
}

func TestBuilderFilterInputsFitTheType(t *testing.T) {
	h := newHarness(t)
	b := h.openBuilder(modeBatch)
	if _, err := h.wb.Env().ExecuteSQL("CREATE TABLE kinds (n INT, s STRING, ok BOOLEAN, d DATE, ts TIMESTAMP(3)) WITH ('connector' = 'datagen', 'number-of-rows' = '5')"); err != nil {
		t.Fatal(err)
	}
	b.ReloadTables()
	b.TableSelect().SetSelected("kinds")
	add := func(col, op string) *querybuilder.FilterRow {
		test.Tap(b.AddFilterButton())
		r := b.FilterRows()[len(b.FilterRows())-1]
		r.Column.SetSelected(col)
		r = b.FilterRows()[len(b.FilterRows())-1]
		r.Op.SetSelected(op)
		return b.FilterRows()[len(b.FilterRows())-1]
	}
	// a filter without its value yet is left out of the SQL, with a hint
	test.Tap(b.AddFilterButton())
	if got := b.Statement(); got != "SELECT *\nFROM kinds" || !strings.HasPrefix(b.Status(), "Enter the value of the filter on n") {
		t.Fatalf("incomplete filter: %q, status %q", got, b.Status())
	}
	test.Tap(b.FilterRows()[0].Remove)
	r := add("n", "BETWEEN")
	if len(r.Values) != 2 || r.Values[0].PlaceHolder != "number" {
		t.Fatalf("BETWEEN inputs: %d", len(r.Values))
	}
	r.Values[0].SetText("1")
	r.Values[1].SetText("9")
	r = add("s", "LIKE")
	if !strings.Contains(r.Values[0].PlaceHolder, "%") {
		t.Errorf("LIKE placeholder %q", r.Values[0].PlaceHolder)
	}
	r.Values[0].SetText("a%")
	r = add("ok", "=")
	if r.Bool == nil {
		t.Fatal("no TRUE/FALSE choice for a BOOLEAN")
	}
	r.Bool.SetSelected("TRUE")
	r = add("d", "<")
	if r.Pick == nil || r.Values[0].PlaceHolder != "yyyy-MM-dd" {
		t.Fatal("no date picker for a DATE")
	}
	r.Values[0].SetText("2024-02-01")
	r = add("ts", ">=")
	if r.Pick == nil {
		t.Fatal("no date picker for a TIMESTAMP")
	}
	r.Values[0].SetText("2024-01-01 12:30:00")
	test.Tap(r.Pick)
	cal := h.w.Canvas().Overlays().Top()
	if cal == nil {
		t.Fatal("no calendar")
	}
	h.w.Canvas().Overlays().Remove(cal)
	r = add("s", "IS NOT NULL")
	if len(r.Values) != 0 {
		t.Errorf("IS NOT NULL has %d inputs", len(r.Values))
	}
	r = add("s", "NOT IN")
	r.Values[0].SetText("x, y")
	want := "SELECT *\nFROM kinds\nWHERE n BETWEEN 1 AND 9 AND s LIKE 'a%' AND ok = TRUE AND d < DATE '2024-02-01' AND ts >= TIMESTAMP '2024-01-01 12:30:00' AND s IS NOT NULL AND s NOT IN ('x', 'y')"
	if got := b.Statement(); got != want {
		t.Fatalf("filters:\n%s\nwant\n%s", got, want)
	}
	// a value that does not fit is reported, the SQL is kept
	b.FilterRows()[0].Values[0].SetText("one")
	if !strings.Contains(b.Status(), "'one' is not a number") || b.Statement() != want {
		t.Errorf("bad number: status %q", b.Status())
	}
}

func TestBuilderTakesATableDraggedFromTheCatalog(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	b := h.wb.builder()
	ref := catalogbrowser.Ref{Catalog: "default_catalog", Database: "default_database", Object: "airports", Kind: catalogbrowser.KindTable}
	d := fyne.CurrentApp().Driver()
	// hidden builder: dropping on the editor area opens it
	at := d.AbsolutePositionForObject(h.wb.editors.tabs).Add(fyne.NewPos(50, 80))
	h.wb.catalogDragged(ref, at)
	if !strings.Contains(b.DragLabel(), "query builder") {
		t.Errorf("drag label %q", b.DragLabel())
	}
	h.wb.catalogDropped(ref, at)
	if !b.Shown() || tab.ed.Text() != "SELECT *\nFROM airports" {
		t.Fatalf("shown %v, editor %q", b.Shown(), tab.ed.Text())
	}
	// a drop elsewhere (the catalog tree) does nothing
	h.wb.catalogDropped(catalogbrowser.Ref{Catalog: "default_catalog", Database: "default_database", Object: "flights"}, d.AbsolutePositionForObject(h.wb.catalog).Add(fyne.NewPos(5, 5)))
	if tab.ed.Text() != "SELECT *\nFROM airports" {
		t.Errorf("editor %q", tab.ed.Text())
	}
	// View ▸ Query builder hides it again
	h.wb.toggleBuilder()
	if b.Shown() || h.wb.authoring().builderMenu.Checked {
		t.Error("still shown")
	}
}
