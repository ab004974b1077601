package table

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/sql"
)

// GroupedTable is a table grouped by keys (PyFlink's GroupedTable), from
// Table.GroupBy.
type GroupedTable struct {
	t    *Table
	keys []Expression
}

// groupKeys resolves the grouping keys.
func (g *GroupedTable) groupKeys(r *resolver) ([]sql.Expr, *exprDeps, error) {
	return r.nodes(g.keys)
}

func groupBy(keys []sql.Expr) []*sql.GroupingElement {
	if len(keys) == 0 {
		return nil
	}
	return []*sql.GroupingElement{{Kind: sql.GroupExpr, Exprs: keys}}
}

// Select projects group keys and aggregates, like SELECT ... GROUP BY
// (PyFlink's GroupedTable.select):
// tab.GroupBy(Col("key")).Select(Col("key"), Col("value").Avg().As("average")).
func (g *GroupedTable) Select(fields ...Expression) *Table {
	return g.t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		keys, kd, err := g.groupKeys(r)
		if err != nil {
			return nil, nil, err
		}
		items, deps, err := r.selectList(fields)
		if err != nil {
			return nil, nil, err
		}
		q := selectQuery(items, from)
		q.Body.(*sql.Select).GroupBy = groupBy(keys)
		return q, deps.merge(kd), nil
	})
}

// aggregate builds SELECT keys..., f(...) AS _agg FROM t GROUP BY keys [,
// window] and expands the function's ROW result into columns. window (may
// be nil) adds the window's group key and keeps its properties as hidden
// columns for a following Select.
func (g *GroupedTable) aggregate(f Expression, w *windowCtx) *Table {
	var keyNames []string
	agg := g.t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		keys, kd, err := g.groupKeys(r)
		if err != nil {
			return nil, nil, err
		}
		call, deps, err := g.t.functionCall(f, r, AggregateFunctionKind)
		if err != nil {
			return nil, nil, err
		}
		if fc, ok := call.(*sql.FuncCall); !ok || !g.t.env.isAggregateCall(fc) {
			return nil, nil, fmt.Errorf("Aggregate expects an aggregate function call, got %s", f)
		}
		var items []*sql.SelectItem
		for i, k := range keys {
			name := fmt.Sprintf("_k%d", i)
			if id, ok := k.(*sql.Identifier); ok {
				name = id.Parts[len(id.Parts)-1].Name
			}
			keyNames = append(keyNames, name)
			items = append(items, &sql.SelectItem{Expr: k, Alias: ident(name)})
		}
		if w != nil {
			for _, p := range w.props() {
				keyNames = append(keyNames, p.name)
				items = append(items, &sql.SelectItem{Expr: p.e, Alias: ident(p.name)})
			}
			keys = append([]sql.Expr{w.call()}, keys...)
		}
		items = append(items, &sql.SelectItem{Expr: call, Alias: ident("_agg")})
		q := selectQuery(items, from)
		q.Body.(*sql.Select).GroupBy = groupBy(keys)
		if w != nil {
			q.Body.(*sql.Select).Having = w.having()
		}
		return q, deps.merge(kd), nil
	})
	return agg.expandRow("_agg", names(f), keyNames)
}

// Aggregate aggregates each group with an aggregate function whose result
// (a ROW is expanded into columns) joins the keys; Select must follow
// (PyFlink's GroupedTable.aggregate):
// tab.GroupBy(Col("a")).Aggregate(agg.Call(Col("b")).As("c", "d")).Select(Col("a"), Col("c"), Col("d")).
func (g *GroupedTable) Aggregate(f Expression) *AggregatedTable {
	return &AggregatedTable{t: g.aggregate(f, nil)}
}

