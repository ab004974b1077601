package table

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/binder"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// Marker functions: Table API constructs that depend on the input's
// columns are written as calls of these names and resolved against the
// input before the query is bound.
const (
	markRange          = "$RANGE"
	markWithColumns    = "$WITH_COLUMNS"
	markWithoutColumns = "$WITHOUT_COLUMNS"
	markFlatten        = "$FLATTEN"
	markGetIndex       = "$GET_INDEX"
	markRowtime        = "$ROWTIME"
	markProctime       = "$PROCTIME"
	markStart          = "$START"
	markEnd            = "$END"
)

func markerName(e sql.Expr) string {
	f, ok := e.(*sql.FuncCall)
	if !ok || len(f.Name.Parts) != 1 || !strings.HasPrefix(f.Name.Parts[0].Name, "$") {
		return ""
	}
	return f.Name.Parts[0].Name
}

// resolver resolves marker functions against an input's columns.
type resolver struct {
	env  *TableEnvironment
	cols []plan.Column
	// window rewrites window properties ($START(w), $ROWTIME(w), ...) and
	// references to the window alias; nil outside group windows.
	window func(mark string, arg sql.Expr) (sql.Expr, error)
}

// item is an expanded list item with the name it implies ("" when the
// name is left to the binder or the caller).
type item struct {
	e    sql.Expr
	name string
}

// list resolves a list of expressions, expanding column selections,
// Flatten and (when star) '*'.
func (r *resolver) list(es []sql.Expr, star bool) ([]item, error) {
	var out []item
	for _, e := range es {
		if s, ok := e.(*sql.Star); ok && star && len(s.Qualifier) == 0 {
			for _, c := range r.cols {
				out = append(out, item{colRef(c.Name), c.Name})
			}
			continue
		}
		switch markerName(e) {
		case markWithColumns, markWithoutColumns:
			idx, err := r.selection(e.(*sql.FuncCall))
			if err != nil {
				return nil, err
			}
			for _, i := range idx {
				out = append(out, item{colRef(r.cols[i].Name), r.cols[i].Name})
			}
			continue
		case markFlatten:
			fields, err := r.flatten(e.(*sql.FuncCall))
			if err != nil {
				return nil, err
			}
			out = append(out, fields...)
			continue
		case markRange:
			return nil, fmt.Errorf("Range must be used inside WithColumns or WithoutColumns")
		}
		x, err := r.one(e)
		if err != nil {
			return nil, err
		}
		out = append(out, item{x, ""})
	}
	return out, nil
}

// exprs is list without names.
func (r *resolver) exprs(es []sql.Expr) ([]sql.Expr, error) {
	items, err := r.list(es, false)
	if err != nil {
		return nil, err
	}
	out := make([]sql.Expr, len(items))
	for i, it := range items {
		out[i] = it.e
	}
	return out, nil
}

// one resolves a single expression.
func (r *resolver) one(e sql.Expr) (sql.Expr, error) {
	return rewriteSQLExpr(e, func(x sql.Expr) (sql.Expr, error) {
		switch v := x.(type) {
		case *sql.FuncCall:
			switch markerName(v) {
			case "":
			case markGetIndex:
				return r.getIndex(v)
			case markRowtime, markProctime, markStart, markEnd:
				if r.window != nil {
					return r.window(markerName(v), v.Args[0])
				}
				prop := strings.ToLower(strings.TrimPrefix(markerName(v), "$"))
				return nil, fmt.Errorf("%s is only valid on the alias of a group window (Window(...).GroupBy(...).Select) or in a DataStream field mapping, not on %s", prop, sql.Format(v.Args[0]))
			case markWithColumns, markWithoutColumns, markFlatten:
				return nil, fmt.Errorf("%s can only be used where a list of expressions is expected", sql.Format(v))
			case markRange:
				return nil, fmt.Errorf("Range must be used inside WithColumns or WithoutColumns")
			default:
				// an inline user function: its key starts with the name
			}
			items, err := r.exprsOfArgs(v.Args)
			if err != nil {
				return nil, err
			}
			c := *v
			c.Args = items
			return &c, nil
		case *sql.RowExpr:
			items, err := r.exprsOfArgs(v.Items)
			if err != nil {
				return nil, err
			}
			c := *v
			c.Items = items
			return &c, nil
		case *sql.ArrayExpr:
			items, err := r.exprsOfArgs(v.Items)
			if err != nil {
				return nil, err
			}
			c := *v
			c.Items = items
			return &c, nil
		}
		return x, nil
	})
}

