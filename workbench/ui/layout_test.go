package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// TestToolbarFitsANarrowWindow: at 800 px the toolbar's buttons show
// their icons only and every item, the connection switch and Export
// included, is inside the window; wide again, the labels come back. The
// window's minimum width is no longer the full toolbar's.
func TestToolbarFitsANarrowWindow(t *testing.T) {
	h := newHarness(t)
	bar := h.wb.content.(*fyne.Container).Objects[1].(*fyne.Container).Objects[0].(*fyne.Container)
	var export *widget.Button
	for _, o := range bar.Objects {
		if b, ok := o.(*widget.Button); ok && b.Text == "Export…" {
			export = b
		}
	}
	if export == nil {
		t.Fatal("no Export button")
	}
	if w := h.w.Content().MinSize().Width; w > 800 {
		t.Errorf("the window needs %v px", w)
	}
	h.w.Resize(fyne.NewSize(800, 550))
	bar.Refresh()
	if export.Text != "" {
		t.Errorf("Export still labelled %q", export.Text)
	}
	right := bar.Size().Width
	for _, o := range bar.Objects {
		if o.Visible() && o.Position().X+o.Size().Width > right+0.5 {
			t.Errorf("%T at %v, %v wide, past %v", o, o.Position(), o.Size().Width, right)
		}
	}
	if s := h.wb.connSel.Size().Width; s < widgets.ToolbarMinSelect-0.5 {
		t.Errorf("the connection switch is %v wide", s)
	}
	h.w.Resize(fyne.NewSize(1400, 900))
	bar.Refresh()
	if export.Text != "Export…" || h.wb.connSel.Size().Width != 230 {
		t.Errorf("wide again: Export %q, switch %v wide", export.Text, h.wb.connSel.Size().Width)
	}
}

// TestQueryBuilderKeepsTheWindowAndTheCatalog: showing the builder beside
// a query does not widen the window (its form and the Jobs panel's
// columns scroll instead), so the catalog tree keeps its width.
func TestQueryBuilderKeepsTheWindowAndTheCatalog(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	before := h.w.Content().MinSize().Width
	tab.ed.SetText("SELECT distance, delay FROM flights WHERE delay BETWEEN -20 AND 200 LIMIT 3000")
	h.wb.toggleBuilder()
	b := h.wb.builder()
	if !b.Shown() || len(b.Aggregates()) == 0 {
		t.Fatalf("the builder shows no columns: %v", b.Aggregates())
	}
	if after := h.w.Content().MinSize().Width; after > before+300 || after > 1000 {
		t.Errorf("the window needs %v px with the builder (%v without)", after, before)
	}
}

// TestResultTabTitlesFitTheStrip: with more results than the strip holds
// with their titles, the tabs other than the selected one keep their
// number and first words (resulttab.Tab.ShortTitle, at most resulttab.MinTitleRunes after
// the number: readable, not "#1"); with room again the titles come back.
func TestResultTabTitlesFitTheStrip(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	tab.mode = modeBatch
	tab.ed.SetText("SELECT 1 AS a FROM flights LIMIT 1; SELECT 2 AS b FROM airports LIMIT 1;")
	h.runAll()
	if got := h.wb.results[0].Item().Text; got != "#1 flights" {
		t.Errorf("with room: %q", got)
	}
	var script strings.Builder
	for range 3 {
		script.WriteString("SELECT 1 AS a FROM flights LIMIT 1;\n")
	}
	tab.ed.SetText(script.String())
	h.runAll()
	sel := h.wb.bottom.Selected()
	width := 2 * (theme.IconInlineSize() + 2*theme.InnerPadding()) // + and ···
	var full float32
	for _, it := range h.wb.bottom.Items {
		width += tabWidth(it.Text)
	}
	for _, rt := range h.wb.results {
		full += tabWidth(rt.Title) - tabWidth(rt.Item().Text)
	}
	if width+full <= h.wb.bottom.Size().Width {
		t.Fatalf("the full titles fit (%v px of %v): no test", width+full, h.wb.bottom.Size().Width)
	}
	for _, rt := range h.wb.results {
		want := rt.ShortTitle()
		if rt.Item() == sel {
			want = rt.Title
		}
		if rt.Item().Text != want {
			t.Errorf("tab %d titled %q, want %q", rt.N, rt.Item().Text, want)
		}
	}
	for _, rt := range h.wb.results {
		if rt.Item() != sel && (!strings.HasPrefix(rt.Item().Text, fmt.Sprintf("#%d ", rt.N)) || len([]rune(rt.Item().Text)) < 6) {
			t.Errorf("tab %d titled %q: not readable", rt.N, rt.Item().Text)
		}
	}
	for len(h.wb.results) > 2 {
		h.wb.closeResult(h.wb.results[0])
	}
	h.wb.Tick()
	for _, rt := range h.wb.results {
		if rt.Item().Text != rt.Title {
			t.Errorf("room again: %q, not %q", rt.Item().Text, rt.Title)
		}
	}
}

