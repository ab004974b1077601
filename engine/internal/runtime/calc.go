package runtime

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Calc evaluates an optional filter condition and then a projection over
// whole batches (Flink's Calc). Rows whose condition is not TRUE are
// dropped; RowKinds are carried through.
type Calc struct {
	BaseOperator
	cond  expr.Evaluator
	projs []expr.Evaluator
	// identity projection: pass the filtered batch through
	identity bool
	eval     *expr.Ctx
	wm       int64
	// used marks the input columns the projections read (nil: all); the
	// filter gathers only those.
	used []bool
	// early: every projection is a column reference or ROW field access
	// (free, cannot fail), so the calc projects before filtering and
	// gathers only the projected columns.
	early bool
	// shared are the subexpressions computed once per batch before the
	// condition; shared[j] is read as column width+j
	shared []expr.Evaluator
	width  int
	// memo keeps the values of expensive expressions shared by the filter
	// and the projection (expr.Memoize), which read the batch's row
	// positions rowIDs as the column after the shared ones
	memo   *expr.Memo
	rowIDs arrow.Array
	// conjuncts: a condition that is an AND of several terms is applied
	// one term at a time, each evaluated on the rows the earlier ones
	// kept; termCols[k] marks the input columns term k reads, outCols the
	// columns the projections read (nil: all).
	conjuncts []expr.Evaluator
	termCols  [][]bool
	outCols   []bool
}

// NewCalc compiles a Calc. cond may be nil; projs nil means keep all
// columns unchanged. Subexpressions of the condition and the projections
// worth computing once per batch (expr.ShareSubexpressions: ROW field
// accesses, repeated calls that cannot fail) are computed before the
// condition, on all rows, and read as extra columns; the projections then
// gather only the columns, and fields, they read.
func NewCalc(cond expr.Expr, projs []expr.Expr) (*Calc, error) {
	c := &Calc{identity: projs == nil}
	c.early = projs != nil && cond != nil
	width := 0
	for _, p := range projs {
		if !isFieldAccess(p) {
			c.early = false
		}
		for _, r := range expr.InputRefs(p) {
			width = max(width, r+1)
		}
	}
	if projs != nil && !c.early {
		if cond != nil {
			for _, r := range expr.InputRefs(cond) {
				width = max(width, r+1)
			}
		}
		shared, rewritten := expr.ShareSubexpressions(append([]expr.Expr{cond}, projs...), width)
		for _, e := range shared {
			ev, err := expr.Compile(e)
			if err != nil {
				return nil, err
			}
			c.shared = append(c.shared, ev)
		}
		memo, rewritten := expr.Memoize(rewritten, width+len(shared))
		if len(shared) > 0 || memo != nil {
			c.width, c.memo = width, memo
			cond, projs = rewritten[0], rewritten[1:]
		}
	}
	if cond != nil {
		ev, err := expr.Compile(cond)
		if err != nil {
			return nil, err
		}
		c.cond = ev
		if terms := conjuncts(cond, nil); len(terms) > 1 {
			if err := c.compileConjuncts(terms, projs); err != nil {
				return nil, err
			}
		}
	}
	maxRef := -1
	for _, p := range projs {
		ev, err := expr.Compile(p)
		if err != nil {
			return nil, err
		}
		c.projs = append(c.projs, ev)
		for _, r := range expr.InputRefs(p) {
			maxRef = max(maxRef, r)
		}
	}
	if projs != nil {
		c.used = make([]bool, maxRef+1)
		for _, p := range projs {
			for _, r := range expr.InputRefs(p) {
				c.used[r] = true
			}
		}
	}
	return c, nil
}

// rowPositions returns an INT column 0..n-1 (kept between batches).
func (c *Calc) rowPositions(n int) arrow.Array {
	if c.rowIDs == nil || c.rowIDs.Len() < n {
		ids := make([]int32, max(n, 1024))
		for i := range ids {
			ids[i] = int32(i)
		}
		c.rowIDs = vector.FromValues(arrow.PrimitiveTypes.Int32, ids, nil, 0)
	}
	if c.rowIDs.Len() == n {
		return c.rowIDs
	}
	return array.NewSlice(c.rowIDs, 0, int64(n))
}

