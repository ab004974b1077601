package table

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/riffle-sql/riffle/engine/table/datatypes"
	"github.com/riffle-sql/riffle/engine/types"
)

// Examples of the seed inventory's §6 that use built-in functions, set
// operations and table functions (BIN, HEX, LPAD, JSON_VALUE, INTERSECT
// ALL, UNNEST, LATERAL TABLE, ...).

// exampleTop2 keeps the two largest values of a group (the seed's Top2).
type exampleTop2 struct{}

func (exampleTop2) CreateAccumulator() any { return &[2]*int64{} }

func (exampleTop2) Accumulate(acc any, args ...any) error {
	a := acc.(*[2]*int64)
	if args[0] == nil {
		return nil
	}
	v := args[0].(int64)
	switch {
	case a[0] == nil || v > *a[0]:
		a[1], a[0] = a[0], &v
	case a[1] == nil || v > *a[1]:
		a[1] = &v
	}
	return nil
}

func (exampleTop2) EmitValue(acc any, out *Collector) error {
	for _, p := range acc.(*[2]*int64) {
		if p == nil {
			out.Collect(nil)
		} else {
			out.Collect(*p)
		}
	}
	return nil
}

func (exampleTop2) GetResultType() *types.DataType {
	return datatypes.Row(datatypes.Field("a", datatypes.BigInt()))
}

// E-05: PyFlink's lit("42").in_(1, 2, 3) is false. Flink's planner
// rejects comparing a string with integers in IN, as Riffle's does; with
// the string cast to INT the result is the documented false.
func ExampleExpression_In() {
	env := exampleEnv()
	eval(env, Lit("42").In(1, 2, 3))
	eval(env, Lit("42").Cast(types.IntType()).In(1, 2, 3), Lit(2).In(1, 2, 3))
	// Output:
	// error: implicit type conversion between CHAR and INTEGER is not supported now
	// FALSE, TRUE
}

// E-12
func ExampleExpression_Bin() {
	env := exampleEnv()
	eval(env, Lit(4).Bin(), Lit(12).Bin(), NullOf(types.IntType()).Bin())
	// Output:
	// 100, 1100, NULL
}

// E-13
func ExampleExpression_Hex() {
	env := exampleEnv()
	eval(env, Lit(20).Hex(), Lit(100).Hex(), Lit("hello,world").Hex(), NullOf(types.IntType()).Hex())
	// Output:
	// 14, 64, 68656C6C6F2C776F726C64, NULL
}

// E-15: truncation does not round.
func ExampleExpression_Truncate() {
	env := exampleEnv()
	eval(env, Lit(types.MustDecimal("42.345")).Truncate(2), Lit(42).Truncate(-1), Lit(types.MustDecimal("42.345")).Truncate())
	// Output:
	// 42.34, 40, 42
}

// E-16: the sign keeps the decimal scale.
func ExampleExpression_Sign() {
	env := exampleEnv()
	eval(env, Lit(types.MustDecimal("1.23")).Sign(), Lit(types.MustDecimal("-1.23")).Sign())
	// Output:
	// 1.00, -1.00
}

// E-17: the same seed gives the same sequence; values lie in [0, 1) and
// [0, bound).
func ExampleRand() {
	env := exampleEnv()
	t, _ := env.FromElements([]any{1, 2, 3, 4, 5}, "n")
	show(t.Select(Rand(7).IsEqual(Rand(7)), Rand(7).Between(0, 0.9999999999),
		RandInteger(10, 3).IsEqual(RandInteger(10, 3)), RandInteger(10, 3).Between(0, 9)).Distinct())
	// Output:
	// TRUE, TRUE, TRUE, TRUE
}

// E-19: padding truncates a longer string.
func ExampleExpression_Lpad() {
	env := exampleEnv()
	eval(env, Lit("hi").Lpad(4, "??"), Lit("hi").Lpad(1, "??"))
	// Output:
	// ??hi, h
}

