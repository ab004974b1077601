package binder

import (
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// windowTVFParams lists each window TVF's parameters in positional order
// (Flink's SqlWindowTableFunction operand names).
var windowTVFParams = map[string][]string{
	"TUMBLE":   {"DATA", "TIMECOL", "SIZE", "OFFSET"},
	"HOP":      {"DATA", "TIMECOL", "SLIDE", "SIZE", "OFFSET"},
	"CUMULATE": {"DATA", "TIMECOL", "STEP", "SIZE", "OFFSET"},
	"SESSION":  {"DATA", "TIMECOL", "GAP"},
}

// windowTableFunc binds TABLE(TUMBLE|HOP|CUMULATE|SESSION(...)); ok is
// false for other table functions.
func (b *binder) windowTableFunc(t *sql.TableFunc, outer *scope) (plan.Node, *scope, bool) {
	if t.Call == nil || len(t.Call.Name.Parts) != 1 {
		return nil, nil, false
	}
	name := strings.ToUpper(t.Call.Name.Parts[0].Name)
	params, ok := windowTVFParams[name]
	if !ok {
		return nil, nil, false
	}
	// arrange positional and named arguments
	args := map[string]sql.Expr{}
	for i, a := range t.Call.Args {
		if na, ok := a.(*sql.NamedArg); ok {
			key := strings.ToUpper(na.Name.Name)
			known := false
			for _, p := range params {
				if p == key {
					known = true
				}
			}
			if !known {
				b.failAt(na, "Param '%s' not found in function '%s'; did you mean one of: %s", na.Name.Name, name, strings.Join(params, ", "))
			}
			args[key] = na.Value
			continue
		}
		if i >= len(params) {
			b.failAt(a, "Invalid number of arguments to function '%s'. Was expecting %d arguments", name, len(params))
		}
		args[params[i]] = a
	}
	if sq, isQuery := args["DATA"].(*sql.SubqueryExpr); isQuery {
		// (SELECT ...) passes a query as the table, as in Calcite
		args["DATA"] = &sql.TableArg{Span: sq.Span, Query: sq.Query}
	}
	data, ok := args["DATA"].(*sql.TableArg)
	if !ok {
		b.failAt(t.Call, "The first operand of %s must be a table: TABLE t", name)
	}
	desc, ok := args["TIMECOL"].(*sql.Descriptor)
	if !ok || len(desc.Columns) != 1 {
		b.failAt(t.Call, "The second operand of %s must be a descriptor of one time attribute column: DESCRIPTOR(col)", name)
	}
	// the table argument
	var in plan.Node
	var insc *scope
	if data.Query != nil {
		var cols []plan.Column
		in, cols = b.query(data.Query, outer)
		insc = scopeOf(cols, "", nil)
	} else {
		in, insc = b.tableRef(&sql.TableRef{Span: data.Span, Name: data.Name})
	}
	idx, _, amb := insc.resolve([]string{desc.Columns[0].Name})
	if amb || idx < 0 {
		b.failAt(desc.Columns[0], "Column '%s' not found in the table argument of %s%s", desc.Columns[0].Name, name, didYouMean(suggest(desc.Columns[0].Name, insc.names())))
	}
	timeType := insc.fields[idx].typ
	if !timeType.IsTimestamp() {
		b.failAt(desc, "The window function %s requires the timecol to be a time attribute type, but is %s.", windowSignature(name), timeType)
	}
	if b.ctx.Streaming && timeType.TimeAttr == types.NoTimeAttr {
		b.failAt(desc, "The window function %s requires the timecol to be a time attribute type, but is %s.", windowSignature(name), timeType)
	}
	spec := opspec.WindowSpec{}
	switch name {
	case "TUMBLE":
		spec.Kind = opspec.TumbleWindow
		spec.Size = b.windowInterval(args["SIZE"], name, "SIZE", t.Call)
	case "HOP":
		spec.Kind = opspec.HopWindow
		spec.Slide = b.windowInterval(args["SLIDE"], name, "SLIDE", t.Call)
		spec.Size = b.windowInterval(args["SIZE"], name, "SIZE", t.Call)
	case "CUMULATE":
		spec.Kind = opspec.CumulateWindow
		spec.Slide = b.windowInterval(args["STEP"], name, "STEP", t.Call)
		spec.Size = b.windowInterval(args["SIZE"], name, "SIZE", t.Call)
	case "SESSION":
		spec.Kind = opspec.SessionWindow
		spec.Gap = b.windowInterval(args["GAP"], name, "GAP", t.Call)
	}
	if off, ok := args["OFFSET"]; ok {
		spec.Offset = b.windowInterval(off, name, "OFFSET", t.Call)
	}
	spec.Proctime = timeType.IsProctime()
	if spec.Proctime || timeType.Root == types.TimestampLTZRoot {
		spec.Zone = b.zone()
		if spec.Zone == time.UTC {
			spec.Zone = nil
		}
	}
	if err := spec.Validate(); err != nil {
		b.failAt(t.Call, "%v", err)
	}
	var pkeys []int
	for _, p := range data.PartitionBy {
		if name != "SESSION" {
			b.failAt(p, "Only SESSION window table function supports PARTITION BY")
		}
		e := b.expr(p, insc)
		r, ok := e.(*expr.InputRef)
		if !ok {
			b.failAt(p, "PARTITION BY of a window table function must list columns")
		}
		pkeys = append(pkeys, r.Index)
	}
	cols := append([]plan.Column(nil), in.Columns()...)
	cols[idx] = plan.Column{Name: cols[idx].Name, Type: cols[idx].Type.WithTimeAttr(types.NoTimeAttr)}
	cols = append(cols, plan.WindowColumns(timeType)...)
	var n plan.Node = &plan.WindowTVF{Input: in, Window: spec, TimeCol: idx, PartitionKeys: pkeys, Cols: cols, At: b.errAt(t.Call, "")}
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
	return n, scopeOf(cols, alias, nil), true
}

func windowSignature(name string) string {
	switch name {
	case "HOP":
		return "HOP(TABLE table_name, DESCRIPTOR(timecol), datetime interval, datetime interval[, datetime interval])"
	case "CUMULATE":
		return "CUMULATE(TABLE table_name, DESCRIPTOR(timecol), datetime interval, datetime interval[, datetime interval])"
	case "SESSION":
		return "SESSION(TABLE table_name [PARTITION BY (keycols, ...)], DESCRIPTOR(timecol), datetime interval)"
	}
	return "TUMBLE(TABLE table_name, DESCRIPTOR(timecol), datetime interval[, datetime interval])"
}

// windowInterval evaluates a constant INTERVAL DAY TO SECOND argument to
// milliseconds.
func (b *binder) windowInterval(e sql.Expr, fn, param string, at sql.Node) int64 {
	if e == nil {
		b.failAt(at, "Missing parameter %s of window function %s", param, fn)
	}
	x := b.expr(e, &scope{})
	if x.Type().Root != types.IntervalDayTimeRoot || !expr.IsConstant(x) {
		b.failAt(e, "The %s parameter of %s must be a constant INTERVAL DAY TO SECOND, got %s", param, fn, x.Type())
	}
	v, err := expr.EvalConst(x, expr.DefaultCtx())
	if err != nil || v == nil {
		b.failAt(e, "Cannot evaluate the %s parameter of %s: %v", param, fn, err)
	}
	return int64(v.(time.Duration) / time.Millisecond)
}
