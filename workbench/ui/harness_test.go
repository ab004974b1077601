package ui

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/assets"
	"github.com/riffle-sql/riffle/engine/testwait"
	_ "github.com/riffle-sql/riffle/internal/localefix" // quiet Fyne under LANG=C
	"github.com/riffle-sql/riffle/workbench/ui/resultgrid"
)

// uiQueue stands in for fyne.Do in tests: background goroutines queue
// closures and the test goroutine runs them (drain), so every widget is
// touched by one goroutine, as in the app.
type uiQueue struct {
	mu  sync.Mutex
	fns []func()
}

func (q *uiQueue) Do(f func()) {
	q.mu.Lock()
	q.fns = append(q.fns, f)
	q.mu.Unlock()
}

// drain runs the queued closures (and those they queue) and returns how
// many ran.
func (q *uiQueue) drain() int {
	n := 0
	for {
		q.mu.Lock()
		fns := q.fns
		q.fns = nil
		q.mu.Unlock()
		if len(fns) == 0 {
			return n
		}
		for _, f := range fns {
			f()
			n++
		}
	}
}

var (
	dataOnce sync.Once
	dataDir  string
	dataErr  error
)

// sharedDataDir extracts the sample data once for the package's tests.
func sharedDataDir(t testing.TB) string {
	dataOnce.Do(func() {
		dataDir, dataErr = os.MkdirTemp("", "riffle-ui-data-")
		if dataErr == nil {
			_, dataErr = assets.ExtractDataTo(dataDir)
		}
	})
	if dataErr != nil {
		t.Fatal(dataErr)
	}
	return dataDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if dataDir != "" {
		os.RemoveAll(dataDir)
	}
	os.Exit(code)
}

// harness is a workbench on Fyne's test driver.
type harness struct {
	t    testing.TB
	q    *uiQueue
	wb   *Workbench
	w    fyne.Window
	path string
}

// open starts a workbench on the workspace file path (created when new).
func open(t testing.TB, path string, opts ...func(*Options)) *harness {
	t.Helper()
	h := &harness{t: t, q: &uiQueue{}, path: path}
	// NoWorkspaceCatalog: the tests written against default_catalog keep it
	// (workspace_catalog_test.go turns the workspace catalog on)
	o := Options{Workspace: path, DataDir: sharedDataDir(t), Do: h.q.Do, NoTicker: true, FlashDuration: -1, NoWorkspaceCatalog: true}
	for _, f := range opts {
		f(&o)
	}
	h.w = test.NewWindow(widget.NewLabel(""))
	wb, err := New(h.w, o)
	if err != nil {
		t.Fatal(err)
	}
	h.wb = wb
	h.w.Resize(fyne.NewSize(1400, 900))
	h.settle()
	return h
}

// newHarness opens a fresh workspace in a temporary folder on a new test app.
func newHarness(t *testing.T, opts ...func(*Options)) *harness {
	test.NewTempApp(t)
	h := open(t, filepath.Join(t.TempDir(), "ws.riffle"), opts...)
	t.Cleanup(h.close)
	return h
}

func (h *harness) close() {
	h.q.drain()
	h.wb.Close()
	h.w.Close()
}

// waitLimit bounds every wait of the harness. It is generous on purpose:
// the waits end on events (a channel, a condition), so a long limit costs
// nothing when the code works, and a CI machine busy with other jobs may
// run a streaming query many times slower than an idle one.
const waitLimit = 2 * time.Minute

// settle waits for the submitted scripts to finish and runs what they
// posted to the UI, then one Tick.
func (h *harness) settle() {
	h.t.Helper()
	select {
	case <-h.wb.waitIdle():
	case <-time.After(waitLimit):
		h.t.Fatalf("statements still running after %s", waitLimit)
	}
	h.q.drain()
	h.wb.Tick()
	h.q.drain()
}

// until ticks until cond holds (or fails the test after waitLimit).
func (h *harness) until(what string, cond func() bool) {
	h.t.Helper()
	testwait.Until(h.t, waitLimit, what, func() bool {
		h.q.drain()
		h.wb.Tick()
		h.q.drain()
		return cond()
	})
}

