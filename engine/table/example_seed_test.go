package table

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/common"
	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/table/datatypes"
	"github.com/riffle-sql/riffle/engine/table/descriptors"
	"github.com/riffle-sql/riffle/engine/types"
)

// Examples of the seed inventory's §6 with expected results, E-48 to E-98
// and E-ROUND, E-PATH, E-RSCHEMA.

// E-48: interval values are shown normalized: 70 seconds as days to
// seconds, 50 months as years to months.
func ExampleExpression_Seconds() {
	env := exampleEnv()
	eval(env, Lit(70).Seconds(), Lit(50).Months())
	// Output:
	// +0 00:01:10.000, +4-02
}

// E-49: interval types of day-time and year-month resolutions.
func ExampleTableSchema_ToRowDataType() {
	fmt.Println(datatypes.Interval(datatypes.Day(2), datatypes.Second(9)))
	fmt.Println(datatypes.Interval(datatypes.Year(4), datatypes.Month()))
	fmt.Println(datatypes.Interval(datatypes.Second(3)))
	// Output:
	// INTERVAL DAY(2) TO SECOND(9)
	// INTERVAL YEAR(4) TO MONTH
	// INTERVAL SECOND(3)
}

// E-50: type ranges and defaults.
func ExampleTableEnvironment_FromElementsWithType() {
	env := exampleEnv()
	rt := datatypes.Row(datatypes.Field("ti", datatypes.TinyInt()), datatypes.Field("si", datatypes.SmallInt()),
		datatypes.Field("i", datatypes.Int()), datatypes.Field("bi", datatypes.BigInt()))
	t, _ := env.FromElementsWithType([]any{[]any{-128, -32768, -2147483648, int64(-9223372036854775808)},
		[]any{127, 32767, 2147483647, int64(9223372036854775807)}}, rt)
	show(t)
	_, err := env.FromElementsWithType([]any{[]any{128, 0, 0, 0}}, rt)
	fmt.Println(err)
	fmt.Println(datatypes.String(), datatypes.Bytes(), datatypes.Timestamp(), datatypes.TimestampLTZ(), datatypes.Time())
	// Output:
	// -128, -32768, -2147483648, -9223372036854775808
	// 127, 32767, 2147483647, 9223372036854775807
	// element 0, field ti: value 128 is out of the TINYINT range
	// STRING BYTES TIMESTAMP(6) TIMESTAMP_LTZ(6) TIME(0)
}

// E-51: a DataStream field of Java's BigDecimal type becomes
// DECIMAL(38, 18).
func ExampleTableEnvironment_FromDataStream() {
	env := exampleEnv()
	ti := common.TypeRowNamed([]string{"f0", "f1"}, []*common.TypeInformation{common.TypeString(), common.TypeBigDec()})
	ds := DataStreamOf(ti.DataType(), types.NewRow("a", types.MustDecimal("1.5")))
	t, _ := env.FromDataStream(ds)
	fmt.Print(t.GetSchema())
	show(t)
	// Output:
	// root
	//  |-- f0: STRING
	//  |-- f1: DECIMAL(38, 18)
	// a, 1.500000000000000000
}

// E-ROUND: the rounding modes of the decimal context, rounding to an
// integer.
func ExampleDecimalContext_Round() {
	modes := []RoundingMode{RoundUp, RoundDown, RoundCeiling, RoundFloor, RoundHalfUp, RoundHalfDown, RoundHalfEven, RoundUnnecessary}
	fmt.Println("input: UP DOWN CEILING FLOOR HALF_UP HALF_DOWN HALF_EVEN UNNECESSARY")
	for _, in := range []string{"5.5", "2.5", "1.6", "1.1", "1.0", "-1.0", "-1.1", "-1.6", "-2.5", "-5.5"} {
		line := in + ":"
		for _, m := range modes {
			r, err := DecimalContext{Precision: 34, RoundingMode: m}.Round(types.MustDecimal(in), 0)
			if err != nil {
				line += " Exception"
			} else {
				line += " " + r.String()
			}
		}
		fmt.Println(line)
	}
	// Output:
	// input: UP DOWN CEILING FLOOR HALF_UP HALF_DOWN HALF_EVEN UNNECESSARY
	// 5.5: 6 5 6 5 6 5 6 Exception
	// 2.5: 3 2 3 2 3 2 2 Exception
	// 1.6: 2 1 2 1 2 2 2 Exception
	// 1.1: 2 1 2 1 1 1 1 Exception
	// 1.0: 1 1 1 1 1 1 1 1
	// -1.0: -1 -1 -1 -1 -1 -1 -1 -1
	// -1.1: -2 -1 -1 -2 -1 -1 -1 Exception
	// -1.6: -2 -1 -1 -2 -2 -2 -2 Exception
	// -2.5: -3 -2 -2 -3 -3 -2 -2 Exception
	// -5.5: -6 -5 -5 -6 -6 -5 -6 Exception
}

