package runtime

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// The input of the GroupAgg round trips: k STRING, n INT, d DECIMAL(10, 2),
// x DOUBLE, s STRING.
var aggStateIn = []*types.DataType{types.StringType(), types.IntType(), types.DecimalType(10, 2), types.DoubleType(), types.StringType()}

func aggCall(fn string, distinct bool, out *types.DataType, args ...int) opspec.AggSpec {
	s := opspec.AggSpec{Func: fn, Args: args, Distinct: distinct, Filter: -1, Type: out}
	for _, a := range args {
		s.ArgTypes = append(s.ArgTypes, aggStateIn[a])
	}
	return s
}

// retractAggs covers the accumulators of a retracting input.
func retractAggs() []opspec.AggSpec {
	return []opspec.AggSpec{
		aggCall("COUNT", false, types.BigIntType()),
		aggCall("SUM", false, types.IntType(), 1),
		aggCall("SUM", false, types.DecimalType(38, 2), 2),
		aggCall("AVG", false, types.DoubleType(), 3),
		aggCall("MIN", false, types.StringType(), 4),
		aggCall("MAX", false, types.IntType(), 1),
		aggCall("COUNT", true, types.BigIntType(), 4),
		aggCall("SUM", true, types.IntType(), 1),
		aggCall("LISTAGG", false, types.StringType(), 4),
		aggCall("VAR_POP", false, types.DoubleType(), 3),
		aggCall("VAR_SAMP", false, types.DecimalType(38, 6), 2),
	}
}

// appendAggs covers the accumulators of an insert-only input.
func appendAggs() []opspec.AggSpec {
	return []opspec.AggSpec{
		aggCall("MIN", false, types.IntType(), 1),
		aggCall("MAX", false, types.DoubleType(), 3),
		aggCall("MIN", false, types.DecimalType(10, 2), 2),
		aggCall("MAX", false, types.StringType(), 4),
		aggCall("AVG", false, types.IntType(), 1),
		aggCall("AVG", false, types.DecimalType(38, 6), 2),
		aggCall("SUM0", false, types.DoubleType(), 3),
		aggCall("COUNT", true, types.BigIntType(), 1),
		aggCall("FIRST_VALUE", false, types.StringType(), 4),
		aggCall("ARRAY_AGG", false, types.ArrayType(types.IntType()), 1),
		aggCall("COLLECT", false, types.MultisetType(types.StringType()), 4),
	}
}

func aggStateOp(keys []int, aggs []opspec.AggSpec, retractable bool) func() Operator {
	return func() Operator {
		op := &GroupAgg{Keys: keys, Aggs: aggs, Retractable: retractable}
		for _, k := range keys {
			op.KeyTypes = append(op.KeyTypes, aggStateIn[k])
			op.OutTypes = append(op.OutTypes, aggStateIn[k])
		}
		for _, s := range aggs {
			op.OutTypes = append(op.OutTypes, s.Type)
		}
		return op
	}
}

func aggRow(kind types.RowKind, k string, n int32, d string, x float64, s string) *types.Row {
	return row(kind, k, n, types.MustDecimal(d), x, s)
}

// A streaming GROUP BY on a string key (short and long keys) over a
// retracting input, with and without mini-batches: the restored operator
// continues the changelog exactly.
func TestGroupAggStateRoundTrip(t *testing.T) {
	const long = "a-key-longer-than-seven-bytes"
	first := []stateStep{
		pushStep(0, aggStateIn,
			aggRow(types.Insert, "a", 1, "1.50", 2.5, "x"),
			aggRow(types.Insert, long, 2, "2.25", 1.0, "y"),
			aggRow(types.Insert, "a", 3, "0.75", 4.0, "w"),
			aggRow(types.Insert, "a", 3, "0.75", 4.0, "w")),
		pushStep(0, aggStateIn,
			aggRow(types.UpdateBefore, "a", 3, "0.75", 4.0, "w"),
			aggRow(types.Insert, long, 5, "1.00", 3.0, "y"),
			aggRow(types.Insert, "b", 7, "9.99", 0.5, "z")),
	}
	second := []stateStep{
		pushStep(0, aggStateIn,
			aggRow(types.Insert, "a", 2, "3.00", 1.5, "v"),
			aggRow(types.Delete, long, 2, "2.25", 1.0, "y"),
			aggRow(types.Delete, "b", 7, "9.99", 0.5, "z")),
		pushStep(0, aggStateIn,
			aggRow(types.Delete, "a", 1, "1.50", 2.5, "x"),
			aggRow(types.Insert, "b", 8, "0.01", 2.0, "z"),
			aggRow(types.Insert, long, 5, "1.00", 3.0, "u")),
	}
	final := []string{
		"[a, 2, 5, 3.75, 2.75, v, 3, 2, 5, w,v, 1.5625, 2.531250]",
		"[a-key-longer-than-seven-bytes, 2, 10, 2.00, 3.0, u, 5, 2, 5, y,u, 0.0, 0.000000]",
		"[b, 1, 8, 0.01, 2.0, z, 8, 1, 8, z, 0.0, null]",
	}
	for _, miniBatch := range []bool{false, true} {
		t.Run(fmt.Sprintf("mini-batch=%v", miniBatch), func(t *testing.T) {
			rt := stateRoundTrip{newOp: aggStateOp([]int{0}, retractAggs(), true),
				outTypes: aggStateOp([]int{0}, retractAggs(), true)().(*GroupAgg).OutTypes,
				tweak:    func(c *JobConfig) { c.MiniBatch = miniBatch }}
			afterCut, got := rt.run(t, first, second)
			checkLines(t, "final result", got, final...)
			if len(afterCut) == 0 {
				t.Fatal("nothing emitted after the cut")
			}
		})
	}
}

