package table

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// A test-only changelog source, connector 'test-changelog': it produces
// the rows of its 'rows' option ("+I|1|a|2.5;+U|1|a|3.0;-D|1||", fields
// separated by '|', empty = NULL) with the kinds of its 'changelog-mode'
// option (e.g. 'I,UA,D' for an upsert source like upsert-kafka,
// 'I,UB,UA,D' for a CDC format), and offers a BIGINT metadata key
// 'offset' (the row's position).
func init() { connector.Register(testChangelogFactory{}) }

type testChangelogFactory struct{}

func (testChangelogFactory) Identifier() string { return "test-changelog" }

// As a sink it takes upserts (every kind but -U) and records the rows it
// is given, as "+I[...]" strings, under the table's name.
var testSinkRows = struct {
	sync.Mutex
	m map[string][]string
}{m: map[string][]string{}}

func (testChangelogFactory) CreateSink(ctx *connector.Context) (connector.Sink, error) {
	return &testUpsertSink{table: ctx.Table}, nil
}

type testUpsertSink struct{ table string }

func (s *testUpsertSink) ChangelogMode(requested types.ChangelogMode) types.ChangelogMode {
	var kinds []types.RowKind
	for _, k := range requested.Kinds() {
		if k != types.UpdateBefore {
			kinds = append(kinds, k)
		}
	}
	return types.ChangelogModeOf(kinds...)
}

func (s *testUpsertSink) Open(_ context.Context, spec connector.WriteSpec, _ int) (connector.Writer, error) {
	return &testUpsertWriter{table: s.table, types: spec.Types}, nil
}

type testUpsertWriter struct {
	table string
	types []*types.DataType
}

func (w *testUpsertWriter) Write(_ context.Context, b *types.Batch) error {
	testSinkRows.Lock()
	defer testSinkRows.Unlock()
	for _, r := range b.Rows(w.types) {
		testSinkRows.m[w.table] = append(testSinkRows.m[w.table], r.String())
	}
	return nil
}

func (w *testUpsertWriter) Commit() error { return nil }
func (w *testUpsertWriter) Abort()        {}

func (testChangelogFactory) Options() []connector.Option {
	return []connector.Option{{Key: "changelog-mode", Required: true, Kind: "string"}, {Key: "rows", Kind: "string"}}
}

