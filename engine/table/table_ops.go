package table

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// op derives a table from a query over this one; build receives the FROM
// item naming this table and a resolver over its columns.
func (t *Table) op(build func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error)) *Table {
	if t == nil {
		return &Table{err: errorf("nil Table")}
	}
	if t.err != nil {
		return t
	}
	name := t.env.anonName("t")
	q, deps, err := build(&sql.TableRef{Name: objName(name)}, t.resolver())
	if err != nil {
		return t.env.failedTable(err)
	}
	return t.env.derive(q, map[string]*Table{name: t}, deps)
}

func selectQuery(items []*sql.SelectItem, from sql.TableExpr) *sql.Query {
	return &sql.Query{Body: &sql.Select{Items: items, From: from}}
}

func starItems() []*sql.SelectItem { return []*sql.SelectItem{{Expr: &sql.Star{}}} }

// columnItems selects the given columns by name.
func columnItems(cols []plan.Column) []*sql.SelectItem {
	out := make([]*sql.SelectItem, len(cols))
	for i, c := range cols {
		out[i] = &sql.SelectItem{Expr: colRef(c.Name), Alias: ident(c.Name)}
	}
	return out
}

// Select projects expressions, like SQL SELECT (PyFlink's select). Fields
// may be any expressions; Col("*") and WithColumns expand to columns; an
// aggregate makes it a global aggregation. Unnamed computed columns are
// named _c<position>.
func (t *Table) Select(fields ...Expression) *Table {
	return t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		items, deps, err := r.selectList(fields)
		if err != nil {
			return nil, nil, err
		}
		return selectQuery(items, from), deps, nil
	})
}

// Where keeps the rows for which predicate is TRUE, like SQL WHERE
// (PyFlink's where).
func (t *Table) Where(predicate Expression) *Table {
	return t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		conds, deps, err := r.nodes([]Expression{predicate})
		if err != nil {
			return nil, nil, err
		}
		if len(conds) != 1 {
			return nil, nil, fmt.Errorf("Where needs one predicate")
		}
		if t.env.containsAggregate(conds[0]) {
			return nil, nil, fmt.Errorf("Aggregate functions are not supported in a filter predicate: %s", sql.Format(conds[0]))
		}
		q := selectQuery(starItems(), from)
		q.Body.(*sql.Select).Where = conds[0]
		return q, deps, nil
	})
}

// Filter is Where (PyFlink's filter).
func (t *Table) Filter(predicate Expression) *Table { return t.Where(predicate) }

// Alias renames all fields in order (PyFlink's alias): Alias("a", "b",
// "c"), or Alias("a, b, c"). Fewer names rename the first fields; more
// names than fields is an error.
func (t *Table) Alias(field string, fields ...string) *Table {
	names := append([]string{field}, fields...)
	if len(fields) == 0 && strings.Contains(field, ",") {
		names = nil
		for _, p := range strings.Split(field, ",") {
			names = append(names, strings.TrimSpace(p))
		}
	}
	return t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		if len(names) > len(r.cols) {
			return nil, nil, fmt.Errorf("Aliasing more fields than we actually have: %d names for %d fields", len(names), len(r.cols))
		}
		items := columnItems(r.cols)
		seen := map[string]bool{}
		for i, n := range names {
			if n == "" {
				return nil, nil, fmt.Errorf("Alias: empty field name")
			}
			items[i].Alias = ident(n)
		}
		for _, it := range items {
			if seen[it.Alias.Name] {
				return nil, nil, fmt.Errorf("Ambiguous column name: %s", it.Alias.Name)
			}
			seen[it.Alias.Name] = true
		}
		return selectQuery(items, from), nil, nil
	})
}

// AddColumns appends computed columns (PyFlink's add_columns). Aggregates
// are not allowed, and a name that already exists is an error (use
// AddOrReplaceColumns).
func (t *Table) AddColumns(fields ...Expression) *Table { return t.addColumns(fields, false) }

// AddOrReplaceColumns appends computed columns, replacing existing columns
// of the same name in place; among duplicate new names the last wins
// (PyFlink's add_or_replace_columns).
func (t *Table) AddOrReplaceColumns(fields ...Expression) *Table { return t.addColumns(fields, true) }

