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

// matchScope binds DEFINE and MEASURES expressions of a MATCH_RECOGNIZE:
// pattern-variable references, FIRST/LAST/PREV, aggregates and the
// MATCH_* functions become terms (opspec.MatchTerm), and the expression
// reads the terms as the columns of a virtual row. In inner mode it binds
// the argument of one navigation or aggregate over the input row, where
// a "V." prefix names the variable whose rows are read.
type matchScope struct {
	in    *scope
	vars  map[string]int
	spec  *opspec.MatchSpec
	terms map[string]int
	inner map[string]int
	// inner mode: the variable read (-2: none seen yet, -1: unqualified)
	// and the navigation being bound
	innerMode bool
	innerVar  int
	innerAt   sql.Node
}

// matchAggs are the aggregates DEFINE and MEASURES may use.
var matchAggs = map[string]bool{"SUM": true, "AVG": true, "COUNT": true, "MIN": true, "MAX": true}

func (b *binder) matchRecognize(x *sql.MatchRecognize, outer *scope) (plan.Node, *scope) {
	in, insc := b.from(x.Input, outer)
	if x.AllRows {
		b.failAt(x, "ALL ROWS PER MATCH is not supported yet; only ONE ROW PER MATCH is")
	}
	spec := &opspec.MatchSpec{SkipVar: -1}
	ms := &matchScope{in: insc, vars: map[string]int{}, spec: spec, terms: map[string]int{}, inner: map[string]int{}}
	// pattern
	for _, e := range x.Pattern {
		name := e.Var.Name
		if _, dup := ms.vars[name]; dup {
			b.failAt(e, "Pattern variable '%s' appears more than once in PATTERN", name)
		}
		ms.vars[name] = len(spec.Vars)
		spec.Vars = append(spec.Vars, name)
		if e.Reluctant && e.Min == 0 && e.Max == 1 {
			b.failAt(e, "Reluctant optional variables are not supported yet (%s%s?)", name, e.Quant)
		}
		spec.Pattern = append(spec.Pattern, opspec.MatchElem{Var: ms.vars[name], Min: e.Min, Max: e.Max, Reluctant: e.Reluctant})
	}
	if last := x.Pattern[len(x.Pattern)-1]; !last.Reluctant && last.Min != last.Max {
		b.failAt(last, "Greedy quantifiers are not allowed as the last element of a Pattern yet. Finish your pattern with either a simple variable or reluctant quantifier.")
	}
	optional := true
	for _, e := range spec.Pattern {
		optional = optional && e.Min == 0
	}
	if optional {
		b.failAt(x.Pattern[0], "A pattern must match at least one row: every variable of PATTERN is optional")
	}
	// partitioning and order
	for _, p := range x.PartitionBy {
		r, ok := b.expr(p, insc).(*expr.InputRef)
		if !ok {
			b.failAt(p, "PARTITION BY of MATCH_RECOGNIZE takes column references only")
		}
		spec.PartitionKeys = append(spec.PartitionKeys, r.Index)
	}
	if len(x.OrderBy) == 0 {
		b.failAt(x, "You must specify either rowtime or proctime for order by.")
	}
	for i, o := range x.OrderBy {
		r, ok := b.expr(o.Expr, insc).(*expr.InputRef)
		if !ok {
			b.failAt(o, "ORDER BY of MATCH_RECOGNIZE takes column references only")
		}
		if i == 0 {
			if !r.T.IsRowtime() && !r.T.IsProctime() {
				b.failAt(o, "You must specify either rowtime or proctime for order by as the first one.")
			}
			if o.Desc {
				b.failAt(o, "Primary sort order of a streaming table must be ascending on time.")
			}
			spec.TimeCol, spec.Proctime = r.Index, r.T.IsProctime()
			continue
		}
		spec.Keys = append(spec.Keys, b.sortKey(o, r.Index))
	}
	// after match
	if a := x.After; a != nil {
		switch a.Kind {
		case sql.SkipPastLastRow:
			spec.Skip = opspec.SkipPastLastRow
		case sql.SkipToFirst, sql.SkipToLast:
			v, ok := ms.vars[a.Var.Name]
			if !ok {
				b.failAt(a.Var, "Unknown pattern variable '%s' in AFTER MATCH SKIP", a.Var.Name)
			}
			spec.Skip, spec.SkipVar = opspec.SkipToLast, v
			if a.Kind == sql.SkipToFirst {
				spec.Skip = opspec.SkipToFirst
			}
		}
	}
	if x.Within != nil {
		l, ok := b.expr(x.Within, &scope{}).(*expr.Literal)
		d, isDur := time.Duration(0), false
		if ok {
			d, isDur = l.Value.(time.Duration)
		}
		if !isDur || d <= 0 {
			b.failAt(x.Within, "WITHIN takes a positive day-time interval literal, e.g. INTERVAL '10' SECOND")
		}
		spec.WithinMillis = d.Milliseconds()
		if spec.WithinMillis == 0 {
			b.failAt(x.Within, "WITHIN takes an interval of at least one millisecond")
		}
	}
	// DEFINE, then MEASURES, over the terms' virtual row
	vsc := &scope{match: ms}
	spec.Defines = make([]expr.Expr, len(spec.Vars))
	for _, d := range x.Defines {
		v, ok := ms.vars[d.Name.Name]
		if !ok {
			b.failAt(d.Name, "Pattern variable '%s' in DEFINE is not used in PATTERN", d.Name.Name)
		}
		if spec.Defines[v] != nil {
			b.failAt(d.Name, "Pattern variable '%s' is defined more than once", d.Name.Name)
		}
		spec.Defines[v] = b.boolExpr(d.Cond, vsc, "DEFINE")
	}
	cols := make([]plan.Column, 0, len(spec.PartitionKeys)+len(x.Measures))
	for _, k := range spec.PartitionKeys {
		cols = append(cols, plan.Column{Name: insc.fields[k].name, Type: insc.fields[k].typ})
	}
	for _, m := range x.Measures {
		e := b.expr(m.Expr, vsc)
		spec.Measures = append(spec.Measures, e)
		spec.MeasureNames = append(spec.MeasureNames, m.Alias.Name)
		cols = append(cols, plan.Column{Name: m.Alias.Name, Type: e.Type()})
	}
	seen := map[string]bool{}
	for _, c := range cols {
		if seen[c.Name] {
			b.failAt(x, "Duplicate output column '%s' of MATCH_RECOGNIZE: partition columns and measures need distinct names", c.Name)
		}
		seen[c.Name] = true
	}
	var n plan.Node = &plan.MatchRecognize{Input: in, Spec: spec, Cols: cols}
	if len(x.Columns) > 0 {
		if len(x.Columns) != len(cols) {
			b.failAt(x, "List of column aliases must have same degree as table; table has %d columns, whereas alias list has %d columns", len(cols), len(x.Columns))
		}
		n, cols = renameColumns(n, identNames(x.Columns))
	}
	alias := ""
	if x.Alias != nil {
		alias = x.Alias.Name
	}
	return n, scopeOf(cols, alias, nil)
}

