package runtime

import (
	"context"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// wmFromBatch emits, after each batch, a watermark equal to the batch's
// largest value (column 0).
type wmFromBatch struct{ BaseOperator }

func (w *wmFromBatch) ProcessBatch(_ int, b *types.Batch) error {
	var hi int64 = MinWatermark
	for _, r := range b.Rows(kvTypes) {
		hi = max(hi, r.Values[0].(int64))
	}
	if err := w.Out.Emit(b); err != nil {
		return err
	}
	return w.Out.EmitWatermark(hi)
}

// wmRecorder passes on the watermarks it receives.
type wmRecorder struct {
	BaseOperator
	got chan int64
}

func (w *wmRecorder) ProcessBatch(int, *types.Batch) error { return nil }
func (w *wmRecorder) ProcessWatermark(_ int, wm int64) error {
	w.got <- wm
	return nil
}

// TestParallelInstancesPassOnTheirOwnWatermarks: each parallel instance
// of an operator passes on its own watermarks. Instance 1's watermark (50),
// lower than one instance 0 already emitted (100), used to be dropped
// because the two shared one high-water mark, and the consumer's combined
// watermark never advanced.
func TestParallelInstancesPassOnTheirOwnWatermarks(t *testing.T) {
	first := make(chan struct{})
	g := &Graph{}
	src := g.AddSource("two", 2, false, func(ctx context.Context, inst, _ int, emit func(*types.Batch) error) error {
		if inst == 1 {
			select {
			case <-first:
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		bb := types.NewBatchBuilder(kvTypes)
		v := int64(100)
		if inst == 1 {
			v = 50
		}
		if err := bb.Append(types.Insert, []any{v, v}); err != nil {
			return err
		}
		if err := emit(bb.Build()); err != nil {
			return err
		}
		if inst == 0 {
			close(first)
		}
		<-ctx.Done()
		return nil
	})
	wm := g.AddOperator("wm", 2, func() Operator { return &wmFromBatch{} }, Edge{From: src, Part: opspec.Forward})
	got := make(chan int64, 16)
	g.AddOperator("rec", 1, func() Operator { return &wmRecorder{got: got} }, Edge{From: wm, Part: opspec.Single})
	job, err := Submit(context.Background(), "wm", g, DefaultJobConfig(), &expr.Ctx{Zone: time.UTC, Start: time.Now()}, false)
	if err != nil {
		t.Fatal(err)
	}
	defer job.Cancel()
	select {
	case w := <-got:
		if w != 50 {
			t.Fatalf("combined watermark %d, want 50 (the lower of the instances' 100 and 50)", w)
		}
	case <-job.Done():
		t.Fatalf("the job ended: %v", job.Err())
	case <-time.After(time.Minute):
		t.Fatal("no watermark reached the consumer")
	}
	if hi := job.Metrics()[1].Watermark.Load(); hi != 100 {
		t.Fatalf("the operator's watermark metric %d, want the highest instance's, 100", hi)
	}
}
