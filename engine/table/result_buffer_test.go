package table

import (
	"context"
	"strings"
	"testing"
	"time"
)

// waitFull waits until the query's collect sink is blocked on a full
// result buffer (the collector's event), failing after a generous bound.
func waitFull(t *testing.T, res *TableResult) {
	t.Helper()
	select {
	case <-res.collector.Full():
	case <-time.After(60 * time.Second):
		b, n := res.collector.Buffered()
		t.Fatalf("the collect sink never blocked on a full buffer (%d batches, %d bytes buffered)", b, n)
	}
}

// A query over 1 KB rows that nobody fetches fills its result buffer by
// bytes, not by batches: with collect-sink.batch-size.max = 1 mb the
// buffer holds at most 2 MB (as Flink's collect sink, twice the batch
// size) and far fewer than the 64 batches it may hold, and the job waits.
func TestResultBufferBoundedByBytes(t *testing.T) {
	env := MustCreate(InStreamingMode())
	mustExec(t, env,
		"CREATE TABLE big (s STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '20000', 'fields.s.length' = '1000')",
		"SET 'collect-sink.batch-size.max' = '1 mb'")
	res, err := env.ExecuteSQL("SELECT s FROM big")
	if err != nil {
		t.Fatal(err)
	}
	defer res.JobClient().Cancel()
	if got := res.collector.MaxBytes(); got != 2<<20 {
		t.Fatalf("byte bound %d, want %d (twice collect-sink.batch-size.max)", got, 2<<20)
	}
	waitFull(t, res)
	batches, bytes := res.collector.Buffered()
	if bytes > 2<<20 || bytes < 1<<20 {
		t.Errorf("buffered %d bytes while the job is blocked, want between 1 MB and the 2 MB bound", bytes)
	}
	if batches >= 64 || batches < 1 {
		t.Errorf("buffered %d batches: the bytes, not the 64-batch bound, should have filled the buffer", batches)
	}
	// the job stays blocked: reading one batch lets it add one more, and
	// the bound holds again once it blocks anew
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if _, err := it.NextBatch(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitFull(t, res)
	if _, bytes := res.collector.Buffered(); bytes > 2<<20 {
		t.Errorf("buffered %d bytes after a read, over the 2 MB bound", bytes)
	}
}

// Small rows still fill the buffer by its 64 batches, under the default
// byte bound of 4 MB (twice the default collect-sink.batch-size.max, 2 mb).
func TestResultBufferBoundedByBatches(t *testing.T) {
	env := MustCreate(InStreamingMode())
	mustExec(t, env, "CREATE TABLE small (x INT) WITH ('connector' = 'datagen', 'rows-per-second' = '2000')")
	res, err := env.ExecuteSQL("SELECT x FROM small")
	if err != nil {
		t.Fatal(err)
	}
	defer res.JobClient().Cancel()
	if got := res.collector.MaxBytes(); got != 4<<20 {
		t.Fatalf("default byte bound %d, want 4 MB", got)
	}
	waitFull(t, res)
	if batches, bytes := res.collector.Buffered(); batches != 64 || bytes > 4<<20 {
		t.Errorf("buffered %d batches, %d bytes; want 64 batches under 4 MB", batches, bytes)
	}
}

// A bad collect-sink.batch-size.max is refused by SET and by a query
// that runs with it set, naming the key.
func TestCollectSinkBatchSizeChecked(t *testing.T) {
	for _, v := range []string{"abc", "0", "-1 mb", "12 parsecs"} {
		env := MustCreate(InBatchMode())
		_, err := env.ExecuteSQL("SET 'collect-sink.batch-size.max' = '" + v + "'")
		if err == nil || !strings.Contains(err.Error(), "collect-sink.batch-size.max") {
			t.Errorf("SET %q: %v", v, err)
		}
		env.Config().Configuration().SetString("collect-sink.batch-size.max", v)
		if _, err := env.ExecuteSQL("SELECT 1"); err == nil || !strings.Contains(err.Error(), "collect-sink.batch-size.max") {
			t.Errorf("query with %q: %v", v, err)
		}
	}
	for v, want := range map[string]int64{"2mb": 4 << 20, "512 kb": 1 << 20, "100": 200, "1 GiBibytes": 2 << 30} {
		env := MustCreate(InBatchMode())
		mustExec(t, env, "SET 'collect-sink.batch-size.max' = '"+v+"'")
		res, err := env.ExecuteSQL("SELECT 1")
		if err != nil {
			t.Fatalf("%q: %v", v, err)
		}
		if got := res.collector.MaxBytes(); got != want {
			t.Errorf("%q: bound %d, want %d", v, got, want)
		}
		if got := collectResult(t, res); got != "+I[1]" {
			t.Errorf("%q: %s", v, got)
		}
	}
}

// A batch larger than the byte bound on its own is taken when the buffer
// is empty (the job would wait forever otherwise), and only then; a
// collect sink blocked on a full buffer ends when the job is cancelled.
func TestResultBufferOversizedBatchAndCancel(t *testing.T) {
	env := MustCreate(InStreamingMode())
	mustExec(t, env,
		"CREATE TABLE big (s STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '2000', 'fields.s.length' = '1000')",
		"SET 'collect-sink.batch-size.max' = '100'")
	res, err := env.ExecuteSQL("SELECT s FROM big")
	if err != nil {
		t.Fatal(err)
	}
	waitFull(t, res)
	if batches, bytes := res.collector.Buffered(); batches != 1 || bytes <= 200 {
		t.Errorf("buffered %d batches, %d bytes; want the one oversized batch", batches, bytes)
	}
	jc := res.JobClient()
	if err := jc.Cancel(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	select {
	case <-jc.Done():
	case <-ctx.Done():
		t.Fatal("the job blocked on a full result buffer did not end when cancelled")
	}
	if st := jc.Status(); st.String() != "CANCELED" {
		t.Errorf("status %s, want CANCELED", st)
	}
}
