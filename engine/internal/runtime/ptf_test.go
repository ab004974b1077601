package runtime

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// ptfTimedTypes is Flink's TIMED_SOURCE of its PTF test programs: name,
// score, ts TIMESTAMP_LTZ(3).
var ptfTimedTypes = []*types.DataType{types.StringType(), types.IntType(), types.TimestampLTZType(3)}

var ptfKeyedOutTypes = []*types.DataType{types.StringType(), types.StringType(), types.TimestampLTZType(3)}

// namedTimers does what Flink's NamedTimersFunction (its PTF test
// program process-partitioned-named-timers) does, as its expected output
// shows: it reports every row; Bob's first row registers five named
// timers; timeout1 moves timeout2 to 5 and clears timeout3; timeout2
// clears all timers.
type namedTimers struct{}

func ptfWatermark(c expr.PTFContext) string {
	if wm, ok := c.CurrentWatermark(); ok {
		return fmt.Sprint(wm)
	}
	return "null"
}

func (namedTimers) Eval(c expr.PTFContext, r *expr.PTFRow) error {
	now, _ := c.Time()
	if err := c.Collect(fmt.Sprintf("Processing input row %s at time %d watermark %s", r, now, ptfWatermark(c))); err != nil {
		return err
	}
	if r.Get("name") != "Bob" || c.State("seen") != nil {
		return nil
	}
	if err := c.SetState("seen", true); err != nil {
		return err
	}
	for i, at := range []int64{1, 2, 3, math.MaxInt64, math.MaxInt64} {
		name := fmt.Sprintf("timeout%d", i+1)
		if err := c.Collect(fmt.Sprintf("Registering timer %s for %d at time %d watermark %s", name, at, now, ptfWatermark(c))); err != nil {
			return err
		}
		if err := c.RegisterOnTime(name, at); err != nil {
			return err
		}
	}
	return nil
}

func (namedTimers) OnTimer(c expr.PTFTimerContext) error {
	now, _ := c.Time()
	wm := ptfWatermark(c)
	if err := c.Collect(fmt.Sprintf("Timer %s fired at time %d watermark %s", c.CurrentTimer(), now, wm)); err != nil {
		return err
	}
	switch c.CurrentTimer() {
	case "timeout1":
		if err := c.Collect(fmt.Sprintf("Registering timer timeout2 for 5 at time %d watermark %s", now, wm)); err != nil {
			return err
		}
		if err := c.RegisterOnTime("timeout2", 5); err != nil {
			return err
		}
		c.ClearTimer("timeout3")
		return c.Collect(fmt.Sprintf("Clearing timer timeout3 at time %d watermark %s", now, wm))
	case "timeout2":
		c.ClearAllTimers()
		return c.Collect(fmt.Sprintf("Clearing all timers at time %d watermark %s", now, wm))
	}
	return nil
}

func namedTimersSpec() *opspec.PTFSpec {
	def := &expr.ProcessTableFunctionDef{
		Args:   []expr.PTFArg{{Name: "r", Table: true, SetSemantics: true}},
		Output: []types.Field{{Name: "out", Type: types.StringType()}},
		State:  []expr.PTFState{{Name: "seen", Type: types.BooleanType()}},
		New:    func() expr.ProcessTableFunction { return namedTimers{} },
	}
	return &opspec.PTFSpec{Name: "f", Def: def, HasTable: true, TableArg: "r", SetSemantics: true, PartitionKeys: []int{0}, TimeCol: 2}
}

func namedTimersOp() Operator {
	op := &ProcessTableFunction{Spec: namedTimersSpec(), InTypes: ptfTimedTypes, OutTypes: ptfKeyedOutTypes}
	op.SetColumnNames([]string{"name", "score", "ts"})
	return op
}

// ptfTimedSteps feeds Flink's TIMED_SOURCE rows (Bob 1 at 0, Alice 1 at
// 1, Bob 2..6 at 2..6), each followed by the watermark ts - 1.
func ptfTimedSteps(from, to int) []stateStep {
	rows := []*types.Row{ins("Bob", int32(1), ms(0)), ins("Alice", int32(1), ms(1))}
	for s := 2; s <= 6; s++ {
		rows = append(rows, ins("Bob", int32(s), ms(int64(s))))
	}
	var steps []stateStep
	for i := from; i < to; i++ {
		steps = append(steps, pushStep(0, ptfTimedTypes, rows[i]), watermarkStep(0, int64(i)-1))
	}
	return steps
}

func ptfOut(key, msg string, at int64) string {
	return fmt.Sprintf("+I[%s, %s, %s]", key, msg, types.FormatValue(ms(at)))
}

