package binder

import (
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// boolExpr binds a condition and checks that it is BOOLEAN.
func (b *binder) boolExpr(e sql.Expr, sc *scope, clause string) expr.Expr {
	x := b.expr(e, sc)
	t := x.Type()
	if t.Root != types.Boolean && t.Root != types.Null {
		b.failAt(e, "%s clause must be a condition; expression of type %s is not BOOLEAN", clause, t)
	}
	return x
}

// call resolves a built-in function or operator by name and reports type
// errors at node n.
func (b *binder) call(n sql.Node, name string, args ...expr.Expr) expr.Expr {
	f, ok := expr.Builtins.Lookup(name)
	if !ok {
		b.failAt(n, "No match found for function signature %s", name)
	}
	return b.resolve(n, f, name, args)
}

func (b *binder) resolve(n sql.Node, f *expr.Function, name string, args []expr.Expr) expr.Expr {
	c, err := expr.ResolveCall(f, name, args)
	if err != nil {
		var te *expr.TypeError
		if errors.As(err, &te) {
			b.failAt(n, "%s", te.Msg)
		}
		b.failAt(n, "%v", err)
	}
	return b.fold(c)
}

// fold evaluates a call whose arguments are all literals (constant
// folding) in the session time zone, keeping the call when evaluation
// fails (the error then surfaces at run time, with the row that caused it).
func (b *binder) fold(c *expr.Call) expr.Expr {
	if c.Fn == nil || c.Fn.NonDeterministic || c.T.Root == types.VariantRoot {
		// (SQL has no VARIANT literal: Flink's plans keep PARSE_JSON('...'))
		return c
	}
	for _, a := range c.Args {
		l, ok := a.(*expr.Literal)
		if !ok || l.T.Root == types.Symbol && len(c.Args) == 1 {
			return c
		}
	}
	v, err := expr.EvalConst(c, &expr.Ctx{Zone: b.zone()})
	if err != nil {
		return c
	}
	return &expr.Literal{Value: v, T: c.T}
}

// expr binds an expression in a scope. In an aggregating scope, aggregate
// calls become references to the aggregate's output and sub-expressions
// equal to a GROUP BY expression become references to the key.
func (b *binder) expr(e sql.Expr, sc *scope) expr.Expr {
	if sc.match != nil {
		if r := b.matchRef(e, sc.match); r != nil {
			return r
		}
	}
	if sc.agg != nil {
		if r := b.aggRef(e, sc); r != nil {
			return r
		}
	}
	switch x := e.(type) {
	case *sql.Identifier:
		return b.identifier(x, sc)
	case *sql.NumberLit:
		return b.number(x, false)
	case *sql.StringLit:
		v := x.Value
		if x.Unicode {
			v = sql.UnescapeUnicode(v)
		}
		return &expr.Literal{Value: v, T: types.CharType(len([]rune(v))).NotNull()}
	case *sql.BinaryLit:
		bs, err := hex.DecodeString(x.Hex)
		if err != nil {
			b.failAt(x, "Binary literal string must contain an even number of hexits")
		}
		return &expr.Literal{Value: bs, T: types.BinaryType(len(bs)).NotNull()}
	case *sql.BoolLit:
		return &expr.Literal{Value: x.Value, T: types.BooleanType().NotNull()}
	case *sql.NullLit:
		return &expr.Literal{Value: nil, T: types.NullType()}
	case *sql.UnknownLit:
		return &expr.Literal{Value: nil, T: types.BooleanType()}
	case *sql.DateTimeLit:
		return b.datetimeLit(x)
	case *sql.IntervalLit:
		return b.intervalLit(x)
	case *sql.UnaryExpr:
		if n, ok := x.X.(*sql.NumberLit); ok && x.Op == "-" && n.Kind == sql.NumInteger && strings.TrimLeft(n.Text, "0") == minInt64Magnitude {
			// Calcite's parser folds the sign into the literal: BIGINT
			return &expr.Literal{Value: int64(math.MinInt64), T: types.BigIntType().NotNull()}
		}
		var arg expr.Expr
		if n, ok := x.X.(*sql.NumberLit); ok && x.Op == "-" {
			arg = b.number(n, true)
		} else {
			arg = b.expr(x.X, sc)
		}
		switch x.Op {
		case "NOT":
			return b.call(x, "NOT", arg)
		case "-":
			return b.call(x, "NEGATE", arg)
		}
		return b.call(x, "UNARY_PLUS", arg)
	case *sql.BinaryExpr:
		return b.binary(x, sc)
	case *sql.IsExpr:
		arg := b.expr(x.X, sc)
		if strings.HasPrefix(x.What, "JSON") {
			isJSON := b.call(x, "IS "+x.What, arg)
			if x.Not {
				return b.call(x, "NOT", isJSON)
			}
			return isJSON
		}
		name := "IS "
		if x.Not {
			name += "NOT "
		}
		name += x.What
		return b.call(x, name, arg)
	case *sql.IsDistinctFromExpr:
		name := "IS DISTINCT FROM"
		if x.Not {
			name = "IS NOT DISTINCT FROM"
		}
		return b.call(x, name, b.expr(x.X, sc), b.expr(x.Y, sc))
	case *sql.LikeExpr:
		args := []expr.Expr{b.expr(x.X, sc), b.expr(x.Pattern, sc)}
		if x.Escape != nil {
			args = append(args, b.expr(x.Escape, sc))
		}
		name := x.Op
		if x.Op == "ILIKE" {
			args[0] = b.call(x, "LOWER", args[0])
			args[1] = b.call(x, "LOWER", args[1])
			name = "LIKE"
		}
		if x.Not {
			name = "NOT " + name
		}
		return b.call(x, name, args...)
	case *sql.InExpr:
		if x.Query != nil {
			return b.inSubquery(x, sc)
		}
		args := []expr.Expr{b.expr(x.X, sc)}
		for _, it := range x.List {
			args = append(args, b.expr(it, sc))
		}
		in := b.call(x, "IN", args...)
		if x.Not {
			return b.call(x, "NOT", in)
		}
		return in
	case *sql.BetweenExpr:
		v, lo, hi := b.expr(x.X, sc), b.expr(x.Low, sc), b.expr(x.High, sc)
		between := b.call(x, "AND", b.call(x, ">=", v, lo), b.call(x, "<=", v, hi))
		if x.Symmetric == "SYMMETRIC" {
			between = b.call(x, "OR", between, b.call(x, "AND", b.call(x, ">=", v, hi), b.call(x, "<=", v, lo)))
		}
		if x.Not {
			return b.call(x, "NOT", between)
		}
		return between
	case *sql.CastExpr:
		arg := b.expr(x.X, sc)
		t := b.dataType(x.Type)
		c, err := expr.NewCast(arg, t, x.Try)
		if err != nil {
			b.failAt(x, "%v", err)
		}
		if call, ok := c.(*expr.Call); ok {
			return b.fold(call)
		}
		return c
	case *sql.CaseExpr:
		var args []expr.Expr
		var operand expr.Expr
		if x.Operand != nil {
			operand = b.expr(x.Operand, sc)
		}
		for _, w := range x.Whens {
			cond := b.expr(w.Cond, sc)
			if operand != nil {
				cond = b.call(w, "=", operand, cond)
				for _, m := range w.More {
					cond = b.call(w, "OR", cond, b.call(m, "=", operand, b.expr(m, sc)))
				}
			}
			args = append(args, cond, b.expr(w.Result, sc))
		}
		if x.Else != nil {
			args = append(args, b.expr(x.Else, sc))
		}
		return b.call(x, "CASE", args...)
	case *sql.FuncCall:
		return b.funcCall(x, sc)
	case *sql.Symbol:
		return expr.Symbol(x.Name)
	case *sql.RowExpr:
		args := make([]expr.Expr, len(x.Items))
		for i, it := range x.Items {
			args[i] = b.expr(it, sc)
		}
		return b.call(x, "ROW", args...)
	case *sql.ArrayExpr:
		if x.Query != nil {
			b.failAt(x, "ARRAY(subquery) is not supported yet")
		}
		args := make([]expr.Expr, len(x.Items))
		for i, it := range x.Items {
			args[i] = b.expr(it, sc)
		}
		return b.call(x, "ARRAY", args...)
	case *sql.MapExpr:
		if x.Query != nil {
			b.failAt(x, "MAP(subquery) is not supported yet")
		}
		args := make([]expr.Expr, len(x.Items))
		for i, it := range x.Items {
			args[i] = b.expr(it, sc)
		}
		return b.call(x, "MAP", args...)
	case *sql.IndexExpr:
		return b.call(x, "ITEM", b.expr(x.X, sc), b.expr(x.Index, sc))
	case *sql.FieldExpr:
		return b.fieldAccess(x, b.expr(x.X, sc), x.Field.Name)
	case *sql.Star:
		b.failAt(x, "'*' is only allowed in a select list or COUNT(*)")
	case *sql.SubqueryExpr:
		return b.scalarSubquery(x, sc)
	case *sql.QuantifiedExpr:
		return b.quantified(x, sc)
	case *sql.ExistsExpr:
		return b.existsExpr(x, sc)
	case *sql.ParamExpr:
		b.failAt(x, "Dynamic parameters are not supported")
	}
	b.failAt(e, "Unsupported expression: %s", e)
	return nil
}

// identifier resolves a column reference (with nested field access).
func (b *binder) identifier(id *sql.Identifier, sc *scope) expr.Expr {
	parts := identNames(id.Parts)
	idx, rest, amb := sc.resolve(parts)
	if amb {
		b.failAt(id, "Column '%s' is ambiguous", strings.Join(parts, "."))
	}
	if idx < 0 {
		if e := b.resolveOuter(id, parts); e != nil {
			return e
		}
		name := parts[len(parts)-1]
		if len(parts) > 1 {
			// a qualifier that names no table
			q := parts[:len(parts)-1]
			known := false
			for _, r := range sc.rels {
				if r.matches(q) {
					known = true
				}
			}
			if !known {
				b.failAt(id, "Table '%s' not found", strings.Join(q, "."))
			}
			b.failAt(id, "Column '%s' not found in table '%s'%s", name, strings.Join(q, "."), didYouMean(suggest(name, sc.names())))
		}
		b.failAt(id, "Column '%s' not found in any table%s", name, didYouMean(suggest(name, sc.names())))
	}
	f := sc.fields[idx]
	var e expr.Expr = &expr.InputRef{Index: idx, Name: f.name, T: f.typ}
	for _, r := range rest {
		e = b.fieldAccess(id, e, r)
	}
	return e
}

func (b *binder) fieldAccess(n sql.Node, e expr.Expr, name string) expr.Expr {
	t := e.Type()
	if t.Root != types.RowRoot {
		b.failAt(n, "Column '%s' not found; %s is not a ROW", name, e)
	}
	if t.FieldIndex(name) < 0 {
		var names []string
		for _, f := range t.Fields {
			names = append(names, f.Name)
		}
		b.failAt(n, "Field '%s' not found in %s%s", name, t, didYouMean(suggest(name, names)))
	}
	return b.call(n, "GET_FIELD", e, &expr.Literal{Value: name, T: types.StringType().NotNull()})
}

func (b *binder) binary(x *sql.BinaryExpr, sc *scope) expr.Expr {
	switch x.Op {
	case "AND", "OR":
		// flatten chains
		var args []expr.Expr
		var collect func(e sql.Expr)
		collect = func(e sql.Expr) {
			if be, ok := e.(*sql.BinaryExpr); ok && be.Op == x.Op {
				collect(be.X)
				collect(be.Y)
				return
			}
			args = append(args, b.expr(e, sc))
		}
		collect(x)
		return b.call(x, x.Op, args...)
	case "<=>":
		return b.call(x, "IS NOT DISTINCT FROM", b.expr(x.X, sc), b.expr(x.Y, sc))
	case "OVERLAPS":
		l, lok := x.X.(*sql.RowExpr)
		r, rok := x.Y.(*sql.RowExpr)
		if !lok || !rok || len(l.Items) != 2 || len(r.Items) != 2 {
			b.failAt(x, "OVERLAPS needs a (start, end or interval) pair on each side")
		}
		return b.call(x, "OVERLAPS", b.expr(l.Items[0], sc), b.expr(l.Items[1], sc), b.expr(r.Items[0], sc), b.expr(r.Items[1], sc))
	}
	return b.call(x, x.Op, b.expr(x.X, sc), b.expr(x.Y, sc))
}

// minInt64Magnitude is the magnitude of BIGINT's least value, the one
// unscaled value a negative literal may have beyond BIGINT's greatest.
const minInt64Magnitude = "9223372036854775808"

// number types a numeric literal as Calcite (as Flink configures it) does:
// an integer is INT, else BIGINT; a number with a fraction is DECIMAL(p, s)
// where p counts every digit written (leading zeros too: 0.908 is
// DECIMAL(4, 3), .908 DECIMAL(3, 3)) and s the digits after the point;
// "1." is an integer; one with an exponent is DOUBLE. All are NOT NULL.
// An exact literal whose digits (ignoring the point) do not fit a BIGINT
// fails with "Numeric literal '…' out of range", as Calcite's validator
// does; neg says the literal is the operand of a unary minus, which lets
// its magnitude reach 9223372036854775808.
func (b *binder) number(n *sql.NumberLit, neg bool) expr.Expr {
	text := n.Text
	kind := n.Kind
	if kind == sql.NumDecimal && strings.HasSuffix(text, ".") {
		text, kind = strings.TrimSuffix(text, "."), sql.NumInteger
	}
	if kind == sql.NumApprox {
		f, err := strconv.ParseFloat(text, 64)
		if err != nil {
			if math.IsInf(f, 0) {
				b.failAt(n, "Numeric literal '%s' out of range", n.Text)
			}
			b.failAt(n, "Invalid numeric literal '%s'", n.Text)
		}
		return &expr.Literal{Value: f, T: types.DoubleType().NotNull()}
	}
	intPart, frac, _ := strings.Cut(text, ".")
	digits := strings.TrimLeft(intPart+frac, "0")
	if len(digits) > len(minInt64Magnitude) || (len(digits) == len(minInt64Magnitude) &&
		(digits > minInt64Magnitude || (digits == minInt64Magnitude && !neg))) {
		b.failAt(n, "Numeric literal '%s' out of range", n.Text)
	}
	if kind == sql.NumInteger {
		if v, err := strconv.ParseInt(text, 10, 32); err == nil {
			return &expr.Literal{Value: int32(v), T: types.IntType().NotNull()}
		}
		if v, err := strconv.ParseInt(text, 10, 64); err == nil {
			return &expr.Literal{Value: v, T: types.BigIntType().NotNull()}
		}
		// only the magnitude of BIGINT's least value (under a minus) is left
		d, err := types.ParseDecimal(text)
		if err != nil {
			b.failAt(n, "Invalid numeric literal '%s'", n.Text)
		}
		return &expr.Literal{Value: d, T: types.DecimalType(len(digits), 0).NotNull()}
	}
	d, err := types.ParseDecimal(text)
	if err != nil {
		b.failAt(n, "Invalid decimal literal '%s'", n.Text)
	}
	p := len(intPart) + len(frac)
	if p > types.MaxDecimalPrecision {
		b.failAt(n, "Numeric literal '%s' out of range", n.Text)
	}
	return &expr.Literal{Value: d, T: types.DecimalType(p, len(frac)).NotNull()}
}

func fracDigits(s string) int {
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return 0
	}
	n := 0
	for _, c := range s[i+1:] {
		if c < '0' || c > '9' {
			break
		}
		n++
	}
	return n
}

