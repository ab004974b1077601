package table

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/table/datatypes"
	"github.com/riffle-sql/riffle/engine/types"
)

func TestFunctionResolutionOrder(t *testing.T) {
	env := MustCreate(InBatchMode())
	shout := UDF(func(s string) string { return strings.ToUpper(s) + "!" }, WithName("shout"))
	mark := UDF(func(s string) string { return "<" + s + ">" }, WithName("mark"))
	// a temporary system function extends and shadows built-ins
	if err := env.CreateTemporarySystemFunction("lower", shout); err != nil {
		t.Fatal(err)
	}
	if err := env.CreateTemporarySystemFunction("lower", shout); err == nil {
		t.Fatal("a duplicate temporary system function must fail")
	}
	q := func(sql string) string {
		tab, err := env.SQLQuery(sql)
		if err != nil {
			return "error: " + err.Error()
		}
		return collectRows(t, tab)
	}
	if got := q("SELECT lower('x')"); got != "+I[X!]" {
		t.Fatal(got)
	}
	if !env.DropTemporarySystemFunction("lower") || env.DropTemporarySystemFunction("lower") {
		t.Fatal("drop reports whether it dropped")
	}
	if got := q("SELECT lower('X')"); got != "+I[x]" {
		t.Fatal(got)
	}
	// built-ins win over temporary catalog functions
	if err := env.CreateTemporaryFunction("upper", mark); err != nil {
		t.Fatal(err)
	}
	if got := q("SELECT upper('x')"); got != "+I[X]" {
		t.Fatal(got)
	}
	// a temporary catalog function shadows a permanent one
	if err := RegisterGoUDF("test.shout", shout); err != nil {
		t.Fatal(err)
	}
	if err := env.CreateFunction("f", "test.shout"); err != nil {
		t.Fatal(err)
	}
	if err := env.CreateFunction("f", "test.shout"); err == nil {
		t.Fatal("a second permanent function at the path must fail")
	}
	if err := env.CreateFunction("f", "test.shout", IgnoreIfExists()); err != nil {
		t.Fatal("ignoreIfExists", err)
	}
	if got := q("SELECT f('a')"); got != "+I[A!]" {
		t.Fatal(got)
	}
	if err := env.CreateTemporaryFunction("f", mark); err != nil {
		t.Fatal(err)
	}
	if got := q("SELECT f('a')"); got != "+I[<a>]" {
		t.Fatal(got)
	}
	if ok, _ := env.DropTemporaryFunction("f"); !ok {
		t.Fatal("drop temporary function")
	}
	if got := q("SELECT default_catalog.default_database.f('a')"); got != "+I[A!]" {
		t.Fatal(got)
	}
	if ok, _ := env.DropFunction("f"); !ok {
		t.Fatal("drop function")
	}
	if ok, _ := env.DropFunction("f"); ok {
		t.Fatal("drop of a missing function reports false")
	}
	// register_function replaces silently
	if err := env.RegisterFunction("g", shout); err != nil {
		t.Fatal(err)
	}
	if err := env.RegisterFunction("g", mark); err != nil {
		t.Fatal(err)
	}
	if got := q("SELECT g('a')"); got != "+I[<a>]" {
		t.Fatal(got)
	}
	udfs := env.ListUserDefinedFunctions()
	if strings.Join(udfs, ",") != "g,upper" {
		t.Fatal(udfs)
	}
	all := env.ListFunctions()
	if !sort.StringsAreSorted(all) || len(all) < 50 {
		t.Fatal(len(all))
	}
	res, _ := env.ExecuteSQL("SHOW USER FUNCTIONS")
	it, _ := res.Collect()
	var shown []string
	for it.Next() {
		shown = append(shown, it.Row().Values[0].(string))
	}
	if strings.Join(shown, ",") != "g,upper" {
		t.Fatal(shown)
	}
}

