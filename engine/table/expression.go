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

// ---------------------------------------------------------------- math

// Abs is the absolute value (PyFlink's abs).
func (e Expression) Abs() Expression { return e.method("ABS") }

// Exp is e raised to the power of the receiver (PyFlink's exp).
func (e Expression) Exp() Expression { return e.method("EXP") }

// Sqrt is the square root (PyFlink's sqrt).
func (e Expression) Sqrt() Expression { return e.method("SQRT") }

// Ln is the natural logarithm (PyFlink's ln).
func (e Expression) Ln() Expression { return e.method("LN") }

// Log10 is the base-10 logarithm (PyFlink's log10).
func (e Expression) Log10() Expression { return e.method("LOG10") }

// Log2 is the base-2 logarithm (PyFlink's log2).
func (e Expression) Log2() Expression { return e.method("LOG2") }

// Log is the natural logarithm, or the logarithm to base when one is
// given (PyFlink's log(base=None)).
func (e Expression) Log(base ...any) Expression {
	if len(base) > 0 {
		return call("LOG", base[0], e)
	}
	return e.method("LOG")
}

// Sign is the signum, keeping a DECIMAL's scale: Lit(types.MustDecimal("1.23")).Sign()
// is 1.00 (PyFlink's sign).
func (e Expression) Sign() Expression { return e.method("SIGN") }

// Degrees converts radians to degrees (PyFlink's degrees).
func (e Expression) Degrees() Expression { return e.method("DEGREES") }

// Radians converts degrees to radians (PyFlink's radians).
func (e Expression) Radians() Expression { return e.method("RADIANS") }

// Sin is the sine (PyFlink's sin).
func (e Expression) Sin() Expression { return e.method("SIN") }

// Cos is the cosine (PyFlink's cos).
func (e Expression) Cos() Expression { return e.method("COS") }

// Tan is the tangent (PyFlink's tan).
func (e Expression) Tan() Expression { return e.method("TAN") }

// Cot is the cotangent (PyFlink's cot).
func (e Expression) Cot() Expression { return e.method("COT") }

// Asin is the arc sine (PyFlink's asin).
func (e Expression) Asin() Expression { return e.method("ASIN") }

// Acos is the arc cosine (PyFlink's acos).
func (e Expression) Acos() Expression { return e.method("ACOS") }

// Atan is the arc tangent (PyFlink's atan).
func (e Expression) Atan() Expression { return e.method("ATAN") }

// Sinh is the hyperbolic sine (PyFlink's sinh).
func (e Expression) Sinh() Expression { return e.method("SINH") }

// Cosh is the hyperbolic cosine (PyFlink's cosh).
func (e Expression) Cosh() Expression { return e.method("COSH") }

// Tanh is the hyperbolic tangent (PyFlink's tanh).
func (e Expression) Tanh() Expression { return e.method("TANH") }

// Round rounds to places decimal places, half away from zero; negative
// places round left of the decimal point (PyFlink's round):
// 646.646 rounds to 646.65 (2), 647 (0), 600 (-2).
func (e Expression) Round(places any) Expression { return e.method("ROUND", places) }

// Truncate cuts to n decimal places (default 0) without rounding; n may
// be negative (PyFlink's truncate): 42.345 truncated to 2 is 42.34.
func (e Expression) Truncate(n ...any) Expression {
	if len(n) > 0 {
		return e.method("TRUNCATE", n[0])
	}
	return e.method("TRUNCATE")
}

// Ceil rounds a number up, or a time point up to a unit when one is given
// (PyFlink's ceil(time_interval_unit=None)).
func (e Expression) Ceil(unit ...TimeIntervalUnit) Expression {
	if len(unit) > 0 {
		return callSyntax("CEIL", sql.SyntaxFloorCeil, e, symbolExpr(unit[0].sqlUnit()))
	}
	return e.method("CEIL")
}

// Floor rounds a number down, or a time point down to a unit when one is
// given (PyFlink's floor(time_interval_unit=None)).
func (e Expression) Floor(unit ...TimeIntervalUnit) Expression {
	if len(unit) > 0 {
		return callSyntax("FLOOR", sql.SyntaxFloorCeil, e, symbolExpr(unit[0].sqlUnit()))
	}
	return e.method("FLOOR")
}

// Bin is the binary string of an integer: 4 gives "100"; NULL gives NULL
// (PyFlink's bin).
func (e Expression) Bin() Expression { return e.method("BIN") }