func (b *binder) datetimeLit(x *sql.DateTimeLit) expr.Expr {
	switch x.Type {
	case "DATE":
		d, err := types.ParseDate(x.Value)
		if err != nil {
			b.failAt(x, "Illegal DATE literal '%s': not in format 'yyyy-MM-dd'", x.Value)
		}
		return &expr.Literal{Value: d, T: types.DateType().NotNull()}
	case "TIME":
		t, err := types.ParseTime(x.Value)
		if err != nil {
			b.failAt(x, "Illegal TIME literal '%s': not in format 'HH:mm:ss'", x.Value)
		}
		return &expr.Literal{Value: t, T: types.TimeType(fracDigits(x.Value)).NotNull()}
	case "TIMESTAMP", "TIMESTAMP_LTZ":
		t, err := types.ParseTimestamp(x.Value)
		if err != nil {
			b.failAt(x, "Illegal %s literal '%s': not in format 'yyyy-MM-dd HH:mm:ss'", x.Type, x.Value)
		}
		p := fracDigits(x.Value)
		if !strings.ContainsAny(strings.TrimSpace(x.Value), " T") {
			p = 0
		}
		lt := types.TimestampType(p).NotNull()
		if x.Type == "TIMESTAMP_LTZ" {
			t, lt = fromWall(t, b.zone()), types.TimestampLTZType(p).NotNull()
		}
		if err := types.CheckTimestampRange(t, lt); err != nil {
			// Flink accepts 0000..9999 at every precision; Riffle's
			// TIMESTAMP(7..9) holds int64 nanoseconds only
			b.failAt(x, "Illegal %s literal '%s': %v", x.Type, x.Value, err)
		}
		return &expr.Literal{Value: t, T: lt}
	}
	b.failAt(x, "Unsupported literal %s", x.Type)
	return nil
}