// With a state TTL the restored operator keeps the groups' last writes
// and the cleanup timer: a group that expires across the cut starts
// afresh, the timer drops the others silently, and freed ids are reused.
func TestGroupAggStateRoundTripTTL(t *testing.T) {
	first := []stateStep{
		pushStep(0, aggStateIn,
			aggRow(types.Insert, "a", 1, "1.00", 1, "x"),
			aggRow(types.Insert, "b", 2, "2.00", 2, "y")),
		advanceStep(6 * time.Second),
		pushStep(0, aggStateIn, aggRow(types.Insert, "a", 3, "3.00", 3, "z")),
	}
	second := []stateStep{
		advanceStep(5 * time.Second), // b expires (11 s), a lives (5 s)
		pushStep(0, aggStateIn,
			aggRow(types.Insert, "b", 4, "4.00", 4, "w"),
			aggRow(types.Insert, "a", 5, "5.00", 5, "v")),
		advanceStep(11 * time.Second), // the timer drops both
		pushStep(0, aggStateIn,
			aggRow(types.Delete, "a", 5, "5.00", 5, "v"),
			aggRow(types.Insert, "c", 6, "6.00", 6, "u")),
	}
	rt := stateRoundTrip{newOp: aggStateOp([]int{0}, retractAggs(), true),
		outTypes: aggStateOp([]int{0}, retractAggs(), true)().(*GroupAgg).OutTypes,
		tweak:    func(c *JobConfig) { c.StateTTL = 10 * time.Second }}
	afterCut, final := rt.run(t, first, second)
	checkLines(t, "changelog after the cut", afterCut,
		"+I[b, 1, 4, 4.00, 4.0, w, 4, 1, 4, w, 0.0, null]",
		"-U[a, 2, 4, 4.00, 2.0, x, 3, 2, 4, x,z, 1.0, 2.000000]",
		"+U[a, 3, 9, 9.00, 3.0, v, 5, 3, 9, x,z,v, 2.6666666666666665, 4.000000]",
		"+I[c, 1, 6, 6.00, 6.0, u, 6, 1, 6, u, 0.0, null]")
	// expired state emits no retraction (downstream keeps b's first
	// row), and the retraction of a after its state expired is ignored
	checkLines(t, "final result", final,
		"[a, 3, 9, 9.00, 3.0, v, 5, 3, 9, x,z,v, 2.6666666666666665, 4.000000]",
		"[b, 1, 2, 2.00, 2.0, y, 2, 1, 2, y, 0.0, null]",
		"[b, 1, 4, 4.00, 4.0, w, 4, 1, 4, w, 0.0, null]",
		"[c, 1, 6, 6.00, 6.0, u, 6, 1, 6, u, 0.0, null]")
}