// E-52: TableConfig and EnvironmentSettings defaults.
func ExampleTableConfig_GetDecimalContext() {
	env := exampleEnv()
	p, m := env.GetConfig().GetDecimalContext()
	fmt.Println(p, m)
	fmt.Println(env.GetConfig().GetMaxGeneratedCodeLength())
	s := InStreamingMode()
	fmt.Println(s.GetBuiltinCatalogName(), s.GetBuiltinDatabaseName())
	// Output:
	// 34 HALF_EVEN
	// 4000
	// default_catalog default_database
}

// E-53: idle state retention; the maximum is 1.5 times the minimum, and a
// deprecated maximum argument is ignored.
func ExampleTableConfig_SetIdleStateRetention() {
	c := NewTableConfig()
	c.SetIdleStateRetention(24 * time.Hour)
	fmt.Println(c.GetIdleStateRetention(), c.GetMinIdleStateRetentionTime(), c.GetMaxIdleStateRetentionTime())
	c.SetIdleStateRetentionTime(24*time.Hour, 72*time.Hour)
	fmt.Println(c.GetMinIdleStateRetentionTime(), c.GetMaxIdleStateRetentionTime())
	c.SetIdleStateRetention(0)
	fmt.Println(c.GetIdleStateRetention())
	// Output:
	// 24h0m0s 86400000 129600000
	// 86400000 129600000
	// 0s
}

// E-54: tuples are unboxed into columns _1, _2, ...
func ExampleTableEnvironment_FromElements() {
	env := exampleEnv()
	t, _ := env.FromElements([]any{[]any{1, "Hi"}, []any{2, "Hello"}})
	fmt.Print(t.GetSchema())
	table(t)
	// Output:
	// root
	//  |-- _1: BIGINT
	//  |-- _2: STRING
	// +----+-------+
	// | _1 |    _2 |
	// +----+-------+
	// |  1 |    Hi |
	// |  2 | Hello |
	// +----+-------+
	// 2 rows in set
}

// E-55: field names, a ROW type (with and without verification) and rows
// given as expressions.
func ExampleTableEnvironment_FromElements_schema() {
	env := exampleEnv()
	data := []any{[]any{1, "Hi"}, []any{2, "Hello"}}
	t, _ := env.FromElements(data, "a", "b")
	fmt.Println(t.GetSchema().GetFieldNames())
	rt := datatypes.Row(datatypes.Field("a", datatypes.Int()), datatypes.Field("b", datatypes.String()))
	t, _ = env.FromElementsWithType(data, rt)
	fmt.Print(t.GetSchema())
	t, _ = env.FromElementsWithType(data, rt, VerifySchema(false))
	fmt.Println(t.GetSchema().GetFieldDataTypes())
	rt3 := datatypes.Row(datatypes.Field("a", datatypes.Int()), datatypes.Field("b", datatypes.String()), datatypes.Field("c", datatypes.Float()))
	t, _ = env.FromElementsWithType([]any{Row(1, "abc", 2.0), Row(2, "def", 3.0)}, rt3)
	show(t)
	// Output:
	// [a b]
	// root
	//  |-- a: INT
	//  |-- b: STRING
	// [INT STRING]
	// 1, abc, 2.0
	// 2, def, 3.0
}

// E-PATH: object paths resolve against the current catalog and database:
// [cur-cat].[cur-db].[path], then [cur-cat].[path], then [path].
func ExampleTableEnvironment_FromPath() {
	env := exampleEnv()
	_ = env.RegisterCatalog("cat1", catalog.NewInMemoryCatalog("cat1", "db1"))
	_, _ = env.ExecuteSQL("CREATE DATABASE db1")
	mk := func(path, where string) {
		t, _ := env.FromElements([]any{where}, "located")
		_ = env.CreateTemporaryView(path, t)
	}
	mk("default_catalog.default_database.tab1", "default_catalog.default_database.tab1")
	mk("default_catalog.db1.tab1", "default_catalog.db1.tab1")
	mk("cat1.db1.tab1", "cat1.db1.tab1")
	for _, p := range []string{"tab1", "db1.tab1", "cat1.db1.tab1"} {
		t, err := env.FromPath(p)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Print(p, " -> ")
		show(t)
	}
	// Output:
	// tab1 -> default_catalog.default_database.tab1
	// db1.tab1 -> default_catalog.db1.tab1
	// cat1.db1.tab1 -> cat1.db1.tab1
}

