package runtime

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// Soak test of state TTL (issue 18): a streaming join and a GROUP BY run
// over a key space that never repeats (every row a new key, as with keys
// drawn from 10^8), on a manual clock, with table.exec.state.ttl = 2 s.
// Their state must follow the live keys (the keys written in the last
// TTL), not every key seen. The size of the run:
//
//	RIFFLE_SOAK_ROWS  rows per input (default 100000; 20000 with -short)
//	RIFFLE_SOAK_RATE  rows per simulated second (default 5000; 2000 with
//	                  -short), in batches of 10 ms (at least 20 rows)
//
// With -v it logs the state sizes and the heap at ten points of the run:
//
//	RIFFLE_SOAK_ROWS=2000000 RIFFLE_SOAK_RATE=20000 \
//	  go test -tags migrated_fynedo -run TestSoakStateTTL -v ./engine/internal/runtime/

// soakOutput drops what it is given, counting rows.
type soakOutput struct{ rows int64 }

func (o *soakOutput) Emit(b *types.Batch) error {
	if b != nil {
		o.rows += int64(b.Len)
	}
	return nil
}
func (o *soakOutput) EmitWatermark(int64) error { return nil }

func soakEnv(t *testing.T, name string, def int) int {
	if v := os.Getenv(name); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("%s=%q: want a positive integer", name, v)
		}
		return n
	}
	return def
}

// soakRun feeds rows rows per input in batches of 10 ms, advancing the
// clock by the batch's share of a second at the given rate and firing the
// operator's cleanup timer when due.
type soakRun struct {
	t      *testing.T
	rows   int
	rate   int
	batch  int
	ttl    time.Duration
	op     Operator
	metric *OperatorMetrics
	clock  *ManualClock
	out    *soakOutput
}

func newSoak(t *testing.T, op Operator) *soakRun {
	rows, rate := 100_000, 5_000
	if testing.Short() {
		rows, rate = 20_000, 2_000
	}
	s := &soakRun{t: t, rows: soakEnv(t, "RIFFLE_SOAK_ROWS", rows), rate: soakEnv(t, "RIFFLE_SOAK_RATE", rate),
		ttl: 2 * time.Second, op: op, clock: NewManualClock(time.UnixMilli(1_700_000_000_000)), out: &soakOutput{}}
	s.batch = max(20, s.rate/100)
	cfg := DefaultJobConfig()
	cfg.Clock = s.clock
	cfg.StateTTL = s.ttl
	s.metric = newMetrics(0, "soak")
	ctx := &OpContext{Ctx: context.Background(), Eval: &expr.Ctx{Zone: time.UTC, Start: time.Now()}, Metrics: s.metric, Config: cfg, Parallel: 1}
	if err := op.Open(ctx, s.out); err != nil {
		t.Fatal(err)
	}
	return s
}

// window is the number of keys written within one TTL: the live keys.
func (s *soakRun) window() int64 { return int64(s.rate) * s.ttl.Milliseconds() / 1000 }

// run drives the operator; push sends the batch of rows [from, from+batch);
// sizes returns named state figures, each of which must stay within
// bound once the run has seen two TTLs of rows.
func (s *soakRun) run(push func(from int) error, sizes func() map[string]int64, bound int64) {
	t := s.t
	step := time.Duration(s.batch) * time.Second / time.Duration(s.rate)
	peak := map[string]int64{}
	var peakHeap uint64
	nextLog := 0
	for from := 0; from < s.rows; from += s.batch {
		if err := push(from); err != nil {
			t.Fatal(err)
		}
		s.clock.Advance(step)
		fireDue(t, s.op.(ProcessingTimeOperator), s.clock.Now().UnixMilli())
		seen := int64(from + s.batch)
		if seen > 2*s.window() {
			for name, v := range sizes() {
				peak[name] = max(peak[name], v)
				if v > bound {
					t.Fatalf("after %d rows (%d live keys): %s = %d, over the bound %d", seen, s.window(), name, v, bound)
				}
			}
		}
		if testing.Verbose() && from >= nextLog {
			nextLog += s.rows / 10
			var ms runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peakHeap = max(peakHeap, ms.HeapInuse)
			t.Logf("rows %9d  sim %6.1fs  state keys %8d  state bytes %10d  %v  HeapInuse %6.1f MB", seen,
				float64(seen)/float64(s.rate), s.metric.StateKeys.Load(), s.metric.StateBytes.Load(), sizes(), float64(ms.HeapInuse)/(1<<20))
		}
	}
	t.Logf("%d rows per input at %d rows/s (TTL %v: %d live keys); peaks %v (bound %d); %d rows out; peak HeapInuse %.1f MB",
		s.rows, s.rate, s.ttl, s.window(), peak, bound, s.out.rows, float64(peakHeap)/(1<<20))
}

