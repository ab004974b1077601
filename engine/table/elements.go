package table

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// FromElements builds a table from Go values (PyFlink's from_elements
// without a schema, or with a list of field names). Each element is one
// row:
//
//   - a composite value is unboxed into columns: []any (a tuple, columns
//     _1, _2, ...), *types.Row (named by its Names, else _1, ...), a
//     struct or pointer to struct (its exported fields, named by the
//     `table:"name"` tag or the field name), map[string]any (fields in
//     key order);
//   - any other value is a one-column row (column _1).
//
// Column types are inferred from all elements and merged (see Lit for the
// Go value of each type; Go int is BIGINT, as a Python int is; a time.Time
// is a TIMESTAMP(9) of its wall clock, where PyFlink infers a datetime as
// TIMESTAMP_LTZ(6), and must lie in 1677..2262 — declare another type,
// such as TIMESTAMP_LTZ(6) for instants or TIMESTAMP(6) for the zero time,
// with FromElementsWithType); columns whose values are all nil cannot be
// typed and fail. fieldNames, when given, rename the columns and must
// match their number. All elements must
// have the same shape. Elements that are Expressions (such as Row(1,
// "abc")) make a VALUES table typed by SQL's rules.
func (t *TableEnvironment) FromElements(elements []any, fieldNames ...string) (*Table, error) {
	if len(elements) == 0 {
		return nil, errorf("FromElements needs at least one element to infer the schema; use FromElementsWithType for an empty table")
	}
	if exprs, ok, err := allExpressions(elements); ok || err != nil {
		if err != nil {
			return nil, err
		}
		return t.fromValues(exprs, nil, fieldNames)
	}
	rows, names, err := unbox(elements)
	if err != nil {
		return nil, err
	}
	width := len(rows[0])
	colTypes := make([]*types.DataType, width)
	for c := 0; c < width; c++ {
		var ts []*types.DataType
		for _, r := range rows {
			vt, err := inferValueType(r[c])
			if err != nil {
				return nil, fmt.Errorf("column %d: %w", c+1, err)
			}
			ts = append(ts, vt)
		}
		m := mergeTypes(ts)
		if m == nil {
			return nil, fmt.Errorf("the values of column %s have incompatible types", names[c])
		}
		if m.Root == types.Null {
			return nil, fmt.Errorf("Some of types cannot be determined: column %s holds only nil values; give a schema with FromElementsWithType", names[c])
		}
		colTypes[c] = m.AsNullable()
	}
	if len(fieldNames) > 0 {
		if len(fieldNames) != width {
			return nil, fmt.Errorf("%d field names were given for %d columns", len(fieldNames), width)
		}
		names = fieldNames
	}
	fields := make([]types.Field, width)
	for i := range fields {
		fields[i] = types.NewField(names[i], colTypes[i])
	}
	return t.fromRows(rows, types.RowType(fields...), true)
}

// FromElementsWithType builds a table from Go values with an explicit row
// type (PyFlink's from_elements with a DataTypes.ROW schema). A non-ROW
// type makes a one-column table named "value". By default each value must
// match its field's type (nullability included); with the option
// VerifySchema(false) values are only converted, and a value that cannot
// be converted still fails.
func (t *TableEnvironment) FromElementsWithType(elements []any, rowType *types.DataType, opts ...ElementsOption) (*Table, error) {
	o := elementsOptions{verify: true}
	for _, f := range opts {
		if f != nil {
			f(&o)
		}
	}
	verify := o.verify
	if rowType == nil {
		return nil, errorf("FromElementsWithType: nil row type")
	}
	if err := checkDataType(rowType); err != nil {
		return nil, fmt.Errorf("FromElementsWithType: %w", err)
	}
	if rowType.Root != types.RowRoot {
		rowType = types.RowType(types.NewField("value", rowType))
		wrapped := make([]any, len(elements))
		for i, e := range elements {
			wrapped[i] = []any{e}
		}
		elements = wrapped
	}
	if exprs, ok, err := allExpressions(elements); ok || err != nil {
		if err != nil {
			return nil, err
		}
		return t.fromValues(exprs, rowType, nil)
	}
	var rows [][]any
	for i, e := range elements {
		vals, named, err := rowValues(e)
		if err != nil || !isComposite(e) {
			vals, named = []any{e}, nil
		}
		if named != nil {
			byName := map[string]any{}
			for k, n := range named {
				byName[n] = vals[k]
			}
			vals = make([]any, len(rowType.Fields))
			for k, f := range rowType.Fields {
				vals[k] = byName[f.Name]
			}
		}
		if len(vals) != len(rowType.Fields) {
			return nil, fmt.Errorf("element %d has %d fields, the schema %s has %d", i, len(vals), rowType, len(rowType.Fields))
		}
		rows = append(rows, vals)
	}
	return t.fromRows(rows, rowType, verify)
}