// E-56: parts with dots or reserved words are backquoted.
func ExampleParsePath() {
	fmt.Printf("%q\n", must(ParsePath("`cat.1`.`db`.`Table`")))
	fmt.Printf("%q\n", must(ParsePath("catalogName.`db.Name`.`Table`")))
	// Output:
	// ["cat.1" "db" "Table"]
	// ["catalogName" "db.Name" "Table"]
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// E-57, E-58: the result kinds and contents of ExecuteSQL: "OK" for DDL
// and USE, -1 per sink for INSERT, rows for queries, SHOW, DESCRIBE and
// EXPLAIN.
func ExampleTableEnvironment_ExecuteSQL() {
	env := exampleEnv()
	var out bytes.Buffer
	env.SetStdout(&out)
	for _, stmt := range []string{
		"CREATE TABLE src (a INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3')",
		"CREATE TABLE snk (a INT) WITH ('connector' = 'blackhole')",
		"USE default_database",
		"INSERT INTO snk SELECT a FROM src",
		"SHOW TABLES",
	} {
		res, err := env.ExecuteSQL(stmt)
		if err != nil {
			fmt.Println(err)
			continue
		}
		_ = res.Wait(0)
		var rows []string
		it, _ := res.Collect()
		for it.Next() {
			rows = append(rows, it.Row().String())
		}
		it.Close()
		fmt.Printf("%s (%d): %s\n", res.GetResultKind(), res.GetResultKind(), strings.Join(rows, " "))
	}
	// Output:
	// SUCCESS (0): +I[OK]
	// SUCCESS (0): +I[OK]
	// SUCCESS (0): +I[OK]
	// SUCCESS_WITH_CONTENT (1): +I[-1]
	// SUCCESS_WITH_CONTENT (1): +I[snk] +I[src]
}

// E-RSCHEMA: the schemas of statement results. As in Flink, the SHOW,
// DESCRIBE and INSERT columns are nullable (DataTypes.STRING(),
// DataTypes.BOOLEAN(), DataTypes.BIGINT()).
func ExampleTableResult_GetTableSchema() {
	env := exampleEnv()
	for _, stmt := range []string{
		"CREATE TABLE t (id INT NOT NULL, name STRING, ts TIMESTAMP(3), PRIMARY KEY (id) NOT ENFORCED, WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen', 'number-of-rows' = '1')",
		"CREATE TABLE s (id INT, name STRING, ts TIMESTAMP(3)) WITH ('connector' = 'blackhole')",
		"SHOW CATALOGS", "SHOW DATABASES", "SHOW TABLES", "SHOW VIEWS", "SHOW FUNCTIONS",
		"DESCRIBE t",
		"EXPLAIN SELECT id FROM t",
		"INSERT INTO s SELECT 1, 'a', TIMESTAMP '2021-01-01 00:00:00'",
		"SELECT id, name FROM t",
	} {
		res, err := env.ExecuteSQL(stmt)
		if err != nil {
			fmt.Println(err)
			continue
		}
		s := res.GetTableSchema()
		var cols []string
		for i, n := range s.GetFieldNames() {
			t, _ := s.GetFieldDataTypeAt(i)
			cols = append(cols, n+" "+t.String())
		}
		fmt.Printf("%-10s %s\n", strings.Fields(stmt)[0], strings.Join(cols, ", "))
		if res.GetJobClient() != nil {
			_ = res.GetJobClient().Cancel()
		}
	}
	// Output:
	// CREATE     result STRING
	// CREATE     result STRING
	// SHOW       catalog name STRING
	// SHOW       database name STRING
	// SHOW       table name STRING
	// SHOW       view name STRING
	// SHOW       function name STRING
	// DESCRIBE   name STRING, type STRING, null BOOLEAN, key STRING, extras STRING, watermark STRING
	// EXPLAIN    result STRING
	// INSERT     default_catalog.default_database.s BIGINT
	// SELECT     id INT NOT NULL, name STRING
}

// E-59: computed columns next to the derived physical columns ≡ CREATE
// TABLE (f0 STRING, f1 DECIMAL(38, 18), c1 AS f1 + 42, c2 AS f1 - 1).
func ExampleSchemaBuilder_ColumnByExpression() {
	env := exampleEnv()
	rt := datatypes.Row(datatypes.Field("f0", datatypes.String()), datatypes.Field("f1", datatypes.Decimal(38, 18)))
	ds := DataStreamOf(rt, types.NewRow("a", types.MustDecimal("1")))
	t, err := env.FromDataStream(ds, NewSchemaBuilder().ColumnByExpression("c1", "f1 + 42").ColumnByExpression("c2", "f1 - 1").Build())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(t.GetSchema())
	// Output:
	// root
	//  |-- f0: STRING
	//  |-- f1: DECIMAL(38, 18)
	//  |-- c1: DECIMAL(38, 17)
	//  |-- c2: DECIMAL(38, 17)
}

// E-60: declared physical columns are reordered and retyped ≡ CREATE
// TABLE (f1 DECIMAL(10, 2), c AS f1 - 1, f0 STRING).
func ExampleSchemaBuilder_Column() {
	env := exampleEnv()
	rt := datatypes.Row(datatypes.Field("f0", datatypes.String()), datatypes.Field("f1", datatypes.Decimal(38, 18)))
	ds := DataStreamOf(rt, types.NewRow("a", types.MustDecimal("12.3456")))
	t, err := env.FromDataStream(ds, NewSchemaBuilder().Column("f1", "DECIMAL(10, 2)").ColumnByExpression("c", "f1 - 1").Column("f0", "STRING").Build())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(t.GetSchema())
	show(t)
	// Output:
	// root
	//  |-- f1: DECIMAL(10, 2)
	//  |-- c: DECIMAL(13, 2)
	//  |-- f0: STRING
	// 12.35, 11.35, a
}

// E-61: the record timestamp as a metadata column with the stream's
// watermarks ≡ CREATE TABLE (f0 STRING, f1 DECIMAL(38, 18), rowtime
// TIMESTAMP_LTZ(3) METADATA, WATERMARK FOR rowtime AS SOURCE_WATERMARK()).
func ExampleSchemaBuilder_Watermark() {
	env := MustCreate(InStreamingMode())
	rt := datatypes.Row(datatypes.Field("f0", datatypes.String()), datatypes.Field("f1", datatypes.Decimal(38, 18)))
	ch := make(chan StreamRecord, 1)
	ch <- StreamRecord{Row: types.NewRow("a", types.MustDecimal("1")), Timestamp: time.UnixMilli(1000)}
	close(ch)
	ds := NewDataStreamOfRecords(ch, rt)
	t, err := env.FromDataStream(ds, NewSchemaBuilder().ColumnByMetadata("rowtime", "TIMESTAMP_LTZ(3)", "", false).Watermark("rowtime", "SOURCE_WATERMARK()").Build())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(t.GetSchema())
	// Output:
	// root
	//  |-- f0: STRING
	//  |-- f1: DECIMAL(38, 18)
	//  |-- rowtime: TIMESTAMP_LTZ(3) *ROWTIME*
}

// E-62, E-63: a rowtime as metadata column of a changelog stream: without
// declared physical columns the last derived column is replaced by it.
func ExampleTableEnvironment_ToChangelogStream() {
	env := exampleEnv()
	t, _ := env.FromElementsWithType([]any{[]any{1, "Alice", time.UnixMilli(1000)}},
		datatypes.Row(datatypes.Field("id", datatypes.Int()), datatypes.Field("name", datatypes.String()), datatypes.Field("my_rowtime", datatypes.TimestampLTZ(3))))
	ds, err := env.ToChangelogStream(t, NewSchemaBuilder().ColumnByMetadata("rowtime", "TIMESTAMP_LTZ(3)", "", false).Build())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.GetSchema())
	for r := range ds.Records() {
		fmt.Println(r.Row, r.Timestamp.UnixMilli())
	}
	ds, _ = env.ToChangelogStream(t, NewSchemaBuilder().Column("id", "INT").Column("name", "STRING").ColumnByMetadata("rowtime", "TIMESTAMP_LTZ(3)", "", false).Build())
	fmt.Println(ds.GetSchema())
	rows, _ := ds.Collect()
	fmt.Println(rows)
	// Output:
	// (
	//   `id` INT,
	//   `name` STRING,
	//   `rowtime` TIMESTAMP_LTZ(3) METADATA
	// )
	// +I[1, Alice] 1000
	// (
	//   `id` INT,
	//   `name` STRING,
	//   `rowtime` TIMESTAMP_LTZ(3) METADATA
	// )
	// [+I[1, Alice]]
}

