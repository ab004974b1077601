package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Result tabs belong to the editor tab that ran them, as a DataGrip
// console's results do: selecting an editor tab shows its latest result.
// Their titles stay readable when many are open (the query's first words,
// cut to minTitleRunes), each result has a visible close button in its
// header (Fyne's tab strip shows × only under the pointer), and closing a
// result whose query still runs asks first.

// minTitleRunes is how much of a result's title a non-selected tab keeps
// when the strip is too narrow for every full title: "#12 SELECT origin…".
const minTitleRunes = 14

// showEditorResults selects the latest result of editor tab t, when the
// bottom panel shows a result (or nothing): a result of another editor tab
// does not stay in view: when t has no result, Messages is shown instead.
// With Messages, History, Jobs (or a job or peek tab) in front, the panel
// is left alone.
func (wb *Workbench) showEditorResults(t *editorTab) {
	if t == nil || wb.bottom == nil {
		return
	}
	sel := wb.bottom.Selected()
	if sel != nil && wb.resultFor(sel) == nil {
		return // a fixed panel or a job / peek tab is in front
	}
	for i := len(wb.results) - 1; i >= 0; i-- {
		if rt := wb.results[i]; rt.editorTab == t.id {
			if rt.item != sel {
				wb.bottom.Select(rt.item)
			}
			return
		}
	}
	// t has no result: show Messages rather than another tab's result
	if sel != nil && wb.messages != nil && wb.messages.item != nil {
		for _, it := range wb.bottom.Items {
			if it == wb.messages.item {
				wb.bottom.Select(it)
				return
			}
		}
	}
}

// shortResultTitle is a result's title cut to minTitleRunes after its
// number: "#3 flights", "#7 SELECT origin, co…".
func shortResultTitle(rt *resultTab) string {
	num := fmt.Sprintf("#%d", rt.n)
	rest := strings.TrimSpace(strings.TrimPrefix(rt.title, num))
	if r := []rune(rest); len(r) > minTitleRunes {
		rest = strings.TrimSpace(string(r[:minTitleRunes-1])) + "…"
	}
	if rest == "" {
		return num
	}
	return num + " " + rest
}

// newCloseButton is the × at the right of a result's header.
func (rt *resultTab) newCloseButton() *widget.Button {
	b := widget.NewButtonWithIcon("", theme.CancelIcon(), func() { rt.wb.askCloseResult(rt) })
	b.Importance = widget.LowImportance
	return b
}

// askCloseResult closes a result; one whose query still runs (a live
// stream) is closed only after the user confirms stopping it.
func (wb *Workbench) askCloseResult(rt *resultTab) {
	if !rt.isRunning() || wb.win == nil {
		wb.closeResult(rt)
		return
	}
	d := dialog.NewConfirm("Stop and close "+rt.title+"?",
		"Its query is still running: closing the tab stops it and drops its rows.",
		func(ok bool) {
			if ok {
				wb.closeResult(rt)
			}
		}, wb.win)
	d.SetConfirmText("Stop and close")
	d.SetDismissText("Keep")
	d.Show()
}

// resultHeader lays out a result's header: its controls, the status
// filling the middle, the close button at the right.
func (rt *resultTab) resultHeader(bar []fyne.CanvasObject) fyne.CanvasObject {
	rt.closeBtn = rt.newCloseButton()
	return container.NewBorder(nil, nil, container.NewHBox(bar...), rt.closeBtn, rt.statusLbl)
}
