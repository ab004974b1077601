package table

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// Expression is a Table API expression (PyFlink's pyflink.table.Expression):
// a column reference, a literal, or a function call over other
// expressions. Expressions are immutable values; every method returns a
// new Expression. They are built without a TableEnvironment and resolved
// (names, types) when a Table operation uses them, with the same rules and
// error messages as Flink SQL: an Expression is a Flink SQL expression
// tree, and String renders it as SQL.
//
// Methods take their operands as any: an Expression is used as is, any
// other Go value becomes a literal as with Lit (so Col("a").Plus(1) is
// a + 1). A construction error (an unsupported Go value, a misuse such as
// Distinct on a non-aggregate) is kept in the Expression and reported by
// the Table operation that uses it; Err returns it.
//
// PyFlink properties (tab.a.sum, col("x").desc) are methods in Go
// (Col("a").Sum(), Col("x").Desc()).
type Expression struct {
	x *exprData
}

// exprKind tells special expressions apart from plain SQL expressions.
type exprKind uint8

const (
	kindPlain exprKind = iota
	kindStar
	kindRange       // Range(from, to)
	kindWithColumns // WithColumns(...)
	kindWithout     // WithoutColumns(...)
	kindFlatten     // x.Flatten()
	kindOverBound   // UnboundedRow, CurrentRow, RowInterval(n), ...
	kindOrder       // x.Asc(), x.Desc()
	kindTimeAttr    // x.Rowtime(), x.Proctime() (declarations and window properties)
	kindWindowProp  // w.Start(), w.End()
	kindUDFRow      // an uncalled user function: all columns as one ROW argument
)

type exprData struct {
	node  sql.Expr
	err   error
	kind  exprKind
	names []string // As / Alias names
	// args of kindWithColumns and kindWithout (selectors), kindOrder,
	// kindTimeAttr and kindWindowProp (the base).
	args []Expression
	// from, to are the bounds of kindRange.
	from, to any
	// prop is the property of kindTimeAttr ("rowtime", "proctime") and
	// kindWindowProp ("start", "end").
	prop string
	// desc for kindOrder; nulls is "", "FIRST" or "LAST".
	desc  bool
	nulls string
	// bound for kindOverBound: "UNBOUNDED_ROW", "UNBOUNDED_RANGE",
	// "CURRENT_ROW", "CURRENT_RANGE", "ROWS" (a row interval of n).
	bound string
	rows  int64
	// udf is the function of a user-defined call (or of kindUDFRow).
	udf *UserDefinedFunction
	// deps are what the expression needs at binding time.
	deps *exprDeps
}

// exprDeps are the objects an expression refers to besides columns: Tables
// used as IN sub-queries and user functions called inline.
type exprDeps struct {
	tables map[string]*Table
	funcs  map[string]*UserDefinedFunction
}

func (d *exprDeps) merge(o *exprDeps) *exprDeps {
	if o == nil {
		return d
	}
	if d == nil {
		d = &exprDeps{}
	}
	out := &exprDeps{tables: map[string]*Table{}, funcs: map[string]*UserDefinedFunction{}}
	for k, v := range d.tables {
		out.tables[k] = v
	}
	for k, v := range o.tables {
		out.tables[k] = v
	}
	for k, v := range d.funcs {
		out.funcs[k] = v
	}
	for k, v := range o.funcs {
		out.funcs[k] = v
	}
	return out
}

// ---------------------------------------------------------------- building blocks

func plain(node sql.Expr) Expression { return Expression{&exprData{node: node}} }

func failed(err error) Expression { return Expression{&exprData{err: err}} }

func failedf(format string, args ...any) Expression { return failed(fmt.Errorf(format, args...)) }

func ident(name string) *sql.Ident { return &sql.Ident{Name: name, Quoted: true} }

func objName(parts ...string) *sql.ObjectName {
	n := &sql.ObjectName{}
	for _, p := range parts {
		n.Parts = append(n.Parts, &sql.Ident{Name: p})
	}
	return n
}

func colRef(parts ...string) *sql.Identifier {
	id := &sql.Identifier{}
	for _, p := range parts {
		id.Parts = append(id.Parts, ident(p))
	}
	return id
}