// E-64: a target schema sets the records' column types.
func ExampleTableEnvironment_ToChangelogStream_types() {
	env := exampleEnv()
	t, _ := env.FromElementsWithType([]any{[]any{1, types.NewRow("Bob", 21)}},
		datatypes.Row(datatypes.Field("id", datatypes.Int()), datatypes.Field("payload",
			datatypes.Row(datatypes.Field("name", datatypes.String()), datatypes.Field("age", datatypes.Int())))))
	ds, err := env.ToChangelogStream(t, NewSchemaBuilder().Column("id", datatypes.BigInt()).
		Column("payload", datatypes.Row(datatypes.Field("name", datatypes.String()), datatypes.Field("age", datatypes.Int()))).Build())
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(ds.GetSchema())
	rows, _ := ds.Collect()
	fmt.Println(rows)
	// Output:
	// (
	//   `id` BIGINT,
	//   `payload` ROW<`name` STRING, `age` INT>
	// )
	// [+I[1, +I[Bob, 21]]]
}

// E-65: a computed column over a metadata column.
func ExampleSchemaBuilder_ColumnByMetadata() {
	s := NewSchemaBuilder().ColumnByExpression("ts", "orig_ts - INTERVAL '60' MINUTE").
		ColumnByMetadata("orig_ts", datatypes.Timestamp(3), "timestamp", false).Build()
	fmt.Println(s)
	// Output:
	// (
	//   `ts` AS orig_ts - INTERVAL '60' MINUTE,
	//   `orig_ts` TIMESTAMP(3) METADATA FROM 'timestamp'
	// )
}