// conjuncts appends the terms of a chain of ANDs (e itself when it is not
// an AND).
func conjuncts(e expr.Expr, out []expr.Expr) []expr.Expr {
	if call, ok := e.(*expr.Call); ok && call.Name == "AND" {
		for _, a := range call.Args {
			out = conjuncts(a, out)
		}
		return out
	}
	return append(out, e)
}

// compileConjuncts prepares the term-by-term filter: WHERE a AND b keeps
// the rows where both are TRUE, so the rows where a is not TRUE can be
// dropped before b is evaluated. Terms are applied in written order, so b
// is evaluated only on the rows a keeps (the lazy AND also skips rows
// where a is FALSE; here rows where a is NULL are skipped as well).
func (c *Calc) compileConjuncts(terms, projs []expr.Expr) error {
	c.conjuncts = make([]expr.Evaluator, len(terms))
	for k, t := range terms {
		ev, err := expr.Compile(t)
		if err != nil {
			return err
		}
		c.conjuncts[k] = ev
	}
	c.termCols = make([][]bool, len(terms))
	for k, t := range terms {
		c.termCols[k] = refMask(expr.InputRefs(t))
	}
	if projs != nil {
		var refs []int
		for _, p := range projs {
			refs = append(refs, expr.InputRefs(p)...)
		}
		c.outCols = refMask(refs)
	}
	return nil
}

// refMask marks the column indexes refs.
func refMask(refs []int) []bool {
	n := 0
	for _, r := range refs {
		n = max(n, r+1)
	}
	mask := make([]bool, n)
	for _, r := range refs {
		mask[r] = true
	}
	return mask
}

// filterConjuncts applies the terms of the condition one after the other
// (see compileConjuncts). It tracks the kept rows as a selection of b:
// each later term sees only its own columns gathered at the rows kept so
// far, and the columns the projections read are gathered once at the end.
// The result keeps the input's column positions, with nil for the columns
// the projections do not read.
func (c *Calc) filterConjuncts(ctx *expr.Ctx, b *types.Batch) (*types.Batch, error) {
	var sel []int32 // rows of b kept so far; nil: all
	for k, term := range c.conjuncts {
		cur := b
		if sel != nil {
			cur = gatherColumns(b, sel, c.termCols[k])
		}
		pred, err := term(ctx, cur)
		if err != nil {
			return nil, err
		}
		if pred.Const {
			if v, ok := pred.Val.(bool); ok && v {
				continue
			}
			sel = []int32{}
			break
		}
		kept, all := vector.SelectionFromBools(pred.Arr)
		if all {
			continue
		}
		if sel != nil {
			for i, j := range kept {
				kept[i] = sel[j]
			}
		}
		sel = kept
		if len(sel) == 0 {
			break
		}
	}
	out := b
	if c.outCols != nil {
		out = &types.Batch{Cols: make([]arrow.Array, len(b.Cols)), Kinds: b.Kinds, Len: b.Len}
		for i, col := range b.Cols {
			if i < len(c.outCols) && c.outCols[i] {
				out.Cols[i] = col
			}
		}
	}
	if sel == nil {
		return out, nil
	}
	return TakeRows(out, sel), nil
}

// gatherColumns returns rows sel of b with only the columns marked in
// cols (the others nil) and the rows' kinds.
func gatherColumns(b *types.Batch, sel []int32, cols []bool) *types.Batch {
	out := &types.Batch{Cols: make([]arrow.Array, len(b.Cols)), Len: len(sel)}
	for i, col := range b.Cols {
		if i < len(cols) && cols[i] && col != nil {
			out.Cols[i] = vector.Take(col, sel)
		}
	}
	if b.Kinds != nil {
		out.Kinds = make([]types.RowKind, len(sel))
		for i, j := range sel {
			out.Kinds[i] = b.Kinds[j]
		}
	}
	return out
}