func (f testChangelogFactory) CreateSource(ctx *connector.Context) (connector.Source, error) {
	if err := connector.ValidateOptions(ctx, f.Options()); err != nil {
		return nil, err
	}
	var kinds []types.RowKind
	for _, k := range strings.Split(ctx.Options["changelog-mode"], ",") {
		kind, ok := map[string]types.RowKind{"I": types.Insert, "UB": types.UpdateBefore, "UA": types.UpdateAfter, "D": types.Delete}[strings.TrimSpace(k)]
		if !ok {
			return nil, fmt.Errorf("bad changelog-mode kind %q", k)
		}
		kinds = append(kinds, kind)
	}
	src := &testChangelogSource{mode: types.ChangelogModeOf(kinds...), phys: ctx.Schema.Physical()}
	for _, r := range strings.Split(ctx.Options["rows"], ";") {
		if strings.TrimSpace(r) == "" {
			continue
		}
		fields := strings.Split(strings.TrimSpace(r), "|")
		kind, ok := map[string]types.RowKind{"+I": types.Insert, "-U": types.UpdateBefore, "+U": types.UpdateAfter, "-D": types.Delete}[fields[0]]
		if !ok || len(fields) != len(src.phys)+1 {
			return nil, fmt.Errorf("bad row %q", r)
		}
		vals := make([]any, len(src.phys))
		for i, c := range src.phys {
			v, err := parseTestValue(fields[i+1], c.Type)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		src.rows = append(src.rows, types.NewRowWithKind(kind, vals...))
	}
	return src, nil
}

func parseTestValue(s string, t *types.DataType) (any, error) {
	if s == "" {
		return nil, nil
	}
	switch t.Root {
	case types.Integer:
		v, err := strconv.ParseInt(s, 10, 32)
		return int32(v), err
	case types.BigInt:
		return strconv.ParseInt(s, 10, 64)
	case types.Double:
		return strconv.ParseFloat(s, 64)
	case types.TimestampRoot:
		return time.Parse("2006-01-02 15:04:05", s)
	}
	return s, nil
}

type testChangelogSource struct {
	mode types.ChangelogMode
	phys []types.Column
	rows []*types.Row
}

type testSplit struct{}

func (testSplit) String() string { return "rows" }

func (s *testChangelogSource) Bounded() bool                      { return true }
func (s *testChangelogSource) ChangelogMode() types.ChangelogMode { return s.mode }
func (s *testChangelogSource) ReadableMetadata() map[string]*types.DataType {
	return map[string]*types.DataType{"offset": types.BigIntType()}
}
func (s *testChangelogSource) Splits(context.Context) ([]connector.Split, error) {
	return []connector.Split{testSplit{}}, nil
}

func (s *testChangelogSource) Open(_ context.Context, _ connector.Split, spec connector.ReadSpec) (connector.Reader, error) {
	var ts []*types.DataType
	for _, c := range spec.Columns {
		ts = append(ts, s.phys[c].Type)
	}
	for range spec.Metadata {
		ts = append(ts, types.BigIntType())
	}
	bb := types.NewBatchBuilder(ts)
	for i, r := range s.rows {
		var vals []any
		for _, c := range spec.Columns {
			vals = append(vals, r.Values[c])
		}
		for range spec.Metadata {
			vals = append(vals, int64(i))
		}
		if err := bb.Append(r.Kind, vals); err != nil {
			return nil, err
		}
	}
	return &testChangelogReader{b: bb.Build()}, nil
}

type testChangelogReader struct{ b *types.Batch }

func (r *testChangelogReader) Next(context.Context) (*types.Batch, error) {
	if r.b == nil || r.b.Len == 0 {
		return nil, io.EOF
	}
	b := r.b
	r.b = nil
	return b, nil
}

func (r *testChangelogReader) Close() error { return nil }

// upsertRows is an upsert changelog (as upsert-kafka reads it: a tombstone
// carries only the key).
const upsertRows = "+I|1|scooter|3.1;+I|2|battery|8.1;+U|1|scooter|5.2;+I|3|hammer|0.8;-D|2||;+U|3|hammer|0.8"

func changelogEnv(t *testing.T) *TableEnvironment {
	env := atParallelismOne(MustCreate(InStreamingMode()))
	mustExec(t, env,
		"CREATE TABLE up (id INT, name STRING, weight DOUBLE, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector'='test-changelog', 'changelog-mode'='I,UA,D', 'rows'='"+upsertRows+"')",
		"CREATE TABLE up_meta (id INT, name STRING, weight DOUBLE, `offset` BIGINT METADATA VIRTUAL, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector'='test-changelog', 'changelog-mode'='I,UA,D', 'rows'='"+upsertRows+"')",
		"CREATE TABLE cdc (id INT, name STRING, weight DOUBLE, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector'='test-changelog', 'changelog-mode'='I,UB,UA,D', "+
			"'rows'='+I|1|scooter|3.1;+I|1|scooter|3.1;+I|2|battery|8.1;-U|1|scooter|3.1;+U|1|scooter|5.2;-D|2|battery|8.1;-D|2|battery|8.1')",
		"CREATE TABLE hole_pk (id INT, name STRING, weight DOUBLE, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector'='blackhole')",
		"CREATE TABLE pr (id INT, name STRING, weight DOUBLE) WITH ('connector'='print')",
	)
	return env
}

// physicalPlan is the "Optimized Physical Plan" section of an EXPLAIN
// CHANGELOG_MODE.
func physicalPlan(t *testing.T, env *TableEnvironment, stmt string) string {
	t.Helper()
	text, err := env.ExplainSQL(stmt, ChangelogMode)
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	_, after, _ := strings.Cut(text, "== Optimized Physical Plan ==\n")
	plan, _, _ := strings.Cut(after, "\n\n== Optimized Execution Plan ==")
	return plan
}

// Where Flink 2.3 puts ChangelogNormalize and DropUpdateBefore over
// changelog sources, and what each node's changelog mode is (EXPLAIN
// CHANGELOG_MODE; plans checked against Flink 2.3.0 for the CDC source on
// the filesystem connector and against Flink's ChangelogNormalize
// OptimizationTest plans for the upsert source). Riffle's own EXPLAIN
// differences stay: literals print with the type they are cast to
// (2.0), sink fields keep the sink's names, an aggregate keeps a Calc.
func TestChangelogSourcePlans(t *testing.T) {
	env := changelogEnv(t)
	upScan := "TableSourceScan(table=[[default_catalog, default_database, up]], fields=[id, name, weight], changelogMode=[I,UA,D])"
	cdcScan := "TableSourceScan(table=[[default_catalog, default_database, cdc]], fields=[id, name, weight], changelogMode=[I,UB,UA,D])"
	for _, c := range []struct{ name, stmt, want string }{
		{"upsert source into a sink that takes every change", "INSERT INTO pr SELECT * FROM up", `Sink(table=[default_catalog.default_database.pr], fields=[id, name, weight], changelogMode=[NONE])
+- ChangelogNormalize(key=[id], changelogMode=[I,UB,UA,D])
   +- Exchange(distribution=[hash[id]], changelogMode=[I,UA,D])
      +- ` + upScan},
		{"upsert source into an upsert sink on its key: the normalize goes", "INSERT INTO hole_pk SELECT * FROM up", `Sink(table=[default_catalog.default_database.hole_pk], fields=[id, name, weight], changelogMode=[NONE])
+- ` + upScan},
		{"a filter stays in the normalize", "INSERT INTO hole_pk SELECT * FROM up WHERE weight > 2", `Sink(table=[default_catalog.default_database.hole_pk], fields=[id, name, weight], changelogMode=[NONE])
+- ChangelogNormalize(key=[id], condition=[>(weight, 2.0)], changelogMode=[I,UA,D])
   +- Exchange(distribution=[hash[id]], changelogMode=[I,UA,D])
      +- ` + upScan},
		{"metadata columns keep the normalize", "INSERT INTO hole_pk SELECT id, name, weight + `offset` FROM up_meta", `Sink(table=[default_catalog.default_database.hole_pk], fields=[id, name, EXPR$2], changelogMode=[NONE])
+- Calc(select=[id, name, +(weight, CAST(offset AS DOUBLE)) AS EXPR$2], changelogMode=[I,UA,D])
   +- ChangelogNormalize(key=[id], changelogMode=[I,UA,D])
      +- Exchange(distribution=[hash[id]], changelogMode=[I,UA,D])
         +- TableSourceScan(table=[[default_catalog, default_database, up_meta, metadata=[offset]]], fields=[id, name, weight, offset], changelogMode=[I,UA,D])`},
		{"an explained query takes upserts: the normalize goes", "SELECT * FROM up", upScan},
		{"the key is read for the normalize; an aggregate needs -U", "SELECT name, COUNT(*) AS c FROM up GROUP BY name", `Calc(select=[name, EXPR$1], changelogMode=[I,UA,D])
+- GroupAggregate(groupBy=[name], select=[name, COUNT(*) AS EXPR$1], changelogMode=[I,UA,D])
   +- Exchange(distribution=[hash[name]], changelogMode=[I,UB,UA,D])
      +- Calc(select=[name], changelogMode=[I,UB,UA,D])
         +- ChangelogNormalize(key=[id], changelogMode=[I,UB,UA,D])
            +- Exchange(distribution=[hash[id]], changelogMode=[I,UA,D])
               +- TableSourceScan(table=[[default_catalog, default_database, up, project=[name, id]]], fields=[name, id], changelogMode=[I,UA,D])`},
		{"CDC source into an upsert sink: DropUpdateBefore", "INSERT INTO hole_pk SELECT * FROM cdc", `Sink(table=[default_catalog.default_database.hole_pk], fields=[id, name, weight], changelogMode=[NONE])
+- DropUpdateBefore(changelogMode=[I,UA,D])
   +- ` + cdcScan},
		{"a filter on the key passes upserts", "INSERT INTO hole_pk SELECT * FROM cdc WHERE id > 1", `Sink(table=[default_catalog.default_database.hole_pk], fields=[id, name, weight], changelogMode=[NONE])
+- Calc(select=[id, name, weight], where=[>(id, 1)], changelogMode=[I,UA,D])
   +- DropUpdateBefore(changelogMode=[I,UA,D])
      +- ` + cdcScan},
		{"another filter needs -U", "INSERT INTO hole_pk SELECT * FROM cdc WHERE weight > 1", `Sink(table=[default_catalog.default_database.hole_pk], fields=[id, name, weight], changelogMode=[NONE])
+- Calc(select=[id, name, weight], where=[>(weight, 1.0)], changelogMode=[I,UB,UA,D])
   +- ` + cdcScan},
		{"CDC source into a sink that takes every change", "INSERT INTO pr SELECT * FROM cdc", `Sink(table=[default_catalog.default_database.pr], fields=[id, name, weight], changelogMode=[NONE])
+- ` + cdcScan},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := physicalPlan(t, env, c.stmt); got != c.want {
				t.Errorf("%s:\n%s\nwant:\n%s", c.stmt, got, c.want)
			}
		})
	}
}

