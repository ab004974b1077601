package ui

import (
	"context"
	"fmt"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/opspec"
	"github.com/riffle-sql/riffle/engine/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/plangraph"
)

// A gateway sends EXPLAIN as text only. To draw it as the embedded
// engine's plans are drawn, the text's plan trees are read back into
// plan nodes (operator, attributes, inputs; an Exchange's distribution;
// a node's changelog mode when EXPLAIN CHANGELOG_MODE printed it), which
// the plan graph lays out. EXPLAIN says nothing of parallelism, so the
// boxes do not either.

// explainSections splits EXPLAIN's text into its "== Title ==" sections.
func explainSections(text string) map[string][]string {
	out := map[string][]string{}
	cur := ""
	for _, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "== ") && strings.HasSuffix(t, " ==") {
			cur = strings.TrimSpace(t[3 : len(t)-3])
			continue
		}
		if cur != "" {
			out[cur] = append(out[cur], line)
		}
	}
	return out
}

// remoteExplainPlan reads the plan of a gateway's EXPLAIN text: the
// "Optimized Execution Plan" section (exchanges and reused nodes as the
// job runs them), or the "Optimized Physical Plan" when only that one
// carries changelog modes (EXPLAIN CHANGELOG_MODE prints them there). It
// returns nil roots when the text has no plan it can read, and whether
// the plan is a streaming one (it has changelog modes, or operators that
// only streaming plans have).
func remoteExplainPlan(text string) (roots []*plan.PhysNode, streaming bool, err error) {
	defer func() {
		if r := recover(); r != nil { // an unforeseen text never takes the window down
			roots, streaming, err = nil, false, fmt.Errorf("cannot read the plan: %v", r)
		}
	}()
	secs := explainSections(text)
	lines, ok := secs["Optimized Execution Plan"]
	if phys, has := secs["Optimized Physical Plan"]; has && (!ok || strings.Contains(strings.Join(phys, "\n"), "changelogMode=[")) {
		lines, ok = phys, true
	}
	if !ok {
		return nil, false, fmt.Errorf("EXPLAIN has no optimized plan section")
	}
	roots, err = parsePlanTrees(lines)
	if err != nil {
		return nil, false, err
	}
	var walk func(n *plan.PhysNode)
	seen := map[*plan.PhysNode]bool{}
	walk = func(n *plan.PhysNode) {
		if seen[n] {
			return
		}
		seen[n] = true
		if n.Mode != (types.ChangelogMode{}) || streamingOnlyOps[n.Name()] {
			streaming = true
		}
		for _, in := range n.Inputs {
			walk(in)
		}
	}
	for _, r := range roots {
		walk(r)
	}
	return roots, streaming, nil
}

// streamingOnlyOps are operators Flink's planner uses in streaming plans only.
var streamingOnlyOps = map[string]bool{
	"GroupAggregate": true, "GlobalGroupAggregate": true, "LocalGroupAggregate": true, "IncrementalGroupAggregate": true,
	"ChangelogNormalize": true, "WindowAggregate": true, "GroupWindowAggregate": true, "Deduplicate": true,
	"Join": true, "IntervalJoin": true, "TemporalJoin": true, "WindowJoin": true, "Rank": true, "WindowRank": true,
	"MiniBatchAssigner": true, "DropUpdateBefore": true, "SinkMaterializer": true, "WindowTableFunction": true,
	"LocalWindowAggregate": true, "GlobalWindowAggregate": true, "WindowDeduplicate": true, "WatermarkAssigner": true,
}