// E-66: a watermark declaration.
func ExampleSchemaBuilder_Watermark_declaration() {
	s := NewSchemaBuilder().Column("ts", datatypes.Timestamp(3)).Watermark("ts", "ts - INTERVAL '5' SECOND").Build()
	fmt.Println(s)
	// Output:
	// (
	//   `ts` TIMESTAMP(3),
	//   WATERMARK FOR `ts` AS ts - INTERVAL '5' SECOND
	// )
}

// E-67: the generated name of a primary key.
func ExampleSchemaBuilder_PrimaryKey() {
	s := NewSchemaBuilder().Column("col1", datatypes.Int().NotNull()).Column("col2", datatypes.String().NotNull()).PrimaryKey("col1", "col2").Build()
	fmt.Println(s.PrimaryKey.Name)
	fmt.Println(s)
	// Output:
	// PK_col1_col2
	// (
	//   `col1` INT NOT NULL,
	//   `col2` STRING NOT NULL,
	//   CONSTRAINT `PK_col1_col2` PRIMARY KEY (`col1`, `col2`) NOT ENFORCED
	// )
}

func printOptions(opts map[string]string) {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("'%s' = '%s'\n", k, opts[k])
	}
}

// E-68: format options get the format's prefix.
func ExampleTableDescriptorBuilder_Format() {
	d := ForConnector("kafka").Format(ForFormat("json").Option("ignore-parse-errors", "true").Build()).Build()
	printOptions(d.GetOptions())
	// Output:
	// 'connector' = 'kafka'
	// 'format' = 'json'
	// 'json.ignore-parse-errors' = 'true'
}

// E-69: a format descriptor's options are unprefixed.
func ExampleForFormat() {
	f := ForFormat("json").Option("ignore-parse-errors", "true").Build()
	fmt.Println(f.GetFormat(), f.GetOptions())
	// Output:
	// json map[ignore-parse-errors:true]
}

// E-70: connector options are fully qualified.
func ExampleTableDescriptorBuilder_Option() {
	d := ForConnector("kafka").Option("scan.startup.mode", "latest-offset").Build()
	printOptions(d.GetOptions())
	// Output:
	// 'connector' = 'kafka'
	// 'scan.startup.mode' = 'latest-offset'
}

// E-71: a permanent table from a descriptor; the int option 10 becomes
// "10".
func ExampleTableEnvironment_CreateTable() {
	env := exampleEnv()
	d := ForConnector("datagen").Schema(NewSchemaBuilder().Column("f0", datatypes.String()).Build()).
		Option("rows-per-second", 10).Option("fields.f0.kind", "random").Build()
	if err := env.CreateTable("MyTable", d); err != nil {
		fmt.Println(err)
		return
	}
	res, _ := env.ExecuteSQL("SHOW CREATE TABLE MyTable")
	it, _ := res.Collect()
	for it.Next() {
		fmt.Println(it.Row().Values[0])
	}
	// Output:
	// CREATE TABLE `default_catalog`.`default_database`.`MyTable` (
	//   `f0` VARCHAR(2147483647)
	// )
	// WITH (
	//   'connector' = 'datagen',
	//   'fields.f0.kind' = 'random',
	//   'rows-per-second' = '10'
	// )
}

// E-76: a ROW-valued scalar function in Map.
func ExampleTable_Map() {
	env := exampleEnv()
	t, _ := env.FromElements([]any{3}, "a")
	add := UDF(func(x int64) *types.Row { return types.NewRow(x+1, x*x) },
		WithResultType(datatypes.Row(datatypes.Field("a", datatypes.BigInt()), datatypes.Field("b", datatypes.BigInt()))))
	show(t.Map(add.Call(Col("a"))).Alias("a, b"))
	// Output:
	// 4, 9
}

