package resulttab

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

// Result states as the tab's badge shows them.
const (
	Running  = "RUNNING"
	Paused   = "PAUSED"
	Stopping = "STOPPING" // Stop was pressed; the job has not ended yet
	Finished = "FINISHED"
	Canceled = "CANCELED"
	Failed   = "FAILED"
)

// viewNames label the two views in the view switch.
var viewNames = [...]string{results.TableView: "Table", results.ChangelogView: "Changelog"}

// ViewName is the label of a result view in the view switch: "Table" or
// "Changelog".
func ViewName(v results.View) string { return viewNames[v] }

// Tab is the bottom tab of one executed query (or SHOW, DESCRIBE,
// EXPLAIN): a state badge, view switch, pause, stop and export, the grid
// (or text) and a status line. The controller fills its exported fields
// (on any goroutine) before Build; after Build it is used on the UI
// goroutine only, except Canceled, SetEnded, Stop and State, which the
// query's reader calls.
type Tab struct {
	N       int                // the result's number, "#N" in its title
	Title   string             // "#N name", set before Build
	Res     *results.Result    // its rows
	Text    string             // EXPLAIN / SHOW CREATE output ("" = a grid)
	Job     *table.JobClient   // the query's embedded job (nil: none, or a gateway's)
	JobID   string             // the query's job ID, embedded or on a gateway ("" = none)
	Cancel  context.CancelFunc // stops the reading of its rows (nil: nothing to stop)
	Started time.Time          // when the statement started
	// OnPin, when set, pins the result to a dashboard: the tab gets a Pin
	// button and a "Pin to dashboard…" menu item (pin.go).
	OnPin func()

	canceled atomic.Bool
	ended    atomic.Int64 // UnixNano; 0 while running

	host      Host
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
	pinBtn    *widget.Button // Pin (pin.go), nil without OnPin
	sortUI    *sortProgress  // a background sort's progress and Cancel (sort.go)
	closeBtn  *widget.Button // the × at the header's right
	pager     *fyne.Container
	pageLbl   *widget.Label
	emptyLbl  *widget.Label // "No rows" / "Waiting for rows…" over an empty grid

	lastState  string
	lastStatus time.Time
	// pausedAt is the number of changes received when the view was paused.
	pausedAt int64
}