// parsePlanTrees reads plan trees as Flink prints them: one operator a
// line, "Op(key=[value], ...)", its inputs below it, each prefixed by
// "+- " (the last input) or ":- " (the others) three columns further in,
// with ":  " and "   " continuing the branches above. A node printed with
// "(reuse_id=[n])" is referred to again by "Reused(reference_id=[n])".
// Blank lines separate the trees of several sinks.
func parsePlanTrees(lines []string) ([]*plan.PhysNode, error) {
	var roots []*plan.PhysNode
	var stack []*plan.PhysNode // stack[d] is the last node read at depth d
	reused := map[string]*plan.PhysNode{}
	for i, line := range lines {
		line = strings.TrimRight(line, " \t")
		if strings.TrimSpace(line) == "" {
			stack = stack[:0]
			continue
		}
		at := strings.IndexFunc(line, func(r rune) bool { return !strings.ContainsRune(" :+-|", r) })
		if at < 0 || at%3 != 0 {
			return nil, fmt.Errorf("plan line %d: cannot read %q", i+1, line)
		}
		depth := at / 3
		if depth > len(stack) || depth > 0 && len(stack) == 0 {
			return nil, fmt.Errorf("plan line %d: an input without its operator above: %q", i+1, line)
		}
		op, groups := splitOperator(line[at:])
		var n *plan.PhysNode
		if op == "Reused" && len(groups) > 0 {
			id, _ := attrValue(splitTopLevel(groups[0]), "reference_id")
			if n = reused[id]; n == nil {
				return nil, fmt.Errorf("plan line %d: Reused(reference_id=[%s]) refers to no node", i+1, id)
			}
		} else {
			var attrs []string
			if len(groups) > 0 {
				attrs = splitTopLevel(groups[0])
			}
			text := &plan.TextOp{Op: op, Attrs: plan.ParseAttrs(attrs...)}
			n = &plan.PhysNode{Op: text}
			for k := 1; k < len(groups); k++ {
				if id, ok := attrValue(splitTopLevel(groups[k]), "reuse_id"); ok {
					reused[id] = n
				}
			}
			if m, ok := attrValue(attrs, "changelogMode"); ok {
				n.Mode = parseChangelogMode(m)
			}
			if op == "Exchange" {
				text.Dist = exchangeDist(attrs)
				if d, _ := attrValue(attrs, "distribution"); text.Dist == opspec.Hash {
					text.KeyNames = splitTopLevel(strings.TrimSuffix(strings.TrimPrefix(d, "hash["), "]"))
				}
			}
		}
		stack = append(stack[:depth], n)
		if depth == 0 {
			roots = append(roots, n)
		} else {
			parent := stack[depth-1]
			parent.Inputs = append(parent.Inputs, n)
		}
	}
	if len(roots) == 0 {
		return nil, fmt.Errorf("the plan is empty")
	}
	return roots, nil
}

// splitOperator splits "Op(a=[1], b=[2])(reuse_id=[1])" into the
// operator's name and the texts inside its top-level parentheses.
func splitOperator(s string) (string, []string) {
	open := strings.IndexByte(s, '(')
	if open < 0 {
		return strings.TrimSpace(s), nil
	}
	op := strings.TrimSpace(s[:open])
	var groups []string
	depth, start := 0, open+1
	scanBrackets(s[open:], func(i int, c byte) {
		i += open
		switch c {
		case '(', '[', '{':
			if depth == 0 && c == '(' {
				start = i + 1
			}
			depth++
		case ')', ']', '}':
			depth--
			if depth == 0 && c == ')' && start <= i {
				groups = append(groups, s[start:i])
			}
		}
	})
	return op, groups
}

// splitTopLevel splits "a=[x, y], b=[f(1, 2)]" at the commas outside
// brackets, parentheses and quotes.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	scanBrackets(s, func(i int, c byte) {
		switch c {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	})
	if rest := strings.TrimSpace(s[start:]); rest != "" {
		out = append(out, rest)
	}
	return out
}

// scanBrackets calls f with the position of each bracket and comma of s
// outside quoted literals. Flink prints a literal's quote inside it
// undoubled ('it's') and window properties with a lone quote
// (start('w$)), so a literal is taken to run from a quote to the next
// quote that is not followed by a letter or digit; a quote with no such
// end is an ordinary character.
func scanBrackets(s string, f func(i int, c byte)) {
	word := func(c byte) bool {
		return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\'' {
			end := -1
			for j := i + 1; j < len(s); j++ {
				if s[j] == '\'' && (j+1 == len(s) || !word(s[j+1])) {
					end = j
					break
				}
			}
			if end > 0 {
				i = end
				continue
			}
		}
		switch c {
		case '(', '[', '{', ')', ']', '}', ',':
			f(i, c)
		}
	}
}

// attrValue returns the value of key=[value] among attrs.
func attrValue(attrs []string, key string) (string, bool) {
	for _, a := range attrs {
		if v, ok := strings.CutPrefix(a, key+"=["); ok && strings.HasSuffix(v, "]") {
			return v[:len(v)-1], true
		}
	}
	return "", false
}

