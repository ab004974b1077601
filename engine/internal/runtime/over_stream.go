package runtime

import (
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// StreamOver is the streaming OVER aggregate (Flink's
// StreamExecOverAggregate): the window is ordered by one ascending time
// attribute and spans UNBOUNDED or n PRECEDING up to the CURRENT ROW.
// Every input row is emitted once (insert-only) with the aggregates of its
// frame appended.
//
// Over a rowtime attribute rows are buffered per partition until the
// watermark passes their timestamp and are then processed in timestamp
// order (Flink's RowTime*PrecedingFunction); rows whose timestamp is not
// after the current watermark are late, dropped and counted. With ROWS
// frames rows of equal timestamp are processed one by one in arrival
// order; with RANGE frames they are peers and get the same results. Over a
// proctime attribute rows are processed on arrival (a batch's rows share
// one processing time).
type StreamOver struct {
	BaseOperator
	PartitionKeys []int
	KeyTypes      []*types.DataType
	InTypes       []*types.DataType
	TimeCol       int
	Rowtime       bool
	Frame         opspec.OverFrame
	Calls         []opspec.OverCall

	index   groupIndex
	nParts  int32
	accs    []accumulator
	pending [][]overRow // rowtime: rows waiting for the watermark, per partition
	waiting []int32     // partitions with pending rows, first-seen order
	isWait  []bool
	frame   [][]overRow // bounded frames: rows in the current frame
	wm      int64
	clock   Clock
	out     overOut
	// state retention (over_stream_ttl.go)
	ttl     ttlState // ttl.last is unused
	cleanup []int64  // per partition: when its state is cleaned (0: never)
	free    []int32
	reuse   bool
}

type overRow struct {
	ts  int64
	b   *types.Batch
	row int32
}

// Open implements Operator.
func (o *StreamOver) Open(ctx *OpContext, out Output) error {
	o.BaseOperator.Open(ctx, out)
	o.index = newGroupIndex(o.PartitionKeys, o.KeyTypes)
	o.wm = MinWatermark
	o.clock = ctx.Config.clock()
	for _, c := range o.Calls {
		if c.IsRanking() || c.IsValue() {
			return fmt.Errorf("%s is not supported in a streaming OVER window", c.Func)
		}
		acc, err := newAccumulator(overAggSpec(c), o.bounded())
		if err != nil {
			return err
		}
		o.accs = append(o.accs, acc)
	}
	if !ctx.Batch {
		o.ttl.open(ctx)
	}
	o.reuse = canReset(o.accs)
	return nil
}

func (o *StreamOver) bounded() bool { return o.Frame.Lower.Kind != opspec.UnboundedPreceding }

// ProcessBatch implements Operator.
func (o *StreamOver) ProcessBatch(_ int, b *types.Batch) error {
	if !b.InsertOnly() {
		return fmt.Errorf("OverAggregate doesn't support consuming update and delete changes")
	}
	var ts []int64
	var valid []byte
	if o.Rowtime {
		ts, valid = timestampsMillis(b.Cols[o.TimeCol])
	} else {
		now := o.clock.Now().UnixMilli()
		ts = make([]int64, b.Len)
		for i := range ts {
			ts[i] = now
		}
	}
	late := int64(0)
	var ready []overRow // proctime: rows to process now
	var readyParts []int32
	now := o.ttl.now()
	for i := 0; i < b.Len; i++ {
		if valid != nil && !vector.BitIsSet(valid, i) {
			continue
		}
		pid := o.partition(b, i, now)
		o.touch(pid, now)
		r := overRow{ts: ts[i], b: b, row: int32(i)}
		if !o.Rowtime {
			ready = append(ready, r)
			readyParts = append(readyParts, pid)
			continue
		}
		if ts[i] <= o.wm {
			late++
			continue
		}
		o.pending[pid] = append(o.pending[pid], r)
		if !o.isWait[pid] {
			o.isWait[pid] = true
			o.waiting = append(o.waiting, pid)
		}
	}
	if late > 0 {
		o.Ctx.Metrics.LateDropped.Add(late)
	}
	if !o.Rowtime {
		// process in arrival order; RANGE peers are rows of the same
		// partition in this batch
		if o.Frame.Rows {
			for k, r := range ready {
				o.process(readyParts[k], []overRow{r})
			}
		} else {
			byPart := map[int32][]overRow{}
			var order []int32
			for k, r := range ready {
				p := readyParts[k]
				if _, ok := byPart[p]; !ok {
					order = append(order, p)
				}
				byPart[p] = append(byPart[p], r)
			}
			for _, p := range order {
				o.process(p, byPart[p])
			}
		}
		o.reportState()
		return o.flush()
	}
	o.reportState()
	return nil
}

// process accumulates peers (rows of one partition with one timestamp for
// RANGE, a single row for ROWS) and emits them with their results.
func (o *StreamOver) process(pid int32, peers []overRow) {
	for _, r := range peers {
		o.update(pid, r, false)
		if o.bounded() {
			o.frame[pid] = append(o.frame[pid], r)
		}
	}
	if o.bounded() {
		cur := peers[len(peers)-1].ts
		fr := o.frame[pid]
		drop := 0
		if o.Frame.Rows {
			keep := int(o.Frame.Lower.Offset) + 1
			if len(fr) > keep {
				drop = len(fr) - keep
			}
		} else {
			limit := cur - int64(o.Frame.Lower.Offset)
			for drop < len(fr) && fr[drop].ts < limit {
				drop++
			}
		}
		for _, r := range fr[:drop] {
			o.update(pid, r, true)
		}
		o.frame[pid] = fr[drop:]
	}
	vals := make([]any, len(o.accs))
	for k, acc := range o.accs {
		vals[k] = acc.result(pid)
	}
	for _, r := range peers {
		o.out.add(r, vals)
	}
}

func (o *StreamOver) update(pid int32, r overRow, retract bool) {
	for k, c := range o.Calls {
		if c.Filter >= 0 {
			f := r.b.Cols[c.Filter].(*array.Boolean)
			if !f.IsValid(int(r.row)) || !f.Value(int(r.row)) {
				continue
			}
		}
		args := make([]arrow.Array, len(c.Args))
		for i, a := range c.Args {
			args[i] = r.b.Cols[a]
		}
		o.accs[k].update(pid, args, int(r.row), retract)
	}
}

// ProcessWatermark processes the buffered rows the watermark completes.
func (o *StreamOver) ProcessWatermark(_ int, wm int64) error {
	if wm <= o.wm {
		return nil
	}
	o.wm = wm
	if o.Rowtime && len(o.waiting) > 0 {
		var still []int32
		for _, pid := range o.waiting {
			rows := o.pending[pid]
			sort.SliceStable(rows, func(i, j int) bool { return rows[i].ts < rows[j].ts })
			n := 0
			for n < len(rows) && rows[n].ts <= wm {
				n++
			}
			for i := 0; i < n; {
				j := i + 1
				if !o.Frame.Rows {
					for j < n && rows[j].ts == rows[i].ts {
						j++
					}
				}
				o.process(pid, rows[i:j])
				i = j
			}
			if n > 0 {
				o.touch(pid, o.ttl.now())
			}
			o.pending[pid] = append([]overRow(nil), rows[n:]...)
			if len(o.pending[pid]) > 0 {
				still = append(still, pid)
			} else {
				o.isWait[pid] = false
			}
		}
		o.waiting = still
		o.reportState()
		if err := o.flush(); err != nil {
			return err
		}
	}
	return o.Out.EmitWatermark(wm)
}

func (o *StreamOver) flush() error {
	b := o.out.build(o.InTypes, o.Calls)
	if b == nil {
		return nil
	}
	return o.Emit(b)
}

func (o *StreamOver) reportState() {
	k, b := o.StateSize()
	o.Ctx.ReportState(k, b)
}

// StateSize implements StateReporter.
func (o *StreamOver) StateSize() (int64, int64) {
	bytes := o.index.size()
	for _, acc := range o.accs {
		bytes += acc.size()
	}
	var rows int64
	for _, p := range o.pending {
		rows += int64(len(p))
	}
	for _, f := range o.frame {
		rows += int64(len(f))
	}
	return o.index.count(), bytes + rows*24
}

// overOut collects output rows: input rows (by reference) plus values.
type overOut struct {
	refs []overRow
	vals [][]any
}

func (w *overOut) add(r overRow, vals []any) {
	w.refs = append(w.refs, r)
	w.vals = append(w.vals, vals)
}

func (w *overOut) build(inTypes []*types.DataType, calls []opspec.OverCall) *types.Batch {
	if len(w.refs) == 0 {
		return nil
	}
	var parts []*types.Batch
	for i := 0; i < len(w.refs); {
		j := i
		var sel []int32
		for j < len(w.refs) && w.refs[j].b == w.refs[i].b {
			sel = append(sel, w.refs[j].row)
			j++
		}
		parts = append(parts, TakeRows(w.refs[i].b, sel))
		i = j
	}
	all := ConcatBatches(parts, len(inTypes))
	cols := append([]arrow.Array(nil), all.Cols...)
	for k, c := range calls {
		bld := array.NewBuilder(memory.DefaultAllocator, types.ToArrow(c.Type))
		for _, v := range w.vals {
			types.AppendValue(bld, v[k], c.Type)
		}
		cols = append(cols, bld.NewArray())
	}
	w.refs, w.vals = nil, nil
	return &types.Batch{Cols: cols, Len: all.Len}
}
