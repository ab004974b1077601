package binder

import (
	"fmt"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// collectOverCalls lists the f(...) OVER (...) calls of an expression.
func collectOverCalls(e sql.Expr, out *[]*sql.FuncCall) {
	walkSQL(e, func(x sql.Expr) bool {
		if f, ok := x.(*sql.FuncCall); ok && f.Over != nil {
			*out = append(*out, f)
			return false
		}
		return true
	})
}

// overScope holds the bound OVER calls of a SELECT: each maps to a column
// of the Over node.
type overScope map[*sql.FuncCall]*expr.InputRef

// bindOver binds the OVER calls of a select list (and ORDER BY) into an
// Over node on top of n; it returns the new input and scope. Calls with
// the same window share a group.
//
// In a correlated subquery block (corr with conditions) every window is
// also partitioned by the correlation keys, so that it spans the rows
// that correlate with one outer row, as the window of the subquery
// evaluated for that row does.
func (b *binder) bindOver(n plan.Node, sc *scope, items []selItem, orderBy []*sql.OrderItem, s *sql.Select, corr *corrSink, aggregating bool) (plan.Node, *scope) {
	var calls []*sql.FuncCall
	for _, it := range items {
		if it.ast != nil {
			collectOverCalls(it.ast, &calls)
		}
	}
	for _, o := range orderBy {
		collectOverCalls(o.Expr, &calls)
	}
	if s.Qualify != nil {
		collectOverCalls(s.Qualify, &calls)
	}
	if len(calls) == 0 {
		return n, sc
	}
	named := map[string]*sql.WindowSpec{}
	for _, w := range s.Windows {
		named[w.Name.Name] = w.Spec
	}
	inCols := sc.columns()
	proj := make([]expr.Expr, len(inCols))
	for i, c := range inCols {
		proj[i] = &expr.InputRef{Index: i, Name: c.Name, T: c.Type}
	}
	col := func(e expr.Expr) int {
		if r, ok := e.(*expr.InputRef); ok && r.Index < len(inCols) {
			return r.Index
		}
		str := e.String()
		for i := len(inCols); i < len(proj); i++ {
			if proj[i].String() == str {
				return i
			}
		}
		proj = append(proj, e)
		return len(proj) - 1
	}
	type bound struct {
		call  *sql.FuncCall
		group string
		g     opspec.OverGroup
		oc    opspec.OverCall
	}
	var corrKeys []expr.Expr
	if corr != nil && len(corr.conds) > 0 {
		if !corr.equi {
			b.failAt(calls[0], "OVER windows in a correlated subquery are supported only when its correlation conditions are equalities")
		}
		corrKeys = corr.scopeKeys(sc, aggregating)
	}
	var bs []bound
	for _, f := range calls {
		spec := b.resolveWindowSpec(f.Over, named)
		var g opspec.OverGroup
		for _, k := range corrKeys {
			g.PartitionKeys = append(g.PartitionKeys, col(k))
		}
		for _, p := range spec.PartitionBy {
			g.PartitionKeys = append(g.PartitionKeys, col(b.expr(p, sc)))
		}
		for _, o := range spec.OrderBy {
			g.Order = append(g.Order, b.sortKey(o, col(b.expr(o.Expr, sc))))
		}
		name := strings.ToUpper(f.Name.Parts[len(f.Name.Parts)-1].Name)
		oc := b.bindOverCall(f, name, sc, col)
		if needs, ok := plan.RankingFunctions[name]; ok && needs && len(g.Order) == 0 {
			b.failAt(f, "Window function '%s' requires an ORDER BY clause in its window specification", name)
		}
		g.Frame = b.overFrame(spec, g, proj)
		key := fmt.Sprintf("%v|%v|%v", g.PartitionKeys, g.Order, g.Frame)
		bs = append(bs, bound{call: f, group: key, g: g, oc: oc})
	}
	var groups []opspec.OverGroup
	var keys []string
	for _, x := range bs {
		found := -1
		for i, k := range keys {
			if k == x.group {
				found = i
			}
		}
		if found < 0 {
			g := x.g
			g.Calls = nil
			groups = append(groups, g)
			keys = append(keys, x.group)
			found = len(groups) - 1
		}
		groups[found].Calls = append(groups[found].Calls, x.oc)
	}
	projCols := make([]plan.Column, len(proj))
	for i, e := range proj {
		name := fmt.Sprintf("$w%d", i)
		if i < len(inCols) {
			name = inCols[i].Name
		}
		projCols[i] = plan.Column{Name: name, Type: e.Type()}
	}
	var input plan.Node = n
	if len(proj) > len(inCols) {
		input = &plan.Project{Input: n, Exprs: proj, Cols: projCols}
	}
	cols := append([]plan.Column(nil), projCols...)
	out := &scope{rels: sc.rels, fields: append([]field(nil), sc.fields...), agg: sc.agg}
	for i := len(inCols); i < len(proj); i++ {
		out.fields = append(out.fields, field{name: projCols[i].Name, rel: -1, typ: projCols[i].Type})
	}
	if b.over == nil {
		b.over = overScope{}
	}
	for gi, g := range groups {
		for ci, c := range g.Calls {
			idx := len(cols)
			cname := fmt.Sprintf("w%d$o%d", gi, ci)
			cols = append(cols, plan.Column{Name: cname, Type: c.Type})
			out.fields = append(out.fields, field{name: cname, rel: -1, typ: c.Type})
			for _, x := range bs {
				if x.group == keys[gi] && x.oc.Func == c.Func && fmt.Sprint(x.oc.Args) == fmt.Sprint(c.Args) && x.oc.Offset == c.Offset &&
					x.oc.Distinct == c.Distinct && fmt.Sprint(x.oc.Default) == fmt.Sprint(c.Default) && b.over[x.call] == nil {
					b.over[x.call] = &expr.InputRef{Index: idx, Name: cname, T: c.Type}
					break
				}
			}
		}
	}
	return &plan.Over{Input: input, Groups: groups, Cols: cols}, out
}

// resolveWindowSpec expands OVER w and OVER (w ...) with the WINDOW clause.
func (b *binder) resolveWindowSpec(spec *sql.WindowSpec, named map[string]*sql.WindowSpec) *sql.WindowSpec {
	if spec.Name == nil {
		return spec
	}
	base, ok := named[spec.Name.Name]
	if !ok {
		b.failAt(spec.Name, "Window '%s' not found", spec.Name.Name)
	}
	base = b.resolveWindowSpec(base, named)
	if spec.Ref {
		return base
	}
	out := *base
	if len(spec.PartitionBy) > 0 {
		if len(base.PartitionBy) > 0 {
			b.failAt(spec, "Cannot override PARTITION BY clause of window '%s'", spec.Name.Name)
		}
		out.PartitionBy = spec.PartitionBy
	}
	if len(spec.OrderBy) > 0 {
		if len(base.OrderBy) > 0 {
			b.failAt(spec, "Cannot override ORDER BY clause of window '%s'", spec.Name.Name)
		}
		out.OrderBy = spec.OrderBy
	}
	if spec.Frame != nil {
		out.Frame = spec.Frame
	}
	return &out
}

// overFrame computes the frame of a window: the explicit one, or the SQL
// default (RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW with an ORDER
// BY, the whole partition without).
func (b *binder) overFrame(spec *sql.WindowSpec, g opspec.OverGroup, proj []expr.Expr) opspec.OverFrame {
	if spec.Frame == nil {
		if len(g.Order) > 0 {
			return opspec.OverFrame{Lower: opspec.FrameBound{Kind: opspec.UnboundedPreceding}, Upper: opspec.FrameBound{Kind: opspec.CurrentRow}}
		}
		return opspec.OverFrame{Rows: true, Lower: opspec.FrameBound{Kind: opspec.UnboundedPreceding}, Upper: opspec.FrameBound{Kind: opspec.UnboundedFollowing}}
	}
	f := spec.Frame
	fr := opspec.OverFrame{Rows: strings.EqualFold(f.Unit, "ROWS")}
	fr.Lower = b.frameBound(f.From, fr.Rows)
	if f.To != nil {
		fr.Upper = b.frameBound(f.To, fr.Rows)
	} else {
		fr.Upper = opspec.FrameBound{Kind: opspec.CurrentRow}
	}
	if fr.Lower.Kind == opspec.UnboundedFollowing {
		b.failAt(f, "UNBOUNDED FOLLOWING cannot be specified for the lower frame boundary")
	}
	if fr.Upper.Kind == opspec.UnboundedPreceding {
		b.failAt(f, "UNBOUNDED PRECEDING cannot be specified for the upper frame boundary")
	}
	if !fr.Rows && (fr.Lower.Kind == opspec.Preceding || fr.Lower.Kind == opspec.Following ||
		fr.Upper.Kind == opspec.Preceding || fr.Upper.Kind == opspec.Following) && len(g.Order) != 1 {
		b.failAt(f, "RANGE with offset PRECEDING/FOLLOWING requires exactly one ORDER BY column")
	}
	return fr
}

func (b *binder) frameBound(fb *sql.FrameBound, rows bool) opspec.FrameBound {
	var out opspec.FrameBound
	switch strings.ToUpper(fb.Kind) {
	case "UNBOUNDED PRECEDING":
		out.Kind = opspec.UnboundedPreceding
	case "UNBOUNDED FOLLOWING":
		out.Kind = opspec.UnboundedFollowing
	case "CURRENT ROW":
		out.Kind = opspec.CurrentRow
	case "PRECEDING":
		out.Kind = opspec.Preceding
	case "FOLLOWING":
		out.Kind = opspec.Following
	default:
		b.failAt(fb, "Unsupported frame bound %s", fb.Kind)
	}
	if fb.Offset != nil {
		e := b.expr(fb.Offset, &scope{})
		if !expr.IsConstant(e) {
			b.failAt(fb.Offset, "Window frame offsets must be constants")
		}
		v, err := expr.EvalConst(e, expr.DefaultCtx())
		if err != nil || v == nil {
			b.failAt(fb.Offset, "Invalid window frame offset")
		}
		switch x := v.(type) {
		case time.Duration:
			if rows {
				b.failAt(fb.Offset, "ROWS window frame offsets must be non-negative integers")
			}
			out.Offset = float64(x / time.Millisecond)
		case int8, int16, int32, int64:
			out.Offset = float64(plan.ToInt64(x))
		case float32, float64, types.Decimal:
			if rows {
				b.failAt(fb.Offset, "ROWS window frame offsets must be non-negative integers")
			}
			switch y := x.(type) {
			case float32:
				out.Offset = float64(y)
			case float64:
				out.Offset = y
			case types.Decimal:
				out.Offset = y.Float64()
			}
		default:
			b.failAt(fb.Offset, "Invalid window frame offset %v", v)
		}
		if out.Offset < 0 {
			b.failAt(fb.Offset, "Window frame offsets must not be negative")
		}
	}
	return out
}

// bindOverCall binds the function of an OVER call.
func (b *binder) bindOverCall(f *sql.FuncCall, name string, sc *scope, col func(expr.Expr) int) opspec.OverCall {
	oc := opspec.OverCall{Func: name, Filter: -1, Distinct: f.Quantifier == "DISTINCT", IgnoreNulls: f.NullTreatment == "IGNORE NULLS"}
	if _, ok := plan.RankingFunctions[name]; ok {
		var args []expr.Expr
		for _, a := range f.Args {
			args = append(args, b.expr(a, sc))
		}
		constInt := func(i int, what string) int64 {
			v, err := expr.EvalConst(args[i], expr.DefaultCtx())
			if err != nil || !expr.IsConstant(args[i]) || !args[i].Type().IsIntegral() || v == nil {
				b.failAt(f.Args[i], "%s of %s must be an integer constant", what, name)
			}
			return plan.ToInt64(v)
		}
		switch name {
		case "ROW_NUMBER", "RANK", "DENSE_RANK":
			if len(args) != 0 {
				b.failAt(f, "Invalid number of arguments to function '%s'. Was expecting 0 arguments", name)
			}
			oc.Type = types.BigIntType().NotNull()
		case "PERCENT_RANK", "CUME_DIST":
			if len(args) != 0 {
				b.failAt(f, "Invalid number of arguments to function '%s'. Was expecting 0 arguments", name)
			}
			oc.Type = types.DoubleType().NotNull()
		case "NTILE":
			if len(args) != 1 {
				b.failAt(f, "Invalid number of arguments to function 'NTILE'. Was expecting 1 arguments")
			}
			oc.Offset = constInt(0, "The argument")
			if oc.Offset <= 0 {
				b.failAt(f.Args[0], "Argument of NTILE must be greater than zero")
			}
			oc.Type = types.BigIntType().NotNull()
		case "LEAD", "LAG":
			if len(args) < 1 || len(args) > 3 {
				b.failAt(f, "Invalid number of arguments to function '%s'. Was expecting 1 to 3 arguments", name)
			}
			oc.Args = []int{col(args[0])}
			oc.ArgTypes = []*types.DataType{args[0].Type()}
			oc.Offset = 1
			if len(args) >= 2 {
				oc.Offset = constInt(1, "The offset")
			}
			oc.Type = args[0].Type().WithNullable(true).WithTimeAttr(types.NoTimeAttr)
			if len(args) == 3 {
				d := args[2]
				if !d.Type().EqualsIgnoreNull(args[0].Type()) {
					d = expr.ImplicitCast(d, args[0].Type())
				}
				v, err := expr.EvalConst(d, expr.DefaultCtx())
				if err != nil || !expr.IsConstant(d) {
					b.failAt(f.Args[2], "The default of %s must be a constant of the argument's type", name)
				}
				oc.Default = v
			}
		case "FIRST_VALUE", "LAST_VALUE":
			if len(args) != 1 {
				b.failAt(f, "Invalid number of arguments to function '%s'. Was expecting 1 arguments", name)
			}
			oc.Args = []int{col(args[0])}
			oc.ArgTypes = []*types.DataType{args[0].Type()}
			oc.Type = args[0].Type().WithNullable(true).WithTimeAttr(types.NoTimeAttr)
		}
		return oc
	}
	fn := b.lookupFunction(f)
	if fn.Kind != expr.AggregateKind {
		b.failAt(f, "OVER must be applied to aggregate function; %s is not one", name)
	}
	var args []expr.Expr
	for _, a := range f.Args {
		if _, ok := a.(*sql.Star); ok {
			if name != "COUNT" || len(f.Args) != 1 {
				b.failAt(a, "'*' is only allowed in COUNT(*)")
			}
			continue
		}
		args = append(args, b.expr(a, sc))
	}
	call := b.resolve(f, fn, name, args)
	ce, ok := call.(*expr.Call)
	if !ok {
		b.failAt(f, "aggregate %s cannot be folded", name)
	}
	oc.Func = strings.ToUpper(fn.Name)
	oc.Type = ce.T
	for _, a := range ce.Args {
		oc.Args = append(oc.Args, col(a))
		oc.ArgTypes = append(oc.ArgTypes, a.Type())
	}
	if f.Filter != nil {
		oc.Filter = col(b.boolExpr(f.Filter, sc, "FILTER"))
	}
	return oc
}

// overRef returns the column holding an OVER call's value.
func (b *binder) overRef(f *sql.FuncCall) expr.Expr {
	if r, ok := b.over[f]; ok {
		return r
	}
	b.failAt(f, "OVER windows are only allowed in the SELECT list and ORDER BY of a query")
	return nil
}
