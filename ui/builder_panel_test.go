package ui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/authoring"
)

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
	if got := rows(rt2.grid); len(got) != 1 || !strings.HasSuffix(got[0], " | 8") {
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
	b.tableSel.SetSelected("flights")
	b.joinTable.SetSelected("flights")
	test.Tap(b.addJoin)
	if !strings.Contains(b.status.Text, "incomplete key") || b.joinRows[0].left.Selected != "" {
		t.Fatalf("self-join: status %q, key %q; SQL:\n%s", b.status.Text, b.joinRows[0].left.Selected, b.stmt())
	}
	// plain names in the pickers
	if !slices.Contains(b.joinRows[0].left.Options, "f.date") || !slices.Contains(b.joinRows[0].right.Options, "date") {
		t.Errorf("key choices %q / %q", b.joinRows[0].left.Options, b.joinRows[0].right.Options)
	}
	b.joinRows[0].left.SetSelected("f.destination")
	b.joinRows[0].right.SetSelected("origin")
	b.colChecks[authoring.ColumnRef{Table: "f", Name: "origin"}].SetChecked(true)
	b.colChecks[authoring.ColumnRef{Table: "f2", Name: "origin"}].SetChecked(true)
	want := "SELECT\n  f.origin,\n  f2.origin AS f2_origin\nFROM flights AS f\nJOIN flights AS f2\n  ON f.destination = f2.origin"
	if got := b.stmt(); got != want {
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
	b.tableSel.SetSelected("flights")
	test.Tap(b.addFilter)
	r := b.filterRows[0]
	if !slices.Contains(r.column.Options, "date") || slices.Contains(r.column.Options, "`date`") {
		t.Errorf("column choices %q", r.column.Options)
	}
	r.column.SetSelected("delay")
	r = b.filterRows[0]
	r.values[0].SetText("1e400")
	if !strings.Contains(b.status.Text, "✕ filter on delay: '1e400' is out of the range of DOUBLE") || strings.Contains(b.stmt(), "1e400") {
		t.Errorf("1e400: status %q, SQL %q", b.status.Text, b.stmt())
	}
	b.filterRows[0].values[0].SetText("3000000000")
	if !strings.Contains(b.status.Text, "out of the range of INT") || strings.Contains(b.stmt(), "3000000000") {
		t.Errorf("3000000000: status %q, SQL %q", b.status.Text, b.stmt())
	}
	b.filterRows[0].values[0].SetText("30")
	if got := b.stmt(); got != "SELECT *\nFROM flights\nWHERE delay = 30" {
		t.Errorf("SQL %q, status %q", got, b.status.Text)
	}
	test.Tap(b.filterRows[0].remove)
	test.Tap(b.addFilter)
	b.filterRows[0].column.SetSelected("date")
	b.filterRows[0].op.SetSelected("BETWEEN")
	r = b.filterRows[0]
	r.values[0].SetText("2001-01-01")
	r.values[1].SetText("2001-01-02")
	if got := b.stmt(); got != "SELECT *\nFROM flights\nWHERE `date` BETWEEN TIMESTAMP '2001-01-01 00:00:00' AND TIMESTAMP '2001-01-02 00:00:00'" {
		t.Errorf("SQL %q, status %q", got, b.status.Text)
	}
	if r.values[0].Size().Width < 150 || r.values[1].Size().Width < 150 {
		t.Errorf("BETWEEN inputs %v and %v wide", r.values[0].Size().Width, r.values[1].Size().Width)
	}
}

// TestBuilderMessagesGiveEditorLines: SQL the builder cannot show is
// located by its line in the editor, not in the statement.
func TestBuilderMessagesGiveEditorLines(t *testing.T) {
	h := newHarness(t)
	b := h.openBuilder(modeBatch)
	tab := b.tab
	tab.ed.SetText("SELECT 1;\n\n-- the next one\n\n\n\nSELECT origin\nFROM flights\nGROUP BY origin HAVING COUNT(*) > 1")
	tab.ed.SetCursorOffset(len(tab.ed.Text()) - 2)
	h.wb.builderEditorChanged(tab)
	if !strings.Contains(b.status.Text, "HAVING") || !strings.Contains(b.status.Text, "(line 9, column 24)") {
		t.Errorf("status %q", b.status.Text)
	}
}

// TestBuilderRewriteScrollsToTheLeft: after the builder replaces the
// statement, the editor shows its lines from column 0.
func TestBuilderRewriteScrollsToTheLeft(t *testing.T) {
	h := newHarness(t)
	b := h.openBuilder(modeBatch)
	tab := b.tab
	long := "SELECT origin, destination, delay, distance FROM flights WHERE origin = 'SFO' AND destination = 'LAX' AND delay > 10"
	tab.ed.SetText(long)
	tab.ed.SetCursorOffset(len(long))
	h.wb.builderEditorChanged(tab)
	if tab.ed.FirstVisibleColumn() == 0 {
		t.Skipf("the editor (%v wide) shows the whole line", tab.ed.Size().Width)
	}
	b.colChecks[authoring.ColumnRef{Name: "distance"}].SetChecked(false)
	if !strings.HasPrefix(tab.ed.Text(), "SELECT\n  origin,") || tab.ed.FirstVisibleColumn() != 0 {
		t.Errorf("after the rewrite: left column %d, text %q", tab.ed.FirstVisibleColumn(), tab.ed.Text())
	}
}