// isFieldAccess reports whether e is a column reference or a chain of ROW
// field accesses on one.
func isFieldAccess(e expr.Expr) bool {
	switch x := e.(type) {
	case *expr.InputRef:
		return true
	case *expr.Call:
		if x.Name == "GET_FIELD" && len(x.Args) == 2 {
			_, lit := x.Args[1].(*expr.Literal)
			return lit && isFieldAccess(x.Args[0])
		}
	}
	return false
}

// Open implements Operator: the calc evaluates with its own expression
// context, which knows its input watermark (CURRENT_WATERMARK) and the
// job's clock (PROCTIME).
func (c *Calc) Open(ctx *OpContext, out Output) error {
	c.BaseOperator.Open(ctx, out)
	c.wm = MinWatermark
	ev := expr.Ctx{}
	if ctx.Eval != nil {
		ev = *ctx.Eval
	}
	clock := ctx.Config.clock()
	ev.Now = clock.Now
	ev.Watermark = func() (int64, bool) { return c.wm, c.wm != MinWatermark }
	c.eval = &ev
	return nil
}

// ProcessWatermark records and forwards the watermark.
func (c *Calc) ProcessWatermark(_ int, wm int64) error {
	if wm > c.wm {
		c.wm = wm
	}
	return c.Out.EmitWatermark(wm)
}

// ReuseOutput implements outputReuser: the Calc's kernels take their
// result buffers from a Scratch it resets before each batch (expr.Scratch).
func (c *Calc) ReuseOutput() { c.eval.Scratch = &expr.Scratch{} }

// ProcessBatch implements Operator.
func (c *Calc) ProcessBatch(_ int, b *types.Batch) error {
	if s := c.eval.Scratch; s != nil {
		// the consumer has returned from the last batch's Emit
		s.Reset()
	}
	out, err := c.Apply(c.eval, b)
	if err != nil || out.Len == 0 {
		return err
	}
	return c.Emit(out)
}

// Apply runs the calc on one batch. A result without rows may lack the
// output's columns.
func (c *Calc) Apply(ctx *expr.Ctx, b *types.Batch) (*types.Batch, error) {
	if c.width > 0 {
		ext := &types.Batch{Cols: make([]arrow.Array, c.width+len(c.shared), c.width+len(c.shared)+1), Kinds: b.Kinds, Len: b.Len}
		copy(ext.Cols, b.Cols[:min(len(b.Cols), c.width)])
		for j, ev := range c.shared {
			v, err := ev(ctx, b)
			if err != nil {
				return nil, err
			}
			ext.Cols[c.width+j] = v.Materialize(b.Len)
		}
		if c.memo != nil {
			c.memo.Reset(b.Len)
			ext.Cols = append(ext.Cols, c.rowPositions(b.Len))
		}
		b = ext
	}
	if c.conjuncts != nil {
		var err error
		if b, err = c.filterConjuncts(ctx, b); err != nil || b.Len == 0 {
			return b, err
		}
	} else if c.cond != nil {
		pred, err := c.cond(ctx, b)
		if err != nil {
			return nil, err
		}
		if c.early {
			cols := make([]arrow.Array, len(c.projs))
			for i, p := range c.projs {
				v, err := p(ctx, b)
				if err != nil {
					return nil, err
				}
				cols[i] = v.Materialize(b.Len)
			}
			return FilterBatch(&types.Batch{Cols: cols, Kinds: b.Kinds, Len: b.Len}, pred), nil
		}
		if c.used != nil {
			// gather only the columns the projections read
			view := &types.Batch{Cols: make([]arrow.Array, len(b.Cols)), Kinds: b.Kinds, Len: b.Len}
			for i, col := range b.Cols {
				if i < len(c.used) && c.used[i] {
					view.Cols[i] = col
				}
			}
			b = view
		}
		b = FilterBatch(b, pred)
		if b.Len == 0 {
			return b, nil
		}
	}
	if c.identity {
		return b, nil
	}
	cols := make([]arrow.Array, len(c.projs))
	for i, p := range c.projs {
		v, err := p(ctx, b)
		if err != nil {
			return nil, err
		}
		cols[i] = v.Materialize(b.Len)
	}
	return &types.Batch{Cols: cols, Kinds: b.Kinds, Len: b.Len}, nil
}

