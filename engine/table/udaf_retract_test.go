package table

import (
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// sumOnly is an AggregateFunction without Retract (Flink's retract method).
type sumOnly struct{}

func (sumOnly) CreateAccumulator() any { return new(int64) }
func (sumOnly) Accumulate(acc any, args ...any) error {
	if args[0] != nil {
		*acc.(*int64) += args[0].(int64)
	}
	return nil
}
func (sumOnly) GetValue(acc any) (any, error) { return *acc.(*int64), nil }

// lastOnly is a TableAggregateFunction without Retract.
type lastOnly struct{}

func (lastOnly) CreateAccumulator() any { return new(int64) }
func (lastOnly) Accumulate(acc any, args ...any) error {
	if args[0] != nil {
		*acc.(*int64) = args[0].(int64)
	}
	return nil
}
func (lastOnly) EmitValue(acc any, out *Collector) error {
	out.Collect(*acc.(*int64))
	return nil
}

// checkNoRetract asserts Flink's planning error for a function without
// retract over an updating input: the message names the function and no
// run-time panic or stack trace reaches the user.
func checkNoRetract(t *testing.T, what string, err error, fn string) {
	t.Helper()
	if err == nil {
		t.Fatalf("%s: expected an error for %s over an updating input", what, fn)
	}
	msg := err.Error()
	if !strings.Contains(msg, "No matching retract method found for") || !strings.Contains(msg, "'"+fn+"'") {
		t.Fatalf("%s: want Flink's retract error naming %s, got: %v", what, fn, msg)
	}
	if strings.Contains(msg, "goroutine") || strings.Contains(msg, "panic") {
		t.Fatalf("%s: the error carries a stack: %v", what, msg)
	}
}

func TestAggregateWithoutRetractOverUpdatingInput(t *testing.T) {
	const inner = "SELECT name, COUNT(*) AS n FROM orders GROUP BY name"
	const outer = "SELECT n, my_sum(n) AS s FROM (" + inner + ") GROUP BY n"
	mySum := UDAF(sumOnly{}, WithResultType(types.BigIntType()), WithName("my_sum"))

	senv := MustCreate(InStreamingMode())
	so := orders(t, senv)
	if err := senv.CreateTemporaryView("orders", so); err != nil {
		t.Fatal(err)
	}
	if err := senv.CreateTemporarySystemFunction("my_sum", mySum); err != nil {
		t.Fatal(err)
	}
	// SQL: rejected when the plan is built, by ExecuteSQL and Explain
	_, err := senv.ExecuteSQL(outer)
	checkNoRetract(t, "ExecuteSQL", err, "my_sum")
	if !strings.Contains(err.Error(), "(BIGINT NOT NULL)") || !strings.Contains(err.Error(), "update changes") {
		t.Fatalf("the error names neither the parameters nor the changes: %v", err)
	}
	_, err = senv.ExplainSQL(outer)
	checkNoRetract(t, "ExplainSQL", err, "my_sum")
	// Table API: Execute and Explain
	counts := so.GroupBy(Col("name")).Select(Col("name"), Col("id").Count().As("n"))
	tab := counts.GroupBy(Col("n")).Select(Col("n"), mySum.Call(Col("n")).As("s"))
	_, err = tab.Execute()
	checkNoRetract(t, "Table.Execute", err, "my_sum")
	_, err = tab.Explain()
	checkNoRetract(t, "Table.Explain", err, "my_sum")
	// a table aggregate function too
	last := UDTAF(lastOnly{}, WithResultType(types.RowType(types.NewField("v", types.BigIntType()))), WithName("my_last"))
	flat := counts.GroupBy(Col("n")).FlatAggregate(last.Call(Col("n")).As("v")).Select(Col("n"), Col("v"))
	_, err = flat.Execute()
	checkNoRetract(t, "FlatAggregate", err, "my_last")
	// a changelog source producing -U/+U: rejected as well, naming the source
	rt := types.RowType(types.NewField("name", types.StringType()), types.NewField("score", types.BigIntType()))
	ch := make(chan *types.Row, 3)
	ch <- types.NewRowWithKind(types.Insert, "Alice", int64(12))
	ch <- types.NewRowWithKind(types.UpdateBefore, "Alice", int64(12))
	ch <- types.NewRowWithKind(types.UpdateAfter, "Alice", int64(100))
	close(ch)
	ctab, err := senv.FromChangelogStream(NewDataStream(ch, rt), nil)
	mustTable(t, ctab, err)
	_, err = ctab.GroupBy(Col("name")).Select(Col("name"), mySum.Call(Col("score"))).Execute()
	checkNoRetract(t, "changelog source", err, "my_sum")
	// over insert-only input the function needs no retract
	wantRows(t, so.GroupBy(Col("name")).Select(Col("name"), mySum.Call(Col("id")).As("s")).
		Where(Col("name").IsEqual("Bob")), "+I[Bob, 2]")
	// the environment keeps working
	wantRows(t, so.Select(Col("id").Count()), "+I[1]", "-U[1]", "+U[2]", "-U[2]", "+U[3]", "-U[3]", "+U[4]")

	// batch mode: the inner aggregate is final, so the same query works
	benv := MustCreate(InBatchMode())
	if err := benv.CreateTemporaryView("orders", orders(t, benv)); err != nil {
		t.Fatal(err)
	}
	if err := benv.CreateTemporarySystemFunction("my_sum", mySum); err != nil {
		t.Fatal(err)
	}
	res, err := benv.SQLQuery(outer + " ORDER BY n")
	mustTable(t, res, err)
	// Alice has 2 orders, Bob and Carol 1 each
	wantRows(t, res, "+I[1, 2]", "+I[2, 2]")
}

// failing returns an error from Accumulate.
type failing struct{ sumOnly }

func (failing) Accumulate(acc any, args ...any) error { return errTestAccumulate }

type testError string

func (e testError) Error() string { return string(e) }

const errTestAccumulate = testError("accumulate refused")

func TestAggregateErrorHasNoStack(t *testing.T) {
	env := MustCreate(InBatchMode())
	o := orders(t, env)
	f := UDAF(failing{}, WithResultType(types.BigIntType()), WithName("my_failing"))
	err := runErr(t, o.GroupBy(Col("name")).Select(f.Call(Col("id"))))
	if err == nil || !strings.Contains(strings.ToLower(err.Error()), "my_failing") || !strings.Contains(err.Error(), "accumulate refused") {
		t.Fatalf("want the function's error naming it, got %v", err)
	}
	if strings.Contains(err.Error(), "goroutine") {
		t.Fatalf("a function's error carries a stack: %v", err)
	}
}
