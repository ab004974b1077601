package binder

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

func (b *binder) from(t sql.TableExpr, outer *scope) (plan.Node, *scope) {
	switch x := t.(type) {
	case *sql.TableRef:
		return b.tableRef(x)
	case *sql.DerivedTable:
		n, cols, visible, pending := b.derivedTable(x, outer)
		if pending != nil {
			b.sq.pending = append(b.sq.pending, *pending)
		}
		alias := ""
		if x.Alias != nil {
			alias = x.Alias.Name
		}
		if len(x.Columns) > 0 {
			if len(x.Columns) != visible {
				b.failAt(x, "List of column aliases must have same degree as table; table has %d columns, whereas alias list has %d columns", visible, len(x.Columns))
			}
			n, cols = renameColumns(n, append(identNames(x.Columns), plan.Names(cols[visible:])...))
		}
		sc := scopeOf(cols, alias, nil)
		for i := visible; i < len(sc.fields); i++ {
			// correlation keys lifted into the enclosing subquery block
			sc.fields[i].hidden = true
		}
		return n, sc
	case *sql.Join:
		return b.join(x, outer)
	case *sql.TableFunc:
		return b.tableFunc(x, outer)
	case *sql.Unnest:
		return b.unnestFrom(x)
	case *sql.MatchRecognize:
		return b.matchRecognize(x, outer)
	}
	b.failAt(t, "unsupported FROM item")
	return nil, nil
}

func (b *binder) tableRef(t *sql.TableRef) (plan.Node, *scope) {
	parts := identNames(t.Name.Parts)
	alias := ""
	if t.Alias != nil {
		alias = t.Alias.Name
	}
	// a CTE shadows catalog tables
	if len(parts) == 1 {
		for i := len(b.ctes) - 1; i >= 0; i-- {
			if d, ok := b.ctes[i][parts[0]]; ok {
				if alias == "" {
					alias = parts[0]
				}
				n, cols, visible := d.node, d.cols, len(d.cols)
				if d.pending != nil {
					// a correlated WITH query: lift its conditions at
					// this reference, under fresh key names
					var p pendingCorr
					n, cols, p = b.withKeyNames(n, cols, d.visible, d.pending, t)
					b.sq.pending = append(b.sq.pending, p)
					visible = d.visible
				}
				if len(t.Columns) > 0 {
					if len(t.Columns) != visible {
						b.failAt(t, "List of column aliases must have same degree as table; table has %d columns, whereas alias list has %d columns", visible, len(t.Columns))
					}
					n, cols = renameColumns(n, append(identNames(t.Columns), plan.Names(cols[visible:])...))
				}
				sc := scopeOf(cols, alias, nil)
				for i := visible; i < len(sc.fields); i++ {
					sc.fields[i].hidden = true
				}
				return n, sc
			}
		}
	}
	id, err := b.qualify(parts)
	if err != nil {
		b.failAt(t.Name, "%v", err)
	}
	rt, ok, err := b.ctx.Catalogs.GetTable(id)
	if err != nil {
		b.fail(err)
	}
	if !ok {
		cands := b.tableNames(id)
		b.failAt(t.Name, "Object '%s' not found%s", strings.Join(parts, "."), didYouMean(suggest(parts[len(parts)-1], cands)))
	}
	var n plan.Node
	switch tb := rt.Table.(type) {
	case *catalog.Table:
		n = b.tableScan(id, tb, t)
	case *catalog.View:
		for _, h := range t.Hints {
			if strings.EqualFold(h.Name.Name, "OPTIONS") {
				b.fail(fmt.Errorf("View '%s' cannot be enriched with new options. Hints can only be applied to tables.", id))
			}
		}
		n = b.expandView(id, tb, t)
	}
	cols := n.Columns()
	if len(t.Columns) > 0 {
		n, cols = renameColumns(n, identNames(t.Columns))
	}
	idc := id
	return n, scopeOf(cols, alias, &idc)
}

func (b *binder) tableNames(id catalog.ObjectIdentifier) []string {
	names, _ := b.ctx.Catalogs.ListTables(id.Catalog, id.Database, nil)
	return names
}

