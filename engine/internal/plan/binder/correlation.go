package binder

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// corrSink collects the correlated WHERE conjuncts of one subquery block.
type corrSink struct {
	sel   *sql.Select
	depth int // len(outer) when the subquery was entered
	// conds are the correlated conjuncts over the block's FROM scope and
	// CorrelRefs.
	conds []expr.Expr
	// keys are the FROM-scope expressions the conditions use; they become
	// trailing outputs (and grouping keys) of the block.
	keys []expr.Expr
	// equi reports that every condition is an equality of a key and a
	// correlation variable (required when the block aggregates).
	equi bool
	// aggregated is set when the block aggregates; aggs lists its
	// aggregate calls (for the value over an empty group).
	aggregated bool
	agg        *plan.Aggregate
	// outStart is the index of the first key among the block's outputs.
	outStart int
	// post holds, per visible output, a select-list expression that uses
	// the outer row (nil for the others): it is evaluated over the joined
	// row, with subqOutRefs to the block's outputs and CorrelRefs. Its
	// local columns are carried as extra keys.
	post []expr.Expr
	// condKeys is the number of keys the conditions use (the keys after
	// them are the local columns of post).
	condKeys int
}

// deferCorrelated replaces the select-list expressions that refer to the
// outer row by typed NULL placeholders, keeping them in k.post over the
// block's FROM-scope columns (made keys, so they become outputs).
func (k *corrSink) deferCorrelated(exprs []expr.Expr) []expr.Expr {
	k.condKeys = len(k.keys)
	out := append([]expr.Expr(nil), exprs...)
	for i, e := range exprs {
		if !hasCorrel(e) {
			continue
		}
		if k.post == nil {
			k.post = make([]expr.Expr, len(exprs))
		}
		k.post[i] = e
		have := map[int]bool{}
		for _, x := range k.keys {
			have[x.(*expr.InputRef).Index] = true
		}
		expr.Walk(e, func(x expr.Expr) bool {
			if r, ok := x.(*expr.InputRef); ok && !have[r.Index] {
				have[r.Index] = true
				k.keys = append(k.keys, &expr.InputRef{Index: r.Index, Name: r.Name, T: r.T})
			}
			return true
		})
		out[i] = &expr.Literal{T: e.Type().WithNullable(true)}
	}
	return out
}

func (s *subqState) sinkFor(sel *sql.Select) *corrSink {
	for _, k := range s.sinks {
		if k.sel == sel {
			return k
		}
	}
	return nil
}

func (s *subqState) extraGroups(sel *sql.Select) []expr.Expr {
	if k := s.sinkFor(sel); k != nil {
		return k.keys
	}
	return nil
}

func containsSubquery(e sql.Expr) bool {
	found := false
	walkSQL(e, func(x sql.Expr) bool {
		switch y := x.(type) {
		case *sql.SubqueryExpr, *sql.ExistsExpr, *sql.QuantifiedExpr:
			found = true
		case *sql.InExpr:
			if y.Query != nil {
				found = true
			}
		}
		return !found
	})
	return found
}

func hasCorrel(e expr.Expr) bool {
	found := false
	expr.Walk(e, func(x expr.Expr) bool {
		if _, ok := x.(*CorrelRef); ok {
			found = true
		}
		return !found
	})
	return found
}

// resolveOuter resolves a column of an enclosing query (a correlation
// variable), or returns nil.
func (b *binder) resolveOuter(id *sql.Identifier, parts []string) expr.Expr {
	for lvl := len(b.sq.outer) - 1; lvl >= 0; lvl-- {
		osc := b.sq.outer[lvl]
		idx, rest, amb := osc.resolve(parts)
		if amb {
			b.failAt(id, "Column '%s' is ambiguous", strings.Join(parts, "."))
		}
		if idx < 0 && osc.agg != nil {
			// a column of an aggregating query's input that it does not
			// group by
			if bi, _, _ := osc.agg.base.resolve(parts); bi >= 0 {
				b.failAt(id, "Expression '%s' is not being grouped", strings.Join(parts, "."))
			}
		}
		if idx < 0 {
			continue
		}
		if lvl != len(b.sq.outer)-1 {
			b.failAt(id, "Correlation with a query two or more levels out ('%s') is not supported", strings.Join(parts, "."))
		}
		f := osc.fields[idx]
		var e expr.Expr = &CorrelRef{Index: idx, Name: f.name, T: f.typ}
		for _, r := range rest {
			e = b.fieldAccess(id, e, r)
		}
		return e
	}
	return nil
}