// E-20
func ExampleExpression_Rpad() {
	env := exampleEnv()
	eval(env, Lit("hi").Rpad(4, "??"), Lit("hi").Rpad(1, "??"))
	// Output:
	// hi??, h
}

// E-21
func ExampleExpression_Overlay() {
	env := exampleEnv()
	eval(env, Lit("xxxxxtest").Overlay("xxxx", 6), Lit("xxxxxtest").Overlay("xxxx", 6, 2))
	// Output:
	// xxxxxxxxx, xxxxxxxxxst
}

// E-22: positions are 1-based; 0 means not found.
func ExampleExpression_Position() {
	env := exampleEnv()
	eval(env, Lit("a").Position("bbbbba"), Lit("z").Position("bbbbba"))
	// Output:
	// 6, 0
}

// E-23
func ExampleExpression_Replace() {
	env := exampleEnv()
	eval(env, Lit("This is a test String.").Replace(" ", "_"))
	// Output:
	// This_is_a_test_String.
}

// E-25: SIMILAR TO with a SQL regular expression.
func ExampleExpression_Similar() {
	env := exampleEnv()
	t, _ := env.FromElements([]any{"A", "AAA", "AB", ""}, "s")
	show(t.Select(Col("s"), Col("s").Similar("A+")))
	// Output:
	// A, TRUE
	// AAA, TRUE
	// AB, FALSE
	// , FALSE
}

// E-26: words are runs of letters and digits.
func ExampleExpression_InitCap() {
	env := exampleEnv()
	eval(env, Lit("hello wORLD, it's 9am-now").InitCap())
	// Output:
	// Hello World, It'S 9am-Now
}

// E-27: CONCAT is NULL when any argument is; CONCAT_WS skips NULL
// arguments but keeps empty strings, and is NULL only for a NULL
// separator.
func ExampleConcatWs() {
	env := exampleEnv()
	null := NullOf(types.StringType())
	eval(env, Concat("a", null, "c"), ConcatWs("-", "a", null, "", "c"), ConcatWs(null, "a", "b"))
	// Output:
	// NULL, a--c, NULL
}

// E-28: hash lengths in hexadecimal digits; NULL gives NULL.
func ExampleExpression_Md5() {
	env := exampleEnv()
	s := Lit("flink")
	eval(env, s.Md5().CharLength(), s.Sha1().CharLength(), s.Sha224().CharLength(), s.Sha256().CharLength(),
		s.Sha384().CharLength(), s.Sha512().CharLength(), s.Sha2(384).CharLength(), NullOf(types.StringType()).Md5())
	// Output:
	// 32, 40, 56, 64, 96, 128, 96, NULL
}

// E-29: a random RFC 4122 version 4 UUID.
func ExampleUUID() {
	env := exampleEnv()
	var u string
	for row, err := range oneRow(env).Select(UUID()).Rows(context.Background()) {
		if err != nil {
			fmt.Println("error:", err)
			return
		}
		u, _ = row.Values[0].(string)
	}
	fmt.Println(len(u), regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(u))
	// Output:
	// 36 true
}

// E-30: the only element of an array; NULL for an empty one.
func ExampleExpression_Element() {
	env := exampleEnv()
	t, _ := env.FromElementsWithType([]any{[]any{[]any{7}}, []any{[]any{}}},
		datatypes.Row(datatypes.Field("a", datatypes.Array(datatypes.Int()))))
	show(t.Select(Col("a").Element()))
	show(oneRow(env).Select(Array(1, 2).Element()))
	// Output:
	// 7
	// NULL
	// error: ELEMENT: the array has more than one element (2) (in operator Calc)
}

// E-31: array access is 1-based; map access is by key; cardinality
// counts elements or entries.
func ExampleExpression_At() {
	env := exampleEnv()
	eval(env, Array(10, 20, 30).At(1), Array(10, 20, 30).At(4), Map("k1", 1, "k2", 2).At("k2"),
		Array(10, 20, 30).Cardinality(), Map("k1", 1, "k2", 2).Cardinality())
	// Output:
	// 10, NULL, 2, 3, 2
}

