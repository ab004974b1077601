package table

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/table/datatypes"
	"github.com/riffle-sql/riffle/engine/types"
)

// Tests for what a newcomer embedding the engine runs into: the nil
// values returned next to errors, invalid enum and type values, and the
// documented behaviour of functions whose PyFlink docstrings mislead.

// A *Table returned as nil next to an error (FromPath of a missing table,
// say) must not crash the program when used: every method reports "nil
// Table" or returns an empty value.
func TestNilTableMethodsReportErrors(t *testing.T) {
	env := MustCreate(InBatchMode())
	tab, err := env.FromPath("missing")
	if err == nil || tab != nil {
		t.Fatalf("FromPath(missing) = %v, %v; want nil and an error", tab, err)
	}
	wantNil := func(what string, err error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "nil Table") {
			t.Errorf("%s: error %v, want one saying nil Table", what, err)
		}
	}
	_, err = tab.Execute()
	wantNil("Execute", err)
	_, err = tab.Explain()
	wantNil("Explain", err)
	_, err = tab.ExecuteInsert("sink")
	wantNil("ExecuteInsert", err)
	wantNil("InsertInto", tab.InsertInto("sink"))
	_, err = tab.ToArrow()
	wantNil("ToArrow", err)
	wantNil("Err", tab.Err())
	wantNil("Select(...).Err", tab.Select(Col("a")).Err())
	if n := len(tab.Schema().FieldNames()); n != 0 {
		t.Errorf("GetSchema of a nil Table has %d fields, want 0", n)
	}
	if n := len(tab.ResolvedSchema().Columns); n != 0 {
		t.Errorf("GetResolvedSchema of a nil Table has %d columns, want 0", n)
	}
	if s := tab.String(); s != "<invalid table: nil Table>" {
		t.Errorf("String = %q", s)
	}
	if tab.QueryString() != "" || tab.Environment() != nil {
		t.Errorf("QueryString, Environment of a nil Table: %q %v", tab.QueryString(), tab.Environment())
	}
	var buf bytes.Buffer
	tab.PrintSchemaTo(&buf)
	if got := buf.String(); got != "root\n" {
		t.Errorf("PrintSchemaTo of a nil Table wrote %q, want \"root\\n\"", got)
	}
}

// The *TableResult returned as nil next to an ExecuteSQL error: Print,
// Collect and Wait return an error instead of panicking.
func TestNilTableResultMethodsReportErrors(t *testing.T) {
	env := MustCreate(InBatchMode())
	res, err := env.ExecuteSQL("SELEC 1")
	if err == nil || res != nil {
		t.Fatalf("ExecuteSQL(SELEC 1) = %v, %v; want nil and a syntax error", res, err)
	}
	for what, err := range map[string]error{
		"Print": res.PrintTo(&bytes.Buffer{}),
		"Wait":  res.Wait(time.Second),
		"Collect": func() error {
			_, err := res.Collect()
			return err
		}(),
	} {
		if !errors.Is(err, errNilResult) {
			t.Errorf("%s on a nil TableResult: %v, want errNilResult", what, err)
		}
	}
	if res.ResultKind() != Success || res.JobClient() != nil || res.IsQuery() || res.Message() != "" ||
		len(res.Schema().FieldNames()) != 0 {
		t.Errorf("getters of a nil TableResult: %v %v %v %q %v", res.ResultKind(), res.JobClient(), res.IsQuery(), res.Message(), res.Schema())
	}
}

func TestRegisterCatalogRejectsNil(t *testing.T) {
	env := MustCreate(InBatchMode())
	var typedNil *catalog.InMemoryCatalog
	for _, c := range []catalog.Catalog{nil, typedNil} {
		err := env.RegisterCatalog("c", c)
		if err == nil || !strings.Contains(err.Error(), "nil catalog") {
			t.Errorf("RegisterCatalog(%#v) = %v, want a nil catalog error", c, err)
		}
	}
	if got := env.ListCatalogs(); len(got) != 1 || got[0] != "default_catalog" {
		t.Errorf("catalogs after the failed registrations: %v", got)
	}
	if err := env.RegisterCatalog("c", catalog.NewInMemoryCatalog("c", "db")); err != nil {
		t.Errorf("RegisterCatalog of a real catalog: %v", err)
	}
}