// FlatAggregate aggregates each group with a table aggregate function,
// which emits zero or more rows per group; Select must follow (PyFlink's
// GroupedTable.flat_aggregate):
// tab.GroupBy(Col("c")).FlatAggregate(top2.Call(Col("a")).As("a")).Select(Col("c"), Col("a")).
func (g *GroupedTable) FlatAggregate(f Expression) *FlatAggregateTable {
	t := g.t
	if t == nil || t.err != nil {
		return &FlatAggregateTable{t: t}
	}
	var keyNames []string
	var fieldNames []string
	agg := t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		keys, kd, err := g.groupKeys(r)
		if err != nil {
			return nil, nil, err
		}
		call, deps, err := t.functionCall(f, r, TableAggregateFunctionKind)
		if err != nil {
			return nil, nil, err
		}
		var items []*sql.SelectItem
		for i, k := range keys {
			name := fmt.Sprintf("_k%d", i)
			if id, ok := k.(*sql.Identifier); ok {
				name = id.Parts[len(id.Parts)-1].Name
			}
			keyNames = append(keyNames, name)
			items = append(items, &sql.SelectItem{Expr: k, Alias: ident(name)})
		}
		items = append(items, &sql.SelectItem{Expr: call, Alias: ident("_rows")})
		q := selectQuery(items, from)
		q.Body.(*sql.Select).GroupBy = groupBy(keys)
		return q, deps.merge(kd), nil
	})
	if agg.err != nil {
		return &FlatAggregateTable{t: agg}
	}
	// the aggregate's value is ARRAY<ROW<...>>: one output row per element
	cols := agg.columns()
	rowType := cols[len(cols)-1].Type.Elem
	for _, fd := range rowType.Fields {
		fieldNames = append(fieldNames, fd.Name)
	}
	outNames := names(f)
	if len(outNames) > 0 && len(outNames) != len(fieldNames) {
		return &FlatAggregateTable{t: t.env.failedTable(fmt.Errorf("the table aggregate function returns %d fields, but %d names were given", len(fieldNames), len(outNames)))}
	}
	if len(outNames) == 0 {
		outNames = fieldNames
	}
	flat := agg.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		alias := t.env.anonName("U")
		var unnestCols []*sql.Ident
		for _, n := range outNames {
			unnestCols = append(unnestCols, ident(n))
		}
		j := &sql.Join{Type: sql.JoinCross, Left: &sql.TableRef{Name: from.Name, Alias: ident("_in")},
			Right: &sql.Unnest{Args: []sql.Expr{colRef("_in", "_rows")}, Alias: ident(alias), Columns: unnestCols}}
		var items []*sql.SelectItem
		for _, k := range keyNames {
			items = append(items, &sql.SelectItem{Expr: colRef("_in", k), Alias: ident(k)})
		}
		for _, n := range outNames {
			items = append(items, &sql.SelectItem{Expr: colRef(alias, n), Alias: ident(n)})
		}
		return selectQuery(items, j), nil, nil
	})
	return &FlatAggregateTable{t: flat}
}

// AggregatedTable is the result of Aggregate (PyFlink's AggregatedTable):
// the group keys and the aggregate function's result columns, to be
// projected with Select.
type AggregatedTable struct {
	t *Table
	// w rewrites window properties onto hidden columns (window aggregates).
	w *windowCtx
}

// Select projects the aggregate's columns and the group keys (PyFlink's
// AggregatedTable.select).
func (a *AggregatedTable) Select(fields ...Expression) *Table {
	if a.w == nil {
		return a.t.Select(fields...)
	}
	return a.t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		r.window = a.w.propertyColumns()
		items, deps, err := r.selectList(fields)
		if err != nil {
			return nil, nil, err
		}
		return selectQuery(items, from), deps, nil
	})
}

// FlatAggregateTable is the result of FlatAggregate (PyFlink's
// FlatAggregateTable): the group keys and the rows the table aggregate
// function emitted, to be projected with Select.
type FlatAggregateTable struct {
	t *Table
}

// Select projects the emitted columns and the group keys (PyFlink's
// FlatAggregateTable.select).
func (f *FlatAggregateTable) Select(fields ...Expression) *Table { return f.t.Select(fields...) }

// GroupWindowedTable is a table with a group window (PyFlink's
// GroupWindowedTable), from Table.Window; GroupBy with the window alias
// must follow.
type GroupWindowedTable struct {
	t *Table
	w *GroupWindow
}