// Hex is the hexadecimal string of an integer or a string's bytes: 20
// gives "14", "hello,world" gives "68656c6c6f2c776f726c64" (PyFlink's hex).
func (e Expression) Hex() Expression { return e.method("HEX") }

// ---------------------------------------------------------------- strings

// CharLength is the number of characters (PyFlink's char_length).
func (e Expression) CharLength() Expression { return e.method("CHAR_LENGTH") }

// UpperCase converts to upper case (PyFlink's upper_case).
func (e Expression) UpperCase() Expression { return e.method("UPPER") }

// LowerCase converts to lower case (PyFlink's lower_case).
func (e Expression) LowerCase() Expression { return e.method("LOWER") }

// InitCap upper-cases the first letter of each word; words are runs of
// [A-Za-z0-9] (PyFlink's init_cap).
func (e Expression) InitCap() Expression { return e.method("INITCAP") }

// Like is e LIKE pattern with _ and % wildcards (PyFlink's like).
func (e Expression) Like(pattern any) Expression {
	return derive(func(n []sql.Expr) sql.Expr { return &sql.LikeExpr{X: n[0], Op: "LIKE", Pattern: n[1]} }, e, pattern)
}

// Similar is e SIMILAR TO pattern, a SQL regular expression (PyFlink's
// similar).
func (e Expression) Similar(pattern any) Expression {
	return derive(func(n []sql.Expr) sql.Expr { return &sql.LikeExpr{X: n[0], Op: "SIMILAR TO", Pattern: n[1]} }, e, pattern)
}

// Position is the 1-based position of e in haystack, 0 when absent
// (PyFlink's position): Lit("a").Position("bbbbba") is 6.
func (e Expression) Position(haystack any) Expression {
	return callSyntax("POSITION", sql.SyntaxPosition, e, haystack)
}

// Lpad left-pads to length characters with pad, truncating a longer
// string to length (PyFlink's lpad): "hi" to 4 with "??" is "??hi", to 1
// is "h".
func (e Expression) Lpad(length, pad any) Expression { return e.method("LPAD", length, pad) }

// Rpad right-pads to length characters with pad, truncating a longer
// string (PyFlink's rpad).
func (e Expression) Rpad(length, pad any) Expression { return e.method("RPAD", length, pad) }

// Overlay replaces the characters from the 1-based position starting with
// newString, over length characters (default: the length of newString)
// (PyFlink's overlay).
func (e Expression) Overlay(newString, starting any, length ...any) Expression {
	if len(length) > 0 {
		return callSyntax("OVERLAY", sql.SyntaxOverlay, e, newString, starting, length[0])
	}
	return callSyntax("OVERLAY", sql.SyntaxOverlay, e, newString, starting)
}

// RegexpReplace replaces every match of regex with replacement (PyFlink's
// regexp_replace).
func (e Expression) RegexpReplace(regex, replacement any) Expression {
	return e.method("REGEXP_REPLACE", regex, replacement)
}

// RegexpExtract returns a group of the first match of regex: the group
// at extractIndex (0 is the whole match), or, without one, SQL
// REGEXP_EXTRACT's default (PyFlink's regexp_extract).
func (e Expression) RegexpExtract(regex any, extractIndex ...any) Expression {
	if len(extractIndex) > 0 {
		return e.method("REGEXP_EXTRACT", regex, extractIndex[0])
	}
	return e.method("REGEXP_EXTRACT", regex)
}

// Substring returns length characters (default: to the end) from the
// 1-based beginIndex (PyFlink's substring).
func (e Expression) Substring(beginIndex any, length ...any) Expression {
	if len(length) > 0 {
		return e.method("SUBSTRING", beginIndex, length[0])
	}
	return e.method("SUBSTRING", beginIndex)
}

// Replace replaces every non-overlapping occurrence of search (PyFlink's
// replace).
func (e Expression) Replace(search, replacement any) Expression {
	return e.method("REPLACE", search, replacement)
}

// Trim removes leading and trailing spaces, or the given character
// (PyFlink's trim).
func (e Expression) Trim(character ...any) Expression { return e.trim("BOTH", character) }

// TrimLeading removes leading spaces or the given character (PyFlink's
// trim_leading).
func (e Expression) TrimLeading(character ...any) Expression { return e.trim("LEADING", character) }

// TrimTrailing removes trailing spaces or the given character (PyFlink's
// trim_trailing).
func (e Expression) TrimTrailing(character ...any) Expression { return e.trim("TRAILING", character) }

