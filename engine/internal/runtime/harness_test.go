package runtime

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// testOutput records what an operator emits: rows as "+I[a, b]" strings
// and watermarks as "WM(n)".
type testOutput struct {
	ts     []*types.DataType
	events []string
	// lens are the rows of each batch emitted
	lens []int
}

func (o *testOutput) Emit(b *types.Batch) error {
	o.lens = append(o.lens, b.Len)
	for _, r := range b.Rows(o.ts) {
		o.events = append(o.events, r.String())
	}
	return nil
}

func (o *testOutput) EmitWatermark(wm int64) error {
	o.events = append(o.events, fmt.Sprintf("WM(%d)", wm))
	return nil
}

// rows returns the recorded rows (no watermarks) and clears them.
func (o *testOutput) take() []string {
	out := o.events
	o.events = nil
	return out
}

// harness drives one operator instance.
type harness struct {
	t   *testing.T
	op  Operator
	out *testOutput
	ctx *OpContext
}

func newHarness(t *testing.T, op Operator, outTypes []*types.DataType, batch bool, clock Clock, tweak ...func(*JobConfig)) *harness {
	t.Helper()
	cfg := DefaultJobConfig()
	cfg.Clock = clock
	for _, f := range tweak {
		f(&cfg)
	}
	m := newMetrics(0, "test")
	ctx := &OpContext{Ctx: context.Background(), Eval: &expr.Ctx{Zone: time.UTC, Start: time.Now()}, Metrics: m, Batch: batch, Config: cfg, Parallel: 1}
	out := &testOutput{ts: outTypes}
	if err := op.Open(ctx, out); err != nil {
		t.Fatal(err)
	}
	return &harness{t: t, op: op, out: out, ctx: ctx}
}

// push sends rows (each a kind and values) to input in.
func (h *harness) push(in int, ts []*types.DataType, rows ...*types.Row) {
	h.t.Helper()
	bb := types.NewBatchBuilder(ts)
	for _, r := range rows {
		if err := bb.AppendRow(r); err != nil {
			h.t.Fatal(err)
		}
	}
	if err := h.op.ProcessBatch(in, bb.Build()); err != nil {
		h.t.Fatal(err)
	}
}

func (h *harness) watermark(in int, wm int64) {
	h.t.Helper()
	if err := h.op.ProcessWatermark(in, wm); err != nil {
		h.t.Fatal(err)
	}
}

// expect compares the emitted events since the last expect.
func (h *harness) expect(want ...string) {
	h.t.Helper()
	got := h.out.take()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		h.t.Fatalf("emitted:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func row(kind types.RowKind, vals ...any) *types.Row { return types.NewRowWithKind(kind, vals...) }

func ins(vals ...any) *types.Row { return row(types.Insert, vals...) }

// ms is a TIMESTAMP(3) value at the given epoch millisecond.
func ms(v int64) time.Time { return time.UnixMilli(v).UTC() }
