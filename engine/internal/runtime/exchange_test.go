package runtime

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// wideBatch builds a batch of rows 1,000-byte strings (a fresh array, as a
// source reads one).
func wideBatch(rows int, seq int64) *types.Batch {
	sb := array.NewStringBuilder(memory.DefaultAllocator)
	sb.ReserveData(rows * 1000)
	row := []byte(strings.Repeat("x", 1000))
	for i := 0; i < rows; i++ {
		copy(row, strconv.FormatInt(seq*int64(rows)+int64(i), 10))
		sb.BinaryBuilder.Append(row)
	}
	return types.NewBatch([]arrow.Array{sb.NewArray()}, nil, rows)
}

// stalledQuery is a job source -> SINGLETON exchange -> collect sink whose
// result nobody fetches: the source emits batches of 1 KB rows as fast as
// it can until the job stalls.
type stalledQuery struct {
	job       *Job
	collector *Collector
	emitted   atomic.Int64 // bytes of the batches the source emitted (Arrow buffers)
	batches   atomic.Int64
	inEmit    atomic.Bool // the source waits in emit
}

func startStalledQuery(t *testing.T, rows int, channelBytes int64) *stalledQuery {
	t.Helper()
	q := &stalledQuery{collector: NewBoundedCollector(64, 4<<20)}
	g := &Graph{}
	src := g.AddSource("wide", 1, false, func(ctx context.Context, _, _ int, emit func(*types.Batch) error) error {
		for seq := int64(0); ; seq++ {
			b := wideBatch(rows, seq)
			q.emitted.Add(batchBytes(b))
			q.batches.Add(1)
			q.inEmit.Store(true)
			err := emit(b)
			q.inEmit.Store(false)
			if err != nil {
				return err
			}
		}
	})
	g.AddOperator("collect", 1, q.collector.NewSink, Edge{From: src, Part: opspec.Single})
	cfg := DefaultJobConfig()
	cfg.ChannelBytes = channelBytes
	job, err := Submit(context.Background(), "stalled", g, cfg, &expr.Ctx{Zone: time.UTC, Start: time.Now()}, false)
	if err != nil {
		t.Fatal(err)
	}
	q.job = job
	q.collector.Attach(job)
	t.Cleanup(func() {
		job.Cancel()
		_ = job.Wait(context.Background())
	})
	return q
}

// waitStalled waits until the collect sink is blocked on its full buffer
// and the source has been waiting in emit, with no batch emitted, over 20
// looks 5 ms apart (nothing downstream can make room once the sink
// waits, so the job emits nothing more).
func (q *stalledQuery) waitStalled(t *testing.T) {
	t.Helper()
	select {
	case <-q.collector.Full():
	case <-time.After(2 * time.Minute):
		t.Fatal("the collect sink never waited for room")
	}
	deadline := time.Now().Add(2 * time.Minute)
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	still, last := 0, int64(-1)
	for still < 20 {
		if time.Now().After(deadline) {
			t.Fatalf("the job did not stall (%d batches emitted)", q.batches.Load())
		}
		<-tick.C
		n := q.batches.Load()
		if n == last && q.inEmit.Load() {
			still++
		} else {
			still = 0
		}
		last = n
	}
	if q.job.Status().IsTerminal() {
		t.Fatalf("the job ended: %v", q.job.Err())
	}
}

// stalledHeldBytes runs n stalled queries together and returns the bytes
// of the batches each holds (all it emitted: nothing is fetched) at most,
// and the growth of the heap in use (after a GC) per query.
func stalledHeldBytes(t *testing.T, n, rows int, channelBytes int64) (held, heapPerQuery int64) {
	t.Helper()
	goruntime.GC()
	var before goruntime.MemStats
	goruntime.ReadMemStats(&before)
	qs := make([]*stalledQuery, n)
	for i := range qs {
		qs[i] = startStalledQuery(t, rows, channelBytes)
	}
	for _, q := range qs {
		q.waitStalled(t)
		held = max(held, q.emitted.Load())
	}
	goruntime.GC()
	var after goruntime.MemStats
	goruntime.ReadMemStats(&after)
	heapPerQuery = (int64(after.HeapInuse) - int64(before.HeapInuse)) / int64(n)
	for _, q := range qs {
		q.job.Cancel()
		_ = q.job.Wait(context.Background())
	}
	return held, heapPerQuery
}

