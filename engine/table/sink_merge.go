package table

import "github.com/riffle-sql/riffle/engine/internal/plan"

// mergeSameSinks makes one sink of a streaming statement set's INSERTs
// into the same table: the sink reads the UNION ALL of their queries, as
// Flink's streaming planner writes them (a statement set's EXPLAIN shows
// Sink over Union(all=[true]), and the job has one sink writer per table).
// Sinks are merged only when they agree on OVERWRITE and static
// partitions (none) and their queries have the same column types; the
// others stay as they are. Batch plans keep one sink per INSERT.
func mergeSameSinks(sinks []plan.Node, streaming bool) []plan.Node {
	if !streaming || len(sinks) < 2 {
		return sinks
	}
	var out []plan.Node
	at := map[string]int{}           // table -> its sink's index in out
	unions := map[*plan.SetOp]bool{} // the unions made here
	for _, n := range sinks {
		s, ok := n.(*plan.Sink)
		if !ok || s.Collect || len(s.Static) > 0 || s.Overwrite {
			out = append(out, n)
			continue
		}
		key := s.ID.String()
		i, seen := at[key]
		if !seen {
			at[key] = len(out)
			out = append(out, n)
			continue
		}
		prev := out[i].(*plan.Sink)
		if !sameColumnTypes(prev.Input.Columns(), s.Input.Columns()) {
			out = append(out, n)
			continue
		}
		merged := *prev
		if u, ok := prev.Input.(*plan.SetOp); ok && unions[u] {
			u.In = append(u.In, s.Input)
		} else {
			u := &plan.SetOp{Kind: plan.UnionOp, All: true, In: []plan.Node{prev.Input, s.Input}, Cols: prev.Input.Columns()}
			unions[u] = true
			merged.Input = u
		}
		out[i] = &merged
	}
	return out
}

func sameColumnTypes(a, b []plan.Column) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].Type.Equals(b[i].Type) {
			return false
		}
	}
	return true
}
