package resulttab

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// Host is what a result tab asks of the workbench, on the UI goroutine.
// The workbench gives each tab its own host, so the methods name no tab.
type Host interface {
	// Export opens the Export dialog for the tab's rows.
	Export()
	// Stop stops the tab's query as the toolbar's Stop does (the
	// workbench shows "Stopping…" until it has ended).
	Stop()
	// Close closes the tab, asking first when its query still runs.
	Close()
	// CellActions are the menu items for a right-clicked data cell, put
	// before Copy (nil: none); HeaderActions those of a column header
	// (col is the grid's column).
	CellActions(id widget.TableCellID) []*fyne.MenuItem
	HeaderActions(col int) []*fyne.MenuItem
	// WrapViews puts the tab's body (its grid or text) into the views
	// around it (Data, Chart, Plan) and returns what the tab shows.
	WrapViews(body fyne.CanvasObject) fyne.CanvasObject
	// TickViews keeps those views current; visible says the tab is the
	// one in front.
	TickViews(visible bool)
	// StatusNote ends the status line ("" for none): where a gateway's
	// query runs and what is not shown for it.
	StatusNote() string
	// IconChanged says the tab's icon (its state) changed: the tab strip
	// is redrawn.
	IconChanged()
	// StateChanged says the badge changed (the workbench's status bar and
	// toolbar follow).
	StateChanged()
	// SetStatus writes the workbench's status bar (the grid's selection,
	// a sort error).
	SetStatus(s string)
	// Shortcut handles a window key the grid does not use; it reports
	// whether s was one.
	Shortcut(s fyne.Shortcut) bool
	// Do runs f on the UI goroutine.
	Do(f func())
}