func TestSoakStateTTL(t *testing.T) {
	t.Run("join", func(t *testing.T) {
		spec := opspec.JoinSpec{Kind: opspec.InnerJoin, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: []*types.DataType{types.BigIntType(), types.StringType()},
			RightTypes: []*types.DataType{types.BigIntType(), types.StringType()}}
		op := &StreamingJoin{Spec: spec}
		s := newSoak(t, op)
		push := func(from int) error {
			for side := 0; side < 2; side++ {
				bb := types.NewBatchBuilder(spec.LeftTypes)
				for r := from; r < from+s.batch; r++ {
					if err := bb.Append(types.Insert, []any{int64(r % 100_000_000), "v"}); err != nil {
						return err
					}
				}
				if side == 0 && from >= 20*s.batch {
					// retract a tenth of the left rows of 20 batches ago
					for r := from - 20*s.batch; r < from-19*s.batch; r += 10 {
						if err := bb.Append(types.Delete, []any{int64(r % 100_000_000), "v"}); err != nil {
							return err
						}
					}
				}
				if err := op.ProcessBatch(side, bb.Build()); err != nil {
					return err
				}
			}
			return nil
		}
		sizes := func() map[string]int64 {
			return map[string]int64{"keys": int64(op.keys.n), "left rows": int64(op.sides[0].store.Len()),
				"right rows": int64(op.sides[1].store.Len()), "key slots": int64(len(op.sides[0].buckets))}
		}
		// dead keys and rows are dropped once they are the majority: at
		// most twice the live ones plus the compaction minimum
		s.run(push, sizes, 2*(s.window()+int64(s.batch))+int64(max(joinKeyCompactMin, int32(joinRowCompactMin))))
		if got := s.metric.StateKeys.Load(); got > 2*s.window()+int64(joinKeyCompactMin) {
			t.Errorf("reported state keys %d", got)
		}
	})
	t.Run("groupagg", func(t *testing.T) {
		op := &GroupAgg{Keys: []int{0}, KeyTypes: []*types.DataType{types.BigIntType()},
			Aggs: []opspec.AggSpec{
				{Func: "SUM", Args: []int{1}, ArgTypes: []*types.DataType{types.BigIntType()}, Filter: -1, Type: types.BigIntType()},
				{Func: "COUNT", Filter: -1, Type: types.BigIntType().NotNull()},
			},
			OutTypes: []*types.DataType{types.BigIntType(), types.BigIntType(), types.BigIntType().NotNull()}}
		s := newSoak(t, op)
		in := []*types.DataType{types.BigIntType(), types.BigIntType()}
		push := func(from int) error {
			bb := types.NewBatchBuilder(in)
			for r := from; r < from+s.batch; r++ {
				if err := bb.Append(types.Insert, []any{int64(r % 100_000_000), int64(r)}); err != nil {
					return err
				}
			}
			return op.ProcessBatch(0, bb.Build())
		}
		sizes := func() map[string]int64 {
			keys, _ := op.StateSize()
			return map[string]int64{"groups": keys, "group ids": int64(op.nGroups), "rows counted": int64(len(op.rowCount))}
		}
		// expired groups leave at once; their ids are reused
		s.run(push, sizes, s.window()+2*int64(s.batch))
	})
	t.Run("interval", func(t *testing.T) {
		// no TTL is needed: the watermark (here the simulated clock)
		// removes rows 500 ms on; the key index and row stores must
		// follow the keys still cached
		spec := opspec.JoinSpec{Kind: opspec.LeftJoin, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: ivTypes, RightTypes: ivTypes}
		op := &IntervalJoin{Spec: spec, LowerBound: -500, UpperBound: 500, LeftTime: 1, RightTime: 1}
		s := newSoak(t, op)
		start := s.clock.Now().UnixMilli()
		push := func(from int) error {
			for side := 0; side < 2; side++ {
				bb := types.NewBatchBuilder(ivTypes)
				for r := from; r < from+s.batch; r++ {
					if side == 1 && r%4 == 0 {
						continue // a quarter of the left rows are NULL-padded
					}
					at := start + int64(r)*1000/int64(s.rate)
					if err := bb.Append(types.Insert, []any{int64(r % 100_000_000), ms(at), "v"}); err != nil {
						return err
					}
				}
				if err := op.ProcessBatch(side, bb.Build()); err != nil {
					return err
				}
			}
			wm := start + int64(from+s.batch)*1000/int64(s.rate)
			for side := 0; side < 2; side++ {
				if err := op.ProcessWatermark(side, wm); err != nil {
					return err
				}
			}
			return nil
		}
		sizes := func() map[string]int64 {
			_, bytes := op.StateSize()
			return map[string]int64{"keys": int64(op.keys.n), "key states": int64(len(op.state)), "left rows": int64(op.stores[0].Len()),
				"right rows": int64(op.stores[1].Len()), "timers": int64(len(op.timers)), "bytes": bytes}
		}
		// rows are cached about 1 s (s.window()/2 keys); removed keys and
		// rows are dropped once they are the majority
		live := s.window() / 2
		bound := 2*(live+int64(s.batch)) + int64(max(joinKeyCompactMin, int32(joinRowCompactMin)))
		s.run(push, func() map[string]int64 {
			m := sizes()
			delete(m, "bytes")
			return m
		}, bound)
		if _, bytes := op.StateSize(); bytes > bound*64 {
			t.Errorf("reported state bytes %d for at most %d rows", bytes, bound)
		}
		if got := s.metric.StateKeys.Load(); got > bound {
			t.Errorf("reported state keys %d", got)
		}
	})
	t.Run("dedup", func(t *testing.T) {
		// keep-last on proctime: every row writes its key's state
		op := &Deduplicate{Keys: []int{0}, KeyTypes: []*types.DataType{types.BigIntType()},
			Types: []*types.DataType{types.BigIntType(), types.StringType()}, KeepLast: true}
		s := newSoak(t, op)
		push := func(from int) error {
			bb := types.NewBatchBuilder(op.Types)
			for r := from; r < from+s.batch; r++ {
				// each key comes twice, 10 batches apart
				k := r
				if r%2 == 1 && r >= 20*s.batch {
					k = r - 10*s.batch
				}
				if err := bb.Append(types.Insert, []any{int64(k % 100_000_000), "v"}); err != nil {
					return err
				}
			}
			return op.ProcessBatch(0, bb.Build())
		}
		sizes := func() map[string]int64 {
			keys, _ := op.StateSize()
			return map[string]int64{"keys": keys, "key ids": int64(op.n), "rows kept": int64(len(op.rows)), "ttl slots": int64(len(op.ttl.last))}
		}
		// expired keys leave at once; their ids are reused
		s.run(push, sizes, s.window()+2*int64(s.batch))
	})
	t.Run("rank", func(t *testing.T) {
		// a Top-2 per key over insert-only input, two rows a key
		op := &Rank{PartitionKeys: []int{0}, Keys: []opspec.SortKey{{Col: 1, Desc: true}},
			Types: []*types.DataType{types.BigIntType(), types.BigIntType()}, RankStart: 1, RankEnd: 2, AppendOnly: true}
		s := newSoak(t, op)
		push := func(from int) error {
			bb := types.NewBatchBuilder(op.Types)
			for r := from; r < from+s.batch; r++ {
				for n := 0; n < 2; n++ {
					if err := bb.Append(types.Insert, []any{int64(r % 100_000_000), int64(n)}); err != nil {
						return err
					}
				}
			}
			return op.ProcessBatch(0, bb.Build())
		}
		sizes := func() map[string]int64 {
			keys, _ := op.StateSize()
			return map[string]int64{"partitions": keys, "rows kept": op.nRows / 2, "batch order": int64(len(op.order))}
		}
		// expired partitions leave at once (rows kept: two per partition,
		// halved to compare with the bound)
		s.run(push, sizes, s.window()+2*int64(s.batch))
	})
	t.Run("upsert", func(t *testing.T) {
		// two rows a key (+I, +U); a tenth of the keys deleted 20 batches on
		ts := []*types.DataType{types.BigIntType(), types.StringType()}
		op := &SinkUpsertMaterializer{Keys: []int{0}, KeyTypes: ts[:1], Types: ts}
		s := newSoak(t, op)
		push := func(from int) error {
			bb := types.NewBatchBuilder(ts)
			for r := from; r < from+s.batch; r++ {
				k := int64(r % 100_000_000)
				if err := bb.Append(types.Insert, []any{k, "a"}); err != nil {
					return err
				}
				if err := bb.Append(types.UpdateAfter, []any{k, "b"}); err != nil {
					return err
				}
			}
			for r := from - 20*s.batch; r >= 0 && r < from-19*s.batch; r += 10 {
				if err := bb.Append(types.Delete, []any{int64(r % 100_000_000), "b"}); err != nil {
					return err
				}
			}
			return op.ProcessBatch(0, bb.Build())
		}
		sizes := func() map[string]int64 {
			keys, _ := op.StateSize()
			// rows: two a key, halved to compare with the bound; the store
			// is compacted once removed rows are the majority (and 4,096)
			return map[string]int64{"keys": keys, "key slots": int64(len(op.rows)), "rows held": op.live / 2,
				"rows stored": (int64(op.store.Len()) - 4096) / 4}
		}
		s.run(push, sizes, s.window()+2*int64(s.batch))
	})
	t.Run("over", func(t *testing.T) {
		// SUM(v) OVER (PARTITION BY k ORDER BY proctime), two rows a key
		in := []*types.DataType{types.BigIntType(), types.BigIntType(), types.TimestampType(3)}
		op := &StreamOver{PartitionKeys: []int{0}, KeyTypes: in[:1], InTypes: in, TimeCol: 2,
			Frame: opspec.OverFrame{Rows: true, Lower: opspec.FrameBound{Kind: opspec.UnboundedPreceding}, Upper: opspec.FrameBound{Kind: opspec.CurrentRow}},
			Calls: []opspec.OverCall{{Func: "SUM", Args: []int{1}, ArgTypes: in[1:2], Type: types.BigIntType(), Filter: -1}}}
		s := newSoak(t, op)
		push := func(from int) error {
			bb := types.NewBatchBuilder(in)
			for r := from; r < from+s.batch; r++ {
				for n := 0; n < 2; n++ {
					if err := bb.Append(types.Insert, []any{int64(r % 100_000_000), int64(n), ms(0)}); err != nil {
						return err
					}
				}
			}
			return op.ProcessBatch(0, bb.Build())
		}
		sizes := func() map[string]int64 {
			keys, _ := op.StateSize()
			return map[string]int64{"partitions": keys, "partition ids": int64(op.nParts), "cleanup slots": int64(len(op.cleanup))}
		}
		// expired partitions leave at once; their ids are reused
		s.run(push, sizes, s.window()+2*int64(s.batch))
	})
	t.Run("temporal", func(t *testing.T) {
		// every key gets a version and, 10 batches on, a left row; the
		// watermark follows the simulated clock
		lt := []*types.DataType{types.BigIntType(), types.TimestampType(3)}
		rt := []*types.DataType{types.BigIntType(), types.TimestampType(3), types.StringType()}
		op := &TemporalJoin{Spec: opspec.JoinSpec{Kind: opspec.LeftJoin, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: lt, RightTypes: rt},
			LeftTime: 1, RightTime: 1, NumLeft: 2}
		s := newSoak(t, op)
		start := s.clock.Now().UnixMilli()
		at := func(r int) time.Time { return ms(start + int64(r)*1000/int64(s.rate)) }
		push := func(from int) error {
			rb := types.NewBatchBuilder(rt)
			lb := types.NewBatchBuilder(lt)
			for r := from; r < from+s.batch; r++ {
				if err := rb.Append(types.Insert, []any{int64(r % 100_000_000), at(r), "v"}); err != nil {
					return err
				}
				if l := r - 10*s.batch; l >= 0 {
					if err := lb.Append(types.Insert, []any{int64(l % 100_000_000), at(r)}); err != nil {
						return err
					}
				}
			}
			if err := op.ProcessBatch(1, rb.Build()); err != nil {
				return err
			}
			if err := op.ProcessBatch(0, lb.Build()); err != nil {
				return err
			}
			wm := start + int64(from+s.batch)*1000/int64(s.rate)
			for side := 0; side < 2; side++ {
				if err := op.ProcessWatermark(side, wm); err != nil {
					return err
				}
			}
			return nil
		}
		sizes := func() map[string]int64 {
			keys, _ := op.StateSize()
			return map[string]int64{"keys with versions": keys, "key index": int64(op.keys.n), "cleanups": int64(len(op.cleanupAt)),
				"right rows stored": int64(op.right.Len()) / 2}
		}
		// a key is cleaned 1.5 TTL after its last row, by a timer that runs
		// at most every TTL/8: 13/8 windows of keys; empty keys leave the
		// index once they are the majority (looked for every half minimum)
		live := s.window() * 13 / 8
		s.run(push, sizes, 2*(live+int64(s.batch))+int64(joinKeyCompactMin)*3/2)
		if s.out.rows < int64(s.rows)/2 {
			t.Errorf("%d rows joined", s.out.rows)
		}
	})
}