// Err returns the error recorded while the expression was built (an
// unsupported literal value, a misuse), or nil.
func (e Expression) Err() error {
	if e.x == nil {
		return errors.New("empty Expression (use Col or Lit to build one)")
	}
	if e.x.err != nil {
		return e.x.err
	}
	for _, a := range e.x.args {
		if err := a.Err(); err != nil {
			return err
		}
	}
	return nil
}

func (e Expression) deps() *exprDeps {
	if e.x == nil {
		return nil
	}
	d := e.x.deps
	for _, a := range e.x.args {
		d = d.merge(a.deps())
	}
	return d
}

// sqlNode returns the expression's SQL tree for use as an operand: special
// expressions that only make sense at the top of a select list or in
// window definitions are rejected.
func (e Expression) sqlNode() (sql.Expr, error) {
	if err := e.Err(); err != nil {
		return nil, err
	}
	switch e.x.kind {
	case kindPlain, kindTimeAttr, kindWindowProp, kindStar, kindRange, kindWithColumns, kindWithout, kindFlatten:
		return e.x.node, nil
	case kindOrder:
		return nil, fmt.Errorf("%s is a sort order, which is only valid in OrderBy", e)
	case kindOverBound:
		return nil, fmt.Errorf("%s is only valid as a bound of an over window", e)
	case kindUDFRow:
		return nil, fmt.Errorf("the function %s must be called with arguments here", e.x.udf.name)
	}
	return nil, fmt.Errorf("%s cannot be used here", e)
}

// operand converts a Go value or Expression to an operand node.
func operand(v any) (sql.Expr, *exprDeps, error) {
	x := toExpr(v)
	n, err := x.sqlNode()
	if err != nil {
		return nil, nil, err
	}
	return n, x.deps(), nil
}

// toExpr returns v as an Expression (a literal unless it is one).
func toExpr(v any) Expression {
	switch x := v.(type) {
	case Expression:
		return x
	case *Expression:
		if x == nil {
			return Lit(nil)
		}
		return *x
	}
	return Lit(v)
}

// derive builds a plain expression from operands with a node constructor.
func derive(build func(nodes []sql.Expr) sql.Expr, operands ...any) Expression {
	nodes := make([]sql.Expr, len(operands))
	var deps *exprDeps
	for i, o := range operands {
		n, d, err := operand(o)
		if err != nil {
			return failed(err)
		}
		nodes[i] = n
		deps = deps.merge(d)
	}
	return Expression{&exprData{node: build(nodes), deps: deps}}
}

// call builds name(operands...).
func call(name string, operands ...any) Expression {
	return derive(func(n []sql.Expr) sql.Expr {
		return &sql.FuncCall{Name: objName(name), Args: n}
	}, operands...)
}

// callSyntax builds a call written with a special syntax.
func callSyntax(name string, syntax sql.FuncSyntax, operands ...any) Expression {
	return derive(func(n []sql.Expr) sql.Expr {
		return &sql.FuncCall{Name: objName(name), Syntax: syntax, Args: n}
	}, operands...)
}

func binary(op string, l, r any) Expression {
	return derive(func(n []sql.Expr) sql.Expr { return &sql.BinaryExpr{Op: op, X: n[0], Y: n[1]} }, l, r)
}

// method applies a function to the receiver and further operands.
func (e Expression) method(name string, operands ...any) Expression {
	return call(name, append([]any{e}, operands...)...)
}

// symbol is a keyword argument (time unit, TRIM side).
type symbol string

func symbolExpr(s string) Expression { return plain(&sql.Symbol{Name: s}) }