// tableScan builds Scan + computed columns + watermark for a table. The
// output has every column of the table's schema in declaration order.
func (b *binder) tableScan(id catalog.ObjectIdentifier, t *catalog.Table, ref *sql.TableRef) plan.Node {
	schema := t.TableSchema
	var opts map[string]string
	if ref != nil {
		for _, h := range ref.Hints {
			if strings.EqualFold(h.Name.Name, "OPTIONS") {
				if opts == nil {
					opts = map[string]string{}
				}
				for _, kv := range h.KVOptions {
					opts[kv.Key] = kv.Value
				}
			}
		}
	}
	scan := &plan.Scan{ID: id, Table: t, Options: opts, Limit: -1}
	phys := 0
	// scan columns: physical then metadata
	var metaCols []types.Column
	for _, c := range schema.Columns {
		switch c.Kind {
		case types.PhysicalColumn:
			scan.Projection = append(scan.Projection, phys)
			scan.Cols = append(scan.Cols, plan.Column{Name: c.Name, Type: c.Type.WithTimeAttr(types.NoTimeAttr)})
			phys++
		case types.MetadataColumn:
			metaCols = append(metaCols, c)
		}
	}
	for _, c := range metaCols {
		key := c.MetadataKey
		if key == "" {
			key = c.Name
		}
		scan.Metadata = append(scan.Metadata, key)
		scan.Cols = append(scan.Cols, plan.Column{Name: c.Name, Type: c.Type})
	}
	hasComputed := false
	for _, c := range schema.Columns {
		if c.Kind == types.ComputedColumn {
			hasComputed = true
		}
	}
	var n plan.Node = scan
	if hasComputed || len(metaCols) > 0 {
		// project the declared column order, computing computed columns
		sc := scopeOf(scan.Cols, "", nil)
		var exprs []expr.Expr
		var cols []plan.Column
		for _, c := range schema.Columns {
			var e expr.Expr
			switch c.Kind {
			case types.ComputedColumn:
				e = b.computedExpr(c.Expr, sc, id)
			default:
				idx, _, _ := sc.resolve([]string{c.Name})
				e = &expr.InputRef{Index: idx, Name: c.Name, T: scan.Cols[idx].Type}
			}
			exprs = append(exprs, e)
			cols = append(cols, plan.Column{Name: c.Name, Type: e.Type()})
		}
		n = &plan.Project{Input: scan, Exprs: exprs, Cols: cols}
	}
	if len(schema.Watermarks) > 0 {
		cols := append([]plan.Column(nil), n.Columns()...)
		sc := scopeOf(cols, "", nil)
		wm := schema.Watermarks[0]
		idx, _, _ := sc.resolve([]string{wm.RowtimeAttribute})
		if idx < 0 {
			b.fail(fmt.Errorf("rowtime attribute %s of %s not found", wm.RowtimeAttribute, id))
		}
		we := b.computedExpr(wm.Expr, sc, id)
		cols[idx] = plan.Column{Name: cols[idx].Name, Type: cols[idx].Type.WithTimeAttr(types.Rowtime)}
		n = &plan.WatermarkAssigner{Input: withColumns(n, cols), Rowtime: idx, Expr: we, Replay: b.replaySpeed(t, opts)}
	} else {
		// paced by the rowtime only, yet a bad value is still an error
		b.replaySpeed(t, opts)
	}
	return n
}

// withColumns re-labels a node's output columns (types may gain time
// attribute markers) without changing data.
func withColumns(n plan.Node, cols []plan.Column) plan.Node {
	exprs := make([]expr.Expr, len(cols))
	for i, c := range cols {
		exprs[i] = &expr.InputRef{Index: i, Name: c.Name, T: n.Columns()[i].Type}
	}
	if p, ok := n.(*plan.Project); ok {
		cp := *p
		cp.Cols = cols
		return &cp
	}
	return &plan.Project{Input: n, Exprs: exprs, Cols: cols}
}

// computedExpr binds the SQL text of a computed column or watermark.
func (b *binder) computedExpr(text string, sc *scope, id catalog.ObjectIdentifier) expr.Expr {
	ast, err := sql.ParseExpr(text)
	if err != nil {
		b.fail(fmt.Errorf("invalid expression '%s' in table %s: %v", text, id, err))
	}
	sub := newBinder(b.ctx, text, sql.Pos{})
	var e expr.Expr
	func() {
		defer func() {
			if r := recover(); r != nil {
				if bp, ok := r.(bindPanic); ok {
					b.fail(fmt.Errorf("invalid expression '%s' in table %s: %v", text, id, bp.err))
				}
				panic(r)
			}
		}()
		e = sub.expr(ast, sc)
	}()
	return e
}