func (b *binder) zone() *time.Location {
	if b.ctx.Zone != nil {
		return b.ctx.Zone
	}
	return time.UTC
}

func fromWall(t time.Time, zone *time.Location) time.Time {
	return time.Date(t.Year(), t.Month(), t.Day(), t.Hour(), t.Minute(), t.Second(), t.Nanosecond(), zone).UTC()
}

var resolutions = map[string]types.IntervalResolution{
	"YEAR": types.ResYear, "YEAR TO MONTH": types.ResYearToMonth, "MONTH": types.ResMonth, "QUARTER": types.ResMonth,
	"DAY": types.ResDay, "DAY TO HOUR": types.ResDayToHour, "DAY TO MINUTE": types.ResDayToMinute, "DAY TO SECOND": types.ResDayToSecond,
	"HOUR": types.ResHour, "HOUR TO MINUTE": types.ResHourToMinute, "HOUR TO SECOND": types.ResHourToSecond,
	"MINUTE": types.ResMinute, "MINUTE TO SECOND": types.ResMinuteToSecond, "SECOND": types.ResSecond,
	"WEEK": types.ResDay, "MILLISECOND": types.ResSecond, "MICROSECOND": types.ResSecond, "NANOSECOND": types.ResSecond,
}

// IntervalType converts an interval qualifier to its type.
func IntervalType(q *sql.IntervalQualifier) (*types.DataType, error) {
	key := q.StartUnit
	if q.EndUnit != "" {
		key += " TO " + q.EndUnit
	}
	res, ok := resolutions[key]
	if !ok {
		return nil, fmt.Errorf("unsupported interval qualifier %s", key)
	}
	p := q.StartPrecision
	if p < 0 {
		p = 2
	}
	switch q.StartUnit {
	case "YEAR", "MONTH", "QUARTER":
		return types.IntervalYearMonthType(res, p).NotNull(), nil
	}
	f := q.FracPrecision
	if f < 0 {
		f = 6
	}
	if q.EndUnit != "SECOND" && q.StartUnit != "SECOND" {
		f = 0
	}
	return types.IntervalDayTimeType(res, p, f).NotNull(), nil
}