func TestModulesSQL(t *testing.T) {
	env := MustCreate(InBatchMode())
	RegisterModuleFactory("testmod", func(map[string]string) (Module, error) {
		return NewFunctionModule(UDF(func(x int64) int64 { return -x }, WithName("neg"))), nil
	})
	for _, stmt := range []string{"LOAD MODULE testmod", "USE MODULES testmod, core"} {
		if _, err := env.ExecuteSQL(stmt); err != nil {
			t.Fatal(stmt, err)
		}
	}
	if got := strings.Join(env.ListModules(), ","); got != "testmod,core" {
		t.Fatal(got)
	}
	tab, err := env.SQLQuery("SELECT neg(3)")
	mustTable(t, tab, err)
	wantRows(t, tab, "+I[-3]")
	if _, err := env.ExecuteSQL("LOAD MODULE testmod"); err == nil {
		t.Fatal("a duplicate module must fail")
	}
	if _, err := env.ExecuteSQL("LOAD MODULE nope"); err == nil || !strings.Contains(err.Error(), "nope") {
		t.Fatal(err)
	}
	if err := env.UseModules("core", "core"); err == nil {
		t.Fatal("a repeated module must fail")
	}
	if _, err := env.ExecuteSQL("UNLOAD MODULE testmod"); err != nil {
		t.Fatal(err)
	}
	if err := env.UnloadModule("testmod"); err == nil {
		t.Fatal("unloading a missing module must fail")
	}
	res, _ := env.ExecuteSQL("SHOW FULL MODULES")
	it, _ := res.Collect()
	var rows []string
	for it.Next() {
		rows = append(rows, it.Row().String())
	}
	if strings.Join(rows, " ") != "+I[core, true]" {
		t.Fatal(rows)
	}
}

