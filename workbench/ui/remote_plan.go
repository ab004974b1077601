package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/plangraph"
	"github.com/riffle-sql/riffle/workbench/ui/planview"
)

// A gateway sends EXPLAIN as text only. To draw it as the embedded
// engine's plans are drawn, the text's plan trees are read back
// (table.ParseExplainPlan: operator, attributes, inputs; an Exchange's
// distribution; a node's changelog mode when EXPLAIN CHANGELOG_MODE printed
// it), which the plan graph lays out. EXPLAIN says nothing of parallelism,
// so the boxes do not either.

// remoteExplainPlan reads the plan of a gateway's EXPLAIN text
// (table.ParseExplainPlan): nil roots when the text has no plan it can
// read, and whether the plan is a streaming one.
func remoteExplainPlan(text string) (roots []*table.PlanNode, streaming bool, err error) {
	p, err := table.ParseExplainPlan(text)
	if err != nil {
		return nil, false, err
	}
	return p.Roots, p.Streaming, nil
}

// remotePlanGraph builds the plan graph of a gateway's plan: as
// plangraph.FromPlan, without the parallelism EXPLAIN does not give.
func remotePlanGraph(streaming bool, roots []*table.PlanNode) *plangraph.Graph {
	g := plangraph.FromPlan(streaming, roots...)
	for _, n := range g.Nodes {
		// a sink's table=[catalog.database.name] is labelled with the name
		if t, ok := n.PlanNode.Attr("table"); ok && !strings.ContainsAny(t, "[` ") && strings.Contains(t, ".") {
			for k, l := range n.Lines {
				if l == shortLine("table: "+t) {
					n.Lines[k] = shortLine("table: " + t[strings.LastIndexByte(t, '.')+1:])
				}
			}
		}
		if n.Op == "MultipleInput" && len(n.PlanNode.Members) > 0 {
			// the operators a batch MultipleInput runs
			n.Lines = append([]string{shortLine("runs: " + strings.Join(n.PlanNode.Members, ", "))}, n.Lines...)
		}
		if k := len(n.Lines) - 1; k >= 0 {
			switch l := n.Lines[k]; {
			case l == "parallelism 1":
				n.Lines = n.Lines[:k]
			case strings.HasSuffix(l, " · parallelism 1"):
				n.Lines[k] = strings.TrimSuffix(l, " · parallelism 1")
			}
		}
	}
	return g
}

// attachRemotePlan is attachPlan for a gateway's result: an EXPLAIN's
// text is read into a plan graph; a query gets a Plan view that asks the
// gateway for EXPLAIN when first shown (loadRemotePlan).
func (wb *Workbench) attachRemotePlan(rt *resultTab, conn *connection) {
	if conn == nil {
		return
	}
	if rt.Text != "" && isExplain(rt.stmt) {
		if roots, streaming, err := remoteExplainPlan(rt.Text); err == nil {
			rt.mon.planRoots, rt.mon.streaming, rt.mon.planText, rt.mon.remote = roots, streaming, rt.Text, true
		}
		return
	}
	if rt.Text == "" && rt.JobID != "" {
		rt.mon.remoteQuery = true
	}
}

// loadRemotePlan asks the gateway to EXPLAIN the result's query, off the
// UI goroutine, and shows the plan in the Plan view (or why there is
// none). The plan is the one the session makes now: the job that runs
// was planned when the query started.
func (rt *resultTab) loadRemotePlan() {
	m := &rt.mon
	m.planLoading = true
	wait := widget.NewLabel("Asking " + rt.conn.name() + " for EXPLAIN…")
	wait.Importance = widget.LowImportance
	m.planItem.Content = container.NewCenter(wait)
	m.tabs.Refresh()
	wb, c, stmt := rt.wb, rt.conn, rt.stmt
	go func() {
		text, roots, streaming, err := remoteExplain(c, stmt)
		wb.do(func() {
			m.planLoading = false
			if m.closed {
				return
			}
			if err != nil {
				l := widget.NewLabel("No plan: EXPLAIN on " + c.name() + " failed: " + firstLine(err.Error()))
				l.Wrapping = fyne.TextWrapWord
				m.planItem.Content = container.NewPadded(l)
				m.remoteQuery = false // said once; the Data view still works
			} else {
				m.plan = planview.NewOf(nil, remotePlanGraph(streaming, roots), text, wb.embeddedZone())
				m.plan.SetStatus(planview.Summary(m.plan.Plan()) + " · EXPLAIN on " + c.name() + ", no live metrics")
				m.planItem.Content = m.plan.Content()
			}
			m.tabs.Refresh()
			if m.plan != nil && m.tabs.Selected() == m.planItem {
				m.plan.Fit()
			}
		})
	}()
}

// remoteExplain runs EXPLAIN of stmt on a gateway connection and reads
// its plan.
func remoteExplain(c *connection, stmt string) (text string, roots []*table.PlanNode, streaming bool, err error) {
	defer func() {
		if r := recover(); r != nil { // off the UI goroutine: a panic here would end the program
			text, roots, streaming, err = "", nil, false, fmt.Errorf("internal error: %v", r)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	eng, err := c.engine(ctx)
	if err != nil {
		return "", nil, false, err
	}
	res, err := eng.ExecuteStatement(ctx, "EXPLAIN "+strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(stmt), ";")), sql.Pos{})
	if err != nil {
		return "", nil, false, err
	}
	it, err := res.Collect()
	if err != nil {
		return "", nil, false, err
	}
	defer it.Close()
	var lines []string
	for it.Next() {
		if v := it.Row().Values; len(v) > 0 {
			if s, ok := v[0].(string); ok {
				lines = append(lines, s)
			}
		}
	}
	if err := it.Err(); err != nil {
		return "", nil, false, err
	}
	text = strings.Join(lines, "\n")
	roots, streaming, err = remoteExplainPlan(text)
	return text, roots, streaming, err
}

// shortLine shortens a box's detail line as plangraph does (44 characters).
func shortLine(s string) string {
	if r := []rune(s); len(r) > 44 {
		return string(r[:43]) + "…"
	}
	return s
}