// E-78: legacy rowtime descriptors: ascending watermarks trail the maximum
// by 1 ms, bounded ones by the delay.
func ExampleTable_window_rowtime() {
	fmt.Println(descriptors.NewRowtime().WatermarksPeriodicAscending().Watermark(10_000))
	fmt.Println(descriptors.NewRowtime().WatermarksPeriodicBounded(2_000).Watermark(10_000))
	// Output:
	// 9999
	// 8000
}

// E-79: after timestamp T a bounded out-of-orderness B expects no event
// older than T - B; the watermark is T - B - 1 ms.
func ExampleTable_window_watermarkStrategy() {
	w := common.ForBoundedOutOfOrderness(5 * time.Second)
	fmt.Println(w.Watermark(10_000), w.MaxOutOfOrderness())
	fmt.Println(common.ForMonotonousTimestamps().Watermark(10_000))
	// Output:
	// 4999 5s
	// 9999
}

// E-80: keyword fields are sorted by name; access by name.
func ExampleTableEnvironment_FromElements_rowKeywords() {
	row := types.RowFromKeywords(map[string]any{"name": "Alice", "age": 11})
	fmt.Println(row.Repr())
	name, _ := row.Get("name")
	age, _ := row.Get("age")
	fmt.Println(name, age, row.Contains("name"), row.Contains("wrong_key"))
	// Output:
	// Row(age=11, name='Alice')
	// Alice 11 true false
}

// E-81: a row class keeps positional order; its repr quotes the names as
// PyFlink 2.3 does.
func ExampleTableEnvironment_FromElements_rowClass() {
	person := types.NewRowClass("name", "age")
	fmt.Println(person, person.Contains("name"), person.Contains("wrong_key"))
	p, _ := person.New("Alice", 11)
	fmt.Println(p.Repr())
	// Output:
	// <Row('name', 'age')> true false
	// Row(name='Alice', age=11)
}

// E-82: as_dict, plain and recursive.
func ExampleTableEnvironment_FromElements_asDict() {
	row := types.RowFromKeywords(map[string]any{"name": "Alice", "age": 11})
	fmt.Println(row.AsDict())
	nested := types.RowFromKeywords(map[string]any{"key": 1, "value": types.RowFromKeywords(map[string]any{"name": "a", "age": 2})})
	fmt.Println(nested.AsDict()["value"].(*types.Row).Repr())
	fmt.Println(nested.AsDictRecursive())
	// Output:
	// map[age:11 name:Alice]
	// Row(age=2, name='a')
	// map[key:1 value:map[age:2 name:a]]
}

// E-83: RowKind values.
func ExampleTableEnvironment_FromChangelogStream_kinds() {
	for _, k := range []types.RowKind{types.Insert, types.UpdateBefore, types.UpdateAfter, types.Delete} {
		fmt.Println(k, int(k), k.ShortString())
	}
	// Output:
	// INSERT 0 +I
	// UPDATE_BEFORE 1 -U
	// UPDATE_AFTER 2 +U
	// DELETE 3 -D
}

// E-84: ExplainDetail values.
func ExampleTable_Explain_details() {
	for _, d := range []ExplainDetail{EstimatedCost, ChangelogMode, JSONExecutionPlan} {
		fmt.Println(d, d.Ordinal())
	}
	// Output:
	// ESTIMATED_COST 0
	// CHANGELOG_MODE 1
	// JSON_EXECUTION_PLAN 2
}

// E-85: ResultKind values.
func ExampleTableResult_GetResultKind() {
	fmt.Println(Success, int(Success), SuccessWithContent, int(SuccessWithContent))
	// Output:
	// SUCCESS 0 SUCCESS_WITH_CONTENT 1
}

// E-86: SqlDialect values.
func ExampleTableConfig_SetSQLDialect() {
	c := NewTableConfig()
	fmt.Println(c.GetSQLDialect(), int(SqlDialectDefault), SqlDialectHive, int(SqlDialectHive))
	c.SetSQLDialect(SqlDialectHive)
	fmt.Println(c.GetSQLDialect(), c.GetConfiguration().GetString("table.sql-dialect", ""))
	// Output:
	// DEFAULT 0 HIVE 1
	// HIVE hive
}

// E-87: WriteMode values.
func ExampleNewCsvTableSink() {
	fmt.Println(WriteModeNoOverwrite, int(WriteModeNoOverwrite), WriteModeOverwrite, int(WriteModeOverwrite))
	s := NewCsvTableSink([]string{"a", "b"}, []*types.DataType{datatypes.Int(), datatypes.String()}, "/csv/file/path")
	s.FieldDelimiter, s.NumFiles, s.WriteMode = "|", 1, WriteModeOverwrite
	printOptions(s.Descriptor().GetOptions())
	fmt.Println(s.Overwrite())
	// Output:
	// NO_OVERWRITE 0 OVERWRITE 1
	// 'connector' = 'filesystem'
	// 'csv.field-delimiter' = '|'
	// 'format' = 'csv'
	// 'path' = '/csv/file/path'
	// 'sink.parallelism' = '1'
	// true
}

