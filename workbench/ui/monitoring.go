package ui

// Live stream monitoring in the workbench: the Chart and Plan views of
// every result tab, Ctrl+E's plan graph, the Jobs panel and job plan
// tabs. The rest of the package calls in through a few marked hooks
// ("monitoring hook"): Workbench.initMonitoring, tickMonitoring,
// resultTab.wrapViews, tickViews and closeViews, Workbench.attachPlan.

import (
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/charts"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/chartview"
	"github.com/riffle-sql/riffle/workbench/ui/planview"
)

// monitorState is the workbench's monitoring state (UI goroutine only).
type monitorState struct {
	jobs    *jobsPanel
	charts  map[int64]*chartDoc // chart settings per editor tab
	jobTabs []*jobTab
	// explaining are the gateway jobs whose plan is being asked for
	explaining map[string]bool
}

// resultMon is a result tab's monitoring state: its plan (attached on
// the worker before the tab is shown) and its Data / Chart / Plan views.
type resultMon struct {
	// set on the worker by attachPlan, before the tab is built
	planRoots []*table.PlanNode
	streaming bool
	planText  string
	// remote says planRoots were read from a gateway's EXPLAIN text
	// (remote_plan.go); remoteQuery that the Plan view of a gateway's
	// query asks the gateway for EXPLAIN when first shown (planLoading
	// while it does).
	remote, remoteQuery, planLoading bool

	tabs                          *container.AppTabs
	dataItem, chartItem, planItem *container.TabItem
	chart                         *chartview.View
	plan                          *planview.View
	closed                        bool // the tab was closed
	noChart                       bool // the result has nothing to chart
}

// initMonitoring creates the Jobs panel and reads the chart settings of
// the workspace (monitoring hook, called by build before the bottom tabs
// are made).
func (wb *Workbench) initMonitoring(ws *persistence.Workspace) {
	wb.mon.jobs = newJobsPanel(wb)
	wb.mon.explaining = map[string]bool{}
	wb.mon.charts = map[int64]*chartDoc{}
	for id, b := range ws.Charts {
		wb.mon.charts[id] = parseChartDoc(b)
	}
}

// tickMonitoring is the monitoring share of Workbench.Tick: the Jobs
// panel and job plan tabs sample once a second.
func (wb *Workbench) tickMonitoring() {
	now := time.Now()
	wb.mon.jobs.Tick(now)
	sel := wb.bottom.Selected()
	for _, t := range wb.mon.jobTabs {
		t.view.Tick(now, t.item == sel)
	}
}

// showJobs shows the Jobs panel (View ▸ Jobs) with fresh figures.
func (wb *Workbench) showJobs() {
	wb.showPanel(wb.mon.jobs.Item())
	wb.mon.jobs.Update(time.Now())
}

// isFixedPanel reports the bottom panels that only hide when closed.
func (wb *Workbench) isFixedPanel(it *container.TabItem) bool {
	return it == wb.messages.item || it == wb.history.Item() || it == wb.mon.jobs.Item()
}

// attachPlan records, on the worker, the plan a result tab shows: for a
// query the job's physical plan (whose nodes carry the live metrics) and
// Flink's EXPLAIN text of the statement; for an EXPLAIN statement the
// plans it printed (monitoring hook). Only the embedded engine has plans
// to draw: a gateway's results get none.
func (wb *Workbench) attachPlan(rt *resultTab, conn *connection) {
	defer func() { _ = recover() }() // a plan view is never worth a failed statement
	env := conn.embeddedEnv()
	if env == nil {
		wb.attachRemotePlan(rt, conn)
		return
	}
	if rt.Job != nil {
		root := rt.Job.Plan()
		if root == nil {
			return
		}
		rt.mon.planRoots = []*table.PlanNode{root}
		rt.mon.streaming = env.IsStreaming()
		if ep, err := env.ExplainPlan(rt.stmt); err == nil {
			rt.mon.planText = ep.Text
		} else {
			rt.mon.planText = "== Optimized Execution Plan ==\n" + root.ExplainText()
		}
		return
	}
	if rt.Text != "" && isExplain(rt.stmt) {
		if ep, err := env.ExplainPlan(rt.stmt); err == nil {
			rt.mon.planRoots, rt.mon.streaming, rt.mon.planText = ep.Roots, ep.Streaming, rt.Text
		}
	}
}

// embeddedZone is the embedded session's time zone
// (table.local-time-zone), which watermarks are shown in.
func (wb *Workbench) embeddedZone() *time.Location {
	if loc, err := wb.env.Config().LocalTimeZoneLocation(); err == nil {
		return loc
	}
	return time.Local
}

func isExplain(stmt string) bool {
	f := strings.Fields(stripLeadingComments(stmt))
	return len(f) > 0 && strings.EqualFold(f[0], "EXPLAIN")
}

