package runtime

import (
	"context"
	goruntime "runtime"
	"testing"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// hourBatches are 20 batches of 8,192 TIMESTAMP(3) values, one a minute
// from the epoch: row r of the whole input is minute r, hour (r/60)%24.
func hourBatches(t *testing.T) []*types.Batch {
	t.Helper()
	ts := []*types.DataType{types.TimestampType(3)}
	var out []*types.Batch
	for k := 0; k < 20; k++ {
		bb := types.NewBatchBuilder(ts)
		for i := 0; i < 8192; i++ {
			r := int64(k*8192 + i)
			if err := bb.Append(types.Insert, []any{types.TimeFromUnits(r*60_000, types.TimestampUnit(3))}); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, bb.Build())
	}
	return out
}

// keepAll keeps every input batch and emits them all at the end of input,
// as a sort does; lies says it releases its input (it does not), to show
// what a Calc that recycles its buffers does to a consumer that keeps them.
type keepAll struct {
	BaseOperator
	lies bool
	kept []*types.Batch
}

func (k *keepAll) ProcessBatch(_ int, b *types.Batch) error { k.kept = append(k.kept, b); return nil }
func (k *keepAll) ReleasesInput() bool                      { return k.lies }
func (k *keepAll) EndInput(int) error {
	for _, b := range k.kept {
		if err := k.Emit(b); err != nil {
			return err
		}
	}
	return nil
}

// hourGraph is src -> Calc(HOUR(ts)) -hash-> consumer at parallelism 1 (a
// batch job chains the three into one task) and returns the consumer.
func hourGraph(t *testing.T, batches []*types.Batch, consumer func() Operator) (*Graph, *Node) {
	t.Helper()
	g := &Graph{}
	src := g.AddSource("src", 1, true, func(ctx context.Context, _, _ int, emit func(*types.Batch) error) error {
		for _, b := range batches {
			if err := emit(b); err != nil {
				return err
			}
		}
		return nil
	})
	hour := builtinCall(t, "HOUR", &expr.InputRef{Index: 0, T: types.TimestampType(3)})
	calc := g.AddOperator("calc", 1, func() Operator {
		c, err := NewCalc(nil, []expr.Expr{hour})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}, Edge{From: src, Part: opspec.Forward})
	return g, g.AddOperator("consumer", 1, consumer, Edge{From: calc, Part: opspec.Hash, Keys: []int{0}})
}

// A batch Calc chained to a GROUP BY that releases its input recycles its
// EXTRACT results (expr.Scratch) and the counts stay exact; a consumer
// that keeps the batches gets fresh ones; and the recycling is real: a
// consumer that keeps the batches but says it releases them sees the
// first batches' hours overwritten by later ones.
func TestCalcRecyclesResultsForAReleasingConsumer(t *testing.T) {
	// one core: the executor chains the hash edge at parallelism 1
	defer goruntime.GOMAXPROCS(goruntime.GOMAXPROCS(1))
	batches := hourBatches(t)
	const rows = 20 * 8192
	wantCount := map[int64]int64{}
	for r := int64(0); r < rows; r++ {
		wantCount[(r/60)%24]++
	}
	t.Run("GROUP BY", func(t *testing.T) {
		g, agg := hourGraph(t, batches, func() Operator {
			return &GroupAgg{Keys: []int{0}, KeyTypes: []*types.DataType{types.BigIntType()},
				Aggs:     []opspec.AggSpec{{Func: "COUNT", Filter: -1, Type: types.BigIntType().NotNull()}},
				OutTypes: []*types.DataType{types.BigIntType(), types.BigIntType().NotNull()}}
		})
		got := map[int64]int64{}
		for _, b := range collectBatchJob(t, g, agg) {
			hs, ns := vector.Values[int64](b.Cols[0]), vector.Values[int64](b.Cols[1])
			for i := 0; i < b.Len; i++ {
				got[hs[i]] += ns[i]
			}
		}
		if len(got) != 24 {
			t.Fatalf("%d groups, want 24: %v", len(got), got)
		}
		for h, n := range wantCount {
			if got[h] != n {
				t.Errorf("hour %d: COUNT(*) %d, want %d", h, got[h], n)
			}
		}
	})
	wrongRows := func(t *testing.T, lies bool) int {
		g, keep := hourGraph(t, batches, func() Operator { return &keepAll{lies: lies} })
		r, wrong := int64(0), 0
		for _, b := range collectBatchJob(t, g, keep) {
			for _, h := range vector.Values[int64](b.Cols[0])[:b.Len] {
				if h != (r/60)%24 {
					wrong++
				}
				r++
			}
		}
		if r != rows {
			t.Fatalf("%d rows, want %d", r, rows)
		}
		return wrong
	}
	t.Run("a consumer that keeps its input", func(t *testing.T) {
		if n := wrongRows(t, false); n != 0 {
			t.Errorf("%d of %d hours wrong", n, rows)
		}
	})
	t.Run("a consumer that keeps its input but says it releases it", func(t *testing.T) {
		if n := wrongRows(t, true); n == 0 {
			t.Error("every hour right: the Calc did not recycle its result buffers")
		}
	})
}

// A batch job without checkpoints on one core runs a node of parallelism
// 1 in the task of its one producer of parallelism 1 over a hash edge; a
// streaming job, parallelism 2, or more than one core keeps the hand-off
// between tasks.
func TestHashEdgeAtParallelismOneChains(t *testing.T) {
	for _, c := range []struct {
		name    string
		batch   bool
		oneCore bool
		par     int
		chains  int
	}{
		{"batch, parallelism 1, one core", true, true, 1, 1},
		{"batch, parallelism 1, two cores", true, false, 1, 2},
		{"streaming, parallelism 1, one core", false, true, 1, 2},
		{"batch, parallelism 2, one core", true, true, 2, 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := &Graph{}
			src := g.AddSource("src", 1, true, func(context.Context, int, int, func(*types.Batch) error) error { return nil })
			agg := g.AddOperator("agg", c.par, func() Operator { return &GroupAgg{} }, Edge{From: src, Part: opspec.Hash, Keys: []int{0}})
			g.AddOperator("sink", c.par, func() Operator { return &keepAll{} }, Edge{From: agg, Part: opspec.Forward})
			if err := g.validate(); err != nil {
				t.Fatal(err)
			}
			e := &executor{job: &Job{}, g: g, batch: c.batch, oneCore: c.oneCore, cfg: DefaultJobConfig()}
			if err := e.build(); err != nil {
				t.Fatal(err)
			}
			if len(e.chains) != c.chains {
				t.Errorf("%d tasks' chains %v, want %d", len(e.chains), e.chains, c.chains)
			}
		})
	}
}