func (e Expression) trim(side string, character []any) Expression {
	var c any = " "
	if len(character) > 0 {
		c = character[0]
	}
	return callSyntax("TRIM", sql.SyntaxTrim, symbolExpr(side), c, e)
}

// Ltrim removes leading whitespace (PyFlink's ltrim).
func (e Expression) Ltrim() Expression { return e.method("LTRIM") }

// Rtrim removes trailing whitespace (PyFlink's rtrim).
func (e Expression) Rtrim() Expression { return e.method("RTRIM") }

// Repeat repeats the string n times (PyFlink's repeat).
func (e Expression) Repeat(n any) Expression { return e.method("REPEAT", n) }

// FromBase64 decodes a base64 string (PyFlink's from_base64).
func (e Expression) FromBase64() Expression { return e.method("FROM_BASE64") }

// ToBase64 encodes a string as base64 (PyFlink's to_base64).
func (e Expression) ToBase64() Expression { return e.method("TO_BASE64") }

// ---------------------------------------------------------------- hashes

// Md5 is the MD5 hash as 32 hex digits; NULL gives NULL (PyFlink's md5).
func (e Expression) Md5() Expression { return e.method("MD5") }

// Sha1 is the SHA-1 hash as 40 hex digits (PyFlink's sha1).
func (e Expression) Sha1() Expression { return e.method("SHA1") }

// Sha224 is the SHA-224 hash as 56 hex digits (PyFlink's sha224).
func (e Expression) Sha224() Expression { return e.method("SHA224") }

// Sha256 is the SHA-256 hash as 64 hex digits (PyFlink's sha256).
func (e Expression) Sha256() Expression { return e.method("SHA256") }

// Sha384 is the SHA-384 hash as 96 hex digits (PyFlink's sha384).
func (e Expression) Sha384() Expression { return e.method("SHA384") }

// Sha512 is the SHA-512 hash as 128 hex digits (PyFlink's sha512).
func (e Expression) Sha512() Expression { return e.method("SHA512") }

// Sha2 is the SHA-2 hash of hashLength bits (224, 256, 384 or 512); NULL
// if an argument is NULL (PyFlink's sha2).
func (e Expression) Sha2(hashLength any) Expression { return e.method("SHA2", hashLength) }

// ---------------------------------------------------------------- temporal

// ToDate parses "yyyy-MM-dd" into a DATE: CAST(e AS DATE) (PyFlink's
// to_date).
func (e Expression) ToDate() Expression { return e.Cast(types.DateType()) }

// ToTime parses "HH:mm:ss" into a TIME: CAST(e AS TIME) (PyFlink's
// to_time).
func (e Expression) ToTime() Expression { return e.Cast(types.TimeType(0)) }

// ToTimestamp parses "yyyy-MM-dd HH:mm:ss[.SSS]" into a TIMESTAMP(3):
// CAST(e AS TIMESTAMP(3)) (PyFlink's to_timestamp).
func (e Expression) ToTimestamp() Expression { return e.Cast(types.TimestampType(3)) }

// Extract returns a part of a time point or interval as a BIGINT
// (PyFlink's extract): Lit("2006-06-05").ToDate().Extract(TimeIntervalUnitDay) is 5.
func (e Expression) Extract(unit TimeIntervalUnit) Expression {
	return callSyntax("EXTRACT", sql.SyntaxExtract, symbolExpr(unit.sqlUnit()), e)
}