// String renders the expression as Flink SQL (with " AS name" when it has
// an alias), e.g. "`a` + 1 AS `a1`". PyFlink's str(expression).
func (e Expression) String() string {
	if e.x == nil {
		return "<empty>"
	}
	if e.x.err != nil {
		return "<invalid: " + e.x.err.Error() + ">"
	}
	var s string
	switch e.x.kind {
	case kindStar:
		s = "*"
	case kindOverBound:
		s = e.x.bound
		if e.x.bound == "ROWS" {
			s = fmt.Sprintf("%d ROWS", e.x.rows)
		}
	case kindOrder:
		s = e.x.args[0].String()
		if e.x.desc {
			s += " DESC"
		} else {
			s += " ASC"
		}
		if e.x.nulls != "" {
			s += " NULLS " + e.x.nulls
		}
	case kindUDFRow:
		s = e.x.udf.name + "(*)"
	default:
		s = sql.Format(e.x.node)
	}
	switch len(e.x.names) {
	case 0:
	case 1:
		s += " AS " + sql.QuoteIdent(e.x.names[0])
	default:
		q := make([]string, len(e.x.names))
		for i, n := range e.x.names {
			q[i] = sql.QuoteIdent(n)
		}
		s += " AS (" + strings.Join(q, ", ") + ")"
	}
	return s
}

// ---------------------------------------------------------------- columns and literals

// Col references a column by name (PyFlink's col). Col("*") stands for all
// columns of the input: in a select list it expands to them, and as the
// sole argument of a user function in Map, FlatMap, Aggregate,
// FlatAggregate or JoinLateral it passes the whole row as one ROW value.
// A dotted name "r.f" reads field f of ROW column r.
func Col(name string) Expression {
	if name == "*" {
		return Expression{&exprData{kind: kindStar, node: &sql.Star{}}}
	}
	if name == "" {
		return failedf("Col: empty column name")
	}
	return plain(colRef(name))
}

// Lit builds a literal (PyFlink's lit). The type follows from the Go value
// as in Flink: int (when it fits in 32 bits) and int32 are INT, int64 and
// larger ints BIGINT, int16 SMALLINT, int8 TINYINT, float64 DOUBLE,
// float32 FLOAT, bool BOOLEAN, a string of n characters CHAR(n) (so
// Lit("abc") is CHAR(3) NOT NULL), []byte BINARY(n), types.Decimal
// DECIMAL(p, s), types.Date DATE, types.LocalTime TIME, time.Time
// TIMESTAMP(9) (its wall-clock reading in its own location, the zone
// dropped: 10:00 in Asia/Shanghai is TIMESTAMP '... 10:00:00', as a Java
// LocalDateTime; for the instant use Call("TO_TIMESTAMP_LTZ",
// t.UnixMilli(), 3); a time before 1677-09-21 or after 2262-04-11, which
// TIMESTAMP(9)'s int64 nanoseconds cannot hold, is a TIMESTAMP(6)), time.Duration INTERVAL SECOND(9), types.Months INTERVAL
// MONTH, []any ARRAY, map[K]V MAP,
// *types.Row ROW, and nil the NULL type. An optional data type casts the
// literal to that type: Lit(nil, types.IntType()) is a typed NULL. An
// unsupported Go value gives an Expression whose Err reports it.
func Lit(v any, dataType ...*types.DataType) Expression {
	n, err := literalNode(v)
	if err != nil {
		return failed(err)
	}
	e := plain(n)
	if len(dataType) > 0 && dataType[0] != nil {
		return e.Cast(dataType[0])
	}
	return e
}

