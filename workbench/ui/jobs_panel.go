package ui

import (
	"context"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/monitor"
	"github.com/riffle-sql/riffle/workbench/ui/jobs"
	"github.com/riffle-sql/riffle/workbench/ui/planview"
)

// jobsPanel is the workbench's side of the Jobs panel (jobs.Panel, the
// list it embeds): it implements jobs.Host — the session's and the
// gateways' jobs, cancelling and opening a job — and holds the Kafka
// partitions shown below the list.
type jobsPanel struct {
	*jobs.Panel
	wb *Workbench

	// gateway sessions' jobs, listed off the UI goroutine every few
	// seconds (SHOW JOBS over the network), and where each job runs
	remote   map[*connection][]monitor.Job
	connOf   map[string]string // job ID -> connection name (gateway jobs)
	polling  bool
	lastPoll time.Time

	splits *splitsView // Kafka hook: running jobs' partitions (kafka_progress.go)
}

// remoteJobsRefresh is how often gateway sessions are asked for their jobs.
const remoteJobsRefresh = 2 * time.Second

func newJobsPanel(wb *Workbench) *jobsPanel {
	p := &jobsPanel{wb: wb, connOf: map[string]string{}}
	p.Panel = jobs.New(p, func(list fyne.CanvasObject) fyne.CanvasObject {
		p.splits = newSplitsView(p)                              // Kafka hook
		jobsAndSplits := container.NewVSplit(list, p.splits.box) // the partitions hidden while none is read
		jobsAndSplits.Offset = 0.4
		p.splits.split = jobsAndSplits // Kafka hook: laid out again as the partitions show or hide
		return jobsAndSplits
	})
	return p
}

// List is the session's jobs and those the gateways reported last
// (jobs.Host); it starts the next poll of the gateways when it is due.
func (p *jobsPanel) List(now time.Time) []monitor.Job {
	p.pollRemote(now)
	js := monitor.SessionJobs(p.wb.env)
	js = append(js, p.wb.alertJobs()...) // alerts hook: the rules' queries (alerts.go)
	for c, cj := range p.remote {
		for _, j := range cj {
			p.connOf[j.JobID()] = c.name()
		}
		js = append(js, cj...)
	}
	return js
}

// Gateway names the connection a gateway's job runs on (jobs.Host).
func (p *jobsPanel) Gateway(id string) string { return p.connOf[id] }

// Zone is the session's time zone (jobs.Host).
func (p *jobsPanel) Zone() *time.Location { return p.wb.embeddedZone() }

// SetStatus shows text in the status bar (jobs.Host).
func (p *jobsPanel) SetStatus(text string) { p.wb.setStatus(text) }

// RunningChanged redraws the bottom tabs and the status bar (jobs.Host).
func (p *jobsPanel) RunningChanged() {
	p.wb.bottom.Refresh()
	p.wb.updateStatus()
}

// Updated updates the Kafka partitions below the list (jobs.Host).
func (p *jobsPanel) Updated() { p.splits.update() }