// A query whose result nobody fetches holds a bounded number of bytes:
// its collect sink's buffer (4 MB here, twice collect-sink.batch-size.max)
// plus, between its operators, at most the channel's byte budget (1 MiB)
// in the exchange and as much in the source's hand-off, plus the batches
// the blocked operators hold (the sink's, the router's, the source's): with
// 500-row batches of 1 KB rows (0.5 MB, as the datagen source emits at
// 10,000 rows/s) 4 + 2 + 1.5 = 7.5 MB. Without the byte budget the exchange
// holds 16 batches (8 MB) and the hand-off 2: 14.5 MB. RIFFLE_STALL_ROWS
// sets the rows a batch, RIFFLE_STALL_QUERIES the queries run together
// (4) for the heap figure.
func TestStalledQueryHeldBytes(t *testing.T) {
	rows, n := 500, 4
	if v := os.Getenv("RIFFLE_STALL_ROWS"); v != "" {
		rows, _ = strconv.Atoi(v)
	}
	if v := os.Getenv("RIFFLE_STALL_QUERIES"); v != "" {
		n, _ = strconv.Atoi(v)
	}
	if rows < 1 || n < 1 {
		t.Fatal("RIFFLE_STALL_ROWS and RIFFLE_STALL_QUERIES: want counts of at least 1")
	}
	batch := batchBytes(wideBatch(rows, 0))
	bound := max(4<<20, batch) + 2*max(DefaultChannelBytes, batch) + 3*batch
	held, heap := stalledHeldBytes(t, n, rows, DefaultChannelBytes)
	t.Logf("byte budget %d KiB a channel, batches of %d rows (%d KiB): a stalled query holds %.1f MiB of batches (bound %.1f MiB), heap +%.1f MiB a query",
		DefaultChannelBytes>>10, rows, batch>>10, float64(held)/(1<<20), float64(bound)/(1<<20), float64(heap)/(1<<20))
	if held > bound {
		t.Errorf("a stalled query holds %d bytes of batches, over the bound %d", held, bound)
	}
	// the test tells: bounded by count only, as before the byte budget,
	// the same query holds more than the bound
	held0, heap0 := stalledHeldBytes(t, n, rows, -1)
	t.Logf("no byte budget (16 batches a channel, 2 in the hand-off): a stalled query holds %.1f MiB of batches, heap +%.1f MiB a query",
		float64(held0)/(1<<20), float64(heap0)/(1<<20))
	if rows <= 2048 && held0 <= bound {
		t.Errorf("without the byte budget a stalled query holds %d bytes, not over the bound %d: the test does not tell", held0, bound)
	}
}

// The budget admits a batch larger than itself into an empty channel,
// makes the next producer wait until the batch is taken, and wakes it
// then; a wait ends with the context.
func TestByteBudgetWaitsAndWakes(t *testing.T) {
	g := newByteBudget(100)
	ctx := context.Background()
	if waited, err := g.acquire(ctx, 250); waited || err != nil {
		t.Fatalf("a batch over the budget into an empty channel: waited %v, %v", waited, err)
	}
	got := make(chan error, 1)
	go func() {
		_, err := g.acquire(ctx, 10)
		got <- err
	}()
	// the second producer waits: wait until it is registered
	deadline := time.Now().Add(time.Minute)
	for g.waiters.Load() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the second producer never waited")
		}
		goruntime.Gosched()
	}
	select {
	case err := <-got:
		t.Fatalf("the second producer did not wait (%v)", err)
	default:
	}
	g.release(250)
	select {
	case err := <-got:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the waiting producer was not woken")
	}
	if u := g.used.Load(); u != 10 {
		t.Fatalf("used %d, want 10", u)
	}
	// 10 + 95 > 100: waits, until its context ends
	cctx, cancel := context.WithCancel(ctx)
	go func() {
		_, err := g.acquire(cctx, 95)
		got <- err
	}()
	for g.waiters.Load() == 0 {
		goruntime.Gosched()
	}
	cancel()
	if err := <-got; !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled wait returned %v", err)
	}
	if u := g.used.Load(); u != 10 {
		t.Fatalf("used %d after a cancelled wait, want 10", u)
	}
	var nilBudget *byteBudget
	if waited, err := nilBudget.acquire(ctx, 1<<40); waited || err != nil {
		t.Fatal("no budget must admit anything")
	}
	nilBudget.release(1 << 40)
}

