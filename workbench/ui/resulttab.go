package ui

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/ui/resultgrid"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// maxResultTabs bounds the result tabs kept: older finished ones are
// closed (their rows freed) when more arrive.
const maxResultTabs = 20

// Result states as the tab shows them.
const (
	stateRunning  = "RUNNING"
	statePaused   = "PAUSED"
	stateStopping = "STOPPING" // Stop was pressed; the job has not ended yet
	stateFinished = "FINISHED"
	stateCanceled = "CANCELED"
	stateFailed   = "FAILED"
)

// viewNames label the two views in the view switch.
var viewNames = [...]string{results.TableView: "Table", results.ChangelogView: "Changelog"}

// resultTab is the bottom tab of one executed query (or SHOW, DESCRIBE,
// EXPLAIN): a state badge, view switch, pause, stop and export, the grid
// (or text) and a status line.
type resultTab struct {
	wb        *Workbench
	n         int
	title     string
	stmt      string
	sortedAs  string // the ORDER BY key the finished table view was sorted by (query_sort.go)
	res       *results.Result
	text      string // EXPLAIN / SHOW CREATE output ("" = a grid)
	job       *table.JobClient
	cancel    context.CancelFunc
	canceled  atomic.Bool
	started   time.Time
	ended     atomic.Int64 // UnixNano; 0 while running
	editorTab int64        // the editor tab that ran it, -1 = none
	historyID int64
	limit     int   // rows that complete the query (Preview's LIMIT; 0 = none)
	msgID     int64 // its entry in Messages (messagesPanel.reserve)

	// The query's job ID (embedded or on a gateway; job is nil for a
	// gateway's) and where it runs (nil: the embedded engine).
	jobID string
	conn  *connection

	// streaming is set when the query ran in streaming mode (where ORDER
	// BY must start with a time attribute: the grid actions sort in the
	// grid instead).
	streaming bool

	item      *container.TabItem
	grid      *resultgrid.Grid
	textView  *widget.TextGrid
	stateLbl  *widget.Label
	statusLbl *widget.Label
	errLbl    *widget.Label
	viewSel   *widget.RadioGroup
	follow    *widget.Check // changelog view: keep the newest change in sight
	pauseBtn  *widget.Button
	stopBtn   *widget.Button
	exportBtn *widget.Button
	closeBtn  *widget.Button // the × at the header's right (result_tabs.go)
	pager     *fyne.Container
	pageLbl   *widget.Label
	emptyLbl  *widget.Label // "No rows" / "Waiting for rows…" over an empty grid

	lastState  string
	lastStatus time.Time
	// pausedAt is the number of changes received when the view was paused.
	pausedAt int64

	mon resultMon // monitoring hook: plan, Chart and Plan views (monitoring.go)
}

// addResult shows a new result tab and selects it.
func (wb *Workbench) addResult(rt *resultTab) {
	if wb.closed {
		if rt.isRunning() {
			rt.stop()
		}
		return
	}
	wb.resultN++
	rt.n = wb.resultN
	if rt.title == "" {
		rt.title = resultTitle(rt.stmt)
	}
	rt.title = fmt.Sprintf("#%d %s", rt.n, rt.title)
	rt.build()
	wb.results = append(wb.results, rt)
	wb.bottom.Append(rt.item)
	wb.bottom.Select(rt.item)
	wb.pruneResults()
	rt.tick(true)
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
			if !rt.isRunning() {
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
		if rt.item == it {
			return rt
		}
	}
	return nil
}

func (wb *Workbench) selectedResult() *resultTab { return wb.resultFor(wb.bottom.Selected()) }

// closeResult stops a result's query and removes its tab.
func (wb *Workbench) closeResult(rt *resultTab) {
	if rt.isRunning() {
		rt.stop()
	}
	rt.closeViews() // monitoring hook
	for i, x := range wb.results {
		if x == rt {
			wb.results = append(wb.results[:i], wb.results[i+1:]...)
			break
		}
	}
	wb.bottom.Remove(rt.item)
	wb.updateStatus()
}