// With table.exec.source.cdc-events-duplicate a CDC source with a primary
// key is normalized; filters on the key go below the exchange, others
// into the normalize (plans as Flink 2.3.0 prints them).
func TestChangelogSourceEventsDuplicatePlans(t *testing.T) {
	env := changelogEnv(t)
	mustExec(t, env, "SET 'table.exec.source.cdc-events-duplicate' = 'true'")
	scan := "TableSourceScan(table=[[default_catalog, default_database, cdc]], fields=[id, name, weight], changelogMode=[I,UB,UA,D])"
	for _, c := range []struct{ stmt, want string }{
		{"SELECT * FROM cdc", `ChangelogNormalize(key=[id], changelogMode=[I,UA,D])
+- Exchange(distribution=[hash[id]], changelogMode=[I,UA,D])
   +- DropUpdateBefore(changelogMode=[I,UA,D])
      +- ` + scan},
		{"INSERT INTO hole_pk SELECT * FROM cdc", `Sink(table=[default_catalog.default_database.hole_pk], fields=[id, name, weight], changelogMode=[NONE])
+- ChangelogNormalize(key=[id], changelogMode=[I,UA,D])
   +- Exchange(distribution=[hash[id]], changelogMode=[I,UA,D])
      +- DropUpdateBefore(changelogMode=[I,UA,D])
         +- ` + scan},
		{"INSERT INTO pr SELECT * FROM cdc WHERE id > 1 AND weight > 1", `Sink(table=[default_catalog.default_database.pr], fields=[id, name, weight], changelogMode=[NONE])
+- ChangelogNormalize(key=[id], condition=[>(weight, 1.0)], changelogMode=[I,UB,UA,D])
   +- Exchange(distribution=[hash[id]], changelogMode=[I,UA,D])
      +- Calc(select=[id, name, weight], where=[>(id, 1)], changelogMode=[I,UA,D])
         +- DropUpdateBefore(changelogMode=[I,UA,D])
            +- ` + scan},
		{"SELECT name FROM cdc WHERE id > 1", `Calc(select=[name], changelogMode=[I,UA,D])
+- ChangelogNormalize(key=[id], changelogMode=[I,UA,D])
   +- Exchange(distribution=[hash[id]], changelogMode=[I,UA,D])
      +- Calc(select=[id, name], where=[>(id, 1)], changelogMode=[I,UA,D])
         +- DropUpdateBefore(changelogMode=[I,UA,D])
            +- TableSourceScan(table=[[default_catalog, default_database, cdc, project=[id, name]]], fields=[id, name], changelogMode=[I,UB,UA,D])`},
	} {
		if got := physicalPlan(t, env, c.stmt); got != c.want {
			t.Errorf("%s:\n%s\nwant:\n%s", c.stmt, got, c.want)
		}
	}
}