// The named timers fire, are replaced and cleared as in Flink's program
// process-partitioned-named-timers: the same rows in the same order (the
// watermarks between them aside).
func TestPTFNamedTimersAsFlink(t *testing.T) {
	h := newHarness(t, namedTimersOp(), ptfKeyedOutTypes, false, NewManualClock(time.UnixMilli(0)))
	for _, s := range ptfTimedSteps(0, 7) {
		s(h, nil)
	}
	h.watermark(0, MaxWatermark)
	var got []string
	for _, e := range h.out.take() {
		if e[0] != 'W' {
			got = append(got, e)
		}
	}
	checkLines(t, "named timers", got,
		ptfOut("Bob", "Processing input row +I[Bob, 1, 1970-01-01T00:00:00Z] at time 0 watermark null", 0),
		ptfOut("Bob", "Registering timer timeout1 for 1 at time 0 watermark null", 0),
		ptfOut("Bob", "Registering timer timeout2 for 2 at time 0 watermark null", 0),
		ptfOut("Bob", "Registering timer timeout3 for 3 at time 0 watermark null", 0),
		ptfOut("Bob", "Registering timer timeout4 for 9223372036854775807 at time 0 watermark null", 0),
		ptfOut("Bob", "Registering timer timeout5 for 9223372036854775807 at time 0 watermark null", 0),
		ptfOut("Alice", "Processing input row +I[Alice, 1, 1970-01-01T00:00:00.001Z] at time 1 watermark -1", 1),
		ptfOut("Bob", "Processing input row +I[Bob, 2, 1970-01-01T00:00:00.002Z] at time 2 watermark 0", 2),
		ptfOut("Bob", "Timer timeout1 fired at time 1 watermark 1", 1),
		ptfOut("Bob", "Registering timer timeout2 for 5 at time 1 watermark 1", 1),
		ptfOut("Bob", "Clearing timer timeout3 at time 1 watermark 1", 1),
		ptfOut("Bob", "Processing input row +I[Bob, 3, 1970-01-01T00:00:00.003Z] at time 3 watermark 1", 3),
		ptfOut("Bob", "Processing input row +I[Bob, 4, 1970-01-01T00:00:00.004Z] at time 4 watermark 2", 4),
		ptfOut("Bob", "Processing input row +I[Bob, 5, 1970-01-01T00:00:00.005Z] at time 5 watermark 3", 5),
		ptfOut("Bob", "Processing input row +I[Bob, 6, 1970-01-01T00:00:00.006Z] at time 6 watermark 4", 6),
		ptfOut("Bob", "Timer timeout2 fired at time 5 watermark 5", 5),
		ptfOut("Bob", "Clearing all timers at time 5 watermark 5", 5),
	)
}

// State and timers survive a snapshot: cut after Bob's third row (as
// Flink's process-partitioned-named-timers-restore cuts), the restored
// run emits what the uninterrupted one does.
func TestPTFStateRoundTrip(t *testing.T) {
	afterCut, _ := stateRoundTrip{newOp: namedTimersOp, outTypes: ptfKeyedOutTypes}.run(t, ptfTimedSteps(0, 3), append(ptfTimedSteps(3, 7), watermarkStep(0, MaxWatermark)))
	var rows []string
	for _, e := range afterCut {
		if e[0] != 'W' {
			rows = append(rows, e)
		}
	}
	if len(rows) != 6 || rows[0] != ptfOut("Bob", "Processing input row +I[Bob, 3, 1970-01-01T00:00:00.003Z] at time 3 watermark 1", 3) {
		t.Fatalf("after the cut: %v", rows)
	}
}

// Snapshots of another operator or another state declaration are refused.
func TestPTFStateErrors(t *testing.T) {
	h := newHarness(t, namedTimersOp(), ptfKeyedOutTypes, false, NewManualClock(time.UnixMilli(0)))
	for _, s := range ptfTimedSteps(0, 2) {
		s(h, nil)
	}
	snap, err := h.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	sortOp := temporalSortStateOp(false)()
	newHarness(t, sortOp, winTypes, false, NewManualClock(time.UnixMilli(0)))
	other, err := sortOp.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	checkRestoreErrors(t, namedTimersOp, ptfKeyedOutTypes, snap, other, "ProcessTableFunction", "TemporalSort")
	checkCorruptSnapshots(t, namedTimersOp, ptfKeyedOutTypes, snap)
	spec := namedTimersSpec()
	spec.Def.State[0].Type = types.IntType()
	op := &ProcessTableFunction{Spec: spec, InTypes: ptfTimedTypes, OutTypes: ptfKeyedOutTypes}
	newHarness(t, op, ptfKeyedOutTypes, false, NewManualClock(time.UnixMilli(0)))
	if err := op.RestoreState(snap); err == nil {
		t.Fatal("a snapshot of another state declaration was restored")
	}
}

// optionalOnTime does what Flink's OptionalOnTimeFunction does, as its
// program process-optional-on-time shows: every row registers timer t
// for 2, without on_time.
type optionalOnTime struct{}

func ptfTimeString(c expr.PTFContext) string {
	if t, ok := c.Time(); ok {
		return fmt.Sprint(t)
	}
	return "null"
}

