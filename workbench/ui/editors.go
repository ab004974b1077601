package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"

	"github.com/riffle-sql/riffle/workbench/editor"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/dialogs"
)

// editorTab is one SQL editor tab.
type editorTab struct {
	id    int64 // the workspace's tab ID
	title string
	mode  string // modeStreaming or modeBatch: set before each run
	text  string // the editor's text as of the last change
	ed    *sqlEditor
	item  *container.TabItem
}

// sqlEditor is a tab's editor: editor.Editor plus the window's tab keys
// (Ctrl+T, Ctrl+W, Ctrl+[Shift+]PageUp/PageDown, F2), which must work while
// the editor has the focus.
type sqlEditor struct {
	editor.Editor
	wb *Workbench
}

func newSQLEditor(wb *Workbench) *sqlEditor {
	e := &sqlEditor{wb: wb}
	e.ExtendBaseWidget(e)
	return e
}

// TypedShortcut handles the tab keys, then the editor's own.
func (e *sqlEditor) TypedShortcut(s fyne.Shortcut) {
	if e.wb.tabShortcut(s) {
		return
	}
	e.Editor.TypedShortcut(s)
}

// TypedKey handles F2 (rename the tab), then the editor's keys.
func (e *sqlEditor) TypedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyF2 {
		e.wb.editors.renameCurrent()
		return
	}
	e.Editor.TypedKey(ev)
}

// editorTabs are the centre's DocTabs of SQL editors.
type editorTabs struct {
	wb      *Workbench
	tabs    *container.DocTabs
	list    []*editorTab // in display order
	loading bool         // restoring tabs: nothing to save
}

func newEditorTabs(wb *Workbench, ws *persistence.Workspace) *editorTabs {
	et := &editorTabs{wb: wb, tabs: container.NewDocTabs()}
	for _, t := range ws.Tabs {
		mode := ws.Settings[settingTabMode+fmt.Sprint(t.ID)]
		if mode != modeBatch {
			mode = modeStreaming
		}
		tab := et.makeTab(t.ID, t.Title, t.Text, mode)
		et.list = append(et.list, tab)
		et.loading = true
		tab.ed.SetCursor(t.CursorLine, t.CursorCol)
		et.loading = false
	}
	items := make([]*container.TabItem, len(et.list))
	for i, t := range et.list {
		items[i] = t.item
	}
	et.tabs.SetItems(items)
	et.tabs.CreateTab = func() *container.TabItem {
		t := et.add("", "")
		if t == nil {
			return nil
		}
		return t.item
	}
	et.tabs.CloseIntercept = func(it *container.TabItem) {
		if t := et.byItem(it); t != nil {
			et.close(t, true)
		}
	}
	et.tabs.OnSelected = func(it *container.TabItem) {
		if t := et.byItem(it); t != nil {
			_ = wb.store.SetSelectedTab(context.Background(), t.id)
			wb.showEditorResults(t) // result_tabs.go: the tab's own latest result
			wb.updateStatus()
		}
	}
	if len(et.list) == 0 {
		et.newTab("", "")
	}
	return et
}

// makeTab builds the widgets of a tab.
func (et *editorTabs) makeTab(id int64, title, text, mode string) *editorTab {
	wb := et.wb
	t := &editorTab{id: id, title: title, mode: mode, ed: newSQLEditor(wb)}
	t.ed.SetText(text)
	t.text = t.ed.Text()
	t.item = container.NewTabItem(title, t.ed)
	t.ed.OnChanged = func(text string) {
		t.text = text
		et.changed(t)
	}
	t.ed.OnCursorMoved = func(int, int) {
		if et.loading {
			return
		}
		et.changed(t)
		if et.current() == t {
			wb.updateStatus()
		}
	}
	t.ed.OnRunStatement = func(stmt string, start int) { wb.runEditorStatement(t, stmt, start) }
	t.ed.OnRunAll = func(script string) { wb.runScriptIn(t, script) }
	t.ed.OnCancel = wb.Stop
	t.ed.OnExplain = func(stmt string, start int) { wb.explain(t, stmt, start) }
	t.ed.OnFormat = func() { wb.format(t) }
	t.ed.OnComplete = func() { wb.complete(t) }
	wb.hookEditor(t) // authoring hook: completion while typing, builder sync (authoring.go)
	return t
}

// changed hands the tab's current state to the autosaver.
func (et *editorTabs) changed(t *editorTab) {
	if t.id == 0 || et.loading {
		return
	}
	if st, ok := et.state(t); ok {
		et.wb.saver.TabChanged(st)
	}
}

// state is what the workspace stores of a tab; ok is false for a tab that
// is not (or no longer) in the list.
func (et *editorTabs) state(t *editorTab) (persistence.Tab, bool) {
	line, col := t.ed.CursorPosition()
	for i, x := range et.list {
		if x == t {
			return persistence.Tab{ID: t.id, Title: t.title, Text: t.text, CursorLine: line, CursorCol: col, Order: i}, true
		}
	}
	return persistence.Tab{}, false
}

// snapshotAll hands every tab to the autosaver (used before closing).
func (et *editorTabs) snapshotAll() {
	for _, t := range et.list {
		et.changed(t)
	}
}

func (et *editorTabs) byItem(it *container.TabItem) *editorTab {
	for _, t := range et.list {
		if t.item == it {
			return t
		}
	}
	return nil
}

// current returns the selected tab (nil only before the first is made).
func (et *editorTabs) current() *editorTab {
	if t := et.byItem(et.tabs.Selected()); t != nil {
		return t
	}
	if len(et.list) > 0 {
		return et.list[0]
	}
	return nil
}

