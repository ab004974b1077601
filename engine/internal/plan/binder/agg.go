package binder

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// aggScope maps the expressions of an aggregating SELECT to the columns
// of its Aggregate node: GROUP BY expressions to the key columns and
// aggregate calls to the aggregate columns.
type aggScope struct {
	base      *scope
	groupStrs []string
	calls     map[*sql.FuncCall]int
	// special maps GROUPING / GROUPING_ID / GROUP_ID calls to their
	// expressions over the aggregate's output.
	special  map[*sql.FuncCall]expr.Expr
	outTypes []*types.DataType
	outNames []string
	// window is the legacy group window of the GROUP BY, if any.
	window *groupWindow
}

// isAggCall reports whether a call is to an aggregate function (and not a
// windowed OVER call).
func (b *binder) isAggCall(f *sql.FuncCall) bool {
	if f.Over != nil {
		return false
	}
	fn, err := b.ctx.LookupFunction(identNames(f.Name.Parts))
	return err == nil && fn != nil && fn.Kind == expr.AggregateKind
}

// containsAgg reports whether an expression contains an aggregate call
// (not looking into subqueries).
func containsAgg(b *binder, e sql.Expr) bool {
	found := false
	walkSQL(e, func(x sql.Expr) bool {
		if f, ok := x.(*sql.FuncCall); ok && b.isAggCall(f) {
			found = true
			return false
		}
		return !found
	})
	return found
}

// collectAggs lists the aggregate calls of an expression, outermost first.
func collectAggs(b *binder, e sql.Expr, out *[]*sql.FuncCall) {
	walkSQL(e, func(x sql.Expr) bool {
		if f, ok := x.(*sql.FuncCall); ok && b.isAggCall(f) {
			*out = append(*out, f)
			return false
		}
		return true
	})
}

// walkSQL visits an expression tree depth first.
func walkSQL(e sql.Expr, fn func(sql.Expr) bool) {
	if e == nil || !fn(e) {
		return
	}
	switch x := e.(type) {
	case *sql.UnaryExpr:
		walkSQL(x.X, fn)
	case *sql.BinaryExpr:
		walkSQL(x.X, fn)
		walkSQL(x.Y, fn)
	case *sql.IsExpr:
		walkSQL(x.X, fn)
	case *sql.IsDistinctFromExpr:
		walkSQL(x.X, fn)
		walkSQL(x.Y, fn)
	case *sql.LikeExpr:
		walkSQL(x.X, fn)
		walkSQL(x.Pattern, fn)
		walkSQL(x.Escape, fn)
	case *sql.InExpr:
		walkSQL(x.X, fn)
		for _, it := range x.List {
			walkSQL(it, fn)
		}
	case *sql.QuantifiedExpr:
		walkSQL(x.X, fn)
	case *sql.BetweenExpr:
		walkSQL(x.X, fn)
		walkSQL(x.Low, fn)
		walkSQL(x.High, fn)
	case *sql.CastExpr:
		walkSQL(x.X, fn)
	case *sql.CaseExpr:
		walkSQL(x.Operand, fn)
		for _, w := range x.Whens {
			walkSQL(w.Cond, fn)
			for _, m := range w.More {
				walkSQL(m, fn)
			}
			walkSQL(w.Result, fn)
		}
		walkSQL(x.Else, fn)
	case *sql.FuncCall:
		for _, a := range x.Args {
			walkSQL(a, fn)
		}
		walkSQL(x.Filter, fn)
		if x.Over != nil {
			// aggregates inside a window specification (RANK() OVER (ORDER BY SUM(x)))
			for _, p := range x.Over.PartitionBy {
				walkSQL(p, fn)
			}
			for _, o := range x.Over.OrderBy {
				walkSQL(o.Expr, fn)
			}
		}
	case *sql.RowExpr:
		for _, it := range x.Items {
			walkSQL(it, fn)
		}
	case *sql.ArrayExpr:
		for _, it := range x.Items {
			walkSQL(it, fn)
		}
	case *sql.MapExpr:
		for _, it := range x.Items {
			walkSQL(it, fn)
		}
	case *sql.IndexExpr:
		walkSQL(x.X, fn)
		walkSQL(x.Index, fn)
	case *sql.FieldExpr:
		walkSQL(x.X, fn)
	}
}