func (optionalOnTime) Eval(c expr.PTFContext, r *expr.PTFRow) error {
	if err := c.Collect(fmt.Sprintf("Processing input row %s at time %s watermark %s", r, ptfTimeString(c), ptfWatermark(c))); err != nil {
		return err
	}
	if err := c.Collect(fmt.Sprintf("Registering timer t for 2 at time %s watermark %s", ptfTimeString(c), ptfWatermark(c))); err != nil {
		return err
	}
	return c.RegisterOnTime("t", 2)
}

func (optionalOnTime) OnTimer(c expr.PTFTimerContext) error {
	return c.Collect(fmt.Sprintf("Timer %s fired at time %s watermark %s", c.CurrentTimer(), ptfTimeString(c), ptfWatermark(c)))
}

// Timers work without on_time, a timer registered at the watermark is
// dropped (late), and partitions' timers of one time fire in the order
// they were last registered: Flink's process-optional-on-time, row for
// row.
func TestPTFTimersWithoutOnTimeAsFlink(t *testing.T) {
	spec := namedTimersSpec()
	spec.TimeCol = -1
	spec.Def.New = func() expr.ProcessTableFunction { return optionalOnTime{} }
	outTypes := []*types.DataType{types.StringType(), types.StringType()}
	op := &ProcessTableFunction{Spec: spec, InTypes: ptfTimedTypes, OutTypes: outTypes}
	op.SetColumnNames([]string{"name", "score", "ts"})
	h := newHarness(t, op, outTypes, false, NewManualClock(time.UnixMilli(0)))
	for _, s := range ptfTimedSteps(0, 7) {
		s(h, nil)
	}
	var got []string
	for _, e := range h.out.take() {
		if e[0] != 'W' {
			got = append(got, e)
		}
	}
	row := func(k, msg string) string { return "+I[" + k + ", " + msg + "]" }
	checkLines(t, "optional on_time", got,
		row("Bob", "Processing input row +I[Bob, 1, 1970-01-01T00:00:00Z] at time null watermark null"),
		row("Bob", "Registering timer t for 2 at time null watermark null"),
		row("Alice", "Processing input row +I[Alice, 1, 1970-01-01T00:00:00.001Z] at time null watermark -1"),
		row("Alice", "Registering timer t for 2 at time null watermark -1"),
		row("Bob", "Processing input row +I[Bob, 2, 1970-01-01T00:00:00.002Z] at time null watermark 0"),
		row("Bob", "Registering timer t for 2 at time null watermark 0"),
		row("Bob", "Processing input row +I[Bob, 3, 1970-01-01T00:00:00.003Z] at time null watermark 1"),
		row("Bob", "Registering timer t for 2 at time null watermark 1"),
		row("Alice", "Timer t fired at time 2 watermark 2"),
		row("Bob", "Timer t fired at time 2 watermark 2"),
		row("Bob", "Processing input row +I[Bob, 4, 1970-01-01T00:00:00.004Z] at time null watermark 2"),
		row("Bob", "Registering timer t for 2 at time null watermark 2"),
		row("Bob", "Processing input row +I[Bob, 5, 1970-01-01T00:00:00.005Z] at time null watermark 3"),
		row("Bob", "Registering timer t for 2 at time null watermark 3"),
		row("Bob", "Processing input row +I[Bob, 6, 1970-01-01T00:00:00.006Z] at time null watermark 4"),
		row("Bob", "Registering timer t for 2 at time null watermark 4"),
	)
}

// A row at or before the watermark is dropped and counted.
func TestPTFDropsLateRows(t *testing.T) {
	h := newHarness(t, namedTimersOp(), ptfKeyedOutTypes, false, NewManualClock(time.UnixMilli(0)))
	h.watermark(0, 10)
	h.out.take()
	h.push(0, ptfTimedTypes, ins("Alice", int32(1), ms(10)), ins("Alice", int32(2), ms(11)))
	got := h.out.take()
	if len(got) != 1 || got[0] != ptfOut("Alice", "Processing input row +I[Alice, 2, 1970-01-01T00:00:00.011Z] at time 11 watermark 10", 11) {
		t.Fatalf("emitted %v", got)
	}
	if n := h.ctx.Metrics.LateDropped.Load(); n != 1 {
		t.Fatalf("late rows counted: %d", n)
	}
}

// The uid names the state: a snapshot restores into a call with the same
// uid (given, or the function's name by default), not into another.
func TestPTFStateUID(t *testing.T) {
	h := newHarness(t, namedTimersOp(), ptfKeyedOutTypes, false, NewManualClock(time.UnixMilli(0)))
	for _, s := range ptfTimedSteps(0, 2) {
		s(h, nil)
	}
	snap, err := h.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	for uid, ok := range map[string]bool{"f": true, "other": false} {
		spec := namedTimersSpec()
		spec.UID = uid
		op := &ProcessTableFunction{Spec: spec, InTypes: ptfTimedTypes, OutTypes: ptfKeyedOutTypes}
		newHarness(t, op, ptfKeyedOutTypes, false, NewManualClock(time.UnixMilli(0)))
		if err := op.RestoreState(snap); (err == nil) != ok {
			t.Errorf("uid %q: restore error %v", uid, err)
		}
	}
}