// exprsOfArgs expands column selections among already resolved arguments
// (a bottom-up rewrite leaves selection markers in place for their
// parent).
func (r *resolver) exprsOfArgs(args []sql.Expr) ([]sql.Expr, error) {
	var out []sql.Expr
	for _, a := range args {
		switch markerName(a) {
		case markWithColumns, markWithoutColumns:
			idx, err := r.selection(a.(*sql.FuncCall))
			if err != nil {
				return nil, err
			}
			for _, i := range idx {
				out = append(out, colRef(r.cols[i].Name))
			}
			continue
		case markFlatten:
			fields, err := r.flatten(a.(*sql.FuncCall))
			if err != nil {
				return nil, err
			}
			for _, f := range fields {
				out = append(out, f.e)
			}
			continue
		}
		out = append(out, a)
	}
	return out, nil
}

// selection resolves WithColumns / WithoutColumns to column indexes.
func (r *resolver) selection(f *sql.FuncCall) ([]int, error) {
	var picked []int
	for _, a := range f.Args {
		switch x := a.(type) {
		case *sql.Identifier:
			i, err := r.colIndex(x.Parts[len(x.Parts)-1].Name)
			if err != nil {
				return nil, err
			}
			picked = append(picked, i)
		case *sql.Star:
			for i := range r.cols {
				picked = append(picked, i)
			}
		case *sql.FuncCall:
			if markerName(x) != markRange {
				return nil, fmt.Errorf("column selection accepts names, indexes, Col and Range, not %s", sql.Format(x))
			}
			from, err := r.bound(x.Args[0])
			if err != nil {
				return nil, err
			}
			to, err := r.bound(x.Args[1])
			if err != nil {
				return nil, err
			}
			if from > to {
				return nil, fmt.Errorf("the range %s is empty: its start comes after its end", sql.Format(x))
			}
			for i := from; i <= to; i++ {
				picked = append(picked, i)
			}
		default:
			return nil, fmt.Errorf("column selection accepts names, indexes, Col and Range, not %s", sql.Format(a))
		}
	}
	if markerName(f) == markWithColumns {
		return picked, nil
	}
	drop := map[int]bool{}
	for _, i := range picked {
		drop[i] = true
	}
	var out []int
	for i := range r.cols {
		if !drop[i] {
			out = append(out, i)
		}
	}
	return out, nil
}

// bound resolves a Range bound (a name or a 1-based index) to an index.
func (r *resolver) bound(e sql.Expr) (int, error) {
	switch x := e.(type) {
	case *sql.StringLit:
		return r.colIndex(x.Value)
	case *sql.NumberLit:
		n, _ := strconv.Atoi(x.Text)
		if n < 1 || n > len(r.cols) {
			return 0, fmt.Errorf("column index %d is out of range: the input has %d columns (indexes start at 1)", n, len(r.cols))
		}
		return n - 1, nil
	}
	return 0, fmt.Errorf("invalid range bound %s", sql.Format(e))
}

func (r *resolver) colIndex(name string) (int, error) {
	for i, c := range r.cols {
		if c.Name == name {
			return i, nil
		}
	}
	return 0, fmt.Errorf("Cannot resolve field [%s], input field list:[%s]", name, strings.Join(plan.Names(r.cols), ", "))
}

// typeOf binds a (resolved) expression over the input to learn its type.
func (r *resolver) typeOf(e sql.Expr) (*types.DataType, error) {
	x, err := binder.BindExprWithInputs(r.env.bindContext(), e, r.cols, "")
	if err != nil {
		return nil, err
	}
	return x.Type(), nil
}

func (r *resolver) flatten(f *sql.FuncCall) ([]item, error) {
	base, err := r.one(f.Args[0])
	if err != nil {
		return nil, err
	}
	t, err := r.typeOf(base)
	if err != nil {
		return nil, err
	}
	prefix := "_c"
	if id, ok := base.(*sql.Identifier); ok {
		prefix = id.Parts[len(id.Parts)-1].Name
	}
	if t.Root != types.RowRoot {
		return []item{{base, ""}}, nil
	}
	out := make([]item, len(t.Fields))
	for i, fd := range t.Fields {
		out[i] = item{&sql.FieldExpr{X: base, Field: ident(fd.Name)}, prefix + "$" + fd.Name}
	}
	return out, nil
}

func (r *resolver) getIndex(f *sql.FuncCall) (sql.Expr, error) {
	t, err := r.typeOf(f.Args[0])
	if err != nil {
		return nil, err
	}
	n, _ := strconv.Atoi(f.Args[1].(*sql.NumberLit).Text)
	if t.Root != types.RowRoot {
		return nil, fmt.Errorf("Get(%d) needs a ROW value, %s is %s", n, sql.Format(f.Args[0]), t)
	}
	if n >= len(t.Fields) {
		return nil, fmt.Errorf("Get(%d): %s has %d fields", n, t, len(t.Fields))
	}
	return &sql.FieldExpr{X: f.Args[0], Field: ident(t.Fields[n].Name)}, nil
}

// registerInline makes the user functions an expression calls inline
// resolvable.
func (t *TableEnvironment) registerInline(d *exprDeps) error {
	if d == nil {
		return nil
	}
	for key, f := range d.funcs {
		fn, err := f.function()
		if err != nil {
			return err
		}
		t.funcs.addInline(key, fn)
	}
	return nil
}