func (rt *resultTab) build() {
	wb := rt.wb
	rt.stateLbl = widget.NewLabel("")
	rt.stateLbl.TextStyle = fyne.TextStyle{Bold: true}
	rt.statusLbl = widget.NewLabel("")
	rt.statusLbl.Truncation = fyne.TextTruncateEllipsis
	rt.errLbl = widget.NewLabel("")
	rt.errLbl.Wrapping = fyne.TextWrapWord
	rt.errLbl.Importance = widget.DangerImportance
	rt.errLbl.Hide()
	rt.exportBtn = widget.NewButtonWithIcon("Export…", theme.DownloadIcon(), func() { wb.showExportDialog(rt) })
	rt.exportBtn.Importance = widget.LowImportance

	var body fyne.CanvasObject
	bar := []fyne.CanvasObject{rt.stateLbl}
	if rt.text != "" {
		rt.textView = widget.NewTextGridFromString(rt.text)
		// inset like the grid's cells, not against the tab's edge
		body = container.New(layout.NewCustomPaddedLayout(theme.Padding(), 0, theme.InnerPadding(), 0), rt.textView)
		copyBtn := widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() {
			fyne.CurrentApp().Clipboard().SetContent(rt.text)
		})
		copyBtn.Importance = widget.LowImportance
		bar = append(bar, copyBtn)
	} else {
		rt.grid = resultgrid.New(rt.res, results.TableView)
		rt.grid.OnSortError = func(err error) { wb.setStatus(err.Error()) }
		rt.grid.OnStatus = func(s string) {
			if s == "" {
				s = "Ready"
			}
			wb.setStatus(s)
		}
		rt.grid.Do = wb.do
		rt.grid.OnChanged = rt.updateStatus
		rt.grid.OnMenu = rt.showMenu
		rt.grid.OnCellMenu, rt.grid.OnHeaderMenu = rt.showCellMenu, rt.showHeaderMenu // authoring hook (grid_actions.go)
		rt.grid.OnShortcut = wb.globalShortcut
		rt.emptyLbl = widget.NewLabel("")
		rt.emptyLbl.Importance = widget.LowImportance
		rt.emptyLbl.Hide()
		body = container.NewStack(rt.grid, container.NewCenter(rt.emptyLbl))
		if rt.job != nil || rt.jobID != "" {
			rt.follow = widget.NewCheck("Follow", nil)
			rt.follow.SetChecked(true) // before OnChanged: no scroll of the empty grid
			rt.follow.OnChanged = func(on bool) {
				if on {
					rt.grid.FollowTail()
				}
			}
			rt.follow.Hide()
			rt.viewSel = widget.NewRadioGroup([]string{viewNames[results.TableView], viewNames[results.ChangelogView]}, func(s string) {
				if s == viewNames[results.ChangelogView] {
					rt.grid.SetView(results.ChangelogView)
					rt.follow.Show()
				} else {
					rt.grid.SetView(results.TableView)
					rt.follow.Hide()
				}
				rt.updateStatus()
			})
			rt.viewSel.Horizontal = true
			rt.viewSel.Required = true
			rt.viewSel.SetSelected(viewNames[results.TableView])
			rt.pauseBtn = widget.NewButtonWithIcon("Pause", theme.MediaPauseIcon(), rt.togglePause)
			rt.pauseBtn.Importance = widget.LowImportance
			rt.stopBtn = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), func() { wb.stopResults(rt) })
			rt.stopBtn.Importance = widget.LowImportance
			bar = append(bar, rt.viewSel, rt.follow, rt.pauseBtn, rt.stopBtn)
		}
		bar = append(bar, rt.exportBtn)
		prev := widget.NewButtonWithIcon("", theme.NavigateBackIcon(), func() { rt.grid.SetPage(rt.grid.Page() - 1) })
		next := widget.NewButtonWithIcon("", theme.NavigateNextIcon(), func() { rt.grid.SetPage(rt.grid.Page() + 1) })
		rt.pageLbl = widget.NewLabel("")
		rt.pager = container.NewHBox(prev, rt.pageLbl, next)
		rt.pager.Hide()
	}
	if rt.pager != nil {
		// the pager belongs to the grid: under it, in the Data view
		body = container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), rt.pager), nil, nil, body)
	}
	body = rt.wrapViews(body)   // monitoring hook: Data / Chart / Plan views
	top := rt.resultHeader(bar) // result_tabs.go: with a close button
	rt.item = container.NewTabItemWithIcon(rt.title, theme.MediaPlayIcon(),
		container.NewBorder(container.NewVBox(top, rt.errLbl), nil, nil, nil, body))
}

