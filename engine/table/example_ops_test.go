package table

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/table/datatypes"
	"github.com/riffle-sql/riffle/engine/types"
)

// Examples of the main Table API operations.

func exampleOrders(env *TableEnvironment) *Table {
	t, err := env.FromElements([]any{
		[]any{1, "Alice", "apple", 10},
		[]any{2, "Bob", "pear", 20},
		[]any{3, "Alice", "pear", 30},
		[]any{4, "Carol", "apple", 40},
	}, "id", "name", "product", "amount")
	if err != nil {
		panic(err)
	}
	return t
}

// A projection with computed, renamed and literal columns.
func ExampleTable_Select() {
	env := exampleEnv()
	orders := exampleOrders(env)
	table(orders.Select(Col("id"), Col("amount").Times(2).As("double"), Concat(Col("name"), "!"), Lit("abc")))
	// Output:
	// +----+--------+--------+-----+
	// | id | double |    _c2 | _c3 |
	// +----+--------+--------+-----+
	// |  1 |     20 | Alice! | abc |
	// |  2 |     40 |   Bob! | abc |
	// |  3 |     60 | Alice! | abc |
	// |  4 |     80 | Carol! | abc |
	// +----+--------+--------+-----+
	// 4 rows in set
}

// Filtering rows; Where and Filter are the same.
func ExampleTable_Where() {
	env := exampleEnv()
	orders := exampleOrders(env)
	show(orders.Where(Col("name").IsEqual("Alice").And(Col("amount").IsGreater(15))).Select(Col("id")))
	show(orders.Filter(Expr("product = 'apple'")).Select(Col("id")))
	// Output:
	// 3
	// 1
	// 4
}

// Grouping with aggregates; unnamed aggregates are named EXPR$n.
func ExampleTable_GroupBy() {
	env := exampleEnv()
	orders := exampleOrders(env)
	r := orders.GroupBy(Col("name")).Select(Col("name"), Col("amount").Sum(), Col("amount").Avg().As("average")).OrderBy(Col("name"))
	fmt.Println(r.Schema().FieldNames())
	show(r)
	// Output:
	// [name EXPR$0 average]
	// Alice, 40, 20
	// Bob, 20, 20
	// Carol, 40, 40
}

// Duplicate rows removed.
func ExampleTable_Distinct() {
	env := exampleEnv()
	orders := exampleOrders(env)
	show(orders.Select(Col("product")).Distinct().OrderBy(Col("product")))
	// Output:
	// apple
	// pear
}

// An inner join on a predicate; field names must not overlap.
func ExampleTable_Join() {
	env := exampleEnv()
	orders := exampleOrders(env)
	prices, _ := env.FromElements([]any{[]any{"apple", 0.5}, []any{"pear", 0.75}}, "fruit", "price")
	show(orders.Join(prices, Col("product").IsEqual(Col("fruit"))).Select(Col("id"), Col("amount").Times(Col("price")).As("cost")).OrderBy(Col("id")))
	// Output:
	// 1, 5.0
	// 2, 15.0
	// 3, 22.5
	// 4, 20.0
}

// Outer joins pad the missing side with NULLs.
func ExampleTable_LeftOuterJoin() {
	env := exampleEnv()
	orders := exampleOrders(env)
	vip, _ := env.FromElements([]any{[]any{"Alice", true}, []any{"Dave", true}}, "who", "vip")
	show(orders.LeftOuterJoin(vip, Col("name").IsEqual(Col("who"))).Select(Col("id"), Col("vip")).OrderBy(Col("id")))
	fmt.Println("--")
	show(orders.Select(Col("name")).Distinct().FullOuterJoin(vip, Col("name").IsEqual(Col("who"))).OrderBy(Col("name").NullsLast()))
	// Output:
	// 1, TRUE
	// 2, NULL
	// 3, TRUE
	// 4, NULL
	// --
	// Alice, Alice, TRUE
	// Bob, NULL, NULL
	// Carol, NULL, NULL
	// NULL, Dave, TRUE
}

// Set operations: UNION removes duplicates, UNION ALL keeps them.
func ExampleTable_Union() {
	env := exampleEnv()
	a, _ := env.FromElements([]any{1, 2, 2}, "x")
	b, _ := env.FromElements([]any{2, 3}, "x")
	show(a.Union(b).OrderBy(Col("x")))
	fmt.Println("--")
	show(a.UnionAll(b).OrderBy(Col("x")))
	// Output:
	// 1
	// 2
	// 3
	// --
	// 1
	// 2
	// 2
	// 2
	// 3
}

