package table

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/testwait"
	"github.com/riffle-sql/riffle/engine/types"
)

// countPTF counts the rows of each partition in its state; every 20th row
// it emits the count, and 10 s of event time after a partition's last row
// its timer emits the final count and clears the partition.
type countPTF struct{}

func (countPTF) Eval(ctx PTFContext, row *PTFRow) error {
	n, _ := StateValue[int64](ctx, "cnt")
	n++
	if err := ctx.SetState("cnt", n); err != nil {
		return err
	}
	if n%20 == 0 {
		if err := ctx.Collect("every20", n); err != nil {
			return err
		}
	}
	now, _ := ctx.Time()
	return ctx.RegisterOnTime("idle", now+10_001)
}

func (countPTF) OnTimer(ctx PTFTimerContext) error {
	n, _ := StateValue[int64](ctx, "cnt")
	ctx.ClearAll()
	return ctx.Collect("final:"+ctx.CurrentTimer(), n)
}

func countDef() *ProcessTableFunctionDef {
	return &ProcessTableFunctionDef{
		Args:   []PTFArg{SetSemanticTable("input")},
		Output: []types.Field{{Name: "what", Type: types.StringType()}, {Name: "cnt", Type: types.BigIntType()}},
		State:  []PTFState{{Name: "cnt", Type: types.BigIntType()}},
		New:    func() ProcessTableFunction { return countPTF{} },
	}
}

const countQuery = "SELECT k, what, cnt, rowtime FROM counter(input => TABLE gen PARTITION BY k, on_time => DESCRIPTOR(ts), uid => 'counter1')"

// State and timers of a PTF survive a savepoint: stopped part way and
// resumed, the rows delivered are those of an uninterrupted run.
func TestPTFSavepointRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("paced sources")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	register := func(env *TableEnvironment) {
		if err := env.CreateTemporarySystemFunction("counter", PTF(countDef())); err != nil {
			t.Fatal(err)
		}
	}
	ref := roundTripEnv(t, false)
	register(ref)
	res, err := ref.ExecuteSQLContext(ctx, countQuery)
	if err != nil {
		t.Fatal(err)
	}
	want := applyChanges(collectAll(t, ctx, res))
	// 400 rows in 5 partitions of 80: 4 counts each, then the final one
	if len(want) != 25 || !strings.Contains(strings.Join(want, "\n"), "[0, final:idle, 80, 1970-01-01T00:06:50.001]") {
		t.Fatalf("uninterrupted run: %d rows %v", len(want), want)
	}

	env := roundTripEnv(t, true)
	register(env)
	mustExec(t, env,
		"SET 'execution.checkpointing.interval' = '1 h'",
		"SET 'execution.checkpointing.dir' = '"+t.TempDir()+"'")
	first, err := env.ExecuteSQLContext(ctx, countQuery)
	if err != nil {
		t.Fatal(err)
	}
	job := first.JobClient()
	got := readWhileRunning(ctx, first)
	testwait.Until(t, time.Minute, "a fifth of the rows read", func() bool {
		ms := job.Metrics()
		return len(ms) > 0 && ms[0].RecordsOut >= roundTripRows/5
	})
	path, err := job.StopWithSavepointContext(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	rows := <-got
	if n := job.Metrics()[0].RecordsOut; n >= roundTripRows {
		t.Fatalf("the first run read all %d rows before its savepoint", n)
	}
	mustExec(t, env, "SET 'execution.state-recovery.path' = '"+path+"'")
	second, err := env.ExecuteSQLContext(ctx, countQuery)
	if err != nil {
		t.Fatal(err)
	}
	rows = append(rows, collectAll(t, ctx, second)...)
	if g := applyChanges(rows); strings.Join(g, "\n") != strings.Join(want, "\n") {
		t.Fatalf("stopped and resumed: %d rows, uninterrupted: %d\n got %v\nwant %v", len(g), len(want), g, want)
	}
}

// echoPTF emits, for each row, the row and the scalar argument i (Flink's
// RowSemanticTableFunction of its PTF test programs: "{+I[Bob, 12], 1}").
type echoPTF struct{}