// aggregate builds Project(group exprs, agg args) -> Aggregate and returns
// the aggregate node with a scope that maps select-list expressions onto it.
func (b *binder) aggregate(n plan.Node, sc *scope, s *sql.Select, asts []sql.Expr) (plan.Node, *scope) {
	n, sc, gw := b.bindGroupWindow(n, sc, s)
	gs := s
	if gw != nil {
		// the group window call is not a grouping expression: it becomes
		// the window keys appended below
		cp := *s
		cp.GroupBy = nil
		for _, g := range s.GroupBy {
			if g.Kind == sql.GroupExpr {
				ge := *g
				ge.Exprs = nil
				for _, e := range g.Exprs {
					if _, _, ok := isGroupWindowCall(e); !ok {
						ge.Exprs = append(ge.Exprs, e)
					}
				}
				if len(ge.Exprs) == 0 {
					continue
				}
				g = &ge
			}
			cp.GroupBy = append(cp.GroupBy, g)
		}
		gs = &cp
	}
	groupExprs, groupStrs, sets := b.groupingSets(gs, sc)
	if gw != nil && sets != nil {
		b.failAt(s.GroupBy[0], "GROUPING SETS, ROLLUP and CUBE are not supported with group windows")
	}
	// a correlated subquery groups by its correlation columns too
	for _, e := range b.sq.extraGroups(s) {
		str := exprKey(e)
		dup := false
		for _, x := range groupStrs {
			if x == str {
				dup = true
			}
		}
		if !dup {
			groupExprs = append(groupExprs, e)
			groupStrs = append(groupStrs, str)
		}
	}
	if gw != nil {
		gw.start = len(groupExprs)
		for _, e := range gw.windowKeys(sc) {
			groupExprs = append(groupExprs, e)
			groupStrs = append(groupStrs, exprKey(e))
		}
	}
	var calls []*sql.FuncCall
	for _, a := range asts {
		collectAggs(b, a, &calls)
	}
	proj := append([]expr.Expr(nil), groupExprs...)
	projIndex := func(e expr.Expr) int {
		str := exprKey(e)
		for i, p := range proj {
			if exprKey(p) == str {
				return i
			}
		}
		proj = append(proj, e)
		return len(proj) - 1
	}
	var aggs []opspec.AggSpec
	callIdx := map[*sql.FuncCall]int{}
	aggKeys := map[string]int{}
	var groupingCalls []*sql.FuncCall
	for _, c := range calls {
		if isGroupingFunc(c) {
			groupingCalls = append(groupingCalls, c)
			continue
		}
		for _, a := range c.Args {
			if containsAgg(b, a) {
				b.failAt(a, "Aggregate function calls cannot be nested")
			}
		}
		fn := b.lookupFunction(c)
		name := strings.ToUpper(fn.Name)
		var args []expr.Expr
		for _, a := range c.Args {
			if _, ok := a.(*sql.Star); ok {
				if name != "COUNT" || len(c.Args) != 1 {
					b.failAt(a, "'*' is only allowed in COUNT(*)")
				}
				continue
			}
			args = append(args, b.expr(a, sc))
		}
		// type inference
		call := b.resolve(c, fn, name, args)
		ce, ok := call.(*expr.Call)
		if !ok {
			b.failAt(c, "aggregate %s cannot be folded", name)
		}
		spec := opspec.AggSpec{Func: name, Distinct: c.Quantifier == "DISTINCT", Filter: -1, Type: ce.T}
		if fn.Aggregate != nil {
			spec.Fn = fn
		}
		params := aggParamPositions[name]
		for i, a := range ce.Args {
			if params[i] {
				if l, ok := a.(*expr.Literal); ok {
					spec.Params = append(spec.Params, l.Value)
				}
				continue
			}
			spec.Args = append(spec.Args, projIndex(a))
			spec.ArgTypes = append(spec.ArgTypes, a.Type())
		}
		spec.Flags, spec.Raw = aggFlags(c)
		if c.Filter != nil {
			spec.Filter = projIndex(b.boolExpr(c.Filter, sc, "FILTER"))
		}
		switch name {
		case "SUM", "MIN", "MAX", "AVG":
			// Calcite's AGG_SUM / ARG0_NULLABLE_IF_EMPTY / AVG_AGG_FUNCTION:
			// nullable only for a global aggregate, a FILTER or a nullable
			// argument
			if len(groupExprs) > 0 && spec.Filter < 0 && len(ce.Args) == 1 && !ce.Args[0].Type().Nullable {
				spec.Type = spec.Type.WithNullable(false)
			}
		}
		if spec.Func == "COUNT" && len(spec.Args) == 1 && !spec.Distinct && !ce.Args[0].Type().Nullable {
			// COUNT(x) of a NOT NULL x counts rows
			spec.Args, spec.ArgTypes = nil, nil
		}
		key := fmt.Sprintf("%s|%v|%v|%d|%v|%s|%v", spec.Func, spec.Args, spec.Distinct, spec.Filter, spec.Params, spec.Flags, spec.Raw)
		if k, ok := aggKeys[key]; ok {
			callIdx[c] = k
			continue
		}
		aggKeys[key] = len(aggs)
		callIdx[c] = len(aggs)
		aggs = append(aggs, spec)
	}
	projCols := make([]plan.Column, len(proj))
	for i, e := range proj {
		name := fmt.Sprintf("$f%d", i)
		if r, ok := e.(*expr.InputRef); ok {
			name = r.Name
		}
		projCols[i] = plan.Column{Name: name, Type: e.Type()}
	}
	var pre plan.Node = &plan.Project{Input: n, Exprs: proj, Cols: projCols}
	nk := len(groupExprs)
	keys := make([]int, nk)
	var outCols []plan.Column
	for i := range groupExprs {
		keys[i] = i
		outCols = append(outCols, plan.Column{Name: projCols[i].Name, Type: projCols[i].Type})
	}
	expanded := sets != nil
	if expanded {
		// GROUPING SETS: expand each row once per set (the keys not in the
		// set NULL) and group by the expanded keys and the set id $e
		pre, keys = b.expandSets(pre, nk, sets)
		for i := range outCols {
			outCols[i].Type = outCols[i].Type.WithNullable(true)
		}
		outCols = append(outCols, plan.Column{Name: "$e", Type: types.BigIntType().NotNull()})
	}
	base := len(outCols)
	for i, a := range aggs {
		outCols = append(outCols, plan.Column{Name: fmt.Sprintf("EXPR$%d", len(groupExprs)+i), Type: a.Type})
		a.Name = outCols[len(outCols)-1].Name
		aggs[i] = a
	}
	agg := &plan.Aggregate{Input: pre, GroupKeys: keys, Aggs: aggs, Cols: outCols}
	as := &aggScope{base: sc, groupStrs: groupStrs, calls: map[*sql.FuncCall]int{}, special: map[*sql.FuncCall]expr.Expr{}, window: gw}
	for c, k := range callIdx {
		as.calls[c] = base + k
	}
	for _, c := range groupingCalls {
		as.special[c] = b.groupingCall(c, sc, groupStrs, expanded, nk)
	}
	out := &scope{rels: sc.rels, agg: as}
	for i, c := range outCols {
		f := field{name: c.Name, rel: -1, typ: c.Type}
		if i < nk {
			// a grouped column keeps its table, so that a subquery in
			// the select list or HAVING can refer to it qualified (x.b)
			if r, ok := groupExprs[i].(*expr.InputRef); ok && r.Index < len(sc.fields) && sc.fields[r.Index].name == c.Name {
				f.rel, f.qualifiedOnly = sc.fields[r.Index].rel, sc.fields[r.Index].qualifiedOnly
			}
		}
		out.fields = append(out.fields, f)
		as.outTypes = append(as.outTypes, c.Type)
		as.outNames = append(as.outNames, c.Name)
	}
	return agg, out
}