// A global sort with an offset and a fetch.
func ExampleTable_OrderBy() {
	env := exampleEnv()
	orders := exampleOrders(env)
	show(orders.OrderBy(Col("amount").Desc()).Offset(1).Fetch(2).Select(Col("id"), Col("amount")))
	// Output:
	// 3, 30
	// 2, 20
}

// Column operations.
func ExampleTable_AddColumns() {
	env := exampleEnv()
	orders := exampleOrders(env)
	fmt.Println(orders.AddColumns(Col("amount").Plus(1).As("a1"), Concat(Col("name"), "sunny").As("b1")).Schema().FieldNames())
	fmt.Println(orders.AddOrReplaceColumns(Col("amount").Times(100).As("amount")).Schema().FieldNames())
	fmt.Println(orders.DropColumns(Col("product"), Col("amount")).Schema().FieldNames())
	fmt.Println(orders.RenameColumns(Col("id").As("order_id"), Col("name").As("customer")).Schema().FieldNames())
	fmt.Println(orders.Alias("a", "b", "c", "d").Schema().FieldNames())
	fmt.Println(orders.AddColumns(Lit(1).As("id")).Err())
	// Output:
	// [id name product amount a1 b1]
	// [id name product amount]
	// [id name]
	// [order_id customer product amount]
	// [a b c d]
	// Column 'id' already exists; use AddOrReplaceColumns to replace it
}

// The string form of expressions: SQL expressions with aliases.
func ExampleExprs() {
	env := exampleEnv()
	orders := exampleOrders(env)
	show(orders.Select(Exprs("id, amount + 1 AS a1, UPPER(name) AS n")...).Where(Expr("id <= 2")))
	// Output:
	// 1, 11, ALICE
	// 2, 21, BOB
}

// CallSQL embeds a scalar SQL expression.
func ExampleCallSQL() {
	env := exampleEnv()
	orders := exampleOrders(env)
	show(orders.Select(Col("id"), CallSQL("CASE WHEN amount > 25 THEN 'big' ELSE 'small' END").As("size")).Limit(2))
	fmt.Println(CallSQL("(SELECT 1)").Err())
	// Output:
	// 1, small
	// 2, small
	// CallSQL: sub-queries are not allowed in "(SELECT 1)" (only scalar expressions are)
}

// Errors name the problem; a failed table carries its error on.
func ExampleTable_Err() {
	env := exampleEnv()
	orders := exampleOrders(env)
	t := orders.Select(Col("amout")).Where(Col("id").IsGreater(1))
	fmt.Println(t.Err())
	_, err := t.ExecuteContext(context.Background())
	fmt.Println(err != nil)
	// Output:
	// Column 'amout' not found in any table; did you mean 'amount'?
	// true
}

// Expressions render as SQL.
func ExampleExpression_String() {
	fmt.Println(Col("a").Plus(1).As("a1"))
	fmt.Println(Col("b").Sum().Distinct())
	fmt.Println(IfThenElse(Col("f0").IsGreater(5), "A", "B"))
	fmt.Println(Lit("2016-06-15").ToDate())
	fmt.Println(Col("c").Desc())
	// Output:
	// `a` + 1 AS `a1`
	// SUM(DISTINCT `b`)
	// CASE WHEN `f0` > 5 THEN 'A' ELSE 'B' END
	// CAST('2016-06-15' AS DATE)
	// `c` DESC
}

// A table's name in SQL: String registers it as a view.
func ExampleTable_String() {
	env := exampleEnv()
	orders := exampleOrders(env)
	r, _ := env.SQLQuery("SELECT name, COUNT(*) AS n FROM " + orders.String() + " GROUP BY name")
	show(r.OrderBy(Col("name")))
	fmt.Println(env.ListTemporaryViews())
	// Output:
	// Alice, 2
	// Bob, 1
	// Carol, 1
	// [UnnamedTable$0]
}

