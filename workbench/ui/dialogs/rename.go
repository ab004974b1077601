package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// ShowRenameTab asks for a tab's new title, starting from current, on w:
// Rename or Enter in the entry calls rename with the text (issue 21);
// Cancel changes nothing. The entry has the keyboard focus.
func ShowRenameTab(w fyne.Window, current string, rename func(title string)) *dialog.FormDialog {
	e := widget.NewEntry()
	e.SetText(current)
	d := dialog.NewForm("Rename tab", "Rename", "Cancel", []*widget.FormItem{widget.NewFormItem("Title", e)},
		func(ok bool) {
			if ok {
				rename(e.Text)
			}
		}, w)
	e.OnSubmitted = func(string) { d.Submit() } // Enter confirms (issue 21)
	d.Resize(fyne.NewSize(360, 160))
	d.Show()
	w.Canvas().Focus(e)
	return d
}