// E-32
func ExampleExpression_Extract() {
	env := exampleEnv()
	eval(env, Lit("2006-06-05").ToDate().Extract(TimeIntervalUnitDay))
	// Output:
	// 5
}

// E-33: rounding a time up to a unit.
func ExampleExpression_Ceil() {
	env := exampleEnv()
	eval(env, Lit("12:44:31").ToTime().Ceil(TimeIntervalUnitMinute))
	// Output:
	// 12:45:00
}

// E-34: rounding a time down to a unit.
func ExampleExpression_Floor() {
	env := exampleEnv()
	eval(env, Lit("12:44:31").ToTime().Floor(TimeIntervalUnitMinute))
	// Output:
	// 12:44:00
}

// E-37: leftEnd >= rightStart AND rightEnd >= leftStart.
func ExampleTemporalOverlaps() {
	env := exampleEnv()
	eval(env, TemporalOverlaps(Lit("2:55:00").ToTime(), Lit(1).Hours(), Lit("3:30:00").ToTime(), Lit(2).Hours()))
	// Output:
	// TRUE
}

// E-38: formatting a timestamp.
func ExampleDateFormat() {
	env := exampleEnv()
	eval(env, DateFormat(Lit("2017-05-05 10:11:12").ToTimestamp(), "yyyy, dd MMM"))
	// Output:
	// 2017, 05 May
}

// E-39
func ExampleTimestampDiff() {
	env := exampleEnv()
	eval(env, TimestampDiff(TimePointUnitDay, Lit("2016-06-15").ToDate(), Lit("2016-06-18").ToDate()))
	// Output:
	// 3
}

// E-41: CURRENT_TIMESTAMP is a TIMESTAMP_LTZ, LOCALTIMESTAMP a TIMESTAMP.
func ExampleCurrentTimestamp() {
	env := exampleEnv()
	fmt.Print(oneRow(env).Select(CurrentTimestamp().As("now"), LocalTimestamp().As("local")).Schema())
	// Output:
	// root
	//  |-- now: TIMESTAMP_LTZ(3) NOT NULL
	//  |-- local: TIMESTAMP(3) NOT NULL
}

// E-42: JSON_EXISTS, with lax (default) and strict paths.
func ExampleExpression_JSONExists() {
	env := exampleEnv()
	j := Lit(`{"a": true}`)
	eval(env, j.JSONExists("$.a"), j.JSONExists("$.b"), Lit(`{"a": [{ "b": 1 }]}`).JSONExists("$.a[0].b"),
		j.JSONExists("strict $.b", JSONExistsOnErrorTrue), j.JSONExists("strict $.b", JSONExistsOnErrorFalse))
	// Output:
	// TRUE, FALSE, TRUE, TRUE, FALSE
}

// E-43: JSON_VALUE extracts scalars, as STRING unless told otherwise.
func ExampleExpression_JSONValue() {
	env := exampleEnv()
	j := Lit(`{"a": true}`)
	eval(env, j.JSONValue("$.a"), j.JSONValue("$.a", JSONReturning(types.BooleanType())),
		j.JSONValue("lax $.b", JSONReturning(types.BooleanType()), JSONOnEmpty(JSONValueDefault, false)),
		j.JSONValue("strict $.b", JSONReturning(types.BooleanType()), JSONOnError(JSONValueDefault, false)))
	// Output:
	// true, TRUE, FALSE, FALSE
}

