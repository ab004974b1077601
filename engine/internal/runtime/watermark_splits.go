package runtime

import (
	"math"
	"sort"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Per-split watermarks: when the source of the assigner's task reads
// several splits at once (Kafka partitions, SourceSplits), the assigner
// keeps one watermark per split, as Flink's per-partition watermark
// generators do, and emits their minimum over the active splits that are
// not idle:
//
//   - a split's watermark is the maximum of the watermark expression over
//     its rows; a split without rows yet has none (math.MinInt64) and holds
//     the instance's watermark back until it is idle;
//   - a split without rows for the idle timeout ('scan.watermark.idle-timeout',
//     else table.exec.source.idle-timeout) is idle and ignored until its
//     next row; when every split is idle the instance is marked idle;
//   - splits the reader no longer reads (finished bounded partitions) are
//     dropped.

type splitState struct {
	current int64
	lastRow time.Time
	idle    bool
}

// splitMode reports whether the batch being processed came from one of
// several splits read together.
func (w *WatermarkAssigner) splitMode() bool {
	return w.Ctx != nil && w.Ctx.Splits.Current() != ""
}

func (w *WatermarkAssigner) splitIdleTimeout() time.Duration {
	if d, ok := w.Ctx.Splits.IdleTimeout(); ok {
		return d
	}
	return w.idle
}

// syncSplits brings the split set in line with the reader's active splits.
func (w *WatermarkAssigner) syncSplits() {
	active, version := w.Ctx.Splits.Active()
	if w.splits != nil && version == w.splitsVersion {
		return
	}
	now := w.clock.Now()
	next := make(map[string]*splitState, len(active))
	for _, name := range active {
		if st, ok := w.splits[name]; ok {
			next[name] = st
		} else {
			next[name] = &splitState{current: math.MinInt64, lastRow: now}
		}
	}
	w.splits, w.splitsVersion = next, version
}

func (w *WatermarkAssigner) split(name string) *splitState {
	st, ok := w.splits[name]
	if !ok {
		// a batch of a split the reader has just finished: it still
		// counts until the reader drops it
		st = &splitState{current: math.MinInt64, lastRow: w.clock.Now()}
		w.splits[name] = st
	}
	return st
}

// combined is the minimum watermark over the active, non-idle splits;
// ok is false when every split is idle (or there is none).
func (w *WatermarkAssigner) combined() (int64, bool) {
	low, any := int64(math.MaxInt64), false
	for _, st := range w.splits {
		if st.idle {
			continue
		}
		any = true
		if st.current < low {
			low = st.current
		}
	}
	return low, any
}

func (w *WatermarkAssigner) publishSplit(name string, st *splitState) {
	w.Ctx.Splits.SetWatermark(name, st.current, st.idle)
}

// assignSplits is assign for a batch of one split.
func (w *WatermarkAssigner) assignSplits(b *types.Batch) error {
	w.syncSplits()
	name := w.Ctx.Splits.Current()
	st := w.split(name)
	st.lastRow = w.clock.Now()
	if st.idle {
		st.idle = false
	}
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
		if ms <= st.current {
			continue
		}
		st.current = ms
		if low, ok := w.combined(); ok && low > w.current {
			w.current = low
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
	w.publishSplit(name, st)
	return w.emitRows(b, from, b.Len)
}

// nextSplitIdle is the earliest time a split becomes idle.
func (w *WatermarkAssigner) nextSplitIdle() (time.Time, bool) {
	d := w.splitIdleTimeout()
	if d <= 0 {
		return time.Time{}, false
	}
	var next time.Time
	for _, st := range w.splits {
		if st.idle {
			continue
		}
		if t := st.lastRow.Add(d); next.IsZero() || t.Before(next) {
			next = t
		}
	}
	return next, !next.IsZero()
}

// checkSplitIdle marks splits idle whose timeout passed, in the order
// their timeouts passed: the watermark advances past each split that
// becomes idle while another is still active, and the instance is idle
// once every split is.
func (w *WatermarkAssigner) checkSplitIdle(now time.Time) error {
	d := w.splitIdleTimeout()
	if d <= 0 {
		return nil
	}
	w.syncSplits()
	var due []string
	for name, st := range w.splits {
		if !st.idle && !now.Before(st.lastRow.Add(d)) {
			due = append(due, name)
		}
	}
	sort.Slice(due, func(i, j int) bool {
		a, b := w.splits[due[i]], w.splits[due[j]]
		if !a.lastRow.Equal(b.lastRow) {
			return a.lastRow.Before(b.lastRow)
		}
		return due[i] < due[j]
	})
	for _, name := range due {
		st := w.splits[name]
		st.idle = true
		w.publishSplit(name, st)
		low, ok := w.combined()
		if !ok {
			if !w.isIdle {
				w.setIdle(true)
			}
			return nil
		}
		if low > w.current {
			w.current = low
			w.emitted = w.current
			if err := w.Out.EmitWatermark(w.current); err != nil {
				return err
			}
		}
	}
	return nil
}
