package ui

import (
	"context"
	"errors"
	"fmt"
	"time"

	"fyne.io/fyne/v2"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/alerting"
	"github.com/riffle-sql/riffle/workbench/monitor"
	"github.com/riffle-sql/riffle/workbench/persistence"
)

// alertsUI is the workbench's side of the alert rules (issue 21): the
// workspace's rules, each running in a session of its own through an
// alerting.Runner (off the UI goroutine), the alert log they write, the
// desktop notifications they raise, and the Alerts dialog
// (alerts_dialog.go). Its fields are the UI goroutine's.
type alertsUI struct {
	wb    *Workbench
	rules []*alertRule
	// notify raises a desktop notification (the app's SendNotification;
	// tests record them).
	notify func(title, content string)
	// dlg is the Alerts dialog while open.
	dlg *alertsDialog
	// started is set once the rules were loaded and started.
	started bool
}

// alertRule is one rule with its runner and what the log says of it.
type alertRule struct {
	persistence.AlertRule
	runner *alerting.Runner
	// gen counts the rule's starts and stops, so that a start that
	// finishes after the rule was stopped or changed is undone
	gen      int
	starting bool
	// problem is why the rule is not running ("" while it runs or is
	// disabled)
	problem string
	count   int
	last    time.Time
}

// alerts returns the workbench's alert rules (made on first use).
func (wb *Workbench) alerts() *alertsUI {
	if wb.alertsUI == nil {
		wb.alertsUI = &alertsUI{wb: wb, notify: func(title, content string) {
			if app := fyne.CurrentApp(); app != nil {
				app.SendNotification(fyne.NewNotification(title, content))
			}
		}}
	}
	return wb.alertsUI
}

// startAlerts loads the workspace's alert rules and starts the enabled
// ones (New calls it once the workbench is built; a workbench whose
// caller drives the ticks itself, as tests do, starts them when the
// caller calls it).
func (wb *Workbench) startAlerts() {
	a := wb.alerts()
	if a.started || wb.closed {
		return
	}
	a.started = true
	ctx := context.Background()
	rules, err := wb.store.AlertRules(ctx)
	if err != nil {
		wb.messages.add(levelError, "Reading the alert rules failed: "+err.Error(), nil)
		return
	}
	stats, _ := wb.store.AlertStats(ctx)
	for _, r := range rules {
		ar := &alertRule{AlertRule: r, count: stats[r.ID].Count, last: stats[r.ID].Last}
		a.rules = append(a.rules, ar)
		if r.Enabled {
			a.start(ar)
		}
	}
}

// stopAlerts stops every rule's query (Close calls it).
func (wb *Workbench) stopAlerts() {
	if wb.alertsUI == nil {
		return
	}
	for _, r := range wb.alertsUI.rules {
		r.gen++
		if r.runner != nil {
			r.runner.Stop()
			r.runner = nil
		}
	}
}

// evaluated is the rule as the alerting package runs it.
func (r *alertRule) evaluated() (alerting.Rule, error) {
	c, err := alerting.ParseCondition(r.Condition)
	if err != nil {
		return alerting.Rule{}, err
	}
	return alerting.Rule{ID: r.ID, Name: r.Name, Statement: r.Statement, Condition: c, Sink: r.Sink,
		Cooldown: r.Cooldown, Enabled: r.Enabled}, nil
}

// start starts a rule's query in a new session, off the UI goroutine.
func (a *alertsUI) start(r *alertRule) {
	rule, err := r.evaluated()
	if err != nil {
		r.problem = err.Error()
		return
	}
	r.gen++
	gen := r.gen
	r.starting, r.problem = true, ""
	wb := a.wb
	id := r.ID
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		env, err := wb.newAlertSession(ctx)
		var runner *alerting.Runner
		if err == nil {
			runner, err = alerting.Start(ctx, env, rule, alerting.Options{
				OnEvent: func(e alerting.Event) { a.event(id, e) },
			})
		}
		wb.do(func() {
			r.starting = false
			if r.gen != gen || wb.closed { // stopped or changed meanwhile
				if runner != nil {
					go runner.Stop()
				}
				return
			}
			if err != nil {
				r.problem = "could not start: " + err.Error()
				wb.messages.add(levelError, "Alert rule «"+r.Name+"» could not start: "+err.Error(), nil)
			} else {
				r.runner = runner
			}
			a.refresh()
			wb.mon.jobs.SampleNextTick()
		})
	}()
}