func stripLeadingComments(s string) string {
	for {
		s = strings.TrimSpace(s)
		switch {
		case strings.HasPrefix(s, "--"):
			_, rest, ok := strings.Cut(s, "\n")
			if !ok {
				return ""
			}
			s = rest
		case strings.HasPrefix(s, "/*"):
			_, rest, ok := strings.Cut(s, "*/")
			if !ok {
				return ""
			}
			s = rest
		default:
			return s
		}
	}
}

// wrapViews puts a result's body (grid or text) into its views: Data,
// Chart and Plan for a query; Data and Chart for other grids; for
// EXPLAIN the plan graph beside the text (monitoring hook, called by
// the tab's Build through resultTabHost).
func (rt *resultTab) wrapViews(body fyne.CanvasObject) fyne.CanvasObject {
	m := &rt.mon
	if rt.Text != "" {
		if m.planRoots == nil {
			return body
		}
		if m.remote {
			m.plan = planview.NewOf(nil, remotePlanGraph(m.streaming, m.planRoots), m.planText, rt.wb.embeddedZone())
		} else {
			m.plan = planview.New(nil, m.planRoots, m.streaming, m.planText, rt.wb.embeddedZone())
		}
		return m.plan.Content()
	}
	m.dataItem = container.NewTabItemWithIcon("Data", theme.GridIcon(), body)
	m.chartItem = container.NewTabItemWithIcon("Chart", theme.ViewFullScreenIcon(), container.NewStack())
	items := []*container.TabItem{m.dataItem, m.chartItem}
	if m.planRoots != nil {
		m.plan = planview.New(rt.Job, m.planRoots, m.streaming, m.planText, rt.wb.embeddedZone())
		// The plan's widgets go in when the view is first shown
		// (viewsSelected): measured while hidden, its bold − zoom button
		// alone made Fyne parse a system font (DejaVu Sans Bold, ~3.5 MB
		// of heap) for every result (docs/benchmarks.md).
		m.planItem = container.NewTabItemWithIcon("Plan", theme.ListIcon(), container.NewStack())
		items = append(items, m.planItem)
	} else if m.remoteQuery {
		m.planItem = container.NewTabItemWithIcon("Plan", theme.ListIcon(), container.NewStack())
		items = append(items, m.planItem)
	}
	m.tabs = container.NewAppTabs(items...)
	m.tabs.SetTabLocation(container.TabLocationBottom)
	m.tabs.OnSelected = func(*container.TabItem) { rt.viewsSelected() }
	return m.tabs
}

// showView selects one of the result's views.
func (rt *resultTab) showView(it *container.TabItem) {
	if rt.mon.tabs != nil && it != nil {
		rt.mon.tabs.Select(it)
	}
}

// viewsSelected builds the chart and puts in the plan on first showing,
// and starts or stops the chart's rendering.
func (rt *resultTab) viewsSelected() {
	m := &rt.mon
	sel := m.tabs.Selected()
	if sel == m.chartItem && m.chart == nil && !m.noChart {
		if _, ok := charts.Detect(rt.Res.Columns()); ok {
			m.chart = chartview.New(rt.Res, chartHost{rt}, !rt.wb.opts.NoTicker)
			m.chartItem.Content = m.chart.Content()
		} else {
			m.noChart = true
			l := widget.NewLabel("Nothing to chart: the result has no numeric or time column.")
			l.Importance = widget.LowImportance
			m.chartItem.Content = container.NewCenter(l)
		}
		m.tabs.Refresh()
	}
	if sel == m.planItem && m.plan != nil && !m.remoteQuery && m.planItem.Content != m.plan.Content() {
		m.planItem.Content = m.plan.Content()
		m.tabs.Refresh()
	}
	if sel == m.planItem && m.remoteQuery && m.plan == nil && !m.planLoading {
		rt.loadRemotePlan()
	}
	rt.tickViews(rt.wb.bottom.Selected() == rt.Item())
}

// tickViews keeps the views current: the chart renders only while shown,
// the plan samples its job's metrics once a second (monitoring hook,
// called by the tab's Tick through resultTabHost).
func (rt *resultTab) tickViews(visible bool) {
	m := &rt.mon
	if m.closed {
		return
	}
	var sel *container.TabItem
	if m.tabs != nil {
		sel = m.tabs.Selected()
	}
	if m.chart != nil {
		m.chart.SetVisible(visible && sel == m.chartItem)
	}
	if m.plan != nil && m.plan.Job() != nil {
		m.plan.Tick(time.Now(), visible && sel == m.planItem)
	}
}

// closeViews stops the chart's renderer (monitoring hook, called when
// the tab closes).
func (rt *resultTab) closeViews() {
	rt.mon.closed = true
	if rt.mon.chart != nil {
		rt.mon.chart.Close()
	}
}
