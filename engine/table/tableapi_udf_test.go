package table

import (
	"bytes"
	"github.com/riffle-sql/riffle/engine/config"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// weightedAvg is an AggregateFunction over (value, weight).
type weightedAvg struct{}

type wavgAcc struct{ sum, count int64 }

func (weightedAvg) CreateAccumulator() any { return &wavgAcc{} }
func (weightedAvg) Accumulate(acc any, args ...any) error {
	a := acc.(*wavgAcc)
	if args[0] == nil || args[1] == nil {
		return nil
	}
	a.sum += args[0].(int64) * args[1].(int64)
	a.count += args[1].(int64)
	return nil
}
func (weightedAvg) Retract(acc any, args ...any) error {
	a := acc.(*wavgAcc)
	a.sum -= args[0].(int64) * args[1].(int64)
	a.count -= args[1].(int64)
	return nil
}
func (weightedAvg) GetValue(acc any) (any, error) {
	a := acc.(*wavgAcc)
	if a.count == 0 {
		return nil, nil
	}
	return a.sum / a.count, nil
}

func TestAggregateUDF(t *testing.T) {
	env := atParallelismOne(MustCreate(InBatchMode()))
	o := orders(t, env)
	wavg := UDAF(weightedAvg{}, WithResultType(types.BigIntType()), WithName("wavg"))
	wantRows(t, o.GroupBy(Col("name")).Select(Col("name"), wavg.Call(Col("amount"), Col("id"))).OrderBy(Col("name")),
		"+I[Alice, 25]", "+I[Bob, 20]", "+I[Carol, 40]")
	if err := env.CreateTemporarySystemFunction("wavg", wavg); err != nil {
		t.Fatal(err)
	}
	res, err := env.SQLQuery("SELECT wavg(amount, id) FROM " + o.String())
	mustTable(t, res, err)
	wantRows(t, res, "+I[30]")
	// streaming: retractions reach Retract
	senv := atParallelismOne(MustCreate(InStreamingMode()))
	so := orders(t, senv)
	counts := so.GroupBy(Col("name")).Select(Col("name"), Col("id").Count().As("n"))
	// (unchanged results are not re-emitted; the retraction of Alice's
	// first count goes through Retract)
	wantRows(t, counts.GroupBy(Col("n")).Select(Col("n"), wavg.Call(Col("n"), Col("n")).As("w")),
		"+I[1, 1]", "+I[2, 2]")
}

// rowAgg returns ROW(min, max) for Aggregate.
type minMax struct{}

type mmAcc struct {
	min, max int64
	seen     bool
}

func (minMax) CreateAccumulator() any { return &mmAcc{} }
func (minMax) Accumulate(acc any, args ...any) error {
	a := acc.(*mmAcc)
	v := args[0].(int64)
	if !a.seen || v < a.min {
		a.min = v
	}
	if !a.seen || v > a.max {
		a.max = v
	}
	a.seen = true
	return nil
}
func (minMax) GetValue(acc any) (any, error) {
	a := acc.(*mmAcc)
	return []any{a.min, a.max}, nil
}
func (minMax) GetResultType() *types.DataType {
	return types.RowType(types.NewField("lo", types.BigIntType()), types.NewField("hi", types.BigIntType()))
}

func TestAggregateOperation(t *testing.T) {
	env := MustCreate(InBatchMode())
	o := orders(t, env)
	mm := UDAF(minMax{})
	wantRows(t, o.GroupBy(Col("name")).Aggregate(mm.Call(Col("amount")).As("a", "b")).Select(Col("name"), Col("a"), Col("b")).OrderBy(Col("name")),
		"+I[Alice, 10, 30]", "+I[Bob, 20, 20]", "+I[Carol, 40, 40]")
	wantRows(t, o.Aggregate(mm.Call(Col("amount"))).Select(Col("hi"), Col("lo")), "+I[40, 10]")
}

func TestMapOperation(t *testing.T) {
	env := MustCreate(InBatchMode())
	tab, err := env.FromElements([]any{[]any{3}, []any{5}}, "a")
	mustTable(t, tab, err)
	f := UDF(func(x int64) *types.Row { return types.NewRow(x+1, x*x) },
		WithResultType(types.RowType(types.NewField("a", types.BigIntType()), types.NewField("b", types.BigIntType()))))
	wantRows(t, tab.Map(f.Call(Col("a"))).Alias("x", "y"), "+I[4, 9]", "+I[6, 25]")
	identity := UDF(func(r *types.Row) *types.Row { return r }, WithResultType(types.RowType(types.NewField("v", types.BigIntType()))))
	wantRows(t, tab.Map(identity.Call(Col("*"))), "+I[3]", "+I[5]")
}

func TestDescriptorsAndInserts(t *testing.T) {
	env := MustCreate(InBatchMode())
	var out bytes.Buffer
	env.SetStdout(&out)
	schema := NewSchemaBuilder().Column("f0", types.BigIntType()).Build()
	src, err := env.FromDescriptor(ForConnector("datagen").Schema(schema).Option("number-of-rows", 3).
		Option("fields.f0.kind", "sequence").Option("fields.f0.start", 1).Option("fields.f0.end", 3).Build())
	mustTable(t, src, err)
	wantRowsAnyOrder(t, src, "+I[1]", "+I[2]", "+I[3]")
	if err := env.CreateTemporaryTable("sink", ForConnector("print").Schema(schema).Build()); err != nil {
		t.Fatal(err)
	}
	res, err := src.ExecuteInsert("sink")
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Wait(0); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); !strings.Contains(got, "+I[1]") || !strings.Contains(got, "+I[3]") {
		t.Fatalf("print sink got %q", got)
	}
	// an anonymous sink derives its physical columns from the table
	res, err = src.ExecuteInsert(ForConnector("blackhole").Build())
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Wait(0); err != nil {
		t.Fatal(err)
	}
	if n := res.Schema().FieldNames(); len(n) != 1 || !strings.Contains(n[0], "*anonymous_blackhole$") {
		t.Fatalf("result schema %v", n)
	}
	// statement sets run one job and are cleared
	ss := env.CreateStatementSet()
	if _, err := ss.AddInsert("sink", src); err != nil {
		t.Fatal(err)
	}
	if _, err := ss.AddInsertSQL("INSERT INTO sink SELECT f0 * 10 FROM " + src.String()); err != nil {
		t.Fatal(err)
	}
	if ss.Len() != 2 {
		t.Fatal("two inserts expected")
	}
	plan, err := ss.Explain()
	if err != nil || strings.Count(plan, "Sink(table=[default_catalog.default_database.sink]") < 2 {
		t.Fatalf("explain: %v\n%s", err, plan)
	}
	out.Reset()
	r, err := ss.Execute()
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Wait(0); err != nil {
		t.Fatal(err)
	}
	if ss.Len() != 0 {
		t.Fatal("statement set not cleared")
	}
	if got := out.String(); !strings.Contains(got, "+I[30]") || !strings.Contains(got, "+I[2]") {
		t.Fatalf("print sink got %q", got)
	}
}

