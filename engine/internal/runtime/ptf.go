package runtime

import (
	"fmt"
	"sort"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// ProcessTableFunction runs a process table function (Flink's
// ProcessTableOperator): Eval for every input row (once in all without a
// table argument), with the state and timers of the row's partition
// (set semantics; rows arrive hashed by the partition keys). Timers fire,
// in time order, when the watermark reaches them; the watermark is
// forwarded after them. Each output row is the partition keys (or, with
// pass-through, every input column), the values the function collected,
// and, with on_time, the rowtime: the input row's time in Eval, the
// timer's in OnTimer. As in Flink, rows and timers at or before the
// watermark are dropped (late). State and timers are part of checkpoints.
type ProcessTableFunction struct {
	BaseOperator
	Spec     *opspec.PTFSpec
	InTypes  []*types.DataType
	OutTypes []*types.DataType

	fn       expr.ProcessTableFunction
	timerFn  expr.PTFTimerFunction
	keyTypes []*types.DataType
	names    []string
	stateIdx map[string]int
	parts    map[string]*ptfPartition
	wm       int64
	timerSeq int64
	out      *types.BatchBuilder
	outRows  int
	scalars  map[string]any
}

// ptfPartition is the state of one partition key.
type ptfPartition struct {
	key     []any
	ks      string
	state   []any
	named   map[string]ptfTimer
	unnamed []ptfTimer
}

type ptfTimer struct {
	at, seq int64
}

func (p *ptfPartition) empty() bool {
	if len(p.named) > 0 || len(p.unnamed) > 0 {
		return false
	}
	for _, v := range p.state {
		if v != nil {
			return false
		}
	}
	return true
}

// Open implements Operator.
func (o *ProcessTableFunction) Open(ctx *OpContext, out Output) error {
	o.BaseOperator.Open(ctx, out)
	o.fn = o.Spec.Def.New()
	if o.fn == nil {
		return fmt.Errorf("process table function %s: New returned nil", o.Spec.Name)
	}
	o.timerFn, _ = o.fn.(expr.PTFTimerFunction)
	o.keyTypes = nil
	for _, k := range o.Spec.PartitionKeys {
		o.keyTypes = append(o.keyTypes, o.InTypes[k])
	}
	o.stateIdx = map[string]int{}
	for i, s := range o.Spec.Def.State {
		o.stateIdx[s.Name] = i
	}
	o.parts = map[string]*ptfPartition{}
	o.wm = MinWatermark
	o.scalars = map[string]any{}
	for i, n := range o.Spec.ScalarNames {
		o.scalars[n] = o.Spec.Scalars[i]
	}
	o.out = types.NewBatchBuilder(o.OutTypes)
	return nil
}

// SetColumnNames gives Eval's rows their column names (the input's).
func (o *ProcessTableFunction) SetColumnNames(names []string) { o.names = names }

// ProcessBatch implements Operator.
func (o *ProcessTableFunction) ProcessBatch(_ int, b *types.Batch) error {
	if b.Len == 0 {
		return nil
	}
	var ts []int64
	var valid []byte
	if o.Spec.TimeCol >= 0 {
		ts, valid = timestampsMillis(b.Cols[o.Spec.TimeCol])
	}
	late := 0
	for i := 0; i < b.Len; i++ {
		var row *expr.PTFRow
		if o.Spec.HasTable {
			row = &expr.PTFRow{Kind: b.Kind(i), Names: o.names, Types: o.InTypes, Values: make([]any, len(b.Cols))}
			for c := range b.Cols {
				row.Values[c] = types.ValueAt(b.Cols[c], i, o.InTypes[c])
			}
		}
		c := &ptfCtx{op: o, row: row}
		if ts != nil && (valid == nil || vector.BitIsSet(valid, i)) {
			c.time, c.hasTime = ts[i], true
			if ts[i] <= o.wm {
				// a late row: Flink's PTFs drop it
				late++
				continue
			}
		}
		if o.Spec.SetSemantics {
			p, err := o.partition(row.Values)
			if err != nil {
				return err
			}
			c.part = p
		}
		if err := o.call(func() error { return o.fn.Eval(c, row) }); err != nil {
			return err
		}
		if c.part != nil && c.part.empty() {
			delete(o.parts, c.part.ks)
		}
	}
	if late > 0 {
		o.Ctx.Metrics.LateDropped.Add(int64(late))
	}
	o.reportState()
	return o.flush()
}

// call runs the function's Eval or OnTimer: its error, or a panic in it,
// fails the job naming the function.
func (o *ProcessTableFunction) call(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("process table function %s: %w", o.Spec.Name, expr.NewPanicError(r))
		}
	}()
	if err := f(); err != nil {
		return fmt.Errorf("process table function %s: %w", o.Spec.Name, err)
	}
	return nil
}

