package gateway

import (
	"os"
	goruntime "runtime"
	"strconv"
	"testing"
	"time"
)

// unfetchedQueriesHeap opens one session with the given
// collect-sink.batch-size.max, starts n queries over 1 KB rows that nobody
// fetches, waits until every query's collect sink is blocked on its full
// result buffer (the collector's event), and returns the growth of the
// heap in use (after GC) and the bytes the result buffers hold.
func unfetchedQueriesHeap(t *testing.T, n int, batchSizeMax string) (heap, buffered int64) {
	t.Helper()
	g := newTestGateway(t, Config{MaxSessionQueries: n})
	s := g.openSession(t, map[string]string{"collect-sink.batch-size.max": batchSizeMax})
	g.fetchUntilReady(t, s, g.execute(t, s, "CREATE TABLE big (s STRING) WITH ('connector' = 'datagen', 'fields.s.length' = '1000', 'rows-per-second' = '10000')"))
	goruntime.GC()
	var before goruntime.MemStats
	goruntime.ReadMemStats(&before)
	var ops []string
	for i := 0; i < n; i++ {
		ops = append(ops, g.execute(t, s, "SELECT s FROM big"))
	}
	ss, err := g.srv.session(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range ops {
		if !waitFor(60*time.Second, func() bool { return g.statusOf(t, s, id) == "FINISHED" }) {
			t.Fatalf("query %s: %s", id, g.statusOf(t, s, id))
		}
		o, err := ss.operation(id)
		if err != nil {
			t.Fatal(err)
		}
		o.mu.Lock()
		buf, job := o.result.buffer, o.result.job
		o.mu.Unlock()
		select {
		case <-buf.Full():
		case <-time.After(2 * time.Minute):
			t.Fatalf("query %s never filled its result buffer", id)
		}
		// and the job is stalled: the collect sink takes nothing more, so
		// the exchange before it fills up to its byte bound
		// (riffle.exchange.max-bytes-per-channel, 1 MiB: two of the
		// datagen's 500-row batches of 1 KB rows) and the task feeding it
		// waits with a third: 3 batches of 500 rows lie between what the
		// source emitted and what reached the sink
		inFlight := func() int64 {
			lo, hi := int64(-1), int64(0)
			for _, m := range job.Metrics() {
				n := m.RecordsOut
				if lo < 0 || n < lo {
					lo = n
				}
				hi = max(hi, n)
			}
			return hi - lo
		}
		if !waitFor(2*time.Minute, func() bool { return inFlight() >= 3*500 }) {
			t.Fatalf("query %s: the job did not stall (%d rows in flight)", id, inFlight())
		}
		_, b := buf.Buffered()
		if max := buf.MaxBytes(); b > max && max > 0 {
			t.Errorf("query %s buffers %d bytes, over its bound %d", id, b, max)
		}
		buffered += b
	}
	goruntime.GC()
	var after goruntime.MemStats
	goruntime.ReadMemStats(&after)
	g.mustOK(t, "DELETE", "/v2/sessions/"+s, nil)
	return int64(after.HeapInuse) - int64(before.HeapInuse), buffered
}

// Queries over 1 KB rows that no client fetches (10, or
// RIFFLE_UNFETCHED_QUERIES) hold a bounded heap:
// each result buffer at most 4 MB (twice collect-sink.batch-size.max),
// the rest being batches in flight in the jobs (the exchange before the
// collect sink and the source's hand-off, each at most
// riffle.exchange.max-bytes-per-channel, 1 MiB, and the batches the
// blocked operators hold: about 4.5 MiB with the datagen's 500-row
// batches of 1 KB rows, 8.7 MiB a query in all; 16 MiB when channels were
// bounded by their 16 batches only, so the bound of 12 MiB a query fails
// without the channels' byte bound). Before the result buffer's byte
// bound a query held about 45 MB. With
// RIFFLE_MEASURE_BEFORE=1 it also measures the buffers bounded by their 64
// batches only (collect-sink.batch-size.max = 1 gb), as before the byte
// bound (about 1.5 GB: run it on a machine with room).
func TestUnfetchedQueriesMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 10 queries or more")
	}
	n := 10 // RIFFLE_UNFETCHED_QUERIES=40 for the figure in docs/benchmarks.md
	if v := os.Getenv("RIFFLE_UNFETCHED_QUERIES"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1 {
			t.Fatalf("RIFFLE_UNFETCHED_QUERIES=%q: want a count of at least 1", v)
		}
	}
	heap, buffered := unfetchedQueriesHeap(t, n, "2 mb")
	t.Logf("%d unfetched queries, collect-sink.batch-size.max = 2 mb: heap +%d MiB (%.1f MiB a query), result buffers %d MiB", n, heap>>20, float64(heap)/float64(n)/(1<<20), buffered>>20)
	if limit := int64(n) * 12 << 20; heap > limit {
		t.Errorf("the heap grew by %d MiB for %d unfetched queries, more than 12 MiB a query", heap>>20, n)
	}
	if limit := int64(n) * 4 << 20; buffered > limit {
		t.Errorf("the result buffers hold %d MiB, more than 4 MiB a query", buffered>>20)
	}
	if os.Getenv("RIFFLE_MEASURE_BEFORE") == "1" {
		heap, buffered := unfetchedQueriesHeap(t, n, "1 gb")
		t.Logf("%d unfetched queries, 64 batches only: heap +%d MiB (%.1f MiB a query), result buffers %d MiB", n, heap>>20, float64(heap)/float64(n)/(1<<20), buffered>>20)
	}
}
