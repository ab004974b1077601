package dialogs

import (
	"errors"
	"fmt"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/persistence"
)

// Texts of the locked-workspace dialog.
const (
	lockedTitle    = "This workspace is open in another Riffle window"
	lockedReadOnly = "Open read-only"
	lockedQuit     = "Quit"
)

// WorkspaceLockedMessage explains err (a persistence.LockedError) to the user.
func WorkspaceLockedMessage(err error) string {
	name, holder := "The workspace", ""
	var le *persistence.LockedError
	if errors.As(err, &le) {
		name = filepath.Base(le.Path)
		if le.PID > 0 {
			holder = fmt.Sprintf(" (process %d", le.PID)
			if !le.Since.IsZero() {
				holder += ", opened at " + le.Since.Local().Format("15:04")
			}
			holder += ")"
		}
	}
	return name + " is already open in another Riffle window" + holder + ".\n\n" +
		"Two windows saving one workspace would overwrite each other's tabs, so this window " +
		"can open it only read-only: you can read and run its SQL, but nothing you change " +
		"here is saved (no autosave, no history). Switch to the other window to edit it, " +
		"or quit."
}

// ShowWorkspaceLocked asks what to do with a workspace another window
// holds: readOnly opens it read-only, quit ends the app.
func ShowWorkspaceLocked(w fyne.Window, err error, readOnly, quit func()) *dialog.ConfirmDialog {
	l := widget.NewLabel(WorkspaceLockedMessage(err))
	l.Wrapping = fyne.TextWrapWord
	d := dialog.NewCustomConfirm(lockedTitle, lockedReadOnly, lockedQuit, l, func(ok bool) {
		if ok {
			readOnly()
		} else {
			quit()
		}
	}, w)
	d.Resize(fyne.NewSize(600, 300))
	d.Show()
	return d
}
