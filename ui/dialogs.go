package ui

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/completion"
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

// maxCompletions is how many candidates the popup lists (the best first):
// more would not fit below the cursor.
const maxCompletions = 12

// complete shows the completions at the cursor (Ctrl+Space), computed by
// package completion from the statement being typed and the catalog: one
// candidate is inserted at once, several are offered in a menu.
func (wb *Workbench) complete(t *editorTab) {
	if c := wb.conns.of(t); !c.embedded() {
		wb.completeRemote(t, c) // the gateway's complete-statement
		return
	}
	res := completion.Complete(t.ed.Text(), t.ed.CursorOffset(), completion.EnvCatalog(wb.env))
	if len(res.Items) == 0 {
		wb.setStatus("No completion here")
		return
	}
	apply := func(it completion.Item) {
		t.ed.ReplaceRange(res.Start, res.End, it.Insert)
		wb.win.Canvas().Focus(t.ed)
	}
	if len(res.Items) == 1 {
		apply(res.Items[0])
		return
	}
	items := res.Items
	if len(items) > maxCompletions {
		items = items[:maxCompletions]
	}
	menu := make([]*fyne.MenuItem, len(items))
	for i, it := range items {
		label := it.Label
		if d := firstLine(it.Detail); d != "" {
			if r := []rune(d); len(r) > 48 {
				d = string(r[:47]) + "…"
			}
			label += "   " + d
		}
		menu[i] = fyne.NewMenuItem(label, func() { apply(it) })
	}
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", menu...), wb.win.Canvas(), t.ed.CursorScreenPosition())
}