// ExplainDetail is a string type, so any string compiles as one; a value
// that is not one of Flink's enum constants is an error, not ignored.
func TestExplainRejectsUnknownDetail(t *testing.T) {
	env := MustCreate(InStreamingMode())
	tab, err := env.FromElements([]any{types.NewRow(int64(1))}, "a")
	if err != nil {
		t.Fatal(err)
	}
	const bogus = ExplainDetail("ESTIMATED_COSTS")
	check := func(what string, err error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), `Unsupported ExplainDetail "ESTIMATED_COSTS"`) {
			t.Errorf("%s with an unknown detail: %v", what, err)
		}
	}
	_, err = tab.Explain(bogus)
	check("Table.Explain", err)
	_, err = env.ExplainSQL("SELECT 1", bogus)
	check("ExplainSQL", err)
	_, err = env.ExplainPlan("SELECT 1", bogus)
	check("ExplainPlan", err)
	if _, err := env.ExecuteSQL("CREATE TABLE snk (a BIGINT) WITH ('connector' = 'blackhole')"); err != nil {
		t.Fatal(err)
	}
	ss := env.CreateStatementSet()
	if _, err := ss.AddInsert("snk", tab); err != nil {
		t.Fatal(err)
	}
	_, err = ss.Explain(bogus)
	check("StatementSet.Explain", err)

	// The constants work; ChangelogMode adds changelogMode=[...] to the
	// physical plan, PlanAdvice is accepted.
	s, err := tab.Explain(ChangelogMode, PlanAdvice)
	if err != nil || !strings.Contains(s, "changelogMode=[I]") {
		t.Errorf("Explain(ChangelogMode, PlanAdvice) = %q, %v", s, err)
	}
}

// A datatypes constructor returns nil for an invalid parameter; a nil
// inside a ROW, ARRAY or MAP is reported as an error by every API taking
// a type instead of crashing in the engine.
func TestNilTypesInsideCompositeTypesAreErrors(t *testing.T) {
	env := MustCreate(InBatchMode())
	tab, err := env.FromElements([]any{types.NewRow(int64(1))}, "a")
	if err != nil {
		t.Fatal(err)
	}
	badRow := datatypes.Row(datatypes.Field("x", datatypes.Decimal(50, 60)))
	badArray := datatypes.Array(datatypes.Char(0))
	badMap := datatypes.Map(datatypes.String(), datatypes.Timestamp(12))
	want := func(what string, err error, part string) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), part) {
			t.Errorf("%s: error %v, want one mentioning %q", what, err, part)
		}
	}
	_, err = env.FromElementsWithType([]any{[]any{1}}, badRow)
	want("FromElementsWithType", err, "nil data type for ROW field x")
	want("Cast", tab.Select(Col("a").Cast(badArray)).Err(), "element type of an ARRAY")
	want("TryCast", tab.Select(Col("a").TryCast(badMap)).Err(), "value type of a MAP")
	want("NullOf", tab.Select(NullOf(badArray)).Err(), "element type of an ARRAY")
	want("Lit", tab.Select(Lit(nil, badRow)).Err(), "ROW field x")
	err = env.CreateTemporaryTable("t", ForConnector("datagen").Schema(NewSchemaBuilder().Column("c", badArray).Build()).Build())
	want("Schema.Column in a descriptor", err, "element type of an ARRAY")
	_, err = env.FromDataStream(DataStreamOf(badRow, types.NewRow(1)))
	want("FromDataStream", err, "DataStream field x")
	u := UDF(func(a int64) []string { return nil }, WithResultType(badArray))
	want("UDF WithResultType", tab.Select(u.Call(Col("a"))).Err(), "WithResultType")
	v := UDTF(func(a int64, emit func(int64)) {}, WithResultTypes(datatypes.BigInt(), nil))
	want("UDTF WithResultTypes", tab.FlatMap(v.Call(Col("a"))).Err(), "WithResultTypes")
}