// parseChangelogMode reads EXPLAIN's "I,UB,UA,D".
func parseChangelogMode(s string) types.ChangelogMode {
	var kinds []types.RowKind
	for _, k := range strings.Split(s, ",") {
		switch strings.TrimSpace(k) {
		case "I":
			kinds = append(kinds, types.Insert)
		case "UB":
			kinds = append(kinds, types.UpdateBefore)
		case "UA":
			kinds = append(kinds, types.UpdateAfter)
		case "D":
			kinds = append(kinds, types.Delete)
		}
	}
	return types.ChangelogModeOf(kinds...)
}

// exchangeDist reads an Exchange's distribution=[...]: hash[keys],
// broadcast, single, or another (forward, rebalance, any).
func exchangeDist(attrs []string) opspec.Partitioning {
	d, _ := attrValue(attrs, "distribution")
	switch {
	case strings.HasPrefix(d, "hash["):
		return opspec.Hash
	case d == "broadcast":
		return opspec.Broadcast
	case d == "single":
		return opspec.Single
	case d == "forward":
		return opspec.Forward
	}
	return opspec.Rebalance
}

// remotePlanGraph builds the plan graph of a gateway's plan: as
// plangraph.FromPlan, without the parallelism EXPLAIN does not give.
func remotePlanGraph(streaming bool, roots []*plan.PhysNode) *plangraph.Graph {
	g := plangraph.FromPlan(streaming, roots...)
	for _, n := range g.Nodes {
		// a sink's table=[catalog.database.name] is labelled with the name
		if t, ok := attrValue(n.Attrs, "table"); ok && !strings.ContainsAny(t, "[` ") && strings.Contains(t, ".") {
			for k, l := range n.Lines {
				if l == shortLine("table: "+t) {
					n.Lines[k] = shortLine("table: " + t[strings.LastIndexByte(t, '.')+1:])
				}
			}
		}
		if n.Op == "MultipleInput" {
			if m := multipleInputMembers(n.Attrs); m != "" {
				n.Lines = append([]string{m}, n.Lines...)
			}
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
	if rt.text != "" && isExplain(rt.stmt) {
		if roots, streaming, err := remoteExplainPlan(rt.text); err == nil {
			rt.mon.planRoots, rt.mon.streaming, rt.mon.planText, rt.mon.remote = roots, streaming, rt.text, true
		}
		return
	}
	if rt.text == "" && rt.jobID != "" {
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
				m.plan = newPlanViewOf(wb, nil, remotePlanGraph(streaming, roots), text)
				m.plan.status.SetText(planSummary(m.plan.g) + " · EXPLAIN on " + c.name() + ", no live metrics")
				m.planItem.Content = m.plan.content
			}
			m.tabs.Refresh()
			if m.plan != nil && m.tabs.Selected() == m.planItem {
				m.plan.fit()
			}
		})
	}()
}

// remoteExplain runs EXPLAIN of stmt on a gateway connection and reads
// its plan.
func remoteExplain(c *connection, stmt string) (text string, roots []*plan.PhysNode, streaming bool, err error) {
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

// multipleInputMembers names the operators a batch MultipleInput runs
// (its members=[...] attribute, a plan tree with "\n" for line breaks),
// e.g. "runs: HashJoin, HashAggregate"; "" when there are none.
func multipleInputMembers(attrs []string) string {
	m, ok := attrValue(attrs, "members")
	if !ok {
		return ""
	}
	var names []string
	seen := map[string]bool{}
	for _, line := range strings.Split(m, `\n`) {
		line = strings.TrimLeft(line, " :+-|")
		if strings.HasPrefix(line, "[#") { // an input: "[#1] Exchange(...)"
			continue
		}
		op, _ := splitOperator(line)
		if op != "" && !seen[op] {
			seen[op] = true
			names = append(names, op)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return shortLine("runs: " + strings.Join(names, ", "))
}

// shortLine shortens a box's detail line as plangraph does (44 characters).
func shortLine(s string) string {
	if r := []rune(s); len(r) > 44 {
		return string(r[:43]) + "…"
	}
	return s
}