// state is what the tab's badge says.
func (rt *resultTab) state() string {
	st, _ := rt.res.State()
	switch st {
	case results.Running:
		if rt.canceled.Load() {
			return stateStopping
		}
		if rt.res.Paused() {
			return statePaused
		}
		return stateRunning
	case results.Finished:
		return stateFinished
	case results.Canceled:
		if rt.jobEnding() {
			return stateStopping
		}
		return stateCanceled
	}
	return stateFailed
}

// jobEnding reports a cancelled query whose embedded job has not ended yet
// (its reader stopped first).
func (rt *resultTab) jobEnding() bool {
	return rt.canceled.Load() && rt.job != nil && !rt.job.GetJobStatus().IsTerminal()
}

// jobStopped reports whether the query's embedded job was cancelled from
// elsewhere (STOP JOB in another tab, Cancel in the Jobs panel): its
// reader ends with an error, and the query is CANCELED, not FAILED. The
// reader may see the error before the job has ended: it waits a little.
func (rt *resultTab) jobStopped() bool {
	if rt.job == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = rt.job.Wait(ctx)
	return rt.job.GetJobStatus() == table.JobCanceled
}

// stopping reports whether Stop was pressed and the query or its job has
// not ended yet.
func (rt *resultTab) stopping() bool { return rt.state() == stateStopping }

func (rt *resultTab) isRunning() bool {
	st, _ := rt.res.State()
	return st == results.Running
}

// elapsed is the query's run time so far (or in total).
func (rt *resultTab) elapsed() time.Duration {
	if e := rt.ended.Load(); e != 0 {
		return time.Unix(0, e).Sub(rt.started)
	}
	return time.Since(rt.started)
}

// stop cancels the query (the job is cancelled; the rows so far stay).
func (rt *resultTab) stop() {
	if !rt.isRunning() {
		return
	}
	rt.canceled.Store(true)
	if rt.job != nil {
		_ = rt.job.Cancel()
	}
	if rt.cancel != nil {
		rt.cancel()
	}
}

// togglePause pauses or resumes the view; the query keeps running.
func (rt *resultTab) togglePause() {
	if rt.grid == nil {
		return
	}
	p := !rt.res.Paused()
	if p && !rt.isRunning() {
		return
	}
	if p {
		rt.pausedAt = rt.res.Stats().Changes
	}
	rt.grid.SetPaused(p)
	rt.tick(true)
}

// tick is the result's share of the workbench tick: it redraws the grid
// when the result changed (visible tabs only) and keeps the state badge and
// status line current.
func (rt *resultTab) tick(visible bool) {
	state := rt.state()
	changed := state != rt.lastState
	if changed {
		rt.lastState = state
		rt.applyState(state)
	}
	rt.tickViews(visible) // monitoring hook
	if !visible {
		return
	}
	if rt.grid != nil && changed && !rt.isRunning() {
		rt.grid.RefitWidths() // sized from the first rows while it ran
	}
	if rt.grid != nil && (changed || rt.res.NeedsRefresh(rt.grid.Version())) {
		if state != statePaused && rt.grid.Frozen() {
			rt.grid.Thaw() // finished while paused: show the final rows
			rt.res.SetPaused(false)
		}
		rt.grid.RefreshFrame() // calls updateStatus
		if rt.grid.View() == results.ChangelogView && (state == stateRunning || changed) && rt.follow.Checked {
			// follow the newest changes, and show the last ones when the
			// view is paused or the query ends
			rt.grid.FollowTail()
		}
		return
	}
	live := state == stateRunning || state == statePaused // the time runs, a paused view counts what it does not show
	if changed || (live && time.Since(rt.lastStatus) >= 500*time.Millisecond) {
		rt.updateStatus()
	}
}

// refresh redraws the tab now (it was just selected).
func (rt *resultTab) refresh(force bool) {
	if rt.grid != nil && force && !rt.grid.Frozen() {
		rt.grid.RefreshFrame()
	}
	rt.tick(true)
}