// isAggregateCall reports whether a call is to an aggregate function (not
// windowed with OVER).
func (t *TableEnvironment) isAggregateCall(f *sql.FuncCall) bool {
	if f.Over != nil || markerName(f) != "" {
		return false
	}
	parts := make([]string, len(f.Name.Parts))
	for i, p := range f.Name.Parts {
		parts[i] = p.Name
	}
	fn, err := t.funcs.lookup(parts)
	return err == nil && fn != nil && (fn.Kind == expr.AggregateKind || fn.Kind == expr.TableAggregateKind)
}

// isUserAggregateCall reports whether f calls a user-defined aggregate
// function.
func (t *TableEnvironment) isUserAggregateCall(f *sql.FuncCall) bool {
	if !t.isAggregateCall(f) {
		return false
	}
	parts := make([]string, len(f.Name.Parts))
	for i, p := range f.Name.Parts {
		parts[i] = p.Name
	}
	fn, err := t.funcs.lookup(parts)
	return err == nil && fn != nil && fn.Aggregate != nil
}

// containsAggregate reports whether an expression calls an aggregate.
func (t *TableEnvironment) containsAggregate(e sql.Expr) bool {
	found := false
	walkSQLExpr(e, func(x sql.Expr) {
		if f, ok := x.(*sql.FuncCall); ok && t.isAggregateCall(f) {
			found = true
		}
	})
	return found
}

// selectList builds a select list from Expressions over the input columns:
// '*' and column selections expand, Flatten expands a ROW, aliases apply,
// and an unnamed computed item gets Flink's Table API name: _c<position>
// for plain expressions, EXPR$<n> for the n-th aggregate.
func (r *resolver) selectList(fields []Expression) ([]*sql.SelectItem, *exprDeps, error) {
	out, deps, err := r.selectItems(fields)
	if err != nil {
		return nil, nil, err
	}
	// Flink's projections reject a repeated output name (where SQL
	// renames the second "a" to "a0").
	seen := map[string]bool{}
	for _, it := range out {
		if seen[it.Alias.Name] {
			return nil, nil, fmt.Errorf("Ambiguous column name: %s", it.Alias.Name)
		}
		seen[it.Alias.Name] = true
	}
	return out, deps, nil
}

// selectItems is selectList without the check for repeated names
// (AddOrReplaceColumns lets the last of them win).
func (r *resolver) selectItems(fields []Expression) ([]*sql.SelectItem, *exprDeps, error) {
	var out []*sql.SelectItem
	var deps *exprDeps
	aggN := 0
	for _, f := range fields {
		if err := f.Err(); err != nil {
			return nil, nil, err
		}
		switch f.x.kind {
		case kindOrder, kindOverBound, kindUDFRow:
			if _, err := f.sqlNode(); err != nil {
				return nil, nil, err
			}
		}
		deps = deps.merge(f.deps())
		if err := r.env.registerInline(f.deps()); err != nil {
			return nil, nil, err
		}
		items, err := r.list([]sql.Expr{f.x.node}, true)
		if err != nil {
			return nil, nil, err
		}
		if len(f.x.names) > 0 {
			if len(items) != len(f.x.names) {
				if len(items) == 1 {
					return nil, nil, fmt.Errorf("%s has one column, but %d names were given; several names are for table functions and ROW-valued functions in Map, FlatMap, Aggregate and FlatAggregate", f, len(f.x.names))
				}
				return nil, nil, fmt.Errorf("%s expands to %d columns, but %d names were given", f, len(items), len(f.x.names))
			}
			for i := range items {
				items[i].name = f.x.names[i]
			}
		}
		for _, it := range items {
			name := it.name
			if name == "" {
				switch x := it.e.(type) {
				case *sql.Identifier:
					name = x.Parts[len(x.Parts)-1].Name
				case *sql.FieldExpr:
					name = x.Field.Name
				default:
					if r.env.containsAggregate(it.e) {
						name = fmt.Sprintf("EXPR$%d", aggN)
						aggN++
					} else {
						name = fmt.Sprintf("_c%d", len(out))
					}
				}
			}
			out = append(out, &sql.SelectItem{Expr: it.e, Alias: ident(name)})
		}
	}
	return out, deps, nil
}

// nodes resolves plain expressions (predicates, keys) without names.
func (r *resolver) nodes(fields []Expression) ([]sql.Expr, *exprDeps, error) {
	var out []sql.Expr
	var deps *exprDeps
	for _, f := range fields {
		n, err := f.sqlNode()
		if err != nil {
			return nil, nil, err
		}
		deps = deps.merge(f.deps())
		if err := r.env.registerInline(f.deps()); err != nil {
			return nil, nil, err
		}
		xs, err := r.exprs([]sql.Expr{n})
		if err != nil {
			return nil, nil, err
		}
		out = append(out, xs...)
	}
	return out, deps, nil
}