// The changelogs the normalized sources produce, and Flink's errors.
func TestChangelogSourceResults(t *testing.T) {
	env := changelogEnv(t)
	for _, c := range []struct {
		query string
		want  []string
	}{
		// the upsert source as a retract stream: -U of the kept row, full
		// -D for the tombstone, nothing for the repeated +U of 3
		{"SELECT * FROM up", []string{"+I[1, scooter, 3.1]", "+I[2, battery, 8.1]", "-U[1, scooter, 3.1]", "+U[1, scooter, 5.2]",
			"+I[3, hammer, 0.8]", "-D[2, battery, 8.1]"}},
		{"SELECT name FROM up WHERE weight > 4", []string{"+I[battery]", "+I[scooter]", "-D[battery]"}},
		// only name and the key are read: the update of 1 changes neither,
		// so the normalize emits nothing for it (as Flink's does)
		{"SELECT name, COUNT(*) AS c FROM up GROUP BY name", []string{"+I[scooter, 1]", "+I[battery, 1]", "+I[hammer, 1]", "-D[battery, 1]"}},
		// aggregating the CDC stream (duplicates included): a group
		// emptied by a retraction is deleted, a retraction of a deleted
		// group ignored (Flink's GroupAggFunction)
		{"SELECT name, COUNT(*) AS c FROM cdc GROUP BY name", []string{"+I[scooter, 1]", "-U[scooter, 1]", "+U[scooter, 2]", "+I[battery, 1]",
			"-U[scooter, 2]", "+U[scooter, 1]", "-U[scooter, 1]", "+U[scooter, 2]", "-D[battery, 1]"}},
		// the CDC source without normalization forwards its duplicates
		{"SELECT id, weight FROM cdc", []string{"+I[1, 3.1]", "+I[1, 3.1]", "+I[2, 8.1]", "-U[1, 3.1]", "+U[1, 5.2]", "-D[2, 8.1]", "-D[2, 8.1]"}},
	} {
		if got := strings.Join(rowsOf(t, env, c.query, len(c.want)), " "); got != strings.Join(c.want, " ") {
			t.Errorf("%s:\n got %s\nwant %s", c.query, got, strings.Join(c.want, " "))
		}
	}
	mustExec(t, env, "SET 'table.exec.source.cdc-events-duplicate' = 'true'")
	want := "+I[1, 3.1] +I[2, 8.1] -U[1, 3.1] +U[1, 5.2] -D[2, 8.1]"
	if got := strings.Join(rowsOf(t, env, "SELECT id, weight FROM cdc", 5), " "); got != want {
		t.Errorf("deduplicated CDC:\n got %s\nwant %s", got, want)
	}

	for _, c := range []struct{ setup, stmt, err string }{
		{"CREATE TABLE up_nopk (id INT, v STRING) WITH ('connector'='test-changelog', 'changelog-mode'='I,UA,D')", "SELECT * FROM up_nopk",
			"Table 'default_catalog.default_database.up_nopk' produces a changelog stream that contains UPDATE_AFTER but no UPDATE_BEFORE. This requires defining a primary key constraint on the table."},
		{"CREATE TABLE cdc_nopk (id INT, v STRING) WITH ('connector'='test-changelog', 'changelog-mode'='I,UB,UA,D')", "SELECT * FROM cdc_nopk",
			"Configuration 'table.exec.source.cdc-events-duplicate' is enabled which requires the changelog sources to define a PRIMARY KEY. However, table 'default_catalog.default_database.cdc_nopk' doesn't have a primary key."},
		{"SET 'execution.runtime-mode' = 'batch'", "SELECT * FROM cdc",
			"Querying a table in batch mode is currently only possible for INSERT-only table sources. But the source for table 'default_catalog.default_database.cdc' produces other changelog messages than just INSERT."},
	} {
		mustExec(t, env, c.setup)
		if _, err := env.ExecuteSQL(c.stmt); err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%s: %v, want %q", c.stmt, err, c.err)
		}
	}
}