func (t *Table) addColumns(fields []Expression, replace bool) *Table {
	return t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		added, deps, err := r.selectItems(fields)
		if err != nil {
			return nil, nil, err
		}
		items := columnItems(r.cols)
		pos := map[string]int{}
		for i, it := range items {
			pos[it.Alias.Name] = i
		}
		for _, a := range added {
			if t.env.containsAggregate(a.Expr) {
				return nil, nil, fmt.Errorf("Aggregate functions are not supported in AddColumns: %s", sql.Format(a.Expr))
			}
			name := a.Alias.Name
			if i, ok := pos[name]; ok {
				if !replace {
					return nil, nil, fmt.Errorf("Column '%s' already exists; use AddOrReplaceColumns to replace it", name)
				}
				items[i] = a
				continue
			}
			pos[name] = len(items)
			items = append(items, a)
		}
		return selectQuery(items, from), deps, nil
	})
}

// DropColumns removes columns, given as Col references or column
// selections (PyFlink's drop_columns).
func (t *Table) DropColumns(fields ...Expression) *Table {
	return t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		drop := map[string]bool{}
		for _, f := range fields {
			n, err := f.sqlNode()
			if err != nil {
				return nil, nil, err
			}
			items, err := r.list([]sql.Expr{n}, true)
			if err != nil {
				return nil, nil, err
			}
			for _, it := range items {
				id, ok := it.e.(*sql.Identifier)
				if !ok || len(id.Parts) != 1 {
					return nil, nil, fmt.Errorf("DropColumns accepts column references only, not %s", f)
				}
				if _, err := r.colIndex(id.Parts[0].Name); err != nil {
					return nil, nil, err
				}
				drop[id.Parts[0].Name] = true
			}
		}
		var keep []plan.Column
		for _, c := range r.cols {
			if !drop[c.Name] {
				keep = append(keep, c)
			}
		}
		if len(keep) == 0 {
			return nil, nil, fmt.Errorf("DropColumns would drop every column")
		}
		return selectQuery(columnItems(keep), from), nil, nil
	})
}

// RenameColumns renames existing columns, given as Col(old).As(new)
// (PyFlink's rename_columns).
func (t *Table) RenameColumns(fields ...Expression) *Table {
	return t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		items := columnItems(r.cols)
		for _, f := range fields {
			if err := f.Err(); err != nil {
				return nil, nil, err
			}
			id, ok := f.x.node.(*sql.Identifier)
			if !ok || f.x.kind != kindPlain || len(id.Parts) != 1 || len(f.x.names) != 1 {
				return nil, nil, fmt.Errorf("RenameColumns expects Col(name).As(newName), got %s", f)
			}
			i, err := r.colIndex(id.Parts[0].Name)
			if err != nil {
				return nil, nil, err
			}
			items[i].Alias = ident(f.x.names[0])
		}
		seen := map[string]bool{}
		for _, it := range items {
			if seen[it.Alias.Name] {
				return nil, nil, fmt.Errorf("Ambiguous column name: %s", it.Alias.Name)
			}
			seen[it.Alias.Name] = true
		}
		return selectQuery(items, from), nil, nil
	})
}

// Distinct removes duplicate rows, like SELECT DISTINCT (PyFlink's
// distinct).
func (t *Table) Distinct() *Table {
	return t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		q := selectQuery(columnItems(r.cols), from)
		q.Body.(*sql.Select).Quantifier = "DISTINCT"
		return q, nil, nil
	})
}

// ---------------------------------------------------------------- joins

// join builds a two-input query. The inputs' field names must not
// overlap (rename with Alias first), as in Flink.
func (t *Table) join(right *Table, kind sql.JoinType, pred []Expression, required bool, what string) *Table {
	if t == nil || right == nil {
		return &Table{err: errorf("%s: nil Table", what)}
	}
	if t.err != nil {
		return t
	}
	if err := t.env.checkInput(right); err != nil {
		return t.env.failedTable(err)
	}
	lc, rc := t.columns(), right.columns()
	seen := map[string]bool{}
	for _, c := range lc {
		seen[c.Name] = true
	}
	var dup []string
	for _, c := range rc {
		if seen[c.Name] {
			dup = append(dup, c.Name)
		}
	}
	if len(dup) > 0 {
		return t.env.failedTable(fmt.Errorf("join relations with ambiguous names: %s (rename the fields of one side with Alias)", strings.Join(dup, ", ")))
	}
	if len(pred) > 1 {
		return t.env.failedTable(fmt.Errorf("%s takes at most one join predicate", what))
	}
	if required && len(pred) == 0 {
		return t.env.failedTable(fmt.Errorf("%s needs a join predicate", what))
	}
	ln, rn := t.env.anonName("l"), t.env.anonName("r")
	r := &resolver{env: t.env, cols: append(append([]plan.Column(nil), lc...), rc...)}
	j := &sql.Join{Type: kind, Left: &sql.TableRef{Name: objName(ln)}, Right: &sql.TableRef{Name: objName(rn)}}
	var deps *exprDeps
	if len(pred) == 1 {
		conds, d, err := r.nodes(pred)
		if err != nil {
			return t.env.failedTable(err)
		}
		deps = d
		j.On = conds[0]
		if kind == sql.JoinCross {
			j.Type = sql.JoinInner
		}
	} else if kind != sql.JoinCross {
		j.On = &sql.BoolLit{Value: true}
	}
	return t.env.derive(selectQuery(starItems(), j), map[string]*Table{ln: t, rn: right}, deps)
}