// literalNode converts a Go value to a literal node.
func literalNode(v any) (sql.Expr, error) {
	switch x := v.(type) {
	case nil:
		return &sql.NullLit{}, nil
	case Expression:
		return x.sqlNode()
	case bool:
		return &sql.BoolLit{Value: x}, nil
	case int:
		if x >= math.MinInt32 && x <= math.MaxInt32 {
			return intLit(int64(x)), nil
		}
		return castNode(intLit(int64(x)), "BIGINT NOT NULL"), nil
	case int8:
		return castNode(intLit(int64(x)), "TINYINT NOT NULL"), nil
	case int16:
		return castNode(intLit(int64(x)), "SMALLINT NOT NULL"), nil
	case int32:
		return intLit(int64(x)), nil
	case int64:
		return castNode(intLit(x), "BIGINT NOT NULL"), nil
	case uint8, uint16, uint32, uint, uint64:
		u := reflect.ValueOf(x).Uint()
		if u > math.MaxInt64 {
			return nil, fmt.Errorf("Lit: %d is out of the BIGINT range", u)
		}
		if u <= math.MaxInt32 {
			return intLit(int64(u)), nil
		}
		return castNode(intLit(int64(u)), "BIGINT NOT NULL"), nil
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return castNode(&sql.StringLit{Value: types.FormatDoubleJava(x)}, "DOUBLE"), nil
		}
		return signed(x < 0, &sql.NumberLit{Kind: sql.NumApprox, Text: strconv.FormatFloat(math.Abs(x), 'E', -1, 64)}), nil
	case float32:
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return castNode(&sql.StringLit{Value: types.FormatFloatJava(x)}, "FLOAT"), nil
		}
		return castNode(signed(x < 0, &sql.NumberLit{Kind: sql.NumApprox, Text: strconv.FormatFloat(math.Abs(f), 'E', -1, 32)}), "FLOAT NOT NULL"), nil
	case string:
		return &sql.StringLit{Value: x}, nil
	case []byte:
		return &sql.BinaryLit{Hex: fmt.Sprintf("%x", x)}, nil
	case types.Decimal:
		s := x.String()
		neg := strings.HasPrefix(s, "-")
		s = strings.TrimPrefix(s, "-")
		kind := sql.NumDecimal
		if !strings.Contains(s, ".") {
			kind = sql.NumInteger
		}
		// typed DECIMAL(p, s) from the value's own digits (0.5 is
		// DECIMAL(1, 1), as a BigDecimal literal in Flink's Table API), not
		// by SQL's literal rules (0.5 would be DECIMAL(2, 1)); one whose
		// unscaled value passes a BIGINT (which SQL's literal rejects) is
		// cast from its text
		digits := strings.TrimLeft(strings.Replace(s, ".", "", 1), "0")
		scale := int(max(x.Scale, 0))
		typ := fmt.Sprintf("DECIMAL(%d, %d) NOT NULL", max(len(digits), scale, 1), scale)
		if len(digits) >= 19 {
			return castNode(&sql.StringLit{Value: x.String()}, typ), nil
		}
		return castNode(signed(neg, &sql.NumberLit{Kind: kind, Text: s}), typ), nil
	case *big.Rat:
		d, err := types.DecimalFromRat(x, 18)
		if err != nil {
			return nil, err
		}
		return literalNode(d)
	case types.Date:
		return &sql.DateTimeLit{Type: "DATE", Value: x.String()}, nil
	case types.LocalTime:
		return &sql.DateTimeLit{Type: "TIME", Value: types.FormatTimeSQL(int64(x), 9)}, nil
	case time.Time:
		u := x.UTC()
		if x.Location() != time.UTC {
			// a zoned Go time: its wall clock is the TIMESTAMP value
			u = time.Date(x.Year(), x.Month(), x.Day(), x.Hour(), x.Minute(), x.Second(), x.Nanosecond(), time.UTC)
		}
		p := 9
		if types.CheckValue(u, types.TimestampType(9)) != nil {
			// outside the int64 nanoseconds of TIMESTAMP(9) (before
			// 1677-09-21 or after 2262-04-11, the zero time.Time for one):
			// a TIMESTAMP(6) holds the value, to the microsecond
			p = 6
		}
		return &sql.DateTimeLit{Type: "TIMESTAMP", Value: types.FormatTimestampSQL(u, p)}, nil
	case time.Duration:
		return durationLit(x), nil
	case types.Months:
		neg := x < 0
		m := int64(x)
		if neg {
			m = -m
		}
		return &sql.IntervalLit{Negative: neg, Value: strconv.FormatInt(m, 10),
			Qualifier: &sql.IntervalQualifier{StartUnit: "MONTH", StartPrecision: digitsPrecision(m, 2), FracPrecision: -1}}, nil
	case []any:
		items := make([]sql.Expr, len(x))
		for i, it := range x {
			n, err := literalNode(it)
			if err != nil {
				return nil, err
			}
			items[i] = n
		}
		return &sql.ArrayExpr{Items: items}, nil
	case *types.Row:
		items := make([]sql.Expr, len(x.Values))
		for i, it := range x.Values {
			n, err := literalNode(it)
			if err != nil {
				return nil, err
			}
			items[i] = n
		}
		return &sql.RowExpr{Explicit: true, Items: items}, nil
	case *types.Map:
		var items []sql.Expr
		for i := range x.Keys {
			k, err := literalNode(x.Keys[i])
			if err != nil {
				return nil, err
			}
			v, err := literalNode(x.Values[i])
			if err != nil {
				return nil, err
			}
			items = append(items, k, v)
		}
		return &sql.MapExpr{Items: items}, nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Slice, reflect.Array:
		items := make([]sql.Expr, rv.Len())
		for i := range items {
			n, err := literalNode(rv.Index(i).Interface())
			if err != nil {
				return nil, err
			}
			items[i] = n
		}
		return &sql.ArrayExpr{Items: items}, nil
	case reflect.Map:
		keys := rv.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return fmt.Sprint(keys[i].Interface()) < fmt.Sprint(keys[j].Interface()) })
		var items []sql.Expr
		for _, k := range keys {
			kn, err := literalNode(k.Interface())
			if err != nil {
				return nil, err
			}
			vn, err := literalNode(rv.MapIndex(k).Interface())
			if err != nil {
				return nil, err
			}
			items = append(items, kn, vn)
		}
		return &sql.MapExpr{Items: items}, nil
	case reflect.Pointer:
		if rv.IsNil() {
			return &sql.NullLit{}, nil
		}
		return literalNode(rv.Elem().Interface())
	}
	return nil, fmt.Errorf("Lit: unsupported literal value %v of Go type %T", v, v)
}

