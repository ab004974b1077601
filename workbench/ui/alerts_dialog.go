package ui

import (
	"context"
	"errors"
	"fmt"
	"image/color"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/alerting"
	"github.com/riffle-sql/riffle/workbench/editor"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// alertLogShown is how many alert log entries the Alerts dialog lists.
const alertLogShown = 500

// alertsDialog is the Alerts dialog (View ▸ Alerts…): the rules with
// their state, alerts and buttons, and the alert log below.
type alertsDialog struct {
	a       *alertsUI
	d       dialog.Dialog
	list    *widget.List
	log     []persistence.AlertLogEntry
	logList *widget.List
	detail  *widget.Entry
	summary *widget.Label
	selLog  int
}

// showAlerts opens the Alerts dialog.
func (wb *Workbench) showAlerts() {
	a := wb.alerts()
	if !a.started {
		wb.startAlerts()
	}
	if a.dlg != nil {
		return
	}
	ad := &alertsDialog{a: a, selLog: -1}
	ad.summary = widget.NewLabel("")
	ad.summary.Wrapping = fyne.TextWrapWord
	newRule := widget.NewButtonWithIcon("New rule…", theme.ContentAddIcon(), func() { ad.edit(nil) })
	newRule.Importance = widget.HighImportance
	ad.list = widget.NewList(func() int { return len(a.rules) }, ad.newRuleRow, ad.updateRuleRow)
	ad.list.OnSelected = func(widget.ListItemID) { ad.list.UnselectAll() }
	ad.logList = widget.NewList(func() int { return len(ad.log) }, func() fyne.CanvasObject {
		l := widget.NewLabel("")
		l.Truncation = fyne.TextTruncateEllipsis
		return l
	}, func(id widget.ListItemID, o fyne.CanvasObject) {
		if id < len(ad.log) {
			o.(*widget.Label).SetText(logLine(ad.log[id], wb.embeddedZone()))
			imp := widget.MediumImportance
			if ad.log[id].Kind != persistence.AlertFired {
				imp = widget.DangerImportance
			}
			if l := o.(*widget.Label); l.Importance != imp {
				l.Importance = imp
				l.Refresh()
			}
		}
	})
	ad.detail = widget.NewMultiLineEntry()
	ad.detail.TextStyle.Monospace = true
	ad.detail.Wrapping = fyne.TextWrapWord
	ad.detail.SetPlaceHolder("Select an entry of the log to read it whole, with its triggering row as JSON.")
	ad.logList.OnSelected = func(id widget.ListItemID) {
		ad.selLog = id
		if id < len(ad.log) {
			e := ad.log[id]
			text := e.At.In(wb.embeddedZone()).Format("2006-01-02 15:04:05.000") + "  «" + e.RuleName + "»  " + string(e.Kind) + "\n" + e.Message
			if e.RowJSON != "" {
				text += "\n" + e.RowJSON
			}
			ad.detail.SetText(text)
		}
	}
	clear := widget.NewButtonWithIcon("Clear log", theme.DeleteIcon(), func() {
		dialog.ShowConfirm("Clear the alert log", "Remove every entry of the alert log? The rules stay.", func(ok bool) {
			if !ok {
				return
			}
			if err := wb.store.ClearAlertLog(context.Background()); err != nil {
				dialog.ShowError(err, wb.win)
			}
			ad.reload()
		}, wb.win)
	})
	clear.Importance = widget.LowImportance
	header := func(text string) *widget.Label {
		return widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	rulesHead := container.NewBorder(nil, nil, header("Rules"), newRule, ad.summary)
	colHead := func(s string) *widget.Label {
		l := widget.NewLabel(s)
		l.Importance = widget.LowImportance
		return l
	}
	onHead := widget.NewCheck("", nil) // the width of the rows' checks
	onHead.Hide()
	// as wide as a row's Edit and Delete buttons, so that the headings
	// stand over their columns
	btnRoom := canvas.NewRectangle(color.Transparent)
	btnRoom.SetMinSize(fyne.NewSize(ad.newRuleRow().(*fyne.Container).Objects[2].MinSize().Width, 1))
	cols := container.NewBorder(nil, nil, container.NewStack(onHead, colHead("On")), btnRoom,
		container.NewGridWithColumns(4, colHead("Name"), colHead("Condition"), colHead("State"), colHead("Alerts")))
	rules := container.NewBorder(container.NewVBox(rulesHead, cols), nil, nil, nil, ad.list)
	logHead := container.NewBorder(nil, nil, header("Alert log, newest first"), clear)
	logSplit := container.NewVSplit(ad.logList, ad.detail)
	logSplit.Offset = 0.7
	logPane := container.NewBorder(logHead, nil, nil, nil, logSplit)
	split := container.NewVSplit(rules, logPane)
	split.Offset = 0.4
	ad.d = dialog.NewCustom("Alerts", "Close", split, wb.win)
	ad.d.SetOnClosed(func() { a.dlg = nil })
	size := wb.win.Canvas().Size()
	ad.d.Resize(fyne.NewSize(min(1300, size.Width-60), min(780, size.Height-60)))
	a.dlg = ad
	ad.reload()
	ad.d.Show()
}

// logLine is one alert log entry on one line.
func logLine(e persistence.AlertLogEntry, zone *time.Location) string {
	s := e.At.In(zone).Format("15:04:05") + "  «" + e.RuleName + "»  "
	if e.Kind != persistence.AlertFired {
		s += strings.ToUpper(string(e.Kind)) + ": "
	}
	s += oneLine(e.Message)
	if e.RowJSON != "" {
		s += "   " + e.RowJSON
	}
	return s
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// reload reads the log again and redraws the dialog.
func (ad *alertsDialog) reload() {
	a := ad.a
	log, err := a.wb.store.AlertLog(context.Background(), alertLogShown)
	if err == nil {
		ad.log = log
	}
	running, fired := 0, 0
	for _, r := range a.rules {
		if r.runner != nil {
			running++
		}
		fired += r.count
	}
	text := fmt.Sprintf("%s, %d running, %s so far.", widgets.Plural(len(a.rules), "rule"), running, widgets.Plural(fired, "alert"))
	if len(a.rules) == 0 {
		text = "No rules yet: New rule… watches a live query and tells you when a row matches, when rows stop, or when the watermark lags."
	}
	text += fmt.Sprintf(" After an alert a rule keeps quiet for its cool-down (default %s).", cooldownText(alerting.DefaultCooldown))
	ad.summary.SetText(text)
	ad.list.Refresh()
	// new entries shift the list: the selection would mark another entry
	// than the one the detail shows
	ad.logList.UnselectAll()
	ad.logList.Refresh()
}

// rule row cells: enabled, name, condition, state, alerts, edit, delete
func (ad *alertsDialog) newRuleRow() fyne.CanvasObject {
	on := widget.NewCheck("", nil)
	name := widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	cond := widget.NewLabel("")
	state := widget.NewLabel("")
	fired := widget.NewLabel("")
	for _, l := range []*widget.Label{name, cond, state, fired} {
		l.Truncation = fyne.TextTruncateEllipsis
	}
	edit := widget.NewButtonWithIcon("Edit…", theme.DocumentCreateIcon(), nil)
	del := widget.NewButtonWithIcon("", theme.DeleteIcon(), nil)
	edit.Importance, del.Importance = widget.LowImportance, widget.LowImportance
	cells := container.NewGridWithColumns(4, name, cond, state, fired)
	return container.NewBorder(nil, nil, on, container.NewHBox(edit, del), cells)
}

func (ad *alertsDialog) updateRuleRow(id widget.ListItemID, o fyne.CanvasObject) {
	a := ad.a
	if id >= len(a.rules) {
		return
	}
	r := a.rules[id]
	row := o.(*fyne.Container)
	cells := row.Objects[0].(*fyne.Container).Objects
	on := row.Objects[1].(*widget.Check)
	btns := row.Objects[2].(*fyne.Container).Objects
	on.OnChanged = nil
	on.SetChecked(r.Enabled)
	on.OnChanged = func(v bool) { a.setEnabled(r, v) }
	cells[0].(*widget.Label).SetText(r.Name)
	cells[1].(*widget.Label).SetText(r.Condition + " · cool-down " + cooldownText(r.Cooldown))
	state := cells[2].(*widget.Label)
	st := r.state()
	if r.problem != "" && r.Enabled {
		st += ": " + oneLine(r.problem)
	}
	state.SetText(st)
	imp := widget.MediumImportance
	switch {
	case strings.HasPrefix(st, "running"):
		imp = widget.SuccessImportance
	case strings.HasPrefix(st, "failed"):
		imp = widget.DangerImportance
	case !r.Enabled:
		imp = widget.LowImportance
	}
	if state.Importance != imp {
		state.Importance = imp
		state.Refresh()
	}
	fired := "no alerts"
	if r.count > 0 {
		fired = fmt.Sprintf("%s, last %s", widgets.Plural(r.count, "alert"), r.last.In(a.wb.embeddedZone()).Format("15:04:05"))
	}
	cells[3].(*widget.Label).SetText(fired)
	btns[0].(*widget.Button).OnTapped = func() { ad.edit(r) }
	btns[1].(*widget.Button).OnTapped = func() {
		dialog.ShowConfirm("Delete alert rule", "Delete the rule «"+r.Name+"»? Its alerts stay in the log.", func(ok bool) {
			if ok {
				a.deleteRule(r)
			}
		}, a.wb.win)
	}
}

// edit opens the rule editor on r (nil: a new rule).
func (ad *alertsDialog) edit(r *alertRule) {
	wb := ad.a.wb
	var cur persistence.AlertRule
	if r != nil {
		cur = r.AlertRule
	} else {
		cur = persistence.AlertRule{Enabled: true, Condition: "any row", Position: len(ad.a.rules)}
		cur.Statement = newRuleStatement(wb)
	}
	showAlertRuleEditor(wb.win, cur, func(edited persistence.AlertRule, done func(error)) {
		ad.a.saveRule(edited, done)
	})
}

// newRuleStatement is a new rule's live query: the statement under the
// editor's cursor with the tab's CREATE TEMPORARY TABLE / VIEW statements
// it reads first, as Pin takes them (pinPreamble), since the rule runs in a
// session of its own where the tab's temporary tables do not exist; "" when
// there is no statement there.
func newRuleStatement(wb *Workbench) string {
	t := wb.editors.current()
	if t == nil {
		return ""
	}
	stmt, _, ok := currentStatement(t)
	if !ok {
		return ""
	}
	return wb.pinPreamble(&resultTab{editorTab: t.id, stmt: stmt}) + stmt
}

// alertRuleEditor is the form of one rule.
type alertRuleEditor struct {
	name, cond, cooldown *widget.Entry
	stmt, sink           *editor.Editor
	enabled              *widget.Check
	problem              *widget.Label
	problemScroll        *container.Scroll // the problem line, three lines high
	save                 *widget.Button
	d                    dialog.Dialog
}

// showAlertRuleEditor opens the rule editor; save validates and stores the
// rule, calling done with the error to show (nil: saved, the editor
// closes).
func showAlertRuleEditor(w fyne.Window, r persistence.AlertRule, save func(persistence.AlertRule, func(error))) *alertRuleEditor {
	e := &alertRuleEditor{}
	e.name = widget.NewEntry()
	e.name.SetText(r.Name)
	e.name.SetPlaceHolder("a name, such as Late flights")
	e.stmt = editor.New()
	e.stmt.SetText(r.Statement)
	e.sink = editor.New()
	e.sink.SetText(r.Sink)
	e.cond = widget.NewEntry()
	e.cond.SetText(r.Condition)
	e.cooldown = widget.NewEntry()
	e.cooldown.SetPlaceHolder(fmt.Sprintf("%d (the default)", int(alerting.DefaultCooldown.Seconds())))
	switch {
	case r.Cooldown < 0:
		e.cooldown.SetText("0")
	case r.Cooldown > 0:
		e.cooldown.SetText(strconv.FormatFloat(r.Cooldown.Seconds(), 'f', -1, 64))
	}
	e.enabled = widget.NewCheck("Enabled", nil)
	e.enabled.SetChecked(r.Enabled)
	e.problem = widget.NewLabel("")
	e.problem.Importance = widget.DangerImportance
	e.problem.Wrapping = fyne.TextWrapWord
	hint := func(s string) *widget.Label {
		l := widget.NewLabel(s)
		l.Importance = widget.LowImportance
		l.Wrapping = fyne.TextWrapWord
		return l
	}
	bold := func(s string) *widget.Label {
		return widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	stmtPane := container.NewBorder(container.NewVBox(bold("Live query"),
		hint("A streaming SELECT, run in a session of its own (streaming mode, the workspace's catalog and init script). Statements before it may prepare it: SET, CREATE TEMPORARY TABLE …;")),
		nil, nil, nil, e.stmt)
	sinkPane := container.NewBorder(container.NewVBox(bold("Sink statement (optional)"),
		hint("Run when the rule fires, in the rule's session. :column is the triggering row's value as a SQL literal, e.g. INSERT INTO alerts_topic VALUES (:origin, :delay, 'late');")),
		nil, nil, nil, e.sink)
	editors := container.NewVSplit(stmtPane, sinkPane)
	editors.Offset = 0.7
	condRow := container.NewBorder(nil, nil, bold("Condition"), nil, e.cond)
	condHint := hint("any row · delay > 240 · origin = 'ORD' · `date` >= '2001-01-01 12:00:00' · no row for 30 s · watermark lag > 10 s")
	coolRow := container.NewBorder(nil, nil, bold("Cool-down (s)"), e.enabled, e.cooldown)
	coolHint := hint("After an alert the rule keeps quiet this long and counts the matches it skips; 0 = alert on every match.")
	cancel := widget.NewButton("Cancel", func() { e.d.Hide() })
	e.save = widget.NewButtonWithIcon("Save", theme.DocumentSaveIcon(), nil)
	e.save.Importance = widget.HighImportance
	e.save.OnTapped = func() {
		edited, err := e.rule(r)
		if err != nil {
			e.show(err)
			return
		}
		e.save.Disable()
		e.setProblem("Checking the query, the condition and the sink statement…", widget.LowImportance)
		save(edited, func(err error) {
			e.save.Enable()
			if err != nil {
				e.show(err)
				return
			}
			e.d.Hide()
		})
	}
	// the problem line, three lines high whatever it says, so that Save
	// and Cancel stay inside the box (widgets.MessageBox)
	e.problemScroll = widgets.MessageBox(e.problem, 3)
	bottom := container.NewVBox(condRow, condHint, coolRow, coolHint, e.problemScroll,
		container.NewHBox(layout.NewSpacer(), cancel, e.save))
	top := container.NewBorder(nil, nil, bold("Name"), nil, e.name)
	content := container.NewBorder(top, bottom, nil, nil, editors)
	title := "New alert rule"
	if r.ID != 0 {
		title = "Edit alert rule «" + r.Name + "»"
	}
	e.d = dialog.NewCustomWithoutButtons(title, content, w)
	size := w.Canvas().Size()
	e.d.Resize(fyne.NewSize(min(1100, size.Width-80), min(900, size.Height-40)))
	e.d.Show()
	return e
}

// setProblem shows text on the problem line, from its top; the refresh
// clamps the scroll's offset to the new text, which it keeps otherwise.
func (e *alertRuleEditor) setProblem(text string, imp widget.Importance) {
	e.problem.Importance = imp
	e.problem.SetText(text)
	widgets.ShowMessage(e.problemScroll)
}

// rule reads the form (the cool-down and the condition are checked here;
// the query and sink statement by the save function).
func (e *alertRuleEditor) rule(base persistence.AlertRule) (persistence.AlertRule, error) {
	r := base
	r.Name = strings.TrimSpace(e.name.Text)
	r.Statement = strings.TrimSpace(e.stmt.Text())
	r.Condition = strings.TrimSpace(e.cond.Text)
	r.Sink = strings.TrimSpace(e.sink.Text())
	r.Enabled = e.enabled.Checked
	if r.Name == "" {
		return r, errors.New("the rule needs a name")
	}
	if r.Statement == "" {
		return r, errors.New("write the live query the rule watches (a SELECT)")
	}
	c, err := alerting.ParseCondition(r.Condition)
	if err != nil {
		return r, err
	}
	r.Condition = c.String()
	switch s := strings.TrimSpace(e.cooldown.Text); s {
	case "":
		r.Cooldown = 0
	case "0":
		r.Cooldown = -1
	default:
		v, err := strconv.ParseFloat(strings.TrimSuffix(s, "s"), 64)
		if err != nil || v < 0 {
			return r, fmt.Errorf("the cool-down is a number of seconds (0 = none), not %q", s)
		}
		r.Cooldown = time.Duration(v * float64(time.Second))
	}
	return r, nil
}

// show says what is wrong and puts the cursor where it is.
func (e *alertRuleEditor) show(err error) {
	e.setProblem(problemText(err.Error()), widget.DangerImportance)
	var se *alerting.SinkError
	var ce *alerting.ConditionError
	switch {
	case errors.As(err, &se):
		e.sink.SetCursor(se.Line-1, se.Column-1)
	case errors.As(err, &ce):
		if ce.Column > 0 {
			e.cond.CursorColumn = ce.Column - 1
			e.cond.Refresh()
		}
	default:
		if line, col, ok := errPos(err); ok {
			e.stmt.SetCursor(line-1, col-1)
		}
	}
}

// problemText is an error as the rule editor shows it: its first line as
// it is and the rest run together on one line, so the parser's "Was
// expecting one of:" list (a dozen lines) wraps to a line or two instead
// of pushing the query editor off the form; nothing of it is dropped.
func problemText(s string) string {
	first, rest, ok := strings.Cut(strings.TrimSpace(s), "\n")
	if !ok {
		return first
	}
	return first + "\n" + oneLine(rest)
}

// cooldownText is a rule's cool-down as the dialog says it ("60 s",
// "none").
func cooldownText(d time.Duration) string {
	switch {
	case d < 0:
		return "none"
	case d == 0:
		d = alerting.DefaultCooldown
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + " s"
}