func TestDataStreamBridge(t *testing.T) {
	env, err := CreateStreamTableEnvironment(InStreamingMode())
	if err != nil {
		t.Fatal(err)
	}
	env.Config().Set(config.Parallelism.Key, "1") // the changelog below is in one task's order
	rt := types.RowType(types.NewField("name", types.StringType()), types.NewField("score", types.IntType()))
	ds := DataStreamOf(rt, types.NewRow("Alice", int32(12)), types.NewRow("Bob", int32(10)), types.NewRow("Alice", int32(100)))
	tab, err := env.FromDataStream(ds)
	mustTable(t, tab, err)
	out, err := env.ToDataStream(tab.Where(Col("score").IsGreater(11)))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := out.Collect()
	if err != nil || len(rows) != 2 || rows[1].String() != "+I[Alice, 100]" {
		t.Fatalf("%v %v", rows, err)
	}
	agg := tab.GroupBy(Col("name")).Select(Col("name"), Col("score").Sum().As("total"))
	if _, err := env.ToDataStream(agg); err == nil || !strings.Contains(err.Error(), "cannot represent") {
		t.Fatalf("updating table to insert-only stream: %v", err)
	}
	cl, err := env.ToChangelogStream(agg, nil)
	if err != nil {
		t.Fatal(err)
	}
	rows, err = cl.Collect()
	var got []string
	for _, r := range rows {
		got = append(got, r.String())
	}
	if err != nil || strings.Join(got, " ") != "+I[Alice, 12] +I[Bob, 10] -U[Alice, 12] +U[Alice, 112]" {
		t.Fatalf("%v %v", got, err)
	}
	// a changelog stream in
	ch := make(chan *types.Row, 4)
	ch <- types.NewRowWithKind(types.Insert, "Alice", int32(12))
	ch <- types.NewRowWithKind(types.Insert, "Bob", int32(5))
	ch <- types.NewRowWithKind(types.UpdateBefore, "Alice", int32(12))
	ch <- types.NewRowWithKind(types.UpdateAfter, "Alice", int32(100))
	close(ch)
	ctab, err := env.FromChangelogStream(NewDataStream(ch, rt), nil)
	mustTable(t, ctab, err)
	wantRows(t, ctab.Select(Col("score").Sum().As("s")), "+I[12]", "-U[12]", "+U[17]", "-U[17]", "+U[5]", "-U[5]", "+U[105]")
	// upsert stream with a key
	ch2 := make(chan *types.Row, 3)
	ch2 <- types.NewRowWithKind(types.Insert, "Alice", int32(1))
	ch2 <- types.NewRowWithKind(types.UpdateAfter, "Alice", int32(2))
	ch2 <- types.NewRowWithKind(types.Delete, "Alice", nil)
	close(ch2)
	schema := NewSchemaBuilder().Column("name", types.StringType().NotNull()).Column("score", types.IntType()).PrimaryKey("name").Build()
	utab, err := env.FromChangelogStream(NewDataStream(ch2, rt), schema, ChangelogModeUpsert())
	mustTable(t, utab, err)
	wantRows(t, utab, "+I[Alice, 1]", "-U[Alice, 1]", "+U[Alice, 2]", "-D[Alice, 2]")
	// insert-only streams reject other kinds
	bad := DataStreamOf(rt, types.NewRowWithKind(types.Delete, "x", int32(1)))
	btab, err := env.FromDataStream(bad)
	mustTable(t, btab, err)
	res, err := btab.Execute()
	if err == nil {
		it, _ := res.Collect()
		for it.Next() {
		}
		err = it.Err()
	}
	if err == nil || !strings.Contains(err.Error(), "insert-only") {
		t.Fatalf("delete row in FromDataStream: %v", err)
	}
}

