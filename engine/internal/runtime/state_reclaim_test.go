package runtime

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// Expired state leaves memory (issue 18): GroupAgg reuses the ids of
// removed groups, the streaming join forgets keys no row holds any more.

// fireDue runs the operator's cleanup timer when it is due, as the job's
// timer loop does.
func fireDue(t testing.TB, op ProcessingTimeOperator, now int64) {
	t.Helper()
	if next, ok := op.NextProcessingTime(); ok && next <= now {
		if err := op.OnProcessingTime(now); err != nil {
			t.Fatal(err)
		}
	}
}

func sumAggOp() *GroupAgg {
	return &GroupAgg{Keys: []int{0}, KeyTypes: []*types.DataType{types.StringType()},
		Aggs:        []opspec.AggSpec{{Func: "SUM", Args: []int{1}, ArgTypes: []*types.DataType{types.IntType()}, Filter: -1, Type: types.IntType()}},
		OutTypes:    []*types.DataType{types.StringType(), types.IntType()},
		Retractable: true}
}

// A group dropped by the cleanup timer gives its id to the next new group;
// the key that comes back starts afresh (+I), a retraction for it is
// ignored and does not touch the group now holding its old id.
func TestGroupAggTTLReusesExpiredIDs(t *testing.T) {
	for _, miniBatch := range []bool{false, true} {
		clock := NewManualClock(time.UnixMilli(1_000_000))
		op := sumAggOp()
		h := newHarness(t, op, op.OutTypes, false, clock, func(c *JobConfig) {
			c.StateTTL = 2 * time.Second
			c.MiniBatch = miniBatch
		})
		in := []*types.DataType{types.StringType(), types.IntType()}
		h.push(0, in, ins("a", int32(1)), ins("b", int32(2)))
		h.expect("+I[a, 1]", "+I[b, 2]")
		clock.Advance(3 * time.Second)
		fireDue(t, op, clock.Now().UnixMilli())
		h.expect()
		if keys, _ := op.StateSize(); keys != 0 || len(op.free) != 2 {
			t.Fatalf("mini-batch %v: %d groups, %d free ids after cleanup; want 0, 2", miniBatch, keys, len(op.free))
		}
		// new keys take the freed ids: no new id is numbered
		h.push(0, in, ins("c", int32(10)), ins("d", int32(20)))
		h.expect("+I[c, 10]", "+I[d, 20]")
		// a retraction for the expired a is ignored; a comes back afresh
		h.push(0, in, row(types.UpdateBefore, "a", int32(1)), ins("a", int32(5)))
		h.expect("+I[a, 5]")
		h.push(0, in, ins("c", int32(1)), row(types.Delete, "d", int32(20)))
		h.expect("-U[c, 10]", "+U[c, 11]", "-D[d, 20]")
		if op.nGroups != 3 {
			t.Errorf("mini-batch %v: %d ids numbered for at most 3 live groups", miniBatch, op.nGroups)
		}
		// d emptied by its retraction: its id is free again, d restarts
		h.push(0, in, ins("d", int32(7)))
		h.expect("+I[d, 7]")
		if op.nGroups != 3 {
			t.Errorf("mini-batch %v: %d ids numbered for at most 3 live groups", miniBatch, op.nGroups)
		}
	}
}

