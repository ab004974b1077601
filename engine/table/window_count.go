package table

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// Row-count group windows (Tumble.over(row_interval(n)) and
// Slide.over(row_interval(n)).every(row_interval(m)) in PyFlink) have no
// SQL syntax, so they are planned as the SQL that computes them. Rows are
// numbered per key in time order:
//
//	numbered: SELECT *, COUNT(*) OVER (PARTITION BY keys ORDER BY on
//	          ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) - 1 AS _cw_rn
//
// Window k holds rows k*slide .. k*slide+size-1 and is emitted when its
// last row arrives, as Flink's count trigger fires; windows that never
// fill are not emitted. With built-in aggregates the window is the over
// frame ending at that row, an append-only result as in Flink:
//
//	SELECT keys, agg(...) OVER (PARTITION BY keys ORDER BY on
//	       ROWS BETWEEN size-1 PRECEDING AND CURRENT ROW), _cw_rn FROM numbered
//	WHERE _cw_rn >= size-1 AND MOD(_cw_rn - (size-1), slide) = 0
//
// User-defined aggregate functions run as group aggregates instead (the
// over operator takes built-in aggregates only): each row is assigned to
// its window ids (_cw_id) and the groups are
//
//	GROUP BY _cw_id, keys HAVING COUNT(*) = size
//
// which gives the same values; in streaming mode the result is an update
// stream whose windows arrive as +U rows.

const (
	countRowNumber = "_cw_rn"
	countWindowID  = "_cw_id"
)

// countWindow is a row-count window's size and slide in rows.
type countWindow struct {
	size, slide int64
}

// rowCount reports whether w counts rows, validating that size and slide
// are of the same kind as Flink's AggregateOperationFactory does.
func (w *GroupWindow) rowCount() (*countWindow, error) {
	isRows := func(e Expression) bool {
		return e.x != nil && e.x.kind == kindOverBound && e.x.bound == "ROWS"
	}
	switch w.kind {
	case "TUMBLE":
		if !isRows(w.size) {
			return nil, nil
		}
		if w.size.x.rows <= 0 {
			return nil, fmt.Errorf("a tumble window needs a positive size, got %d rows", w.size.x.rows)
		}
		return &countWindow{size: w.size.x.rows, slide: w.size.x.rows}, nil
	case "HOP":
		if isRows(w.size) != isRows(w.slide) {
			return nil, fmt.Errorf("A sliding window expects the same type of size and slide.")
		}
		if !isRows(w.size) {
			return nil, nil
		}
		if w.size.x.rows <= 0 || w.slide.x.rows <= 0 {
			return nil, fmt.Errorf("a sliding window needs a positive size and slide, got %d and %d rows", w.size.x.rows, w.slide.x.rows)
		}
		return &countWindow{size: w.size.x.rows, slide: w.slide.x.rows}, nil
	case "SESSION":
		if isRows(w.gap) {
			return nil, fmt.Errorf("A session window expects a gap literal of a day-time interval type.")
		}
	}
	return nil, nil
}

// kindName is the window kind as Flink's messages spell it.
func (w *GroupWindow) kindName() string {
	if w.kind == "HOP" {
		return "slide"
	}
	return strings.ToLower(w.kind)
}

// numbered numbers t's rows per key in the order of the window's time
// field (column _cw_rn, from 0).
func (w *GroupWindow) numbered(t *Table, keys []Expression) *Table {
	return t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		order, err := w.timeOrder(r)
		if err != nil {
			return nil, nil, err
		}
		ks, deps, err := r.nodes(keys)
		if err != nil {
			return nil, nil, err
		}
		spec := &sql.WindowSpec{
			PartitionBy: ks,
			OrderBy:     order,
			Frame: &sql.WindowFrame{Unit: "ROWS",
				From: &sql.FrameBound{Kind: "UNBOUNDED PRECEDING"}, To: &sql.FrameBound{Kind: "CURRENT ROW"}},
		}
		count := &sql.FuncCall{Name: objName("COUNT"), Args: []sql.Expr{&sql.Star{}}, Over: spec}
		items := append(starItems(), &sql.SelectItem{
			Expr: &sql.BinaryExpr{Op: "-", X: count, Y: intLit(1)}, Alias: ident(countRowNumber)})
		return selectQuery(items, from), deps, nil
	})
}

// timeOrder is the window's time field resolved for ORDER BY.
func (w *GroupWindow) timeOrder(r *resolver) ([]*sql.OrderItem, error) {
	if w.on.x == nil {
		return nil, fmt.Errorf("group window %s needs On(time field)", w.alias)
	}
	on, err := w.on.sqlNode()
	if err != nil {
		return nil, err
	}
	if on, err = r.one(on); err != nil {
		return nil, err
	}
	return []*sql.OrderItem{{Expr: on}}, nil
}