// E-88, E-89, E-91: ExecutionMode and InputDependencyConstraint values and
// the ExecutionConfig defaults.
func ExampleTableConfig_GetExecutionConfig() {
	for _, m := range []common.ExecutionMode{common.ExecutionModePipelined, common.ExecutionModePipelinedForced, common.ExecutionModeBatch, common.ExecutionModeBatchForced} {
		fmt.Println(m, int(m))
	}
	fmt.Println(common.InputDependencyConstraintAny, int(common.InputDependencyConstraintAny), common.InputDependencyConstraintAll, int(common.InputDependencyConstraintAll))
	c := common.NewExecutionConfig(nil)
	fmt.Println(common.ParallelismDefault, common.ParallelismUnknown, c.GetParallelism())
	fmt.Println(c.GetExecutionMode(), c.GetDefaultInputDependencyConstraint(), !c.HasGenericTypesDisabled(), c.HasAutoGeneratedUIDsEnabled())
	// Output:
	// PIPELINED 0
	// PIPELINED_FORCED 1
	// BATCH 2
	// BATCH_FORCED 3
	// ANY 0 ALL 1
	// -1 -2 -1
	// PIPELINED ANY true true
}

// E-90: JobStatus values; SUSPENDED is terminal but not globally terminal.
func ExampleJobClient_GetJobStatusAsync() {
	for s := common.JobCreated; s <= common.JobReconciling; s++ {
		fmt.Println(int(s), s, s.IsTerminalState(), s.IsGloballyTerminalState())
	}
	// Output:
	// 0 CREATED false false
	// 1 RUNNING false false
	// 2 FAILING false false
	// 3 FAILED true true
	// 4 CANCELLING false false
	// 5 CANCELED true true
	// 6 FINISHED true true
	// 7 RESTARTING false false
	// 8 SUSPENDED true false
	// 9 RECONCILING false false
}

// E-92: typed configuration options.
func ExampleTableConfig_GetConfiguration() {
	tmp := config.Key("tmp.dir").StringType().DefaultValue("/tmp")
	par := config.Key("application.parallelism").IntType().DefaultValue(100)
	user := config.Key("user.name").StringType().NoDefaultValue()
	c := config.New()
	fmt.Println(must(config.Get(c, tmp)), must(config.Get(c, par)), user.HasDefaultValue())
	config.Set(c, par, 8)
	fmt.Println(must(config.Get(c, par)), c.GetString("application.parallelism", ""))
	// Output:
	// /tmp 100 false
	// 8 8
}

// E-93: ExecutionConfig settings.
func ExampleTableConfig_GetExecutionConfig_settings() {
	c := common.NewExecutionConfig(nil)
	c.SetGlobalJobParameters(map[string]string{"environment.checkpoint_interval": "1000"})
	fmt.Println(c.GetGlobalJobParameters())
	c.SetRestartStrategy(common.RestartStrategiesFixedDelayRestart(10, 1000*time.Millisecond))
	s := c.GetRestartStrategy().(*common.FixedDelayRestartStrategyConfiguration)
	fmt.Println(s.GetRestartAttempts(), s.GetDelayBetweenAttemptsInterval())
	c.SetExecutionMode(common.ExecutionModeBatch).SetDefaultInputDependencyConstraint(common.InputDependencyConstraintAll)
	c.RegisterKryoType("com.aaa.bbb.KryoClass").RegisterPojoType("com.aaa.bbb.PojoClass")
	c.AddDefaultKryoSerializer("com.aaa.bbb.PojoClass", "com.aaa.bbb.Serializer")
	c.RegisterTypeWithKryoSerializer("com.aaa.bbb.PojoClass", "com.aaa.bbb.Serializer")
	fmt.Println(c.GetExecutionMode(), c.GetDefaultInputDependencyConstraint(), c.GetRegisteredKryoTypes(), c.GetRegisteredPojoTypes())
	fmt.Println(c.GetDefaultKryoSerializerClasses(), c.GetRegisteredTypesWithKryoSerializerClasses())
	// Output:
	// map[environment.checkpoint_interval:1000]
	// 10 1s
	// BATCH ALL [com.aaa.bbb.KryoClass] [com.aaa.bbb.PojoClass]
	// map[com.aaa.bbb.PojoClass:com.aaa.bbb.Serializer] map[com.aaa.bbb.PojoClass:com.aaa.bbb.Serializer]
}