func (echoPTF) Eval(ctx PTFContext, row *PTFRow) error {
	return ctx.Collect(fmt.Sprintf("{%s, %v}", row, ctx.Arg("i")))
}

func echoDef(table PTFArg) *ProcessTableFunctionDef {
	return &ProcessTableFunctionDef{
		Args:   []PTFArg{table, ScalarArg("i", types.IntType())},
		Output: []types.Field{{Name: "out", Type: types.StringType()}},
		New:    func() ProcessTableFunction { return echoPTF{} },
	}
}

func ptfSQLEnv(t *testing.T) *TableEnvironment {
	t.Helper()
	env := atParallelismOne(MustCreate(InStreamingMode()))
	mustExec(t, env, "CREATE TEMPORARY VIEW t AS SELECT * FROM (VALUES ('Bob', 12), ('Alice', 42)) AS v(name, score)")
	for name, arg := range map[string]PTFArg{"frow": RowSemanticTable("r"), "fset": SetSemanticTable("r"),
		"fpass": {Name: "r", Table: true, PassColumnsThrough: true}} {
		if err := env.CreateTemporarySystemFunction(name, PTF(echoDef(arg))); err != nil {
			t.Fatal(err)
		}
	}
	return env
}

func ptfRows(t *testing.T, env *TableEnvironment, q string) []string {
	t.Helper()
	res, err := env.ExecuteSQL(q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	var out []string
	for _, r := range collectAll(t, context.Background(), res) {
		out = append(out, r.String())
	}
	return out
}

// The output schemas and rows of Flink's PTF test programs process-row
// and process-set (keys first), with pass-through and positional calls.
func TestPTFSQLCalls(t *testing.T) {
	env := ptfSQLEnv(t)
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"SELECT * FROM frow(r => TABLE t, i => 1)", []string{"+I[{+I[Bob, 12], 1}]", "+I[{+I[Alice, 42], 1}]"}},
		{"SELECT * FROM frow(TABLE t, 1)", []string{"+I[{+I[Bob, 12], 1}]", "+I[{+I[Alice, 42], 1}]"}},
		{"SELECT * FROM TABLE(frow(TABLE t, 7))", []string{"+I[{+I[Bob, 12], 7}]", "+I[{+I[Alice, 42], 7}]"}},
		{"SELECT * FROM fset(r => TABLE t PARTITION BY name, i => 1)", []string{"+I[Bob, {+I[Bob, 12], 1}]", "+I[Alice, {+I[Alice, 42], 1}]"}},
		{"SELECT * FROM fpass(r => TABLE t, i => 2)", []string{"+I[Bob, 12, {+I[Bob, 12], 2}]", "+I[Alice, 42, {+I[Alice, 42], 2}]"}},
		{"SELECT `out` FROM frow(r => (SELECT name, score FROM t WHERE score > 20), i => 3)", []string{"+I[{+I[Alice, 42], 3}]"}},
	} {
		got := ptfRows(t, env, c.q)
		if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
			t.Errorf("%s:\n got %v\nwant %v", c.q, got, c.want)
		}
	}
}