// matchRef binds e when it is a pattern reference, navigation, aggregate
// or MATCH_* call; nil lets the binder bind e as usual.
func (b *binder) matchRef(e sql.Expr, ms *matchScope) expr.Expr {
	if ms.innerMode {
		return b.matchInnerRef(e, ms)
	}
	switch x := e.(type) {
	case *sql.Identifier:
		parts := identNames(x.Parts)
		if len(parts) >= 2 {
			if _, ok := ms.vars[parts[0]]; !ok {
				if idx, _, _ := ms.in.resolve(parts); idx < 0 {
					b.failAt(x, "Unknown pattern variable '%s' in %s", parts[0], strings.Join(parts, "."))
				}
			}
		}
		inner, v := b.matchInner(x, x, ms)
		return ms.term(opspec.MatchTerm{Kind: opspec.TermLast, Var: v, Inner: inner, T: navType(ms.spec.Inners[inner])})
	case *sql.FuncCall:
		if x.Over != nil || len(x.Name.Parts) != 1 {
			return nil
		}
		name := strings.ToUpper(x.Name.Parts[0].Name)
		switch name {
		case "FIRST", "LAST", "PREV", "NEXT":
			if name == "NEXT" {
				b.failAt(x, "NEXT is not supported in MATCH_RECOGNIZE: a condition cannot read rows that have not arrived")
			}
			if len(x.Args) < 1 || len(x.Args) > 2 {
				b.failAt(x, "%s takes one or two arguments: %s(expression [, offset])", name, name)
			}
			off := 0
			if name == "PREV" {
				off = 1
			}
			if len(x.Args) == 2 {
				off = int(b.constInt(x.Args[1], "The offset of "+name))
			}
			inner, v := b.matchInner(x.Args[0], x, ms)
			kind := map[string]opspec.MatchTermKind{"FIRST": opspec.TermFirst, "LAST": opspec.TermLast, "PREV": opspec.TermPrev}[name]
			return ms.term(opspec.MatchTerm{Kind: kind, Var: v, Inner: inner, Offset: off, T: navType(ms.spec.Inners[inner])})
		case "MATCH_ROWTIME":
			if ms.spec.Proctime {
				b.failAt(x, "MATCH_ROWTIME() needs a MATCH_RECOGNIZE ordered by a rowtime attribute")
			}
			t := ms.in.fields[ms.spec.TimeCol].typ
			if len(x.Args) == 1 {
				r, ok := b.expr(x.Args[0], ms.in).(*expr.InputRef)
				if !ok || !r.T.IsRowtime() {
					b.failAt(x.Args[0], "The argument of MATCH_ROWTIME must be a rowtime attribute")
				}
				t = r.T
			} else if len(x.Args) > 1 {
				b.failAt(x, "MATCH_ROWTIME takes zero or one argument")
			}
			return ms.term(opspec.MatchTerm{Kind: opspec.TermRowtime, Var: -1, Inner: -1, T: t.WithNullable(false)})
		case "MATCH_PROCTIME":
			return ms.term(opspec.MatchTerm{Kind: opspec.TermProctime, Var: -1, Inner: -1, T: types.TimestampLTZType(3).NotNull().WithTimeAttr(types.Proctime)})
		case "CLASSIFIER":
			return ms.term(opspec.MatchTerm{Kind: opspec.TermClassifier, Var: -1, Inner: -1, T: types.StringType().NotNull()})
		case "MATCH_NUMBER":
			b.failAt(x, "MATCH_NUMBER() is not supported")
		}
		if !b.isAggCall(x) {
			return nil
		}
		if !matchAggs[name] {
			b.failAt(x, "Aggregate %s is not supported in MATCH_RECOGNIZE; SUM, AVG, COUNT, MIN and MAX are", name)
		}
		if x.Quantifier == "DISTINCT" {
			b.failAt(x, "Distinct aggregations are not supported in MATCH_RECOGNIZE")
		}
		if x.Filter != nil {
			b.failAt(x.Filter, "FILTER is not supported in MATCH_RECOGNIZE aggregates")
		}
		if len(x.Args) != 1 {
			b.failAt(x, "%s takes one argument", name)
		}
		fn := b.lookupFunction(x)
		t := &types.DataType{}
		term := opspec.MatchTerm{Kind: opspec.TermAgg, Var: -1, Inner: -1, Agg: name}
		if _, star := x.Args[0].(*sql.Star); star {
			if name != "COUNT" {
				b.failAt(x.Args[0], "'*' is only allowed in COUNT(*)")
			}
			t = b.resolve(x, fn, name, nil).Type()
		} else {
			term.Inner, term.Var = b.matchInner(x.Args[0], x, ms)
			t = b.resolve(x, fn, name, []expr.Expr{ms.spec.Inners[term.Inner]}).Type()
		}
		term.T = t.WithNullable(name != "COUNT").WithTimeAttr(types.NoTimeAttr)
		return ms.term(term)
	}
	return nil
}