// ElementsOption is an option of FromElementsWithType (PyFlink's keyword
// arguments of from_elements).
type ElementsOption func(*elementsOptions)

type elementsOptions struct{ verify bool }

// VerifySchema turns checking each value against its field's type on or
// off; it is on by default (PyFlink's verify_schema).
func VerifySchema(verify bool) ElementsOption {
	return func(o *elementsOptions) { o.verify = verify }
}

// allExpressions reports whether all elements are Expressions (an error
// when only some are).
func allExpressions(elements []any) ([]Expression, bool, error) {
	var out []Expression
	for _, e := range elements {
		if x, ok := e.(Expression); ok {
			out = append(out, x)
		}
	}
	switch {
	case len(out) == 0:
		return nil, false, nil
	case len(out) != len(elements):
		return nil, false, errorf("FromElements: either all elements or none may be Expressions")
	}
	return out, true, nil
}

// unbox turns elements into rows of values with their implied names.
func unbox(elements []any) ([][]any, []string, error) {
	var rows [][]any
	var names []string
	for i, e := range elements {
		var vals []any
		var named []string
		if isComposite(e) {
			var err error
			vals, named, err = rowValues(e)
			if err != nil {
				return nil, nil, err
			}
			if r, ok := e.(*types.Row); ok && len(r.Names) == len(r.Values) {
				named = r.Names
			}
		} else {
			vals = []any{e}
		}
		if i == 0 {
			names = named
			if names == nil {
				for k := range vals {
					names = append(names, fmt.Sprintf("_%d", k+1))
				}
			}
		} else if len(vals) != len(rows[0]) {
			return nil, nil, fmt.Errorf("element %d has %d fields, element 0 has %d: all elements must have the same shape", i, len(vals), len(rows[0]))
		}
		rows = append(rows, vals)
	}
	return rows, names, nil
}

// fromRows builds a VALUES table of converted rows.
func (t *TableEnvironment) fromRows(rows [][]any, rowType *types.DataType, verify bool) (*Table, error) {
	cols := make([]plan.Column, len(rowType.Fields))
	for i, f := range rowType.Fields {
		cols[i] = plan.Column{Name: f.Name, Type: f.Type}
	}
	out := make([][]expr.Expr, len(rows))
	for i, r := range rows {
		row := make([]expr.Expr, len(r))
		for c, v := range r {
			ft := rowType.Fields[c].Type
			cv, err := convertValue(v, ft)
			if err != nil {
				return nil, fmt.Errorf("element %d, field %s: %w", i, rowType.Fields[c].Name, err)
			}
			if verify && cv == nil && !ft.Nullable {
				return nil, fmt.Errorf("element %d, field %s: None (nil) is not allowed for the NOT NULL type %s", i, rowType.Fields[c].Name, ft)
			}
			row[c] = &expr.Literal{Value: cv, T: ft}
		}
		out[i] = row
	}
	return &Table{env: t, node: &plan.Values{Rows: out, Cols: cols}}, nil
}

// fromValues builds a table from row Expressions (Flink's fromValues).
func (t *TableEnvironment) fromValues(rows []Expression, rowType *types.DataType, names []string) (*Table, error) {
	v := &sql.Values{}
	var deps *exprDeps
	for _, r := range rows {
		n, err := r.sqlNode()
		if err != nil {
			return nil, err
		}
		deps = deps.merge(r.deps())
		v.Rows = append(v.Rows, n)
	}
	q := &sql.Query{Body: v}
	tbl := t.derive(q, nil, deps)
	if tbl.err != nil {
		return nil, tbl.err
	}
	cols := tbl.columns()
	switch {
	case rowType != nil:
		if len(rowType.Fields) != len(cols) {
			return nil, fmt.Errorf("the rows have %d fields, the schema %s has %d", len(cols), rowType, len(rowType.Fields))
		}
		var items []Expression
		for i, f := range rowType.Fields {
			items = append(items, Col(cols[i].Name).Cast(f.Type).As(f.Name))
		}
		tbl = tbl.Select(items...)
	case len(names) > 0:
		tbl = tbl.Alias(names[0], names[1:]...)
	default:
		var renamed []string
		for i := range cols {
			renamed = append(renamed, fmt.Sprintf("f%d", i))
		}
		tbl = tbl.Alias(renamed[0], renamed[1:]...)
	}
	return tbl, tbl.err
}