// lookupFunction resolves a function name through the session.
func (b *binder) lookupFunction(n *sql.FuncCall) *expr.Function {
	return b.lookupFunctionIn(n, nil)
}

// lookupFunctionIn resolves a function name through the session; when it
// is unknown and sc is not nil, the error names the arguments' type
// families as Calcite's validator does (nosuchfn(<NUMERIC>, <CHARACTER>)).
func (b *binder) lookupFunctionIn(n *sql.FuncCall, sc *scope) *expr.Function {
	parts := identNames(n.Name.Parts)
	var f *expr.Function
	var err error
	if b.ctx.Functions != nil {
		f, err = b.ctx.Functions(parts)
		if err != nil {
			b.failAt(n, "%v", err)
		}
	} else if len(parts) == 1 {
		f, _ = expr.Builtins.Lookup(parts[0])
	}
	if f == nil {
		name := strings.Join(parts, ".")
		last := parts[len(parts)-1]
		hint := ""
		// A suggestion equal to the name (a built-in of a module that is
		// not used) or for a one- or two-letter name ('f' -> 'E') misleads.
		if s := suggest(strings.ToUpper(last), expr.Builtins.Names()); len(last) >= 3 && !strings.EqualFold(s, last) {
			hint = didYouMean(s)
		}
		b.failAt(n.Name, "No match found for function signature %s(%s)%s", name, b.argSummary(n, sc), hint)
	}
	return f
}

