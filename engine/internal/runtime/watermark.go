package runtime

import (
	"fmt"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// WatermarkAssigner generates the watermarks of one source instance from
// a WATERMARK FOR rowtime AS expr declaration, as Flink's
// WatermarkAssignerOperator does:
//
//   - the current watermark is the maximum of expr over the rows seen
//     (epoch milliseconds), starting at 0, so it only ever increases;
//   - a watermark is emitted right after the row that advanced the current
//     watermark by more than pipeline.auto-watermark-interval (in
//     milliseconds of event time) since the last emitted one; batches are
//     split at such rows so that downstream operators see exactly the
//     per-record order of rows and watermarks (with an interval of 0 every
//     advancing row is followed by its watermark);
//   - every interval of processing time the current watermark is emitted
//     if it advanced;
//   - with table.exec.source.idle-timeout set, an instance that received no
//     row for that long is marked idle (downstream operators then ignore it
//     when combining watermarks) until its next row;
//   - a NULL rowtime fails the job ("RowTime field should not be null").
//
// With Replay set (the Riffle extension 'source.replay-speed'), rows are
// released paced by their rowtime: event time advances Replay times as
// fast as wall-clock time (the first row is released at once).
type WatermarkAssigner struct {
	BaseOperator
	wmExpr expr.Evaluator
	// RowtimeCol is the index of the rowtime attribute.
	RowtimeCol int
	// Replay is the replay speed (0 = no pacing).
	Replay float64
	// SourceIdleTimeout, when SourceIdleSet, is the idle timeout of the
	// source it reads ('scan.watermark.idle-timeout'), known when the job
	// is built: it applies before the source's reader has said so, to an
	// instance whose splits never deliver a row.
	SourceIdleTimeout time.Duration
	SourceIdleSet     bool

	current    int64
	emitted    int64
	interval   int64 // ms
	idle       time.Duration
	clock      Clock
	lastPeriod time.Time
	lastRow    time.Time
	isIdle     bool
	// replay state
	replayBase   int64 // rowtime of the first row (ms)
	replayWall   time.Time
	replayActive bool
	// per-split state (watermark_splits.go)
	splits        map[string]*splitState
	splitsVersion int
}

// NewWatermarkAssigner compiles the watermark expression (type TIMESTAMP(p)
// or TIMESTAMP_LTZ(p)) for a rowtime attribute at column rowtime.
func NewWatermarkAssigner(wm expr.Expr, rowtime int) (*WatermarkAssigner, error) {
	ev, err := expr.Compile(wm)
	if err != nil {
		return nil, err
	}
	return &WatermarkAssigner{wmExpr: ev, RowtimeCol: rowtime}, nil
}

// Open implements Operator.
func (w *WatermarkAssigner) Open(ctx *OpContext, out Output) error {
	w.BaseOperator.Open(ctx, out)
	w.current, w.emitted = 0, 0
	w.interval = int64(ctx.Config.WatermarkEvery / time.Millisecond)
	w.idle = ctx.Config.IdleTimeout
	w.clock = ctx.Config.clock()
	now := w.clock.Now()
	w.lastPeriod, w.lastRow = now, now
	return nil
}

// ProcessBatch implements Operator: it forwards the rows, splitting the
// batch after each row that makes the watermark due.
func (w *WatermarkAssigner) ProcessBatch(_ int, b *types.Batch) error {
	if b.Len == 0 {
		return nil
	}
	w.lastRow = w.clock.Now()
	if w.isIdle {
		w.setIdle(false)
	}
	if rc := b.Cols[w.RowtimeCol]; rc.NullN() > 0 {
		return fmt.Errorf("RowTime field should not be null, please convert it to a non-null long value.")
	}
	if w.Replay > 0 {
		return w.replay(b)
	}
	if w.splitMode() {
		return w.assignSplits(b)
	}
	return w.assign(b)
}

func (w *WatermarkAssigner) assign(b *types.Batch) error {
	v, err := w.wmExpr(w.Ctx.Eval, b)
	if err != nil {
		return err
	}
	arr := v.Materialize(b.Len)
	vals, valid := timestampsMillis(arr)
	from := 0
	for i, ms := range vals {
		if valid != nil && !vector.BitIsSet(valid, i) {
			continue
		}
		if ms > w.current {
			w.current = ms
		}
		if w.current-w.emitted > w.interval {
			if err := w.emitRows(b, from, i+1); err != nil {
				return err
			}
			from = i + 1
			w.emitted = w.current
			if err := w.Out.EmitWatermark(w.current); err != nil {
				return err
			}
		}
	}
	return w.emitRows(b, from, b.Len)
}

func (w *WatermarkAssigner) emitRows(b *types.Batch, from, to int) error {
	if from >= to {
		return nil
	}
	if from == 0 && to == b.Len {
		return w.Emit(b)
	}
	return w.Emit(b.Slice(from, to))
}

// replay releases the rows of b when their rowtime is due.
func (w *WatermarkAssigner) replay(b *types.Batch) error {
	ts, _ := timestampsMillis(b.Cols[w.RowtimeCol])
	if !w.replayActive {
		w.replayActive = true
		w.replayBase = ts[0]
		w.replayWall = w.clock.Now()
	}
	from := 0
	for i := 0; i <= len(ts); i++ {
		var due time.Time
		if i < len(ts) {
			due = w.replayWall.Add(time.Duration(float64(ts[i]-w.replayBase) / w.Replay * float64(time.Millisecond)))
			if !due.After(w.clock.Now()) {
				continue
			}
		}
		if i > from {
			if err := w.assign(b.Slice(from, i)); err != nil {
				return err
			}
			from = i
		}
		if i == len(ts) {
			break
		}
		// flush the pending watermark before waiting
		if err := w.OnProcessingTime(w.clock.Now().UnixMilli()); err != nil {
			return err
		}
		ch, stop := w.clock.At(due)
		select {
		case <-ch:
		case <-w.Ctx.Ctx.Done():
			stop()
			return w.Ctx.Ctx.Err()
		}
		w.lastRow = w.clock.Now()
	}
	return nil
}

// NextProcessingTime implements ProcessingTimeOperator: the next periodic
// emission or idleness check.
func (w *WatermarkAssigner) NextProcessingTime() (int64, bool) {
	var next time.Time
	if w.interval > 0 && w.current > w.emitted {
		next = w.lastPeriod.Add(time.Duration(w.interval) * time.Millisecond)
	}
	if w.splits != nil {
		if t, ok := w.nextSplitIdle(); ok && (next.IsZero() || t.Before(next)) {
			next = t
		}
	} else if d := w.instanceIdleTimeout(); d > 0 && !w.isIdle {
		t := w.lastRow.Add(d)
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	if next.IsZero() {
		return 0, false
	}
	return next.UnixMilli(), true
}

// OnProcessingTime implements ProcessingTimeOperator: periodic watermark
// emission and idleness detection.
func (w *WatermarkAssigner) OnProcessingTime(nowMs int64) error {
	now := w.clock.Now()
	if w.interval > 0 && !now.Before(w.lastPeriod.Add(time.Duration(w.interval)*time.Millisecond)) {
		w.lastPeriod = now
		if w.current > w.emitted {
			w.emitted = w.current
			if err := w.Out.EmitWatermark(w.current); err != nil {
				return err
			}
		}
	}
	if w.splits != nil {
		return w.checkSplitIdle(now)
	}
	if d := w.instanceIdleTimeout(); d > 0 && !w.isIdle && !now.Before(w.lastRow.Add(d)) {
		w.setIdle(true)
	}
	return nil
}

// instanceIdleTimeout is the idle timeout of an instance that has not
// tracked splits yet: the source's own ('scan.watermark.idle-timeout')
// when it reads several splits at once, else
// table.exec.source.idle-timeout. An instance whose splits never deliver
// a row (a Kafka partition without records, or no partition at all at a
// parallelism above the partition count) is thus idle after it, as
// Flink's source reader is, instead of holding back the watermark of
// every downstream task.
func (w *WatermarkAssigner) instanceIdleTimeout() time.Duration {
	if w.SourceIdleSet {
		return w.SourceIdleTimeout
	}
	return w.idle
}

func (w *WatermarkAssigner) setIdle(idle bool) {
	w.isIdle = idle
	if w.Ctx.SetIdle != nil {
		w.Ctx.SetIdle(idle)
	}
}

// ProcessWatermark implements Operator: upstream watermarks are ignored
// except the final +∞ of a bounded input, which is forwarded.
func (w *WatermarkAssigner) ProcessWatermark(_ int, wm int64) error {
	if wm == MaxWatermark && w.current != MaxWatermark {
		if w.isIdle {
			w.setIdle(false)
		}
		w.current = MaxWatermark
		w.emitted = MaxWatermark
		return w.Out.EmitWatermark(wm)
	}
	return nil
}
