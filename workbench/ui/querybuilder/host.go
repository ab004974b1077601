package querybuilder

import (
	"fyne.io/fyne/v2"

	"github.com/riffle-sql/riffle/workbench/authoring"
	"github.com/riffle-sql/riffle/workbench/catalogbrowser"
)

// Host is what the query builder asks of the workbench, on the UI
// goroutine.
type Host interface {
	// Window is the window the builder's pop-ups show on: the Copy as Go
	// viewer, the calendar, the label following a dragged table.
	Window() fyne.Window
	// CurrentTab is the editor tab shown; nil when there is none.
	CurrentTab() Tab
	// EditorArea is the editor tabs: a table dropped on them while the
	// builder is hidden opens it.
	EditorArea() fyne.CanvasObject
	// Tables reads the embedded engine's catalogs: the table list is the
	// current database's tables and views.
	Tables() catalogbrowser.Source
	// Catalog resolves the tables of the embedded engine (their schemas).
	Catalog() authoring.Catalog
	// Run runs stmt, which starts at byte offset start of t's text, in t.
	Run(t Tab, stmt string, start int)
	// Shown says the builder was shown (true) or hidden (View ▸ Query
	// builder's tick follows).
	Shown(on bool)
}

// Tab is an editor tab the builder follows. Two Tabs of the same editor
// tab are equal (==).
type Tab interface {
	// Editor is the tab's SQL editor.
	Editor() Editor
	// Streaming reports the tab's runtime mode: true for streaming, false
	// for batch (which windows are offered).
	Streaming() bool
	// Engine names the connection the tab runs on; embedded is true for
	// the workbench's own engine, the only one whose tables the builder
	// reads and writes queries for.
	Engine() (name string, embedded bool)
}

// Editor is what the builder needs of a tab's editor (editor.Editor).
// Offsets are byte offsets into Text.
type Editor interface {
	Text() string
	CursorOffset() int
	// ReplaceRange replaces the bytes [start, end) of the text.
	ReplaceRange(start, end int, text string)
	// ScrollToColumn scrolls the editor so that column col is visible.
	ScrollToColumn(col int)
}