// Misuse fails with Flink's messages and the position of the mistake.
func TestPTFSQLErrors(t *testing.T) {
	env := ptfSQLEnv(t)
	for _, c := range []struct{ q, want string }{
		{"SELECT * FROM frow(r => TABLE t PARTITION BY name, i => 1)",
			"Only tables with set semantics may be partitioned. Invalid PARTITION BY clause in the 0-th operand of table function 'frow'"},
		{"SELECT * FROM fset(r => TABLE t, i => 1)", "Table argument 'r' requires a PARTITION BY clause for parallel processing."},
		{"SELECT * FROM fset(r => TABLE t PARTITION BY invalid, i => 1)",
			"Invalid column 'invalid' for PARTITION BY clause. Available columns are: [name, score]"},
		{"SELECT * FROM fset(r => TABLE t PARTITION BY name ORDER BY score, i => 1)", "ORDER BY clause is currently not supported."},
		{"SELECT * FROM frow(r => ROW(42), i => 1)", "Invalid argument value. Argument 'r' expects a table to be passed."},
		{"SELECT * FROM frow(r => TABLE t)", "Missing argument 'i' of function 'frow'"},
		{"SELECT * FROM frow(r => TABLE t, i => 'x')", "Invalid argument type of 'i' for function 'frow': expected INT, got CHAR(1) NOT NULL"},
		{"SELECT * FROM fset(r => TABLE t PARTITION BY name, i => 1, uid => '%')",
			"Invalid unique identifier for process table function. The `uid` argument must be a string literal that follows the pattern [a-zA-Z_][a-zA-Z-_0-9]*. But found: %"},
		{"SELECT * FROM frow(r => TABLE t, i => 1, on_time => DESCRIPTOR(ts, INVALID))",
			"Invalid time attribute declaration. Each column in the `on_time` argument must reference at least one column in one of the table arguments. Unknown references: [ts, INVALID]"},
		{"SELECT frow(1)", "FROW is a process table function: call it in FROM"},
	} {
		_, err := env.ExecuteSQL(c.q)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s:\n got %v\nwant %s", c.q, err, c.want)
		}
	}
	_, err := env.ExecuteSQL("SELECT *\nFROM frow(r => TABLE t PARTITION BY name, i => 1)")
	if err == nil || !strings.Contains(err.Error(), "From line 2, column 6 to line 2, column 49") {
		t.Errorf("the error does not span the call, as Calcite's does: %v", err)
	}
}

// EXPLAIN names the node as Flink does: LogicalTableFunctionScan in the
// AST, ProcessTableFunction with invocation, uid, select and rowType in
// the physical plan, after a hash exchange on the partition keys.
func TestPTFExplain(t *testing.T) {
	env := ptfSQLEnv(t)
	plan, err := env.ExplainSQL("SELECT * FROM fset(r => TABLE t PARTITION BY score, i => 1)")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"LogicalTableFunctionScan(invocation=[fset(TABLE(#0) PARTITION BY($1), 1, DEFAULT(), DEFAULT())], rowType=[RecordType(INT NOT NULL score, STRING out)])",
		"ProcessTableFunction(invocation=[fset(TABLE(#0) PARTITION BY($1), 1, DEFAULT(), DEFAULT())], uid=[fset], select=[score,out], rowType=[RecordType(INT NOT NULL score, STRING out)])\n+- Exchange(distribution=[hash[score]])",
	} {
		if !strings.Contains(plan, want) {
			t.Errorf("plan lacks %q:\n%s", want, plan)
		}
	}
}

// TO_CHANGELOG's invocation prints its MAP argument as Calcite does.
func TestPTFExplainToChangelog(t *testing.T) {
	env := ptfSQLEnv(t)
	plan, err := env.ExplainSQL("SELECT * FROM TO_CHANGELOG(input => TABLE t, op => DESCRIPTOR(kind), op_mapping => MAP['DELETE', 'd'])")
	if err != nil {
		t.Fatal(err)
	}
	want := "ProcessTableFunction(invocation=[TO_CHANGELOG(TABLE(#0), DESCRIPTOR(_UTF-16LE'kind'), MAP(_UTF-16LE'DELETE', _UTF-16LE'd'), DEFAULT(), DEFAULT())], uid=[null], select=[kind,name,score]"
	if !strings.Contains(plan, want) {
		t.Errorf("plan lacks %q:\n%s", want, plan)
	}
}

// latestPTF keeps the last score per key and emits it as an update
// (retract mode): +I first, then -U of the old and +U of the new.
type latestPTF struct{}

func (latestPTF) Eval(ctx PTFContext, row *PTFRow) error {
	score := row.Get("score")
	if old := ctx.State("last"); old != nil {
		if err := ctx.CollectKind(types.UpdateBefore, old); err != nil {
			return err
		}
		if err := ctx.SetState("last", score); err != nil {
			return err
		}
		return ctx.CollectKind(types.UpdateAfter, score)
	}
	if err := ctx.SetState("last", score); err != nil {
		return err
	}
	return ctx.Collect(score)
}

