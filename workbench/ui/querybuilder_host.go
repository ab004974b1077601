package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/authoring"
	"github.com/riffle-sql/riffle/workbench/catalogbrowser"
	"github.com/riffle-sql/riffle/workbench/ui/querybuilder"
)

// builder returns the query builder (made on first use).
func (wb *Workbench) builder() *querybuilder.Panel {
	a := wb.authoring()
	if a.builder == nil {
		a.builder = querybuilder.New(builderHost{wb})
	}
	return a.builder
}

// builderArea holds the centre of the window (editors and results), with
// the builder to its right while it is shown.
func (wb *Workbench) builderArea(center fyne.CanvasObject) fyne.CanvasObject {
	return wb.builder().Area(center)
}

// builderButton is the toolbar's toggle.
func (wb *Workbench) builderButton() fyne.CanvasObject {
	btn := widget.NewButtonWithIcon("Builder", theme.ListIcon(), wb.toggleBuilder)
	btn.Importance = widget.LowImportance
	return btn
}

// toggleBuilder shows or hides the builder (View ▸ Query builder).
func (wb *Workbench) toggleBuilder() { wb.builder().Toggle() }

// builderEditorChanged follows edits of the tab's SQL.
func (wb *Workbench) builderEditorChanged(t *editorTab) {
	if b := wb.authoring().builder; b != nil {
		b.EditorChanged(wb.builderTab(t))
	}
}

// builderCursorMoved follows the cursor into another statement.
func (wb *Workbench) builderCursorMoved(t *editorTab) {
	if b := wb.authoring().builder; b != nil {
		b.CursorMoved(wb.builderTab(t))
	}
}

// builderTabChanged follows another editor tab.
func (wb *Workbench) builderTabChanged() {
	if b := wb.authoring().builder; b != nil {
		b.TabChanged()
	}
}

// builderTableCreated refreshes the builder's table list after a table
// was created.
func (wb *Workbench) builderTableCreated(path []string) {
	if b := wb.authoring().builder; b != nil {
		b.TableCreated()
	}
}

// catalogDragged follows a table dragged out of the catalog tree;
// catalogDropped drops it on the builder (or on the editors, which opens
// the builder).
func (wb *Workbench) catalogDragged(r catalogbrowser.Ref, at fyne.Position) {
	wb.builder().Dragged(r, at)
}

func (wb *Workbench) catalogDropped(r catalogbrowser.Ref, at fyne.Position) {
	wb.builder().Dropped(r, at)
}

// builderHost is the query builder's way to the workbench
// (querybuilder.Host): the editor tabs, the embedded engine's catalogs,
// the run queue and the View menu.
type builderHost struct{ wb *Workbench }

var _ querybuilder.Host = builderHost{}

func (h builderHost) Window() fyne.Window           { return h.wb.win }
func (h builderHost) CurrentTab() querybuilder.Tab  { return h.wb.builderTab(h.wb.editors.current()) }
func (h builderHost) EditorArea() fyne.CanvasObject { return h.wb.editors.tabs }
func (h builderHost) Tables() catalogbrowser.Source { return catalogbrowser.EnvSource{Env: h.wb.env} }
func (h builderHost) Catalog() authoring.Catalog    { return h.wb.authoringCatalog() }
func (h builderHost) Run(t querybuilder.Tab, stmt string, start int) {
	h.wb.runStatementIn(t.(builderTab).t, stmt, start)
}

func (h builderHost) Shown(on bool) {
	if m := h.wb.authoring().builderMenu; m != nil {
		m.Checked = on
	}
	h.wb.showSelectedEditorTab() // the strip is narrower or wider now
}

// showSelectedEditorTab scrolls the editor tabs' strip so that the
// selected tab is whole in view (scrollSelectedIntoView).
func (wb *Workbench) showSelectedEditorTab() { scrollSelectedIntoView(wb.editors.tabs) }

// scrollSelectedIntoView scrolls a DocTabs' strip so that its selected
// tab is whole in view. Fyne's DocTabs scrolls to a tab only when the
// selection changes, not when the strip is resized (as when the query
// builder opens beside the editor tabs, which left the selected tab cut
// off at the right edge, issue 21); selecting a neighbour and back, with
// the callbacks held, makes it scroll without anyone hearing of it.
func scrollSelectedIntoView(tabs *container.DocTabs) {
	cur := tabs.SelectedIndex()
	if cur < 0 || len(tabs.Items) < 2 {
		return
	}
	other := cur - 1
	if other < 0 {
		other = cur + 1
	}
	sel, unsel := tabs.OnSelected, tabs.OnUnselected
	tabs.OnSelected, tabs.OnUnselected = nil, nil
	defer func() { tabs.OnSelected, tabs.OnUnselected = sel, unsel }()
	tabs.SelectIndex(other)
	tabs.SelectIndex(cur)
}

// builderTab is an editor tab as the query builder sees it
// (querybuilder.Tab).
type builderTab struct {
	wb *Workbench
	t  *editorTab
}

// builderTab wraps t; nil for no tab.
func (wb *Workbench) builderTab(t *editorTab) querybuilder.Tab {
	if t == nil {
		return nil
	}
	return builderTab{wb, t}
}

func (bt builderTab) Editor() querybuilder.Editor { return bt.t.ed }
func (bt builderTab) Streaming() bool             { return bt.t.mode != modeBatch }

func (bt builderTab) Engine() (string, bool) {
	if bt.wb.embeddedTab(bt.t) {
		return "", true
	}
	return bt.wb.conns.of(bt.t).name(), false
}