// interval turns a number into an interval of unit (PyFlink's
// lit(10).minutes and friends): a literal integer becomes an interval
// literal, anything else e * INTERVAL '1' unit.
func (e Expression) interval(unit string, scale int64) Expression {
	if err := e.Err(); err != nil {
		return failed(err)
	}
	n, neg := e.x.node, false
	if u, ok := n.(*sql.UnaryExpr); ok && u.Op == "-" {
		n, neg = u.X, true
	}
	if c, ok := n.(*sql.CastExpr); ok {
		n = c.X
	}
	if u, ok := n.(*sql.UnaryExpr); ok && u.Op == "-" && !neg {
		n, neg = u.X, true
	}
	if num, ok := n.(*sql.NumberLit); ok && num.Kind == sql.NumInteger && e.x.kind == kindPlain {
		v, err := strconv.ParseInt(num.Text, 10, 64)
		if err == nil {
			v *= scale
			q := &sql.IntervalQualifier{StartUnit: unit, StartPrecision: -1, FracPrecision: -1}
			switch unit {
			case "MONTH", "YEAR":
				q.StartPrecision = min(digitsPrecision(v, 2), 4)
				if unit == "MONTH" {
					q.StartPrecision = digitsPrecision(v, 2)
				}
			case "DAY", "HOUR", "MINUTE", "SECOND":
				q.StartPrecision = digitsPrecision(v, 2)
				if q.StartPrecision > 3 {
					// beyond a literal Flink accepts: see sql.DayTimeInterval
					unitMs := map[string]int64{"DAY": 86_400_000, "HOUR": 3_600_000, "MINUTE": 60_000, "SECOND": 1000}[unit]
					if v > MaxIntervalMillis/unitMs {
						return failedf("%d %s is beyond the ±%d days an INTERVAL DAY TO SECOND holds in Riffle", v, unit, MaxIntervalMillis/86_400_000)
					}
					return Expression{&exprData{node: sql.DayTimeInterval(int64(sign(neg)) * v * unitMs), deps: e.x.deps}}
				}
			case "MILLISECOND":
				return Expression{&exprData{node: durationLit(time.Duration(v) * time.Millisecond * sign(neg)), deps: e.x.deps}}
			}
			return Expression{&exprData{node: &sql.IntervalLit{Negative: neg, Value: strconv.FormatInt(v, 10), Qualifier: q}, deps: e.x.deps}}
		}
	}
	one := &sql.IntervalLit{Value: strconv.FormatInt(scale, 10), Qualifier: &sql.IntervalQualifier{StartUnit: unit, StartPrecision: -1, FracPrecision: -1}}
	if unit == "MILLISECOND" {
		one = durationLit(time.Duration(scale) * time.Millisecond).(*sql.IntervalLit)
	}
	return binary("*", plain(one), e)
}

// MaxIntervalMillis is the largest INTERVAL DAY TO SECOND, in
// milliseconds, that Riffle holds (a Go time.Duration: ±106,751 days).
const MaxIntervalMillis = math.MaxInt64 / int64(time.Millisecond)

func sign(neg bool) time.Duration {
	if neg {
		return -1
	}
	return 1
}

// Year is an interval of e years (PyFlink's year).
func (e Expression) Year() Expression { return e.interval("YEAR", 1) }

// Years is Year (PyFlink's years).
func (e Expression) Years() Expression { return e.Year() }

// Quarter is an interval of e quarters, 3 months each (PyFlink's quarter).
func (e Expression) Quarter() Expression { return e.interval("MONTH", 3) }

// Quarters is Quarter (PyFlink's quarters).
func (e Expression) Quarters() Expression { return e.Quarter() }

// Month is an interval of e months (PyFlink's month).
func (e Expression) Month() Expression { return e.interval("MONTH", 1) }

// Months is Month (PyFlink's months).
func (e Expression) Months() Expression { return e.Month() }

// Week is an interval of e weeks, 7 days each (PyFlink's week).
func (e Expression) Week() Expression { return e.interval("DAY", 7) }

// Weeks is Week (PyFlink's weeks).
func (e Expression) Weeks() Expression { return e.Week() }

// Day is an interval of e days (PyFlink's day).
func (e Expression) Day() Expression { return e.interval("DAY", 1) }

// Days is Day (PyFlink's days).
func (e Expression) Days() Expression { return e.Day() }

// Hour is an interval of e hours (PyFlink's hour).
func (e Expression) Hour() Expression { return e.interval("HOUR", 1) }

// Hours is Hour (PyFlink's hours).
func (e Expression) Hours() Expression { return e.Hour() }

// Minute is an interval of e minutes (PyFlink's minute).
func (e Expression) Minute() Expression { return e.interval("MINUTE", 1) }

// Minutes is Minute (PyFlink's minutes).
func (e Expression) Minutes() Expression { return e.Minute() }

// Second is an interval of e seconds (PyFlink's second).
func (e Expression) Second() Expression { return e.interval("SECOND", 1) }

// Seconds is Second (PyFlink's seconds).
func (e Expression) Seconds() Expression { return e.Second() }

// Milli is an interval of e milliseconds (PyFlink's milli).
func (e Expression) Milli() Expression { return e.interval("MILLISECOND", 1) }

// Millis is Milli (PyFlink's millis).
func (e Expression) Millis() Expression { return e.Milli() }

// ---------------------------------------------------------------- time attributes and window properties

// Rowtime declares the column as the event-time attribute in a DataStream
// field mapping, or, on a group window alias, is the window's rowtime (its
// end minus 1 ms, usable as the rowtime of a following window) (PyFlink's
// rowtime).
func (e Expression) Rowtime() Expression { return e.timeAttr("rowtime") }

