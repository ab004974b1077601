package ui

import (
	"context"

	"github.com/riffle-sql/riffle/workbench/ui/dialogs"
)

// showInitScriptDialog edits the workspace's init script: the statements
// run when the workspace opens (DDL run in the editor is added to it).
func (wb *Workbench) showInitScriptDialog() {
	wb.mu.Lock()
	script := wb.initScript
	wb.mu.Unlock()
	dialogs.ShowInitScript(wb.win, script, func(text string) error {
		if err := wb.store.SaveInitScript(context.Background(), text); err != nil {
			return err
		}
		wb.mu.Lock()
		wb.initScript = text
		wb.mu.Unlock()
		wb.messages.add(levelInfo, "Init script saved; it runs the next time the workspace opens.", nil)
		return nil
	})
}

// complete opens the completion popup at the cursor (Ctrl+Space).
func (wb *Workbench) complete(t *editorTab) {
	if c := wb.conns.of(t); !c.embedded() {
		wb.completeRemote(t, c) // the gateway's complete-statement
		return
	}
	wb.showCompletion(t, true) // authoring: completion_popup.go
}
