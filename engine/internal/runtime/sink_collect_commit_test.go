package runtime

import (
	"context"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// A checkpoint can complete while the attempt that took it is being torn
// down, its notification arriving after the collect sink's EndInput: the
// rows staged for it still reach the reader (the restarted job resumes
// after them), while the rows after its barrier do not (the restarted job
// produces them again). Before, EndInput dropped both, and a restart lost
// the staged rows.
func TestCollectSinkHandsOverACompletedCheckpointAfterTeardown(t *testing.T) {
	coll := NewBoundedCollector(64, 0)
	s := coll.NewSink().(*collectSink)
	attempt, cancel := context.WithCancel(context.Background())
	cfg := DefaultJobConfig()
	cfg.Checkpoint.Interval = time.Hour
	if err := s.Open(&OpContext{Ctx: attempt, JobCtx: context.Background(), Metrics: &OperatorMetrics{}, Config: cfg}, nil); err != nil {
		t.Fatal(err)
	}
	batch := func(v int64) *types.Batch {
		bb := types.NewBatchBuilder(kvTypes)
		if err := bb.Append(types.Insert, []any{v, v}); err != nil {
			t.Fatal(err)
		}
		return bb.Build()
	}
	if err := s.ProcessBatch(0, batch(1)); err != nil {
		t.Fatal(err)
	}
	if err := s.PrepareCommit(2); err != nil { // the barrier of checkpoint 2
		t.Fatal(err)
	}
	if err := s.ProcessBatch(0, batch(2)); err != nil {
		t.Fatal(err)
	}
	cancel() // the attempt fails
	if err := s.EndInput(0); err != nil {
		t.Fatal(err)
	}
	if _, ok := coll.receive(); ok {
		t.Fatal("rows reached the reader before their checkpoint completed")
	}
	if err := s.NotifyCheckpointComplete(2); err != nil {
		t.Fatal(err)
	}
	b, ok := coll.receive()
	if !ok || b.Len != 1 || b.Row(0, kvTypes).Field(1) != int64(1) {
		t.Fatalf("after checkpoint 2 completed the reader got %v %v, want the row before its barrier", b, ok)
	}
	if b, ok := coll.receive(); ok {
		t.Fatalf("the row after the barrier reached the reader: %v", b)
	}
}
