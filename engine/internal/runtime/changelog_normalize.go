package runtime

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// ChangelogNormalize turns an upsert changelog, or a changelog that may
// repeat events, into a proper changelog keyed on Keys (Flink's
// StreamExecChangelogNormalize, whose function is
// ProcTimeDeduplicateKeepLastRowFunction over a changelog). It keeps the
// last row of every key:
//
//   - +I/+U: the key's first row is emitted as +I; a later row as -U of the
//     kept row (unless NoUpdateBefore) and +U of the new one. A row equal to
//     the kept one emits nothing, unless a state TTL is set (then -U/+U
//     still flow, so that downstream state does not expire too early).
//   - -U/-D: -D of the kept row (the full row: a tombstone may carry only
//     the key), and the key is forgotten; nothing for an unknown key.
//
// With table.exec.mini-batch.enabled only the last row of each key in a
// batch is applied (Flink's mini-batch variant).
//
// With a Condition (a filter Flink pushes into the node) a row that does
// not satisfy it is not kept: a key's first row that fails is dropped, and
// a later one that fails deletes the kept row (-D).
//
// table.exec.state.ttl (JobConfig.StateTTL) expires a key whose state was
// last written TTL or more ago (processing time): its next row starts it
// afresh and a deletion of it is ignored; a cleanup timer drops expired
// keys silently. Only streaming mode plans this operator.
type ChangelogNormalize struct {
	BaseOperator
	// Keys are the key columns; Types all column types (input = output).
	Keys     []int
	KeyTypes []*types.DataType
	Types    []*types.DataType
	// NoUpdateBefore leaves out -U rows (generateUpdateBefore = false, when
	// the consumer takes upserts).
	NoUpdateBefore bool
	// Condition, when set, is the filter pushed into the node.
	Condition expr.Expr

	cond  expr.Evaluator
	eval  *expr.Ctx
	index groupIndex
	n     int32
	rows  [][]any // per key id: the kept row, nil when none
	free  []int32 // key ids to reuse
	live  int64
	ttl   ttlState
}

// Open implements Operator.
func (c *ChangelogNormalize) Open(ctx *OpContext, out Output) error {
	c.BaseOperator.Open(ctx, out)
	c.index = newGroupIndex(c.Keys, c.KeyTypes)
	c.ttl.open(ctx)
	if c.Condition != nil {
		ev, err := expr.Compile(c.Condition)
		if err != nil {
			return err
		}
		c.cond = ev
		e := expr.Ctx{}
		if ctx.Eval != nil {
			e = *ctx.Eval
		}
		c.eval = &e
	}
	return nil
}

// ProcessBatch implements Operator.
func (c *ChangelogNormalize) ProcessBatch(_ int, b *types.Batch) error {
	var pass *array.Boolean
	passConst, constVal := false, false
	if c.cond != nil && b.Len > 0 {
		v, err := c.cond(c.eval, b)
		if err != nil {
			return err
		}
		if v.Const {
			passConst = true
			constVal, _ = v.Val.(bool)
		} else {
			arr, ok := v.Materialize(b.Len).(*array.Boolean)
			if !ok {
				return fmt.Errorf("ChangelogNormalize: the condition %s is not BOOLEAN", c.Condition)
			}
			pass = arr
		}
	}
	passes := func(i int) bool {
		switch {
		case c.cond == nil:
			return true
		case passConst:
			return constVal
		}
		return pass.IsValid(i) && pass.Value(i)
	}
	now := c.ttl.now()
	out := types.NewBatchBuilder(c.Types)
	emit := func(k types.RowKind, vals []any) error { return out.Append(k, vals) }
	sel := c.bundle(b)
	count := b.Len
	if sel != nil {
		count = len(sel)
	}
	for n := 0; n < count; n++ {
		i := n
		if sel != nil {
			i = sel[n]
		}
		kind := b.Kind(i)
		g, found := c.index.find(b, i)
		if found && c.ttl.expired(g, now) {
			c.forget(b, i, g)
			found = false
		}
		var prev []any
		if found {
			prev = c.rows[g]
		}
		if !kind.IsAccumulate() {
			if prev == nil {
				continue // removing a row never kept
			}
			if err := emit(types.Delete, prev); err != nil {
				return err
			}
			c.forget(b, i, g)
			continue
		}
		vals := b.Row(i, c.Types).Values
		if prev == nil {
			if !passes(i) {
				continue
			}
			if err := emit(types.Insert, vals); err != nil {
				return err
			}
			g = c.newKey(b, i)
			c.rows[g] = vals
			c.ttl.write(g, now)
			continue
		}
		if !c.ttl.on() && rowValuesEqual(prev, vals) {
			continue
		}
		if !passes(i) {
			// the row no longer matches: retract the kept one
			if err := emit(types.Delete, prev); err != nil {
				return err
			}
			c.forget(b, i, g)
			continue
		}
		if !c.NoUpdateBefore {
			if err := emit(types.UpdateBefore, prev); err != nil {
				return err
			}
		}
		if err := emit(types.UpdateAfter, vals); err != nil {
			return err
		}
		c.rows[g] = vals
		c.ttl.write(g, now)
	}
	c.Ctx.ReportState(c.StateSize())
	if out.Len() == 0 {
		return nil
	}
	return c.Emit(out.Build())
}