func (rt *resultTab) applyState(state string) {
	rt.stateLbl.SetText(state)
	var icon fyne.Resource
	switch state {
	case stateRunning:
		rt.stateLbl.Importance = widget.HighImportance
		icon = theme.MediaPlayIcon()
	case statePaused, stateStopping:
		rt.stateLbl.Importance = widget.WarningImportance
		icon = theme.MediaPauseIcon()
		if state == stateStopping {
			icon = theme.MediaStopIcon()
		}
	case stateFinished:
		rt.stateLbl.Importance = widget.SuccessImportance
		icon = theme.ConfirmIcon()
	case stateCanceled:
		rt.stateLbl.Importance = widget.WarningImportance // as in the Jobs panel: not the disabled grey
		icon = theme.MediaStopIcon()
	default:
		rt.stateLbl.Importance = widget.DangerImportance
		icon = theme.ErrorIcon()
	}
	rt.stateLbl.Refresh()
	if rt.item.Icon != icon {
		rt.item.Icon = icon
		rt.wb.bottom.Refresh()
	}
	running := state == stateRunning || state == statePaused
	if rt.stopBtn != nil {
		if running {
			rt.stopBtn.Enable()
			rt.pauseBtn.Enable()
		} else {
			rt.stopBtn.Disable()
			rt.pauseBtn.Disable()
		}
		if state == statePaused {
			rt.pauseBtn.SetText("Resume")
			rt.pauseBtn.SetIcon(theme.MediaPlayIcon())
		} else {
			rt.pauseBtn.SetText("Pause")
			rt.pauseBtn.SetIcon(theme.MediaPauseIcon())
		}
	}
	if _, err := rt.res.State(); err != nil && state == stateFailed {
		rt.errLbl.SetText(err.Error())
		rt.errLbl.Show()
	}
	rt.wb.updateStatus()
}

// updateStatus writes the status line: rows, dropped rows, elapsed time.
func (rt *resultTab) updateStatus() {
	rt.lastStatus = time.Now()
	var s string
	if rt.grid != nil {
		s = rt.grid.StatusText()
		switch {
		case rt.grid.Total() > 0:
			rt.emptyLbl.Hide()
		case rt.isRunning():
			rt.emptyLbl.SetText("Waiting for rows…")
			rt.emptyLbl.Show()
		default:
			rt.emptyLbl.SetText("No rows")
			rt.emptyLbl.Show()
		}
		if rt.pager != nil {
			if p := rt.grid.Pages(); p > 1 {
				from := rt.grid.PageStart() + 1
				to := rt.grid.PageStart() + rt.grid.PageRows()
				rt.pageLbl.SetText(fmt.Sprintf("Rows %s–%s of %s (page %d of %d)", widgets.GroupDigits(from), widgets.GroupDigits(to), widgets.GroupDigits(rt.grid.Total()), rt.grid.Page()+1, p))
				rt.pager.Show()
			} else {
				rt.pager.Hide()
			}
		}
	} else {
		s = fmt.Sprintf("%d lines", strings.Count(rt.text, "\n")+1)
	}
	if rt.res.Paused() {
		// The grid and its counts stay as they were at the pause; what
		// arrives meanwhile is counted apart and shown on Resume.
		n := max(0, rt.res.Stats().Changes-rt.pausedAt)
		noun := "changes"
		if n == 1 {
			noun = "change"
		}
		s += fmt.Sprintf(" · paused: +%s %s not shown", widgets.GroupDigits(int(n)), noun)
	}
	s += " · " + widgets.FormatDuration(rt.elapsed())
	s += remoteJobNote(rt) // last: in a narrow window the counts stay in view
	rt.statusLbl.SetText(s)
}

// showMenu opens the grid's context menu.
func (rt *resultTab) showMenu(at fyne.Position) { rt.showMenuWith(nil, at) }

// showMenuWith opens the grid's context menu with extra items first (the
// grid actions of a right-clicked cell or header).
func (rt *resultTab) showMenuWith(extra []*fyne.MenuItem, at fyne.Position) {
	c := fyne.CurrentApp().Driver().CanvasForObject(rt.grid)
	if c == nil {
		return
	}
	if len(extra) > 0 {
		extra = append(extra, fyne.NewMenuItemSeparator())
	}
	m := fyne.NewMenu("", append(extra,
		fyne.NewMenuItem("Copy", func() { rt.grid.CopySelection(nil, false) }),
		fyne.NewMenuItem("Copy with column names", func() { rt.grid.CopySelection(nil, true) }),
		fyne.NewMenuItem("Select all", rt.grid.SelectAll),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Export…", func() { rt.wb.showExportDialog(rt) }),
	)...)
	widgets.ShowMenuAt(m, c, at) // popupmenu.go: upward near the bottom
}