func intLit(v int64) sql.Expr {
	if v < 0 {
		if v == math.MinInt64 {
			return &sql.UnaryExpr{Op: "-", X: &sql.NumberLit{Kind: sql.NumInteger, Text: "9223372036854775808"}}
		}
		return &sql.UnaryExpr{Op: "-", X: &sql.NumberLit{Kind: sql.NumInteger, Text: strconv.FormatInt(-v, 10)}}
	}
	return &sql.NumberLit{Kind: sql.NumInteger, Text: strconv.FormatInt(v, 10)}
}

func signed(neg bool, n sql.Expr) sql.Expr {
	if neg {
		return &sql.UnaryExpr{Op: "-", X: n}
	}
	return n
}

func castNode(x sql.Expr, typeText string) sql.Expr {
	t, err := sql.ParseDataType(typeText)
	if err != nil {
		panic(fmt.Sprintf("table: bad internal type %q: %v", typeText, err))
	}
	return &sql.CastExpr{X: x, Type: t}
}

func digitsPrecision(v int64, min int) int {
	return max(len(strconv.FormatInt(v, 10)), min)
}

// durationLit renders a Go duration as INTERVAL 's.fffffffff' SECOND(p, 9)
// while the seconds fit SECOND(3), and otherwise as a DAY TO SECOND(3)
// literal (see sql.DayTimeInterval): Flink rejects a day-time literal whose leading
// precision exceeds 3.
func durationLit(d time.Duration) sql.Expr {
	neg := d < 0
	if neg {
		d = -d
	}
	secs := int64(d / time.Second)
	if secs > 999 {
		return sql.DayTimeInterval(int64(sign(neg)) * d.Milliseconds())
	}
	nanos := int64(d % time.Second)
	v := strconv.FormatInt(secs, 10)
	if nanos != 0 {
		v += "." + strings.TrimRight(fmt.Sprintf("%09d", nanos), "0")
	}
	return &sql.IntervalLit{Negative: neg, Value: v,
		Qualifier: &sql.IntervalQualifier{StartUnit: "SECOND", StartPrecision: digitsPrecision(secs, 2), FracPrecision: 9}}
}

// checkDataType reports a nil type, or a nil element, key, value or field
// type inside a composite one. The datatypes constructors return nil for
// an invalid precision or length (datatypes.Decimal(50, 60)), so a nil
// usually comes from there; without this check it would reach the
// engine's type code.
func checkDataType(t *types.DataType) error {
	if t == nil {
		return errors.New("nil data type (a datatypes constructor returns nil for an invalid precision, scale or length; see datatypes.DecimalE)")
	}
	var inner func(t *types.DataType, where string) error
	inner = func(t *types.DataType, where string) error {
		if t == nil {
			return fmt.Errorf("nil data type for %s (a datatypes constructor returns nil for an invalid precision, scale or length)", where)
		}
		switch t.Root {
		case types.ArrayRoot, types.MultisetRoot:
			return inner(t.Elem, "the element type of an ARRAY or MULTISET")
		case types.MapRoot:
			if err := inner(t.Key, "the key type of a MAP"); err != nil {
				return err
			}
			return inner(t.Value, "the value type of a MAP")
		case types.RowRoot:
			for _, f := range t.Fields {
				if err := inner(f.Type, "ROW field "+f.Name); err != nil {
					return err
				}
			}
		}
		return nil
	}
	return inner(t, "the type")
}