// FilterBatch keeps the rows where pred is TRUE.
func FilterBatch(b *types.Batch, pred *expr.Vec) *types.Batch {
	if pred.Const {
		if v, ok := pred.Val.(bool); ok && v {
			return b
		}
		return &types.Batch{Cols: emptyCols(b.Cols), Len: 0}
	}
	sel, all := vector.SelectionFromBools(pred.Arr)
	if all {
		return b
	}
	return TakeRows(b, sel)
}

// TakeRows gathers rows sel of b.
func TakeRows(b *types.Batch, sel []int32) *types.Batch {
	cols := make([]arrow.Array, len(b.Cols))
	for i, c := range b.Cols {
		if c != nil {
			cols[i] = vector.Take(c, sel)
		}
	}
	var kinds []types.RowKind
	if b.Kinds != nil {
		kinds = make([]types.RowKind, len(sel))
		for i, s := range sel {
			kinds[i] = b.Kinds[s]
		}
	}
	return &types.Batch{Cols: cols, Kinds: kinds, Len: len(sel)}
}

func emptyCols(cols []arrow.Array) []arrow.Array {
	out := make([]arrow.Array, len(cols))
	for i, c := range cols {
		if c != nil {
			out[i] = vector.Take(c, nil)
		}
	}
	return out
}

func floorDivInt(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// Union forwards batches of every input and emits the minimum of its
// inputs' watermarks (UNION ALL).
type Union struct {
	BaseOperator
	wms *WatermarkTracker
}

// NewUnion creates a union of n inputs.
func NewUnion(n int) *Union { return &Union{wms: NewWatermarkTracker(n)} }

// ProcessBatch implements Operator.
func (u *Union) ProcessBatch(_ int, b *types.Batch) error { return u.Emit(b) }

// ProcessWatermark implements Operator.
func (u *Union) ProcessWatermark(in int, wm int64) error {
	if m, ok := u.wms.Update(in, wm); ok {
		return u.Out.EmitWatermark(m)
	}
	return nil
}

// SetInputIdle implements InputIdler.
func (u *Union) SetInputIdle(in int, idle bool) error {
	if m, ok := u.wms.SetIdle(in, idle); ok {
		return u.Out.EmitWatermark(m)
	}
	return nil
}

// WatermarkTracker combines per-input watermarks by minimum, ignoring
// idle inputs.
type WatermarkTracker struct {
	wms  []int64
	idle []bool
	cur  int64
}

// NewWatermarkTracker tracks n inputs.
func NewWatermarkTracker(n int) *WatermarkTracker {
	t := &WatermarkTracker{wms: make([]int64, n), idle: make([]bool, n), cur: MinWatermark}
	for i := range t.wms {
		t.wms[i] = MinWatermark
	}
	return t
}

// Update records input in's watermark and returns the combined minimum
// and whether it advanced.
func (t *WatermarkTracker) Update(in int, wm int64) (int64, bool) {
	if wm > t.wms[in] {
		t.wms[in] = wm
	}
	return t.recompute()
}

// SetIdle marks input in idle (ignored by the minimum) or active; it
// returns the combined watermark and whether it advanced.
func (t *WatermarkTracker) SetIdle(in int, idle bool) (int64, bool) {
	t.idle[in] = idle
	return t.recompute()
}

func (t *WatermarkTracker) recompute() (int64, bool) {
	m, any := MaxWatermark, false
	for i, w := range t.wms {
		if t.idle[i] {
			continue
		}
		any = true
		if w < m {
			m = w
		}
	}
	if !any {
		// every input idle: flush the maximum (StatusWatermarkValve)
		m = MinWatermark
		for _, w := range t.wms {
			m = max(m, w)
		}
		any = len(t.wms) > 0
	}
	if any && m > t.cur {
		t.cur = m
		return m, true
	}
	return t.cur, false
}

// Current is the combined watermark.
func (t *WatermarkTracker) Current() int64 { return t.cur }