type panicky struct{}

func (panicky) CreateAccumulator() any                { return new(int64) }
func (panicky) Accumulate(acc any, args ...any) error { panic("agg kaput") }
func (panicky) GetValue(acc any) (any, error)         { return *(acc.(*int64)), nil }

func runErr(t *testing.T, tab *Table) error {
	t.Helper()
	if err := tab.Err(); err != nil {
		return err
	}
	res, err := tab.Execute()
	if err != nil {
		return err
	}
	it, err := res.Collect()
	if err != nil {
		return err
	}
	defer it.Close()
	for it.Next() {
	}
	return it.Err()
}

func TestPanickingFunctionsNameThemselves(t *testing.T) {
	env := MustCreate(InBatchMode())
	o := orders(t, env)
	agg := UDAF(panicky{}, WithResultType(types.BigIntType()), WithName("my_agg"))
	if err := runErr(t, o.GroupBy(Col("name")).Select(agg.Call(Col("id")))); err == nil || !strings.Contains(err.Error(), "my_agg") || !strings.Contains(err.Error(), "agg kaput") {
		t.Fatalf("UDAF panic: %v", err)
	}
	tf := UDTF(func(s string, emit func(string)) { panic("table kaput") }, WithName("my_split"))
	if err := runErr(t, o.JoinLateral(tf.Call(Col("name")).As("w"))); err == nil || !strings.Contains(err.Error(), "my_split") || !strings.Contains(err.Error(), "table kaput") {
		t.Fatalf("UDTF panic: %v", err)
	}
	sf := UDF(func(s string) string { panic("scalar kaput") }, WithName("my_scalar"))
	if err := runErr(t, o.Select(sf.Call(Col("name")))); err == nil || !strings.Contains(err.Error(), "my_scalar") || !strings.Contains(err.Error(), "scalar kaput") {
		t.Fatalf("UDF panic: %v", err)
	}
	// the environment keeps working
	wantRows(t, o.Select(Col("id").Count()), "+I[4]")
}

type lifecycle struct {
	opens, closes, evals atomic.Int64
	param                string
	closed               chan struct{} // receives on the first Close
}

func (l *lifecycle) Open(ctx *FunctionContext) error {
	l.opens.Add(1)
	l.param = ctx.JobParameter("greeting", "none")
	ctx.MetricGroup().Counter("opened").Inc()
	return nil
}
func (l *lifecycle) Close() error {
	if l.closes.Add(1) == 1 {
		close(l.closed)
	}
	return nil
}
func (l *lifecycle) Eval(args ...any) (any, error) {
	l.evals.Add(1)
	return l.param, nil
}

func TestFunctionLifecycleAndDeterminism(t *testing.T) {
	env := MustCreate(InBatchMode())
	env.Config().ExecutionConfig().SetGlobalJobParameters(map[string]string{"greeting": "hello"})
	o := orders(t, env)
	l := &lifecycle{closed: make(chan struct{})}
	f := UDF(l, WithResultType(types.StringType()), WithDeterministic(false))
	wantRows(t, o.Select(f.Call(Col("id"))).Limit(1), "+I[hello]")
	// the job closes its function instances as it ends, after the rows
	select {
	case <-l.closed:
	case <-time.After(10 * time.Second):
		t.Fatal("the function was not closed when its job ended")
	}
	if l.opens.Load() != 1 || l.closes.Load() != 1 {
		t.Fatalf("open %d close %d", l.opens.Load(), l.closes.Load())
	}
	// a non-deterministic function of constants is evaluated per row
	var n atomic.Int64
	counter := UDF(func() int64 { return n.Add(1) }, WithDeterministic(false), WithName("counter"))
	wantRows(t, o.Select(counter.Call()).OrderBy(Col("_c0")), "+I[1]", "+I[2]", "+I[3]", "+I[4]")
	// a deterministic one is folded at planning time
	var m atomic.Int64
	folded := UDF(func() int64 { return m.Add(1) }, WithName("folded"))
	wantRows(t, o.Select(folded.Call()).Distinct(), "+I[1]")
}