// dataTypeNode converts a logical type to its SQL syntax tree.
func dataTypeNode(t *types.DataType) (*sql.DataType, error) {
	if err := checkDataType(t); err != nil {
		return nil, err
	}
	s := t.WithTimeAttr(types.NoTimeAttr).String()
	n, err := sql.ParseDataType(s)
	if err != nil {
		return nil, fmt.Errorf("data type %s cannot be used in an expression: %v", s, err)
	}
	return n, nil
}

// ---------------------------------------------------------------- naming

// As names the expression's result column (PyFlink's alias). Several names
// are for expressions that produce several columns: a table function call
// in JoinLateral or FlatMap, a ROW-valued function in Map, an aggregate
// function in Aggregate or FlatAggregate. A single name holding commas,
// As("a, b"), is split as PyFlink's string form is.
func (e Expression) As(name string, extraNames ...string) Expression {
	if e.x == nil {
		return e
	}
	names := append([]string{name}, extraNames...)
	if len(extraNames) == 0 && strings.Contains(name, ",") {
		names = nil
		for _, p := range strings.Split(name, ",") {
			names = append(names, strings.TrimSpace(p))
		}
	}
	for _, n := range names {
		if n == "" {
			return failedf("As: empty name in %v", names)
		}
	}
	cp := *e.x
	cp.names = names
	return Expression{&cp}
}

// Alias is As (PyFlink's alias).
func (e Expression) Alias(name string, extraNames ...string) Expression {
	return e.As(name, extraNames...)
}

// ---------------------------------------------------------------- arithmetic

// Plus is e + o: numeric addition, or a time point plus an interval
// (PyFlink's + operator).
func (e Expression) Plus(o any) Expression { return binary("+", e, o) }

// Minus is e - o (PyFlink's - operator).
func (e Expression) Minus(o any) Expression { return binary("-", e, o) }

// Times is e * o (PyFlink's * operator).
func (e Expression) Times(o any) Expression { return binary("*", e, o) }

// Div is e / o (PyFlink's / operator; integer division for integers).
func (e Expression) Div(o any) Expression { return binary("/", e, o) }

// Mod is e % o, the remainder (PyFlink's % operator, SQL MOD).
func (e Expression) Mod(o any) Expression { return call("MOD", e, o) }

// Power is e raised to o (PyFlink's ** operator, SQL POWER), a DOUBLE.
func (e Expression) Power(o any) Expression { return call("POWER", e, o) }

// Negate is -e (PyFlink's unary minus).
func (e Expression) Negate() Expression {
	return derive(func(n []sql.Expr) sql.Expr { return &sql.UnaryExpr{Op: "-", X: n[0]} }, e)
}

// Concat is e || o for strings (PyFlink's + on strings in the string DSL).
func (e Expression) Concat(o any) Expression { return binary("||", e, o) }

// ---------------------------------------------------------------- comparison and logic

// IsEqual is e = o (PyFlink's ==). Comparisons with NULL are NULL.
func (e Expression) IsEqual(o any) Expression { return binary("=", e, o) }

// IsNotEqual is e <> o (PyFlink's !=).
func (e Expression) IsNotEqual(o any) Expression { return binary("<>", e, o) }

// IsGreater is e > o (PyFlink's >).
func (e Expression) IsGreater(o any) Expression { return binary(">", e, o) }

// IsGreaterOrEqual is e >= o (PyFlink's >=).
func (e Expression) IsGreaterOrEqual(o any) Expression { return binary(">=", e, o) }

// IsLess is e < o (PyFlink's <).
func (e Expression) IsLess(o any) Expression { return binary("<", e, o) }

