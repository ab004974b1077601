package runtime

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// A job with a window aggregate stopped with a savepoint half way and
// resumed emits, over both runs, exactly the windows of an uninterrupted
// run: the windows fired before the savepoint are not fired again, the
// others hold every row (the checkpoint tests' generator, its rows timed
// 10 ms apart by their sequence number and followed by watermarks).

var timedKVTypes = []*types.DataType{types.BigIntType(), types.BigIntType(), types.TimestampType(3)}

// timeRows appends the event time (10 ms per sequence number) to the
// generator's (key, value) rows and emits the watermark of the latest
// time after each batch.
type timeRows struct {
	BaseOperator
	wm int64
}

func (o *timeRows) ProcessBatch(_ int, b *types.Batch) error {
	vals := vector.Values[int64](b.Cols[1])
	ts := make([]int64, b.Len)
	for i, v := range vals {
		ts[i] = (v % 100_000) * 10
		o.wm = max(o.wm, ts[i]-1)
	}
	cols := append(append([]arrow.Array(nil), b.Cols...), vector.FromValues(&arrow.TimestampType{Unit: arrow.Millisecond}, ts, nil, 0))
	if err := o.Emit(&types.Batch{Cols: cols, Len: b.Len}); err != nil {
		return err
	}
	return o.Out.EmitWatermark(o.wm)
}

// windowRowsSink records the rows it receives.
type windowRowsSink struct {
	BaseOperator
	mu   *sync.Mutex
	rows *[]string
}

func (s *windowRowsSink) ProcessBatch(_ int, b *types.Batch) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range b.Rows(s.outTypes()) {
		*s.rows = append(*s.rows, r.String())
	}
	return nil
}

func (s *windowRowsSink) outTypes() []*types.DataType {
	return []*types.DataType{types.BigIntType(), types.BigIntType(), types.TimestampType(3)}
}

func (s *windowRowsSink) ProcessWatermark(int, int64) error { return nil }

// startWindowJob runs generator → timeRows → (hash on the key) a TUMBLE
// of 500 ms summing the values per key → a sink, and returns the job and
// the rows the sink received.
func startWindowJob(t *testing.T, gen *cpGenerator, cfg CheckpointConfig) (*Job, func() []string) {
	t.Helper()
	var mu sync.Mutex
	var rows []string
	g := &Graph{}
	src := g.AddSource("gen", 2, true, gen.source())
	src.Resumable = true
	timed := g.AddOperator("time", 2, func() Operator { return &timeRows{wm: MinWatermark} }, Edge{From: src, Part: opspec.Forward})
	win := g.AddOperator("window", 2, func() Operator {
		return &WindowAgg{Keys: []int{0}, KeyTypes: timedKVTypes[:1],
			Aggs:     []opspec.AggSpec{{Func: "SUM", Args: []int{1}, ArgTypes: timedKVTypes[1:2], Filter: -1, Type: types.BigIntType()}},
			OutTypes: []*types.DataType{types.BigIntType(), types.BigIntType(), types.TimestampType(3)},
			Window:   opspec.WindowSpec{Kind: opspec.TumbleWindow, Size: 500}, TimeCol: 2,
			Props: []opspec.WindowProp{opspec.PropEnd}}
	}, Edge{From: timed, Part: opspec.Hash, Keys: []int{0}})
	g.AddOperator("sink", 1, func() Operator { return &windowRowsSink{mu: &mu, rows: &rows} }, Edge{From: win, Part: opspec.Single})
	jc := DefaultJobConfig()
	jc.Checkpoint = cfg
	job, err := Submit(context.Background(), "windows", g, jc, &expr.Ctx{Zone: time.UTC, Start: time.Now()}, false)
	if err != nil {
		t.Fatal(err)
	}
	return job, func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := slices.Clone(rows)
		slices.Sort(out)
		return out
	}
}

func TestWindowAggSavepointResume(t *testing.T) {
	full, fullRows := startWindowJob(t, &cpGenerator{}, CheckpointConfig{})
	waitJob(t, full)
	want := fullRows()
	if len(want) != cpKeys*8 {
		t.Fatalf("uninterrupted run: %d windows, want %d (7 keys, 8 windows):\n%s", len(want), cpKeys*8, strings.Join(want, "\n"))
	}

	gen := &cpGenerator{pauseAt: 200, resume: make(chan struct{})}
	gen.paused.Add(2)
	first, firstRows := startWindowJob(t, gen, CheckpointConfig{})
	gen.paused.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sp, err := first.TriggerSavepoint(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	first.Cancel()
	_ = first.Wait(ctx)
	before := firstRows()
	// how many windows fired before the savepoint depends on the
	// watermarks that reached the window task by then
	if len(before) >= len(want) {
		t.Fatalf("before the savepoint: %d windows fired, want fewer than %d", len(before), len(want))
	}

	cp, err := LoadCheckpoint(sp.Path)
	if err != nil {
		t.Fatal(err)
	}
	resumed, resumedRows := startWindowJob(t, &cpGenerator{}, CheckpointConfig{Restore: cp})
	waitJob(t, resumed)
	got := append(before, resumedRows()...)
	slices.Sort(got)
	checkLines(t, "windows of both runs", got, want...)
}