// assign puts each numbered row into its count windows (column _cw_id).
func (w *GroupWindow) assign(numbered *Table, cw *countWindow) *Table {
	return numbered.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		rn := colRef(countRowNumber)
		// the last window holding the row: floor(rn / slide)
		last := &sql.BinaryExpr{Op: "/", X: rn, Y: intLit(cw.slide)}
		if cw.size == cw.slide {
			items := append(starItems(), &sql.SelectItem{Expr: last, Alias: ident(countWindowID)})
			return selectQuery(items, from), nil, nil
		}
		// a row is in at most ceil(size/slide) windows: last, last-1, ...
		n := (cw.size + cw.slide - 1) / cw.slide
		offsets := &sql.ArrayExpr{}
		for j := int64(0); j < n; j++ {
			offsets.Items = append(offsets.Items, intLit(j))
		}
		in, jAlias := "_cw_in", "_cw_j"
		id := &sql.BinaryExpr{Op: "-", X: &sql.BinaryExpr{Op: "/", X: colRef(in, countRowNumber), Y: intLit(cw.slide)}, Y: colRef(jAlias, "j")}
		join := &sql.Join{Type: sql.JoinCross, Left: &sql.TableRef{Name: from.Name, Alias: ident(in)},
			Right: &sql.Unnest{Args: []sql.Expr{offsets}, Alias: ident(jAlias), Columns: []*sql.Ident{ident("j")}}}
		items := []*sql.SelectItem{{Expr: &sql.Star{Qualifier: []*sql.Ident{ident(in)}}}, {Expr: id, Alias: ident(countWindowID)}}
		q := selectQuery(items, join)
		// the window id is not negative and the window (id*slide ..
		// id*slide+size-1) still reaches the row
		q.Body.(*sql.Select).Where = &sql.BinaryExpr{Op: "AND",
			X: &sql.BinaryExpr{Op: ">=", X: id, Y: intLit(0)},
			Y: &sql.BinaryExpr{Op: "<", X: &sql.BinaryExpr{Op: "-", X: colRef(in, countRowNumber), Y: &sql.BinaryExpr{Op: "*", X: id, Y: intLit(cw.slide)}}, Y: intLit(cw.size)}}
		return q, nil, nil
	})
}

// countHaving keeps the full windows: COUNT(*) = size.
func (cw *countWindow) having() sql.Expr {
	return &sql.BinaryExpr{Op: "=", X: &sql.FuncCall{Name: objName("COUNT"), Args: []sql.Expr{&sql.Star{}}}, Y: intLit(cw.size)}
}

// countProperties rejects window properties of a row-count window, as
// Flink does: such windows have no start or end time.
func (w *GroupWindow) countProperties() func(mark string, arg sql.Expr) (sql.Expr, error) {
	return func(string, sql.Expr) (sql.Expr, error) {
		return nil, fmt.Errorf("Window start and Window end cannot be selected for a row-count %s window.", w.kindName())
	}
}

// countSelect plans WindowGroupedTable.Select over a row-count window.
func (g *WindowGroupedTable) countSelect(fields []Expression, cw *countWindow) *Table {
	env := g.t.env
	wc := &windowCtx{w: g.w, count: cw}
	numbered := g.w.numbered(g.t, g.keys)
	// the group-aggregate form validates the select list (keys and
	// aggregates only) and names the columns
	userAgg := false
	grouped := g.w.assign(numbered, cw).op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		keys, kd, err := r.nodes(g.keys)
		if err != nil {
			return nil, nil, err
		}
		r.window = wc.propertyColumns()
		items, deps, err := r.selectList(fields)
		if err != nil {
			return nil, nil, err
		}
		for _, it := range items {
			walkSQLExpr(it.Expr, func(x sql.Expr) {
				if f, ok := x.(*sql.FuncCall); ok && env.isUserAggregateCall(f) {
					userAgg = true
				}
			})
		}
		q := selectQuery(items, from)
		q.Body.(*sql.Select).GroupBy = groupBy(append([]sql.Expr{wc.call()}, keys...))
		q.Body.(*sql.Select).Having = wc.having()
		return q, deps.merge(kd), nil
	})
	if grouped.err != nil || userAgg {
		return grouped
	}
	over := numbered.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		keys, kd, err := r.nodes(g.keys)
		if err != nil {
			return nil, nil, err
		}
		order, err := g.w.timeOrder(r)
		if err != nil {
			return nil, nil, err
		}
		spec := &sql.WindowSpec{PartitionBy: keys, OrderBy: order, Frame: &sql.WindowFrame{Unit: "ROWS",
			From: &sql.FrameBound{Kind: "PRECEDING", Offset: intLit(cw.size - 1)}, To: &sql.FrameBound{Kind: "CURRENT ROW"}}}
		r.window = wc.propertyColumns()
		items, deps, err := r.selectList(fields)
		if err != nil {
			return nil, nil, err
		}
		for _, it := range items {
			x, err := rewriteSQLExpr(it.Expr, func(e sql.Expr) (sql.Expr, error) {
				if f, ok := e.(*sql.FuncCall); ok && env.isAggregateCall(f) {
					c := *f
					c.Over = spec
					return &c, nil
				}
				return e, nil
			})
			if err != nil {
				return nil, nil, err
			}
			it.Expr = x
		}
		items = append(items, &sql.SelectItem{Expr: colRef(countRowNumber), Alias: ident(countRowNumber)})
		return selectQuery(items, from), deps.merge(kd), nil
	})
	names := grouped.columns()
	return over.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		cols := over.columns()
		if len(cols) != len(names)+1 {
			return nil, nil, fmt.Errorf("internal error: count window columns %d, want %d", len(cols), len(names)+1)
		}
		items := make([]*sql.SelectItem, len(names))
		for i, c := range names {
			items[i] = &sql.SelectItem{Expr: colRef(cols[i].Name), Alias: ident(c.Name)}
		}
		q := selectQuery(items, from)
		rn := colRef(countRowNumber)
		last := intLit(cw.size - 1)
		var where sql.Expr = &sql.BinaryExpr{Op: ">=", X: rn, Y: last}
		if cw.slide > 1 {
			// MOD's type is its divisor's: BIGINT keeps row numbers whole
			mod := &sql.FuncCall{Name: objName("MOD"), Args: []sql.Expr{&sql.BinaryExpr{Op: "-", X: rn, Y: last}, castNode(intLit(cw.slide), "BIGINT")}}
			where = &sql.BinaryExpr{Op: "AND", X: where, Y: &sql.BinaryExpr{Op: "=", X: mod, Y: intLit(0)}}
		}
		q.Body.(*sql.Select).Where = where
		return q, nil, nil
	})
}