func (et *editorTabs) selectStored(id int64) {
	for _, t := range et.list {
		if t.id == id {
			et.tabs.Select(t.item)
			return
		}
	}
	if len(et.list) > 0 {
		et.tabs.Select(et.list[0].item)
	}
}

// nextTitle returns "Query N" with the smallest N not in use.
func (et *editorTabs) nextTitle() string {
	used := map[string]bool{}
	for _, t := range et.list {
		used[t.title] = true
	}
	for n := 1; ; n++ {
		if s := fmt.Sprintf("Query %d", n); !used[s] {
			return s
		}
	}
}

// add creates a tab after the others, stores it and returns it (nil when
// the workspace cannot be written: the error goes to Messages).
func (et *editorTabs) add(title, text string) *editorTab {
	if title == "" {
		title = et.nextTitle()
	}
	t := et.makeTab(0, title, text, modeStreaming) // Flink's default mode
	et.list = append(et.list, t)
	if err := et.persist(); err != nil {
		et.list = et.list[:len(et.list)-1]
		et.wb.messages.add(levelError, "Could not add the tab to the workspace: "+err.Error(), nil)
		return nil
	}
	et.saveMode(t)
	return t
}

// newTab adds a tab, selects it and focuses its editor.
func (et *editorTabs) newTab(title, text string) *editorTab {
	t := et.add(title, text)
	if t == nil {
		return nil
	}
	et.tabs.Append(t.item)
	et.tabs.Select(t.item)
	if c := et.wb.win.Canvas(); c != nil {
		c.Focus(t.ed)
	}
	return t
}

// persist writes the set, order and titles of the tabs (new tabs get
// their IDs). Pending edits are flushed first so that an older autosave
// cannot undo a reorder or rename.
func (et *editorTabs) persist() error {
	ctx := context.Background()
	_ = et.wb.saver.Flush(ctx)
	tabs := make([]persistence.Tab, len(et.list))
	for i, t := range et.list {
		tabs[i], _ = et.state(t)
	}
	var sel int64
	if c := et.byItem(et.tabs.Selected()); c != nil {
		sel = c.id
	}
	saved, err := et.wb.store.SaveTabs(ctx, tabs, sel)
	if err != nil {
		return err
	}
	for i, t := range et.list {
		t.id = saved[i].ID
	}
	return nil
}

func (et *editorTabs) saveMode(t *editorTab) {
	if t.id != 0 {
		_ = et.wb.store.SetSetting(context.Background(), settingTabMode+fmt.Sprint(t.id), t.mode)
	}
}

// close removes a tab. With confirm, a tab holding text asks first: its
// SQL is deleted from the workspace.
func (et *editorTabs) close(t *editorTab, confirm bool) {
	if confirm && strings.TrimSpace(t.ed.Text()) != "" {
		dialog.ShowConfirm("Close "+t.title+"?", "The tab's SQL will be deleted from the workspace.\n(Its statements stay in History.)",
			func(ok bool) {
				if ok {
					et.close(t, false)
				}
			}, et.wb.win)
		return
	}
	idx := -1
	for i, x := range et.list {
		if x == t {
			idx = i
		}
	}
	if idx < 0 {
		return
	}
	et.wb.saver.Forget(t.id)
	et.list = append(et.list[:idx], et.list[idx+1:]...)
	et.tabs.Remove(t.item)
	if len(et.list) == 0 {
		et.newTab("", "")
	}
	if err := et.persist(); err != nil {
		et.wb.messages.add(levelError, "Could not save the tabs: "+err.Error(), nil)
	}
	et.wb.updateStatus()
}

func (et *editorTabs) closeCurrent() {
	if t := et.current(); t != nil {
		et.close(t, true)
	}
}

// rename sets a tab's title.
func (et *editorTabs) rename(t *editorTab, title string) {
	title = strings.TrimSpace(title)
	if title == "" || title == t.title {
		return
	}
	t.title = title
	t.item.Text = title
	et.tabs.Refresh()
	if err := et.persist(); err != nil {
		et.wb.messages.add(levelError, "Could not save the tab: "+err.Error(), nil)
	}
}

func (et *editorTabs) renameCurrent() {
	t := et.current()
	if t == nil {
		return
	}
	dialogs.ShowRenameTab(et.wb.win, t.title, func(title string) { et.rename(t, title) })
}

// move shifts a tab by delta places.
func (et *editorTabs) move(t *editorTab, delta int) {
	idx := -1
	for i, x := range et.list {
		if x == t {
			idx = i
		}
	}
	to := idx + delta
	if idx < 0 || to < 0 || to >= len(et.list) {
		return
	}
	et.list[idx], et.list[to] = et.list[to], et.list[idx]
	items := make([]*container.TabItem, len(et.list))
	for i, x := range et.list {
		items[i] = x.item
	}
	et.tabs.SetItems(items)
	et.tabs.Select(t.item)
	if err := et.persist(); err != nil {
		et.wb.messages.add(levelError, "Could not save the tab order: "+err.Error(), nil)
	}
}

func (et *editorTabs) moveCurrent(delta int) {
	if t := et.current(); t != nil {
		et.move(t, delta)
	}
}

// step selects the tab delta places away (wrapping around).
func (et *editorTabs) step(delta int) {
	n := len(et.list)
	if n == 0 {
		return
	}
	i := et.tabs.SelectedIndex()
	t := et.list[((i+delta)%n+n)%n]
	et.tabs.Select(t.item)
	et.wb.win.Canvas().Focus(t.ed)
}

func (et *editorTabs) byID(id int64) *editorTab {
	for _, t := range et.list {
		if t.id == id {
			return t
		}
	}
	return nil
}