// Build makes the tab's widgets (its TabItem is Item) with host for what
// it asks of the workbench.
func (rt *Tab) Build(host Host) {
	rt.host = host
	rt.stateLbl = widget.NewLabel("")
	rt.stateLbl.TextStyle = fyne.TextStyle{Bold: true}
	rt.statusLbl = widget.NewLabel("")
	rt.statusLbl.Truncation = fyne.TextTruncateEllipsis
	rt.errLbl = widget.NewLabel("")
	rt.errLbl.Wrapping = fyne.TextWrapWord
	rt.errLbl.Importance = widget.DangerImportance
	rt.errLbl.Hide()
	rt.exportBtn = widget.NewButtonWithIcon("Export…", theme.DownloadIcon(), host.Export)
	rt.exportBtn.Importance = widget.LowImportance

	var body fyne.CanvasObject
	bar := []fyne.CanvasObject{rt.stateLbl}
	if rt.Text != "" {
		rt.textView = widget.NewTextGridFromString(rt.Text)
		// inset like the grid's cells, not against the tab's edge
		body = container.New(layout.NewCustomPaddedLayout(theme.Padding(), 0, theme.InnerPadding(), 0), rt.textView)
		copyBtn := widget.NewButtonWithIcon("Copy", theme.ContentCopyIcon(), func() {
			fyne.CurrentApp().Clipboard().SetContent(rt.Text)
		})
		copyBtn.Importance = widget.LowImportance
		bar = append(bar, copyBtn)
	} else {
		rt.grid = resultgrid.New(rt.Res, results.TableView)
		rt.grid.OnSortError = func(err error) { host.SetStatus(err.Error()) }
		rt.grid.OnStatus = func(s string) {
			if s == "" {
				s = "Ready"
			}
			host.SetStatus(s)
		}
		rt.grid.Do = host.Do
		sorting := rt.buildSortProgress() // sort.go
		rt.grid.OnChanged = rt.UpdateStatus
		rt.grid.OnMenu = rt.showMenu
		rt.grid.OnCellMenu, rt.grid.OnHeaderMenu = rt.showCellMenu, rt.showHeaderMenu
		rt.grid.OnShortcut = host.Shortcut
		rt.emptyLbl = widget.NewLabel("")
		rt.emptyLbl.Importance = widget.LowImportance
		rt.emptyLbl.Hide()
		body = container.NewStack(rt.grid, container.NewCenter(rt.emptyLbl))
		if rt.Job != nil || rt.JobID != "" {
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
				rt.UpdateStatus()
			})
			rt.viewSel.Horizontal = true
			rt.viewSel.Required = true
			rt.viewSel.SetSelected(viewNames[results.TableView])
			rt.pauseBtn = widget.NewButtonWithIcon("Pause", theme.MediaPauseIcon(), rt.TogglePause)
			rt.pauseBtn.Importance = widget.LowImportance
			rt.stopBtn = widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), host.Stop)
			rt.stopBtn.Importance = widget.LowImportance
			bar = append(bar, rt.viewSel, rt.follow, rt.pauseBtn, rt.stopBtn)
		}
		bar = append(bar, rt.pinItems()...)
		bar = append(bar, rt.exportBtn, sorting)
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
	body = rt.host.WrapViews(body) // Data / Chart / Plan views
	top := rt.header(bar)          // with a close button
	rt.item = container.NewTabItemWithIcon(rt.Title, theme.MediaPlayIcon(),
		container.NewBorder(container.NewVBox(top, rt.errLbl), nil, nil, nil, body))
}

// State is what the tab's badge says.
func (rt *Tab) State() string {
	st, _ := rt.Res.State()
	switch st {
	case results.Running:
		if rt.canceled.Load() {
			return Stopping
		}
		if rt.Res.Paused() {
			return Paused
		}
		return Running
	case results.Finished:
		return Finished
	case results.Canceled:
		if rt.jobEnding() {
			return Stopping
		}
		return Canceled
	}
	return Failed
}

// jobEnding reports a cancelled query whose embedded job has not ended yet
// (its reader stopped first).
func (rt *Tab) jobEnding() bool {
	return rt.canceled.Load() && rt.Job != nil && !rt.Job.Status().IsTerminal()
}

// JobStopped reports whether the query's embedded job was cancelled from
// elsewhere (STOP JOB in another tab, Cancel in the Jobs panel): its
// reader ends with an error, and the query is CANCELED, not FAILED. The
// reader may see the error before the job has ended: it waits a little.
func (rt *Tab) JobStopped() bool {
	if rt.Job == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_ = rt.Job.Wait(ctx)
	return rt.Job.Status() == table.JobCanceled
}

// Stopping reports whether Stop was pressed and the query or its job has
// not ended yet.
func (rt *Tab) Stopping() bool { return rt.State() == Stopping }

// IsRunning reports whether the query still runs.
func (rt *Tab) IsRunning() bool {
	st, _ := rt.Res.State()
	return st == results.Running
}

// Elapsed is the query's run time so far (or in total).
func (rt *Tab) Elapsed() time.Duration {
	if e := rt.ended.Load(); e != 0 {
		return time.Unix(0, e).Sub(rt.Started)
	}
	return time.Since(rt.Started)
}

// Stop cancels the query (the job is cancelled; the rows so far stay).
func (rt *Tab) Stop() {
	if !rt.IsRunning() {
		return
	}
	rt.canceled.Store(true)
	if rt.Job != nil {
		_ = rt.Job.Cancel()
	}
	if rt.Cancel != nil {
		rt.Cancel()
	}
}

