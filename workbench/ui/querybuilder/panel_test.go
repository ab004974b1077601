package querybuilder

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	_ "github.com/riffle-sql/riffle/engine/connector/all" // datagen
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/authoring"
	"github.com/riffle-sql/riffle/workbench/catalogbrowser"
)

// fakeEditor is a tab's text and cursor.
type fakeEditor struct {
	text   string
	cursor int
	left   int
}

func (e *fakeEditor) Text() string      { return e.text }
func (e *fakeEditor) CursorOffset() int { return e.cursor }
func (e *fakeEditor) ReplaceRange(start, end int, text string) {
	e.text = e.text[:start] + text + e.text[end:]
	e.cursor = start + len(text)
}
func (e *fakeEditor) ScrollToColumn(col int) { e.left = col }

// fakeTab is an editor tab on the embedded engine (gateway == "") or on
// the gateway named so.
type fakeTab struct {
	ed      *fakeEditor
	batch   bool
	gateway string
}

func (t *fakeTab) Editor() Editor         { return t.ed }
func (t *fakeTab) Streaming() bool        { return !t.batch }
func (t *fakeTab) Engine() (string, bool) { return t.gateway, t.gateway == "" }

// ran is a statement the builder ran.
type ran struct {
	tab   Tab
	stmt  string
	start int
}

// fakeHost is a window with one editor area and an engine's catalogs.
type fakeHost struct {
	win   fyne.Window
	area  fyne.CanvasObject
	env   *table.TableEnvironment
	tab   *fakeTab
	ran   []ran
	shown []bool
}

func (h *fakeHost) Window() fyne.Window { return h.win }
func (h *fakeHost) CurrentTab() Tab {
	if h.tab == nil {
		return nil
	}
	return h.tab
}
func (h *fakeHost) EditorArea() fyne.CanvasObject { return h.area }
func (h *fakeHost) Tables() catalogbrowser.Source { return catalogbrowser.EnvSource{Env: h.env} }
func (h *fakeHost) Catalog() authoring.Catalog    { return authoring.EnvCatalog(h.env) }
func (h *fakeHost) Run(t Tab, stmt string, start int) {
	h.ran = append(h.ran, ran{t, stmt, start})
}
func (h *fakeHost) Shown(on bool) { h.shown = append(h.shown, on) }

// newPanel shows a builder beside an editor area, in a window, on an
// engine with two tables, following a batch tab holding text.
func newPanel(t *testing.T, text string) (*Panel, *fakeHost) {
	t.Helper()
	test.NewTempApp(t)
	env, err := table.Create(table.InBatchMode())
	if err != nil {
		t.Fatal(err)
	}
	for _, ddl := range []string{
		"CREATE TABLE orders (order_id BIGINT, customer_id BIGINT, amount DOUBLE) WITH ('connector' = 'datagen', 'number-of-rows' = '10')",
		"CREATE TABLE customers (id BIGINT, name STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '10')",
	} {
		if _, err := env.ExecuteSQL(ddl); err != nil {
			t.Fatal(err)
		}
	}
	h := &fakeHost{
		win:  test.NewWindow(nil),
		area: widget.NewLabel("editors"),
		env:  env,
		tab:  &fakeTab{ed: &fakeEditor{text: text}, batch: true},
	}
	t.Cleanup(h.win.Close)
	b := New(h)
	h.win.SetContent(container.NewStack(b.Area(h.area)))
	h.win.Resize(fyne.NewSize(1000, 700))
	return b, h
}

// Shown, the builder follows the host's tab; choosing a table writes a
// query into it, a tick rewrites it, and Run hands the statement and
// where it starts to the host.
func TestBuilderWritesThroughItsTab(t *testing.T) {
	b, h := newPanel(t, "SELECT 1")
	b.Toggle()
	if !b.Shown() || len(h.shown) != 1 || !h.shown[0] {
		t.Fatalf("shown %v, host heard %v", b.Shown(), h.shown)
	}
	if b.Tab() != Tab(h.tab) || b.Query() != nil || b.Unsupported() == "" {
		t.Fatalf("following: query %v, unsupported %q", b.Query(), b.Unsupported())
	}
	if got := strings.Join(b.TableSelect().Options, ","); got != "customers,orders" {
		t.Errorf("table list %q", got)
	}
	// SELECT 1 has no table: choosing one starts a query after it
	b.TableSelect().SetSelected("orders")
	if got := h.tab.ed.text; got != "SELECT 1;\n\nSELECT *\nFROM orders" {
		t.Fatalf("editor %q", got)
	}
	b.ColumnChecks()[authoring.ColumnRef{Name: "amount"}].SetChecked(true)
	want := "SELECT amount\nFROM orders"
	if got := b.Statement(); got != want || !strings.HasSuffix(h.tab.ed.text, want) {
		t.Fatalf("statement %q, editor %q", got, h.tab.ed.text)
	}
	if !strings.HasPrefix(b.Status(), "✓") || b.WindowForm() != nil {
		t.Errorf("status %q, window form %v", b.Status(), b.WindowForm())
	}
	test.Tap(b.RunButton())
	if len(h.ran) != 1 || h.ran[0].stmt != want || h.ran[0].start != len("SELECT 1;\n\n") || h.ran[0].tab != Tab(h.tab) {
		t.Errorf("ran %+v", h.ran)
	}
	// an edit the builder cannot show is left alone
	h.tab.ed.text += " UNION SELECT amount FROM orders"
	b.EditorChanged(h.tab)
	if b.Query() != nil || !strings.Contains(b.Status(), "UNION") {
		t.Errorf("after the UNION: status %q", b.Status())
	}
	b.Toggle()
	if b.Shown() || len(h.shown) != 2 || h.shown[1] {
		t.Errorf("hidden %v, host heard %v", !b.Shown(), h.shown)
	}
}

// A tab on a gateway is named and never written into.
func TestBuilderLeavesAGatewayTabAlone(t *testing.T) {
	b, h := newPanel(t, "SELECT * FROM fl")
	h.tab.gateway = "gw"
	b.SetShown(true)
	if b.Query() != nil || !strings.Contains(b.Status(), "runs on gw") {
		t.Errorf("status %q", b.Status())
	}
	b.TableSelect().SetSelected("orders")
	if h.tab.ed.text != "SELECT * FROM fl" || !strings.Contains(b.Status(), "SQL Gateway") {
		t.Errorf("editor %q, status %q", h.tab.ed.text, b.Status())
	}
}

// A table dropped on the editor area while the builder is hidden opens
// the builder on it (named without the current catalog and database).
func TestBuilderTakesATableDroppedOnTheEditors(t *testing.T) {
	b, h := newPanel(t, "")
	ref := catalogbrowser.Ref{Catalog: "default_catalog", Database: "default_database", Object: "customers", Kind: catalogbrowser.KindTable}
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(h.area).Add(fyne.NewPos(5, 5))
	b.Dragged(ref, at)
	if !strings.Contains(b.DragLabel(), "customers → query builder") {
		t.Errorf("drag label %q", b.DragLabel())
	}
	b.Dropped(ref, at)
	if !b.Shown() || h.tab.ed.text != "SELECT *\nFROM customers" {
		t.Errorf("shown %v, editor %q", b.Shown(), h.tab.ed.text)
	}
	if h.tab.ed.left != 0 || b.JoinTableSelect() == nil || len(b.Aggregates()) != 2 {
		t.Errorf("form: join list %v, %d aggregate choices", b.JoinTableSelect(), len(b.Aggregates()))
	}
}