// Join is an inner join with right, on an optional predicate; without one
// it is a cross join, which Where may follow (PyFlink's join). Both tables
// must come from the same TableEnvironment and have distinct field names.
func (t *Table) Join(right *Table, predicate ...Expression) *Table {
	return t.join(right, sql.JoinCross, predicate, false, "Join")
}

// LeftOuterJoin is a left outer join on an optional predicate (PyFlink's
// left_outer_join).
func (t *Table) LeftOuterJoin(right *Table, predicate ...Expression) *Table {
	return t.join(right, sql.JoinLeft, predicate, false, "LeftOuterJoin")
}

// RightOuterJoin is a right outer join; the predicate is required
// (PyFlink's right_outer_join).
func (t *Table) RightOuterJoin(right *Table, predicate Expression) *Table {
	return t.join(right, sql.JoinRight, []Expression{predicate}, true, "RightOuterJoin")
}

// FullOuterJoin is a full outer join; the predicate is required (PyFlink's
// full_outer_join).
func (t *Table) FullOuterJoin(right *Table, predicate Expression) *Table {
	return t.join(right, sql.JoinFull, []Expression{predicate}, true, "FullOuterJoin")
}

// tableFuncCall turns a table function call Expression into the FROM item
// LATERAL TABLE(f(args)) AS alias(names).
func (t *Table) tableFuncCall(call Expression, r *resolver) (*sql.TableFunc, *exprDeps, error) {
	if err := call.Err(); err != nil {
		return nil, nil, err
	}
	deps := call.deps()
	if err := t.env.registerInline(deps); err != nil {
		return nil, nil, err
	}
	var fc *sql.FuncCall
	var udf *UserDefinedFunction
	switch call.x.kind {
	case kindUDFRow:
		udf = call.x.udf
		items := make([]sql.Expr, len(r.cols))
		for i, c := range r.cols {
			items[i] = colRef(c.Name)
		}
		fc = &sql.FuncCall{Name: objName(udf.inlineKey()), Args: []sql.Expr{&sql.RowExpr{Explicit: true, Items: items}}}
	case kindPlain:
		f, ok := call.x.node.(*sql.FuncCall)
		if !ok {
			return nil, nil, fmt.Errorf("expected a table function call, got %s", call)
		}
		x, err := r.one(f)
		if err != nil {
			return nil, nil, err
		}
		fc = x.(*sql.FuncCall)
		udf = call.x.udf
	default:
		return nil, nil, fmt.Errorf("expected a table function call, got %s", call)
	}
	if udf != nil && udf.kind != TableFunctionKind {
		return nil, nil, fmt.Errorf("%s is not a table function", udf.name)
	}
	tf := &sql.TableFunc{Lateral: true, Call: fc, Alias: ident(t.env.anonName("T"))}
	for _, n := range call.x.names {
		tf.Columns = append(tf.Columns, ident(n))
	}
	return tf, deps, nil
}

func (t *Table) joinLateral(call Expression, pred []Expression, left bool) *Table {
	if len(pred) > 1 {
		return t.env.failedTable(fmt.Errorf("a lateral join takes at most one join predicate"))
	}
	return t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		tf, deps, err := t.tableFuncCall(call, r)
		if err != nil {
			return nil, nil, err
		}
		j := &sql.Join{Type: sql.JoinInner, Left: from, Right: tf, On: &sql.BoolLit{Value: true}}
		if left {
			j.Type = sql.JoinLeft
		}
		if len(pred) == 1 {
			// the predicate sees both sides: bind it on the joined columns later
			n, err := pred[0].sqlNode()
			if err != nil {
				return nil, nil, err
			}
			deps = deps.merge(pred[0].deps())
			j.On = n
		}
		return selectQuery(starItems(), j), deps, nil
	})
}