// matchInner binds the argument of a navigation or aggregate over the
// input row: it returns the index of the expression in spec.Inners and
// the variable it reads (-1: all).
func (b *binder) matchInner(e sql.Expr, at sql.Node, ms *matchScope) (int, int) {
	isc := *ms.in
	im := *ms
	im.innerMode, im.innerVar, im.innerAt = true, -2, at
	isc.match = &im
	bound := b.expr(e, &isc)
	v := im.innerVar
	if v == -2 {
		v = -1
	}
	key := exprKey(bound)
	if i, ok := ms.inner[key]; ok {
		return i, v
	}
	ms.inner[key] = len(ms.spec.Inners)
	ms.spec.Inners = append(ms.spec.Inners, bound)
	return len(ms.spec.Inners) - 1, v
}

func (b *binder) matchInnerRef(e sql.Expr, ms *matchScope) expr.Expr {
	switch x := e.(type) {
	case *sql.Identifier:
		parts := identNames(x.Parts)
		v := -1
		if len(parts) >= 2 {
			if i, ok := ms.vars[parts[0]]; ok {
				v = i
				x = &sql.Identifier{Span: x.Span, Parts: x.Parts[1:]}
			}
		}
		if ms.innerVar != -2 && ms.innerVar != v {
			b.failAt(ms.innerAt, "All column references in %s must refer to the same pattern variable", sql.Format(ms.innerAt))
		}
		ms.innerVar = v
		isc := *ms.in
		return b.identifier(x, &isc)
	case *sql.FuncCall:
		if len(x.Name.Parts) == 1 {
			switch n := strings.ToUpper(x.Name.Parts[0].Name); n {
			case "FIRST", "LAST", "PREV", "NEXT", "MATCH_ROWTIME", "MATCH_PROCTIME", "CLASSIFIER":
				b.failAt(x, "%s cannot be nested in %s", n, sql.Format(ms.innerAt))
			}
			if b.isAggCall(x) {
				b.failAt(x, "Aggregate function calls cannot be nested")
			}
		}
	}
	return nil
}

// term returns the virtual-row column of term t, adding it when new.
func (ms *matchScope) term(t opspec.MatchTerm) expr.Expr {
	key := fmt.Sprintf("%d|%d|%d|%d|%s", t.Kind, t.Var, t.Inner, t.Offset, t.Agg)
	i, ok := ms.terms[key]
	if !ok {
		i = len(ms.spec.Terms)
		ms.terms[key] = i
		ms.spec.Terms = append(ms.spec.Terms, t)
	}
	return &expr.InputRef{Index: i, Name: fmt.Sprintf("$term%d", i), T: t.T}
}

// navType is the type of a navigation over inner: nullable (the row may
// not exist) and no longer a time attribute.
func navType(inner expr.Expr) *types.DataType {
	return inner.Type().WithNullable(true).WithTimeAttr(types.NoTimeAttr)
}
