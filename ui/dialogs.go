package ui

import (
	"context"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/catalogbrowser"
	"github.com/riffle-sql/riffle/editor"
	"github.com/riffle-sql/riffle/engine/sql"
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

// completions returns what Ctrl+Space offers for prefix: tables and views
// of the current database, their columns, then keywords, each at most once.
func (wb *Workbench) completions(prefix string) []string {
	p := strings.ToUpper(prefix)
	seen := map[string]bool{}
	var names, words []string
	add := func(list *[]string, s string) {
		if s == "" || seen[strings.ToUpper(s)] || !strings.HasPrefix(strings.ToUpper(s), p) {
			return
		}
		seen[strings.ToUpper(s)] = true
		*list = append(*list, s)
	}
	src := catalogbrowser.EnvSource{Env: wb.env}
	cat, db := src.Current()
	if objs, err := src.Objects(cat, db); err == nil {
		for _, o := range objs {
			add(&names, sql.QuoteIdentIfNeeded(o.Name))
		}
		if len(objs) <= 200 {
			for _, o := range objs {
				if d, err := src.Details(cat, db, o.Name); err == nil {
					for _, c := range d.Columns {
						add(&names, sql.QuoteIdentIfNeeded(c.Name))
					}
				}
			}
		}
	}
	sort.Strings(names)
	for _, k := range sql.Keywords() {
		add(&words, k.Word)
	}
	return append(names, words...)
}

// complete shows the completions for the word before the cursor
// (Ctrl+Space); one candidate is inserted at once.
func (wb *Workbench) complete(t *editorTab) {
	if c := wb.conns.of(t); !c.embedded() {
		wb.completeRemote(t, c) // the gateway's complete-statement
		return
	}
	prefix, start := t.ed.WordBeforeCursor()
	cands := wb.completions(prefix)
	if len(cands) == 0 {
		wb.setStatus("No completion for " + prefix)
		return
	}
	end := start + len(prefix)
	apply := func(s string) {
		t.ed.ReplaceRange(start, end, s)
		wb.win.Canvas().Focus(t.ed)
	}
	if len(cands) == 1 {
		apply(cands[0])
		return
	}
	if len(cands) > 30 {
		cands = cands[:30]
	}
	items := make([]*fyne.MenuItem, len(cands))
	for i, c := range cands {
		items[i] = fyne.NewMenuItem(c, func() { apply(c) })
	}
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", items...), wb.win.Canvas(), t.ed.CursorScreenPosition())
}