// E-94: configuration through key/value strings, read back as a restart
// strategy and typed values.
func ExampleTableEnvironment_GetConfig() {
	env := exampleEnv()
	conf := env.GetConfig().GetConfiguration()
	conf.SetString("parallelism.default", "8")
	conf.SetString("restart-strategy", "fixed-delay").SetString("restart-strategy.fixed-delay.attempts", "3").
		SetString("restart-strategy.fixed-delay.delay", "30s")
	conf.SetString("execution.checkpointing.mode", "EXACTLY_ONCE").SetString("execution.checkpointing.interval", "3min")
	conf.SetString("state.backend", "rocksdb").SetString("state.checkpoints.dir", "file:///tmp/checkpoints/")
	rs, _ := common.RestartStrategyFromConfiguration(conf)
	fmt.Println(rs.Description())
	fmt.Println(env.GetConfig().GetExecutionConfig().GetParallelism(), conf.GetDuration("execution.checkpointing.interval", 0))
	// Output:
	// Restart with fixed delay (30s). #3 restart attempts.
	// 8 3m0s
}

// E-95: settings as configuration (Flink 2.3's content: the runtime mode
// as its enum name; 1.14's table.planner is gone).
func ExampleEnvironmentSettings_ToConfiguration() {
	printOptions(InBatchMode().ToConfiguration().ToMap())
	printOptions(InStreamingMode().ToConfiguration().ToMap())
	// Output:
	// 'execution.runtime-mode' = 'BATCH'
	// 'execution.runtime-mode' = 'STREAMING'
}

// E-96: the legacy schema descriptor and its current form.
func ExampleTableEnvironment_RegisterTableSource() {
	s := descriptors.NewSchema().
		Field("myString", datatypes.String()).FromOriginField("CSV_MY_STRING").
		Field("proctime", datatypes.TimestampLTZ(3)).Proctime().
		Field("rowtime", datatypes.Timestamp(3)).Rowtime(descriptors.NewRowtime().TimestampsFromField("ts").WatermarksPeriodicBounded(60000)).
		Fields([]string{"int_field", "string_field"}, []any{datatypes.Int(), datatypes.String()})
	u, err := s.ToSchema()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(u)
	// Output:
	// (
	//   `CSV_MY_STRING` STRING,
	//   `int_field` INT,
	//   `string_field` STRING,
	//   `myString` AS `CSV_MY_STRING`,
	//   `proctime` AS PROCTIME(),
	//   `rowtime` AS CAST(`ts` AS TIMESTAMP(3)),
	//   WATERMARK FOR `rowtime` AS `rowtime` - INTERVAL '60.000' SECOND
	// )
}

// E-97: a CSV source with Flink's defaults.
func ExampleNewCsvTableSource() {
	src := NewCsvTableSource("/csv/file/path", []string{"a", "b"}, []*types.DataType{datatypes.Int(), datatypes.String()})
	fmt.Printf("%q %q %q %v %v %v\n", src.FieldDelim, src.LineDelim, src.QuoteCharacter, src.IgnoreFirstLine, src.Lenient, src.EmptyColumnAsNull)
	printOptions(src.Descriptor().GetOptions())
	// Output:
	// "" "" "" false false false
	// 'connector' = 'filesystem'
	// 'csv.disable-quote-character' = 'true'
	// 'format' = 'csv'
	// 'path' = '/csv/file/path'
}

// E-98: UTF-8 string schemas and the newline-terminated string encoder.
func ExampleTableEnvironment_ToDataStream_serialization() {
	s, _ := common.NewSimpleStringSchema()
	fmt.Println(s.GetCharset())
	b, _ := s.Serialize("héllo")
	v, _ := s.Deserialize(b)
	fmt.Println(len(b), v)
	enc, _ := common.SimpleStringEncoder()
	var out bytes.Buffer
	_ = enc.Encode(types.NewRow(1, "a"), &out)
	_ = enc.Encode("x", &out)
	fmt.Printf("%q\n", out.String())
	// Output:
	// UTF-8
	// 6 héllo
	// "+I[1, a]\nx\n"
}

// The chained PyFlink call
// env.get_config().get_execution_config().get_restart_strategy().get_description()
// ports name for name.
func TestExecutionConfigRestartStrategyGetDescriptionChained(t *testing.T) {
	env := exampleEnv()
	env.GetConfig().GetExecutionConfig().SetRestartStrategy(common.RestartStrategiesFixedDelayRestart(10, time.Second))
	got := env.GetConfig().GetExecutionConfig().GetRestartStrategy().GetDescription()
	if want := "Restart with fixed delay (1s). #10 restart attempts."; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
