package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// While a dialog or popup is over the window, the window's own keys wait,
// as in DBeaver or DataGrip: Esc closes the topmost dialog instead of
// stopping queries, and Ctrl+T, Ctrl+Enter, Ctrl+Shift+B… do nothing
// behind it.

// dismissLabels are the buttons that close a dialog without doing
// anything, in the order they are looked for (Fyne's confirm dialogs say
// No, its information and error dialogs OK).
var dismissLabels = []string{"Cancel", "Close", "No", "Done", "OK"}

// topOverlay returns the dialog or popup over the window, or nil; the
// completion popup does not count (it forwards the editor's keys).
func (wb *Workbench) topOverlay() fyne.CanvasObject {
	c := wb.win.Canvas()
	if c == nil {
		return nil
	}
	top := c.Overlays().Top()
	if top == nil {
		return nil
	}
	if p := wb.authoring().popup; p != nil && p.PopUp() == top {
		return nil
	}
	return top
}

// overlayOpen reports whether a dialog or popup is over the window.
func (wb *Workbench) overlayOpen() bool { return wb.topOverlay() != nil }

// dismissOverlay closes the topmost dialog or popup as its Cancel (Close,
// No, OK) button would, so that the dialog's own clean-up runs; a popup
// without buttons is hidden. A dialog offering only real choices (such as
// "Open read-only" or "Quit") stays. It reports whether something was
// over the window.
func (wb *Workbench) dismissOverlay() bool {
	top := wb.topOverlay()
	switch o := top.(type) {
	case nil:
		return false
	case *widget.PopUpMenu:
		o.Hide()
	case *widget.PopUp:
		buttons := overlayButtons(o.Content, nil)
		for _, label := range dismissLabels {
			for _, b := range buttons {
				if b.Text == label && !b.Disabled() && b.OnTapped != nil {
					b.OnTapped()
					return true
				}
			}
		}
		if len(buttons) == 0 {
			o.Hide()
		}
	}
	return true
}

// overlayButtons collects the visible buttons under o, looking through
// containers, scrolls and splits (a dialog's button row is a container).
func overlayButtons(o fyne.CanvasObject, out []*widget.Button) []*widget.Button {
	if o == nil || !o.Visible() {
		return out
	}
	switch x := o.(type) {
	case *widget.Button:
		out = append(out, x)
	case *fyne.Container:
		for _, ch := range x.Objects {
			out = overlayButtons(ch, out)
		}
	case *container.Scroll:
		out = overlayButtons(x.Content, out)
	case *container.Split:
		out = overlayButtons(x.Leading, out)
		out = overlayButtons(x.Trailing, out)
	}
	return out
}

// gateMenu makes the menu items' shortcuts wait while a dialog is open
// (the driver runs a main menu's shortcut before the dialog sees the key;
// the menu itself cannot be clicked behind a dialog).
func (wb *Workbench) gateMenu(m *fyne.MainMenu) *fyne.MainMenu {
	var gate func(items []*fyne.MenuItem)
	gate = func(items []*fyne.MenuItem) {
		for _, it := range items {
			if it.ChildMenu != nil {
				gate(it.ChildMenu.Items)
			}
			if it.Shortcut == nil || it.Action == nil {
				continue
			}
			act := it.Action
			it.Action = func() {
				if wb.overlayOpen() {
					return
				}
				act()
			}
		}
	}
	for _, menu := range m.Items {
		gate(menu.Items)
	}
	return m
}
