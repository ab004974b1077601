package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/persistence"
	"github.com/riffle-sql/riffle/ui/widgets"
)

// historyLimit is how many past statements the panel lists.
const historyLimit = 500

// historyPanel lists past statements, newest first: when, how long, how
// many rows, the error if any. Double-click (or Open) reopens one in a new
// editor tab; Insert puts it at the cursor of the current tab.
type historyPanel struct {
	wb      *Workbench
	list    *widget.List
	entries []persistence.HistoryEntry
	sel     int
	item    *container.TabItem
}

func newHistoryPanel(wb *Workbench) *historyPanel {
	p := &historyPanel{wb: wb, sel: -1}
	p.list = widget.NewList(
		func() int { return len(p.entries) },
		func() fyne.CanvasObject { return newHistoryRow(p) },
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id < len(p.entries) {
				o.(*historyRow).set(id, p.entries[id])
			}
		})
	p.list.OnSelected = func(id widget.ListItemID) { p.sel = id }
	p.list.OnUnselected = func(widget.ListItemID) { p.sel = -1 }
	open := widget.NewButtonWithIcon("Open in new tab", theme.DocumentCreateIcon(), func() { p.open(p.sel) })
	insert := widget.NewButtonWithIcon("Insert at cursor", theme.ContentPasteIcon(), func() { p.insert(p.sel) })
	clear := widget.NewButtonWithIcon("Clear history", theme.DeleteIcon(), func() {
		dialog.ShowConfirm("Clear history", "Delete every statement from the workspace's history?", func(ok bool) {
			if ok {
				_ = wb.store.ClearHistory(context.Background())
				p.reload()
			}
		}, wb.win)
	})
	for _, b := range []*widget.Button{open, insert, clear} {
		b.Importance = widget.LowImportance
	}
	bar := container.NewHBox(open, insert, clear)
	p.item = container.NewTabItemWithIcon("History", theme.HistoryIcon(), container.NewBorder(bar, nil, nil, nil, p.list))
	return p
}

// reload reads the history from the workspace.
func (p *historyPanel) reload() {
	h, _, err := p.wb.store.History(context.Background(), historyLimit)
	if err != nil {
		p.wb.messages.add(levelError, "Reading the history: "+err.Error(), nil)
		return
	}
	p.entries = h
	p.sel = -1
	p.list.UnselectAll()
	p.list.Refresh()
}

// put adds an entry, or updates it when it is listed already.
func (p *historyPanel) put(h persistence.HistoryEntry) {
	for i, e := range p.entries {
		if e.ID == h.ID {
			if h.Statement == "" {
				h.Statement, h.Started = e.Statement, e.Started
			}
			p.entries[i] = h
			p.list.RefreshItem(i)
			return
		}
	}
	if h.Statement == "" {
		return
	}
	p.entries = append([]persistence.HistoryEntry{h}, p.entries...)
	if len(p.entries) > historyLimit {
		p.entries = p.entries[:historyLimit]
	}
	if p.sel >= 0 {
		p.sel++
	}
	p.list.Refresh()
}

func (p *historyPanel) open(id int) {
	if id < 0 || id >= len(p.entries) {
		return
	}
	text := p.entries[id].Statement
	if !strings.HasSuffix(strings.TrimSpace(text), ";") {
		text += ";"
	}
	p.wb.editors.newTab("", text+"\n")
}

func (p *historyPanel) insert(id int) {
	if id < 0 || id >= len(p.entries) {
		return
	}
	if t := p.wb.editors.current(); t != nil {
		t.ed.InsertAtCursor(p.entries[id].Statement)
		p.wb.win.Canvas().Focus(t.ed)
	}
}

// historyRow is one history entry; a double click opens it.
type historyRow struct {
	widget.BaseWidget
	p      *historyPanel
	id     int
	icon   *widget.Icon
	when   *widget.Label
	stats  *widget.Label
	text   *widget.Label
	layout *fyne.Container
}

var _ fyne.DoubleTappable = (*historyRow)(nil)

func newHistoryRow(p *historyPanel) *historyRow {
	r := &historyRow{p: p, icon: widget.NewIcon(theme.ConfirmIcon()), when: widget.NewLabel("2006-01-02 15:04:05"),
		stats: widget.NewLabel("1,000,000 rows · 100.0 s"), text: widget.NewLabel("")}
	r.when.Importance = widget.LowImportance
	r.stats.Importance = widget.LowImportance
	r.text.Truncation = fyne.TextTruncateEllipsis
	r.text.TextStyle.Monospace = true
	r.layout = container.NewBorder(nil, nil, container.NewHBox(r.icon, r.when), r.stats, r.text)
	r.ExtendBaseWidget(r)
	return r
}

func (r *historyRow) set(id int, h persistence.HistoryEntry) {
	r.id = id
	r.when.SetText(h.Started.Local().Format("2006-01-02 15:04:05"))
	stats := ""
	switch {
	case h.Error == "canceled":
		r.icon.SetResource(theme.MediaStopIcon())
		stats = "canceled"
	case h.Error != "":
		r.icon.SetResource(theme.ErrorIcon())
		stats = "failed"
	default:
		r.icon.SetResource(theme.ConfirmIcon())
		switch {
		case h.Rows == 1:
			stats = "1 row"
		case h.Rows > 1:
			stats = fmt.Sprintf("%s rows", widgets.GroupDigits(int(h.Rows)))
		}
	}
	if h.Duration > 0 {
		if stats != "" {
			stats += " · "
		}
		stats += fmtDuration(h.Duration)
	}
	r.stats.SetText(stats)
	r.text.SetText(strings.Join(strings.Fields(h.Statement), " "))
}

// CreateRenderer implements fyne.Widget.
func (r *historyRow) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(r.layout) }

// Tapped selects the entry.
func (r *historyRow) Tapped(*fyne.PointEvent) { r.p.list.Select(r.id) }

// DoubleTapped opens the statement in a new editor tab.
func (r *historyRow) DoubleTapped(*fyne.PointEvent) {
	r.p.list.Select(r.id)
	r.p.open(r.id)
}
