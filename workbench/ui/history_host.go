package ui

// historyHost is the History panel's way to the editors and the
// Messages panel (history.Host).
type historyHost struct{ wb *Workbench }

// OpenInNewTab opens text in a new editor tab.
func (h historyHost) OpenInNewTab(text string) { h.wb.editors.newTab("", text) }

// InsertAtCursor inserts text at the cursor of the current editor tab and
// focuses it.
func (h historyHost) InsertAtCursor(text string) {
	if t := h.wb.editors.current(); t != nil {
		t.ed.InsertAtCursor(text)
		h.wb.win.Canvas().Focus(t.ed)
	}
}

// Error adds msg to Messages as an error.
func (h historyHost) Error(msg string) { h.wb.messages.add(levelError, msg, nil) }
