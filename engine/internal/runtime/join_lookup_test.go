package runtime

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// fakeLookuper answers from a map of key -> names and records each key
// asked.
type fakeLookuper struct {
	rows   map[int64][]string
	asked  []string
	closed int
}

func (l *fakeLookuper) Lookup(_ context.Context, key []any) (*types.Batch, error) {
	k := key[0].(int64)
	l.asked = append(l.asked, fmt.Sprint(k))
	bb := types.NewBatchBuilder([]*types.DataType{types.BigIntType(), types.StringType()})
	for _, n := range l.rows[k] {
		if err := bb.Append(types.Insert, []any{k, n}); err != nil {
			return nil, err
		}
	}
	return bb.Build(), nil
}

func (l *fakeLookuper) Close() error { l.closed++; return nil }

func (l *fakeLookuper) takeAsked() string {
	s := strings.Join(l.asked, " ")
	l.asked = nil
	return s
}

// The join looks up each distinct key of a batch once, NULL keys never;
// the cache answers until its entries expire by the job's clock; a left
// join pads missing keys with NULLs; the calc on the temporal table
// (a filter on the looked-up rows) applies before the join.
func TestSourceLookupJoinCache(t *testing.T) {
	lk := &fakeLookuper{rows: map[int64][]string{1: {"one", "uno"}, 2: {"two"}}}
	clk := NewManualClock(time.Unix(1000, 0))
	in := []*types.DataType{types.StringType(), types.BigIntType()}
	out := []*types.DataType{types.StringType(), types.BigIntType(), types.StringType()}
	right := []*types.DataType{types.BigIntType(), types.StringType()}
	f, _ := expr.Builtins.Lookup("<>")
	filter, err := expr.ResolveCall(f, "<>", []expr.Expr{&expr.InputRef{Index: 1, T: types.StringType()}, expr.NewLiteral("uno", types.StringType())})
	if err != nil {
		t.Fatal(err)
	}
	op := &SourceLookupJoin{Kind: opspec.LeftJoin, NumLeft: 1, KeyCols: []int{1}, KeyTypes: []*types.DataType{types.BigIntType()},
		RightFilter: filter, RightTypes: right, Table: "dim",
		Cache:        &connector.LookupCacheConfig{MaxRows: 10, ExpireAfterWriteMillis: 60_000, CacheMissingKey: true},
		OpenLookuper: func(context.Context) (connector.Lookuper, error) { return lk, nil }}
	h := newHarness(t, op, out, false, clk)
	h.push(0, in, types.NewRow("a", int64(1)), types.NewRow("b", int64(2)), types.NewRow("c", int64(1)),
		types.NewRow("d", nil), types.NewRow("e", int64(3)))
	if got := strings.Join(h.out.take(), " "); got != "+I[a, 1, one] +I[b, 2, two] +I[c, 1, one] +I[d, null, null] +I[e, null, null]" {
		t.Fatalf("rows %s", got)
	}
	if got := lk.takeAsked(); got != "1 2 3" {
		t.Fatalf("asked %q, want each non-NULL key once", got)
	}
	// a minute less a millisecond later the cache answers every key,
	// the missing one too
	clk.Advance(59_999 * time.Millisecond)
	h.push(0, in, types.NewRow("f", int64(3)), types.NewRow("g", int64(2)))
	if got := strings.Join(h.out.take(), " "); got != "+I[f, null, null] +I[g, 2, two]" {
		t.Fatalf("rows %s", got)
	}
	if got := lk.takeAsked(); got != "" {
		t.Fatalf("asked %q, want the cache to answer", got)
	}
	// then the entries expire and the source is asked again
	lk.rows[3] = []string{"three"}
	clk.Advance(time.Millisecond)
	h.push(0, in, types.NewRow("h", int64(3)), types.NewRow("i", int64(1)))
	if got := strings.Join(h.out.take(), " "); got != "+I[h, 3, three] +I[i, 1, one]" {
		t.Fatalf("rows %s", got)
	}
	if got := lk.takeAsked(); got != "3 1" {
		t.Fatalf("asked %q after expiry", got)
	}
	hits, misses, loads := op.CacheStats()
	if hits != 2 || misses != 5 || loads != 5 {
		t.Fatalf("hits %d misses %d loads %d, want 2, 5, 5", hits, misses, loads)
	}
	if m := h.ctx.Metrics; m.LookupHits.Load() != 2 || m.LookupMisses.Load() != 5 || m.LookupLoads.Load() != 5 {
		t.Fatalf("metrics: hits %d misses %d loads %d", m.LookupHits.Load(), m.LookupMisses.Load(), m.LookupLoads.Load())
	}
	if err := op.Close(); err != nil || lk.closed != 1 {
		t.Fatalf("close: %v, closed %d times", err, lk.closed)
	}
}

// An inner join without a cache looks a key up again in every batch and
// keeps only pairs that satisfy the residual condition.
func TestSourceLookupJoinResidual(t *testing.T) {
	lk := &fakeLookuper{rows: map[int64][]string{1: {"one", "uno"}}}
	in := []*types.DataType{types.StringType(), types.BigIntType()}
	out := []*types.DataType{types.StringType(), types.BigIntType(), types.StringType()}
	f, _ := expr.Builtins.Lookup("=")
	// left column 0 (a name) equals the right name (column 2 of left+right)
	res, err := expr.ResolveCall(f, "=", []expr.Expr{&expr.InputRef{Index: 0, T: types.StringType()}, &expr.InputRef{Index: 2, T: types.StringType()}})
	if err != nil {
		t.Fatal(err)
	}
	op := &SourceLookupJoin{Kind: opspec.InnerJoin, NumLeft: 1, KeyCols: []int{1}, KeyTypes: []*types.DataType{types.BigIntType()},
		RightTypes: []*types.DataType{types.BigIntType(), types.StringType()}, Residual: res, Table: "dim",
		OpenLookuper: func(context.Context) (connector.Lookuper, error) { return lk, nil }}
	h := newHarness(t, op, out, false, NewManualClock(time.Unix(0, 0)))
	h.push(0, in, types.NewRow("uno", int64(1)), types.NewRow("x", int64(1)))
	h.push(0, in, types.NewRow("one", int64(1)))
	if got := strings.Join(h.out.take(), " "); got != "+I[uno, 1, uno] +I[one, 1, one]" {
		t.Fatalf("rows %s", got)
	}
	if got := lk.takeAsked(); got != "1 1" {
		t.Fatalf("asked %q, want once per batch", got)
	}
}