// aggRef maps e onto the aggregate's output when it is an aggregate call
// or equals a GROUP BY expression; nil means bind structurally. A column
// reference that is neither is an error.
func (b *binder) aggRef(e sql.Expr, sc *scope) expr.Expr {
	as := sc.agg
	if r := b.windowPropertyRef(e, as); r != nil {
		return r
	}
	if containsSubquery(e) {
		return nil
	}
	if f, ok := e.(*sql.FuncCall); ok {
		if idx, ok := as.calls[f]; ok {
			return &expr.InputRef{Index: idx, Name: as.outNames[idx], T: as.outTypes[idx]}
		}
		if x, ok := as.special[f]; ok {
			return x
		}
	}
	if containsAgg(b, e) {
		return nil
	}
	// an OVER call binds to the window's output column, which is not an
	// input column of the aggregate: bind structurally (comparing it with
	// the GROUP BY expressions would mix up the two scopes' columns)
	var overs []*sql.FuncCall
	collectOverCalls(e, &overs)
	if len(overs) > 0 {
		return nil
	}
	bound := b.expr(e, as.base)
	str := exprKey(bound)
	for i, g := range as.groupStrs {
		if g == str {
			return &expr.InputRef{Index: i, Name: as.outNames[i], T: as.outTypes[i]}
		}
	}
	if len(expr.InputRefs(bound)) == 0 {
		return bound
	}
	switch e.(type) {
	case *sql.Identifier:
		b.failAt(e, "Expression '%s' is not being grouped", e)
	}
	return nil
}

// aggParamPositions lists, per aggregate, the arguments that are literal
// parameters rather than input columns.
var aggParamPositions = map[string]map[int]bool{
	"LISTAGG":    {1: true},
	"PERCENTILE": {1: true},
}

// aggFlags returns the clause flags of an aggregate call (null treatment,
// JSON ON NULL) and whether its JSON value is a nested JSON constructor.
func aggFlags(c *sql.FuncCall) (string, bool) {
	name := strings.ToUpper(c.Name.Parts[len(c.Name.Parts)-1].Name)
	switch name {
	case "ARRAY_AGG":
		return c.NullTreatment, false
	case "JSON_OBJECTAGG", "JSON_ARRAYAGG":
		flag := "NULL ON NULL"
		if name == "JSON_ARRAYAGG" {
			flag = "ABSENT ON NULL"
		}
		if c.JSON != nil && c.JSON.OnNull != "" {
			flag = c.JSON.OnNull + " ON NULL"
		}
		raw := len(c.Args) > 0 && isJSONConstructor(c.Args[len(c.Args)-1])
		return flag, raw
	}
	return "", false
}

// exprKey is the text by which bound expressions are matched (GROUP BY
// items against select items, ORDER BY against the select list): its
// String with input references by index, so the same-named columns of
// two join inputs (e.deptno, d.deptno) stay apart.
func exprKey(e expr.Expr) string {
	return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
		if r, ok := x.(*expr.InputRef); ok && r.Name != "" {
			return &expr.InputRef{Index: r.Index, T: r.T}
		}
		return x
	}).String()
}