// JoinLateral joins each row with the rows a table function produces for
// it, on an optional predicate (otherwise ON TRUE) (PyFlink's
// join_lateral): tab.JoinLateral(split.Call(Col("text")).As("word")).
func (t *Table) JoinLateral(tableFunctionCall Expression, predicate ...Expression) *Table {
	return t.joinLateral(tableFunctionCall, predicate, false)
}

// LeftOuterJoinLateral is JoinLateral keeping rows for which the function
// produces nothing, padded with NULLs (PyFlink's left_outer_join_lateral).
func (t *Table) LeftOuterJoinLateral(tableFunctionCall Expression, predicate ...Expression) *Table {
	return t.joinLateral(tableFunctionCall, predicate, true)
}

// ---------------------------------------------------------------- set operations

func (t *Table) setOp(right *Table, op string, all bool) *Table {
	if t == nil || right == nil {
		return &Table{err: errorf("%s: nil Table", op)}
	}
	if t.err != nil {
		return t
	}
	if err := t.env.checkInput(right); err != nil {
		return t.env.failedTable(err)
	}
	lc, rc := t.columns(), right.columns()
	if len(lc) != len(rc) {
		return t.env.failedTable(fmt.Errorf("%s needs inputs with the same number of fields: %d and %d", op, len(lc), len(rc)))
	}
	ln, rn := t.env.anonName("l"), t.env.anonName("r")
	s := &sql.SetOp{Op: op, Left: &sql.Select{Items: starItems(), From: &sql.TableRef{Name: objName(ln)}},
		Right: &sql.Select{Items: starItems(), From: &sql.TableRef{Name: objName(rn)}}}
	if all {
		s.Quantifier = "ALL"
	}
	return t.env.derive(&sql.Query{Body: s}, map[string]*Table{ln: t, rn: right}, nil)
}

// Union is the set union without duplicates, like SQL UNION (PyFlink's
// union).
func (t *Table) Union(right *Table) *Table { return t.setOp(right, "UNION", false) }

// UnionAll is the union keeping duplicates (PyFlink's union_all).
func (t *Table) UnionAll(right *Table) *Table { return t.setOp(right, "UNION", true) }

// Intersect returns the rows present in both tables, once each (PyFlink's
// intersect).
func (t *Table) Intersect(right *Table) *Table { return t.setOp(right, "INTERSECT", false) }

// IntersectAll returns a row as often as it is present in both tables,
// min(n, m) times (PyFlink's intersect_all).
func (t *Table) IntersectAll(right *Table) *Table { return t.setOp(right, "INTERSECT", true) }

// Minus returns the left rows absent from right, once each, like SQL
// EXCEPT (PyFlink's minus).
func (t *Table) Minus(right *Table) *Table { return t.setOp(right, "EXCEPT", false) }

// MinusAll returns a row present n times on the left and m on the right
// n - m times, like SQL EXCEPT ALL (PyFlink's minus_all).
func (t *Table) MinusAll(right *Table) *Table { return t.setOp(right, "EXCEPT", true) }

// ---------------------------------------------------------------- sorting

func (t *Table) sorted(s *sortSpec) *Table {
	in := s.input
	if in.err != nil {
		return in
	}
	name := in.env.anonName("t")
	q := selectQuery(starItems(), &sql.TableRef{Name: objName(name)})
	q.OrderBy = s.keys
	if s.offset > 0 {
		q.Offset = intLit(s.offset)
	}
	if s.fetch >= 0 {
		q.Limit = intLit(s.fetch)
		q.Fetch = true
	}
	out := in.env.derive(q, map[string]*Table{name: in}, s.deps)
	if out.err == nil {
		out.sort = s
	}
	return out
}

