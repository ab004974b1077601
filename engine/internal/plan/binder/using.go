package binder

import (
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
)

// usingJoin binds JOIN ... USING (c, ...) and NATURAL JOIN (USING every
// column name the two sides share), following Calcite's validator, which
// Flink uses:
//
//   - the join condition is l.c = r.c for each named column;
//   - each named column appears once, first, in SELECT * (then the other
//     columns of the left and of the right side), and an unqualified c
//     refers to it: the left value for INNER and LEFT joins, the right
//     value for RIGHT joins, COALESCE(l.c, r.c) for FULL joins;
//   - the qualified l.c and r.c still reach each side's own column.
//
// The result is a Project over j with the merged columns in front of all
// join columns; the join's own copies of the named columns are
// qualifiedOnly in the returned scope.
func (b *binder) usingJoin(j *sql.Join, jn *plan.Join, ls, rs, sc *scope) (plan.Node, *scope) {
	var names []*sql.Ident
	if j.Natural {
		for _, lf := range ls.fields {
			if lf.hidden || lf.qualifiedOnly {
				continue
			}
			if ri, _, _ := rs.resolve([]string{lf.name}); ri >= 0 {
				names = append(names, &sql.Ident{Span: j.Span, Name: lf.name})
			}
		}
	} else {
		names = j.Using
	}
	nl := len(ls.fields)
	var conds, merged []expr.Expr
	var mcols []plan.Column
	onlyQualified := map[int]bool{}
	seen := map[string]bool{}
	for _, u := range names {
		if seen[u.Name] {
			b.failAt(u, "Column name '%s' in USING clause is not unique on one side of join", u.Name)
		}
		seen[u.Name] = true
		li, _, lamb := ls.resolve([]string{u.Name})
		ri, _, ramb := rs.resolve([]string{u.Name})
		if lamb || ramb {
			b.failAt(u, "Column name '%s' in USING clause is not unique on one side of join", u.Name)
		}
		if li < 0 || ri < 0 {
			b.failAt(u, "Column '%s' not found in both sides of the join", u.Name)
		}
		lr := &expr.InputRef{Index: li, Name: u.Name, T: ls.fields[li].typ}
		rr := &expr.InputRef{Index: nl + ri, Name: u.Name, T: rs.fields[ri].typ}
		conds = append(conds, b.call(u, "=", lr, rr))
		var m expr.Expr
		switch jn.Kind {
		case 2: // RIGHT
			m = &expr.InputRef{Index: nl + ri, Name: u.Name, T: jn.Cols[nl+ri].Type}
		case 3: // FULL
			m = b.call(u, "COALESCE", &expr.InputRef{Index: li, Name: u.Name, T: jn.Cols[li].Type},
				&expr.InputRef{Index: nl + ri, Name: u.Name, T: jn.Cols[nl+ri].Type})
		default:
			m = &expr.InputRef{Index: li, Name: u.Name, T: jn.Cols[li].Type}
		}
		merged = append(merged, m)
		mcols = append(mcols, plan.Column{Name: u.Name, Type: m.Type()})
		onlyQualified[li] = true
		onlyQualified[nl+ri] = true
	}
	jn.Cond = andAll(b, j, conds)
	if len(merged) == 0 {
		// NATURAL JOIN without common columns is a cross join
		return jn, sc
	}
	exprs := append([]expr.Expr(nil), merged...)
	cols := append([]plan.Column(nil), mcols...)
	out := &scope{rels: sc.rels}
	for _, c := range mcols {
		out.fields = append(out.fields, field{name: c.Name, rel: -1, typ: c.Type})
	}
	for i, c := range jn.Cols {
		exprs = append(exprs, &expr.InputRef{Index: i, Name: c.Name, T: c.Type})
		cols = append(cols, c)
		f := sc.fields[i]
		f.qualifiedOnly = f.qualifiedOnly || onlyQualified[i]
		out.fields = append(out.fields, f)
	}
	return &plan.Project{Input: jn, Exprs: exprs, Cols: cols}, out
}