// aggWorkload drives a GROUP BY through rotating keys with retractions,
// time passing and the cleanup timer, and returns everything it emitted.
func aggWorkload(t *testing.T, miniBatch, noReuse bool, aggs []opspec.AggSpec, outTypes []*types.DataType) ([]string, *GroupAgg) {
	clock := NewManualClock(time.UnixMilli(1_000_000))
	op := &GroupAgg{Keys: []int{0}, KeyTypes: []*types.DataType{types.StringType()}, Aggs: aggs,
		OutTypes: outTypes, Retractable: true, noReuse: noReuse}
	h := newHarness(t, op, outTypes, false, clock, func(c *JobConfig) {
		c.StateTTL = time.Second
		c.MiniBatch = miniBatch
	})
	in := []*types.DataType{types.StringType(), types.IntType()}
	rnd := rand.New(rand.NewSource(7))
	type rec struct {
		k string
		v int32
	}
	var live []rec
	var all []string
	for batch := 0; batch < 400; batch++ {
		var rows []*types.Row
		for i := 0; i < 8; i++ {
			switch r := rnd.Intn(10); {
			case r < 3 && len(live) > 0:
				// retract a row inserted earlier (maybe expired meanwhile)
				x := rnd.Intn(len(live))
				rows = append(rows, row(types.Delete, live[x].k, live[x].v))
				live = append(live[:x], live[x+1:]...)
			default:
				// keys rotate: a window of 12 keys moves on every 20 batches
				k := fmt.Sprint("k", batch/20+rnd.Intn(12))
				v := int32(rnd.Intn(50))
				rows = append(rows, ins(k, v))
				live = append(live, rec{k, v})
			}
		}
		h.push(0, in, rows...)
		clock.Advance(time.Duration(50+rnd.Intn(100)) * time.Millisecond)
		fireDue(t, op, clock.Now().UnixMilli())
		all = append(all, h.out.take()...)
	}
	return all, op
}