// IsLessOrEqual is e <= o (PyFlink's <=).
func (e Expression) IsLessOrEqual(o any) Expression { return binary("<=", e, o) }

// And is the three-valued e AND o (PyFlink's &).
func (e Expression) And(o any) Expression { return binary("AND", e, o) }

// Or is the three-valued e OR o (PyFlink's |).
func (e Expression) Or(o any) Expression { return binary("OR", e, o) }

// Not is NOT e (PyFlink's ~).
func (e Expression) Not() Expression {
	return derive(func(n []sql.Expr) sql.Expr { return &sql.UnaryExpr{Op: "NOT", X: n[0]} }, e)
}

// IsNull is e IS NULL (PyFlink's is_null).
func (e Expression) IsNull() Expression { return e.is("NULL", false) }

// IsNotNull is e IS NOT NULL (PyFlink's is_not_null).
func (e Expression) IsNotNull() Expression { return e.is("NULL", true) }

// IsTrue is e IS TRUE: FALSE for FALSE and NULL (PyFlink's is_true).
func (e Expression) IsTrue() Expression { return e.is("TRUE", false) }

// IsFalse is e IS FALSE: FALSE for TRUE and NULL (PyFlink's is_false).
func (e Expression) IsFalse() Expression { return e.is("FALSE", false) }

// IsNotTrue is e IS NOT TRUE: TRUE for FALSE and NULL (PyFlink's
// is_not_true).
func (e Expression) IsNotTrue() Expression { return e.is("TRUE", true) }

// IsNotFalse is e IS NOT FALSE: TRUE for TRUE and NULL (PyFlink's
// is_not_false).
func (e Expression) IsNotFalse() Expression { return e.is("FALSE", true) }

func (e Expression) is(what string, not bool) Expression {
	return derive(func(n []sql.Expr) sql.Expr { return &sql.IsExpr{X: n[0], Not: not, What: what} }, e)
}

// Between is e BETWEEN lower AND upper, both bounds inclusive (PyFlink's
// between): Lit(2.1).Between(2.1, 2.1) is TRUE.
func (e Expression) Between(lower, upper any) Expression {
	return derive(func(n []sql.Expr) sql.Expr { return &sql.BetweenExpr{X: n[0], Low: n[1], High: n[2]} }, e, lower, upper)
}

// NotBetween is e NOT BETWEEN lower AND upper (PyFlink's not_between).
func (e Expression) NotBetween(lower, upper any) Expression {
	return derive(func(n []sql.Expr) sql.Expr { return &sql.BetweenExpr{X: n[0], Not: true, Low: n[1], High: n[2]} }, e, lower, upper)
}

// In is e IN (values...) or, when first is a *Table with one column, e IN
// (SELECT ... FROM table) (PyFlink's in_). A NULL e gives NULL; when the
// list holds NULL and e is not found the result is NULL. Sub-queries are
// not supported in streaming mode.
func (e Expression) In(first any, rest ...any) Expression {
	if t, ok := first.(*Table); ok {
		if len(rest) > 0 {
			return failedf("In: a sub-query table cannot be combined with values")
		}
		if t == nil {
			return failedf("In: nil table")
		}
		if t.err != nil {
			return failed(t.err)
		}
		name := t.env.anonName("in")
		x := derive(func(n []sql.Expr) sql.Expr {
			return &sql.InExpr{X: n[0], Query: &sql.Query{Body: &sql.Select{Items: []*sql.SelectItem{{Expr: &sql.Star{}}},
				From: &sql.TableRef{Name: objName(name)}}}}
		}, e)
		if x.x.err == nil {
			x.x.deps = x.x.deps.merge(&exprDeps{tables: map[string]*Table{name: t}})
		}
		return x
	}
	ops := append([]any{e, first}, rest...)
	return derive(func(n []sql.Expr) sql.Expr { return &sql.InExpr{X: n[0], List: n[1:]} }, ops...)
}

// Then is the ternary e ? ifTrue : ifFalse on a BOOLEAN e (PyFlink's
// then): CASE WHEN e THEN ifTrue ELSE ifFalse END.
func (e Expression) Then(ifTrue, ifFalse any) Expression { return IfThenElse(e, ifTrue, ifFalse) }