// Proctime declares a processing-time attribute in a DataStream field
// mapping, or, on a group window alias, is the window's proctime
// (PyFlink's proctime).
func (e Expression) Proctime() Expression { return e.timeAttr("proctime") }

func (e Expression) timeAttr(p string) Expression {
	if err := e.Err(); err != nil {
		return failed(err)
	}
	return Expression{&exprData{kind: kindTimeAttr, prop: p, args: []Expression{e}, deps: e.x.deps,
		node: &sql.FuncCall{Name: objName("$" + strings.ToUpper(p)), Args: []sql.Expr{e.x.node}}}}
}

// Start is the inclusive start of a group window, on the window's alias:
// Col("w").Start() (PyFlink's start).
func (e Expression) Start() Expression { return e.windowProp("start") }

// End is the exclusive end of a group window (PyFlink's end): a window
// whose last instant is 10:59:59.999 ends at 11:00:00.000.
func (e Expression) End() Expression { return e.windowProp("end") }

func (e Expression) windowProp(p string) Expression {
	if err := e.Err(); err != nil {
		return failed(err)
	}
	return Expression{&exprData{kind: kindWindowProp, prop: p, args: []Expression{e}, deps: e.x.deps,
		node: &sql.FuncCall{Name: objName("$" + strings.ToUpper(p)), Args: []sql.Expr{e.x.node}}}}
}

// ---------------------------------------------------------------- aggregates

// Sum is SUM(e): NULL when all inputs are NULL (PyFlink's sum).
func (e Expression) Sum() Expression { return e.method("SUM") }

// Sum0 is SUM0(e): 0 when all inputs are NULL (PyFlink's sum0).
func (e Expression) Sum0() Expression { return e.method("SUM0") }

// Min is MIN(e) (PyFlink's min).
func (e Expression) Min() Expression { return e.method("MIN") }

// Max is MAX(e) (PyFlink's max).
func (e Expression) Max() Expression { return e.method("MAX") }

// Count is COUNT(e), the number of non-NULL values (PyFlink's count).
func (e Expression) Count() Expression { return e.method("COUNT") }

// Avg is AVG(e), the arithmetic mean (PyFlink's avg).
func (e Expression) Avg() Expression { return e.method("AVG") }

// StddevPop is the population standard deviation (PyFlink's stddev_pop).
func (e Expression) StddevPop() Expression { return e.method("STDDEV_POP") }

// StddevSamp is the sample standard deviation (PyFlink's stddev_samp).
func (e Expression) StddevSamp() Expression { return e.method("STDDEV_SAMP") }

// VarPop is the population variance (PyFlink's var_pop).
func (e Expression) VarPop() Expression { return e.method("VAR_POP") }

// VarSamp is the sample variance (PyFlink's var_samp).
func (e Expression) VarSamp() Expression { return e.method("VAR_SAMP") }

// Collect gathers the values into a MULTISET (PyFlink's collect).
func (e Expression) Collect() Expression { return e.method("COLLECT") }

// Distinct makes an aggregate call distinct: Col("b").Sum().Distinct() is
// SUM(DISTINCT b) (PyFlink's distinct).
func (e Expression) Distinct() Expression {
	if err := e.Err(); err != nil {
		return failed(err)
	}
	f, ok := e.x.node.(*sql.FuncCall)
	if !ok || e.x.kind != kindPlain || f.Over != nil {
		return failedf("Distinct applies to an aggregate function call, not to %s", e)
	}
	cp := *f
	cp.Quantifier = "DISTINCT"
	return Expression{&exprData{node: &cp, deps: e.x.deps}}
}

// Over applies an aggregate to an over window defined with OverWindow:
// Col("b").Count().Over(Col("ow")) (PyFlink's over).
func (e Expression) Over(alias any) Expression {
	if err := e.Err(); err != nil {
		return failed(err)
	}
	var name string
	switch a := alias.(type) {
	case string:
		name = a
	case Expression:
		if a.Err() != nil {
			return failedf("Over: the window must be referenced by its alias, e.g. Col(\"w\"): %v", a.Err())
		}
		id, ok := a.x.node.(*sql.Identifier)
		if !ok || len(id.Parts) != 1 {
			return failedf("Over: the window must be referenced by its alias, e.g. Col(\"w\")")
		}
		name = id.Parts[0].Name
	default:
		return failedf("Over: the window must be referenced by its alias, got %T", alias)
	}
	f, ok := e.x.node.(*sql.FuncCall)
	if !ok || e.x.kind != kindPlain {
		return failedf("Over applies to an aggregate function call, not to %s", e)
	}
	cp := *f
	cp.Over = &sql.WindowSpec{Name: ident(name), Ref: true}
	return Expression{&exprData{node: &cp, deps: e.x.deps}}
}