// SavepointDir is the embedded session's savepoint directory as set
// (execution.checkpointing.savepoint-dir, else state.savepoints.dir), ""
// when none is (jobs.Host): every job of the Jobs panel that is not a
// gateway's runs in that session.
func (p *jobsPanel) SavepointDir(string) string {
	conf := p.wb.env.Config().Configuration()
	for _, key := range []string{config.CheckpointingSavepointDir.Key, config.SavepointsDirLegacy.Key} {
		if v, ok := conf.Get(key); ok && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// Window is the workbench's window (jobs.Host).
func (p *jobsPanel) Window() fyne.Window { return p.wb.win }

// Do runs f on the UI goroutine (jobs.Host).
func (p *jobsPanel) Do(f func()) { p.wb.do(f) }

// pollRemote asks the open gateway sessions for their jobs on a
// goroutine (never opening a session); the answer is used by the next
// update.
func (p *jobsPanel) pollRemote(now time.Time) {
	if p.polling || now.Sub(p.lastPoll) < remoteJobsRefresh || p.wb.conns == nil {
		return
	}
	var open []*connection
	for _, c := range p.wb.conns.list {
		if _, state, _, _ := c.snapshot(); !c.embedded() && state == connReady {
			open = append(open, c)
		}
	}
	p.lastPoll = now
	if len(open) == 0 {
		p.remote = nil
		return
	}
	p.polling = true
	wb := p.wb
	go func() {
		got := map[*connection][]monitor.Job{}
		for _, c := range open {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			if js, err := wb.jobsOf(ctx, c); err == nil {
				got[c] = js
			}
			cancel()
		}
		wb.do(func() {
			p.remote, p.polling = got, false
			p.SampleNextTick() // show them on the next tick
		})
	}()
}

// CancelJob stops a job: through its result tab when it has one (so the
// tab says CANCELED), else through the job (jobs.Host).
func (p *jobsPanel) CancelJob(id string) {
	if rt := p.wb.resultForJob(id); rt != nil && rt.IsRunning() {
		p.wb.stopResults(rt)
	} else if name := p.connOf[id]; name != "" {
		// STOP JOB on a gateway: over the network, off the UI goroutine
		if j, ok := p.Model().Job(id); ok {
			wb := p.wb
			go func() {
				if err := j.Cancel(); err != nil {
					wb.do(func() { wb.messages.add(levelError, "Cancelling job "+id+" on "+name+": "+err.Error(), nil) })
				}
			}()
		}
	} else if err := p.Model().Cancel(id); err != nil {
		p.wb.messages.add(levelError, "Cancelling job "+id+": "+err.Error(), nil)
	}
}

// OpenJob shows a job: the result tab of a query, or a tab with the job's
// plan and live metrics (an INSERT job, or a query whose result tab was
// closed) (jobs.Host).
func (p *jobsPanel) OpenJob(id string) {
	wb := p.wb
	if rt := wb.resultForJob(id); rt != nil {
		wb.showPanel(rt.Item())
		rt.showView(rt.mon.dataItem)
		return
	}
	j, ok := p.Model().Job(id)
	if !ok {
		return
	}
	if name := p.connOf[id]; name != "" && j.Plan() == nil {
		wb.openRemoteJobTab(j, name)
		return
	}
	wb.openJobTab(j)
}

// jobTab is a bottom tab showing a job's plan with live metrics.
type jobTab struct {
	id   string
	item *container.TabItem
	view *planview.View
}

// openJobTab opens (or selects) the plan tab of a job.
func (wb *Workbench) openJobTab(j monitor.Job) {
	id := j.JobID()
	for _, t := range wb.mon.jobTabs {
		if t.id == id {
			wb.showPanel(t.item)
			return
		}
	}
	root := j.Plan()
	if root == nil {
		wb.setStatus("Job " + jobs.ShortID(id) + " runs on a gateway, which sends no plan with its jobs")
		return
	}
	streaming := root.ChangelogMode.String() != ""
	// a query is explained without its collect sink
	text := "== Optimized Execution Plan ==\n" + root.ExplainText() + "\n-- " + monitor.OneLine(j.Statement(), 400)
	v := planview.New(j, []*table.PlanNode{root}, streaming, text, wb.embeddedZone())
	t := &jobTab{id: id, view: v}
	t.item = container.NewTabItemWithIcon("Job "+jobs.ShortID(id), theme.ListIcon(), v.Content())
	wb.mon.jobTabs = append(wb.mon.jobTabs, t)
	wb.bottom.Append(t.item)
	wb.bottom.Select(t.item)
	v.Tick(time.Now(), true)
}

// openRemoteJobTab opens (or selects) the plan tab of a gateway's job: a
// gateway sends no plan with its jobs, so the job's statement is
// explained on its connection (off the UI goroutine) and drawn without
// metrics.
func (wb *Workbench) openRemoteJobTab(j monitor.Job, connName string) {
	id := j.JobID()
	for _, t := range wb.mon.jobTabs {
		if t.id == id {
			wb.showPanel(t.item)
			return
		}
	}
	c := wb.conns.byName(connName)
	stmt := j.Statement()
	if c == nil || stmt == "" {
		wb.setStatus("Job " + jobs.ShortID(id) + " runs on a gateway, which sends no plan with its jobs")
		return
	}
	if wb.mon.explaining[id] {
		return
	}
	wb.mon.explaining[id] = true
	wb.setStatus("Asking " + connName + " for the plan of job " + jobs.ShortID(id) + "…")
	go func() {
		text, roots, streaming, err := remoteExplain(c, stmt)
		wb.do(func() {
			delete(wb.mon.explaining, id)
			if wb.closed {
				return
			}
			if err != nil {
				wb.setStatus("No plan for job " + jobs.ShortID(id) + ": EXPLAIN on " + connName + " failed: " + firstLine(err.Error()))
				return
			}
			for _, t := range wb.mon.jobTabs {
				if t.id == id { // opened meanwhile
					wb.showPanel(t.item)
					return
				}
			}
			v := planview.NewOf(nil, remotePlanGraph(streaming, roots), text+"\n-- "+monitor.OneLine(stmt, 400), wb.embeddedZone())
			v.SetStatus(planview.Summary(v.Plan()) + " · EXPLAIN on " + connName + ", no live metrics")
			t := &jobTab{id: id, view: v}
			t.item = container.NewTabItemWithIcon("Job "+jobs.ShortID(id), theme.ListIcon(), v.Content())
			wb.mon.jobTabs = append(wb.mon.jobTabs, t)
			wb.bottom.Append(t.item)
			wb.bottom.Select(t.item)
			wb.setStatus("Ready")
		})
	}()
}

// closeJobTab removes a job's plan tab (the job keeps running).
func (wb *Workbench) closeJobTab(it *container.TabItem) bool {
	for i, t := range wb.mon.jobTabs {
		if t.item == it {
			wb.mon.jobTabs = append(wb.mon.jobTabs[:i], wb.mon.jobTabs[i+1:]...)
			wb.bottom.Remove(it)
			return true
		}
	}
	return false
}

// resultForJob returns the result tab showing a job's rows.
func (wb *Workbench) resultForJob(id string) *resultTab {
	for _, rt := range wb.results {
		if rt.JobID == id || rt.Job != nil && rt.Job.JobID() == id {
			return rt
		}
	}
	return nil
}