func TestSettingsAndDeprecated(t *testing.T) {
	s, err := NewEnvironmentSettingsBuilder().InBatchMode().WithBuiltInCatalogName("my_catalog").WithBuiltInDatabaseName("my_database").Build()
	if err != nil {
		t.Fatal(err)
	}
	env := MustCreate(s)
	if env.CurrentCatalog() != "my_catalog" || env.CurrentDatabase() != "my_database" || env.IsStreaming() {
		t.Fatal(env.CurrentCatalog(), env.CurrentDatabase())
	}
	if _, err := NewEnvironmentSettingsBuilder().UseOldPlanner().Build(); err == nil {
		t.Fatal("the old planner must fail")
	}
	if !EnvironmentSettingsFromConfiguration(InBatchMode().ToConfiguration()).IsStreamingMode() == false {
		t.Fatal("from configuration")
	}
	// legacy sources and sinks over CSV files
	dir := t.TempDir()
	in := filepath.Join(dir, "in.csv")
	if err := os.WriteFile(in, []byte("1,Hi\n2,Hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	src := NewCsvTableSource(in, []string{"a", "b"}, []*types.DataType{datatypes.Int(), datatypes.String()})
	tab, err := env.FromTableSource(src)
	mustTable(t, tab, err)
	wantRows(t, tab, "+I[1, Hi]", "+I[2, Hello]")
	if err := env.RegisterTableSource("source", src); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	sink := NewCsvTableSink([]string{"a", "b"}, []*types.DataType{datatypes.Int(), datatypes.String()}, out)
	sink.FieldDelimiter = "|"
	if err := env.RegisterTableSink("sink", sink); err != nil {
		t.Fatal(err)
	}
	scanned, err := env.Scan("source")
	mustTable(t, scanned, err)
	if err := env.RegisterTable("v", scanned.Where(Col("a").IsGreater(1))); err != nil {
		t.Fatal(err)
	}
	v, _ := env.FromPath("v")
	if err := v.InsertInto("sink"); err != nil {
		t.Fatal(err)
	}
	if err := env.SQLUpdate("INSERT INTO sink SELECT a * 10, b FROM source WHERE a = 1"); err != nil {
		t.Fatal(err)
	}
	plan, err := env.Explain(nil, false)
	if err != nil || strings.Count(plan, "Sink(") < 2 {
		t.Fatalf("%v\n%s", err, plan)
	}
	r, err := env.Execute("legacy job")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.GetJobID()) != 32 {
		t.Fatal(r)
	}
	files, _ := filepath.Glob(filepath.Join(out, "*"))
	var lines []string
	for _, f := range files {
		b, _ := os.ReadFile(f)
		lines = append(lines, strings.Split(strings.TrimSpace(string(b)), "\n")...)
	}
	sort.Strings(lines)
	if strings.Join(lines, " ") != "10|Hi 2|Hello" {
		t.Fatal(lines)
	}
	if _, err := env.Execute("again"); err == nil {
		t.Fatal("the buffer is cleared by Execute")
	}
	if err := env.SQLUpdate("SELECT 1"); err == nil {
		t.Fatal("SQLUpdate rejects queries")
	}
}

func TestStreamConversions(t *testing.T) {
	env := MustCreate(InStreamingMode())
	rt := datatypes.Row(datatypes.Field("f0", datatypes.String()), datatypes.Field("f1", datatypes.Int()))
	ds := DataStreamOf(rt, types.NewRow("a", int32(1)), types.NewRow("b", int32(2)))
	// by position: renamed in order
	byPos, err := env.FromDataStreamWithFields(ds, Col("x"), Col("y"))
	mustTable(t, byPos, err)
	if got := byPos.Schema().FieldNames(); strings.Join(got, ",") != "x,y" {
		t.Fatal(got)
	}
	// by name: reordered, projected and renamed
	byName, err := env.FromDataStreamWithFields(ds, Col("f1"), Col("f0").As("name"))
	mustTable(t, byName, err)
	wantRows(t, byName, "+I[1, a]", "+I[2, b]")
	if err := env.CreateTemporaryViewFromDataStream("v", ds, "f1, f0 AS name"); err != nil {
		t.Fatal(err)
	}
	v, _ := env.FromPath("v")
	wantRows(t, v.Select(Col("name")), "+I[a]", "+I[b]")
	// an append stream and a retract stream
	app, err := env.ToAppendStream(byName)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := app.Collect()
	if err != nil || len(rows) != 2 {
		t.Fatal(rows, err)
	}
	agg := byName.GroupBy(Col("name")).Select(Col("name"), Col("f1").Sum().As("s")).GroupBy(Col("s")).Select(Col("s"), Col("name").Count().As("n"))
	ch, rds, err := env.ToRetractStream(agg)
	if err != nil {
		t.Fatal(err)
	}
	var recs []string
	for r := range ch {
		flag := "true"
		if !r.Add {
			flag = "false"
		}
		recs = append(recs, flag+" "+r.Row.String())
	}
	if rds.Err() != nil || len(recs) == 0 || !strings.HasPrefix(recs[0], "true ") {
		t.Fatal(recs, rds.Err())
	}
	if _, err := env.ToAppendStream(agg); err == nil {
		t.Fatal("an updating table is not an append stream")
	}
	// Wait on a query returns at the first row of an unbounded job
	src, err := env.FromDescriptor(ForConnector("datagen").Schema(NewSchemaBuilder().Column("x", datatypes.Int()).Build()).Option("rows-per-second", 100).Build())
	mustTable(t, src, err)
	res, err := src.Execute()
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Wait(time.Minute); err != nil {
		t.Fatal(err)
	}
	it, _ := res.Collect()
	if !it.Next() {
		t.Fatal("a row was waiting")
	}
	_ = it.Close()
	if err := res.JobClient().Wait(contextWithTimeout(t)); err == nil {
		// cancelled jobs end with an error; both are fine, the job ended
		_ = err
	}
}

func contextWithTimeout(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	return ctx
}