// OrderBy sorts globally by fields, each Asc (the default) or Desc
// (PyFlink's order_by). On an unbounded table the first key must be a
// time attribute, or Fetch must follow.
func (t *Table) OrderBy(fields ...Expression) *Table {
	if t == nil {
		return &Table{err: errorf("nil Table")}
	}
	if t.err != nil {
		return t
	}
	r := t.resolver()
	s := &sortSpec{input: t, fetch: -1}
	for _, f := range fields {
		if err := f.Err(); err != nil {
			return t.env.failedTable(err)
		}
		e, desc, nulls := f, false, ""
		if f.x.kind == kindOrder {
			e, desc, nulls = f.x.args[0], f.x.desc, f.x.nulls
		}
		n, err := e.sqlNode()
		if err != nil {
			return t.env.failedTable(err)
		}
		xs, err := r.exprs([]sql.Expr{n})
		if err != nil {
			return t.env.failedTable(err)
		}
		s.deps = s.deps.merge(e.deps())
		for _, x := range xs {
			s.keys = append(s.keys, &sql.OrderItem{Expr: x, Desc: desc, Nulls: nulls})
		}
	}
	if len(s.keys) == 0 {
		return t.env.failedTable(errorf("OrderBy needs at least one field"))
	}
	return t.sorted(s)
}

// Offset skips the first n rows, of the sort when following OrderBy
// (PyFlink's offset). On an unbounded table Fetch must follow.
func (t *Table) Offset(n int64) *Table {
	if t == nil || t.err != nil {
		return t
	}
	if n < 0 {
		return t.env.failedTable(errorf("Offset must be non-negative, got %d", n))
	}
	if t.sort != nil {
		s := *t.sort
		s.offset = n
		return t.sorted(&s)
	}
	return t.sorted(&sortSpec{input: t, offset: n, fetch: -1})
}

// Fetch keeps the first n rows (n >= 0), of the sort when following
// OrderBy and after a preceding Offset (PyFlink's fetch).
func (t *Table) Fetch(n int64) *Table {
	if t == nil || t.err != nil {
		return t
	}
	if n < 0 {
		return t.env.failedTable(errorf("Fetch must be non-negative, got %d", n))
	}
	if t.sort != nil {
		s := *t.sort
		s.fetch = n
		return t.sorted(&s)
	}
	return t.sorted(&sortSpec{input: t, fetch: n})
}

// Limit keeps fetch rows after skipping offset (default 0) rows: Limit(3)
// is the first 3 rows, Limit(5, 10) rows 11 to 15 (PyFlink's limit).
func (t *Table) Limit(fetch int64, offset ...int64) *Table {
	if len(offset) > 0 {
		return t.Offset(offset[0]).Fetch(fetch)
	}
	return t.Fetch(fetch)
}

// ---------------------------------------------------------------- map / flat map

// Map applies a scalar function to each row (PyFlink's map). A function
// returning a ROW is expanded into one column per field, named by the
// call's As names or the ROW's field names. Call the function with
// Col("*") (or use the function's Alias) to pass the whole row.
func (t *Table) Map(f Expression) *Table {
	mapped := t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		call, deps, err := t.functionCall(f, r, ScalarFunctionKind)
		if err != nil {
			return nil, nil, err
		}
		return selectQuery([]*sql.SelectItem{{Expr: call, Alias: ident("_map")}}, from), deps, nil
	})
	return mapped.expandRow("_map", names(f), nil)
}

func names(f Expression) []string {
	if f.x == nil {
		return nil
	}
	return f.x.names
}

// functionCall resolves the call of a function expected to be of a kind:
// a call expression, or an uncalled user function taking the whole row.
func (t *Table) functionCall(f Expression, r *resolver, kind FunctionKind) (sql.Expr, *exprDeps, error) {
	if err := f.Err(); err != nil {
		return nil, nil, err
	}
	deps := f.deps()
	if err := t.env.registerInline(deps); err != nil {
		return nil, nil, err
	}
	switch f.x.kind {
	case kindUDFRow:
		u := f.x.udf
		if u.kind != kind {
			return nil, nil, fmt.Errorf("%s is a %s function, expected a %s function", u.name, strings.ToLower(u.kind.String()), strings.ToLower(kind.String()))
		}
		items := make([]sql.Expr, len(r.cols))
		for i, c := range r.cols {
			items[i] = colRef(c.Name)
		}
		return &sql.FuncCall{Name: objName(u.inlineKey()), Args: []sql.Expr{&sql.RowExpr{Explicit: true, Items: items}}}, deps, nil
	case kindPlain:
		fc, ok := f.x.node.(*sql.FuncCall)
		if !ok {
			return nil, nil, fmt.Errorf("expected a function call, got %s", f)
		}
		if u := f.x.udf; u != nil && u.kind != kind {
			return nil, nil, fmt.Errorf("%s is a %s function, expected a %s function", u.name, strings.ToLower(u.kind.String()), strings.ToLower(kind.String()))
		}
		x, err := r.one(fc)
		return x, deps, err
	}
	return nil, nil, fmt.Errorf("expected a function call, got %s", f)
}

