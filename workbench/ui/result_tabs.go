package ui

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"

	"github.com/riffle-sql/riffle/workbench/ui/resulttab"
)

// Result tabs belong to the editor tab that ran them, as a DataGrip
// console's results do: selecting an editor tab shows its latest result.
// Each is a resulttab.Tab (its badge, buttons, grid and status) that the
// workbench numbers, keeps in its bottom tabs and closes; their titles
// stay readable when many are open (tabfit.go), and closing a result
// whose query still runs asks first.

// maxResultTabs bounds the result tabs kept: older finished ones are
// closed (their rows freed) when more arrive.
const maxResultTabs = 20

// resultTab is a result tab as the workbench keeps it: the room's Tab and
// what the workbench knows of the statement behind it.
type resultTab struct {
	*resulttab.Tab
	wb        *Workbench
	stmt      string
	sortedAs  string // the ORDER BY key the finished table view was sorted by (query_sort.go)
	editorTab int64  // the editor tab that ran it, -1 = none
	historyID int64
	limit     int   // rows that complete the query (Preview's LIMIT; 0 = none)
	msgID     int64 // its entry in Messages (messagesPanel.reserve)

	// conn is where the query runs (nil: the embedded engine).
	conn *connection

	// streaming is set when the query ran in streaming mode (where ORDER
	// BY must start with a time attribute: the grid actions sort in the
	// grid instead).
	streaming bool

	mon resultMon // monitoring hook: plan, Chart and Plan views (monitoring.go)
}

// addResult shows a new result tab and selects it.
func (wb *Workbench) addResult(rt *resultTab) {
	if wb.closed {
		if rt.IsRunning() {
			rt.Stop()
		}
		return
	}
	wb.resultN++
	rt.N = wb.resultN
	if rt.Title == "" {
		rt.Title = resultTitle(rt.stmt)
	}
	rt.Title = fmt.Sprintf("#%d %s", rt.N, rt.Title)
	wb.pinHook(rt)              // dashboard hook: the Pin button (dashboard_pin.go)
	rt.Build(resultTabHost{rt}) // result_tab_host.go
	wb.results = append(wb.results, rt)
	wb.bottom.Append(rt.Item())
	wb.bottom.Select(rt.Item())
	wb.pruneResults()
	rt.Tick(true)
}

// resultTitle names a result after its statement: the table after FROM,
// or the statement's first words.
func resultTitle(stmt string) string {
	f := strings.Fields(stmt)
	for i, w := range f {
		if strings.EqualFold(w, "FROM") && i+1 < len(f) {
			if name := windowTVFTable(f[i+1:]); name != "" {
				return name // authoring hook: FROM TABLE(TUMBLE(TABLE t, …)) is named t
			}
			name := strings.Trim(f[i+1], "`();")
			if j := strings.LastIndexByte(name, '.'); j >= 0 {
				name = strings.Trim(name[j+1:], "`")
			}
			if name != "" && !strings.HasPrefix(name, "(") {
				return name
			}
		}
	}
	s := strings.Join(f, " ")
	if r := []rune(s); len(r) > 24 {
		s = string(r[:23]) + "…"
	}
	return s
}

// pruneResults closes the oldest finished results beyond maxResultTabs.
func (wb *Workbench) pruneResults() {
	for len(wb.results) > maxResultTabs {
		victim := -1
		for i, rt := range wb.results {
			if !rt.IsRunning() {
				victim = i
				break
			}
		}
		if victim < 0 {
			return
		}
		wb.closeResult(wb.results[victim])
	}
}

func (wb *Workbench) resultFor(it *container.TabItem) *resultTab {
	if it == nil {
		return nil
	}
	for _, rt := range wb.results {
		if rt.Item() == it {
			return rt
		}
	}
	return nil
}

func (wb *Workbench) selectedResult() *resultTab { return wb.resultFor(wb.bottom.Selected()) }

// closeResult stops a result's query and removes its tab.
func (wb *Workbench) closeResult(rt *resultTab) {
	if rt.IsRunning() {
		rt.Stop()
	}
	rt.closeViews() // monitoring hook
	if g := rt.Grid(); g != nil {
		g.CancelSort() // a background sort of a closed result is not waited for
	}
	for i, x := range wb.results {
		if x == rt {
			wb.results = append(wb.results[:i], wb.results[i+1:]...)
			break
		}
	}
	wb.bottom.Remove(rt.Item())
	wb.updateStatus()
}

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
			if rt.Item() != sel {
				wb.bottom.Select(rt.Item())
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

// askCloseResult closes a result; one whose query still runs (a live
// stream) is closed only after the user confirms stopping it.
func (wb *Workbench) askCloseResult(rt *resultTab) {
	if !rt.IsRunning() || wb.win == nil {
		wb.closeResult(rt)
		return
	}
	d := dialog.NewConfirm("Stop and close "+rt.Title+"?",
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
