package ui

import (
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"

	"github.com/riffle-sql/riffle/engine/completion"
	"github.com/riffle-sql/riffle/workbench/authoring"
	"github.com/riffle-sql/riffle/workbench/ui/completionpopup"
	"github.com/riffle-sql/riffle/workbench/ui/designer"
	"github.com/riffle-sql/riffle/workbench/ui/openfile"
	"github.com/riffle-sql/riffle/workbench/ui/querybuilder"
)

// Point-and-click authoring in the workbench (issue 7): the query builder
// panel (package querybuilder), the table designer (package designer), grid
// actions (grid_actions.go), the completion popup (completion.go, workbench/ui/completionpopup),
// File → Open and dropped files (open_file.go) and Ctrl+Shift+F. The
// models live in package authoring, completion and engine/connector/infer;
// this file wires them into the window through a few marked hook points in
// workbench.go, editors.go, run.go, dialogs.go, grid.go, result_tabs.go and
// result_tab_host.go.

// authoringUI is the authoring state of the workbench.
type authoringUI struct {
	compCat completion.Catalog
	popup   *completionpopup.Popup
	builder *querybuilder.Panel
	// builderMenu is View ▸ Query builder (checked while shown).
	builderMenu *fyne.MenuItem

	// lastOpenDir is where File ▸ Open data file… starts.
	lastOpenDir string
	// review is the last open-file review dialog, designer the last table
	// designer and confirm its last drop-and-create question (for tests).
	review   *openfile.Review
	designer *designer.Dialog
	confirm  *dialog.ConfirmDialog
	// bg counts background work (inference, DDL) that posts to the UI.
	bg sync.WaitGroup
	// beforeChange, when set, is called (on the worker) before statement
	// i of a table change runs (for tests).
	beforeChange func(i int)
}

// authoring returns the authoring state (created on first use: editor
// tabs are hooked while the workbench is still being built).
func (wb *Workbench) authoring() *authoringUI {
	if wb.auth == nil {
		wb.auth = &authoringUI{}
	}
	return wb.auth
}

// authoringCatalog resolves tables for the builder and the designer.
func (wb *Workbench) authoringCatalog() authoring.Catalog { return authoring.EnvCatalog(wb.env) }

// hookEditor adds the authoring behaviour to a new editor tab: completion
// while typing and the builder following the SQL.
func (wb *Workbench) hookEditor(t *editorTab) {
	prev := t.ed.OnChanged
	t.ed.OnChanged = func(text string) {
		old := t.text
		if prev != nil {
			prev(text)
		}
		t.text = text
		wb.autoComplete(t, old, text)
		wb.builderEditorChanged(t)
	}
	prevMoved := t.ed.OnCursorMoved
	t.ed.OnCursorMoved = func(line, col int) {
		if prevMoved != nil {
			prevMoved(line, col)
		}
		wb.builderCursorMoved(t)
	}
}

// setupAuthoring wires the catalog tree, dropped files and the editor
// area; build calls it once the widgets exist.
func (wb *Workbench) setupAuthoring() {
	wb.catalog.OnEdit = wb.showTableDesignerFor
	wb.catalog.OnDrag = wb.catalogDragged
	wb.catalog.OnDragEnd = wb.catalogDropped
	wb.win.SetOnDropped(wb.filesDropped)
	wb.editors.tabs.OnSelected = chainTabSelected(wb.editors.tabs.OnSelected, func() {
		wb.closeCompletion()
		wb.builderTabChanged()
	})
}

// extendMenus adds the authoring items to the main menu.
func (wb *Workbench) extendMenus(file, view *fyne.Menu) {
	ctrl := fyne.KeyModifierShortcutDefault
	open := fyne.NewMenuItem("Open data file…", wb.showOpenFileDialog)
	open.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: ctrl}
	newTable := fyne.NewMenuItem("New table…", func() { wb.showTableDesigner(nil) })
	// after "Rename tab…"
	at := 3
	for i, it := range file.Items {
		if it.Label == "Rename tab…" {
			at = i + 1
		}
	}
	items := append([]*fyne.MenuItem{}, file.Items[:at]...)
	items = append(items, fyne.NewMenuItemSeparator(), open, newTable)
	file.Items = append(items, file.Items[at:]...)

	builder := fyne.NewMenuItem("Query builder", wb.toggleBuilder)
	builder.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyB, Modifier: ctrl | fyne.KeyModifierShift}
	wb.authoring().builderMenu = builder
	view.Items = append([]*fyne.MenuItem{builder, fyne.NewMenuItemSeparator()}, view.Items...)
}

// chainTabSelected calls the existing handler, then f.
func chainTabSelected(prev func(*container.TabItem), f func()) func(*container.TabItem) {
	return func(it *container.TabItem) {
		if prev != nil {
			prev(it)
		}
		f()
	}
}

// embeddedTab reports whether t runs on the embedded engine, whose
// catalog the builder, completion popup and designer read (a tab on a SQL
// Gateway keeps the gateway's own completion).
func (wb *Workbench) embeddedTab(t *editorTab) bool {
	return wb.conns == nil || t == nil || wb.conns.of(t).embedded()
}

// filesDropped opens files dropped on the window (one review each; other
// kinds of URIs are ignored).
func (wb *Workbench) filesDropped(_ fyne.Position, uris []fyne.URI) {
	for _, u := range uris {
		if u.Scheme() == "file" {
			wb.openDataFile(u.Path())
		}
	}
}
