package resulttab

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// pinItems is the toolbar's Pin button when the controller set OnPin.
func (rt *Tab) pinItems() []fyne.CanvasObject {
	if rt.OnPin == nil {
		return nil
	}
	b := widget.NewButtonWithIcon("Pin", theme.ViewRestoreIcon(), rt.OnPin)
	b.Importance = widget.LowImportance
	rt.pinBtn = b
	return []fyne.CanvasObject{b}
}

// pinMenuItems ends the grid's context menu with "Pin to dashboard…"
// when the controller set OnPin.
func (rt *Tab) pinMenuItems() []*fyne.MenuItem {
	if rt.OnPin == nil {
		return nil
	}
	return []*fyne.MenuItem{fyne.NewMenuItemSeparator(), fyne.NewMenuItem("Pin to dashboard…", rt.OnPin)}
}

// PinButton is the toolbar's Pin button (nil without OnPin).
func (rt *Tab) PinButton() *widget.Button { return rt.pinBtn }
