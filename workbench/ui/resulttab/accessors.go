package resulttab

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/ui/resultgrid"
)

// Item is the tab in the workbench's bottom tabs (nil before Build).
func (rt *Tab) Item() *container.TabItem { return rt.item }

// Grid is the result grid (nil for a text result).
func (rt *Tab) Grid() *resultgrid.Grid { return rt.grid }

// The tab's widgets, for the workbench's tests and its layout checks.

// TextView shows a text result (nil for a grid).
func (rt *Tab) TextView() *widget.TextGrid { return rt.textView }

// StateLabel is the state badge.
func (rt *Tab) StateLabel() *widget.Label { return rt.stateLbl }

// StatusLabel is the status line.
func (rt *Tab) StatusLabel() *widget.Label { return rt.statusLbl }

// ErrorLabel shows a failed query's error.
func (rt *Tab) ErrorLabel() *widget.Label { return rt.errLbl }

// ViewSelect is the Table / Changelog switch (nil without a job).
func (rt *Tab) ViewSelect() *widget.RadioGroup { return rt.viewSel }

// FollowCheck is the changelog view's Follow (nil without a job).
func (rt *Tab) FollowCheck() *widget.Check { return rt.follow }

// PauseButton is Pause / Resume (nil without a job).
func (rt *Tab) PauseButton() *widget.Button { return rt.pauseBtn }

// StopButton is Stop (nil without a job).
func (rt *Tab) StopButton() *widget.Button { return rt.stopBtn }

// ExportButton is Export….
func (rt *Tab) ExportButton() *widget.Button { return rt.exportBtn }

// CloseButton is the × at the header's right.
func (rt *Tab) CloseButton() *widget.Button { return rt.closeBtn }

// Pager is the page switch under the grid (nil for a text result).
func (rt *Tab) Pager() *fyne.Container { return rt.pager }

// PageLabel says which rows the page shows.
func (rt *Tab) PageLabel() *widget.Label { return rt.pageLbl }

// EmptyLabel is "No rows" / "Waiting for rows…" over an empty grid.
func (rt *Tab) EmptyLabel() *widget.Label { return rt.emptyLbl }
