package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

var cnTypes = []*types.DataType{types.IntType(), types.StringType(), types.DoubleType()}

func newNormalize(t *testing.T, noUB bool, cond expr.Expr, clock Clock, ttl time.Duration) (*ChangelogNormalize, *harness) {
	op := &ChangelogNormalize{Keys: []int{0}, KeyTypes: cnTypes[:1], Types: cnTypes, NoUpdateBefore: noUB, Condition: cond}
	h := newHarness(t, op, cnTypes, false, clock, func(c *JobConfig) { c.StateTTL = ttl })
	return op, h
}

// An upsert stream (+I/+U/-D, tombstones with only the key) becomes a
// retract stream with full rows.
func TestChangelogNormalizeUpsert(t *testing.T) {
	op, h := newNormalize(t, false, nil, nil, 0)
	h.push(0, cnTypes,
		row(types.UpdateAfter, int32(1), "scooter", 3.1),
		ins(int32(2), "battery", 8.1),
		row(types.UpdateAfter, int32(1), "scooter", 5.2))
	h.expect("+I[1, scooter, 3.1]", "+I[2, battery, 8.1]", "-U[1, scooter, 3.1]", "+U[1, scooter, 5.2]")
	// a repeated row changes nothing; a tombstone deletes the full kept row
	h.push(0, cnTypes,
		row(types.UpdateAfter, int32(1), "scooter", 5.2),
		row(types.Delete, int32(2), nil, nil),
		row(types.Delete, int32(9), nil, nil))
	h.expect("-D[2, battery, 8.1]")
	// a deleted key starts afresh; -U deletes too (no +U may follow)
	h.push(0, cnTypes, row(types.UpdateAfter, int32(2), "hammer", 0.8), row(types.UpdateBefore, int32(1), "scooter", 5.2))
	h.expect("+I[2, hammer, 0.8]", "-D[1, scooter, 5.2]")
	if keys, _ := op.StateSize(); keys != 1 {
		t.Errorf("%d keys kept, want 1", keys)
	}
}

// Without -U (the consumer takes upserts), and over a CDC stream whose
// events repeat (table.exec.source.cdc-events-duplicate).
func TestChangelogNormalizeNoUpdateBeforeDuplicates(t *testing.T) {
	_, h := newNormalize(t, true, nil, nil, 0)
	h.push(0, cnTypes,
		ins(int32(1), "a", 1.0),
		ins(int32(1), "a", 1.0), // duplicate event
		row(types.UpdateAfter, int32(1), "b", 2.0),
		row(types.UpdateAfter, int32(1), "b", 2.0),
		row(types.Delete, int32(1), "b", 2.0),
		row(types.Delete, int32(1), "b", 2.0))
	h.expect("+I[1, a, 1.0]", "+U[1, b, 2.0]", "-D[1, b, 2.0]")
}

// A filter pushed into the node: rows that fail are not kept, and a kept
// row whose update fails is deleted.
func TestChangelogNormalizeCondition(t *testing.T) {
	f, _ := expr.Builtins.Lookup(">")
	cond, err := expr.ResolveCall(f, ">", []expr.Expr{&expr.InputRef{Index: 2, Name: "w", T: types.DoubleType()}, expr.NewLiteral(1.0, types.DoubleType())})
	if err != nil {
		t.Fatal(err)
	}
	_, h := newNormalize(t, false, cond, nil, 0)
	h.push(0, cnTypes,
		ins(int32(1), "a", 3.0),
		ins(int32(2), "b", 0.5),                    // fails: not kept
		row(types.UpdateAfter, int32(1), "a", 0.2), // fails: deletes the kept row
		row(types.Delete, int32(2), nil, nil),      // never kept
		row(types.UpdateAfter, int32(2), "b", 4.0),
		row(types.UpdateAfter, int32(2), "b", 5.0))
	h.expect("+I[1, a, 3.0]", "-D[1, a, 3.0]", "+I[2, b, 4.0]", "-U[2, b, 4.0]", "+U[2, b, 5.0]")
}

// table.exec.state.ttl: expired keys start afresh, deletions of them are
// ignored, an unchanged row still emits -U/+U, and the cleanup timer drops
// them silently.
func TestChangelogNormalizeStateTTL(t *testing.T) {
	clock := NewManualClock(time.UnixMilli(1_000_000))
	op, h := newNormalize(t, false, nil, clock, 10*time.Second)
	h.push(0, cnTypes, ins(int32(1), "a", 1.0), ins(int32(2), "b", 2.0))
	h.expect("+I[1, a, 1.0]", "+I[2, b, 2.0]")
	clock.Advance(6 * time.Second)
	h.push(0, cnTypes, row(types.UpdateAfter, int32(1), "a", 1.0))
	h.expect("-U[1, a, 1.0]", "+U[1, a, 1.0]")
	clock.Advance(6 * time.Second)
	h.push(0, cnTypes, row(types.Delete, int32(2), nil, nil), row(types.UpdateAfter, int32(1), "a", 3.0))
	h.expect("-U[1, a, 1.0]", "+U[1, a, 3.0]")
	h.push(0, cnTypes, row(types.UpdateAfter, int32(2), "b", 9.0))
	h.expect("+I[2, b, 9.0]")
	next, ok := op.NextProcessingTime()
	if !ok {
		t.Fatal("no cleanup timer")
	}
	clock.Advance(11 * time.Second)
	if next > clock.Now().UnixMilli() {
		t.Fatalf("cleanup due at %d, after the expiry", next)
	}
	if err := op.OnProcessingTime(clock.Now().UnixMilli()); err != nil {
		t.Fatal(err)
	}
	h.expect()
	if keys, _ := op.StateSize(); keys != 0 {
		t.Errorf("%d keys left after cleanup", keys)
	}
	h.push(0, cnTypes, row(types.UpdateAfter, int32(1), "a", 4.0))
	h.expect("+I[1, a, 4.0]")
}

func TestDropUpdateBefore(t *testing.T) {
	_, h := newHarnessOp(t, &DropUpdateBefore{})
	h.push(0, cnTypes, ins(int32(1), "a", 1.0), row(types.UpdateBefore, int32(1), "a", 1.0),
		row(types.UpdateAfter, int32(1), "b", 2.0), row(types.Delete, int32(1), "b", 2.0))
	h.expect("+I[1, a, 1.0]", "+U[1, b, 2.0]", "-D[1, b, 2.0]")
	h.push(0, cnTypes, row(types.UpdateBefore, int32(1), "a", 1.0))
	h.expect()
}

func newHarnessOp(t *testing.T, op Operator) (Operator, *harness) {
	return op, newHarness(t, op, cnTypes, false, nil)
}

// With mini-batch on, a batch is a bundle: only each key's last row counts,
// keys in the order they first occur.
func TestChangelogNormalizeMiniBatch(t *testing.T) {
	op := &ChangelogNormalize{Keys: []int{0}, KeyTypes: cnTypes[:1], Types: cnTypes}
	h := newHarness(t, op, cnTypes, false, nil, func(c *JobConfig) { c.MiniBatch = true })
	h.push(0, cnTypes, ins(int32(1), "a", 1.0), ins(int32(2), "b", 2.0), row(types.UpdateAfter, int32(1), "c", 3.0))
	h.expect("+I[1, c, 3.0]", "+I[2, b, 2.0]")
	h.push(0, cnTypes, row(types.UpdateAfter, int32(2), "x", 9.0), row(types.Delete, int32(2), nil, nil), row(types.UpdateAfter, int32(1), "d", 4.0))
	h.expect("-D[2, b, 2.0]", "-U[1, c, 3.0]", "+U[1, d, 4.0]")
}