// argSummary lists a call's argument types as Calcite's
// SqlUtil.getOperandTypes shows them in "No match found for function
// signature": the type family where the type has one (<NUMERIC>,
// <CHARACTER>, <TIMESTAMP>, <INTERVAL_DAY_TIME>), else the full type
// (<INTEGER ARRAY>). A bare NULL fails "Illegal use of 'NULL'" first, as in
// Calcite's validator; without a scope every argument is <ANY>.
func (b *binder) argSummary(n *sql.FuncCall, sc *scope) string {
	parts := make([]string, len(n.Args))
	for i, a := range n.Args {
		parts[i] = "<ANY>"
		if sc == nil {
			continue
		}
		switch a.(type) {
		case *sql.NullLit:
			b.failAt(a, "Illegal use of 'NULL'")
		case *sql.Star:
			b.failAt(a, "Unknown identifier '*'")
		}
		parts[i] = "<" + calciteFamily(b.expr(a, sc).Type()) + ">"
	}
	return strings.Join(parts, ", ")
}

// calciteFamily names a type's SqlTypeFamily, or for types without one
// (collections, rows) Calcite's full type string.
func calciteFamily(t *types.DataType) string {
	switch {
	case t.IsNumeric():
		return "NUMERIC"
	case t.IsString():
		return "CHARACTER"
	case t.IsBinary():
		return "BINARY"
	case t.IsTimestamp():
		return "TIMESTAMP"
	}
	switch t.Root {
	case types.Boolean:
		return "BOOLEAN"
	case types.DateRoot:
		return "DATE"
	case types.TimeRoot:
		return "TIME"
	case types.IntervalYearMonthRoot:
		return "INTERVAL_YEAR_MONTH"
	case types.IntervalDayTimeRoot:
		return "INTERVAL_DAY_TIME"
	}
	return calciteTypeString(t)
}