func (b *binder) expandView(id catalog.ObjectIdentifier, v *catalog.View, ref *sql.TableRef) plan.Node {
	if n, ok := v.Plan.(plan.Node); ok && n != nil {
		return n
	}
	if b.viewDepth > 32 {
		b.failAt(ref, "View %s is recursive", id)
	}
	st, err := sql.Parse(v.Query)
	if err != nil {
		b.fail(fmt.Errorf("cannot expand view %s: %v", id, err))
	}
	q, ok := st.(*sql.Query)
	if !ok {
		b.fail(fmt.Errorf("view %s does not hold a query", id))
	}
	sub := newBinder(b.ctx, v.Query, sql.Pos{})
	sub.viewDepth = b.viewDepth + 1
	sub.defaultCat, sub.defaultDB = v.Catalog, v.Database
	var n plan.Node
	func() {
		defer func() {
			if r := recover(); r != nil {
				if bp, ok := r.(bindPanic); ok {
					b.fail(fmt.Errorf("cannot expand view %s: %v", id, bp.err))
				}
				panic(r)
			}
		}()
		n, _ = sub.query(q, nil)
	}()
	// the view's declared column names win
	if v.ViewSchema != nil && len(v.ViewSchema.Columns) == len(n.Columns()) {
		n, _ = renameColumns(n, v.ViewSchema.ColumnNames())
	}
	return n
}

func (b *binder) join(j *sql.Join, outer *scope) (plan.Node, *scope) {
	pendingLeft := len(b.sq.pending)
	l, ls := b.from(j.Left, outer)
	// CROSS JOIN UNNEST / LATERAL are handled by the correlate binder
	if n, sc, ok := b.correlateJoin(j, l, ls); ok {
		return n, sc
	}
	if tr, ok := j.Right.(*sql.TableRef); ok && tr.SystemTime != nil {
		return b.temporalJoin(j, l, ls, tr)
	}
	pending := len(b.sq.pending)
	r, rs := b.from(j.Right, outer)
	b.checkDuplicateRelations(j.Right, ls, rs)
	// a correlated condition on a padded side cannot move above the join
	if (j.Type == sql.JoinLeft || j.Type == sql.JoinFull) && len(b.sq.pending) > pending {
		b.failAt(b.sq.pending[pending].at, "Correlated subqueries are supported with correlation in the WHERE clause of a simple SELECT only")
	}
	if (j.Type == sql.JoinRight || j.Type == sql.JoinFull) && pending > pendingLeft {
		b.failAt(b.sq.pending[pendingLeft].at, "Correlated subqueries are supported with correlation in the WHERE clause of a simple SELECT only")
	}
	sc := ls.join(rs)
	cols := sc.columns()
	var kind opspec.JoinKind
	switch j.Type {
	case sql.JoinInner, sql.JoinCross, sql.JoinComma:
		kind = 0
	case sql.JoinLeft:
		kind = 1
		for i := len(ls.fields); i < len(cols); i++ {
			cols[i].Type = cols[i].Type.WithNullable(true)
		}
	case sql.JoinRight:
		kind = 2
		for i := 0; i < len(ls.fields); i++ {
			cols[i].Type = cols[i].Type.WithNullable(true)
		}
	case sql.JoinFull:
		kind = 3
		for i := range cols {
			cols[i].Type = cols[i].Type.WithNullable(true)
		}
	default:
		b.failAt(j, "%s is not supported", j.Type)
	}
	// outer joins remove time attributes of the padded side
	for i := range cols {
		sc.fields[i].typ = cols[i].Type
	}
	var cond expr.Expr
	switch {
	case j.On != nil:
		cond = b.boolExpr(j.On, &scope{rels: sc.rels, fields: joinCondFields(ls, rs)}, "JOIN ON")
	case len(j.Using) > 0 || j.Natural:
		return b.usingJoin(j, &plan.Join{Left: l, Right: r, Kind: kind, Cols: cols}, ls, rs, sc)
	}
	return &plan.Join{Left: l, Right: r, Kind: kind, Cond: cond, Cols: cols}, sc
}

// joinCondFields are the fields visible in an ON condition: the original
// (not null-padded) types of both sides.
func joinCondFields(ls, rs *scope) []field {
	out := append([]field(nil), ls.fields...)
	for _, f := range rs.fields {
		if f.rel >= 0 {
			f.rel += len(ls.rels)
		}
		out = append(out, f)
	}
	return out
}

func andAll(b *binder, n sql.Node, conds []expr.Expr) expr.Expr {
	switch len(conds) {
	case 0:
		return nil
	case 1:
		return conds[0]
	}
	return b.call(n, "AND", conds...)
}

// ---------------------------------------------------------------- SELECT