// E-45: the aggregate functions of the seed's example.
func ExampleExpression_StddevPop() {
	env := exampleEnv()
	t, _ := env.FromElements([]any{[]any{"x", 2}, []any{"x", 4}, []any{"x", 4}, []any{"x", 6}}, "a", "b")
	b := Col("b")
	r := t.GroupBy(Col("a")).Select(Col("a"), b.Sum().As("d"), b.Sum0().As("e"), b.Min().As("f"), b.Max().As("g"),
		b.Count().As("h"), b.Avg().As("i"), b.Cast(types.DoubleType()).StddevPop().As("j"), b.Cast(types.DoubleType()).StddevSamp().As("k"),
		b.Cast(types.DoubleType()).VarPop().As("l"), b.Cast(types.DoubleType()).VarSamp().As("m"), b.Collect().As("n"))
	table(r)
	// Output:
	// +---+----+----+---+---+---+---+--------------------+-------------------+-----+--------------------+-----------------+
	// | a |  d |  e | f | g | h | i |                  j |                 k |   l |                  m |               n |
	// +---+----+----+---+---+---+---+--------------------+-------------------+-----+--------------------+-----------------+
	// | x | 16 | 16 | 2 | 6 | 4 | 4 | 1.4142135623730951 | 1.632993161855452 | 2.0 | 2.6666666666666665 | {2=1, 4=2, 6=1} |
	// +---+----+----+---+---+---+---+--------------------+-------------------+-----+--------------------+-----------------+
	// 1 row in set
}

// E-72: limits, offsets and fetches.
func ExampleTable_Limit() {
	env := exampleEnv()
	t, _ := env.FromElements([]any{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}, "n")
	s := t.OrderBy(Col("n"))
	show(s.Limit(3).Select(Col("n").Sum()))
	show(s.Limit(5, 10).Select(Col("n").Collect()))
	show(t.OrderBy(Col("n").Desc()).Fetch(3).Select(Col("n").Collect()))
	show(t.OrderBy(Col("n").Desc()).Offset(10).Fetch(5).Select(Col("n").Collect()))
	show(t.OrderBy(Col("n").Desc()).Offset(3).Select(Col("n").Count()))
	// Output:
	// 6
	// {11=1, 12=1, 13=1, 14=1, 15=1}
	// {16=1, 15=1, 14=1}
	// {6=1, 5=1, 4=1, 3=1, 2=1}
	// 13
}

// E-73: MINUS ALL returns n - m copies; INTERSECT ALL min(n, m).
func ExampleTable_MinusAll() {
	env := exampleEnv()
	l, _ := env.FromElements([]any{"a", "a", "a", "b"}, "x")
	r, _ := env.FromElements([]any{"a", "b", "b"}, "x")
	show(l.MinusAll(r).OrderBy(Col("x")))
	fmt.Println("--")
	show(l.IntersectAll(r).OrderBy(Col("x")))
	fmt.Println("--")
	show(l.Minus(r))
	// Output:
	// a
	// a
	// --
	// a
	// b
	// --
}

// E-74: a table aggregate function emits two rows per group.
func ExampleUDTAF() {
	env := exampleEnv()
	t, _ := env.FromElements([]any{[]any{1, "x"}, []any{7, "x"}, []any{3, "x"}, []any{5, "y"}}, "a", "c")
	top2 := UDTAF(exampleTop2{})
	show(t.GroupBy(Col("c")).FlatAggregate(top2.Call(Col("a")).As("a")).Select(Col("c"), Col("a")).OrderBy(Col("c")))
	// Output:
	// x, 7
	// x, 3
	// y, 5
	// y, NULL
}

// E-75: a table function emitting (x, s) per comma-separated token.
func ExampleTable_FlatMap() {
	env := exampleEnv()
	t, _ := env.FromElements([]any{[]any{1, "a,b"}, []any{2, "c"}}, "a", "b")
	split := UDTF(func(x int64, s string, emit func(int32, string)) {
		for _, p := range strings.Split(s, ",") {
			emit(int32(x), p)
		}
	}, WithName("split"))
	show(t.FlatMap(split.Call(Col("a"), Col("b"))))
	// Output:
	// 1, a
	// 1, b
	// 2, c
}