// Several producers of random batch sizes (some over the budget) feed one
// consumer through a budgeted channel: every batch arrives, none is lost
// to a missed wake-up, and the bytes waiting never exceed max(budget,
// largest batch).
func TestByteBudgetManyProducers(t *testing.T) {
	const limit, producers, each = 1000, 4, 3000
	c := &channel{c: make(chan event, 16), budget: newByteBudget(limit)}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var wg sync.WaitGroup
	var largest atomic.Int64
	for p := 0; p < producers; p++ {
		wg.Add(1)
		go func(p int) {
			defer wg.Done()
			r := rand.New(rand.NewSource(int64(p)))
			for i := 0; i < each; i++ {
				size := int64(1 + r.Intn(600))
				if r.Intn(50) == 0 {
					size = 1500 // over the budget: passes alone
				}
				for m := largest.Load(); size > m && !largest.CompareAndSwap(m, size); m = largest.Load() {
				}
				if _, err := c.budget.acquire(ctx, size); err != nil {
					t.Error(err)
					return
				}
				select {
				case c.c <- event{kind: evData, producer: p, size: size}:
				case <-ctx.Done():
					t.Error(ctx.Err())
					return
				}
			}
		}(p)
	}
	r := rand.New(rand.NewSource(99))
	for got := 0; got < producers*each; got++ {
		select {
		case ev := <-c.c:
			c.received(&ev)
		case <-ctx.Done():
			t.Fatalf("%d of %d batches arrived: the producers wait for good", got, producers*each)
		}
		if r.Intn(8) == 0 {
			goruntime.Gosched() // a slow consumer now and then
		}
	}
	wg.Wait()
	if u := c.budget.used.Load(); u != 0 {
		t.Errorf("%d bytes still counted after every batch arrived", u)
	}
	if p := c.budget.peak.Load(); p > max(limit, largest.Load()) {
		t.Errorf("peak %d bytes waiting, over max(%d, %d)", p, limit, largest.Load())
	}
}

// inFlightBytes counts what a batch's rows cover: a slice of a string
// column counts its own rows' bytes, not the whole array's.
func TestInFlightBytes(t *testing.T) {
	b := wideBatch(100, 0)
	whole := inFlightBytes(b)
	// values, offsets and the builder's validity bitmap
	if want := int64(100*1000 + 4*101 + 13); whole != want {
		t.Errorf("100 rows of 1,000 bytes: %d bytes, want %d", whole, want)
	}
	if got, want := inFlightBytes(b.Slice(10, 20)), int64(10*1000+4*11+2); got != want {
		t.Errorf("a 10-row slice: %d bytes, want %d", got, want)
	}
	bb := types.NewBatchBuilder([]*types.DataType{types.BigIntType(), types.BooleanType()})
	for i := 0; i < 64; i++ {
		var v any = int64(i)
		if i%2 == 0 {
			v = nil
		}
		if err := bb.Append(types.Insert, []any{v, i%3 == 0}); err != nil {
			t.Fatal(err)
		}
	}
	nb := bb.Build()
	// BIGINT: 8 bytes a row + validity bitmap; BOOLEAN: 1 bit a row (+ bitmap if any)
	got := inFlightBytes(nb.Slice(0, 32))
	if min, max := int64(32*8+4+4), int64(32*8+4+4+4); got < min || got > max {
		t.Errorf("32 rows of BIGINT and BOOLEAN: %d bytes, want %d to %d", got, min, max)
	}
}

