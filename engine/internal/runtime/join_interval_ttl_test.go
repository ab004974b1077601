package runtime

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// Rows of the interval join tests: (k BIGINT, t TIMESTAMP(3), v STRING).
var ivTypes = []*types.DataType{types.BigIntType(), types.TimestampType(3), types.StringType()}

func ivJoin(kind opspec.JoinKind, proctime bool) *IntervalJoin {
	return &IntervalJoin{Spec: opspec.JoinSpec{Kind: kind, LeftKeys: []int{0}, RightKeys: []int{0}, LeftTypes: ivTypes, RightTypes: ivTypes},
		LowerBound: -20, UpperBound: 30, LeftTime: 1, RightTime: 1, Proctime: proctime}
}

// setCompactMins sets both compaction thresholds of the joins for the
// test's duration.
func setCompactMins(t *testing.T, rows int64, keys int32) {
	rowMin, keyMin := joinRowCompactMin, joinKeyCompactMin
	t.Cleanup(func() { joinRowCompactMin, joinKeyCompactMin = rowMin, keyMin })
	joinRowCompactMin, joinKeyCompactMin = rows, keys
}

// Keys whose rows the watermark removed leave the interval join's key
// index and their rows its row stores: with every key new, the state
// follows the keys still cached, not every key seen.
func TestIntervalJoinForgetsRemovedKeys(t *testing.T) {
	setCompactMins(t, 64, 64)
	op := ivJoin(opspec.LeftJoin, false)
	outT := append(append([]*types.DataType(nil), ivTypes...), ivTypes...)
	h := newHarness(t, op, outT, false, NewManualClock(time.UnixMilli(0)))
	const keys = 5000
	padded := 0
	for k := int64(0); k < keys; k++ {
		at := 1_000 + k*10
		h.push(0, ivTypes, ins(k, ms(at), "l"))
		if k%2 == 0 { // odd keys find no partner: NULL-padded when removed
			h.push(1, ivTypes, ins(k, ms(at+5), "r"))
		}
		h.watermark(0, at)
		h.watermark(1, at)
		for _, e := range h.out.take() {
			if strings.HasSuffix(e, "null, null, null]") {
				padded++
			}
		}
		if k > 200 {
			// rows live for about 60 ms of watermark: 6 keys; the dead are
			// dropped once they are the majority and at least 64
			if n := op.keys.n; n > 2*64+12 {
				t.Fatalf("after %d keys: %d keys in the index", k+1, n)
			}
			for side := 0; side < 2; side++ {
				if n := op.stores[side].Len(); n > 2*64+12 {
					t.Fatalf("after %d keys: %d rows in side %d's store", k+1, n, side)
				}
			}
		}
	}
	if want := keys/2 - 10; padded < want {
		t.Errorf("%d NULL-padded rows, want at least %d", padded, want)
	}
	if keys, _ := op.StateSize(); keys > 2*64+12 {
		t.Errorf("reported %d keys", keys)
	}
}

// ivWorkload drives an interval join through rotating keys, duplicate
// keys and times out of order, with the watermark (or the processing
// time) advancing, and returns everything it emitted (each step's rows
// sorted).
func ivWorkload(t *testing.T, kind opspec.JoinKind, proctime, compact bool) ([]string, *IntervalJoin) {
	if compact {
		setCompactMins(t, 1, 1)
	} else {
		setCompactMins(t, 1<<62, 1<<30)
	}
	clock := NewManualClock(time.UnixMilli(1_000_000))
	op := ivJoin(kind, proctime)
	outT := append(append([]*types.DataType(nil), ivTypes...), ivTypes...)
	h := newHarness(t, op, outT, false, clock)
	rnd := rand.New(rand.NewSource(5))
	var all []string
	now := int64(10_000)
	for batch := 0; batch < 200; batch++ {
		for side := 0; side < 2; side++ {
			var rows []*types.Row
			for i := 0; i < 4; i++ {
				k := int64(batch/4 + rnd.Intn(6))
				rows = append(rows, ins(k, ms(now+int64(rnd.Intn(40))), fmt.Sprint("v", side, rnd.Intn(3))))
			}
			h.push(side, ivTypes, rows...)
		}
		now += int64(5 + rnd.Intn(20))
		if proctime {
			clock.Advance(time.Duration(5+rnd.Intn(30)) * time.Millisecond)
			fireDue(t, op, clock.Now().UnixMilli())
		} else {
			h.watermark(0, now-10)
			h.watermark(1, now-10)
		}
		// a key that left the index and came back has a new id, which
		// orders timers due at the same time differently: rows of one
		// step are compared as a set
		step := h.out.take()
		sort.Strings(step)
		all = append(all, step...)
	}
	return all, op
}

// Compaction of rows and keys changes no output: the same workload emits
// the same rows with compaction at every opportunity and with none.
func TestIntervalJoinCompactionKeepsResults(t *testing.T) {
	for _, proctime := range []bool{false, true} {
		for _, kind := range []opspec.JoinKind{opspec.InnerJoin, opspec.LeftJoin, opspec.RightJoin, opspec.FullJoin} {
			want, plain := ivWorkload(t, kind, proctime, false)
			got, compacted := ivWorkload(t, kind, proctime, true)
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("kind %v proctime %v: with compaction:\n%s\nwithout:\n%s", kind, proctime, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			rows := 0
			for _, e := range want {
				if !strings.HasPrefix(e, "WM(") {
					rows++
				}
			}
			if rows < 200 {
				t.Fatalf("kind %v proctime %v: only %d rows emitted", kind, proctime, rows)
			}
			if compacted.keys.n*4 > plain.keys.n {
				t.Errorf("kind %v proctime %v: %d keys kept with compaction, %d without", kind, proctime, compacted.keys.n, plain.keys.n)
			}
			if compacted.stores[0].Len()*4 > plain.stores[0].Len() {
				t.Errorf("kind %v proctime %v: %d left rows kept with compaction, %d without", kind, proctime, compacted.stores[0].Len(), plain.stores[0].Len())
			}
		}
	}
}