// Insert-only input: MIN/MAX without retraction (integral, floating,
// decimal and string values), integral and decimal AVG, SUM0, a DISTINCT
// over an integral argument, the list accumulators; an INT key, a
// composite key and a global aggregate.
func TestGroupAggStateRoundTripAppendOnly(t *testing.T) {
	first := []stateStep{pushStep(0, aggStateIn,
		aggRow(types.Insert, "a", 4, "1.10", 2.0, "m"),
		aggRow(types.Insert, "b", 1, "0.10", 1.0, "n"),
		aggRow(types.Insert, "a", 4, "2.20", 8.0, "k"))}
	second := []stateStep{pushStep(0, aggStateIn,
		aggRow(types.Insert, "a", 5, "0.05", 0.5, "m"),
		aggRow(types.Insert, "c", 1, "7.00", 3.0, "o"),
		aggRow(types.Insert, "b", -3, "0.20", 9.0, "p"))}
	for _, c := range []struct {
		name  string
		keys  []int
		final []string
	}{
		{"int key", []int{1}, []string{
			"[-3, -3, 9.0, 0.20, p, -3, 0.200000, 9.0, 1, p, [-3], {p=1}]",
			"[1, 1, 3.0, 0.10, o, 1, 3.550000, 4.0, 1, n, [1, 1], {n=1, o=1}]",
			"[4, 4, 8.0, 1.10, m, 4, 1.650000, 10.0, 1, m, [4, 4], {m=1, k=1}]",
			"[5, 5, 0.5, 0.05, m, 5, 0.050000, 0.5, 1, m, [5], {m=1}]"}},
		{"composite key", []int{0, 3}, []string{
			"[a, 0.5, 5, 0.5, 0.05, m, 5, 0.050000, 0.5, 1, m, [5], {m=1}]",
			"[a, 2.0, 4, 2.0, 1.10, m, 4, 1.100000, 2.0, 1, m, [4], {m=1}]",
			"[a, 8.0, 4, 8.0, 2.20, k, 4, 2.200000, 8.0, 1, k, [4], {k=1}]",
			"[b, 1.0, 1, 1.0, 0.10, n, 1, 0.100000, 1.0, 1, n, [1], {n=1}]",
			"[b, 9.0, -3, 9.0, 0.20, p, -3, 0.200000, 9.0, 1, p, [-3], {p=1}]",
			"[c, 3.0, 1, 3.0, 7.00, o, 1, 7.000000, 3.0, 1, o, [1], {o=1}]"}},
		{"global", nil, []string{
			"[-3, 9.0, 0.05, p, 2, 1.775000, 23.5, 4, m, [4, 1, 4, 5, 1, -3], {m=2, n=1, k=1, o=1, p=1}]"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			newOp := aggStateOp(c.keys, appendAggs(), false)
			rt := stateRoundTrip{newOp: newOp, outTypes: newOp().(*GroupAgg).OutTypes}
			_, final := rt.run(t, first, second)
			checkLines(t, "final result", final, c.final...)
		})
	}
}

// Truncated snapshots and the snapshot of another operator kind are
// refused with errors, as is a snapshot of another shape.
func TestGroupAggStateErrors(t *testing.T) {
	newOp := aggStateOp([]int{0}, retractAggs(), true)
	outTypes := newOp().(*GroupAgg).OutTypes
	h := newHarness(t, newOp(), outTypes, false, NewManualClock(time.UnixMilli(0)))
	h.push(0, aggStateIn, aggRow(types.Insert, "a", 1, "1.00", 1, "x"), aggRow(types.Insert, "bb", 2, "2.00", 2, "y"))
	snap, err := h.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	dedup := &Deduplicate{Keys: []int{0}, KeyTypes: dedupTypes[:1], Types: dedupTypes}
	newHarness(t, dedup, dedupTypes, false, NewManualClock(time.UnixMilli(0)))
	other, err := dedup.SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	checkRestoreErrors(t, newOp, outTypes, snap, other, "GroupAgg", "Deduplicate")
	checkCorruptSnapshots(t, newOp, outTypes, snap)

	// the same operator kind with other aggregate calls
	sumOnly := sumAggOp()
	newHarness(t, sumOnly, sumOnly.OutTypes, false, NewManualClock(time.UnixMilli(0)))
	err = sumOnly.RestoreState(snap)
	want := "GroupAgg: restoring state: state snapshot: at byte 14: the GroupAgg snapshot is of another shape: saved [keys (STRING); aggregates COUNT(*)() BIGINT;"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Fatalf("restoring into another shape: %v\nwant %s…", err, want)
	}

	// a batch aggregation has no checkpointed state
	batch := aggStateOp([]int{0}, retractAggs(), false)().(*GroupAgg)
	newHarness(t, batch, outTypes, true, NewManualClock(time.UnixMilli(0)))
	if _, err := batch.SnapshotState(); !errors.Is(err, errFinalAggState) {
		t.Fatalf("snapshot of a batch aggregation: %v", err)
	}
}