// GroupBy groups by the window (its alias must be among the fields) and
// optional further keys (PyFlink's GroupWindowedTable.group_by). Grouping
// by the window alone runs with parallelism 1 in streaming mode.
func (g *GroupWindowedTable) GroupBy(fields ...Expression) *WindowGroupedTable {
	out := &WindowGroupedTable{t: g.t, w: g.w}
	if g.w == nil {
		out.err = fmt.Errorf("Window: nil window")
		return out
	}
	found := false
	for _, f := range fields {
		if f.x != nil && f.x.kind == kindPlain {
			if id, ok := f.x.node.(*sql.Identifier); ok && len(id.Parts) == 1 && id.Parts[0].Name == g.w.alias {
				found = true
				continue
			}
		}
		out.keys = append(out.keys, f)
	}
	if !found {
		out.err = fmt.Errorf("GroupBy on a windowed table must include the window alias '%s'", g.w.alias)
	}
	return out
}

// WindowGroupedTable is a table grouped by a group window and keys
// (PyFlink's WindowGroupedTable).
type WindowGroupedTable struct {
	t    *Table
	w    *GroupWindow
	keys []Expression
	err  error
}

// windowCtx is a group window resolved over an input.
type windowCtx struct {
	w    *GroupWindow
	args []sql.Expr
	// count is set for row-count windows: the input then carries the
	// window id column and groups need HAVING COUNT(*) = size.
	count *countWindow
}

// call is the window's group key: TUMBLE(...) etc., or the count
// window id.
func (c *windowCtx) call() sql.Expr {
	if c.count != nil {
		return colRef(countWindowID)
	}
	return &sql.FuncCall{Name: objName(c.w.kind), Args: c.args}
}

// having is the HAVING condition of the window's groups (nil for time
// windows).
func (c *windowCtx) having() sql.Expr {
	if c.count != nil {
		return c.count.having()
	}
	return nil
}

type namedExpr struct {
	name string
	e    sql.Expr
}

// props are the window's properties as hidden columns.
func (c *windowCtx) props() []namedExpr {
	if c.count != nil {
		return nil
	}
	rw := c.w.windowRewriter(c.args)
	var out []namedExpr
	for _, m := range []string{markStart, markEnd} {
		e, _ := rw(m, colRef(c.w.alias))
		out = append(out, namedExpr{"_w" + m[1:], e})
	}
	return out
}

// propertyColumns rewrites window properties onto the hidden columns.
func (c *windowCtx) propertyColumns() func(mark string, arg sql.Expr) (sql.Expr, error) {
	if c.count != nil {
		return c.w.countProperties()
	}
	return func(mark string, arg sql.Expr) (sql.Expr, error) {
		id, ok := arg.(*sql.Identifier)
		if !ok || len(id.Parts) != 1 || id.Parts[0].Name != c.w.alias {
			return nil, fmt.Errorf("window properties apply to the window alias %q", c.w.alias)
		}
		switch mark {
		case markStart, markEnd:
			return colRef("_w" + mark[1:]), nil
		}
		return nil, fmt.Errorf("%s is not available after Aggregate; use Start or End", mark[1:])
	}
}

func (g *WindowGroupedTable) resolveWindow(r *resolver) (*windowCtx, error) {
	if g.err != nil {
		return nil, g.err
	}
	args, err := g.w.args(r)
	if err != nil {
		return nil, err
	}
	return &windowCtx{w: g.w, args: args}, nil
}

// countInput returns the input of a row-count window's grouping, the
// rows with their window ids (see window_count.go), or nil for a time
// window.
func (g *WindowGroupedTable) countInput() (*Table, *windowCtx, error) {
	cw, err := g.countWindow()
	if err != nil || cw == nil {
		return nil, nil, err
	}
	return g.w.assign(g.w.numbered(g.t, g.keys), cw), &windowCtx{w: g.w, count: cw}, nil
}

// countWindow returns the row-count window of g, or nil for a time window.
func (g *WindowGroupedTable) countWindow() (*countWindow, error) {
	if g.err != nil {
		return nil, g.err
	}
	if g.w.alias == "" {
		return nil, fmt.Errorf("a group window needs an alias")
	}
	return g.w.rowCount()
}

