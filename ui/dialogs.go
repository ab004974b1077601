package ui

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/editor"
)

// showInitScriptDialog edits the workspace's init script: the statements
// run when the workspace opens (DDL run in the editor is added to it).
func (wb *Workbench) showInitScriptDialog() {
	wb.mu.Lock()
	script := wb.initScript
	wb.mu.Unlock()
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
		text := ed.Text()
		if err := wb.store.SaveInitScript(context.Background(), text); err != nil {
			dialog.ShowError(err, wb.win)
			return
		}
		wb.mu.Lock()
		wb.initScript = text
		wb.mu.Unlock()
		wb.messages.add(levelInfo, "Init script saved; it runs the next time the workspace opens.", nil)
	}, wb.win)
	d.Resize(fyne.NewSize(900, 600))
	d.Show()
}

// complete opens the completion popup at the cursor (Ctrl+Space).
func (wb *Workbench) complete(t *editorTab) {
	if c := wb.conns.of(t); !c.embedded() {
		wb.completeRemote(t, c) // the gateway's complete-statement
		return
	}
	wb.showCompletion(t, true) // authoring: completion_popup.go
}
