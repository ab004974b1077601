package table

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/table/datatypes"
	"github.com/riffle-sql/riffle/engine/types"
)

// Examples of the seed inventory's §6 with expected results, E-01 to E-47:
// Expression methods and module functions. Each example names its E-id.

// E-01: both bounds are inclusive.
func ExampleExpression_Between() {
	env := exampleEnv()
	eval(env, Lit(2.1).Between(2.1, 2.1))
	// Output:
	// TRUE
}

// E-02: BETWEEN on dates.
func ExampleExpression_Between_dates() {
	env := exampleEnv()
	eval(env, Lit("2018-05-05").ToDate().Between(Lit("2018-05-01").ToDate(), Lit("2018-05-10").ToDate()))
	// Output:
	// TRUE
}

// E-03
func ExampleExpression_NotBetween() {
	env := exampleEnv()
	eval(env, Lit(2.1).NotBetween(2.1, 2.1))
	// Output:
	// FALSE
}

// E-04
func ExampleExpression_NotBetween_dates() {
	env := exampleEnv()
	eval(env, Lit("2018-05-05").ToDate().NotBetween(Lit("2018-05-01").ToDate(), Lit("2018-05-10").ToDate()))
	// Output:
	// FALSE
}

// E-06: IN and NULL: a NULL element gives NULL; a list holding NULL gives
// NULL when the element is not found and TRUE when it is.
func ExampleExpression_In_nulls() {
	env := exampleEnv()
	null := NullOf(types.IntType())
	eval(env, null.In(1, 2), Lit(3).In(1, null), Lit(1).In(1, null))
	// Output:
	// NULL, NULL, TRUE
}

// E-07: then is a ternary on a BOOLEAN.
func ExampleExpression_Then() {
	env := exampleEnv()
	eval(env, Lit(42).IsGreater(5).Then("A", "B"))
	// Output:
	// A
}

// E-08
func ExampleIfThenElse() {
	env := exampleEnv()
	t, _ := env.FromElements([]any{[]any{10}, []any{1}}, "f0")
	show(t.Select(IfThenElse(Col("f0").IsGreater(5), "A", "B")))
	// Output:
	// A
	// B
}

// E-09: IfNull's result is nullable only if the replacement is: with a
// literal replacement it is NOT NULL.
func ExampleExpression_IfNull() {
	env := exampleEnv()
	t, _ := env.FromElementsWithType([]any{[]any{nil}, []any{7}},
		datatypes.Row(datatypes.Field("nullable_column", datatypes.Int())))
	r := t.Select(Col("nullable_column").IfNull(5).As("v"))
	fmt.Print(r.Schema())
	show(r)
	// Output:
	// root
	//  |-- v: INT NOT NULL
	// 5
	// 7
}

// E-10: the truth tables of IS TRUE, IS FALSE, IS NOT TRUE and IS NOT
// FALSE.
func ExampleExpression_IsTrue() {
	env := exampleEnv()
	t, _ := env.FromElementsWithType([]any{[]any{true}, []any{false}, []any{nil}},
		datatypes.Row(datatypes.Field("b", datatypes.Boolean())))
	show(t.Select(Col("b"), Col("b").IsTrue(), Col("b").IsFalse(), Col("b").IsNotTrue(), Col("b").IsNotFalse()))
	// Output:
	// TRUE, TRUE, FALSE, FALSE, TRUE
	// FALSE, FALSE, TRUE, TRUE, FALSE
	// NULL, FALSE, FALSE, TRUE, TRUE
}

// E-11
func ExampleExpression_Cast() {
	env := exampleEnv()
	eval(env, Lit("42").Cast(types.IntType()))
	// Output:
	// 42
}

// E-14: rounding half away from zero; negative places round left of the
// point.
func ExampleExpression_Round() {
	env := exampleEnv()
	d := Lit(types.MustDecimal("646.646"))
	eval(env, d.Round(2), d.Round(3), d.Round(0), d.Round(-2))
	// Output:
	// 646.65, 646.646, 647, 600
}

// E-18: literal types follow the Go value: an int is INT, a string of n
// characters CHAR(n).
func ExampleLit() {
	env := exampleEnv()
	fmt.Print(oneRow(env).Select(Lit(12).As("i"), Lit("abc").As("s"), Lit(int64(12)).As("l"), Lit(2.5).As("d")).Schema())
	// Output:
	// root
	//  |-- i: INT NOT NULL
	//  |-- s: CHAR(3) NOT NULL
	//  |-- l: BIGINT NOT NULL
	//  |-- d: DOUBLE NOT NULL
}

// E-24: LIKE with _ (one character) and % (any).
func ExampleExpression_Like() {
	env := exampleEnv()
	t, _ := env.FromElements([]any{"John Doe", "Joan", "Jon", "joHn"}, "name")
	show(t.Select(Col("name"), Col("name").Like("Jo_n%")))
	// Output:
	// John Doe, TRUE
	// Joan, TRUE
	// Jon, FALSE
	// joHn, FALSE
}

// E-36: the parsing casts; hours may have one digit.
func ExampleExpression_ToTimestamp() {
	env := exampleEnv()
	r := oneRow(env).Select(Lit("2016-06-15").ToDate().As("d"), Lit("3:30:00").ToTime().As("t"),
		Lit("2016-06-15 3:30:00.001").ToTimestamp().As("ts"))
	fmt.Print(r.Schema())
	show(r)
	// Output:
	// root
	//  |-- d: DATE NOT NULL
	//  |-- t: TIME(0) NOT NULL
	//  |-- ts: TIMESTAMP(3) NOT NULL
	// 2016-06-15, 03:30:00, 2016-06-15 03:30:00.001
}

// E-44: SUM of only NULLs is NULL, SUM0 is 0, COUNT counts non-NULL values.
func ExampleExpression_Sum0() {
	env := exampleEnv()
	t, _ := env.FromElementsWithType([]any{[]any{"a", nil}, []any{"a", nil}},
		datatypes.Row(datatypes.Field("k", datatypes.String()), datatypes.Field("b", datatypes.Int())))
	show(t.GroupBy(Col("k")).Select(Col("b").Sum(), Col("b").Sum0(), Col("b").Count()))
	// Output:
	// NULL, 0, 0
}

// E-46: a distinct aggregate, SUM(DISTINCT b).
func ExampleExpression_Distinct() {
	env := exampleEnv()
	t, _ := env.FromElements([]any{[]any{"x", 2}, []any{"x", 2}, []any{"x", 3}}, "a", "b")
	show(t.GroupBy(Col("a")).Select(Col("a"), Col("b").Sum().Distinct().As("d"), Col("b").Sum().As("all")))
	// Output:
	// x, 5, 7
}

// E-47: column ranges by name or 1-based index, inclusive.
func ExampleWithColumns() {
	env := exampleEnv()
	t, _ := env.FromElements([]any{[]any{1, "x", true, 2.5}}, "a", "b", "c", "d")
	fmt.Println(t.Select(WithColumns(Range("b", "c"))).Schema().FieldNames())
	fmt.Println(t.Select(WithColumns(Col("*"))).Schema().FieldNames())
	fmt.Println(t.Select(WithoutColumns(Range("b", "c"))).Schema().FieldNames())
	fmt.Println(t.Select(WithoutColumns(Col("c"))).Schema().FieldNames())
	fmt.Println(t.Select(WithColumns(Range(2, 3))).Schema().FieldNames())
	// Output:
	// [b c]
	// [a b c d]
	// [a d]
	// [a b d]
	// [b c]
}