// calciteTypeString is a type as Calcite's RelDataType prints it without
// nullability: INTEGER, VARCHAR(2147483647), INTEGER ARRAY,
// (CHAR(1), INTEGER) MAP, RecordType:peek_no_expand(INTEGER a, ...).
func calciteTypeString(t *types.DataType) string {
	switch t.Root {
	case types.Integer:
		return "INTEGER"
	case types.VarChar:
		return "VARCHAR(" + strconv.Itoa(t.Length) + ")"
	case types.Char:
		return "CHAR(" + strconv.Itoa(t.Length) + ")"
	case types.ArrayRoot:
		return calciteTypeString(t.Elem) + " ARRAY"
	case types.MultisetRoot:
		return calciteTypeString(t.Elem) + " MULTISET"
	case types.MapRoot:
		return "(" + calciteTypeString(t.Key) + ", " + calciteTypeString(t.Value) + ") MAP"
	case types.RowRoot:
		fs := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = calciteTypeString(f.Type) + " " + f.Name
		}
		return "RecordType:peek_no_expand(" + strings.Join(fs, ", ") + ")"
	}
	return t.WithNullable(true).SQLString()
}

func (b *binder) funcCall(n *sql.FuncCall, sc *scope) expr.Expr {
	if n.Over != nil {
		return b.overRef(n)
	}
	if e, ok := b.specialCall(n, sc); ok {
		return e
	}
	f := b.lookupFunctionIn(n, sc)
	if f.Kind == expr.AggregateKind {
		b.failAt(n, "Aggregate function %s is not allowed here", strings.ToUpper(n.Name.String()))
	}
	name := strings.ToUpper(n.Name.Parts[len(n.Name.Parts)-1].Name)
	args := make([]expr.Expr, 0, len(n.Args))
	for _, a := range n.Args {
		if _, ok := a.(*sql.Star); ok {
			b.failAt(a, "'*' is only allowed in COUNT(*)")
		}
		args = append(args, b.expr(a, sc))
	}
	return b.resolve(n, f, name, args)
}