// stop stops a rule's query (off the UI goroutine: Stop waits for it).
func (a *alertsUI) stop(r *alertRule) {
	r.gen++
	r.starting = false
	if run := r.runner; run != nil {
		r.runner = nil
		go run.Stop()
	}
	a.wb.mon.jobs.SampleNextTick()
}

// byID finds a rule.
func (a *alertsUI) byID(id int64) *alertRule {
	for _, r := range a.rules {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// event handles an alert or failure on the rule's runner goroutine: it
// writes the alert log there, then notifies and redraws on the UI
// goroutine.
func (a *alertsUI) event(ruleID int64, e alerting.Event) {
	wb := a.wb
	kind := persistence.AlertFired
	switch e.Kind {
	case alerting.SinkFailed:
		kind = persistence.AlertSinkFailed
	case alerting.RuleFailed:
		kind = persistence.AlertRuleFailed
	}
	entry := persistence.AlertLogEntry{RuleID: ruleID, RuleName: e.Rule, At: e.At, Kind: kind, Message: e.Message, RowJSON: e.RowJSON()}
	_, logErr := wb.store.AddAlertLog(context.Background(), entry)
	wb.do(func() {
		if wb.closed {
			return
		}
		if logErr != nil {
			wb.messages.add(levelError, "Writing the alert log failed: "+logErr.Error(), nil)
		}
		r := a.byID(ruleID)
		switch e.Kind {
		case alerting.Fired:
			if r != nil {
				r.count++
				r.last = e.At
			}
			content := e.Message
			if row := e.RowJSON(); row != "" {
				content += "\n" + row
			}
			a.notify("Riffle alert: "+e.Rule, content)
			wb.messages.add(levelWarning, fmt.Sprintf("Alert «%s» at %s: %s", e.Rule, e.At.Format("15:04:05"), e.Message), nil)
			wb.setStatus("Alert «" + e.Rule + "»: " + firstLine(e.Message))
		case alerting.SinkFailed:
			wb.messages.add(levelError, "Alert «"+e.Rule+"»: the sink statement failed: "+e.Message, nil)
		case alerting.RuleFailed:
			if r != nil {
				r.problem = e.Message
			}
			wb.messages.add(levelError, "Alert rule «"+e.Rule+"»: "+e.Message, nil)
		}
		a.refresh()
	})
}

// refresh redraws the Alerts dialog when open.
func (a *alertsUI) refresh() {
	if a.dlg != nil {
		a.dlg.reload()
	}
}

// newAlertSession is a session of its own for a rule, off the UI
// goroutine: streaming mode, the workspace catalog shared (current, as in
// the editor), and the init script run first (its failures are the
// editor session's to report, so they are skipped here).
func (wb *Workbench) newAlertSession(ctx context.Context) (*table.TableEnvironment, error) {
	env, err := table.Create(table.InStreamingMode())
	if err != nil {
		return nil, err
	}
	if wc := wb.wsCatalog; wc.active() {
		if err := env.RegisterCatalog(workspaceCatalogName, wc.cat); err != nil {
			return nil, err
		}
		if err := env.UseCatalog(workspaceCatalogName); err != nil {
			return nil, err
		}
	}
	wb.mu.Lock()
	script := wb.initScript
	wb.mu.Unlock()
	for _, sp := range sql.SplitStatements(script) {
		st, err := sp.Parse()
		if err != nil {
			continue
		}
		switch st.(type) {
		case *sql.Query, *sql.Insert:
			continue // a query or job in the init script is no rule's business
		}
		if res, err := env.ExecuteParsed(ctx, st, sp.Text, sp.Start); err == nil && res.JobClient() != nil {
			_ = res.JobClient().Cancel()
		}
	}
	return env, nil
}

// alertJobs are the running rules' query jobs for the Jobs panel, each
// marked as an alert with its fire count and last alert.
func (wb *Workbench) alertJobs() []monitor.Job {
	if wb.alertsUI == nil {
		return nil
	}
	var out []monitor.Job
	for _, r := range wb.alertsUI.rules {
		if r.runner == nil || r.runner.Job() == nil {
			continue
		}
		out = append(out, alertJob{JobClient: r.runner.Job(), label: r.jobLabel(wb.embeddedZone())})
	}
	return out
}

// jobLabel is how the Jobs panel's Statement column names a rule's job.
func (r *alertRule) jobLabel(zone *time.Location) string {
	s := "ALERT «" + r.Name + "»"
	if r.count > 0 {
		s += fmt.Sprintf(" %d× %s", r.count, r.last.In(zone).Format("15:04:05"))
	}
	return s + " · " + r.Condition + " · "
}

// alertJob is a rule's query job as the Jobs panel lists it: the
// statement is prefixed with the rule's name, condition and alerts.
type alertJob struct {
	*table.JobClient
	label string
}

// Statement is the rule's label and the query.
func (j alertJob) Statement() string { return j.label + j.JobClient.Statement() }

// IsAlertJob reports a job of the Jobs panel that evaluates an alert
// rule, and the rule's name.
func (wb *Workbench) IsAlertJob(id string) (string, bool) {
	if wb.alertsUI == nil {
		return "", false
	}
	for _, r := range wb.alertsUI.rules {
		if r.runner != nil && r.runner.Job() != nil && r.runner.Job().JobID() == id {
			return r.Name, true
		}
	}
	return "", false
}

// state says how a rule runs, for the Alerts dialog.
func (r *alertRule) state() string {
	switch {
	case !r.Enabled:
		return "disabled"
	case r.starting:
		return "starting…"
	case r.problem != "":
		return "failed"
	case r.runner == nil:
		return "stopped"
	}
	st, err := r.runner.State()
	switch st {
	case alerting.Running:
		return "running"
	case alerting.Failed:
		if err != nil {
			return "failed"
		}
	case alerting.Stopped:
		return "stopped (job cancelled)"
	}
	return st.String()
}

// saveRule validates a rule in a scratch session (off the UI goroutine),
// then saves it and restarts it; done gets the error to show (nil when
// saved), on the UI goroutine.
func (a *alertsUI) saveRule(r persistence.AlertRule, done func(error)) {
	wb := a.wb
	probe := alertRule{AlertRule: r}
	rule, err := probe.evaluated()
	if err != nil {
		done(err)
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		env, err := wb.newAlertSession(ctx)
		if err == nil {
			_, err = alerting.Validate(ctx, env, rule)
		}
		var id int64
		if err == nil {
			id, err = wb.store.SaveAlertRule(ctx, r)
			if errors.Is(err, persistence.ErrDuplicateAlertRule) {
				err = fmt.Errorf("another rule is named %q", r.Name)
			}
		}
		wb.do(func() {
			if err != nil {
				done(err)
				return
			}
			r.ID = id
			cur := a.byID(id)
			if cur == nil {
				cur = &alertRule{}
				a.rules = append(a.rules, cur)
			} else {
				a.stop(cur)
			}
			cur.AlertRule, cur.problem = r, ""
			if r.Enabled {
				a.start(cur)
			}
			a.refresh()
			done(nil)
		})
	}()
}

// setEnabled enables (and starts) or disables (and stops) a rule.
func (a *alertsUI) setEnabled(r *alertRule, on bool) {
	if r.Enabled == on {
		return
	}
	if err := a.wb.store.SetAlertRuleEnabled(context.Background(), r.ID, on); err != nil {
		a.wb.messages.add(levelError, "Saving the alert rule failed: "+err.Error(), nil)
		return
	}
	r.Enabled = on
	if on {
		a.start(r)
	} else {
		a.stop(r)
		r.problem = ""
	}
	a.refresh()
}

// deleteRule stops and removes a rule (its log stays).
func (a *alertsUI) deleteRule(r *alertRule) {
	if err := a.wb.store.DeleteAlertRule(context.Background(), r.ID); err != nil {
		a.wb.messages.add(levelError, "Deleting the alert rule failed: "+err.Error(), nil)
		return
	}
	a.stop(r)
	for i, x := range a.rules {
		if x == r {
			a.rules = append(a.rules[:i], a.rules[i+1:]...)
			break
		}
	}
	a.refresh()
}
