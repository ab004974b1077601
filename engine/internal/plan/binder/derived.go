package binder

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// pendingCorr is the correlated conditions of a derived table inside a
// subquery block. They refer to the derived table's correlation key columns
// (hidden outputs) by name (dtKeyRef) until the block's FROM scope is
// known.
type pendingCorr struct {
	at    sql.Node
	conds []expr.Expr
	// depth is len(binder.sq.outer) where the conditions were bound: their
	// correlation variables refer to that enclosing query
	depth int
}

// dtKeyRef refers to a hidden correlation key column of a derived table by
// its unique name.
type dtKeyRef struct {
	Name string
	T    *types.DataType
}

func (r *dtKeyRef) Type() *types.DataType { return r.T }
func (r *dtKeyRef) String() string        { return "$dt." + r.Name }

// derivedTable binds a derived table in the FROM clause of a subquery
// block: when its WHERE clause correlates with the enclosing query (a
// plain non-aggregating SELECT, like (SELECT f FROM r WHERE r.d = l.a) r1),
// its correlated conjuncts are lifted into the subquery block, as Calcite's
// decorrelator pulls them up through joins: the derived table outputs the
// columns they use as hidden columns and the block treats the conditions
// as its own (its selectBlock calls liftDerived).
func (b *binder) derivedTable(x *sql.DerivedTable, outer *scope) (plan.Node, []plan.Column, int, *pendingCorr) {
	sel, ok := x.Query.Body.(*sql.Select)
	if !ok || len(b.sq.outer) == 0 || x.Lateral || x.Query.With != nil || len(x.Query.OrderBy) > 0 || x.Query.Limit != nil || x.Query.Offset != nil {
		n, cols := b.query(x.Query, outer)
		return n, cols, len(cols), nil
	}
	sink := &corrSink{sel: sel, depth: len(b.sq.outer)}
	b.sq.sinks = append(b.sq.sinks, sink)
	n, cols := b.query(x.Query, outer)
	b.sq.sinks = b.sq.sinks[:len(b.sq.sinks)-1]
	if len(sink.conds) == 0 && sink.post == nil {
		return n, cols, len(cols), nil
	}
	if sink.aggregated || sink.post != nil || len(sink.conds) == 0 {
		b.failAt(x, "Correlated subqueries are supported with correlation in the WHERE clause of a simple SELECT only")
	}
	// name the key columns uniquely and refer to them by name
	names := make([]string, len(cols))
	for i, c := range cols {
		names[i] = c.Name
	}
	keyName := map[int]string{}
	for i := sink.outStart; i < len(cols); i++ {
		b.sq.count++
		names[i] = fmt.Sprintf("$dk%d", b.sq.count)
		keyName[i] = names[i]
	}
	n, cols = renameColumns(n, names)
	var conds []expr.Expr
	for _, c := range sink.conds {
		conds = append(conds, expr.Rewrite(c, func(e expr.Expr) expr.Expr {
			if r, ok := e.(*subqOutRef); ok {
				return &dtKeyRef{Name: keyName[r.Index], T: r.T}
			}
			return e
		}))
	}
	return n, cols, sink.outStart, &pendingCorr{at: x, conds: conds, depth: len(b.sq.outer)}
}

// withKeyNames gives the hidden key columns (from visible on) of a derived
// table or WITH query fresh names, and p's conditions with them.
func (b *binder) withKeyNames(n plan.Node, cols []plan.Column, visible int, p *pendingCorr, at sql.Node) (plan.Node, []plan.Column, pendingCorr) {
	names := plan.Names(cols)
	rename := map[string]string{}
	for i := visible; i < len(cols); i++ {
		b.sq.count++
		rename[names[i]] = fmt.Sprintf("$dk%d", b.sq.count)
		names[i] = rename[names[i]]
	}
	n, cols = renameColumns(n, names)
	out := pendingCorr{at: at, depth: p.depth}
	for _, c := range p.conds {
		out.conds = append(out.conds, expr.Rewrite(c, func(e expr.Expr) expr.Expr {
			if r, ok := e.(*dtKeyRef); ok {
				return &dtKeyRef{Name: rename[r.Name], T: r.T}
			}
			return e
		}))
	}
	return n, cols, out
}

// liftDerived moves the pending conditions of the derived tables bound
// since pending[from] into sink k of the block whose FROM scope is sc.
func (b *binder) liftDerived(from int, k *corrSink, sc *scope, s *sql.Select) {
	if len(b.sq.pending) <= from {
		return
	}
	ps := b.sq.pending[from:]
	b.sq.pending = b.sq.pending[:from]
	for _, p := range ps {
		if k == nil || p.depth != len(b.sq.outer) {
			b.failAt(p.at, "Correlated subqueries are supported with correlation in the WHERE clause of a simple SELECT only")
		}
		for _, c := range p.conds {
			c = expr.Rewrite(c, func(e expr.Expr) expr.Expr {
				if r, ok := e.(*dtKeyRef); ok {
					for i, f := range sc.fields {
						if f.name == r.Name {
							return &expr.InputRef{Index: i, Name: f.name, T: f.typ}
						}
					}
					b.failAt(p.at, "Correlated subqueries are supported with correlation in the WHERE clause of a simple SELECT only")
				}
				return e
			})
			k.add(b, s, c)
		}
	}
}
