package binder

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// ptfFunction returns the process table function a FROM item calls, or
// nil when it calls another kind of function.
func (b *binder) ptfFunction(t *sql.TableFunc) *expr.Function {
	if t.Call == nil || t.Lateral {
		return nil
	}
	if len(t.Call.Name.Parts) == 1 {
		switch strings.ToUpper(t.Call.Name.Parts[0].Name) {
		case "TUMBLE", "HOP", "CUMULATE", "SESSION":
			return nil
		}
	}
	if f := b.lookupFunctionIn(t.Call, &scope{}); f.Kind == expr.ProcessTableKind && f.Process != nil {
		return f
	}
	return nil
}

// processTableFunc binds a call of a process table function in FROM,
// f(r => TABLE t PARTITION BY k, i => 1, on_time => DESCRIPTOR(ts), uid
// => 'x') or positionally, with Flink's checks and messages.
func (b *binder) processTableFunc(t *sql.TableFunc, f *expr.Function, outer *scope) (plan.Node, *scope) {
	def := f.Process
	name := t.Call.Name.Parts[len(t.Call.Name.Parts)-1].Name
	if err := def.Validate(); err != nil {
		b.failAt(t.Call, "%v", err)
	}
	// the parameters: the declared ones, then on_time and uid
	params := make([]string, 0, len(def.Args)+2)
	for _, a := range def.Args {
		params = append(params, a.Name)
	}
	params = append(params, expr.PTFReservedArgs...)
	args := map[string]sql.Expr{}
	at := map[string]sql.Node{}
	named := false
	for i, a := range t.Call.Args {
		if na, ok := a.(*sql.NamedArg); ok {
			named = true
			key := ""
			for _, p := range params {
				if strings.EqualFold(p, na.Name.Name) {
					key = p
				}
			}
			if key == "" {
				// Flink ignores a named argument the signature does not know
				continue
			}
			if _, dup := args[key]; dup {
				b.failAt(na, "Argument '%s' is given more than once", key)
			}
			args[key], at[key] = na.Value, na
			continue
		}
		if named {
			b.failAt(a, "All arguments after a named argument must be named")
		}
		if i >= len(params) {
			b.failAt(a, "Invalid number of arguments to function '%s'. Was expecting %d arguments", name, len(params))
		}
		args[params[i]], at[params[i]] = a, a
	}

	spec := &opspec.PTFSpec{Name: name, Def: def, TimeCol: -1}
	var in plan.Node = &plan.Values{Rows: [][]expr.Expr{{}}}
	var insc *scope
	tableIdx := def.TableArg()
	var invocation []string
	for i, a := range def.Args {
		v, given := args[a.Name]
		if !a.Table {
			spec.ScalarNames = append(spec.ScalarNames, a.Name)
			if !given {
				if !a.Optional {
					b.failAt(t.Call, "Missing argument '%s' of function '%s'", a.Name, name)
				}
				spec.Scalars = append(spec.Scalars, nil)
				invocation = append(invocation, "DEFAULT()")
				continue
			}
			if _, ok := v.(*sql.TableArg); ok {
				b.failAt(at[a.Name], "Invalid argument value. Argument '%s' expects a scalar value, not a table.", a.Name)
			}
			if a.Descriptor {
				d, ok := v.(*sql.Descriptor)
				if !ok || len(d.Columns) != 1 {
					b.failAt(v, "Argument '%s' of function '%s' must be a descriptor of one name: DESCRIPTOR(name)", a.Name, name)
				}
				spec.Scalars = append(spec.Scalars, d.Columns[0].Name)
				invocation = append(invocation, "DESCRIPTOR(_UTF-16LE'"+d.Columns[0].Name+"')")
				continue
			}
			x := b.expr(v, &scope{})
			if !expr.IsConstant(x) {
				b.failAt(v, "Argument '%s' of function '%s' must be a constant", a.Name, name)
			}
			if !x.Type().EqualsIgnoreNull(a.Type) {
				if x.Type().Root != types.Null && !expr.SupportsImplicitCast(x.Type(), a.Type) && !(x.Type().IsString() && a.Type.IsString()) {
					b.failAt(v, "Invalid argument type of '%s' for function '%s': expected %s, got %s", a.Name, name, a.Type, x.Type())
				}
				x = expr.ImplicitCast(x, a.Type)
			}
			val, err := expr.EvalConst(x, expr.DefaultCtx())
			if err != nil {
				b.failAt(v, "Cannot evaluate argument '%s' of function '%s': %v", a.Name, name, err)
			}
			spec.Scalars = append(spec.Scalars, val)
			invocation = append(invocation, ptfLiteral(val))
			continue
		}
		ta, ok := v.(*sql.TableArg)
		if sq, isQuery := v.(*sql.SubqueryExpr); isQuery {
			// (SELECT ...) passes a query as the table, as in Calcite
			ta, ok = &sql.TableArg{Span: sq.Span, Query: sq.Query}, true
		}
		if !given {
			b.failAt(t.Call, "Missing argument '%s' of function '%s': it expects a table (TABLE t)", a.Name, name)
		}
		if !ok {
			b.failAt(at[a.Name], "Invalid argument value. Argument '%s' expects a table to be passed.", a.Name)
		}
		spec.HasTable, spec.TableArg, spec.SetSemantics, spec.PassThrough = true, a.Name, a.SetSemantics, a.PassColumnsThrough
		if ta.Query != nil {
			var cols []plan.Column
			in, cols = b.query(ta.Query, outer)
			insc = scopeOf(cols, "", nil)
		} else {
			in, insc = b.tableRef(&sql.TableRef{Span: ta.Span, Name: ta.Name})
		}
		if def.UpdatingOutput && !a.SetSemantics && !def.UpdatingRowSemantics {
			b.failAt(ta, "PTFs that take table arguments with row semantics don't support updating output. Table argument '%s' of function '%s' must use set semantics.", a.Name, name)
		}
		if len(ta.PartitionBy) > 0 && !a.SetSemantics {
			// Calcite's validator points at the whole call
			b.failAt(t.Call, "Only tables with set semantics may be partitioned. Invalid PARTITION BY clause in the %d-th operand of table function '%s'", i, name)
		}
		if len(ta.OrderBy) > 0 {
			b.failAt(ta.OrderBy[0], "ORDER BY clause is currently not supported.")
		}
		inv := "TABLE(#0)"
		var keys []string
		for _, p := range ta.PartitionBy {
			id, ok := p.(*sql.Identifier)
			idx := -1
			if ok {
				var amb bool
				idx, _, amb = insc.resolve(identNames(id.Parts))
				if amb {
					idx = -1
				}
			}
			if idx < 0 {
				b.failAt(p, "Invalid column '%s' for PARTITION BY clause. Available columns are: [%s]", ptfColumnName(p), strings.Join(insc.names(), ", "))
			}
			spec.PartitionKeys = append(spec.PartitionKeys, idx)
			keys = append(keys, fmt.Sprintf("$%d", idx))
		}
		if len(keys) > 0 {
			inv += " PARTITION BY(" + strings.Join(keys, ", ") + ")"
		}
		if a.SetSemantics && len(keys) == 0 {
			b.failAt(ta, "Table argument '%s' requires a PARTITION BY clause for parallel processing.", a.Name)
		}
		invocation = append(invocation, inv)
	}
	// on_time
	inCols := in.Columns()
	if v, ok := args["on_time"]; ok {
		d, isDesc := v.(*sql.Descriptor)
		if !isDesc {
			b.failAt(v, "The `on_time` argument must be a descriptor of a time column: on_time => DESCRIPTOR(ts)")
		}
		if tableIdx < 0 {
			b.failAt(d, "Invalid time attribute declaration. The `on_time` argument needs a table argument.")
		}
		var unknown, found []string
		for _, c := range d.Columns {
			idx, _, amb := insc.resolve([]string{c.Name})
			if idx < 0 || amb {
				unknown = append(unknown, c.Name)
				continue
			}
			found = append(found, c.Name)
			spec.TimeCol = idx
		}
		if len(unknown) > 0 {
			b.failAt(d, "Invalid time attribute declaration. Each column in the `on_time` argument must reference at least one column in one of the table arguments. Unknown references: [%s]", strings.Join(unknown, ", "))
		}
		if len(found) > 1 {
			b.failAt(d, "Ambiguous time attribute found. The `on_time` argument must reference at most one column in a table argument. Currently, the columns in `on_time` point to both '%s' and '%s' in table argument '%s'.", found[0], found[1], spec.TableArg)
		}
		if len(found) == 1 {
			tt := inCols[spec.TimeCol].Type
			if tt.Root != types.TimestampRoot && tt.Root != types.TimestampLTZRoot || tt.Precision > 3 {
				b.failAt(d, "Unsupported data type for time attribute '%s': the `on_time` column must be of type TIMESTAMP(3) or TIMESTAMP_LTZ(3), but is %s.", found[0], tt)
			}
			invocation = append(invocation, "DESCRIPTOR(_UTF-16LE'"+found[0]+"')")
		} else {
			invocation = append(invocation, "DESCRIPTOR()")
		}
	} else {
		if tableIdx >= 0 && def.Args[tableIdx].RequireOnTime {
			b.failAt(t.Call, "Table argument '%s' requires a time attribute. Please provide one using the implicit `on_time` argument. For example: myFunction(..., on_time => DESCRIPTOR(`my_timestamp`)", spec.TableArg)
		}
		invocation = append(invocation, "DEFAULT()")
	}
	// uid
	if v, ok := args["uid"]; ok {
		lit, isLit := v.(*sql.StringLit)
		s := sql.Format(v)
		if isLit {
			s = lit.Value
		}
		if !isLit || !expr.ValidPTFUID(lit.Value) {
			b.failAt(v, "Invalid unique identifier for process table function. The `uid` argument must be a string literal that follows the pattern [a-zA-Z_][a-zA-Z-_0-9]*. But found: %s", s)
		}
		spec.UID = lit.Value
		invocation = append(invocation, "_UTF-16LE'"+lit.Value+"'")
	} else {
		invocation = append(invocation, "DEFAULT()")
	}
	spec.Invocation = name + "(" + strings.Join(invocation, ", ") + ")"

	if def.Derive != nil {
		fields := make([]types.Field, len(inCols))
		for i, c := range inCols {
			fields[i] = types.Field{Name: c.Name, Type: c.Type}
		}
		byName := map[string]any{}
		for i, n := range spec.ScalarNames {
			byName[n] = spec.Scalars[i]
		}
		out, newFn, err := def.Derive(fields, spec.PartitionKeys, byName)
		if err != nil {
			// Flink's type inference reports these without a position
			b.fail(err)
		}
		d := *def
		d.Output, d.New, d.Derive = out, newFn, nil
		def, spec.Def = &d, &d
	}
	// the output columns
	var cols []plan.Column
	switch {
	case spec.PassThrough:
		cols = append(cols, inCols...)
	case spec.SetSemantics:
		for _, k := range spec.PartitionKeys {
			cols = append(cols, inCols[k])
		}
	}
	for i := range cols {
		cols[i].Type = cols[i].Type.WithTimeAttr(types.NoTimeAttr)
	}
	for _, o := range def.Output {
		cols = append(cols, plan.Column{Name: o.Name, Type: o.Type.WithTimeAttr(types.NoTimeAttr)})
	}
	if spec.TimeCol >= 0 {
		tt := inCols[spec.TimeCol].Type.WithNullable(true)
		cols = append(cols, plan.Column{Name: "rowtime", Type: tt.WithTimeAttr(types.Rowtime)})
	}
	seen := map[string]bool{}
	for _, c := range cols {
		l := strings.ToLower(c.Name)
		if seen[l] {
			b.failAt(t.Call, "Duplicate column name '%s' in the output of process table function '%s': a function output column has the name of a passed-through column", c.Name, name)
		}
		seen[l] = true
	}
	var n plan.Node = &plan.ProcessTableFunction{Input: in, Spec: spec, Cols: cols}
	alias := ""
	if t.Alias != nil {
		alias = t.Alias.Name
	}
	if len(t.Columns) > 0 {
		if len(t.Columns) != len(cols) {
			b.failAt(t, "List of column aliases must have same degree as table; table has %d columns, whereas alias list has %d columns", len(cols), len(t.Columns))
		}
		n, cols = renameColumns(n, identNames(t.Columns))
	}
	return n, scopeOf(cols, alias, nil)
}

// ptfLiteral renders a scalar argument as Calcite prints a literal in an
// invocation.
func ptfLiteral(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "_UTF-16LE'" + strings.ReplaceAll(x, "'", "''") + "'"
	case *types.Map:
		items := make([]string, 0, 2*x.Len())
		for i, k := range x.Keys {
			items = append(items, ptfLiteral(k), ptfLiteral(x.Values[i]))
		}
		return "MAP(" + strings.Join(items, ", ") + ")"
	}
	return types.FormatValue(v)
}

// ptfColumnName is a PARTITION BY item as Flink's message names it.
func ptfColumnName(e sql.Expr) string {
	if id, ok := e.(*sql.Identifier); ok {
		return strings.Join(identNames(id.Parts), ".")
	}
	return sql.Format(e)
}
