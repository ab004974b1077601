package rules

import (
	"slices"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// Optimize applies the logical rewrite rules: filter push-down (through
// projections, into join inputs, below aggregates on key columns, into
// union inputs), merging of join conditions, and projection pruning down
// to the table scans (a CSV scan then parses only the columns used).
func Optimize(n plan.Node) plan.Node {
	n = rewriteStreaming(n)
	n = pushFilters(n)
	n = reduceEmptyAggregates(n)
	n = pushPartitionFilters(n)
	n, _ = prune(n, allUsed(n))
	return n
}

func allUsed(n plan.Node) []bool {
	u := make([]bool, len(n.Columns()))
	for i := range u {
		u[i] = true
	}
	return u
}

// ---------------------------------------------------------------- filters

// pushFilters moves filters towards the sources.
func pushFilters(n plan.Node) plan.Node {
	in := n.Inputs()
	if len(in) > 0 {
		next := make([]plan.Node, len(in))
		for i, c := range in {
			next[i] = pushFilters(c)
		}
		n = n.WithInputs(next)
	}
	switch x := n.(type) {
	case *plan.Filter:
		return pushFilter(x.Cond, x.Input)
	case *plan.Join:
		if x.Kind == opspec.InnerJoin && x.Cond != nil {
			// push single-side conjuncts of the ON condition into the inputs
			return pushIntoJoin(plan.Conjuncts(x.Cond), &plan.Join{Left: x.Left, Right: x.Right, Kind: x.Kind, Cols: x.Cols})
		}
	}
	return n
}

// pushFilter places condition cond on top of input, pushing it down where
// that is correct.
func pushFilter(cond expr.Expr, input plan.Node) plan.Node {
	if !expr.IsDeterministic(cond) {
		return &plan.Filter{Input: input, Cond: cond}
	}
	switch x := input.(type) {
	case *plan.Filter:
		// the lower filter's conjuncts first, as Calcite's FilterMergeRule
		// orders them: AND evaluates left to right, and the lower filter
		// may guard the upper one (WHERE c <> 'x' under CAST(c AS INT) > 1)
		return pushFilter(plan.AndOf(append(plan.Conjuncts(x.Cond), plan.Conjuncts(cond)...)), x.Input)
	case *plan.Project:
		// not past a non-deterministic column the condition reads (the
		// filter would see another value than the projection outputs);
		// other columns may be non-deterministic (PROCTIME(), RAND()), as
		// in Calcite's FilterProjectTransposeRule
		for _, r := range expr.InputRefs(cond) {
			if !expr.IsDeterministic(x.Exprs[r]) {
				return &plan.Filter{Input: input, Cond: cond}
			}
		}
		return x.WithInputs([]plan.Node{pushFilter(plan.Substitute(cond, x.Exprs), x.Input)})
	case *plan.Join:
		switch x.Kind {
		case opspec.InnerJoin:
			return pushIntoJoin(plan.Conjuncts(cond), x)
		case opspec.LeftJoin, opspec.SemiJoin, opspec.AntiJoin:
			nl := len(x.Left.Columns())
			var left, rest []expr.Expr
			for _, c := range plan.Conjuncts(cond) {
				if plan.RefsWithin(c, 0, nl) {
					left = append(left, c)
				} else {
					rest = append(rest, c)
				}
			}
			var out plan.Node = x
			if len(left) > 0 {
				j := *x
				j.Left = pushFilter(plan.AndOf(left), x.Left)
				out = &j
			}
			if len(rest) > 0 {
				out = &plan.Filter{Input: out, Cond: plan.AndOf(rest)}
			}
			return out
		}
	case *plan.Aggregate:
		var below, above []expr.Expr
		for _, c := range plan.Conjuncts(cond) {
			refs := expr.InputRefs(c)
			onKeys := true
			for _, r := range refs {
				if r >= len(x.GroupKeys) {
					onKeys = false
				}
			}
			if onKeys && len(refs) > 0 {
				m := make([]expr.Expr, len(x.Cols))
				inCols := x.Input.Columns()
				for k, key := range x.GroupKeys {
					m[k] = &expr.InputRef{Index: key, Name: inCols[key].Name, T: inCols[key].Type}
				}
				below = append(below, plan.Substitute(c, m))
			} else {
				above = append(above, c)
			}
		}
		var out plan.Node = x
		if len(below) > 0 {
			out = x.WithInputs([]plan.Node{pushFilter(plan.AndOf(below), x.Input)})
		}
		if len(above) > 0 {
			out = &plan.Filter{Input: out, Cond: plan.AndOf(above)}
		}
		return out
	case *plan.SetOp:
		if x.Kind == plan.UnionOp {
			next := make([]plan.Node, len(x.In))
			for i, c := range x.In {
				next[i] = pushFilter(cond, c)
			}
			return x.WithInputs(next)
		}
	case *plan.TemporalJoin:
		if x.Proctime {
			return pushIntoLookupJoin(plan.Conjuncts(cond), x)
		}
	}
	return &plan.Filter{Input: input, Cond: cond}
}

// pushIntoLookupJoin distributes the conjuncts of a filter above a
// processing-time temporal join (a lookup join): those on the left side
// go below it; in an inner join the others join its condition (those on
// the temporal table alone become the LookupJoin's where=[...], evaluated
// on the rows looked up and offered to the source, the rest its
// joinCondition=[...]), as Flink's FlinkFilterJoinRule does. Event-time
// temporal joins keep their filters above, as in Flink.
func pushIntoLookupJoin(conds []expr.Expr, t *plan.TemporalJoin) plan.Node {
	nl := len(t.Left.Columns())
	var left, join, rest []expr.Expr
	for _, c := range conds {
		refs := expr.InputRefs(c)
		switch {
		case len(refs) > 0 && plan.RefsWithin(c, 0, nl):
			left = append(left, c)
		case len(refs) > 0 && t.Kind == opspec.InnerJoin:
			join = append(join, c)
		default:
			rest = append(rest, c)
		}
	}
	j := *t
	if len(left) > 0 {
		j.Left = pushFilter(plan.AndOf(left), t.Left)
	}
	if len(join) > 0 {
		j.Cond = plan.AndOf(append(plan.Conjuncts(t.Cond), join...))
	}
	var out plan.Node = &j
	if len(rest) > 0 {
		out = &plan.Filter{Input: out, Cond: plan.AndOf(rest)}
	}
	return out
}

// pushIntoJoin distributes conjuncts over an inner join: single-side ones
// go into the inputs, the others into the join condition.
func pushIntoJoin(conds []expr.Expr, j *plan.Join) plan.Node {
	nl := len(j.Left.Columns())
	nr := len(j.Right.Columns())
	var left, right, both []expr.Expr
	for _, c := range conds {
		refs := expr.InputRefs(c)
		switch {
		case len(refs) > 0 && plan.RefsWithin(c, 0, nl):
			left = append(left, c)
		case len(refs) > 0 && plan.RefsWithin(c, nl, nl+nr):
			right = append(right, plan.Shift(c, -nl))
		default:
			both = append(both, c)
		}
	}
	out := *j
	if len(left) > 0 {
		out.Left = pushFilter(plan.AndOf(left), j.Left)
	}
	if len(right) > 0 {
		out.Right = pushFilter(plan.AndOf(right), j.Right)
	}
	if j.Cond != nil {
		both = append(plan.Conjuncts(j.Cond), both...)
	}
	out.Cond = plan.AndOf(both)
	return &out
}

// ---------------------------------------------------------------- pruning

// prune rewrites n to compute at least the used columns; it returns the
// new node and, for every old column, its new index (-1 when dropped).
func prune(n plan.Node, used []bool) (plan.Node, []int) {
	switch x := n.(type) {
	case *plan.Scan:
		return pruneScan(x, used)
	case *plan.Values:
		keep := keepIdx(used)
		if len(keep) == len(x.Cols) {
			return x, identity(len(used))
		}
		nv := &plan.Values{}
		for _, k := range keep {
			nv.Cols = append(nv.Cols, x.Cols[k])
		}
		for _, r := range x.Rows {
			row := make([]expr.Expr, len(keep))
			for i, k := range keep {
				row[i] = r[k]
			}
			nv.Rows = append(nv.Rows, row)
		}
		return nv, mapping(used)
	case *plan.Project:
		inUsed := make([]bool, len(x.Input.Columns()))
		keep := keepIdx(used)
		for _, k := range keep {
			for _, r := range expr.InputRefs(x.Exprs[k]) {
				inUsed[r] = true
			}
		}
		in, m := prune(x.Input, inUsed)
		np := &plan.Project{Input: in}
		for _, k := range keep {
			np.Exprs = append(np.Exprs, remap(x.Exprs[k], m))
			np.Cols = append(np.Cols, x.Cols[k])
		}
		return np, mapping(used)
	case *plan.Filter:
		inUsed := append([]bool(nil), used...)
		for _, r := range expr.InputRefs(x.Cond) {
			inUsed[r] = true
		}
		in, m := prune(x.Input, inUsed)
		f := &plan.Filter{Input: in, Cond: remap(x.Cond, m)}
		// columns only the condition needs are projected away after it
		// (Calcite's ProjectFilterTransposeRule), so joins and exchanges
		// above carry less
		var extra bool
		for i, u := range inUsed {
			if u && !used[i] && m[i] >= 0 {
				extra = true
			}
		}
		if !extra {
			return f, m
		}
		cols := f.Columns()
		np := &plan.Project{Input: f}
		out := make([]int, len(used))
		for i := range out {
			out[i] = -1
			if used[i] && m[i] >= 0 {
				out[i] = len(np.Exprs)
				np.Exprs = append(np.Exprs, &expr.InputRef{Index: m[i], Name: cols[m[i]].Name, T: cols[m[i]].Type})
				np.Cols = append(np.Cols, cols[m[i]])
			}
		}
		return np, out
	case *plan.WatermarkAssigner:
		inUsed := append([]bool(nil), used...)
		inUsed[x.Rowtime] = true
		for _, r := range expr.InputRefs(x.Expr) {
			inUsed[r] = true
		}
		in, m := prune(x.Input, inUsed)
		return &plan.WatermarkAssigner{Input: in, Rowtime: m[x.Rowtime], Expr: remap(x.Expr, m), Replay: x.Replay}, m
	case *plan.Aggregate:
		nk := len(x.GroupKeys)
		inUsed := make([]bool, len(x.Input.Columns()))
		for _, k := range x.GroupKeys {
			inUsed[k] = true
		}
		var aggs []opspec.AggSpec
		outMap := make([]int, len(x.Cols))
		for i := 0; i < nk; i++ {
			outMap[i] = i
		}
		for i, a := range x.Aggs {
			if !used[nk+i] {
				outMap[nk+i] = -1
				continue
			}
			outMap[nk+i] = nk + len(aggs)
			aggs = append(aggs, a)
			for _, c := range a.Args {
				inUsed[c] = true
			}
			if a.Filter >= 0 {
				inUsed[a.Filter] = true
			}
		}
		in, m := prune(x.Input, inUsed)
		na := &plan.Aggregate{Input: in}
		for _, k := range x.GroupKeys {
			na.GroupKeys = append(na.GroupKeys, m[k])
		}
		na.Cols = append(na.Cols, x.Cols[:nk]...)
		for i, a := range aggs {
			a2 := a
			a2.Args = nil
			for _, c := range a.Args {
				a2.Args = append(a2.Args, m[c])
			}
			if a.Filter >= 0 {
				a2.Filter = m[a.Filter]
			}
			na.Aggs = append(na.Aggs, a2)
			_ = i
		}
		for i := range x.Aggs {
			if outMap[nk+i] >= 0 {
				na.Cols = append(na.Cols, x.Cols[nk+i])
			}
		}
		return na, outMap
	case *plan.Join:
		nl := len(x.Left.Columns())
		nr := len(x.Right.Columns())
		lu := make([]bool, nl)
		ru := make([]bool, nr)
		for i, u := range used {
			if !u {
				continue
			}
			if i < nl {
				lu[i] = true
			} else {
				ru[i-nl] = true
			}
		}
		if x.Kind == opspec.SemiJoin || x.Kind == opspec.AntiJoin {
			for i := range ru {
				ru[i] = false
			}
		}
		if x.Cond != nil {
			for _, r := range expr.InputRefs(x.Cond) {
				if r < nl {
					lu[r] = true
				} else {
					ru[r-nl] = true
				}
			}
		}
		l, lm := prune(x.Left, lu)
		r, rm := prune(x.Right, ru)
		newNl := len(l.Columns())
		m := make([]int, nl+nr)
		for i := 0; i < nl; i++ {
			m[i] = lm[i]
		}
		for i := 0; i < nr; i++ {
			if rm[i] >= 0 {
				m[nl+i] = newNl + rm[i]
			} else {
				m[nl+i] = -1
			}
		}
		nj := &plan.Join{Left: l, Right: r, Kind: x.Kind}
		if x.Cond != nil {
			nj.Cond = remap(x.Cond, m)
		}
		for i, c := range x.Cols {
			if m[i] >= 0 {
				nj.Cols = append(nj.Cols, c)
			}
		}
		if x.Kind == opspec.SemiJoin || x.Kind == opspec.AntiJoin {
			nj.Cols = nj.Cols[:0]
			for i := 0; i < nl; i++ {
				if m[i] >= 0 {
					nj.Cols = append(nj.Cols, x.Cols[i])
				}
			}
			return nj, m[:nl]
		}
		return nj, m
	case *plan.Sort:
		inUsed := append([]bool(nil), used...)
		for _, k := range x.Keys {
			inUsed[k.Col] = true
		}
		in, m := prune(x.Input, inUsed)
		ns := &plan.Sort{Input: in, Offset: x.Offset, Fetch: x.Fetch}
		for _, k := range x.Keys {
			k.Col = m[k.Col]
			ns.Keys = append(ns.Keys, k)
		}
		return ns, m
	case *plan.Rank:
		nin := len(x.Input.Columns())
		inUsed := make([]bool, nin)
		copy(inUsed, used[:nin])
		for _, k := range x.PartitionKeys {
			inUsed[k] = true
		}
		for _, k := range x.Keys {
			inUsed[k.Col] = true
		}
		in, m := prune(x.Input, inUsed)
		// the rank number is output only when a later node reads it
		withNum := x.WithRankNum && used[len(x.Cols)-1]
		nr := &plan.Rank{Input: in, RankStart: x.RankStart, RankEnd: x.RankEnd, WithRankNum: withNum, RankType: x.RankType}
		for _, k := range x.PartitionKeys {
			nr.PartitionKeys = append(nr.PartitionKeys, m[k])
		}
		for _, k := range x.Keys {
			k.Col = m[k.Col]
			nr.Keys = append(nr.Keys, k)
		}
		nr.Cols = append([]plan.Column(nil), in.Columns()...)
		out := append([]int(nil), m...)
		if withNum {
			nr.Cols = append(nr.Cols, x.Cols[len(x.Cols)-1])
			out = append(out, len(nr.Cols)-1)
		} else if x.WithRankNum {
			out = append(out, -1)
		}
		return nr, out
	case *plan.Over:
		return pruneOver(x, used)
	case *plan.SetOp:
		if x.Kind != plan.UnionOp || !x.All {
			// set semantics depend on every column
			next := make([]plan.Node, len(x.In))
			for i, c := range x.In {
				next[i], _ = prune(c, allUsed(c))
			}
			return x.WithInputs(next), identity(len(used))
		}
		next := make([]plan.Node, len(x.In))
		for i, c := range x.In {
			p, m := prune(c, used)
			next[i] = projectExact(p, m, used)
		}
		ns := &plan.SetOp{Kind: x.Kind, All: x.All, In: next}
		for i, c := range x.Cols {
			if used[i] {
				ns.Cols = append(ns.Cols, c)
			}
		}
		return ns, mapping(used)
	case *plan.Sink:
		in, m := prune(x.Input, allUsed(x.Input))
		s := *x
		s.Input = projectExact(in, m, allUsed(x.Input))
		return &s, identity(len(used))
	}
	if w, ok := n.(*plan.WindowRank); ok {
		return pruneWindowRank(w, used)
	}
	// unknown node: prune inputs conservatively
	in := n.Inputs()
	if len(in) > 0 {
		next := make([]plan.Node, len(in))
		for i, c := range in {
			p, m := prune(c, allUsed(c))
			next[i] = projectExact(p, m, allUsed(c))
		}
		n = n.WithInputs(next)
	}
	return n, identity(len(used))
}

// pruneOver keeps of an OVER's input only the columns used above it and
// those its partition keys, order keys, arguments and filters read
// (Calcite's ProjectWindowTransposeRule, as Flink plans it: OverAggregate
// select=[a, c, w0$o0] over a table (a, b, c)); every call is kept.
func pruneOver(x *plan.Over, used []bool) (plan.Node, []int) {
	nin := len(x.Input.Columns())
	inUsed := make([]bool, nin)
	copy(inUsed, used[:nin])
	for _, g := range x.Groups {
		for _, k := range g.PartitionKeys {
			inUsed[k] = true
		}
		for _, k := range g.Order {
			inUsed[k.Col] = true
		}
		for _, c := range g.Calls {
			for _, a := range c.Args {
				inUsed[a] = true
			}
			if c.Filter >= 0 {
				inUsed[c.Filter] = true
			}
		}
	}
	in, m := prune(x.Input, inUsed)
	no := &plan.Over{Input: in}
	for _, g := range x.Groups {
		ng := g
		ng.PartitionKeys = nil
		for _, k := range g.PartitionKeys {
			ng.PartitionKeys = append(ng.PartitionKeys, m[k])
		}
		ng.Order = nil
		for _, k := range g.Order {
			k.Col = m[k.Col]
			ng.Order = append(ng.Order, k)
		}
		ng.Calls = nil
		for _, c := range g.Calls {
			c.Args = slices.Clone(c.Args)
			for i, a := range c.Args {
				c.Args[i] = m[a]
			}
			if c.Filter >= 0 {
				c.Filter = m[c.Filter]
			}
			ng.Calls = append(ng.Calls, c)
		}
		no.Groups = append(no.Groups, ng)
	}
	no.Cols = append([]plan.Column(nil), in.Columns()...)
	out := append([]int(nil), m...)
	for i := nin; i < len(x.Cols); i++ {
		out = append(out, len(no.Cols))
		no.Cols = append(no.Cols, x.Cols[i])
	}
	return no, out
}

// projectExact makes a pruned node produce exactly the used columns.
func projectExact(n plan.Node, m []int, used []bool) plan.Node {
	cols := n.Columns()
	var exprs []expr.Expr
	var out []plan.Column
	for i, u := range used {
		if !u {
			continue
		}
		c := cols[m[i]]
		exprs = append(exprs, &expr.InputRef{Index: m[i], Name: c.Name, T: c.Type})
		out = append(out, c)
	}
	if len(exprs) == len(cols) {
		same := true
		for i, e := range exprs {
			if e.(*expr.InputRef).Index != i {
				same = false
			}
		}
		if same {
			return n
		}
	}
	return &plan.Project{Input: n, Exprs: exprs, Cols: out}
}

func pruneScan(s *plan.Scan, used []bool) (plan.Node, []int) {
	if len(s.Metadata) == 0 && !connector.PushesProjection(s.Table.TableOptions["connector"]) {
		// the source reads every column: project above the scan, as
		// Flink does for a source without SupportsProjectionPushDown
		keep := append([]bool(nil), used...)
		anyUsed := false
		for _, u := range keep {
			anyUsed = anyUsed || u
		}
		if !anyUsed && len(keep) > 0 {
			keep[0] = true // keep one column for COUNT(*)
		}
		return projectExact(s, identity(len(keep)), keep), mapping(keep)
	}
	ns := *s
	ns.Projection, ns.Metadata, ns.Cols = nil, nil, nil
	np := len(s.Projection)
	m := make([]int, len(used))
	anyUsed := false
	for _, u := range used {
		if u {
			anyUsed = true
		}
	}
	for i := range used {
		m[i] = -1
		keep := used[i] || (!anyUsed && i == 0) // keep one column for COUNT(*)
		if !keep {
			continue
		}
		m[i] = len(ns.Cols)
		ns.Cols = append(ns.Cols, s.Cols[i])
		if i < np {
			ns.Projection = append(ns.Projection, s.Projection[i])
		} else {
			ns.Metadata = append(ns.Metadata, s.Metadata[i-np])
		}
	}
	return &ns, m
}

func keepIdx(used []bool) []int {
	var out []int
	for i, u := range used {
		if u {
			out = append(out, i)
		}
	}
	return out
}

func mapping(used []bool) []int {
	m := make([]int, len(used))
	k := 0
	for i, u := range used {
		if u {
			m[i] = k
			k++
		} else {
			m[i] = -1
		}
	}
	return m
}

func identity(n int) []int {
	m := make([]int, n)
	for i := range m {
		m[i] = i
	}
	return m
}

func remap(e expr.Expr, m []int) expr.Expr {
	return expr.ShiftInputs(e, func(i int) int { return m[i] })
}

// timeAttrFree strips time attribute markers from a type.
func timeAttrFree(t *types.DataType) *types.DataType { return t.WithTimeAttr(types.NoTimeAttr) }

// pruneWindowRank drops a window Top-N's rank number when nothing reads
// it.
func pruneWindowRank(w *plan.WindowRank, used []bool) (plan.Node, []int) {
	c := *w
	in, m := prune(w.Input, allUsed(w.Input))
	c.Input = projectExact(in, m, allUsed(w.Input))
	out := identity(len(used))
	if w.WithRankNum && !used[len(used)-1] {
		c.WithRankNum = false
		c.Cols = w.Cols[:len(w.Cols)-1]
		out[len(out)-1] = -1
	}
	return &c, out
}