// holds reports whether o is, or contains, target.
func holds(o, target fyne.CanvasObject) bool {
	if o == target {
		return true
	}
	if c, ok := o.(*fyne.Container); ok {
		for _, k := range c.Objects {
			if holds(k, target) {
				return true
			}
		}
	}
	return false
}

// TestPagerIsInTheDataView: the pager of a large result sits under the
// grid, in the Data view, not under the Data / Chart / Plan switch.
func TestPagerIsInTheDataView(t *testing.T) {
	h := newHarness(t)
	rt := h.runBatch("SELECT 1 AS n")
	if rt.Pager() == nil || rt.mon.dataItem == nil {
		t.Fatal("no pager or no Data view")
	}
	if !holds(rt.mon.dataItem.Content, rt.Pager()) || !holds(rt.mon.dataItem.Content, rt.Grid()) {
		t.Error("the pager is not with the grid in the Data view")
	}
}

// TestStatementTextIsInset: SHOW CREATE's text is inset from the tab's
// left edge, as the grid's cells are.
func TestStatementTextIsInset(t *testing.T) {
	h := newHarness(t)
	rt := h.runBatch("SHOW CREATE TABLE flights")
	if rt.TextView() == nil {
		t.Fatal("no text view")
	}
	if x := rt.TextView().Position().X; x != theme.InnerPadding() || rt.TextView().Size().Width <= 0 {
		t.Errorf("text at x %v, %v wide", x, rt.TextView().Size().Width)
	}
}

// TestStartupErrorOffersAWayOn: a damaged workspace file is explained,
// with Quit and a way to another workspace (a new, empty file opens).
func TestStartupErrorOffersAWayOn(t *testing.T) {
	test.NewTempApp(t)
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.riffle")
	if err := os.WriteFile(bad, []byte("this is not a workspace, it is text"), 0o600); err != nil {
		t.Fatal(err)
	}
	w := test.NewWindow(nil)
	defer w.Close()
	_, err := New(w, Options{Workspace: bad, DataDir: sharedDataDir(t), Do: func(f func()) { f() }, NoTicker: true})
	if err == nil {
		t.Fatal("a damaged workspace opened")
	}
	quit, opened := 0, ""
	content := startupErrorContent(w, err, func(p string) { opened = p }, func() { quit++ })
	w.SetContent(content)
	buttons := map[string]*widget.Button{}
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Button:
			buttons[x.Text] = x
		case *fyne.Container:
			for _, k := range x.Objects {
				walk(k)
			}
		}
	}
	walk(content)
	for _, want := range []string{"Quit", "Open another workspace…", "New workspace…"} {
		if buttons[want] == nil {
			t.Errorf("no %q button (have %v)", want, buttons)
		}
	}
	if b := buttons["Quit"]; b != nil {
		test.Tap(b)
		if quit != 1 || opened != "" {
			t.Errorf("Quit: %d quits, opened %q", quit, opened)
		}
	}
	// New workspace… asks for a path in a box one can type or paste into
	// (issue 21); Enter hands it over
	fresh := filepath.Join(dir, "fresh")
	test.Tap(buttons["New workspace…"])
	var entry *widget.Entry
	if top := w.Canvas().Overlays().Top(); top != nil {
		for _, o := range test.LaidOutObjects(top) {
			if e, ok := o.(*widget.Entry); ok && entry == nil {
				entry = e
			}
		}
	}
	if entry == nil {
		t.Fatal("New workspace… shows no path entry")
	}
	entry.SetText(fresh)
	entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if opened != fresh+".riffle" {
		t.Fatalf("New workspace… opened %q, want %q", opened, fresh+".riffle")
	}
	fresh = opened
	// a path that names no file yet opens as a new workspace (open fails
	// the test if it does not open; UI updates go through the
	// harness's queue, drained on this goroutine)
	open(t, fresh).close()
}
