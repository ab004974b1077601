package kafkapeek

import (
	"fmt"
	"strconv"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
)

// Topic is the topic the panel peeks at.
func (p *Panel) Topic() string { return p.topic }

// Item is the panel's tab (for the workbench's bottom tabs).
func (p *Panel) Item() *container.TabItem { return p.item }

// SetOptions sets the bar from o: latest or earliest, how many (when
// N > 0), the partition (all when negative) and N per partition.
func (p *Panel) SetOptions(o kafkabrowser.PeekOptions) {
	if o.Latest {
		p.from.SetSelected("Latest")
	} else {
		p.from.SetSelected("Earliest")
	}
	if o.N > 0 {
		p.count.SetText(strconv.Itoa(o.N))
	}
	if o.Partition >= 0 {
		p.partition.SetSelected(fmt.Sprint(o.Partition))
	} else {
		p.partition.SetSelected("All partitions")
	}
	p.perPart.SetChecked(o.PerPartition)
}

// Drop forgets a peek still running: its messages will not be shown
// (the tab was closed).
func (p *Panel) Drop() { p.n++ }

// Loading reports whether a peek runs.
func (p *Panel) Loading() bool { return p.loading }

// Messages are the messages shown.
func (p *Panel) Messages() []kafkabrowser.Message { return p.msgs }

// Status is the status line's text.
func (p *Panel) Status() string { return p.status.Text }

// Detail is the detail pane's text (the selected message whole).
func (p *Panel) Detail() string { return p.detail.Text }

// SelectRow selects a message in the grid (its detail shows).
func (p *Panel) SelectRow(row int) { p.table.Select(widget.TableCellID{Row: row, Col: 4}) }