// FromChangelogStream in upsert mode is normalized by the planner, as
// Flink's fromChangelogStream is (plans as Flink 2.3.0 prints them for
// StreamTableEnvironment.fromChangelogStream(ds, schema with a primary
// key, ChangelogMode.upsert()), but for the scan's table name).
func TestFromChangelogStreamUpsertPlan(t *testing.T) {
	env := MustCreate(InStreamingMode())
	rt := types.RowType(types.Field{Name: "name", Type: types.StringType().NotNull()}, types.Field{Name: "score", Type: types.IntType()})
	ch := make(chan *types.Row)
	close(ch)
	schema := NewSchemaBuilder().Column("name", types.StringType().NotNull()).Column("score", types.IntType()).PrimaryKey("name").Build()
	tab, err := env.FromChangelogStream(NewDataStream(ch, rt), schema, ChangelogModeUpsert())
	mustTable(t, tab, err)
	plan, err := tab.GroupBy(Col("score")).Select(Col("score"), Col("name").Count().As("n")).Explain(ChangelogMode)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan, "ChangelogNormalize(key=[name], changelogMode=[I,UB,UA,D])\n") ||
		!strings.Contains(plan, "Exchange(distribution=[hash[name]], changelogMode=[I,UA,PD])\n") {
		t.Errorf("plan:\n%s", plan)
	}
	// its deletes may carry only the key ([I,UA,PD], as Flink 2.3 declares
	// an upsert stream), so an explained query keeps the normalize
	plan, err = tab.Explain(ChangelogMode)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan, "== Optimized Physical Plan ==\nChangelogNormalize(key=[name], changelogMode=[I,UA,D])\n+- Exchange(distribution=[hash[name]], changelogMode=[I,UA,PD])\n") {
		t.Errorf("plan:\n%s", plan)
	}
}

