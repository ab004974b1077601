package runtime

import (
	"fmt"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

var umTypes = []*types.DataType{types.IntType(), types.StringType()}

func materializerStateOp() Operator {
	return &SinkUpsertMaterializer{Keys: []int{0}, KeyTypes: umTypes[:1], Types: umTypes}
}

func materializingSinkStateOp() Operator {
	return &MaterializingSink{Materializer: materializerStateOp().(*SinkUpsertMaterializer), Sink: &DropUpdateBefore{}}
}

// The upsert materializer keeps each key's added rows in order across a
// snapshot: retractions after the cut remove saved rows (emitting the row
// now last, or -D), with and without a state TTL; alone and in a
// MaterializingSink.
func TestSinkUpsertMaterializerStateRoundTrip(t *testing.T) {
	first := []stateStep{
		pushStep(0, umTypes, ins(int32(1), "a"), ins(int32(2), "x"), ins(int32(1), "b"), ins(int32(3), "p")),
		advanceStep(6 * time.Second),
		pushStep(0, umTypes, ins(int32(1), "c"), row(types.UpdateBefore, int32(1), "a"), row(types.Delete, int32(3), "p")),
	}
	second := []stateStep{
		pushStep(0, umTypes, row(types.UpdateBefore, int32(1), "c"), ins(int32(4), "q"), row(types.Delete, int32(2), "zzz")),
		advanceStep(5 * time.Second), // with a TTL of 10 s: 2 (written at 0 s) expires, 1 lives
		pushStep(0, umTypes, row(types.Delete, int32(2), "x"), ins(int32(2), "y"), row(types.Delete, int32(1), "b")),
	}
	for _, c := range []struct {
		name     string
		newOp    func() Operator
		ttl      time.Duration
		afterCut []string
	}{
		// key 1 holds b and c (saved): removing c emits b
		{"materializer", materializerStateOp, 0, []string{"+U[1, b]", "+I[4, q]", "-D[2, x]", "+I[2, y]", "-D[1, b]"}},
		// key 2, last written before the cut, has expired
		{"materializer with TTL", materializerStateOp, 10 * time.Second, []string{"+U[1, b]", "+I[4, q]", "+I[2, y]", "-D[1, b]"}},
		{"materializing sink", materializingSinkStateOp, 10 * time.Second, []string{"+U[1, b]", "+I[4, q]", "+I[2, y]", "-D[1, b]"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			rt := stateRoundTrip{newOp: c.newOp, outTypes: umTypes, tweak: func(cfg *JobConfig) { cfg.StateTTL = c.ttl }}
			afterCut, _ := rt.run(t, first, second)
			checkLines(t, "changelog after the cut", afterCut, c.afterCut...)
		})
	}
}

// Truncated snapshots and other kinds' snapshots are refused.
func TestSinkUpsertMaterializerStateErrors(t *testing.T) {
	h := newHarness(t, materializingSinkStateOp(), umTypes, false, NewManualClock(time.UnixMilli(0)), func(c *JobConfig) { c.StateTTL = time.Minute })
	h.push(0, umTypes, ins(int32(1), "a"), ins(int32(2), "b"), ins(int32(1), "c"), row(types.Delete, int32(2), "b"))
	sinkSnap, err := h.op.(CheckpointedOperator).SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	matSnap, err := h.op.(*MaterializingSink).Materializer.SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	checkRestoreErrors(t, materializerStateOp, umTypes, matSnap, sinkSnap, "SinkUpsertMaterializer", "MaterializingSink")
	checkRestoreErrors(t, materializingSinkStateOp, umTypes, sinkSnap, matSnap, "MaterializingSink", "SinkUpsertMaterializer")
	checkCorruptSnapshots(t, materializerStateOp, umTypes, matSnap)
	checkCorruptSnapshots(t, materializingSinkStateOp, umTypes, sinkSnap)
}

// committingTestSink is a committing sink that records the calls it gets.
type committingTestSink struct {
	DropUpdateBefore
	calls []string
}

func (s *committingTestSink) PrepareCommit(id int64) error {
	s.calls = append(s.calls, fmt.Sprintf("prepare %d", id))
	return nil
}

func (s *committingTestSink) NotifyCheckpointComplete(id int64) error {
	s.calls = append(s.calls, fmt.Sprintf("complete %d", id))
	return nil
}

func (s *committingTestSink) SnapshotState() ([]byte, error) { return []byte("sink state"), nil }

func (s *committingTestSink) RestoreState(b []byte) error {
	s.calls = append(s.calls, "restore "+string(b))
	return nil
}

// A MaterializingSink in front of a committing sink passes the commits on
// and saves and restores the sink's state with the materializer's.
func TestMaterializingSinkCommits(t *testing.T) {
	sink := &committingTestSink{}
	var op CommittingOperator = &MaterializingSink{Materializer: materializerStateOp().(*SinkUpsertMaterializer), Sink: sink}
	h := newHarness(t, op.(Operator), umTypes, false, NewManualClock(time.UnixMilli(0)))
	h.push(0, umTypes, ins(int32(1), "a"), ins(int32(1), "b"))
	if err := op.PrepareCommit(7); err != nil {
		t.Fatal(err)
	}
	snap, err := op.SnapshotState()
	if err != nil {
		t.Fatal(err)
	}
	if err := op.NotifyCheckpointComplete(7); err != nil {
		t.Fatal(err)
	}
	sink2 := &committingTestSink{}
	op2 := &MaterializingSink{Materializer: materializerStateOp().(*SinkUpsertMaterializer), Sink: sink2}
	h2 := newHarness(t, op2, umTypes, false, NewManualClock(time.UnixMilli(0)))
	if err := op2.RestoreState(snap); err != nil {
		t.Fatal(err)
	}
	h2.push(0, umTypes, row(types.UpdateBefore, int32(1), "b"))
	h2.expect("+U[1, a]")
	checkLines(t, "calls of the sink", sink.calls, "prepare 7", "complete 7")
	checkLines(t, "calls of the restored sink", sink2.calls, "restore sink state")
}
