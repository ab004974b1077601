package binder

import (
	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// temporalJoin binds JOIN t FOR SYSTEM_TIME AS OF left.time [AS a] ON ....
func (b *binder) temporalJoin(j *sql.Join, l plan.Node, ls *scope, tr *sql.TableRef) (plan.Node, *scope) {
	var kind opspec.JoinKind
	switch j.Type {
	case sql.JoinInner:
		kind = opspec.InnerJoin
	case sql.JoinLeft:
		kind = opspec.LeftJoin
	default:
		b.failAt(j, "Temporal table join currently only supports INNER JOIN and LEFT JOIN, but was %s JOIN", j.Type)
	}
	te := b.expr(tr.SystemTime, ls)
	ref, ok := te.(*expr.InputRef)
	if !ok || (!te.Type().IsRowtime() && !te.Type().IsProctime()) {
		b.failAt(tr.SystemTime, "Temporal table join currently only supports 'FOR SYSTEM_TIME AS OF' left table's time attribute field")
	}
	r, rs := b.tableRef(tr)
	id, err := b.qualify(identNames(tr.Name.Parts))
	if err != nil {
		b.fail(err)
	}
	var tbl *catalog.Table
	if rt, ok, _ := b.ctx.Catalogs.GetTable(id); ok {
		tbl, _ = rt.Table.(*catalog.Table)
	}
	sc := ls.join(rs)
	cols := sc.columns()
	if kind == opspec.LeftJoin {
		for i := len(ls.fields); i < len(cols); i++ {
			cols[i].Type = cols[i].Type.WithNullable(true)
		}
	}
	// the right table's time attributes are not time attributes of the result
	for i := len(ls.fields); i < len(cols); i++ {
		cols[i].Type = cols[i].Type.WithTimeAttr(types.NoTimeAttr)
		sc.fields[i].typ = cols[i].Type
	}
	if j.On == nil {
		b.failAt(j, "Temporal table join requires an ON condition with an equality on the right table's key")
	}
	cond := b.boolExpr(j.On, &scope{rels: sc.rels, fields: joinCondFields(ls, rs)}, "JOIN ON")
	return &plan.TemporalJoin{Left: l, Right: r, Kind: kind, Cond: cond, Cols: cols, TimeCol: ref.Index, Proctime: te.Type().IsProctime(),
		RightID: id, RightTable: tbl}, sc
}