// A join knows its inputs' uniqueness from their upsert keys (a table's
// primary key), as Flink's JoinInputSideSpec does, and passes upsert keys
// on (FlinkRelMdUpsertKeys): a CDC table joined with itself on its key is
// keyed on it, so an upsert sink on that key needs no materializer.
func TestChangelogJoinInputSpecs(t *testing.T) {
	env := changelogEnv(t)
	for _, c := range []struct{ stmt, want string }{
		{"SELECT l.id, r.name FROM cdc l JOIN cdc r ON l.id = r.id", "leftInputSpec=[JoinKeyContainsUniqueKey], rightInputSpec=[JoinKeyContainsUniqueKey]"},
		{"SELECT l.id, r.name FROM cdc l JOIN cdc r ON l.name = r.name", "leftInputSpec=[HasUniqueKey], rightInputSpec=[NoUniqueKey]"},
		{"INSERT INTO hole_pk SELECT l.id, r.name, l.weight FROM cdc l JOIN cdc r ON l.id = r.id", "Sink(table=[default_catalog.default_database.hole_pk], fields=[id, name, weight], changelogMode=[NONE])\n+- Calc("},
	} {
		if got := physicalPlan(t, env, c.stmt); !strings.Contains(got, c.want) {
			t.Errorf("%s:\n%s\nwant it to contain %s", c.stmt, got, c.want)
		}
	}
}

