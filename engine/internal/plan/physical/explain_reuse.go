package physical

import (
	"fmt"
	"strings"
)

// ExplainExecution renders the "Optimized Execution Plan" section of the
// plans of one statement (several for a statement set) as Flink's
// ExecNodePlanDumper does after sub-plan reuse (SubplanReuser): identical
// subtrees, found by their printed digest, are one node. Within one tree
// the first occurrence is printed with "(reuse_id=[n])" after its line and
// every later one as "Reused(reference_id=[n])". With several trees, a
// node shared by them is printed first as a tree of its own, then each
// sink refers to it; trees are separated by a blank line.
//
// reuse is the session's table.optimizer.reuse-* options: without
// SubPlan no node is marked; without Source a table scan (and an
// exchange right above one) is never one node with another, while the
// equal nodes above such scans still are (Flink's SubplanReuser).
func ExplainExecution(roots []*Node, streaming bool, reuse Reuse) string {
	d := ExplainDetail{Execution: true}
	if !reuse.SubPlan {
		blocks := make([]string, len(roots))
		for i, r := range roots {
			blocks[i] = explainTree(r, d, streaming, nil)
		}
		return strings.Join(blocks, "\n")
	}
	// reusable says whether p may be one node with its equals: not a
	// sink, nor a scan (or an exchange of one) when sources are not reused
	var reusable func(p *Node) bool
	reusable = func(p *Node) bool {
		switch p.Op.(type) {
		case *Sink:
			return false
		case *TableSourceScan:
			return reuse.Source
		case *Exchange:
			if len(p.Inputs) == 1 {
				return reusable(shownNode(p.Inputs[0]))
			}
		}
		return true
	}
	digests := map[*Node]string{}
	var digest func(p *Node) string
	digest = func(p *Node) string {
		p = shownNode(p)
		if s, ok := digests[p]; ok {
			return s
		}
		s := explainTree(p, d, streaming, nil)
		digests[p] = s
		return s
	}
	// how often each distinct subtree is referenced; a subtree seen again
	// is not descended into (it is the same node)
	count := map[string]int{}
	var order []string // distinct reused candidates, inputs before users
	var visit func(p *Node)
	visit = func(p *Node) {
		p = shownNode(p)
		k := digest(p)
		ok := reusable(p)
		if ok {
			count[k]++
			if count[k] > 1 {
				return
			}
		}
		for _, in := range p.Inputs {
			visit(in)
		}
		if ok {
			order = append(order, k)
		}
	}
	for _, r := range roots {
		visit(r)
	}
	reusedNode := map[string]*Node{}
	var find func(p *Node)
	find = func(p *Node) {
		p = shownNode(p)
		k := digest(p)
		if count[k] > 1 && reusedNode[k] == nil {
			reusedNode[k] = p
		}
		for _, in := range p.Inputs {
			find(in)
		}
	}
	for _, r := range roots {
		find(r)
	}
	ids := map[string]int{}
	nextID := 0
	if len(roots) == 1 {
		printed := map[string]bool{}
		return explainTree(roots[0], d, streaming, func(p *Node) (string, string) {
			k := digest(p)
			if count[k] < 2 {
				return "", ""
			}
			if printed[k] {
				return "", fmt.Sprintf("Reused(reference_id=[%d])", ids[k])
			}
			printed[k] = true
			nextID++
			ids[k] = nextID
			return fmt.Sprintf("(reuse_id=[%d])", nextID), ""
		})
	}
	var blocks []string
	var current string // the shared node a block prints
	ref := func(p *Node) (string, string) {
		k := digest(p)
		if count[k] < 2 {
			return "", ""
		}
		if k == current {
			return fmt.Sprintf("(reuse_id=[%d])", ids[k]), ""
		}
		return "", fmt.Sprintf("Reused(reference_id=[%d])", ids[k])
	}
	for _, k := range order {
		if count[k] < 2 {
			continue
		}
		nextID++
		ids[k] = nextID
		current = k
		blocks = append(blocks, explainTree(reusedNode[k], d, streaming, ref))
	}
	current = ""
	for _, r := range roots {
		blocks = append(blocks, explainTree(r, d, streaming, ref))
	}
	return strings.Join(blocks, "\n")
}

// Reuse is what a plan's equal subtrees share, in EXPLAIN and in the job
// (Flink's table.optimizer.reuse-sub-plan-enabled and
// reuse-source-enabled).
type Reuse struct {
	// SubPlan: equal subtrees are one node
	SubPlan bool
	// Source: equal table scans are one node too (only with SubPlan)
	Source bool
}

// DefaultReuse is Flink's default: both options true.
var DefaultReuse = Reuse{SubPlan: true, Source: true}