// Reusing ids changes nothing in the output: the same workload with and
// without reuse emits the same rows, for aggregates with per-group state
// of every shape (sums, retractable MAX, COUNT DISTINCT, variance, lists).
func TestGroupAggIDReuseKeepsResults(t *testing.T) {
	intT := []*types.DataType{types.IntType()}
	aggs := []opspec.AggSpec{
		{Func: "SUM", Args: []int{1}, ArgTypes: intT, Filter: -1, Type: types.IntType()},
		{Func: "MAX", Args: []int{1}, ArgTypes: intT, Filter: -1, Type: types.IntType()},
		{Func: "COUNT", Args: []int{1}, ArgTypes: intT, Distinct: true, Filter: -1, Type: types.BigIntType().NotNull()},
		{Func: "VAR_POP", Args: []int{1}, ArgTypes: intT, Filter: -1, Type: types.IntType()},
		{Func: "COLLECT", Args: []int{1}, ArgTypes: intT, Filter: -1, Type: types.MultisetType(types.IntType())},
	}
	out := []*types.DataType{types.StringType(), types.IntType(), types.IntType(), types.BigIntType().NotNull(), types.IntType(), types.MultisetType(types.IntType())}
	for _, miniBatch := range []bool{false, true} {
		want, plain := aggWorkload(t, miniBatch, true, aggs, out)
		got, reuse := aggWorkload(t, miniBatch, false, aggs, out)
		if !reuse.reuse || plain.reuse {
			t.Fatalf("reuse on %v / off %v", reuse.reuse, plain.reuse)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("mini-batch %v: with id reuse:\n%s\nwithout:\n%s", miniBatch, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if len(want) < 500 {
			t.Fatalf("only %d rows emitted", len(want))
		}
		if reuse.nGroups*3 > plain.nGroups {
			t.Errorf("mini-batch %v: %d ids with reuse, %d without", miniBatch, reuse.nGroups, plain.nGroups)
		}
	}
}

// joinWorkload drives a streaming join through rotating keys with
// retractions, time passing and the cleanup timer; compact sets the
// compaction thresholds to 1 (compact whenever the dead are the majority)
// or out of reach.
func joinWorkload(t *testing.T, kind opspec.JoinKind, compact bool) ([]string, *StreamingJoin) {
	rowMin, keyMin := joinRowCompactMin, joinKeyCompactMin
	defer func() { joinRowCompactMin, joinKeyCompactMin = rowMin, keyMin }()
	if compact {
		joinRowCompactMin, joinKeyCompactMin = 1, 1
	} else {
		joinRowCompactMin, joinKeyCompactMin = 1<<62, 1<<30
	}
	clock := NewManualClock(time.UnixMilli(5_000_000))
	spec := opspec.JoinSpec{Kind: kind, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: joinLeft, RightTypes: joinRight}
	op := &StreamingJoin{Spec: spec}
	outT := joinOut
	if kind == opspec.SemiJoin || kind == opspec.AntiJoin {
		outT = joinLeft
	}
	h := newHarness(t, op, outT, false, clock, func(c *JobConfig) { c.StateTTL = time.Second })
	rnd := rand.New(rand.NewSource(11))
	type rec struct {
		k int32
		v string
	}
	var live [2][]rec
	var all []string
	for batch := 0; batch < 300; batch++ {
		for side := 0; side < 2; side++ {
			var rows []*types.Row
			for i := 0; i < 5; i++ {
				if rnd.Intn(10) < 3 && len(live[side]) > 0 {
					x := rnd.Intn(len(live[side]))
					rows = append(rows, row(types.Delete, live[side][x].k, live[side][x].v))
					live[side] = append(live[side][:x], live[side][x+1:]...)
					continue
				}
				k := int32(batch/3 + rnd.Intn(8))
				v := fmt.Sprint("v", rnd.Intn(3))
				rows = append(rows, ins(k, v))
				live[side] = append(live[side], rec{k, v})
			}
			h.push(side, joinLeft, rows...)
		}
		clock.Advance(time.Duration(40+rnd.Intn(80)) * time.Millisecond)
		fireDue(t, op, clock.Now().UnixMilli())
		all = append(all, h.out.take()...)
	}
	return all, op
}

// Compaction of rows and keys keeps the live state exact: the same
// workload emits the same rows with compaction at every opportunity and
// with none, for every kind of streaming join.
func TestStreamingJoinCompactionKeepsResults(t *testing.T) {
	for _, kind := range []opspec.JoinKind{opspec.InnerJoin, opspec.LeftJoin, opspec.RightJoin, opspec.FullJoin, opspec.SemiJoin, opspec.AntiJoin} {
		want, plain := joinWorkload(t, kind, false)
		got, compacted := joinWorkload(t, kind, true)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("kind %v: with compaction:\n%s\nwithout:\n%s", kind, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		if len(want) < 300 {
			t.Fatalf("kind %v: only %d rows emitted", kind, len(want))
		}
		keys, _ := compacted.StateSize()
		plainKeys, _ := plain.StateSize()
		if keys*4 > plainKeys {
			t.Errorf("kind %v: %d keys kept with compaction, %d without", kind, keys, plainKeys)
		}
	}
}

// A join key whose rows all expired leaves the key index; when it comes
// back it starts afresh (no partner, NULL-padded in a left join).
func TestStreamingJoinExpiredKeysLeave(t *testing.T) {
	keyMin := joinKeyCompactMin
	defer func() { joinKeyCompactMin = keyMin }()
	joinKeyCompactMin = 1
	clock := NewManualClock(time.UnixMilli(5_000_000))
	spec := opspec.JoinSpec{Kind: opspec.LeftJoin, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: joinLeft, RightTypes: joinRight}
	op := &StreamingJoin{Spec: spec}
	h := newHarness(t, op, joinOut, false, clock, func(c *JobConfig) { c.StateTTL = 2 * time.Second })
	h.push(1, joinRight, ins(int32(1), "m"), ins(int32(2), "n"))
	h.push(0, joinLeft, ins(int32(1), "x"))
	h.expect("+I[1, x, 1, m]")
	clock.Advance(time.Second)
	h.push(0, joinLeft, ins(int32(3), "y"))
	h.expect("+I[3, y, null, null]")
	clock.Advance(1500 * time.Millisecond)
	fireDue(t, op, clock.Now().UnixMilli())
	// keys 1 and 2 are gone, 3 lives
	if keys, _ := op.StateSize(); keys != 1 {
		t.Fatalf("%d keys after cleanup, want 1", keys)
	}
	h.push(0, joinLeft, ins(int32(1), "z"))
	h.expect("+I[1, z, null, null]")
	h.push(1, joinRight, ins(int32(3), "o"), ins(int32(1), "p"))
	h.expect("-D[3, y, null, null]", "+I[3, y, 3, o]", "-D[1, z, null, null]", "+I[1, z, 1, p]")
	if keys, _ := op.StateSize(); keys != 2 {
		t.Fatalf("%d keys, want 2", keys)
	}
}