// An inner join whose inputs are keyed on the join key passes upserts on
// (Flink's join under ONLY_UPDATE_AFTER): into an upsert sink on that key
// the upsert sources' ChangelogNormalize goes and the join replaces a
// key's row on +U; the sink's final rows are the joined table's.
func TestChangelogJoinTakesUpserts(t *testing.T) {
	env := changelogEnv(t)
	mustExec(t, env, "CREATE TABLE up_sink (id INT, name STRING, weight DOUBLE, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector'='test-changelog', 'changelog-mode'='I')")
	stmt := "INSERT INTO up_sink SELECT l.id, r.name, l.weight FROM up l JOIN up r ON l.id = r.id"
	want := `Sink(table=[default_catalog.default_database.up_sink], fields=[id, name, weight], changelogMode=[NONE])
+- Calc(select=[id, name, weight], changelogMode=[I,UA,D])
   +- Join(joinType=[InnerJoin], where=[=(id, id0)], select=[id, weight, id0, name], leftInputSpec=[JoinKeyContainsUniqueKey], rightInputSpec=[JoinKeyContainsUniqueKey], changelogMode=[I,UA,D])
      :- Exchange(distribution=[hash[id]], changelogMode=[I,UA,D])
      :  +- TableSourceScan(table=[[default_catalog, default_database, up, project=[id, weight]]], fields=[id, weight], changelogMode=[I,UA,D])
      +- Exchange(distribution=[hash[id]], changelogMode=[I,UA,D])
         +- TableSourceScan(table=[[default_catalog, default_database, up, project=[id, name]]], fields=[id, name], changelogMode=[I,UA,D])`
	if got := physicalPlan(t, env, stmt); got != want {
		t.Errorf("%s:\n%s\nwant:\n%s", stmt, got, want)
	}
	// a join on another column still needs -U rows
	other := physicalPlan(t, env, "INSERT INTO pr SELECT l.id, r.name, l.weight FROM up l JOIN up r ON l.name = r.name")
	if !strings.Contains(other, "ChangelogNormalize(key=[id], changelogMode=[I,UB,UA,D])") {
		t.Errorf("join on name:\n%s", other)
	}
	cdc := physicalPlan(t, env, "INSERT INTO up_sink SELECT l.id, r.name, l.weight FROM cdc l JOIN cdc r ON l.id = r.id")
	if strings.Count(cdc, "+- DropUpdateBefore(changelogMode=[I,UA,D])") != 2 || !strings.Contains(cdc, "changelogMode=[I,UA,D])\n   +- Join(") {
		t.Errorf("CDC join:\n%s", cdc)
	}
	check := func(stmt, want string) {
		t.Helper()
		for i := 0; i < 3; i++ { // the two scans interleave differently from run to run
			testSinkRows.Lock()
			delete(testSinkRows.m, "`default_catalog`.`default_database`.`up_sink`")
			testSinkRows.Unlock()
			res, err := env.ExecuteSQL(stmt)
			if err != nil {
				t.Fatal(err)
			}
			if err := res.Wait(time.Minute); err != nil {
				t.Fatal(err)
			}
			testSinkRows.Lock()
			rows := testSinkRows.m["`default_catalog`.`default_database`.`up_sink`"]
			testSinkRows.Unlock()
			final := map[string]string{}
			for _, r := range rows {
				kind, vals, _ := strings.Cut(r, "[")
				id, _, _ := strings.Cut(vals, ",")
				if kind == "-D" {
					delete(final, id)
				} else {
					final[id] = r[len(kind):]
				}
			}
			var got []string
			for _, v := range final {
				got = append(got, v)
			}
			sort.Strings(got)
			if strings.Join(got, " ") != want {
				t.Fatalf("final rows %v from %v", got, rows)
			}
			for _, r := range rows {
				if strings.HasPrefix(r, "-U") {
					t.Fatalf("-U row reached the upsert sink: %v", rows)
				}
			}
		}
	}
	check(stmt, "[1, scooter, 5.2] [3, hammer, 0.8]")
	check("INSERT INTO up_sink SELECT l.id, r.name, l.weight FROM cdc l JOIN cdc r ON l.id = r.id", "[1, scooter, 5.2]")
}

