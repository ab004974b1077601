package querybuilder

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/authoring"
)

// What the workbench's tests read and press. The form's widgets are those
// of the form shown; they are built anew when it changes shape (a row
// added or removed, another table).

// Shown reports whether the builder is shown.
func (b *Panel) Shown() bool { return b.shown }

// Tab is the editor tab followed (nil before the first).
func (b *Panel) Tab() Tab { return b.tab }

// Query is the query shown (nil: none); Unsupported says why the
// statement under the cursor is not shown ("" when it is).
func (b *Panel) Query() *authoring.Query { return b.q }
func (b *Panel) Unsupported() string     { return b.unsupported }

// Statement is the text of the builder's statement in its tab.
func (b *Panel) Statement() string {
	text := b.tab.Editor().Text()
	return text[b.start:min(b.end, len(text))]
}

// Status is the line above the buttons.
func (b *Panel) Status() string { return b.status.Text }

// TableSelect is the table list; JoinTableSelect the table to join.
func (b *Panel) TableSelect() *widget.Select     { return b.tableSel }
func (b *Panel) JoinTableSelect() *widget.Select { return b.joinTable }

// ColumnChecks and Aggregates are each column's tick and aggregate
// choice; CountStar is COUNT(*).
func (b *Panel) ColumnChecks() map[authoring.ColumnRef]*widget.Check { return b.colChecks }
func (b *Panel) Aggregates() map[authoring.ColumnRef]*widget.Select  { return b.colAggs }
func (b *Panel) CountStar() *widget.Check                            { return b.countStar }

// FilterRows, JoinRows and OrderRows are the form's rows, in order;
// WindowForm is the window form (nil when there is none).
func (b *Panel) FilterRows() []*FilterRow { return b.filterRows }
func (b *Panel) JoinRows() []*JoinRow     { return b.joinRows }
func (b *Panel) OrderRows() []*OrderRow   { return b.orderRows }
func (b *Panel) WindowForm() *WindowForm  { return b.win }

// Limit is LIMIT's input.
func (b *Panel) Limit() *widget.Entry { return b.limit }

// AddFilterButton, JoinButton and AddOrderButton add a filter, the join
// chosen and an ORDER BY key; RunButton and GoButton are Run and Copy as
// Go.
func (b *Panel) AddFilterButton() *widget.Button { return b.addFilter }
func (b *Panel) JoinButton() *widget.Button      { return b.addJoin }
func (b *Panel) AddOrderButton() *widget.Button  { return b.addOrder }
func (b *Panel) RunButton() *widget.Button       { return b.runBtn }
func (b *Panel) GoButton() *widget.Button        { return b.goBtn }

// LastGo is the Go code Copy as Go last copied.
func (b *Panel) LastGo() string { return b.lastGo }

// DragLabel is the text of the label following a dragged table.
func (b *Panel) DragLabel() string { return b.dragLabel.Text }

// Content is the panel; Form the scroller of its form.
func (b *Panel) Content() fyne.CanvasObject { return b.content }
func (b *Panel) Form() *container.Scroll    { return b.form }
