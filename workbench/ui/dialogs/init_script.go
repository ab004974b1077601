package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/editor"
)

// ShowInitScript edits a workspace's init script, the statements run
// when the workspace opens, in a SQL editor on w. Save calls save with
// the edited text: an error it returns is shown in an error dialog.
// Cancel (or Esc) changes nothing.
func ShowInitScript(w fyne.Window, script string, save func(text string) error) *dialog.ConfirmDialog {
	ed := editor.New()
	ed.SetText(script)
	note := widget.NewLabel("Run when the workspace opens, like the SQL Client's -i file. " +
		"Successful DDL from the editor is added here (File ▸ Record DDL in the init script).")
	note.Wrapping = fyne.TextWrapWord
	content := container.NewBorder(note, nil, nil, nil, ed)
	d := dialog.NewCustomConfirm("Init script", "Save", "Cancel", content, func(ok bool) {
		if !ok {
			return
		}
		if err := save(ed.Text()); err != nil {
			dialog.ShowError(err, w)
		}
	}, w)
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
	return d
}
