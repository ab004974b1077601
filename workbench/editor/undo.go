package editor

import (
	"time"
	"unicode/utf8"
)

// editKind tells how an edit was made, for grouping undo steps.
type editKind uint8

const (
	kindOther     editKind = iota // paste, cut, Enter, indent, replace, …: never merged
	kindType                      // a typed character
	kindBackspace                 // Backspace
	kindDelete                    // Delete
)

// edit is one replacement: the text removed at position at, and the text
// inserted there instead.
type edit struct {
	at                pos
	removed, inserted string
}

// selection is a cursor and the anchor of its selection.
type selection struct {
	cursor, anchor pos
}

// editGroup is one undo step.
type editGroup struct {
	edits         []edit
	before, after selection
	kind          editKind
	when          time.Time
	sealed        bool // no further edit may be merged in
}

// maxUndo caps the number of undo steps kept.
const maxUndo = 2000

// mergeWindow is how long after the last typed character a new one still
// joins the same undo step.
const mergeWindow = 1500 * time.Millisecond

// history holds the undo and redo stacks.
type history struct {
	undo, redo []*editGroup
	// compound, when not nil, collects every edit until endCompound.
	compound *editGroup
}

// reset forgets all history.
func (h *history) reset() {
	*h = history{}
}

// seal stops the last step from absorbing further typing, e.g. after the
// cursor moved.
func (h *history) seal() {
	if n := len(h.undo); n > 0 {
		h.undo[n-1].sealed = true
	}
}

// beginCompound starts a step that collects every recorded edit until
// endCompound, whatever its kind.
func (h *history) beginCompound(before selection, now time.Time) {
	h.compound = &editGroup{before: before, when: now, sealed: true}
}

// endCompound closes the compound step and pushes it if it holds edits.
func (h *history) endCompound(after selection) {
	g := h.compound
	h.compound = nil
	if g == nil || len(g.edits) == 0 {
		return
	}
	g.after = after
	h.push(g)
}

func (h *history) push(g *editGroup) {
	h.seal()
	h.undo = append(h.undo, g)
	if len(h.undo) > maxUndo {
		copy(h.undo, h.undo[len(h.undo)-maxUndo:])
		clear(h.undo[maxUndo:])
		h.undo = h.undo[:maxUndo]
	}
	h.redo = nil
}

// record adds an edit that was just applied. before is the selection before
// it and after the one after it.
func (h *history) record(e edit, kind editKind, before, after selection, now time.Time) {
	if h.compound != nil {
		h.compound.edits = append(h.compound.edits, e)
		return
	}
	h.redo = nil
	if n := len(h.undo); n > 0 && h.merge(h.undo[n-1], e, kind, now) {
		g := h.undo[n-1]
		g.after = after
		g.when = now
		return
	}
	h.push(&editGroup{edits: []edit{e}, before: before, after: after, kind: kind, when: now})
}

// merge folds e into g when both are the same kind of small, contiguous
// edit made in quick succession. Typing merges until a new word starts (a word
// character typed after a space or punctuation), so undo steps back word by
// word.
func (h *history) merge(g *editGroup, e edit, kind editKind, now time.Time) bool {
	if g.sealed || g.kind != kind || kind == kindOther || now.Sub(g.when) > mergeWindow || len(g.edits) != 1 {
		return false
	}
	last := &g.edits[0]
	switch kind {
	case kindType:
		if e.removed != "" || endOf(last.at, last.inserted) != e.at {
			return false
		}
		prev, _ := utf8.DecodeLastRuneInString(last.inserted)
		next, _ := utf8.DecodeRuneInString(e.inserted)
		if !isWordRune(prev) && isWordRune(next) {
			return false
		}
		last.inserted += e.inserted
	case kindBackspace:
		if e.inserted != "" || last.inserted != "" || endOf(e.at, e.removed) != last.at {
			return false
		}
		last.at = e.at
		last.removed = e.removed + last.removed
	case kindDelete:
		if e.inserted != "" || last.inserted != "" || e.at != last.at {
			return false
		}
		last.removed += e.removed
	}
	return true
}
