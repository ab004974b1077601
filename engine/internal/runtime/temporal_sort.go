package runtime

import (
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// TemporalSort is streaming ORDER BY on an ascending time attribute
// (Flink's StreamPhysicalTemporalSort).
//
// On a rowtime attribute (RowTimeSortOperator) it buffers rows until the
// watermark passes their timestamp, then emits them ordered by the
// timestamp and the secondary Keys; equal rows keep their arrival order.
// A row whose timestamp is not after the last emitted timestamp is late:
// it is dropped and counted in LateDropped. Rows between that timestamp
// and the current watermark are emitted at the next watermark, as Flink
// fires a timer registered in the past at the next watermark.
//
// On a processing-time attribute (ProcTimeSortOperator) it buffers the
// rows that arrive within one millisecond of the job's clock and emits
// them ordered by the secondary Keys when the clock moves on. Riffle also
// emits what is buffered when a bounded input ends (Flink's pending
// processing-time timers do not fire then).
//
// The input is insert-only; the output is insert-only.
type TemporalSort struct {
	BaseOperator
	// TimeCol is the time attribute's column.
	TimeCol int
	// Keys are the secondary sort keys (the ORDER BY keys after the time
	// attribute); may be empty.
	Keys  []opspec.SortKey
	Types []*types.DataType
	// Proctime selects the processing-time sort.
	Proctime bool

	buf       []*types.Batch
	held      int
	lastFired int64
	fired     bool
	minTs     int64 // smallest buffered timestamp (rowtime)
	due       int64 // processing time of the pending flush, -1: none
	clock     Clock
}

// Open implements Operator.
func (s *TemporalSort) Open(ctx *OpContext, out Output) error {
	s.BaseOperator.Open(ctx, out)
	s.clock = ctx.Config.clock()
	s.minTs = MaxWatermark
	s.due = -1
	return nil
}

// ProcessBatch implements Operator.
func (s *TemporalSort) ProcessBatch(_ int, b *types.Batch) error {
	if b.Len == 0 {
		return nil
	}
	if s.Proctime {
		s.buf = append(s.buf, b)
		s.held += b.Len
		if s.due < 0 {
			s.due = s.clock.Now().UnixMilli() + 1
		}
		s.reportState()
		return nil
	}
	ts, valid := timestampsMillis(b.Cols[s.TimeCol])
	var keep []int32
	late := 0
	for i := 0; i < b.Len; i++ {
		if valid != nil && !vector.BitIsSet(valid, i) {
			// a NULL rowtime never fires
			late++
			continue
		}
		if s.fired && ts[i] <= s.lastFired {
			late++
			continue
		}
		s.minTs = min(s.minTs, ts[i])
		keep = append(keep, int32(i))
	}
	if late > 0 {
		s.Ctx.Metrics.LateDropped.Add(int64(late))
		if len(keep) == 0 {
			return nil
		}
		b = TakeRows(b, keep)
	}
	s.buf = append(s.buf, b)
	s.held += b.Len
	s.reportState()
	return nil
}

// ProcessWatermark emits the rows whose timestamp the watermark passed,
// then forwards the watermark.
func (s *TemporalSort) ProcessWatermark(_ int, wm int64) error {
	if s.Proctime {
		if wm == MaxWatermark {
			if err := s.flushProctime(); err != nil {
				return err
			}
		}
		return s.Out.EmitWatermark(wm)
	}
	if s.held > 0 && s.minTs <= wm {
		if err := s.fireRowtime(wm); err != nil {
			return err
		}
	}
	return s.Out.EmitWatermark(wm)
}

func (s *TemporalSort) fireRowtime(wm int64) error {
	all := ConcatBatches(s.buf, len(s.Types))
	ts, _ := timestampsMillis(all.Cols[s.TimeCol])
	var due, rest []int32
	s.minTs = MaxWatermark
	for i := 0; i < all.Len; i++ {
		if ts[i] <= wm {
			due = append(due, int32(i))
		} else {
			rest = append(rest, int32(i))
			s.minTs = min(s.minTs, ts[i])
		}
	}
	cmp := newRowComparator(all, s.Keys, s.Types)
	slices.SortStableFunc(due, func(a, b int32) int {
		if ts[a] != ts[b] {
			if ts[a] < ts[b] {
				return -1
			}
			return 1
		}
		return cmp(int(a), int(b))
	})
	s.fired = true
	s.lastFired = max(s.lastFired, ts[due[len(due)-1]])
	s.buf = nil
	s.held = 0
	if len(rest) > 0 {
		s.buf = []*types.Batch{TakeRows(all, rest)}
		s.held = len(rest)
	}
	s.reportState()
	return s.emitChunks(TakeRows(all, due))
}

func (s *TemporalSort) flushProctime() error {
	s.due = -1
	if s.held == 0 {
		return nil
	}
	all := ConcatBatches(s.buf, len(s.Types))
	s.buf, s.held = nil, 0
	s.reportState()
	if len(s.Keys) == 0 {
		return s.emitChunks(all)
	}
	idx := make([]int32, all.Len)
	for i := range idx {
		idx[i] = int32(i)
	}
	cmp := newSortComparator(all, s.Keys, s.Types)
	stableSortIndex(idx, cmp)
	return s.emitChunks(TakeRows(all, idx))
}

func (s *TemporalSort) emitChunks(b *types.Batch) error {
	size := max(s.Ctx.Config.BatchSize, 1)
	for i := 0; i < b.Len; i += size {
		if err := s.Emit(b.Slice(i, min(i+size, b.Len))); err != nil {
			return err
		}
	}
	return nil
}

// NextProcessingTime implements ProcessingTimeOperator.
func (s *TemporalSort) NextProcessingTime() (int64, bool) {
	return s.due, s.Proctime && s.due >= 0
}

// OnProcessingTime implements ProcessingTimeOperator.
func (s *TemporalSort) OnProcessingTime(now int64) error {
	if !s.Proctime || s.due < 0 || now < s.due {
		return nil
	}
	return s.flushProctime()
}

func (s *TemporalSort) reportState() {
	var bytes int64
	for _, b := range s.buf {
		bytes += batchBytes(b)
	}
	s.Ctx.ReportState(int64(s.held), bytes)
}

// batchBytes estimates the memory of a batch: the sizes of its arrays'
// buffers (shared buffers are counted by each array using them).
func batchBytes(b *types.Batch) int64 {
	var n int64
	var data func(d arrow.ArrayData)
	data = func(d arrow.ArrayData) {
		for _, buf := range d.Buffers() {
			if buf != nil {
				n += int64(buf.Len())
			}
		}
		for _, c := range d.Children() {
			data(c)
		}
	}
	for _, c := range b.Cols {
		if c != nil {
			data(c.Data())
		}
	}
	return n
}
