package ui

import (
	"slices"
	"strings"

	"github.com/riffle-sql/riffle/engine/completion"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/ui/completionpopup"
)

// The completion popup (package completionpopup) over an editor tab: the
// candidates come from engine/completion over the embedded catalog; the
// workbench keeps the open popup in authoring().popup.

// completionCatalog reads the engine's catalog and functions.
func (wb *Workbench) completionCatalog() completion.Catalog {
	a := wb.authoring()
	if a.compCat == nil {
		a.compCat = table.CompletionCatalog(wb.env)
	}
	return a.compCat
}

// completeAt computes the candidates at the cursor of t. A keyword that
// is also offered as a function (AVG, COUNT, …) is shown once, as the
// function with its signature.
func (wb *Workbench) completeAt(t *editorTab) completion.Result {
	res := completion.Complete(t.ed.Text(), t.ed.CursorOffset(), wb.completionCatalog())
	funcs := map[string]bool{}
	for _, it := range res.Items {
		if it.Kind == completion.KindFunction {
			funcs[strings.ToUpper(it.Label)] = true
		}
	}
	if len(funcs) > 0 {
		res.Items = slices.DeleteFunc(res.Items, func(it completion.Item) bool {
			return it.Kind == completion.KindKeyword && funcs[strings.ToUpper(it.Label)]
		})
	}
	return res
}

// showCompletion opens the popup for t's cursor (Ctrl+Space: explicit).
// An explicit request with a single candidate inserts it at once; with no
// candidate the status bar says so.
func (wb *Workbench) showCompletion(t *editorTab, explicit bool) {
	wb.closeCompletion()
	res := wb.completeAt(t)
	if len(res.Items) == 0 {
		if explicit {
			wb.setStatus("No completion here (" + res.Context + ")")
		}
		return
	}
	if explicit && len(res.Items) == 1 {
		t.ed.ReplaceRange(res.Start, res.End, res.Items[0].Insert)
		return
	}
	if !explicit && len(res.Items) == 1 && strings.EqualFold(res.Items[0].Insert, res.Prefix) {
		return // typed in full already
	}
	c := wb.win.Canvas()
	if c == nil {
		return
	}
	p := completionpopup.Open(c, t.ed, res, explicit, completionHost{wb, t})
	wb.authoring().popup = p
	p.Show()
}

// closeCompletion hides the popup, if open.
func (wb *Workbench) closeCompletion() {
	a := wb.authoring()
	if p := a.popup; p != nil {
		a.popup = nil
		p.Hide()
	}
}

// completionOpen reports whether the popup is shown (for t, when not nil).
func (wb *Workbench) completionOpen(t *editorTab) bool {
	p := wb.authoring().popup
	return p != nil && p.Visible() && (t == nil || p.Editor() == completionpopup.Editor(t.ed))
}

// autoComplete runs after a change of t's text from old to text: when it
// was one typed character and AutoTrigger says so, the popup opens.
func (wb *Workbench) autoComplete(t *editorTab, old, text string) {
	if wb.completionOpen(nil) || wb.editors.current() != t || !wb.embeddedTab(t) {
		return // a gateway's tab completes on Ctrl+Space, by the gateway
	}
	off := t.ed.CursorOffset()
	if !completionpopup.TypedOneRune(old, text, off) {
		return
	}
	if completion.AutoTrigger(text, off) {
		wb.showCompletion(t, false)
	}
}

// completionHost is the workbench's side of the popup open over tab t
// (completionpopup.Host).
type completionHost struct {
	wb *Workbench
	t  *editorTab
}

func (h completionHost) Complete() completion.Result { return h.wb.completeAt(h.t) }
func (h completionHost) Close()                      { h.wb.closeCompletion() }
func (h completionHost) Reopen()                     { h.wb.showCompletion(h.t, false) }