// ---------------------------------------------------------------- JSON

// JSONExistsOnError is the ON ERROR behaviour of JSONExists (PyFlink's
// JsonExistsOnError).
type JSONExistsOnError string

// ON ERROR behaviours of JSONExists.
const (
	JSONExistsOnErrorTrue    JSONExistsOnError = "TRUE"
	JSONExistsOnErrorFalse   JSONExistsOnError = "FALSE"
	JSONExistsOnErrorUnknown JSONExistsOnError = "UNKNOWN"
	JSONExistsOnErrorError   JSONExistsOnError = "ERROR"
)

// JSONValueOnEmptyOrError is the ON EMPTY / ON ERROR behaviour of
// JSONValue (PyFlink's JsonValueOnEmptyOrError).
type JSONValueOnEmptyOrError string

// ON EMPTY / ON ERROR behaviours of JSONValue.
const (
	JSONValueNull    JSONValueOnEmptyOrError = "NULL"
	JSONValueError   JSONValueOnEmptyOrError = "ERROR"
	JSONValueDefault JSONValueOnEmptyOrError = "DEFAULT"
)

// JSONExists reports whether the JSON string e holds a value at path
// (SQL/JSON path, "lax" by default; "strict $.b" raises an error for a
// missing member, which onError turns into a value) (PyFlink's
// json_exists).
func (e Expression) JSONExists(path string, onError ...JSONExistsOnError) Expression {
	x := e.method("JSON_EXISTS", path)
	if len(onError) > 0 && x.x.err == nil {
		f := *x.x.node.(*sql.FuncCall)
		f.JSON = &sql.JSONClauses{OnError: &sql.JSONBehavior{Kind: string(onError[0])}}
		x.x.node = &f
	}
	return x
}

// JSONValueOption configures JSONValue.
type JSONValueOption func(*sql.JSONClauses) error

// JSONReturning sets JSONValue's result type (STRING by default; BOOLEAN,
// INT and DOUBLE are supported) (PyFlink's returning_type).
func JSONReturning(t *types.DataType) JSONValueOption {
	return func(c *sql.JSONClauses) error {
		n, err := dataTypeNode(t)
		c.Returning = n
		return err
	}
}

// JSONOnEmpty sets what JSONValue returns for a missing value: NULL (the
// default), ERROR, or DEFAULT with a value (PyFlink's on_empty and
// default_on_empty).
func JSONOnEmpty(b JSONValueOnEmptyOrError, defaultValue ...any) JSONValueOption {
	return func(c *sql.JSONClauses) error {
		beh, err := jsonBehavior(b, defaultValue)
		c.OnEmpty = beh
		return err
	}
}

// JSONOnError sets what JSONValue returns on an error (PyFlink's on_error
// and default_on_error).
func JSONOnError(b JSONValueOnEmptyOrError, defaultValue ...any) JSONValueOption {
	return func(c *sql.JSONClauses) error {
		beh, err := jsonBehavior(b, defaultValue)
		c.OnError = beh
		return err
	}
}

func jsonBehavior(b JSONValueOnEmptyOrError, def []any) (*sql.JSONBehavior, error) {
	beh := &sql.JSONBehavior{Kind: string(b)}
	if b == JSONValueDefault {
		if len(def) == 0 {
			return nil, errors.New("JSONValueDefault needs a default value")
		}
		n, _, err := operand(def[0])
		if err != nil {
			return nil, err
		}
		beh.Default = n
	}
	return beh, nil
}

// JSONValue extracts a scalar from the JSON string e at path, as STRING
// unless JSONReturning says otherwise (PyFlink's json_value).
func (e Expression) JSONValue(path string, opts ...JSONValueOption) Expression {
	x := e.method("JSON_VALUE", path)
	if x.x.err != nil || len(opts) == 0 {
		return x
	}
	f := *x.x.node.(*sql.FuncCall)
	f.JSON = &sql.JSONClauses{}
	for _, o := range opts {
		if err := o(f.JSON); err != nil {
			return failed(err)
		}
	}
	x.x.node = &f
	return x
}