// TogglePause pauses or resumes the view; the query keeps running.
func (rt *Tab) TogglePause() {
	if rt.grid == nil {
		return
	}
	p := !rt.Res.Paused()
	if p && !rt.IsRunning() {
		return
	}
	if p {
		rt.pausedAt = rt.Res.Stats().Changes
	}
	rt.grid.SetPaused(p)
	rt.Tick(true)
}

// Tick is the result's share of the workbench tick: it redraws the grid
// when the result changed (visible tabs only) and keeps the state badge and
// status line current.
func (rt *Tab) Tick(visible bool) {
	state := rt.State()
	changed := state != rt.lastState
	if changed {
		rt.lastState = state
		rt.applyState(state)
	}
	rt.host.TickViews(visible)
	if !visible {
		return
	}
	if rt.grid != nil && changed && !rt.IsRunning() {
		rt.grid.RefitWidths() // sized from the first rows while it ran
	}
	if rt.grid != nil && (changed || rt.Res.NeedsRefresh(rt.grid.Version())) {
		if state != Paused && rt.grid.Frozen() {
			rt.grid.Thaw() // finished while paused: show the final rows
			rt.Res.SetPaused(false)
		}
		rt.grid.RefreshFrame() // calls UpdateStatus
		if rt.grid.View() == results.ChangelogView && (state == Running || changed) && rt.follow.Checked {
			// follow the newest changes, and show the last ones when the
			// view is paused or the query ends
			rt.grid.FollowTail()
		}
		return
	}
	live := state == Running || state == Paused // the time runs, a paused view counts what it does not show
	if changed || (live && time.Since(rt.lastStatus) >= 500*time.Millisecond) {
		rt.UpdateStatus()
	}
}

// Refresh redraws the tab now (it was just selected).
func (rt *Tab) Refresh(force bool) {
	if rt.grid != nil && force && !rt.grid.Frozen() {
		rt.grid.RefreshFrame()
	}
	rt.Tick(true)
}

func (rt *Tab) applyState(state string) {
	rt.stateLbl.SetText(state)
	var icon fyne.Resource
	switch state {
	case Running:
		rt.stateLbl.Importance = widget.HighImportance
		icon = theme.MediaPlayIcon()
	case Paused, Stopping:
		rt.stateLbl.Importance = widget.WarningImportance
		icon = theme.MediaPauseIcon()
		if state == Stopping {
			icon = theme.MediaStopIcon()
		}
	case Finished:
		rt.stateLbl.Importance = widget.SuccessImportance
		icon = theme.ConfirmIcon()
	case Canceled:
		rt.stateLbl.Importance = widget.WarningImportance // as in the Jobs panel: not the disabled grey
		icon = theme.MediaStopIcon()
	default:
		rt.stateLbl.Importance = widget.DangerImportance
		icon = theme.ErrorIcon()
	}
	rt.stateLbl.Refresh()
	if rt.item.Icon != icon {
		rt.item.Icon = icon
		rt.host.IconChanged()
	}
	running := state == Running || state == Paused
	if rt.stopBtn != nil {
		if running {
			rt.stopBtn.Enable()
			rt.pauseBtn.Enable()
		} else {
			rt.stopBtn.Disable()
			rt.pauseBtn.Disable()
		}
		if state == Paused {
			rt.pauseBtn.SetText("Resume")
			rt.pauseBtn.SetIcon(theme.MediaPlayIcon())
		} else {
			rt.pauseBtn.SetText("Pause")
			rt.pauseBtn.SetIcon(theme.MediaPauseIcon())
		}
	}
	if _, err := rt.Res.State(); err != nil && state == Failed {
		rt.errLbl.SetText(err.Error())
		rt.errLbl.Show()
	}
	rt.host.StateChanged()
}