// Reading a result row by row as it streams in.
func ExampleTableResult_Rows() {
	ctx := context.Background()
	env := exampleEnv()
	res, _ := exampleOrders(env).Select(Col("id"), Col("name")).ExecuteContext(ctx)
	var err error
	for row, rowErr := range res.Rows(ctx) {
		if rowErr != nil {
			err = rowErr
			break
		}
		fmt.Println(row.Kind, row.Values[0], row.Values[1])
	}
	fmt.Println(err)
	// Output:
	// INSERT 1 Alice
	// INSERT 2 Bob
	// INSERT 3 Alice
	// INSERT 4 Carol
	// <nil>
}

// Reading each row's values into one reused slice, without a *Row per
// row (database/sql's Scan habit).
func ExampleRowIterator_Values() {
	ctx := context.Background()
	env := exampleEnv()
	res, _ := exampleOrders(env).Select(Col("id"), Col("name")).ExecuteContext(ctx)
	it, _ := res.CollectContext(ctx)
	defer it.Close()
	var vals []any
	for it.Next() {
		vals = it.Values(vals)
		fmt.Println(it.Kind(), vals)
	}
	fmt.Println(it.Err())
	// Output:
	// INSERT [1 Alice]
	// INSERT [2 Bob]
	// INSERT [3 Alice]
	// INSERT [4 Carol]
	// <nil>
}

// A plan in Flink's EXPLAIN form.
func ExampleTable_Explain() {
	env := exampleEnv()
	plan, _ := exampleOrders(env).Where(Col("amount").IsGreater(15)).Select(Col("id")).Explain()
	fmt.Println(strings.Split(plan, "\n")[0])
	fmt.Println(strings.Contains(plan, "== Optimized Physical Plan =="), strings.Contains(plan, "== Optimized Execution Plan =="))
	// Output:
	// == Abstract Syntax Tree ==
	// true true
}

// Writing into a registered table and into an anonymous one described by
// a TableDescriptor.
func ExampleTable_ExecuteInsertContext() {
	ctx := context.Background()
	env := exampleEnv()
	var out bytes.Buffer
	env.SetStdout(&out)
	orders := exampleOrders(env)
	_ = env.CreateTemporaryTable("printed", ForConnector("print").Schema(
		NewSchemaBuilder().Column("id", datatypes.BigInt()).Column("name", datatypes.String()).Build()).Build())
	res, err := orders.Select(Col("id"), Col("name")).Where(Col("id").IsLess(3)).ExecuteInsertContext(ctx, "printed")
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = res.WaitContext(ctx)
	fmt.Print(out.String())
	res, _ = orders.ExecuteInsertContext(ctx, ForConnector("blackhole").Build())
	fmt.Println(res.WaitContext(ctx), res.Schema().FieldCount())
	// Output:
	// +I[1, Alice]
	// +I[2, Bob]
	// <nil> 1
}