// partition returns (creating) the state of a row's partition.
func (o *ProcessTableFunction) partition(vals []any) (*ptfPartition, error) {
	key := make([]any, len(o.Spec.PartitionKeys))
	w := state.NewWriter(16)
	for j, k := range o.Spec.PartitionKeys {
		key[j] = vals[k]
		w.Value(key[j], o.keyTypes[j])
	}
	if err := w.Err(); err != nil {
		return nil, err
	}
	ks := string(w.Data())
	p := o.parts[ks]
	if p == nil {
		p = &ptfPartition{key: key, ks: ks, state: make([]any, len(o.Spec.Def.State))}
		o.parts[ks] = p
	}
	return p, nil
}

// ProcessWatermark fires the timers the watermark reached, in time order
// (timers registered while firing fire too when due), then forwards it.
func (o *ProcessTableFunction) ProcessWatermark(_ int, wm int64) error {
	if wm <= o.wm {
		return o.Out.EmitWatermark(wm)
	}
	o.wm = wm
	for {
		type due struct {
			p    *ptfPartition
			name string
			t    ptfTimer
		}
		var ds []due
		for _, p := range o.parts {
			for n, t := range p.named {
				if t.at <= wm {
					ds = append(ds, due{p, n, t})
				}
			}
			for _, t := range p.unnamed {
				if t.at <= wm {
					ds = append(ds, due{p, "", t})
				}
			}
		}
		if len(ds) == 0 {
			break
		}
		sort.Slice(ds, func(i, j int) bool {
			if ds[i].t.at != ds[j].t.at {
				return ds[i].t.at < ds[j].t.at
			}
			return ds[i].t.seq < ds[j].t.seq
		})
		for _, d := range ds {
			// an earlier timer may have cleared or replaced this one
			if !d.p.take(d.name, d.t) {
				continue
			}
			if o.timerFn == nil {
				continue
			}
			c := &ptfCtx{op: o, part: d.p, time: d.t.at, hasTime: true, timer: d.name, onTimer: true}
			if err := o.call(func() error { return o.timerFn.OnTimer(c) }); err != nil {
				return err
			}
			if d.p.empty() {
				delete(o.parts, d.p.ks)
			}
		}
	}
	o.reportState()
	if err := o.flush(); err != nil {
		return err
	}
	return o.Out.EmitWatermark(wm)
}

// take removes timer t of the partition; false when it is not there any
// more.
func (p *ptfPartition) take(name string, t ptfTimer) bool {
	if name != "" {
		if cur, ok := p.named[name]; ok && cur == t {
			delete(p.named, name)
			return true
		}
		return false
	}
	for i, u := range p.unnamed {
		if u == t {
			p.unnamed = append(p.unnamed[:i], p.unnamed[i+1:]...)
			return true
		}
	}
	return false
}

// collect appends one output row.
func (o *ProcessTableFunction) collect(c *ptfCtx, kind types.RowKind, vals []any) error {
	out := o.Spec.Def.Output
	if len(vals) == 1 && len(out) > 1 {
		if r, ok := vals[0].([]any); ok {
			vals = r
		}
	}
	if len(vals) != len(out) {
		return fmt.Errorf("Collect got %d values; the function declares %d output columns", len(vals), len(out))
	}
	row := make([]any, 0, len(o.OutTypes))
	switch {
	case o.Spec.PassThrough:
		if c.row == nil {
			return fmt.Errorf("Timers are not supported in the current PTF declaration: columns are passed through")
		}
		row = append(row, c.row.Values...)
	case o.Spec.SetSemantics:
		row = append(row, c.part.key...)
	}
	base := len(row)
	for i, v := range vals {
		t := o.OutTypes[base+i]
		if err := types.CheckValue(v, t); err != nil {
			return fmt.Errorf("output column '%s': %w", out[i].Name, err)
		}
		row = append(row, v)
	}
	if o.Spec.TimeCol >= 0 {
		if c.hasTime {
			row = append(row, time.UnixMilli(c.time).UTC())
		} else {
			row = append(row, nil)
		}
	}
	o.outRows++
	if err := o.out.Append(kind, row); err != nil {
		return err
	}
	if o.outRows >= max(o.Ctx.Config.BatchSize, 1) {
		return o.flush()
	}
	return nil
}

// flush emits the collected rows.
func (o *ProcessTableFunction) flush() error {
	if o.outRows == 0 {
		return nil
	}
	b := o.out.Build()
	o.outRows = 0
	o.out = types.NewBatchBuilder(o.OutTypes)
	return o.Emit(b)
}