// bundle returns, with table.exec.mini-batch.enabled, the rows of b to
// apply: the last row of each key, keys in the order they first occur
// (Flink's ProcTimeMiniBatchDeduplicateKeepLastRowFunction keeps one row
// per key of a bundle; a batch is a bundle here). nil means every row.
func (c *ChangelogNormalize) bundle(b *types.Batch) []int {
	if !c.Ctx.Config.MiniBatch || b.Len < 2 {
		return nil
	}
	ix := newGroupIndex(c.Keys, c.KeyTypes)
	var last []int
	for i := 0; i < b.Len; i++ {
		g, isNew := ix.lookup(b, i, int32(len(last)))
		if isNew {
			last = append(last, i)
			continue
		}
		last[g] = i
	}
	return last
}

// newKey adds the key of row i of b and returns its id (a freed one when
// there is one).
func (c *ChangelogNormalize) newKey(b *types.Batch, i int) int32 {
	id := c.n
	if k := len(c.free); k > 0 {
		id = c.free[k-1]
		c.free = c.free[:k-1]
	} else {
		c.n++
		c.rows = append(c.rows, nil)
	}
	g, _ := c.index.lookup(b, i, id)
	c.live++
	return g
}

// forget drops key g (the key of row i of b) and its row.
func (c *ChangelogNormalize) forget(b *types.Batch, i int, g int32) {
	c.index.remove(b, i)
	c.rows[g] = nil
	c.live--
	c.free = append(c.free, g)
}

// NextProcessingTime implements ProcessingTimeOperator: the TTL cleanup
// timer.
func (c *ChangelogNormalize) NextProcessingTime() (int64, bool) {
	return c.ttl.next, c.ttl.on() && c.ttl.next > 0
}

// OnProcessingTime drops the keys whose state expired, emitting nothing.
func (c *ChangelogNormalize) OnProcessingTime(now int64) error {
	if !c.ttl.on() || c.ttl.next == 0 || now < c.ttl.next {
		return nil
	}
	next := int64(0)
	c.index.evict(func(g int32) bool {
		if c.ttl.expired(g, now) {
			c.rows[g] = nil
			c.live--
			c.free = append(c.free, g)
			return true
		}
		if due := c.ttl.last[g] + c.ttl.ttl; next == 0 || due < next {
			next = due
		}
		return false
	})
	c.ttl.next = next
	c.Ctx.ReportState(c.StateSize())
	return nil
}

// StateSize implements StateReporter: kept rows and an estimate of their
// bytes.
func (c *ChangelogNormalize) StateSize() (int64, int64) {
	return c.live, c.index.size() + c.live*int64(len(c.Types))*24
}

// DropUpdateBefore removes -U rows from a changelog (Flink's
// StreamExecDropUpdateBefore), for a consumer that takes upserts from a
// source that produces a full changelog.
type DropUpdateBefore struct {
	BaseOperator
}

// ProcessBatch implements Operator.
func (d *DropUpdateBefore) ProcessBatch(_ int, b *types.Batch) error {
	if b.InsertOnly() {
		return d.Emit(b)
	}
	sel := make([]int32, 0, b.Len)
	for i := 0; i < b.Len; i++ {
		if b.Kind(i) != types.UpdateBefore {
			sel = append(sel, int32(i))
		}
	}
	switch len(sel) {
	case b.Len:
		return d.Emit(b)
	case 0:
		return nil
	}
	return d.Emit(TakeRows(b, sel))
}