// A PTF with UpdatingOutput emits changes; a row-semantic one may not.
func TestPTFUpdatingOutput(t *testing.T) {
	env := ptfSQLEnv(t)
	mustExec(t, env, "CREATE TEMPORARY VIEW s AS SELECT * FROM (VALUES ('Bob', 12), ('Bob', 20), ('Alice', 42)) AS v(name, score)")
	def := func(arg PTFArg) *ProcessTableFunctionDef {
		return &ProcessTableFunctionDef{Args: []PTFArg{arg}, UpdatingOutput: true,
			Output: []types.Field{{Name: "last", Type: types.IntType()}},
			State:  []PTFState{{Name: "last", Type: types.IntType()}},
			New:    func() ProcessTableFunction { return latestPTF{} }}
	}
	if err := env.CreateTemporarySystemFunction("latest", PTF(def(SetSemanticTable("r")))); err != nil {
		t.Fatal(err)
	}
	if err := env.CreateTemporarySystemFunction("latest_row", PTF(def(RowSemanticTable("r")))); err != nil {
		t.Fatal(err)
	}
	got := ptfRows(t, env, "SELECT * FROM latest(r => TABLE s PARTITION BY name)")
	want := []string{"+I[Bob, 12]", "-U[Bob, 12]", "+U[Bob, 20]", "+I[Alice, 42]"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %v\nwant %v", got, want)
	}
	// a GROUP BY over it sees the updates
	got = ptfRows(t, env, "SELECT SUM(`last`) FROM latest(r => TABLE s PARTITION BY name)")
	if g := applyChanges(collectRowsOf(t, env, "SELECT SUM(`last`) FROM latest(r => TABLE s PARTITION BY name)")); strings.Join(g, ",") != "[62]" {
		t.Errorf("sum over the updates: %v (changelog %v)", g, got)
	}
	_, err := env.ExecuteSQL("SELECT * FROM latest_row(r => TABLE s)")
	if err == nil || !strings.Contains(err.Error(), "PTFs that take table arguments with row semantics don't support updating output. Table argument 'r' of function 'latest_row' must use set semantics.") {
		t.Errorf("row semantics with updating output: %v", err)
	}
}

func collectRowsOf(t *testing.T, env *TableEnvironment, q string) []*types.Row {
	t.Helper()
	res, err := env.ExecuteSQL(q)
	if err != nil {
		t.Fatal(err)
	}
	return collectAll(t, context.Background(), res)
}

type panicPTF struct{}

func (panicPTF) Eval(ctx PTFContext, row *PTFRow) error { panic("boom") }