// bindWhere binds a WHERE condition on top of n: semi/anti joins for IN and
// EXISTS conjuncts, correlated conjuncts of a subquery block
// into its sink, the rest into a Filter.
func (b *binder) bindWhere(where sql.Expr, n plan.Node, sc *scope, corr *corrSink) plan.Node {
	var conjs []sql.Expr
	var split func(e sql.Expr)
	split = func(e sql.Expr) {
		if be, ok := e.(*sql.BinaryExpr); ok && be.Op == "AND" {
			split(be.X)
			split(be.Y)
			return
		}
		conjs = append(conjs, e)
	}
	split(where)
	sc.sub = &subqCtx{node: n, sc: sc}
	var conds []expr.Expr
	for _, c := range conjs {
		if joined, ok := b.semiAnti(c, sc); ok {
			sc.sub.node = joined
			continue
		}
		e := b.expr(c, sc)
		t := e.Type()
		if t.Root != types.Boolean && t.Root != types.Null {
			b.failAt(c, "WHERE clause must be a condition; expression of type %s is not BOOLEAN", t)
		}
		if corr != nil && hasCorrel(e) {
			corr.add(b, c, e)
			continue
		}
		conds = append(conds, e)
	}
	out := sc.sub.node
	if len(conds) > 0 {
		out = &plan.Filter{Input: out, Cond: andAll(b, where, conds)}
	}
	return out
}

// add records a correlated conjunct.
func (k *corrSink) add(b *binder, n sql.Node, e expr.Expr) {
	isEqui := false
	if c, ok := e.(*expr.Call); ok && c.Name == "=" && len(c.Args) == 2 {
		_, l1 := c.Args[0].(*CorrelRef)
		_, l2 := c.Args[1].(*CorrelRef)
		if l1 != l2 && !hasCorrel(c.Args[boolIdx(l1)]) {
			isEqui = true
		}
	}
	if len(k.conds) == 0 {
		k.equi = true
	}
	k.equi = k.equi && isEqui
	k.conds = append(k.conds, e)
	// the FROM-scope columns the conjunct uses become keys
	have := map[int]bool{}
	for _, x := range k.keys {
		have[x.(*expr.InputRef).Index] = true
	}
	expr.Walk(e, func(x expr.Expr) bool {
		if r, ok := x.(*expr.InputRef); ok && !have[r.Index] {
			have[r.Index] = true
			k.keys = append(k.keys, &expr.InputRef{Index: r.Index, Name: r.Name, T: r.T})
		}
		return true
	})
}

func boolIdx(first bool) int {
	if first {
		return 1
	}
	return 0
}

// appendKeys appends the correlation key columns to a subquery block's
// select list and rewrites the sink's conditions to refer to the block's
// outputs (local refs) and the enclosing row (CorrelRefs).
func (k *corrSink) appendKeys(exprs []expr.Expr, names []string, in *scope, aggregated bool) ([]expr.Expr, []string) {
	k.outStart = len(exprs)
	k.aggregated = aggregated
	keyOut := map[int]int{} // FROM-scope column -> block output
	for i, ref := range k.scopeKeys(in, aggregated) {
		keyOut[k.keys[i].(*expr.InputRef).Index] = k.outStart + i
		exprs = append(exprs, ref)
		names = append(names, fmt.Sprintf("$corr%d", i))
	}
	for i, c := range k.conds {
		k.conds[i] = expr.Rewrite(c, func(x expr.Expr) expr.Expr {
			if r, ok := x.(*expr.InputRef); ok {
				return &subqOutRef{Index: keyOut[r.Index], T: r.T, Name: r.Name}
			}
			return x
		})
	}
	for i, p := range k.post {
		if p != nil {
			k.post[i] = expr.Rewrite(p, func(x expr.Expr) expr.Expr {
				if r, ok := x.(*expr.InputRef); ok {
					return &subqOutRef{Index: keyOut[r.Index], T: r.T, Name: r.Name}
				}
				return x
			})
		}
	}
	return exprs, names
}

// scopeKeys returns the keys as expressions over in, the scope of the
// block's select list (over the aggregate's outputs when it aggregates).
func (k *corrSink) scopeKeys(in *scope, aggregated bool) []expr.Expr {
	var out []expr.Expr
	for _, key := range k.keys {
		r := key.(*expr.InputRef)
		var ref expr.Expr = r
		if aggregated {
			as := in.agg
			pos := -1
			for gi, g := range as.groupStrs {
				if g == exprKey(r) {
					pos = gi
				}
			}
			if pos < 0 {
				panic(bindPanic{fmt.Errorf("correlation column %s is not a grouping key", r.Name)})
			}
			ref = &expr.InputRef{Index: pos, Name: as.outNames[pos], T: as.outTypes[pos]}
		}
		out = append(out, ref)
	}
	return out
}