// waitFor polls cond, which must not touch widgets (no Tick, no queued
// UI work), until it holds, or fails the test after waitLimit. It waits
// for what background goroutines do (rows arriving in a Result) while
// the UI stands still.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	testwait.Until(t, waitLimit, what, cond)
}

// tab returns the current editor tab.
func (h *harness) tab() *editorTab { return h.wb.editors.current() }

// newTab opens an empty editor tab (Ctrl+T) and types text into it.
func (h *harness) newTab(text string) *editorTab {
	t := h.wb.editors.newTab("", "")
	if text != "" {
		test.Type(t.ed, text)
	}
	return t
}

func ctrl(key fyne.KeyName) *desktop.CustomShortcut {
	return &desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierControl}
}

// runStatement presses Ctrl+Enter in the current tab and waits.
func (h *harness) runStatement() *resultTab {
	before := len(h.wb.results)
	h.tab().ed.TypedShortcut(ctrl(fyne.KeyReturn))
	h.settle()
	if len(h.wb.results) > before {
		return h.wb.results[len(h.wb.results)-1]
	}
	return nil
}

// runAll presses Ctrl+Shift+Enter in the current tab and waits.
func (h *harness) runAll() {
	h.tab().ed.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift})
	h.settle()
}

// waitDone waits until a result's query has ended, then ticks once more
// so that the UI shows its end (the query may end after the tick of the
// check that saw it ended: a grid or label could be one frame behind).
func (h *harness) waitDone(rt *resultTab) {
	h.t.Helper()
	h.until("the query to end", func() bool { return !rt.IsRunning() })
	h.wb.Tick()
	h.q.drain()
}

// rows reads the grid's current page as text: one string per row, cells
// joined by " | ", NULL as "∅"; the row-number column is left out.
func rows(g *resultgrid.Grid) []string {
	n, cols := g.Shape()
	out := make([]string, n)
	for r := 0; r < n; r++ {
		var cells []string
		for c := 1; c < cols; c++ {
			text, null, _ := g.CellText(r, c)
			if null {
				text = "∅"
			}
			cells = append(cells, text)
		}
		out[r] = strings.Join(cells, " | ")
	}
	return out
}

// shown returns the visible objects under o as they are drawn now (unlike
// test.LaidOutObjects, which makes new renderers).
func shown(o fyne.CanvasObject) []fyne.CanvasObject {
	if !o.Visible() {
		return nil
	}
	out := []fyne.CanvasObject{o}
	switch c := o.(type) {
	case fyne.Widget:
		for _, ch := range test.WidgetRenderer(c).Objects() {
			out = append(out, shown(ch)...)
		}
	case *fyne.Container:
		for _, ch := range c.Objects {
			out = append(out, shown(ch)...)
		}
	}
	return out
}

// drawnCells returns the grid cells on screen by their cell ID.
func drawnCells(g *resultgrid.Grid) map[widget.TableCellID]*resultgrid.Cell {
	out := map[widget.TableCellID]*resultgrid.Cell{}
	for _, o := range shown(g) {
		if c, ok := o.(*resultgrid.Cell); ok {
			out[c.ID()] = c
		}
	}
	return out
}

// drawnHeaders returns the header cells on screen by column.
func drawnHeaders(g *resultgrid.Grid) map[int]*resultgrid.HeaderCell {
	out := map[int]*resultgrid.HeaderCell{}
	for _, o := range shown(g) {
		if c, ok := o.(*resultgrid.HeaderCell); ok {
			out[c.Column()] = c
		}
	}
	return out
}

// capture saves the window as a PNG (to look at a test's screen).
func (h *harness) capture(path string) {
	f, err := os.Create(path)
	if err != nil {
		h.t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, h.w.Canvas().Capture()); err != nil {
		h.t.Fatal(err)
	}
}

// messages returns the Messages panel's texts joined.
func (h *harness) messages() string { return strings.Join(h.wb.messages.texts(), "\n") }