// A PTF with only scalar arguments runs once; its time is unknown (Flink's
// process-scalar-args-time). A panic in a PTF fails the query naming it.
// PTFs run in batch mode too, and chain on the rowtime of another.
func TestPTFScalarOnlyPanicBatchChained(t *testing.T) {
	env := ptfSQLEnv(t)
	scalar := PTF(&ProcessTableFunctionDef{
		Args:   []PTFArg{ScalarArg("i", types.IntType()), ScalarArg("b", types.BooleanType())},
		Output: []types.Field{{Name: "out", Type: types.StringType()}},
		New: func() ProcessTableFunction {
			return PTFEvalFunc(func(ctx PTFContext, row *PTFRow) error {
				_, ok := ctx.Time()
				return ctx.Collect(fmt.Sprintf("{%v, %v} time known %v", ctx.Arg("i"), ctx.Arg("b"), ok))
			})
		},
	})
	boom := PTF(&ProcessTableFunctionDef{Args: []PTFArg{RowSemanticTable("r")},
		Output: []types.Field{{Name: "x", Type: types.IntType()}}, New: func() ProcessTableFunction { return panicPTF{} }})
	for n, f := range map[string]*UserDefinedFunction{"fscalar": scalar, "boom": boom} {
		if err := env.CreateTemporarySystemFunction(n, f); err != nil {
			t.Fatal(err)
		}
	}
	if got := ptfRows(t, env, "SELECT * FROM fscalar(i => 42, b => CAST('TRUE' AS BOOLEAN))"); strings.Join(got, ",") != "+I[{42, true} time known false]" {
		t.Errorf("scalar-only PTF: %v", got)
	}
	res, err := env.ExecuteSQL("SELECT * FROM boom(r => TABLE t)")
	if err == nil {
		for _, e := range res.Rows(context.Background()) {
			if e != nil {
				err = e
			}
		}
	}
	if err == nil || !strings.Contains(err.Error(), "process table function boom: panic: boom") {
		t.Errorf("panicking PTF: %v", err)
	}

	// chained: the second PTF's on_time is the first one's rowtime
	env2 := MustCreate(InStreamingMode())
	if err := env2.CreateTemporarySystemFunction("counter", PTF(countDef())); err != nil {
		t.Fatal(err)
	}
	if err := env2.CreateTemporarySystemFunction("echo", PTF(echoDef(SetSemanticTable("r")))); err != nil {
		t.Fatal(err)
	}
	mustExec(t, env2, `CREATE TEMPORARY VIEW ev AS SELECT k, TO_TIMESTAMP_LTZ(ts, 3) AS ts FROM (VALUES ('a', 1000), ('a', 2000), ('b', 1500)) AS v(k, ts)`)
	got := ptfRows(t, env2, "SELECT k, rowtime FROM echo(r => (SELECT * FROM counter(input => TABLE ev PARTITION BY k, on_time => DESCRIPTOR(ts))) PARTITION BY k, i => 1, on_time => DESCRIPTOR(rowtime))")
	if strings.Join(got, ",") != "+I[a, 1970-01-01T00:00:12.001],+I[b, 1970-01-01T00:00:11.501]" && strings.Join(got, ",") != "+I[b, 1970-01-01T00:00:11.501],+I[a, 1970-01-01T00:00:12.001]" {
		t.Errorf("chained PTFs: %v", got)
	}

	// batch mode: the end of the input fires the timers
	env3 := MustCreate(InBatchMode())
	if err := env3.CreateTemporarySystemFunction("counter", PTF(countDef())); err != nil {
		t.Fatal(err)
	}
	mustExec(t, env3, `CREATE TEMPORARY VIEW ev AS SELECT k, TO_TIMESTAMP_LTZ(ts, 3) AS ts FROM (VALUES ('a', 1000), ('a', 2000), ('b', 1500)) AS v(k, ts)`)
	got = ptfRows(t, env3, "SELECT k, what, cnt FROM counter(input => TABLE ev PARTITION BY k, on_time => DESCRIPTOR(ts)) ORDER BY k")
	if strings.Join(got, ",") != "+I[a, final:idle, 2],+I[b, final:idle, 1]" {
		t.Errorf("batch: %v", got)
	}
}

// The built-in PTFs describe themselves as PROCESS_TABLE functions and,
// misused, say how they are called.
func TestPTFBuiltinMisuse(t *testing.T) {
	env := ptfSQLEnv(t)
	res, err := env.ExecuteSQL("DESCRIBE FUNCTION EXTENDED TO_CHANGELOG")
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, r := range collectAll(t, context.Background(), res) {
		if r.Values[0] == "kind" {
			kinds = append(kinds, fmt.Sprint(r.Values[1]))
		}
	}
	if strings.Join(kinds, ",") != "PROCESS_TABLE" {
		t.Errorf("kind: %v", kinds)
	}
	for q, want := range map[string]string{
		"SELECT TO_CHANGELOG(1)":                         "TO_CHANGELOG is a process table function: call it in FROM",
		"SELECT * FROM TO_CHANGELOG(1)":                  "Invalid argument value. Argument 'input' expects a table to be passed.",
		"SELECT * FROM TO_CHANGELOG()":                   "Missing argument 'input' of function 'TO_CHANGELOG'",
		"SELECT * FROM FROM_CHANGELOG(input => TABLE t)": "The op column 'op' is not a column of the input table",
	} {
		_, err := env.ExecuteSQL(q)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %s", q, err, want)
		}
	}
}
