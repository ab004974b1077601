package physical

import (
	"fmt"
	"sort"
	"strings"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// ExplainDetail selects extra EXPLAIN output.
type ExplainDetail struct {
	EstimatedCost bool
	ChangelogMode bool
	JSONPlan      bool
	// Execution renders the "Optimized Execution Plan" section: attribute
	// values in their Exec form (expressions infix, as Flink's ExecNodes
	// describe them).
	Execution bool
}

// Explain renders a physical plan tree.
func Explain(p *Node, d ExplainDetail, streaming bool) string {
	return explainTree(p, d, streaming, nil)
}

// shownNode skips the nodes a plan does not print: Flink's plans show
// exchanges that redistribute by key, to one instance or by broadcast;
// round-robin and forward edges are chosen when the job graph is built and
// do not appear (nor the key-by in front of an upsert-materializing sink).
func shownNode(p *Node) *Node {
	for hiddenExchange(p) || p.hidden && len(p.Inputs) == 1 {
		p = p.Inputs[0]
	}
	return p
}

// explainTree renders a tree; reuse, when not nil, says for a node the
// suffix to print after its line ("(reuse_id=[1])") or the line that
// stands for it without its inputs ("Reused(reference_id=[1])").
func explainTree(p *Node, d ExplainDetail, streaming bool, reuse func(p *Node) (suffix, replaced string)) string {
	var b strings.Builder
	var rec func(p *Node, prefix string, last, root bool)
	rec = func(p *Node, prefix string, last, root bool) {
		p = shownNode(p)
		suffix, replaced := "", ""
		if reuse != nil {
			suffix, replaced = reuse(p)
		}
		if replaced != "" {
			branch := "+- "
			if !last {
				branch = ":- "
			}
			if root {
				branch = ""
			}
			b.WriteString(prefix + branch + replaced + "\n")
			return
		}
		attrs := p.Attrs()
		if d.Execution {
			kept := attrs[:0:0]
			for _, a := range attrs {
				if a.PhysicalOnly {
					continue
				}
				if a.Exec != "" {
					a.Value = a.Exec
				}
				kept = append(kept, a)
			}
			attrs = kept
		}
		if d.ChangelogMode && streaming {
			mode := p.Mode.String()
			if isOp[*Sink](p) {
				mode = "NONE" // a sink produces no changes (Flink prints NONE)
			}
			attrs = append(attrs, Attr{Name: "changelogMode", Value: mode})
		}
		// an operator without attributes (DropUpdateBefore in the
		// execution plan) is printed by its name alone
		line := describeAttrs(p.Name(), attrs) + suffix
		if d.EstimatedCost {
			line += ": " + costString(p)
		}
		if root {
			b.WriteString(line)
		} else {
			branch := "+- "
			if !last {
				branch = ":- "
			}
			b.WriteString(prefix + branch + line)
		}
		b.WriteByte('\n')
		childPrefix := prefix
		if !root {
			if last {
				childPrefix += "   "
			} else {
				childPrefix += ":  "
			}
		}
		for i, c := range p.Inputs {
			rec(c, childPrefix, i == len(p.Inputs)-1, false)
		}
	}
	rec(p, "", true, true)
	return b.String()
}

func javaDouble(f float64) string { return types.FormatDoubleJava(f) }

// JSONPlan renders the execution plan as Flink's JSON (nodes with id,
// type, pact, contents, parallelism and predecessors).
func JSONPlan(root *Node) string {
	ids := map[*Node]int{}
	var order []*Node
	var visit func(p *Node)
	visit = func(p *Node) {
		if _, ok := ids[p]; ok {
			return
		}
		for _, in := range p.Inputs {
			visit(in)
		}
		if isOp[*Exchange](p) {
			ids[p] = -1
			return
		}
		ids[p] = len(order) + 1
		order = append(order, p)
	}
	visit(root)
	var b strings.Builder
	b.WriteString("{\n  \"nodes\" : [ ")
	for i, p := range order {
		if i > 0 {
			b.WriteString(", ")
		}
		pact := "Operator"
		if p.IsSource() {
			pact = "Data Source"
		} else if isOp[*Sink](p) {
			pact = "Data Sink"
		}
		// Flink names a node by its description; sources carry "Source: "
		desc := p.Describe()
		if p.IsSource() {
			desc = "Source: " + desc
		}
		fmt.Fprintf(&b, "{\n    \"id\" : %d,\n    \"type\" : %q,\n    \"pact\" : %q,\n    \"contents\" : %q,\n    \"parallelism\" : %d", ids[p], desc, pact, desc, p.Parallelism)
		var preds []string
		for _, in := range p.Inputs {
			ship := "FORWARD"
			src := in
			if x, ok := in.Op.(*Exchange); ok {
				ship = strings.ToUpper(x.Dist.String())
				src = in.Inputs[0]
				if src.Parallelism == p.Parallelism && (x.Dist == opspec.Single || x.Dist == opspec.Rebalance) {
					// equal parallelism: Flink chains the edge forward
					ship = "FORWARD"
				}
			}
			preds = append(preds, fmt.Sprintf("{\n      \"id\" : %d,\n      \"ship_strategy\" : %q,\n      \"side\" : \"second\"\n    }", ids[src], ship))
		}
		if len(preds) > 0 {
			b.WriteString(",\n    \"predecessors\" : [ " + strings.Join(preds, ", ") + " ]")
		}
		b.WriteString("\n  }")
	}
	b.WriteString(" ]\n}")
	return b.String()
}

// SortedKeys is a helper for deterministic map iteration in plans.
func SortedKeys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// QueryRoot returns the part of a collect plan that EXPLAIN shows for a
// query: Flink explains a SELECT without the sink that collects its rows
// (and without the exchange to that sink's single instance), and without
// -U rows at its root where the plan can leave them out (explainRoot; this
// changes p, which is then for showing only).
func QueryRoot(p *Node) *Node {
	if !isOp[*Sink](p) || len(p.Inputs) != 1 {
		return p
	}
	in := p.Inputs[0]
	if x, ok := in.Op.(*Exchange); ok && len(in.Inputs) == 1 && (x.Dist == opspec.Single || x.Dist == opspec.Rebalance || x.Dist == opspec.Forward) {
		in = in.Inputs[0]
	}
	explainRoot(in)
	return in
}