// A statement set runs several INSERTs as one job.
func ExampleStatementSet() {
	env := exampleEnv()
	var out bytes.Buffer
	env.SetStdout(&out)
	orders := exampleOrders(env)
	_ = env.CreateTemporaryTable("sink", ForConnector("print").Schema(NewSchemaBuilder().Column("n", datatypes.String()).Build()).Build())
	set := env.CreateStatementSet()
	_, _ = set.AddInsert("sink", orders.Where(Col("id").IsEqual(1)).Select(Col("name")))
	_, _ = set.AddInsertSQL("INSERT INTO sink VALUES ('from SQL')")
	ctx := context.Background()
	res, _ := set.ExecuteContext(ctx)
	_ = res.WaitContext(ctx)
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	for _, l := range sortedCopy(lines) {
		fmt.Println(l)
	}
	fmt.Println(res.Schema().FieldNames(), set.Len())
	// Output:
	// +I[Alice]
	// +I[from SQL]
	// [default_catalog.default_database.sink default_catalog.default_database.sink] 0
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

// Reading an inline table from a descriptor.
func ExampleTableEnvironment_FromDescriptor() {
	env := exampleEnv()
	t, err := env.FromDescriptor(ForConnector("datagen").
		Schema(NewSchemaBuilder().Column("f0", datatypes.BigInt()).Build()).
		Option("number-of-rows", 3).Option("fields.f0.kind", "sequence").Option("fields.f0.start", 1).Option("fields.f0.end", 3).Build())
	if err != nil {
		fmt.Println(err)
		return
	}
	show(t)
	// Output:
	// 1
	// 2
	// 3
}

// A temporary view shadows nothing here; it is listed and can be dropped.
func ExampleTableEnvironment_CreateTemporaryView() {
	env := exampleEnv()
	_ = env.CreateTemporaryView("orders", exampleOrders(env))
	t, _ := env.FromPath("orders")
	show(t.Select(Col("id").Count()))
	fmt.Println(env.ListTemporaryViews(), must(env.ListTables()))
	fmt.Println(must(env.DropTemporaryView("orders")), must(env.DropTemporaryView("orders")))
	// Output:
	// 4
	// [orders] [orders]
	// true false
}

// A Go function as a scalar UDF, called inline and from SQL after
// registration.
func ExampleUDF() {
	env := exampleEnv()
	orders := exampleOrders(env)
	discount := UDF(func(amount int64, pct float64) float64 { return float64(amount) * (1 - pct/100) }, WithName("discount"))
	show(orders.Select(Col("id"), discount.Call(Col("amount"), 10)).Limit(2))
	_ = env.CreateTemporarySystemFunction("discount", discount)
	r, _ := env.SQLQuery("SELECT discount(amount, 50) FROM " + orders.String() + " WHERE id = 4")
	show(r)
	fmt.Println(env.ListUserDefinedFunctions())
	// Output:
	// 1, 9.0
	// 2, 18.0
	// 20.0
	// [discount]
}

// shout is a ScalarFunction with a lifecycle: Open reads a job parameter.
type shout struct{ suffix string }

func (s *shout) Open(ctx *FunctionContext) error {
	s.suffix = ctx.JobParameter("suffix", "!")
	return nil
}

func (s *shout) Eval(args ...any) (any, error) {
	if args[0] == nil {
		return nil, nil
	}
	return strings.ToUpper(args[0].(string)) + s.suffix, nil
}

// A ScalarFunction implementation with open and job parameters.
func ExampleScalarFunction() {
	env := exampleEnv()
	env.Config().ExecutionConfig().SetGlobalJobParameters(map[string]string{"suffix": "?!"})
	f := UDF(&shout{}, WithResultType(datatypes.String()), WithInputTypes(datatypes.String()))
	show(exampleOrders(env).Select(f.Call(Col("name"))).Limit(2))
	// Output:
	// ALICE?!
	// BOB?!
}

// An aggregate function with its accumulator.
func ExampleUDAF() {
	env := exampleEnv()
	orders := exampleOrders(env)
	mm := UDAF(minMax{}, WithName("min_max"))
	show(orders.GroupBy(Col("name")).Aggregate(mm.Call(Col("amount")).As("lo", "hi")).Select(Col("name"), Col("lo"), Col("hi")).OrderBy(Col("name")))
	// Output:
	// Alice, 10, 30
	// Bob, 20, 20
	// Carol, 40, 40
}

// A DataStream of Go rows in, a changelog stream out: ctx bounds the
// stream (its end would cancel the job).
func ExampleTableEnvironment_ToChangelogStreamContext() {
	ctx := context.Background()
	env := atParallelismOne(MustCreate(InStreamingMode()))
	rt := datatypes.Row(datatypes.Field("name", datatypes.String()), datatypes.Field("score", datatypes.Int()))
	ch := make(chan *types.Row, 3)
	ch <- types.NewRow("Alice", int32(12))
	ch <- types.NewRow("Bob", int32(10))
	ch <- types.NewRow("Alice", int32(100))
	close(ch)
	t, _ := env.FromDataStream(NewDataStream(ch, rt))
	out, _ := env.ToChangelogStreamContext(ctx, t.GroupBy(Col("name")).Select(Col("name"), Col("score").Sum()), nil)
	for r := range out.Rows() {
		fmt.Println(r)
	}
	fmt.Println(out.Err())
	// Output:
	// +I[Alice, 12]
	// +I[Bob, 10]
	// -U[Alice, 12]
	// +U[Alice, 112]
	// <nil>
}

// Arrow records in and out (the Go form of from_pandas / to_pandas).
func ExampleTableEnvironment_FromArrow() {
	env := exampleEnv()
	schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Float64}, {Name: "b", Type: arrow.BinaryTypes.String}}, nil)
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	b.Field(0).(*array.Float64Builder).AppendValues([]float64{0.25, 0.75, 0.9}, nil)
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"x", "y", "z"}, nil)
	rec := b.NewRecordBatch()
	t, _ := env.FromArrow([]arrow.RecordBatch{rec}, nil)
	out, err := t.Filter(Col("a").IsGreater(0.5)).ToArrowContext(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(out.NumRows(), out.Schema().Field(0).Name, out.Column(1).(*array.String).Value(0))
	// Output:
	// 2 a y
}

