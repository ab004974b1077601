package ui

import (
	"strings"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// msgLevel is the severity of a message.
type msgLevel uint8

const (
	levelInfo msgLevel = iota
	levelWarning
	levelError
)

// maxMessages bounds the Messages panel.
const maxMessages = 1000

// msgLoc is the editor position a message is about.
type msgLoc struct {
	tab       *editorTab
	line, col int // 1-based
}

type message struct {
	at    time.Time
	level msgLevel
	text  string
	loc   *msgLoc
	id    int64 // reserved with reserve (0 = none): put replaces it
}

// messagesPanel lists statement outcomes and errors, newest last (as
// DataGrip's and DBeaver's output logs do); a statement that takes a while
// (a query) has one entry, at the time it started, that its outcome
// replaces. The selected message is shown in full on the right, and
// selecting one with a position moves the editor's cursor there.
type messagesPanel struct {
	wb     *Workbench
	list   *widget.List
	detail *widget.Label
	msgs   []message
	item   *container.TabItem
	lastID atomic.Int64
}

func newMessagesPanel(wb *Workbench) *messagesPanel {
	p := &messagesPanel{wb: wb}
	p.detail = widget.NewLabel("")
	p.detail.Wrapping = fyne.TextWrapWord
	p.detail.Selectable = true
	p.detail.TextStyle.Monospace = true
	p.list = widget.NewList(
		func() int { return len(p.msgs) },
		func() fyne.CanvasObject {
			text := widget.NewLabel("")
			text.Truncation = fyne.TextTruncateEllipsis
			at := widget.NewLabel("00:00:00")
			at.Importance = widget.LowImportance
			return container.NewBorder(nil, nil, container.NewHBox(widget.NewIcon(theme.InfoIcon()), at), nil, text)
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id >= len(p.msgs) {
				return
			}
			m := p.msgs[id]
			c := o.(*fyne.Container)
			text := c.Objects[0].(*widget.Label)
			left := c.Objects[1].(*fyne.Container)
			icon := left.Objects[0].(*widget.Icon)
			at := left.Objects[1].(*widget.Label)
			at.SetText(m.at.Format("15:04:05"))
			line := strings.ReplaceAll(m.text, "\n", " — ")
			text.SetText(line)
			switch m.level {
			case levelError:
				icon.SetResource(theme.ErrorIcon())
				text.Importance = widget.DangerImportance
			case levelWarning:
				icon.SetResource(theme.WarningIcon())
				text.Importance = widget.WarningImportance
			default:
				icon.SetResource(theme.InfoIcon())
				text.Importance = widget.MediumImportance
			}
			text.Refresh()
		})
	p.list.OnSelected = func(id widget.ListItemID) {
		if id >= len(p.msgs) {
			return
		}
		m := p.msgs[id]
		p.detail.SetText(m.text)
		if m.loc != nil && wb.editors.byID(m.loc.tab.id) == m.loc.tab {
			wb.editors.tabs.Select(m.loc.tab.item)
			m.loc.tab.ed.SetCursor(m.loc.line-1, m.loc.col-1)
			wb.win.Canvas().Focus(m.loc.tab.ed)
		}
	}
	clear := widget.NewButtonWithIcon("Clear", theme.ContentClearIcon(), p.clear)
	clear.Importance = widget.LowImportance
	split := container.NewHSplit(p.list, container.NewBorder(container.NewHBox(clear), nil, nil, nil, container.NewVScroll(p.detail)))
	split.Offset = 0.6
	p.item = container.NewTabItemWithIcon("Messages", theme.InfoIcon(), split)
	return p
}

// add appends a message and scrolls to it.
func (p *messagesPanel) add(level msgLevel, text string, loc *msgLoc) {
	p.msgs = append(p.msgs, message{at: time.Now(), level: level, text: text, loc: loc})
	if len(p.msgs) > maxMessages {
		p.msgs = append([]message(nil), p.msgs[len(p.msgs)-maxMessages:]...)
	}
	p.list.Refresh()
	p.list.ScrollToBottom()
	if level == levelError || p.detail.Text == "" {
		p.detail.SetText(text)
	}
}

// reserve returns an ID for a message that put adds and later replaces
// (any goroutine may call it).
func (p *messagesPanel) reserve() int64 { return p.lastID.Add(1) }

// put replaces the message with ID id, keeping its time and place, or
// appends it when there is none (it was cleared or dropped).
func (p *messagesPanel) put(id int64, level msgLevel, text string, loc *msgLoc) {
	for i := len(p.msgs) - 1; i >= 0; i-- {
		m := &p.msgs[i]
		if m.id != id {
			continue
		}
		old := m.text
		m.level, m.text = level, text
		if loc != nil {
			m.loc = loc
		}
		p.list.RefreshItem(i)
		if level == levelError || p.detail.Text == old {
			p.detail.SetText(text)
		}
		return
	}
	p.add(level, text, loc)
	p.msgs[len(p.msgs)-1].id = id
}

func (p *messagesPanel) clear() {
	p.msgs = nil
	p.list.UnselectAll()
	p.list.Refresh()
	p.detail.SetText("")
}

// texts returns every message's text (for tests).
func (p *messagesPanel) texts() []string {
	out := make([]string, len(p.msgs))
	for i, m := range p.msgs {
		out[i] = m.text
	}
	return out
}