// User-defined aggregate functions: an accumulator implementing
// encoding.BinaryMarshaler is saved with it, a pointer to a number as the
// value; another accumulator is an error naming the function.
func TestGroupAggStateUserDefined(t *testing.T) {
	spec := func(name string, impl expr.AggregateImpl) opspec.AggSpec {
		return opspec.AggSpec{Func: name, Args: []int{1}, ArgTypes: []*types.DataType{types.IntType()}, Filter: -1,
			Type: types.BigIntType(), Fn: &expr.Function{Name: name, Aggregate: impl}}
	}
	aggs := []opspec.AggSpec{spec("my_sum", udafSum{}), spec("my_range", udafRange{})}
	newOp := aggStateOp([]int{0}, aggs, true)
	rt := stateRoundTrip{newOp: newOp, outTypes: newOp().(*GroupAgg).OutTypes}
	first := []stateStep{pushStep(0, aggStateIn,
		aggRow(types.Insert, "a", 5, "0", 0, ""), aggRow(types.Insert, "a", 2, "0", 0, ""), aggRow(types.Insert, "b", 1, "0", 0, ""))}
	second := []stateStep{pushStep(0, aggStateIn,
		aggRow(types.Insert, "a", 9, "0", 0, ""), aggRow(types.UpdateBefore, "b", 1, "0", 0, ""), aggRow(types.Insert, "b", 4, "0", 0, ""))}
	afterCut, final := rt.run(t, first, second)
	checkLines(t, "changelog after the cut", afterCut, "-U[a, 7, 3]", "+U[a, 16, 7]", "-D[b, 1, 0]", "+I[b, 4, 0]")
	checkLines(t, "final result", final, "[a, 16, 7]", "[b, 4, 0]")

	opaque := aggStateOp([]int{0}, []opspec.AggSpec{spec("my_opaque", udafOpaque{})}, false)().(*GroupAgg)
	h := newHarness(t, opaque, opaque.OutTypes, false, NewManualClock(time.UnixMilli(0)))
	h.push(0, aggStateIn, aggRow(types.Insert, "a", 5, "0", 0, ""))
	_, err := opaque.SnapshotState()
	want := "GroupAgg: accumulator of my_opaque cannot be checkpointed: implement encoding.BinaryMarshaler (its *runtime.opaqueAcc is not a value a snapshot holds)"
	if err == nil || err.Error() != want {
		t.Fatalf("snapshot with an opaque accumulator: %v\nwant %s", err, want)
	}
}

// udafSum sums into a *int64 (a plain value the codec saves).
type udafSum struct{}

func (udafSum) Open(*expr.Ctx) (expr.AggregateInstance, error) { return udafSum{}, nil }
func (udafSum) Merge(any, []any) error                         { return nil }
func (udafSum) Close() error                                   { return nil }
func (udafSum) CreateAccumulator() (any, error)                { return new(int64), nil }
func (udafSum) Accumulate(acc any, args []any) error {
	*acc.(*int64) += int64(args[0].(int32))
	return nil
}
func (udafSum) Retract(acc any, args []any) error {
	*acc.(*int64) -= int64(args[0].(int32))
	return nil
}
func (udafSum) GetValue(acc any) (any, error) { return *acc.(*int64), nil }

// rangeAcc is the accumulator of udafRange: it implements
// encoding.BinaryMarshaler.
type rangeAcc struct{ lo, hi int64 }

func (a *rangeAcc) MarshalBinary() ([]byte, error) { return fmt.Appendf(nil, "%d %d", a.lo, a.hi), nil }
func (a *rangeAcc) UnmarshalBinary(b []byte) error {
	_, err := fmt.Sscanf(string(b), "%d %d", &a.lo, &a.hi)
	return err
}

// udafRange is MAX - MIN of the values seen (retractions are ignored).
type udafRange struct{}

func (udafRange) Open(*expr.Ctx) (expr.AggregateInstance, error) { return udafRange{}, nil }
func (udafRange) Merge(any, []any) error                         { return nil }
func (udafRange) Close() error                                   { return nil }
func (udafRange) CreateAccumulator() (any, error)                { return &rangeAcc{lo: 1 << 62, hi: -1 << 62}, nil }
func (udafRange) Accumulate(acc any, args []any) error {
	a, v := acc.(*rangeAcc), int64(args[0].(int32))
	a.lo, a.hi = min(a.lo, v), max(a.hi, v)
	return nil
}
func (udafRange) Retract(any, []any) error { return nil }
func (udafRange) GetValue(acc any) (any, error) {
	a := acc.(*rangeAcc)
	return a.hi - a.lo, nil
}

