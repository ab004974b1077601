package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// resultTabHost is what a result tab (resulttab.Tab) reaches of the
// workbench: one per tab, so each call knows its result.
type resultTabHost struct{ rt *resultTab }

func (h resultTabHost) Export()       { h.rt.wb.showExportDialog(h.rt) }
func (h resultTabHost) Stop()         { h.rt.wb.stopResults(h.rt) }
func (h resultTabHost) Close()        { h.rt.wb.askCloseResult(h.rt) }
func (h resultTabHost) IconChanged()  { h.rt.wb.bottom.Refresh() }
func (h resultTabHost) StateChanged() { h.rt.wb.updateStatus() }
func (h resultTabHost) SetStatus(s string) {
	h.rt.wb.setStatus(s)
}
func (h resultTabHost) Shortcut(s fyne.Shortcut) bool { return h.rt.wb.globalShortcut(s) }
func (h resultTabHost) Do(f func())                   { h.rt.wb.do(f) }

// CellActions and HeaderActions are the grid actions (grid_actions.go).
func (h resultTabHost) CellActions(id widget.TableCellID) []*fyne.MenuItem {
	return h.rt.cellActions(id)
}
func (h resultTabHost) HeaderActions(col int) []*fyne.MenuItem { return h.rt.headerActions(col) }

// WrapViews and TickViews are the Data, Chart and Plan views
// (monitoring.go).
func (h resultTabHost) WrapViews(body fyne.CanvasObject) fyne.CanvasObject {
	return h.rt.wrapViews(body)
}
func (h resultTabHost) TickViews(visible bool) { h.rt.tickViews(visible) }

// StatusNote is where a gateway's query runs (remote.go).
func (h resultTabHost) StatusNote() string { return remoteJobNote(h.rt) }