// Only a batch GROUP BY of integer keys and built-in numeric calls says
// it releases its input: a STRING key, a LISTAGG, a DISTINCT or a
// streaming job keep the Calc's results fresh.
func TestGroupAggReleasesInput(t *testing.T) {
	bigint, str := types.BigIntType(), types.StringType()
	count := opspec.AggSpec{Func: "COUNT", Filter: -1, Type: bigint}
	avg := opspec.AggSpec{Func: "AVG", Args: []int{1}, ArgTypes: []*types.DataType{types.DoubleType()}, Filter: -1, Type: types.DoubleType()}
	for _, c := range []struct {
		name  string
		keys  []*types.DataType
		aggs  []opspec.AggSpec
		batch bool
		want  bool
	}{
		{"BIGINT key, COUNT and AVG", []*types.DataType{bigint}, []opspec.AggSpec{count, avg}, true, true},
		{"no key, AVG", nil, []opspec.AggSpec{avg}, true, true},
		{"STRING key", []*types.DataType{str}, []opspec.AggSpec{count}, true, false},
		{"LISTAGG", []*types.DataType{bigint}, []opspec.AggSpec{{Func: "LISTAGG", Args: []int{1}, ArgTypes: []*types.DataType{str}, Filter: -1, Type: str}}, true, false},
		{"AVG DISTINCT", []*types.DataType{bigint}, []opspec.AggSpec{{Func: "AVG", Args: []int{1}, ArgTypes: []*types.DataType{bigint}, Distinct: true, Filter: -1, Type: bigint}}, true, false},
		{"streaming", []*types.DataType{bigint}, []opspec.AggSpec{count}, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			keys := make([]int, len(c.keys))
			a := &GroupAgg{Keys: keys, KeyTypes: c.keys, Aggs: c.aggs}
			h := newHarness(t, a, nil, c.batch, nil)
			defer h.op.Close()
			if got := a.ReleasesInput(); got != c.want {
				t.Errorf("ReleasesInput() = %v, want %v", got, c.want)
			}
		})
	}
}