// UpdateStatus writes the status line: rows, dropped rows, elapsed time.
func (rt *Tab) UpdateStatus() {
	rt.lastStatus = time.Now()
	var s string
	if rt.grid != nil {
		s = rt.grid.StatusText()
		switch {
		case rt.grid.Total() > 0:
			rt.emptyLbl.Hide()
		case rt.IsRunning():
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
		s = fmt.Sprintf("%d lines", strings.Count(rt.Text, "\n")+1)
	}
	if rt.Res.Paused() {
		// The grid and its counts stay as they were at the pause; what
		// arrives meanwhile is counted apart and shown on Resume.
		n := max(0, rt.Res.Stats().Changes-rt.pausedAt)
		noun := "changes"
		if n == 1 {
			noun = "change"
		}
		s += fmt.Sprintf(" · paused: +%s %s not shown", widgets.GroupDigits(int(n)), noun)
	}
	s += " · " + widgets.FormatDuration(rt.Elapsed())
	s += rt.host.StatusNote() // last: in a narrow window the counts stay in view
	rt.statusLbl.SetText(s)
}

// showMenu opens the grid's context menu.
func (rt *Tab) showMenu(at fyne.Position) { rt.ShowMenuWith(nil, at) }

// ShowMenuWith opens the grid's context menu with extra items first (the
// grid actions of a right-clicked cell or header).
func (rt *Tab) ShowMenuWith(extra []*fyne.MenuItem, at fyne.Position) {
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
		fyne.NewMenuItem("Export…", rt.host.Export),
	)...)
	m.Items = append(m.Items, rt.pinMenuItems()...)
	widgets.ShowMenuAt(m, c, at) // upward near the bottom
}

// showCellMenu selects the right-clicked cell (unless it is inside the
// selection) and opens the menu with the host's actions for it (the grid
// actions' filters).
func (rt *Tab) showCellMenu(id widget.TableCellID, at fyne.Position) {
	if g := rt.grid; g != nil && !g.InSelection(id) && id.Col > 0 {
		g.Table.Select(id)
	}
	rt.ShowMenuWith(rt.host.CellActions(id), at)
}

// showHeaderMenu opens a header's menu with the host's actions for it.
func (rt *Tab) showHeaderMenu(col int, at fyne.Position) {
	rt.ShowMenuWith(rt.host.HeaderActions(col), at)
}

// header lays out the tab's header: its controls, the status filling the
// middle, the close button at the right (Fyne's tab strip shows × only
// under the pointer).
func (rt *Tab) header(bar []fyne.CanvasObject) fyne.CanvasObject {
	rt.closeBtn = widget.NewButtonWithIcon("", theme.CancelIcon(), func() { rt.host.Close() })
	rt.closeBtn.Importance = widget.LowImportance
	return container.NewBorder(nil, nil, container.NewHBox(bar...), rt.closeBtn, rt.statusLbl)
}

// MinTitleRunes is how much of a result's title a non-selected tab keeps
// when the strip is too narrow for every full title: "#12 SELECT origin…".
const MinTitleRunes = 14

// ShortTitle is the tab's title cut to MinTitleRunes after its number:
// "#3 flights", "#7 SELECT origin, co…".
func (rt *Tab) ShortTitle() string {
	num := fmt.Sprintf("#%d", rt.N)
	rest := strings.TrimSpace(strings.TrimPrefix(rt.Title, num))
	if r := []rune(rest); len(r) > MinTitleRunes {
		rest = strings.TrimSpace(string(r[:MinTitleRunes-1])) + "…"
	}
	if rest == "" {
		return num
	}
	return num + " " + rest
}

// Canceled reports whether Stop was called.
func (rt *Tab) Canceled() bool { return rt.canceled.Load() }

// SetEnded records when the query ended (its reader's end).
func (rt *Tab) SetEnded(t time.Time) { rt.ended.Store(t.UnixNano()) }
