package resulttab

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// sortBarWidth is the width (px) of a background sort's progress bar.
const sortBarWidth = 160

// sortProgress is the tab bar's sort progress: a progress bar and a Cancel
// button, shown while the grid sorts in the background (resultgrid's
// grid_sort.go) and hidden otherwise.
type sortProgress struct {
	box    *fyne.Container
	bar    *widget.ProgressBar
	cancel *widget.Button
}

// buildSortProgress makes the sort progress and returns its box for the
// tab's bar.
func (rt *Tab) buildSortProgress() fyne.CanvasObject {
	s := &sortProgress{bar: widget.NewProgressBar()}
	s.cancel = widget.NewButtonWithIcon("Cancel sort", theme.CancelIcon(), rt.grid.CancelSort)
	s.cancel.Importance = widget.LowImportance
	bar := container.NewGridWrap(fyne.NewSize(sortBarWidth, s.bar.MinSize().Height), s.bar)
	s.box = container.NewHBox(container.NewCenter(bar), s.cancel)
	s.box.Hide()
	rt.grid.OnSortProgress = func(sorting bool, done float64) {
		if !sorting {
			s.box.Hide()
			return
		}
		s.bar.SetValue(done)
		if !s.box.Visible() {
			s.box.Show()
		}
	}
	rt.sortUI = s
	return s.box
}

// SortProgress is a background sort's progress bar (nil for a text result).
func (rt *Tab) SortProgress() *widget.ProgressBar {
	if rt.sortUI == nil {
		return nil
	}
	return rt.sortUI.bar
}

// SortCancelButton cancels a background sort (nil for a text result).
func (rt *Tab) SortCancelButton() *widget.Button {
	if rt.sortUI == nil {
		return nil
	}
	return rt.sortUI.cancel
}

// SortBox holds the progress bar and Cancel: visible while a sort runs
// (nil for a text result).
func (rt *Tab) SortBox() *fyne.Container {
	if rt.sortUI == nil {
		return nil
	}
	return rt.sortUI.box
}
