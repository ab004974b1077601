package history

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// Limit is how many past statements the panel lists.
const Limit = 500

// Store is the workspace's history, as persistence.Store keeps it.
type Store interface {
	// History returns at most limit entries, newest first (the entries
	// it could not read as the second result).
	History(ctx context.Context, limit int) ([]persistence.HistoryEntry, []error, error)
	// ClearHistory deletes every entry.
	ClearHistory(ctx context.Context) error
}

// Host is what the panel asks of the workbench.
type Host interface {
	// OpenInNewTab opens text in a new editor tab.
	OpenInNewTab(text string)
	// InsertAtCursor inserts text at the cursor of the current editor
	// tab, if there is one, and gives that editor the focus.
	InsertAtCursor(text string)
	// Error reports a failure (in the Messages panel).
	Error(msg string)
}

// Panel lists past statements, newest first: when, how long, how many
// rows, the error if any. Double-click (or Open) reopens one in a new
// editor tab; Insert puts it at the cursor of the current tab.
type Panel struct {
	win     fyne.Window
	store   Store
	host    Host
	list    *widget.List
	entries []persistence.HistoryEntry
	sel     int
	item    *container.TabItem
}

// New returns the History panel of a workspace's store, its dialogs on
// win. Reload fills it.
func New(win fyne.Window, store Store, host Host) *Panel {
	p := &Panel{win: win, store: store, host: host, sel: -1}
	p.list = widget.NewList(
		func() int { return len(p.entries) },
		func() fyne.CanvasObject { return newRow(p) },
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id < len(p.entries) {
				o.(*row).set(id, p.entries[id])
			}
		})
	p.list.OnSelected = func(id widget.ListItemID) { p.sel = id }
	p.list.OnUnselected = func(widget.ListItemID) { p.sel = -1 }
	open := widget.NewButtonWithIcon("Open in new tab", theme.DocumentCreateIcon(), func() { p.Open(p.sel) })
	insert := widget.NewButtonWithIcon("Insert at cursor", theme.ContentPasteIcon(), func() { p.Insert(p.sel) })
	clear := widget.NewButtonWithIcon("Clear history", theme.DeleteIcon(), func() {
		dialog.ShowConfirm("Clear history", "Delete every statement from the workspace's history?", func(ok bool) {
			if ok {
				_ = p.store.ClearHistory(context.Background())
				p.Reload()
			}
		}, p.win)
	})
	for _, b := range []*widget.Button{open, insert, clear} {
		b.Importance = widget.LowImportance
	}
	bar := container.NewHBox(open, insert, clear)
	p.item = container.NewTabItemWithIcon("History", theme.HistoryIcon(), container.NewBorder(bar, nil, nil, nil, p.list))
	return p
}

// Item is the panel's tab (for the workbench's bottom tabs).
func (p *Panel) Item() *container.TabItem { return p.item }

// Entries are the entries listed, newest first.
func (p *Panel) Entries() []persistence.HistoryEntry { return p.entries }

// Reload reads the history from the store.
func (p *Panel) Reload() {
	h, _, err := p.store.History(context.Background(), Limit)
	if err != nil {
		p.host.Error("Reading the history: " + err.Error())
		return
	}
	p.entries = h
	p.sel = -1
	p.list.UnselectAll()
	p.list.Refresh()
}

// Put adds an entry, or updates it when it is listed already (an entry
// with no statement only updates).
func (p *Panel) Put(h persistence.HistoryEntry) {
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
	if len(p.entries) > Limit {
		p.entries = p.entries[:Limit]
	}
	if p.sel >= 0 {
		p.sel++
	}
	p.list.Refresh()
}

// Open opens entry id (from 0, newest first) in a new editor tab, with a
// closing semicolon.
func (p *Panel) Open(id int) {
	if id < 0 || id >= len(p.entries) {
		return
	}
	text := p.entries[id].Statement
	if !strings.HasSuffix(strings.TrimSpace(text), ";") {
		text += ";"
	}
	p.host.OpenInNewTab(text + "\n")
}

// Insert inserts entry id's statement at the cursor of the current
// editor tab.
func (p *Panel) Insert(id int) {
	if id < 0 || id >= len(p.entries) {
		return
	}
	p.host.InsertAtCursor(p.entries[id].Statement)
}

// row is one history entry; a double click opens it.
type row struct {
	widget.BaseWidget
	p      *Panel
	id     int
	icon   *widget.Icon
	when   *widget.Label
	stats  *widget.Label
	text   *widget.Label
	layout *fyne.Container
}

var _ fyne.DoubleTappable = (*row)(nil)

func newRow(p *Panel) *row {
	r := &row{p: p, icon: widget.NewIcon(theme.ConfirmIcon()), when: widget.NewLabel("2006-01-02 15:04:05"),
		stats: widget.NewLabel("1,000,000 rows · 100.0 s"), text: widget.NewLabel("")}
	r.when.Importance = widget.LowImportance
	r.stats.Importance = widget.LowImportance
	r.text.Truncation = fyne.TextTruncateEllipsis
	r.text.TextStyle.Monospace = true
	r.layout = container.NewBorder(nil, nil, container.NewHBox(r.icon, r.when), r.stats, r.text)
	r.ExtendBaseWidget(r)
	return r
}

func (r *row) set(id int, h persistence.HistoryEntry) {
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
		stats += widgets.FormatDuration(h.Duration)
	}
	r.stats.SetText(stats)
	r.text.SetText(strings.Join(strings.Fields(h.Statement), " "))
}

// CreateRenderer implements fyne.Widget.
func (r *row) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(r.layout) }

// Tapped selects the entry.
func (r *row) Tapped(*fyne.PointEvent) { r.p.list.Select(r.id) }

// DoubleTapped opens the statement in a new editor tab.
func (r *row) DoubleTapped(*fyne.PointEvent) {
	r.p.list.Select(r.id)
	r.p.Open(r.id)
}