// Select projects window properties (Col("w").Start(), End(), Rowtime(),
// Proctime()), keys and aggregates (PyFlink's WindowGroupedTable.select):
// the SQL GROUP BY TUMBLE(...) / HOP(...) / SESSION(...) group window.
// Row-count windows (TumbleOver(RowInterval(n))) count the rows of each
// key in the order of the time field and emit a window once it holds n
// rows; they have no properties (selecting Start fails as in Flink).
// Flink runs them only on processing time in streaming mode; Riffle also
// accepts event time and batch mode, where the order is deterministic.
func (g *WindowGroupedTable) Select(fields ...Expression) *Table {
	if g.t == nil || g.t.err != nil {
		return g.t.op(nil)
	}
	cw, err := g.countWindow()
	if err != nil {
		return g.t.env.failedTable(err)
	}
	if cw != nil {
		return g.countSelect(fields, cw)
	}
	return g.t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		wc, err := g.resolveWindow(r)
		if err != nil {
			return nil, nil, err
		}
		keys, kd, err := r.nodes(g.keys)
		if err != nil {
			return nil, nil, err
		}
		r.window = g.w.windowRewriter(wc.args)
		items, deps, err := r.selectList(fields)
		if err != nil {
			return nil, nil, err
		}
		q := selectQuery(items, from)
		q.Body.(*sql.Select).GroupBy = groupBy(append([]sql.Expr{wc.call()}, keys...))
		return q, deps.merge(kd), nil
	})
}

// Aggregate aggregates each window and key group with an aggregate
// function; Select must follow and may use Start and End of the window
// (PyFlink's WindowGroupedTable.aggregate).
func (g *WindowGroupedTable) Aggregate(f Expression) *AggregatedTable {
	if g.t == nil || g.t.err != nil {
		return &AggregatedTable{t: g.t}
	}
	if g.err != nil {
		return &AggregatedTable{t: g.t.env.failedTable(g.err)}
	}
	in, cwc, err := g.countInput()
	if err != nil {
		return &AggregatedTable{t: g.t.env.failedTable(err)}
	}
	if cwc != nil {
		gt := &GroupedTable{t: in, keys: g.keys}
		return &AggregatedTable{t: gt.aggregate(f, cwc), w: cwc}
	}
	wc, err := g.resolveWindow(g.t.resolver())
	if err != nil {
		return &AggregatedTable{t: g.t.env.failedTable(err)}
	}
	gt := &GroupedTable{t: g.t, keys: g.keys}
	return &AggregatedTable{t: gt.aggregate(f, wc), w: wc}
}

// OverWindowedTable is a table with over windows (PyFlink's
// OverWindowedTable), from Table.OverWindow.
type OverWindowedTable struct {
	t  *Table
	ws []*OverWindow
}

// Select projects expressions where aggregates are computed over the
// defined windows with Expression.Over; rows are not collapsed (PyFlink's
// OverWindowedTable.select):
// Select(Col("c"), Col("b").Count().Over(Col("ow")), Col("e").Sum().Over(Col("ow"))).
func (o *OverWindowedTable) Select(fields ...Expression) *Table {
	return o.t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		specs := map[string]*sql.WindowSpec{}
		for _, w := range o.ws {
			if w == nil {
				return nil, nil, fmt.Errorf("OverWindow: nil window")
			}
			s, err := w.spec(r)
			if err != nil {
				return nil, nil, err
			}
			specs[w.alias] = s
		}
		items, deps, err := r.selectList(fields)
		if err != nil {
			return nil, nil, err
		}
		for _, it := range items {
			x, err := rewriteSQLExpr(it.Expr, func(e sql.Expr) (sql.Expr, error) {
				f, ok := e.(*sql.FuncCall)
				if !ok || f.Over == nil || !f.Over.Ref {
					return e, nil
				}
				s, ok := specs[f.Over.Name.Name]
				if !ok {
					return nil, fmt.Errorf("over window '%s' is not defined in OverWindow", f.Over.Name.Name)
				}
				c := *f
				c.Over = s
				return &c, nil
			})
			if err != nil {
				return nil, nil, err
			}
			it.Expr = x
		}
		return selectQuery(items, from), deps, nil
	})
}