// BenchmarkExchange measures the channels between tasks: a source of
// parallelism 2 emits 4,096-row batches (BIGINT and a short STRING) that
// a HASH exchange spreads to 2 counting sinks, with and without the byte
// budget. It reports rows/s.
func BenchmarkExchange(b *testing.B) {
	for _, c := range []struct {
		name  string
		bytes int64
	}{{"count-only", -1}, {"bytes-1MiB", DefaultChannelBytes}, {"bytes-64KiB", 64 << 10}} {
		b.Run(c.name, func(b *testing.B) { benchExchange(b, c.bytes) })
	}
}

func benchExchange(b *testing.B, channelBytes int64) {
	const rows, batchRows = 2_000_000, 4096
	ts := []*types.DataType{types.BigIntType(), types.StringType()}
	batches := make([]*types.Batch, 16)
	for k := range batches {
		bb := types.NewBatchBuilder(ts)
		for i := 0; i < batchRows; i++ {
			if err := bb.Append(types.Insert, []any{int64(k*batchRows + i), fmt.Sprintf("name-%d", i%97)}); err != nil {
				b.Fatal(err)
			}
		}
		batches[k] = bb.Build()
	}
	b.ReportAllocs()
	b.ResetTimer()
	for n := 0; n < b.N; n++ {
		var counted atomic.Int64
		g := &Graph{}
		src := g.AddSource("gen", 2, true, func(ctx context.Context, inst, par int, emit func(*types.Batch) error) error {
			for fed, k := 0, 0; fed < rows/par; fed, k = fed+batchRows, k+1 {
				if err := emit(batches[k%len(batches)]); err != nil {
					return err
				}
			}
			return nil
		})
		g.AddOperator("count", 2, func() Operator { return &countSink{n: &counted} }, Edge{From: src, Part: opspec.Hash, Keys: []int{0}})
		cfg := DefaultJobConfig()
		cfg.ChannelBytes = channelBytes
		job, err := Submit(context.Background(), "bench", g, cfg, &expr.Ctx{Zone: time.UTC, Start: time.Now()}, true)
		if err != nil {
			b.Fatal(err)
		}
		if err := job.Wait(context.Background()); err != nil {
			b.Fatal(err)
		}
		if want := int64(2 * ((rows/2 + batchRows - 1) / batchRows) * batchRows); counted.Load() != want {
			b.Fatalf("%d rows counted, want %d", counted.Load(), want)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

type countSink struct {
	BaseOperator
	n *atomic.Int64
}

func (s *countSink) ProcessBatch(_ int, b *types.Batch) error {
	s.n.Add(int64(b.Len))
	return nil
}

func (s *countSink) ProcessWatermark(int, int64) error { return nil }

// BenchmarkChannelHandoff measures one batch's way through a channel
// between two goroutines (router.send, then the consumer's receive), with
// and without the byte budget: the budget's cost per batch is sizing the
// batch (inFlightBytes), a compare-and-swap and an atomic add. ns/op is
// per batch (4,096 rows of BIGINT and a short STRING, about 60 KB: the
// budget of 1 MiB never makes the producer wait; with 64 KiB it does).
func BenchmarkChannelHandoff(b *testing.B) {
	bb := types.NewBatchBuilder([]*types.DataType{types.BigIntType(), types.StringType()})
	for i := 0; i < 4096; i++ {
		if err := bb.Append(types.Insert, []any{int64(i), fmt.Sprintf("name-%d", i%97)}); err != nil {
			b.Fatal(err)
		}
	}
	batch := bb.Build()
	for _, c := range []struct {
		name  string
		bytes int64
	}{{"count-only", -1}, {"bytes-1MiB", DefaultChannelBytes}, {"bytes-64KiB", 64 << 10}} {
		b.Run(c.name, func(b *testing.B) {
			ch := &channel{c: make(chan event, 16), budget: newByteBudget(c.bytes)}
			r := &router{ctx: context.Background(), m: newMetrics(0, "bench"), sized: c.bytes > 0}
			done := make(chan struct{})
			go func() {
				defer close(done)
				for i := 0; i < b.N; i++ {
					ev := <-ch.c
					ch.received(&ev)
				}
			}()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if err := r.send(ch, data(batch, 0, r.sized)); err != nil {
					b.Fatal(err)
				}
			}
			<-done
		})
	}
}