// An event-time temporal join reads its versioned table as upserts where
// it can, as Flink's does: no ChangelogNormalize over an upsert source, a
// DropUpdateBefore over a CDC one, so a -U never reads as the end of a
// version.
func TestChangelogTemporalJoin(t *testing.T) {
	env := changelogEnv(t)
	rates := "'+I|USD|1.0|2024-01-01 10:00:00;-U|USD|1.0|2024-01-01 10:00:00;+U|USD|2.0|2024-01-01 10:05:00'"
	mustExec(t, env,
		"CREATE TABLE rates_cdc (currency STRING, rate DOUBLE, ts TIMESTAMP(3), PRIMARY KEY (currency) NOT ENFORCED, WATERMARK FOR ts AS ts) WITH ('connector'='test-changelog', 'changelog-mode'='I,UB,UA,D', 'rows'="+rates+")",
		"CREATE TABLE rates_up (currency STRING, rate DOUBLE, ts TIMESTAMP(3), PRIMARY KEY (currency) NOT ENFORCED, WATERMARK FOR ts AS ts) WITH ('connector'='test-changelog', 'changelog-mode'='UA,D', "+
			"'rows'='+U|USD|1.0|2024-01-01 10:00:00;+U|USD|2.0|2024-01-01 10:05:00')",
		"CREATE TABLE ords (amount DOUBLE, currency STRING, ts TIMESTAMP(3), WATERMARK FOR ts AS ts) WITH ('connector'='test-changelog', 'changelog-mode'='I', "+
			"'rows'='+I|10.0|USD|2024-01-01 10:03:00;+I|20.0|USD|2024-01-01 10:06:00')",
	)
	for _, c := range []struct{ table, right string }{
		// the exchange keeps the normalize's kinds, as in Flink's plan
		// (Exchange [I,UA,D] over the [UA,D] scan)
		{"rates_up", `   +- Exchange(distribution=[hash[currency]], changelogMode=[I,UA,D])
      +- WatermarkAssigner(rowtime=[ts], watermark=[ts], changelogMode=[I,UA,D])
         +- TableSourceScan(table=[[default_catalog, default_database, rates_up]], fields=[currency, rate, ts], changelogMode=[UA,D])`},
		{"rates_cdc", `   +- Exchange(distribution=[hash[currency]], changelogMode=[I,UA,D])
      +- WatermarkAssigner(rowtime=[ts], watermark=[ts], changelogMode=[I,UA,D])
         +- DropUpdateBefore(changelogMode=[I,UA,D])
            +- TableSourceScan(table=[[default_catalog, default_database, rates_cdc]], fields=[currency, rate, ts], changelogMode=[I,UB,UA,D])`},
	} {
		q := "SELECT o.amount, r.rate FROM ords o JOIN " + c.table + " FOR SYSTEM_TIME AS OF o.ts AS r ON o.currency = r.currency"
		if got := physicalPlan(t, env, q); !strings.HasSuffix(got, c.right) {
			t.Errorf("%s:\n%s\nwant the versioned side:\n%s", q, got, c.right)
		}
		if got := strings.Join(rowsOf(t, env, q, 2), " "); got != "+I[10.0, 1.0] +I[20.0, 2.0]" {
			t.Errorf("%s: %s", q, got)
		}
	}
}

// Under 'table.exec.sink.upsert-materialize' AUTO an updating query whose
// upsert key is not the sink's primary key fails as on Flink 2.3.0, which
// names the key, "none" for a scan without one and nothing for a derived
// empty set (messages checked on Flink 2.3.0).
func TestChangelogUpsertKeyConflicts(t *testing.T) {
	env := changelogEnv(t)
	mustExec(t, env,
		"CREATE TABLE cdc_nopk (id INT, name STRING, weight DOUBLE) WITH ('connector'='test-changelog', 'changelog-mode'='I,UB,UA,D')",
		"CREATE TABLE hole_name (name STRING, id INT, weight DOUBLE, PRIMARY KEY (name) NOT ENFORCED) WITH ('connector'='blackhole')")
	for _, c := range []struct{ stmt, key string }{
		{"INSERT INTO hole_name SELECT name, id, weight FROM cdc", "Primary key: [name], upsert key: [id]."},
		{"INSERT INTO hole_pk SELECT * FROM cdc_nopk", "Primary key: [id], upsert key: none."},
		{"INSERT INTO hole_pk SELECT id, name, weight FROM cdc_nopk WHERE id > 1", "Primary key: [id], upsert key: ."},
	} {
		if _, err := env.ExplainSQL(c.stmt); err == nil || !strings.Contains(err.Error(), c.key) {
			t.Errorf("%s: %v, want %q", c.stmt, err, c.key)
		}
	}
	mustExec(t, env, "SET 'table.exec.sink.upsert-materialize' = 'FORCE'")
	if plan := physicalPlan(t, env, "INSERT INTO hole_pk SELECT * FROM cdc_nopk"); !strings.Contains(plan, "upsertMaterialize=[true]") {
		t.Errorf("FORCE:\n%s", plan)
	}
}