// A closure nested in a closure is named funcN.M by the Go runtime; the
// UDF's default name is "udf" then, not the bare "M".
func TestUDFNameOfNestedClosure(t *testing.T) {
	u := func() *UserDefinedFunction {
		return UDF(func(a, b int64) int64 { return a + b })
	}()
	if u.Name() != "udf" {
		t.Errorf("name of a nested closure UDF = %q, want udf", u.Name())
	}
	if n := UDF(strings.ToUpper).Name(); n != "ToUpper" {
		t.Errorf("name of a named Go func UDF = %q, want ToUpper", n)
	}
}

// E-40: CURRENT_WATERMARK of a TIMESTAMP_LTZ rowtime is a
// TIMESTAMP_LTZ(3), and NULL before any watermark was emitted: the first
// row is read before the source's first watermark. (The seed's
// TIMESTAMP_LTZ(9) cannot be a rowtime attribute, in Flink as here: a
// watermark needs a precision of at most 3.)
func TestCurrentWatermarkOfLTZRowtime(t *testing.T) {
	env := MustCreate(InStreamingMode())
	rt := datatypes.Row(datatypes.Field("id", datatypes.Int()), datatypes.Field("ts", datatypes.TimestampLTZ(3)))
	t0 := time.Date(2021, 1, 1, 10, 0, 0, 0, time.UTC)
	ds := DataStreamOf(rt, types.NewRow(int32(1), t0), types.NewRow(int32(2), t0.Add(time.Minute)))
	tab, err := env.FromDataStream(ds, NewSchemaBuilder().Watermark("ts", "ts - INTERVAL '1' SECOND").Build())
	if err != nil {
		t.Fatal(err)
	}
	r := tab.Select(Col("id"), CurrentWatermark(Col("ts")).As("wm"))
	if got := r.Schema().FieldDataTypes()[1].String(); got != "TIMESTAMP_LTZ(3)" {
		t.Errorf("CURRENT_WATERMARK type = %s, want TIMESTAMP_LTZ(3)", got)
	}
	res, err := r.Execute()
	if err != nil {
		t.Fatal(err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if !it.Next() {
		t.Fatalf("no rows: %v", it.Err())
	}
	if row := it.Row(); row.Values[0] != int32(1) || row.Values[1] != nil {
		t.Errorf("first row = %v, want +I[1, null]", row)
	}
}

// E-38's format string is from PyFlink's docstring, which describes a
// MySQL-style format; Flink's DATE_FORMAT takes a Java pattern, where '%'
// is a literal, Y the week year and d, M the unpadded day and month.
func ExampleDateFormat_pyflinkDocstringFormat() {
	env := exampleEnv()
	ts := Lit("2017-05-05 10:11:12").ToTimestamp()
	eval(env, DateFormat(ts, "%Y, %d %M"), DateFormat(ts, "yyyy, dd MMM"))
	// Output:
	// %2017, %5 %5, 2017, 05 May
}

// A zoned time.Time literal is its wall-clock reading (a TIMESTAMP, like a
// Java LocalDateTime); TO_TIMESTAMP_LTZ of its epoch milliseconds is the
// instant, shown in the session time zone.
func ExampleLit_zonedTime() {
	env := exampleEnv()
	if err := env.Config().SetLocalTimeZone("UTC"); err != nil {
		fmt.Println(err)
	}
	shanghai := time.FixedZone("CST", 8*3600)
	t := time.Date(2024, 1, 1, 10, 0, 0, 0, shanghai)
	eval(env, Lit(t), Call("TO_TIMESTAMP_LTZ", t.UnixMilli(), 3))
	// Output:
	// 2024-01-01 10:00:00.000000000, 2024-01-01 02:00:00.000
}

// The other values returned nil next to an error, or documented as nil:
// Collect's iterator, ToDataStream's stream and the JobClient of a
// statement that runs no job. Using them reports an error.
func TestNilIteratorStreamAndJobClientReportErrors(t *testing.T) {
	var it *RowIterator
	if it.Next() || it.Row() != nil || it.Close() != nil || !errors.Is(it.Err(), errNilIterator) {
		t.Errorf("nil RowIterator: Next %v, Row %v, Err %v", it.Next(), it.Row(), it.Err())
	}
	if _, err := it.NextBatch(t.Context()); !errors.Is(err, errNilIterator) {
		t.Errorf("nil RowIterator NextBatch: %v", err)
	}

	env := MustCreate(InStreamingMode())
	ds, err := env.ToDataStream(nil)
	if err == nil || ds != nil {
		t.Fatalf("ToDataStream(nil) = %v, %v", ds, err)
	}
	if _, err := ds.Collect(); !errors.Is(err, errNilDataStream) {
		t.Errorf("nil DataStream Collect: %v", err)
	}
	if ds.Close() != nil || !errors.Is(ds.Err(), errNilDataStream) {
		t.Errorf("nil DataStream Close/Err: %v %v", ds.Close(), ds.Err())
	}
	if _, ok := <-ds.Records(); ok {
		t.Errorf("nil DataStream Records delivered a record")
	}

	res, err := env.ExecuteSQL("CREATE TABLE t (a INT) WITH ('connector' = 'blackhole')")
	if err != nil {
		t.Fatal(err)
	}
	jc := res.JobClient()
	if jc != nil {
		t.Fatalf("a DDL result has a job client")
	}
	if jc.Status() != JobFinished || jc.JobID() != "" || jc.Statement() != "" || jc.Plan() != nil ||
		len(jc.Metrics()) != 0 || len(jc.Accumulators()) != 0 || !jc.Bounded() || !jc.StartTime().IsZero() {
		t.Errorf("getters of a nil JobClient: %v %q %q", jc.Status(), jc.JobID(), jc.Statement())
	}
	<-jc.Done()
	if st, err := jc.GetJobStatusAsync().Result(t.Context()); err != nil || st.String() != "FINISHED" {
		t.Errorf("GetJobStatusAsync of a nil JobClient: %v %v", st, err)
	}
	if _, err := jc.GetJobExecutionResultAsync().Result(t.Context()); !errors.Is(err, errNilJobClient) {
		t.Errorf("GetJobExecutionResultAsync of a nil JobClient: %v", err)
	}
	for what, err := range map[string]error{
		"Cancel": jc.Cancel(),
		"Wait":   jc.Wait(t.Context()),
		"Err":    jc.Err(),
		"GetJobExecutionResult": func() error {
			_, err := jc.ExecutionResult(t.Context())
			return err
		}(),
	} {
		if !errors.Is(err, errNilJobClient) {
			t.Errorf("nil JobClient %s: %v", what, err)
		}
	}
}

func TestOverWithEmptyWindowReference(t *testing.T) {
	var zero Expression
	err := Col("a").Sum().Over(zero).Err()
	if err == nil || !strings.Contains(err.Error(), "referenced by its alias") {
		t.Errorf("Over(empty Expression) = %v", err)
	}
}

// Over windows: any order in batch mode; a time attribute in streaming
// mode, checked when the table is executed or explained.
func TestOverWindowOrderByModes(t *testing.T) {
	for _, streaming := range []bool{false, true} {
		settings := InBatchMode()
		if streaming {
			settings = InStreamingMode()
		}
		env := MustCreate(settings)
		tab, err := env.FromElements([]any{types.NewRow(int64(1), "k"), types.NewRow(int64(2), "k")}, "a", "b")
		if err != nil {
			t.Fatal(err)
		}
		over := tab.OverWindow(OverPartitionBy(Col("b")).OrderBy(Col("a")).Preceding(UnboundedRow).Alias("w")).
			Select(Col("a"), Col("a").Sum().Over(Col("w")).As("s"))
		res, err := over.Execute()
		if streaming {
			if err == nil || !strings.Contains(err.Error(), "must be defined on a time attribute") {
				t.Errorf("streaming over window ordered by BIGINT: %v", err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("batch over window: %v", err)
		}
		it, _ := res.Collect()
		var got []string
		for it.Next() {
			got = append(got, it.Row().String())
		}
		it.Close()
		if strings.Join(got, " ") != "+I[1, 1] +I[2, 3]" {
			t.Errorf("batch running sum = %v", got)
		}
	}
}

// A wrong argument count to an unregistered UDF names the function, not
// the internal key its Table API call goes through.
func TestUDFArityErrorNamesTheFunction(t *testing.T) {
	env := MustCreate(InBatchMode())
	tab, err := env.FromElements([]any{types.NewRow(int64(1))}, "a")
	if err != nil {
		t.Fatal(err)
	}
	u := UDF(func(a, b int64) int64 { return a + b }, WithName("myadd"))
	err = tab.Select(u.Call(Col("a"))).Err()
	if err == nil || err.Error() != "Invalid number of arguments to function 'myadd'. Was expecting 2 arguments, got 1" {
		t.Errorf("arity error = %v", err)
	}
}

// A custom offset zone id such as Flink's documented "GMT-08:00" is
// accepted by SetLocalTimeZone and SET, and used: it was accepted by
// SetLocalTimeZone but then ignored (the system zone was used) and
// rejected by SET.
func TestGMTOffsetLocalTimeZoneIsUsed(t *testing.T) {
	env := MustCreate(InBatchMode())
	if err := env.Config().SetLocalTimeZone("GMT+08:00"); err != nil {
		t.Fatal(err)
	}
	read := func() string {
		t.Helper()
		res, err := env.ExecuteSQL("SELECT CAST(TO_TIMESTAMP_LTZ(0, 3) AS STRING)")
		if err != nil {
			t.Fatal(err)
		}
		it, err := res.Collect()
		if err != nil {
			t.Fatal(err)
		}
		defer it.Close()
		if !it.Next() {
			t.Fatal(it.Err())
		}
		return it.Row().Values[0].(string)
	}
	if got := read(); got != "1970-01-01 08:00:00.000" {
		t.Errorf("epoch 0 in GMT+08:00 = %s", got)
	}
	if _, err := env.ExecuteSQL("SET 'table.local-time-zone' = 'GMT-05:30'"); err != nil {
		t.Fatalf("SET GMT-05:30: %v", err)
	}
	if got := read(); got != "1969-12-31 18:30:00.000" {
		t.Errorf("epoch 0 in GMT-05:30 = %s", got)
	}
	for _, bad := range []string{"GMT+19:00", "GMT+8:75", "Mars/Base", "GMT+"} {
		if err := env.Config().SetLocalTimeZone(bad); err == nil {
			t.Errorf("SetLocalTimeZone(%q) accepted", bad)
		}
	}
}

// A value a known option cannot take is an error, from SET at once and
// from a value set on the Configuration when a job starts, instead of
// silently running with the default.
func TestInvalidOptionValuesAreErrors(t *testing.T) {
	env := MustCreate(InStreamingMode())
	tab, err := env.FromElements([]any{types.NewRow(int64(1))}, "a")
	if err != nil {
		t.Fatal(err)
	}
	conf := env.Config().Configuration()
	conf.SetString("table.exec.mini-batch.enabled", "maybe")
	_, err = tab.Execute()
	if err == nil || err.Error() != "Could not parse value 'maybe' for key 'table.exec.mini-batch.enabled' (expected true or false)." {
		t.Errorf("Execute with mini-batch.enabled = maybe: %v", err)
	}
	conf.SetString("table.exec.mini-batch.enabled", "TRUE")
	for stmt, bad := range map[string]bool{
		"SET 'parallelism.default' = 'two'":                    true,
		"SET 'parallelism.default' = '2'":                      false,
		"SET 'table.exec.mini-batch.allow-latency' = 'soon'":   true,
		"SET 'table.exec.mini-batch.allow-latency' = '5 s'":    false,
		"SET 'table.exec.sink.not-null-enforcer' = 'ignore'":   true,
		"SET 'table.exec.sink.not-null-enforcer' = 'drop'":     false,
		"SET 'some.unknown.key' = 'anything'":                  false,
		"SET 'table.exec.mini-batch.size' = '1000'":            false,
		"SET 'table.exec.mini-batch.size' = '1e3'":             true,
		"SET 'pipeline.name' = 'free text is fine for a name'": false,
	} {
		_, err := env.ExecuteSQL(stmt)
		if bad != (err != nil) {
			t.Errorf("%s: error %v, want an error: %v", stmt, err, bad)
		}
	}
	if v := conf.GetString("parallelism.default", ""); v != "2" {
		t.Errorf("parallelism.default = %q after the SETs, want 2 (the rejected value is not stored)", v)
	}
	res, err := tab.Execute()
	if err != nil {
		t.Fatalf("Execute with valid options: %v", err)
	}
	it, _ := res.Collect()
	defer it.Close()
	if !it.Next() || it.Row().Values[0] != int64(1) {
		t.Errorf("row = %v, %v", it.Row(), it.Err())
	}
}

// CsvTableSink's path is a directory of part files; CsvTableSource reads
// them back.
func TestCsvTableSinkWritesADirectory(t *testing.T) {
	env := MustCreate(InBatchMode())
	dir := filepath.Join(t.TempDir(), "out.csv")
	fieldTypes := []*types.DataType{datatypes.Int(), datatypes.String()}
	if err := env.RegisterTableSink("sink", NewCsvTableSink([]string{"a", "b"}, fieldTypes, dir)); err != nil {
		t.Fatal(err)
	}
	tab, err := env.FromElementsWithType([]any{[]any{1, "Hi"}, []any{2, "Hello"}},
		datatypes.Row(datatypes.Field("a", datatypes.Int()), datatypes.Field("b", datatypes.String())))
	if err != nil {
		t.Fatal(err)
	}
	res, err := tab.ExecuteInsert("sink")
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Wait(0); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Fatalf("sink path %s: %v, want a directory", dir, err)
	}
	back, err := env.FromTableSource(NewCsvTableSource(dir, []string{"a", "b"}, fieldTypes))
	if err != nil {
		t.Fatal(err)
	}
	r, err := back.OrderBy(Col("a")).Execute()
	if err != nil {
		t.Fatal(err)
	}
	it, _ := r.Collect()
	defer it.Close()
	var got []string
	for it.Next() {
		got = append(got, it.Row().String())
	}
	if strings.Join(got, " ") != "+I[1, Hi] +I[2, Hello]" {
		t.Errorf("read back %v (%v)", got, it.Err())
	}
}

// A TIMESTAMP(9) holds int64 nanoseconds; a Go time outside 1677..2262 (the
// zero time.Time, year 1, for one) was silently wrapped to another date.
// It is an error now, from FromElements and from a UDF's result; with a
// precision of 6 the same value is kept.
func TestTimestampNanosOutOfRangeIsAnError(t *testing.T) {
	env := MustCreate(InBatchMode())
	_, err := env.FromElements([]any{[]any{1, time.Time{}}})
	if err == nil || !strings.Contains(err.Error(), "value 0001-01-01 00:00:00 is out of the range of TIMESTAMP(9)") {
		t.Errorf("FromElements of the zero time: %v", err)
	}
	tab, err := env.FromElementsWithType([]any{[]any{time.Time{}}}, datatypes.Row(datatypes.Field("t", datatypes.Timestamp(6))))
	if err != nil {
		t.Fatal(err)
	}
	res, err := tab.Execute()
	if err != nil {
		t.Fatal(err)
	}
	it, _ := res.Collect()
	if !it.Next() || !it.Row().Values[0].(time.Time).Equal(time.Time{}) {
		t.Errorf("TIMESTAMP(6) of the zero time = %v (%v)", it.Row(), it.Err())
	}
	it.Close()
	// a literal of such a time is a TIMESTAMP(6)
	lit := tab.Select(Lit(time.Time{}).As("z"))
	if got := lit.Schema().FieldDataTypes()[0].String(); got != "TIMESTAMP(6) NOT NULL" {
		t.Errorf("Lit(time.Time{}) type = %s", got)
	}
	res, err = lit.Execute()
	if err != nil {
		t.Fatal(err)
	}
	it, _ = res.Collect()
	if !it.Next() || !it.Row().Values[0].(time.Time).Equal(time.Time{}) {
		t.Errorf("Lit(time.Time{}) = %v (%v)", it.Row(), it.Err())
	}
	it.Close()
	u := UDF(func(a int64) time.Time { return time.Date(2300, 1, 1, 0, 0, 0, 0, time.UTC) })
	one, _ := env.FromElements([]any{int64(1)}, "x")
	res, err = one.Select(u.Call(Col("x"))).Execute()
	if err != nil {
		t.Fatal(err)
	}
	it, _ = res.Collect()
	defer it.Close()
	if it.Next() {
		t.Errorf("a UDF returning 2300-01-01 as TIMESTAMP(9) gave %v", it.Row())
	} else if err := it.Err(); err == nil || !strings.Contains(err.Error(), "value 2300-01-01 00:00:00 is out of the range of TIMESTAMP(9)") {
		t.Errorf("UDF out-of-range result: %v", err)
	}
}

// Flink's projections reject a repeated output name ("Ambiguous column
// name"); SQL's renaming of the second one to a0 does not apply.
func TestSelectRejectsRepeatedNames(t *testing.T) {
	env := MustCreate(InBatchMode())
	tab, err := env.FromElements([]any{types.NewRow(int64(1), "x")}, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	for what, got := range map[string]*Table{
		"Select(a, a)":         tab.Select(Col("a"), Col("a")),
		"Select(a, b AS a)":    tab.Select(Col("a"), Col("b").As("a")),
		"GroupBy.Select(b, b)": tab.GroupBy(Col("b")).Select(Col("b"), Col("b")),
	} {
		if err := got.Err(); err == nil || err.Error() != "Ambiguous column name: a" && err.Error() != "Ambiguous column name: b" {
			t.Errorf("%s: %v", what, err)
		}
	}
	if names := tab.Select(Col("a"), Col("a").As("a2")).Schema().FieldNames(); strings.Join(names, ",") != "a,a2" {
		t.Errorf("distinct names: %v", names)
	}
}

// An unknown function's error suggests a close built-in only when that
// helps: not for a one-letter name, nor the very function of a module
// that was unloaded.
func TestUnknownFunctionSuggestions(t *testing.T) {
	env := MustCreate(InBatchMode())
	for stmt, want := range map[string]string{
		"SELECT f('x')":     "No match found for function signature f(<CHARACTER>)",
		"SELECT uper('x')":  "No match found for function signature uper(<CHARACTER>); did you mean 'UPPER'?",
		"SELECT upper('x')": "",
	} {
		_, err := env.ExecuteSQL(stmt)
		if got := fmt.Sprint(err); want == "" && err != nil || want != "" && !strings.HasSuffix(got, want) {
			t.Errorf("%s: %v, want %q", stmt, err, want)
		}
	}
	if err := env.UnloadModule("core"); err != nil {
		t.Fatal(err)
	}
	_, err := env.ExecuteSQL("SELECT upper('x')")
	if err == nil || !strings.HasSuffix(err.Error(), "No match found for function signature upper(<CHARACTER>)") {
		t.Errorf("UPPER without the core module: %v", err)
	}
}

// E-53's deprecated form: maxTime must exceed minTime by 5 minutes (or
// both be 0), as the seed's note and Flink's check say.
func TestSetIdleStateRetentionTimeNeedsFiveMinutes(t *testing.T) {
	c := NewTableConfig()
	if err := c.SetIdleStateRetentionTime(time.Hour, time.Hour+4*time.Minute); err == nil {
		t.Errorf("a 4-minute difference was accepted")
	}
	if got := c.IdleStateRetention(); got != 0 {
		t.Errorf("retention after the rejected call = %v, want it unchanged (0)", got)
	}
	if err := c.SetIdleStateRetentionTime(time.Hour, time.Hour+5*time.Minute); err != nil {
		t.Errorf("a 5-minute difference: %v", err)
	}
	if got := c.GetMaxIdleStateRetentionTime(); got != 5400000 {
		t.Errorf("max retention = %d ms, want 1.5 h", got)
	}
	if err := c.SetIdleStateRetentionTime(0, 0); err != nil || c.IdleStateRetention() != 0 {
		t.Errorf("0, 0: %v, retention %v", err, c.IdleStateRetention())
	}
}

// Inventory §3 #46: AddOrReplaceColumns replaces an existing column in
// place and, among repeated new names, the last wins; AddColumns rejects
// both.
func TestAddOrReplaceColumnsLastDuplicateWins(t *testing.T) {
	env := MustCreate(InBatchMode())
	tab, err := env.FromElements([]any{types.NewRow(int64(1), "x")}, "a", "b")
	if err != nil {
		t.Fatal(err)
	}
	r := tab.AddOrReplaceColumns(Lit(1).As("c"), Lit(2).As("c"), Lit("y").As("b"))
	res, err := r.Execute()
	if err != nil {
		t.Fatal(err)
	}
	it, _ := res.Collect()
	defer it.Close()
	if !it.Next() {
		t.Fatal(it.Err())
	}
	if got := strings.Join(r.Schema().FieldNames(), ",") + " " + it.Row().String(); got != "a,b,c +I[1, y, 2]" {
		t.Errorf("AddOrReplaceColumns = %s", got)
	}
	for _, bad := range []*Table{tab.AddColumns(Lit(1).As("c"), Lit(2).As("c")), tab.AddColumns(Lit(1).As("a"))} {
		if err := bad.Err(); err == nil || !strings.Contains(err.Error(), "already exists") {
			t.Errorf("AddColumns with a repeated name: %v", err)
		}
	}
}

// A time.Time declared as TIMESTAMP_LTZ(6), PyFlink's inferred type for a
// datetime, is the instant, shown in the session zone.
func TestFromElementsTimeAsLTZ(t *testing.T) {
	env := MustCreate(InBatchMode())
	if err := env.Config().SetLocalTimeZone("UTC"); err != nil {
		t.Fatal(err)
	}
	tokyo := time.FixedZone("JST", 9*3600)
	tab, err := env.FromElementsWithType([]any{[]any{time.Date(2024, 1, 1, 9, 0, 0, 0, tokyo)}},
		datatypes.Row(datatypes.Field("ts", datatypes.TimestampLTZ(6))))
	if err != nil {
		t.Fatal(err)
	}
	res, err := tab.Select(Col("ts").Cast(datatypes.String()).As("s")).Execute()
	if err != nil {
		t.Fatal(err)
	}
	it, _ := res.Collect()
	defer it.Close()
	if !it.Next() || it.Row().Values[0] != "2024-01-01 00:00:00.000000" {
		t.Errorf("TIMESTAMP_LTZ(6) of 09:00 JST in UTC = %v (%v)", it.Row(), it.Err())
	}
}
