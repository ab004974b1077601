package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/ui/resultgrid"
	"github.com/riffle-sql/riffle/workbench/ui/resulttab"
)

func TestFirstStartOpensTheDemoWorkspace(t *testing.T) {
	h := newHarness(t)
	var titles []string
	for _, tab := range h.wb.editors.list {
		titles = append(titles, tab.title+"/"+tab.mode)
	}
	if got, want := strings.Join(titles, ", "), "Delays by state/Batch, Flights by hour/Batch, Live stream/Streaming, Live flights/Streaming, Kafka flights/Streaming"; got != want {
		t.Errorf("tabs %q, want %q", got, want)
	}
	h.wb.catalog.OpenPath("default_catalog", "default_database", "flights")
	got := strings.Join(h.wb.catalog.VisibleLabels(), "\n")
	for _, want := range []string{"    airports", "    flights", "      date TIMESTAMP(0)", "      delay INT", "      origin STRING"} {
		if !strings.Contains(got, want) {
			t.Errorf("catalog lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(h.messages(), "ERROR") {
		t.Errorf("the init script failed:\n%s", h.messages())
	}
}

func TestDemoBatchAggregateShowsRealRows(t *testing.T) {
	h := newHarness(t)
	tab := h.tab()
	// Put the cursor inside the SELECT of the first demo tab.
	off := strings.Index(tab.ed.Text(), "SELECT a.state")
	tab.ed.SetCursorOffset(off + 3)
	rt := h.runStatement()
	if rt == nil {
		t.Fatalf("no result tab; messages:\n%s", h.messages())
	}
	h.waitDone(rt)
	if s := rt.State(); s != resulttab.Finished {
		t.Fatalf("state %s; messages:\n%s", s, h.messages())
	}
	got := rows(rt.Grid())
	if len(got) != 20 {
		t.Fatalf("%d rows: %q", len(got), got)
	}
	// CA has the most departures in the sample (checked with sqlite3 by
	// the engine's golden tests).
	if !strings.HasPrefix(got[0], "CA | 27847 | ") || !strings.HasPrefix(got[1], "TX | 27264 | ") {
		t.Errorf("first rows %q", got[:2])
	}
	// The cells on screen: numbers right-aligned, strings left-aligned.
	cells := drawnCells(rt.Grid())
	state, deps := cells[widget.TableCellID{Row: 0, Col: 1}], cells[widget.TableCellID{Row: 0, Col: 2}]
	if state == nil || deps == nil {
		t.Fatalf("cells not drawn: %d cells", len(cells))
	}
	if state.Text() != "CA" || state.Align() != fyne.TextAlignLeading || deps.Text() != "27847" || deps.Align() != fyne.TextAlignTrailing {
		t.Errorf("drawn cells %q/%v and %q/%v", state.Text(), state.Align(), deps.Text(), deps.Align())
	}
	if num := cells[widget.TableCellID{Row: 1, Col: 0}]; num == nil || num.Text() != "2" || num.Kind() != resultgrid.RowNumCell {
		t.Errorf("row number cell %+v", num)
	}
	if !strings.Contains(rt.StatusLabel().Text, "20 rows") || rt.StateLabel().Text != resulttab.Finished {
		t.Errorf("status %q, state %q", rt.StatusLabel().Text, rt.StateLabel().Text)
	}
}

func TestTypeAQueryRunItAndReadTheGrid(t *testing.T) {
	h := newHarness(t)
	h.newTab("SELECT 42 AS answer, 'x' AS s, CAST(NULL AS STRING) AS n, '' AS e, 2.5 AS d")
	rt := h.runStatement()
	if rt == nil {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	h.waitDone(rt)
	if got := rows(rt.Grid()); len(got) != 1 || got[0] != "42 | x | ∅ |  | 2.5" {
		t.Errorf("rows %q", got)
	}
	cells := drawnCells(rt.Grid())
	if c := cells[widget.TableCellID{Row: 0, Col: 3}]; c == nil || c.Kind() != resultgrid.NullCell {
		t.Errorf("NULL cell %+v", c)
	}
	if c := cells[widget.TableCellID{Row: 0, Col: 4}]; c == nil || c.Kind() != resultgrid.ValueCell || c.Text() != "" {
		t.Errorf("empty-string cell %+v", c)
	}
	var headers []string
	hs := drawnHeaders(rt.Grid())
	for c := 0; c < len(hs); c++ {
		if hc := hs[c]; hc != nil {
			headers = append(headers, strings.TrimSpace(hc.Name()+" "+hc.TypeName()))
		}
	}
	if got := strings.Join(headers, ", "); got != "#, answer INT NOT NULL, s CHAR(1) NOT NULL, n STRING, e CHAR(0) NOT NULL, d DECIMAL(2, 1) NOT NULL" {
		t.Errorf("headers %q", got)
	}
	if h.wb.history.Entries()[0].Statement != "SELECT 42 AS answer, 'x' AS s, CAST(NULL AS STRING) AS n, '' AS e, 2.5 AS d" {
		t.Errorf("history %+v", h.wb.history.Entries()[0])
	}
}

func TestErrorMarksTheEditorAndShowsTheMessage(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	tab.ed.SetText("SELECT 1;\nSELECT pric\nFROM (VALUES (1)) AS t(price);")
	tab.ed.SetCursor(1, 3)
	h.runStatement()
	m := tab.ed.ErrorMarkers()
	if len(m) != 1 || m[0].Line != 1 || m[0].Col != 7 || !strings.Contains(m[0].Message, "Column 'pric' not found") {
		t.Fatalf("markers %+v", m)
	}
	if !strings.Contains(h.messages(), "did you mean 'price'?") {
		t.Errorf("messages:\n%s", h.messages())
	}
	if h.wb.bottom.Selected() != h.wb.messages.item {
		t.Error("the Messages tab is not shown")
	}
	// A syntax error on the first line of the script.
	tab.ed.SetText("SELECT * FORM t")
	h.runStatement()
	m = tab.ed.ErrorMarkers()
	if len(m) != 1 || m[0].Line != 0 || m[0].Col != 9 {
		t.Fatalf("syntax error markers %+v", m)
	}
	// Running again clears the old marker.
	tab.ed.SetText("SELECT 1")
	h.runStatement()
	if m := tab.ed.ErrorMarkers(); len(m) != 0 {
		t.Errorf("markers after a good run: %+v", m)
	}
}

func TestCatalogShowsATableCreatedByDDL(t *testing.T) {
	h := newHarness(t)
	h.newTab("CREATE TABLE clicks (url STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen')")
	h.runStatement()
	h.wb.catalog.OpenPath("default_catalog", "default_database", "clicks")
	got := strings.Join(h.wb.catalog.VisibleLabels(), "\n")
	if !strings.Contains(got, "    clicks\n      url STRING\n      ts TIMESTAMP(3) · ROWTIME\n      WATERMARK FOR ts AS `ts`") {
		t.Errorf("catalog:\n%s", got)
	}
	if !strings.Contains(h.wb.initScript, "CREATE TABLE clicks") {
		t.Errorf("the DDL was not recorded in the init script:\n%s", h.wb.initScript)
	}
}

func TestStreamingQueryUpdatesTheGridAndStopCancels(t *testing.T) {
	h := newHarness(t)
	h.newTab(`CREATE TEMPORARY TABLE s (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '2000',
  'fields.k.min' = '1', 'fields.k.max' = '3');
SELECT k, COUNT(*) AS n FROM s GROUP BY k`)
	h.runAll()
	if len(h.wb.results) != 1 {
		t.Fatalf("%d results; messages:\n%s", len(h.wb.results), h.messages())
	}
	rt := h.wb.results[0]
	if rt.State() != resulttab.Running || rt.StateLabel().Text != resulttab.Running {
		t.Fatalf("state %s / %q", rt.State(), rt.StateLabel().Text)
	}
	total := func() int {
		sum := 0
		for _, r := range rows(rt.Grid()) {
			var k, n int
			fmt.Sscanf(r, "%d | %d", &k, &n)
			sum += n
		}
		return sum
	}
	h.until("three keys in the grid", func() bool { return len(rows(rt.Grid())) == 3 })
	if c := drawnCells(rt.Grid())[widget.TableCellID{Row: 0, Col: 0}]; c == nil || c.Text() != "1" {
		t.Errorf("the first row is not drawn: %+v", c)
	}
	first := total()
	h.until("the counts to grow", func() bool { return total() > first+100 })
	// The changelog view shows the op column.
	rt.ViewSelect().SetSelected("Changelog")
	h.until("changes in the changelog view", func() bool { return rt.Grid().Total() > 0 })
	if op, _, _ := rt.Grid().CellText(0, 1); op != "+I" {
		t.Errorf("first change %q", op)
	}
	rt.ViewSelect().SetSelected("Table")
	// Esc (Stop) cancels the job started from this tab.
	h.tab().ed.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	// The reader stops first and the result says STOPPING until the job
	// has ended as well (TestStopSaysStoppingUntilTheJobHasEnded): wait
	// for both, then a tick draws the end.
	h.waitDone(rt)
	h.until("the job to end", func() bool { return rt.Job.Status().IsTerminal() })
	h.wb.Tick()
	h.q.drain()
	if rt.State() != resulttab.Canceled || rt.StateLabel().Text != resulttab.Canceled {
		t.Errorf("after Stop: %s / %q", rt.State(), rt.StateLabel().Text)
	}
	if st := rt.Job.Status(); st != table.JobCanceled {
		t.Errorf("job status %v", st)
	}
	if !rt.StopButton().Disabled() {
		t.Error("Stop is still enabled")
	}
}

func TestPauseFreezesTheGridWhileTheQueryRuns(t *testing.T) {
	h := newHarness(t)
	h.newTab(`CREATE TEMPORARY TABLE s (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000');
SELECT k FROM s`)
	h.runAll()
	rt := h.wb.results[0]
	h.until("rows", func() bool { return rt.Grid().Total() > 10 })
	rt.PauseButton().OnTapped()
	h.wb.Tick()
	if rt.State() != resulttab.Paused || rt.StateLabel().Text != resulttab.Paused || rt.PauseButton().Text != "Resume" {
		t.Fatalf("state %s / %q, button %q", rt.State(), rt.StateLabel().Text, rt.PauseButton().Text)
	}
	frame := rt.Grid().Total()
	changes := rt.Res.Stats().Changes
	h.until("the job to keep producing", func() bool { return rt.Res.Stats().Changes > changes+50 })
	if rt.Grid().Total() != frame || len(rows(rt.Grid())) != min(frame, rt.Grid().PageSize()) {
		t.Errorf("paused grid moved: %d -> %d rows", frame, rt.Grid().Total())
	}
	rt.PauseButton().OnTapped()
	h.until("the grid to catch up", func() bool { return rt.Grid().Total() > frame+50 })
	rt.StopButton().OnTapped()
	h.waitDone(rt)
}

func TestSortAndCopyAsTSV(t *testing.T) {
	h := newHarness(t)
	h.newTab("SELECT * FROM (VALUES (3, 'c'), (1, 'a\tb'), (2, CAST(NULL AS STRING))) AS t(n, s)")
	rt := h.runStatement()
	h.waitDone(rt)
	h.wb.Tick()
	rt.Grid().HeaderTapped(1) // n ascending
	if got := strings.Join(rows(rt.Grid()), ";"); got != "1 | a\tb;2 | ∅;3 | c" {
		t.Errorf("ascending: %q", got)
	}
	rt.Grid().HeaderTapped(1) // descending
	if got := strings.Join(rows(rt.Grid()), ";"); got != "3 | c;2 | ∅;1 | a\tb" {
		t.Errorf("descending: %q", got)
	}
	rt.Grid().HeaderTapped(1) // arrival order
	if got := strings.Join(rows(rt.Grid()), ";"); got != "3 | c;1 | a\tb;2 | ∅" {
		t.Errorf("unsorted: %q", got)
	}
	rt.Grid().SelectAll()
	cb := fyne.CurrentApp().Clipboard()
	rt.Grid().TypedShortcut(&fyne.ShortcutCopy{Clipboard: cb})
	if got := cb.Content(); got != "3\tc\n1\t\"a\tb\"\n2\t\n" {
		t.Errorf("TSV %q", got)
	}
	// Shift+arrows extend a selection.
	rt.Grid().SelectRange(0, 1, 0, 1)
	rt.Grid().KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	rt.Grid().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	rt.Grid().TypedKey(&fyne.KeyEvent{Name: fyne.KeyRight})
	rt.Grid().KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
	if got := rt.Grid().SelectionTSV(false); got != "3\tc\n1\t\"a\tb\"\n" {
		t.Errorf("after Shift+Down, Shift+Right: %q", got)
	}
	rt.Grid().SelectRange(1, 2, 2, 2)
	rt.Grid().CopySelection(cb, true)
	if got := cb.Content(); got != "s\n\"a\tb\"\n\n" {
		t.Errorf("TSV with header %q", got)
	}
}

func TestSortIsRefusedWhileRunning(t *testing.T) {
	h := newHarness(t)
	h.newTab(`CREATE TEMPORARY TABLE s (k INT) WITH ('connector' = 'datagen', 'rows-per-second' = '100');
SELECT k FROM s`)
	h.runAll()
	rt := h.wb.results[0]
	rt.Grid().HeaderTapped(1)
	if !strings.Contains(h.wb.statusLeft.Text, "when the query has finished") {
		t.Errorf("status %q", h.wb.statusLeft.Text)
	}
	rt.Stop()
	h.waitDone(rt)
}

func TestPagesOfALargeResult(t *testing.T) {
	h := newHarness(t)
	h.wb.env.Config().Set("parallelism.default", "1") // one datagen split: the rows in sequence order
	h.newTab("CREATE TEMPORARY TABLE g (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '2500', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '2500');\nSELECT n FROM g")
	h.runAll()
	rt := h.wb.results[0]
	h.waitDone(rt)
	rt.Grid().SetPageSize(1000)
	rt.Refresh(true)
	if p := rt.Grid().Pages(); p != 3 || !rt.Pager().Visible() {
		t.Fatalf("%d pages, pager visible %v", p, rt.Pager().Visible())
	}
	rt.Grid().SetPage(2)
	got := rows(rt.Grid())
	if len(got) != 500 || got[0] != "2001" || got[499] != "2500" {
		t.Errorf("last page: %d rows, %q … %q", len(got), got[0], got[len(got)-1])
	}
	if n, _, _ := rt.Grid().CellText(0, 0); n != "2001" {
		t.Errorf("row number %q", n)
	}
	if !strings.Contains(rt.PageLabel().Text, "Rows 2,001–2,500 of 2,500") {
		t.Errorf("pager %q", rt.PageLabel().Text)
	}
}

func TestCapDropsRowsAndSaysSo(t *testing.T) {
	h := newHarness(t, func(o *Options) { o.MaxTableRows = 100 })
	h.wb.env.Config().Set("parallelism.default", "1") // one datagen split: the rows in sequence order
	h.newTab("CREATE TEMPORARY TABLE g (n BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '250', 'fields.n.kind' = 'sequence', 'fields.n.start' = '1', 'fields.n.end' = '250');\nSELECT n FROM g")
	h.runAll()
	rt := h.wb.results[0]
	h.waitDone(rt)
	rt.Refresh(true)
	if !strings.Contains(rt.StatusLabel().Text, "100 rows · 150 rows dropped by the cap") {
		t.Errorf("status %q", rt.StatusLabel().Text)
	}
	if got := rows(rt.Grid()); got[0] != "151" {
		t.Errorf("first kept row %q", got[0])
	}
}

func TestShowAndExplainResults(t *testing.T) {
	h := newHarness(t)
	h.newTab("SHOW TABLES;\nEXPLAIN SELECT * FROM flights WHERE delay > 10")
	h.runAll()
	if len(h.wb.results) != 2 {
		t.Fatalf("%d results; messages:\n%s", len(h.wb.results), h.messages())
	}
	if got := rows(h.wb.results[0].Grid()); strings.Join(got, ",") != "airports,flights" {
		t.Errorf("SHOW TABLES %q", got)
	}
	ex := h.wb.results[1]
	if ex.Grid() != nil || !strings.Contains(ex.Text, "== Optimized Physical Plan ==") {
		t.Errorf("EXPLAIN result %q", ex.Text)
	}
}

func TestCatalogPreviewAndShowDDL(t *testing.T) {
	h := newHarness(t)
	ref := struct{ cat, db, obj string }{"default_catalog", "default_database", "airports"}
	h.wb.catalog.OpenPath(ref.cat, ref.db)
	m := h.wb.catalog.MenuFor("o\x1f" + ref.cat + "\x1f" + ref.db + "\x1f" + ref.obj)
	m.Items[0].Action() // Preview
	h.settle()
	m.Items[1].Action() // Show DDL
	h.settle()
	if len(h.wb.results) != 2 {
		t.Fatalf("%d results; messages:\n%s", len(h.wb.results), h.messages())
	}
	prev := h.wb.results[0]
	h.waitDone(prev)
	prev.Refresh(true)
	if n := len(rows(prev.Grid())); n != 100 {
		t.Errorf("preview has %d rows", n)
	}
	if !strings.HasPrefix(prev.Title, "#1 Preview of airports") {
		t.Errorf("title %q", prev.Title)
	}
	if ddl := h.wb.results[1].Text; !strings.Contains(ddl, "CREATE TABLE `default_catalog`.`default_database`.`airports`") {
		t.Errorf("DDL %q", ddl)
	}
	// Insert name: at the editor's cursor.
	tab := h.newTab("SELECT * FROM ")
	m.Items[2].Action()
	if tab.ed.Text() != "SELECT * FROM airports" {
		t.Errorf("editor %q", tab.ed.Text())
	}
}

func TestViewSwitchKeepsTheFinishedResult(t *testing.T) {
	h := newHarness(t)
	h.wb.env.Config().Set("parallelism.default", "1") // the rows and changelog in one task's order
	h.newTab("SELECT k, COUNT(*) AS c FROM (VALUES (1), (1), (2)) AS t(k) GROUP BY k")
	h.tab().mode = modeStreaming
	rt := h.runStatement()
	h.waitDone(rt)
	rt.Refresh(true)
	if got := strings.Join(rows(rt.Grid()), ";"); got != "1 | 2;2 | 1" {
		t.Errorf("table view %q", got)
	}
	rt.ViewSelect().SetSelected("Changelog")
	if got := strings.Join(rows(rt.Grid()), ";"); got != "+I | 1 | 1;-U | 1 | 1;+U | 1 | 2;+I | 2 | 1" {
		t.Errorf("changelog view %q", got)
	}
	if rt.Grid().View() != results.ChangelogView {
		t.Error("view not switched")
	}
}

func TestEmptyResultSaysSo(t *testing.T) {
	h := newHarness(t)
	h.newTab("SELECT * FROM flights WHERE delay > 100000")
	h.tab().mode = modeBatch
	rt := h.runStatement()
	h.waitDone(rt)
	h.wb.Tick()
	if !rt.EmptyLabel().Visible() || rt.EmptyLabel().Text != "No rows" || !strings.HasPrefix(rt.StatusLabel().Text, "0 rows") {
		t.Errorf("empty label %q (visible %v), status %q", rt.EmptyLabel().Text, rt.EmptyLabel().Visible(), rt.StatusLabel().Text)
	}
}

// Zeppelin's streaming table shook because one refresh was applied as
// several appends (apache/zeppelin PR #3878): here the grid only changes on
// a tick, so what is drawn stays the same between ticks however many rows
// arrive, and the next tick shows them at once.
func TestLiveGridIsStableBetweenTicks(t *testing.T) {
	h := newHarness(t)
	h.newTab(`CREATE TEMPORARY TABLE s (k BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '2000',
  'fields.k.kind' = 'sequence', 'fields.k.start' = '1', 'fields.k.end' = '1000000');
SELECT k FROM s`)
	h.runAll()
	rt := h.wb.results[0]
	h.until("rows", func() bool { return rt.Grid().Total() > 0 })
	before, total := test.RenderObjectToMarkup(rt.Grid()), rt.Grid().Total()
	changes := rt.Res.Stats().Changes
	waitFor(t, "200 more changes", func() bool { return rt.Res.Stats().Changes >= changes+200 }) // no Tick meanwhile
	if after := test.RenderObjectToMarkup(rt.Grid()); after != before || rt.Grid().Total() != total {
		t.Error("the grid changed between ticks")
	}
	h.wb.Tick()
	if rt.Grid().Total() < total+200 {
		t.Errorf("the tick showed %d rows, %d before", rt.Grid().Total(), total)
	}
	rt.Stop()
	h.waitDone(rt)
}

func TestLargeSortsRunOffTheUIGoroutine(t *testing.T) {
	h := newHarness(t)
	h.newTab("SELECT * FROM (VALUES (3), (1), (2)) AS t(n)")
	rt := h.runStatement()
	h.waitDone(rt)
	h.wb.Tick()
	rt.Grid().SetAsyncSortRows(2) // as if three rows were a million
	rt.Grid().HeaderTapped(1)
	if !rt.Grid().Sorting() || !strings.HasPrefix(h.wb.statusLeft.Text, "Sorting 3 rows by n ascending…") {
		t.Errorf("sorting %v, status %q", rt.Grid().Sorting(), h.wb.statusLeft.Text)
	}
	h.until("the sort", func() bool { return !rt.Grid().Sorting() })
	if got := strings.Join(rows(rt.Grid()), ","); got != "1,2,3" {
		t.Errorf("sorted %q", got)
	}
	if h.wb.statusLeft.Text != "Ready" {
		t.Errorf("status %q", h.wb.statusLeft.Text)
	}
}

// TestMessagesFollowTheStatementsInOrder: a query's entry is where it
// started, and its outcome replaces it, so a later statement's error comes
// after it; every statement has an outcome, counted in the right number.
func TestMessagesFollowTheStatementsInOrder(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	tab.mode = modeBatch
	h.wb.messages.clear()
	tab.ed.SetText("SELECT 1;\nSELECT nope;")
	h.runAll()
	rt := h.wb.results[len(h.wb.results)-1]
	h.waitDone(rt)
	h.settle()
	got := h.wb.messages.texts()
	if len(got) != 2 || !strings.HasPrefix(got[0], "SELECT 1\nFinished: 1 row in ") || !strings.HasPrefix(got[1], "[ERROR]") {
		t.Errorf("messages %q", got)
	}
	h.wb.messages.clear()
	tab.ed.SetText("SHOW DATABASES")
	h.runStatement()
	if got := h.wb.messages.texts(); len(got) != 1 || !strings.HasPrefix(got[0], "SHOW DATABASES\nFinished: 1 row in ") {
		t.Errorf("messages %q", got)
	}
}

// TestErrorMarksTheWholeSpan: an error that reports a span ("From line 1,
// column 16 to line 1, column 34") marks all of it, not its first word.
func TestErrorMarksTheWholeSpan(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	tab.ed.SetText("SELECT origin, SUM(distance) + 'x' AS d FROM flights GROUP BY origin")
	h.runStatement()
	m := tab.ed.ErrorMarkers()
	if len(m) != 1 || m[0].Line != 0 || m[0].Col != 15 || m[0].EndCol != 34 || !strings.Contains(m[0].Message, "Cannot apply '+'") {
		t.Errorf("markers %+v", m)
	}
	// a reported position without a span still marks its token
	tab.ed.SetText("SELECT pric FROM (VALUES (1)) AS t(price)")
	h.runStatement()
	if m := tab.ed.ErrorMarkers(); len(m) != 1 || m[0].Col != 7 || m[0].EndCol > m[0].Col && m[0].EndCol != 11 {
		t.Errorf("markers %+v", m)
	}
}