// expandRow replaces column col (the last one, when keep lists the
// columns before it) by its ROW fields, named by names or the field names.
func (t *Table) expandRow(col string, names []string, keep []string) *Table {
	return t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		var items []*sql.SelectItem
		for _, k := range keep {
			items = append(items, &sql.SelectItem{Expr: colRef(k), Alias: ident(k)})
		}
		i, err := r.colIndex(col)
		if err != nil {
			return nil, nil, err
		}
		ct := r.cols[i].Type
		if ct.Root != types.RowRoot {
			name := "_c0"
			if len(names) == 1 {
				name = names[0]
			} else if len(names) > 1 {
				return nil, nil, fmt.Errorf("the function returns %s, a single column, but %d names were given", ct, len(names))
			}
			items = append(items, &sql.SelectItem{Expr: colRef(col), Alias: ident(name)})
			return selectQuery(items, from), nil, nil
		}
		if len(names) > 0 && len(names) != len(ct.Fields) {
			return nil, nil, fmt.Errorf("the function returns %s with %d fields, but %d names were given", ct, len(ct.Fields), len(names))
		}
		for k, fd := range ct.Fields {
			name := fd.Name
			if len(names) > 0 {
				name = names[k]
			}
			items = append(items, &sql.SelectItem{Expr: &sql.FieldExpr{X: colRef(col), Field: ident(fd.Name)}, Alias: ident(name)})
		}
		return selectQuery(items, from), nil, nil
	})
}

// FlatMap applies a table function to each row and keeps only the rows it
// produces (PyFlink's flat_map): tab.FlatMap(split.Call(Col("a"), Col("b"))).
func (t *Table) FlatMap(f Expression) *Table {
	return t.op(func(from *sql.TableRef, r *resolver) (*sql.Query, *exprDeps, error) {
		tf, deps, err := t.tableFuncCall(f, r)
		if err != nil {
			return nil, nil, err
		}
		j := &sql.Join{Type: sql.JoinCross, Left: from, Right: tf}
		items := []*sql.SelectItem{{Expr: &sql.Star{Qualifier: []*sql.Ident{tf.Alias}}}}
		return selectQuery(items, j), deps, nil
	})
}

// ---------------------------------------------------------------- aggregation

// GroupBy groups rows by fields; Select (with aggregates), Aggregate or
// FlatAggregate follows (PyFlink's group_by).
func (t *Table) GroupBy(fields ...Expression) *GroupedTable {
	return &GroupedTable{t: t, keys: fields}
}

// Aggregate aggregates all rows with an aggregate function; Select must
// follow (PyFlink's aggregate): tab.Aggregate(agg.Call(Col("a")).As("x", "y")).Select(Col("x")).
func (t *Table) Aggregate(f Expression) *AggregatedTable {
	return &AggregatedTable{t: t.GroupBy().aggregate(f, nil)}
}

// FlatAggregate aggregates all rows with a table aggregate function;
// Select must follow (PyFlink's flat_aggregate).
func (t *Table) FlatAggregate(f Expression) *FlatAggregateTable {
	return t.GroupBy().FlatAggregate(f)
}

// Window groups rows into group windows (PyFlink's window); GroupBy with
// the window's alias must follow.
func (t *Table) Window(w *GroupWindow) *GroupWindowedTable {
	return &GroupWindowedTable{t: t, w: w}
}

// OverWindow defines over windows for aggregates that do not collapse rows
// (PyFlink's over_window); Select with Expression.Over follows, and each
// window needs an Alias and an OrderBy. In streaming mode the order must
// be an ascending time attribute (the rowtime or proctime column), as in
// Flink; another order is reported when the table is executed or
// explained ("OVER windows' ordering in stream mode must be defined on a
// time attribute"). In batch mode any sortable column may order the window,
// as Flink's batch over aggregation allows.
func (t *Table) OverWindow(windows ...*OverWindow) *OverWindowedTable {
	return &OverWindowedTable{t: t, ws: windows}
}