// StateSize implements StateReporter: partitions and an estimate of the
// bytes they hold.
func (o *ProcessTableFunction) StateSize() (int64, int64) {
	n := int64(len(o.parts))
	return n, n * int64(48+24*len(o.Spec.Def.State))
}

func (o *ProcessTableFunction) reportState() {
	if o.Ctx != nil {
		o.Ctx.ReportState(o.StateSize())
	}
}

// ptfCtx implements expr.PTFContext and expr.PTFTimerContext for one
// Eval or OnTimer call.
type ptfCtx struct {
	op      *ProcessTableFunction
	row     *expr.PTFRow
	part    *ptfPartition
	time    int64
	hasTime bool
	timer   string
	onTimer bool
}

func (c *ptfCtx) Collect(values ...any) error { return c.op.collect(c, types.Insert, values) }

func (c *ptfCtx) CollectKind(kind types.RowKind, values ...any) error {
	if kind != types.Insert && !c.op.Spec.Def.UpdatingOutput {
		return fmt.Errorf("CollectKind(%s): the function does not declare UpdatingOutput", kind)
	}
	if kind > types.Delete {
		return fmt.Errorf("invalid row kind %d", kind)
	}
	return c.op.collect(c, kind, values)
}

func (c *ptfCtx) Arg(name string) any { return c.op.scalars[name] }

func (c *ptfCtx) PartitionKey() []any {
	if c.part == nil {
		return nil
	}
	return append([]any(nil), c.part.key...)
}

func (c *ptfCtx) stateIndex(name string) (int, error) {
	if c.part == nil {
		return -1, fmt.Errorf("state is only available for tables with set semantics (TABLE t PARTITION BY k)")
	}
	i, ok := c.op.stateIdx[name]
	if !ok {
		return -1, fmt.Errorf("unknown state entry '%s'", name)
	}
	return i, nil
}

func (c *ptfCtx) State(name string) any {
	i, err := c.stateIndex(name)
	if err != nil {
		return nil
	}
	return c.part.state[i]
}

func (c *ptfCtx) SetState(name string, v any) error {
	i, err := c.stateIndex(name)
	if err != nil {
		return err
	}
	if err := types.CheckValue(v, c.op.Spec.Def.State[i].Type); err != nil {
		return fmt.Errorf("state entry '%s': %w", name, err)
	}
	c.part.state[i] = v
	return nil
}

func (c *ptfCtx) ClearState(name string) {
	if i, err := c.stateIndex(name); err == nil {
		c.part.state[i] = nil
	}
}

func (c *ptfCtx) ClearAllState() {
	if c.part != nil {
		clear(c.part.state)
	}
}

func (c *ptfCtx) ClearAllTimers() {
	if c.part != nil {
		c.part.named, c.part.unnamed = nil, nil
	}
}

func (c *ptfCtx) ClearAll() {
	c.ClearAllState()
	c.ClearAllTimers()
}

func (c *ptfCtx) Time() (int64, bool) { return c.time, c.hasTime }

func (c *ptfCtx) CurrentWatermark() (int64, bool) {
	if c.op.wm == MinWatermark {
		return 0, false
	}
	return c.op.wm, true
}

func (c *ptfCtx) timersAllowed() error {
	if c.part == nil || c.op.Spec.PassThrough {
		return fmt.Errorf("Timers are not supported in the current PTF declaration: they need a table with set semantics that does not pass columns through")
	}
	return nil
}

// late reports a timer at or before the watermark: Flink's PTFs drop it.
func (c *ptfCtx) late(ms int64) bool { return c.op.wm != MinWatermark && ms <= c.op.wm }

func (c *ptfCtx) RegisterOnTime(name string, ms int64) error {
	if err := c.timersAllowed(); err != nil {
		return err
	}
	if name == "" {
		return fmt.Errorf("a named timer needs a name")
	}
	if c.late(ms) {
		return nil
	}
	if c.part.named == nil {
		c.part.named = map[string]ptfTimer{}
	}
	c.op.timerSeq++
	c.part.named[name] = ptfTimer{at: ms, seq: c.op.timerSeq}
	return nil
}

func (c *ptfCtx) RegisterOnTimeUnnamed(ms int64) error {
	if err := c.timersAllowed(); err != nil {
		return err
	}
	if c.late(ms) {
		return nil
	}
	for _, t := range c.part.unnamed {
		if t.at == ms {
			return nil // one unnamed timer per time, as Flink's timer service keeps
		}
	}
	c.op.timerSeq++
	c.part.unnamed = append(c.part.unnamed, ptfTimer{at: ms, seq: c.op.timerSeq})
	return nil
}

func (c *ptfCtx) ClearTimer(name string) {
	if c.part != nil {
		delete(c.part.named, name)
	}
}

func (c *ptfCtx) CurrentTimer() string { return c.timer }