type opaqueAcc struct{ n int64 }

// udafOpaque's accumulator is neither a plain value nor BinaryMarshaler.
type udafOpaque struct{}

func (udafOpaque) Open(*expr.Ctx) (expr.AggregateInstance, error) { return udafOpaque{}, nil }
func (udafOpaque) Merge(any, []any) error                         { return nil }
func (udafOpaque) Close() error                                   { return nil }
func (udafOpaque) CreateAccumulator() (any, error)                { return &opaqueAcc{}, nil }
func (udafOpaque) Accumulate(acc any, args []any) error {
	acc.(*opaqueAcc).n++
	return nil
}
func (udafOpaque) Retract(any, []any) error      { return nil }
func (udafOpaque) GetValue(acc any) (any, error) { return acc.(*opaqueAcc).n, nil }

// BenchmarkGroupAggSnapshot measures the snapshot and restore of a
// GroupAgg holding 1 M groups (BIGINT key; COUNT(*), SUM(BIGINT),
// MAX(BIGINT)): ns/op and the snapshot's bytes.
func BenchmarkGroupAggSnapshot(b *testing.B) {
	const keys = 1 << 20
	in := []*types.DataType{types.BigIntType(), types.BigIntType()}
	newOp := func() *GroupAgg {
		long := func(fn string) opspec.AggSpec {
			return opspec.AggSpec{Func: fn, Args: []int{1}, ArgTypes: in[1:], Filter: -1, Type: types.BigIntType()}
		}
		return &GroupAgg{Keys: []int{0}, KeyTypes: in[:1],
			Aggs:     []opspec.AggSpec{{Func: "COUNT", Filter: -1, Type: types.BigIntType()}, long("SUM"), long("MAX")},
			OutTypes: []*types.DataType{types.BigIntType(), types.BigIntType(), types.BigIntType(), types.BigIntType()}}
	}
	op := newOp()
	ctx := &OpContext{Eval: &expr.Ctx{Zone: time.UTC}, Config: DefaultJobConfig(), Parallel: 1}
	if err := op.Open(ctx, discardOutput{}); err != nil {
		b.Fatal(err)
	}
	const batch = 4096
	for from := 0; from < keys; from += batch {
		bb := types.NewBatchBuilder(in)
		for k := from; k < from+batch; k++ {
			if err := bb.Append(types.Insert, []any{int64(k) * 7919, int64(k)}); err != nil {
				b.Fatal(err)
			}
		}
		if err := op.ProcessBatch(0, bb.Build()); err != nil {
			b.Fatal(err)
		}
	}
	var snap []byte
	b.Run("snapshot", func(b *testing.B) {
		for b.Loop() {
			var err error
			if snap, err = op.SnapshotState(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(len(snap)), "snapshot-bytes")
		b.ReportMetric(float64(len(snap))/keys, "bytes/group")
	})
	b.Run("restore", func(b *testing.B) {
		for b.Loop() {
			fresh := newOp()
			if err := fresh.Open(ctx, discardOutput{}); err != nil {
				b.Fatal(err)
			}
			if err := fresh.RestoreState(snap); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// discardOutput drops what an operator emits.
type discardOutput struct{}

func (discardOutput) Emit(*types.Batch) error   { return nil }
func (discardOutput) EmitWatermark(int64) error { return nil }

// An INT key of -1 (whose bits are the integer index's empty mark, kept
// apart) and a NULL key survive the cut with their groups.
func TestGroupAggStateRoundTripIntKeyMinusOne(t *testing.T) {
	in := func(n any) *types.Row { return row(types.Insert, "a", n, types.MustDecimal("1.00"), 1.0, "s") }
	first := []stateStep{pushStep(0, aggStateIn, in(int32(-1)), in(nil), in(int32(2)), in(int32(-1)))}
	second := []stateStep{pushStep(0, aggStateIn, in(int32(-1)), in(nil), in(int32(3)))}
	newOp := aggStateOp([]int{1}, []opspec.AggSpec{aggCall("COUNT", false, types.BigIntType().NotNull())}, false)
	rt := stateRoundTrip{newOp: newOp, outTypes: newOp().(*GroupAgg).OutTypes}
	_, final := rt.run(t, first, second)
	checkLines(t, "final result", final, "[-1, 3]", "[2, 1]", "[3, 1]", "[null, 2]")
}