// IfNull returns replacement when e is NULL (PyFlink's if_null, SQL
// IFNULL). The result is nullable only if replacement is.
func (e Expression) IfNull(replacement any) Expression { return call("IFNULL", e, replacement) }

// Cast converts e to a data type (PyFlink's cast), e.g.
// Lit("42").Cast(types.IntType()) is 42.
func (e Expression) Cast(t *types.DataType) Expression {
	tn, err := dataTypeNode(t)
	if err != nil {
		return failed(err)
	}
	return derive(func(n []sql.Expr) sql.Expr { return &sql.CastExpr{X: n[0], Type: tn} }, e)
}

// TryCast is Cast that yields NULL instead of failing on bad input (Flink's
// TRY_CAST; not in PyFlink 1.14).
func (e Expression) TryCast(t *types.DataType) Expression {
	tn, err := dataTypeNode(t)
	if err != nil {
		return failed(err)
	}
	return derive(func(n []sql.Expr) sql.Expr { return &sql.CastExpr{Try: true, X: n[0], Type: tn} }, e)
}

// ---------------------------------------------------------------- ordering

// Asc sorts ascending in OrderBy (PyFlink's asc).
func (e Expression) Asc() Expression { return e.order(false, "") }

// Desc sorts descending in OrderBy (PyFlink's desc).
func (e Expression) Desc() Expression { return e.order(true, "") }

// NullsFirst puts NULLs first in OrderBy (Flink's nullsFirst).
func (e Expression) NullsFirst() Expression { return e.withNulls("FIRST") }

// NullsLast puts NULLs last in OrderBy (Flink's nullsLast).
func (e Expression) NullsLast() Expression { return e.withNulls("LAST") }

func (e Expression) order(desc bool, nulls string) Expression {
	if err := e.Err(); err != nil {
		return failed(err)
	}
	if e.x.kind == kindOrder {
		e = e.x.args[0]
	}
	return Expression{&exprData{kind: kindOrder, args: []Expression{e}, desc: desc, nulls: nulls}}
}

func (e Expression) withNulls(n string) Expression {
	if err := e.Err(); err != nil {
		return failed(err)
	}
	if e.x.kind == kindOrder {
		return e.x.args[0].order(e.x.desc, n)
	}
	return e.order(false, n)
}

// ---------------------------------------------------------------- composite values

// Get reads a field of a ROW value (PyFlink's get): by name when key is a
// string, by 0-based position when key is an int (as Flink's get(int)).
func (e Expression) Get(key any) Expression {
	switch k := key.(type) {
	case string:
		return derive(func(n []sql.Expr) sql.Expr { return &sql.FieldExpr{X: n[0], Field: ident(k)} }, e)
	case int:
		if k < 0 {
			return failedf("Get: negative field index %d", k)
		}
		return derive(func(n []sql.Expr) sql.Expr {
			return &sql.FuncCall{Name: objName(markGetIndex), Args: []sql.Expr{n[0], intLit(int64(k))}}
		}, e)
	}
	return failedf("Get: the key must be a field name (string) or index (int), got %T", key)
}

// Flatten expands a ROW value into one column per field, named
// "<column>$<field>" (PyFlink's flatten). It is valid as a whole item of
// a select list.
func (e Expression) Flatten() Expression {
	x := derive(func(n []sql.Expr) sql.Expr {
		return &sql.FuncCall{Name: objName(markFlatten), Args: n}
	}, e)
	if x.x.err == nil {
		x.x.kind = kindFlatten
	}
	return x
}

// At reads an ARRAY element (1-based index) or a MAP value by key
// (PyFlink's at): e[index]. A missing element is NULL.
func (e Expression) At(index any) Expression {
	return derive(func(n []sql.Expr) sql.Expr { return &sql.IndexExpr{X: n[0], Index: n[1]} }, e, index)
}

// Element returns the only element of an ARRAY (PyFlink's element): NULL
// for an empty array; an array of more than one element fails the job.
func (e Expression) Element() Expression { return e.method("ELEMENT") }

// Cardinality is the number of elements of an ARRAY or MULTISET or of
// entries of a MAP (PyFlink's cardinality).
func (e Expression) Cardinality() Expression { return e.method("CARDINALITY") }