// Modules: function lookup searches the used modules in order.
func ExampleTableEnvironment_LoadModule() {
	env := exampleEnv()
	twice := UDF(func(x int64) int64 { return 2 * x }, WithName("twice"))
	_ = env.LoadModule("mine", NewFunctionModule(twice))
	fmt.Println(env.ListModules(), env.ListFullModules())
	r, _ := env.SQLQuery("SELECT twice(21)")
	show(r)
	_ = env.UseModules("core")
	fmt.Println(env.ListFullModules())
	_, err := env.SQLQuery("SELECT twice(21)")
	fmt.Println(err)
	// Output:
	// [core mine] [core(used) mine(used)]
	// 42
	// [core(used) mine(unused)]
	// From line 1, column 8 to line 1, column 12: No match found for function signature twice(<NUMERIC>)
}

// The catalog API of an in-memory catalog.
func ExampleTableEnvironment_RegisterCatalog() {
	env := exampleEnv()
	c := catalog.NewInMemoryCatalog("mycat", "mydb")
	_ = c.CreateDatabase("sales", catalog.NewCatalogDatabase(map[string]string{"k": "v"}, "the sales"), false)
	schema := types.NewPhysicalSchema([]string{"id", "day"}, []*types.DataType{types.IntType(), types.StringType()})
	_ = c.CreateTable(catalog.NewObjectPath("sales", "orders"), catalog.NewCatalogTable(schema, []string{"day"}, map[string]string{"connector": "datagen"}, ""), false)
	_ = c.CreatePartition(catalog.NewObjectPath("sales", "orders"), catalog.NewCatalogPartitionSpec(map[string]string{"day": "mon"}), catalog.NewCatalogPartition(nil, ""), false)
	_ = env.RegisterCatalog("mycat", c)
	_ = env.UseCatalog("mycat")
	fmt.Println(env.CurrentCatalog(), env.CurrentDatabase(), must(env.ListDatabases()))
	_ = env.UseDatabase("sales")
	fmt.Println(must(env.ListTables()))
	parts, _ := c.ListPartitions(catalog.NewObjectPath("sales", "orders"), nil)
	fmt.Println(parts)
	db, _ := c.GetDatabase("sales")
	fmt.Println(db.GetComment(), db.GetProperties())
	err := c.CreatePartition(catalog.NewObjectPath("sales", "orders"), catalog.NewCatalogPartitionSpec(map[string]string{"month": "may"}), catalog.NewCatalogPartition(nil, ""), false)
	fmt.Println(err)
	// Output:
	// mycat mydb [mydb sales]
	// [orders]
	// [day=mon]
	// the sales map[k:v]
	// PartitionSpec month=may does not match partition keys [day] of table sales.orders in catalog mycat.
}

// Typed configuration.
func ExampleTableConfig_SetLocalTimeZone() {
	env := exampleEnv()
	c := env.Config()
	_ = c.SetLocalTimeZone("America/Los_Angeles")
	fmt.Println(c.LocalTimeZone())
	fmt.Println(c.SetLocalTimeZone("Mars/Olympus") != nil)
	r, err := env.SQLQuery("SELECT CAST(TO_TIMESTAMP_LTZ(0, 3) AS STRING)")
	if err != nil {
		fmt.Println(err)
		return
	}
	show(r)
	// Output:
	// America/Los_Angeles
	// true
	// 1969-12-31 16:00:00.000
}

// A job's client: status and result.
func ExampleTableResult_JobClient() {
	ctx := context.Background()
	env := exampleEnv()
	res, _ := exampleOrders(env).ExecuteInsertContext(ctx, ForConnector("blackhole").Build())
	jc := res.JobClient()
	r, err := jc.GetJobExecutionResult(ctx)
	fmt.Println(err, jc.GetJobStatus(), string(r.JobID()) == jc.GetJobID(), len(r.JobID()))
	// Output:
	// <nil> FINISHED true 32
}
