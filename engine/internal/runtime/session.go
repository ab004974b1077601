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

// session is one open session window of a key: [start, end) where end is
// the last row's timestamp plus the gap.
type session struct {
	start, end int64
	id         int32
}

type rowRef struct {
	b   *types.Batch
	row int32
}

// SessionWindows groups rows of each key into session windows (Flink's
// merging window assigner for SESSION): a row at ts opens the window
// [ts, ts+gap) and windows that intersect merge. When the watermark passes
// a session's end the session fires:
//
//   - with Aggs (window aggregation, legacy GROUP BY SESSION(...)), one row
//     per session: the key columns, the aggregates, then Props;
//   - in TVF mode (Rows set: SELECT * FROM TABLE(SESSION(...))), every row
//     of the session followed by window_start, window_end, window_time.
//
// A row whose window is complete under the current watermark and merges
// with no open session is late: dropped and counted in LateDropped.
// Aggregates must be mergeable (COUNT, SUM, AVG, MIN, MAX, COUNT DISTINCT).
type SessionWindows struct {
	BaseOperator
	Keys     []int
	KeyTypes []*types.DataType
	Aggs     []opspec.AggSpec
	OutTypes []*types.DataType
	Window   opspec.WindowSpec
	TimeCol  int
	Props    []opspec.WindowProp
	// Rows selects TVF mode; InTypes are then the input column types.
	Rows    bool
	InTypes []*types.DataType

	index    groupIndex
	nKeys    int32
	keyChunk []arrow.Array // concatenated key columns of known keys
	pending  [][]arrow.Array
	sessions [][]session // per key id, ascending start
	keyOf    []int32     // session id -> key id
	accs     []accumulator
	rows     [][]rowRef // TVF mode: rows per session id
	nSess    int32
	free     []int32
	// freed are the ids merged away during the current batch: they are
	// reused only after it, since its rows still redirect from them
	freed  []int32
	wm     int64
	minEnd int64
	clock  Clock
}

// Open implements Operator.
func (s *SessionWindows) Open(ctx *OpContext, out Output) error {
	s.BaseOperator.Open(ctx, out)
	s.index = newGroupIndex(s.Keys, s.KeyTypes)
	s.wm = MinWatermark
	s.minEnd = MaxWatermark
	s.clock = ctx.Config.clock()
	for _, spec := range s.Aggs {
		acc, err := newAccumulator(spec, false)
		if err != nil {
			return err
		}
		s.accs = append(s.accs, acc)
	}
	if !canMerge(s.accs) {
		return fmt.Errorf("session window aggregation does not support this aggregate function (it cannot merge sessions)")
	}
	return s.Window.Validate()
}

func (s *SessionWindows) newSession(key int32) int32 {
	var id int32
	if n := len(s.free); n > 0 && canReset(s.accs) {
		id = s.free[n-1]
		s.free = s.free[:n-1]
		for _, acc := range s.accs {
			acc.(resettableAcc).reset(id)
		}
		s.keyOf[id] = key
		if s.Rows {
			s.rows[id] = nil
		}
		return id
	}
	id = s.nSess
	s.nSess++
	for _, acc := range s.accs {
		acc.resize(int(s.nSess))
	}
	s.keyOf = append(s.keyOf, key)
	if s.Rows {
		s.rows = append(s.rows, nil)
	}
	return id
}

// ProcessBatch implements Operator.
func (s *SessionWindows) ProcessBatch(_ int, b *types.Batch) error {
	if !b.InsertOnly() {
		return fmt.Errorf("session window doesn't support consuming update and delete changes")
	}
	var ts []int64
	var valid []byte
	if s.Window.Proctime {
		now := s.Window.ToLocal(s.clock.Now().UnixMilli())
		ts = make([]int64, b.Len)
		for i := range ts {
			ts[i] = now
		}
	} else {
		ts, valid = timestampsMillis(b.Cols[s.TimeCol])
	}
	gids := make([]int32, b.Len)
	var newRows []int32
	redirect := map[int32]int32{}
	late := int64(0)
	gap := s.Window.Gap
	for i := 0; i < b.Len; i++ {
		gids[i] = -1
		if valid != nil && !vector.BitIsSet(valid, i) {
			continue
		}
		t := s.Window.ToLocal(ts[i])
		k, isNew := s.index.lookup(b, i, s.nKeys)
		if isNew {
			s.nKeys++
			s.sessions = append(s.sessions, nil)
			newRows = append(newRows, int32(i))
		}
		start, end := t, t+gap
		ss := s.sessions[k]
		// merge intersecting sessions (Flink's TimeWindow.intersects is inclusive)
		var keep []session
		target := int32(-1)
		for _, x := range ss {
			if x.start <= end && x.end >= start {
				start, end = min(start, x.start), max(end, x.end)
				if target < 0 {
					target = x.id
				} else {
					s.mergeSession(target, x.id)
					redirect[x.id] = target
				}
				continue
			}
			keep = append(keep, x)
		}
		if target < 0 && !s.Window.Proctime && windowFired(s.Window, end, s.wm) {
			late++
			continue
		}
		if target < 0 {
			target = s.newSession(k)
		}
		keep = append(keep, session{start: start, end: end, id: target})
		sort.Slice(keep, func(a, c int) bool { return keep[a].start < keep[c].start })
		s.sessions[k] = keep
		s.minEnd = min(s.minEnd, end)
		gids[i] = target
	}
	if late > 0 {
		s.Ctx.Metrics.LateDropped.Add(late)
	}
	if len(newRows) > 0 {
		chunk := make([]arrow.Array, len(s.Keys))
		for c, col := range s.Keys {
			chunk[c] = vector.Take(b.Cols[col], newRows)
		}
		s.pending = append(s.pending, chunk)
	}
	for i, g := range gids {
		for g >= 0 {
			r, ok := redirect[g]
			if !ok {
				break
			}
			g = r
		}
		gids[i] = g
	}
	if s.Rows {
		for i, g := range gids {
			if g >= 0 {
				s.rows[g] = append(s.rows[g], rowRef{b: b, row: int32(i)})
			}
		}
	} else {
		accumulateAggs(s.accs, s.Aggs, b, gids)
	}
	s.free = append(s.free, s.freed...)
	s.freed = s.freed[:0]
	s.reportState()
	return nil
}

// mergeSession folds session src into dst and frees src.
func (s *SessionWindows) mergeSession(dst, src int32) {
	for _, acc := range s.accs {
		acc.(mergeableAcc).mergeFrom(dst, acc, src)
	}
	if s.Rows {
		s.rows[dst] = append(s.rows[dst], s.rows[src]...)
		s.rows[src] = nil
	}
	s.freed = append(s.freed, src)
}

// ProcessWatermark fires the sessions that ended, then forwards the
// watermark.
func (s *SessionWindows) ProcessWatermark(_ int, wm int64) error {
	if wm <= s.wm {
		return nil
	}
	s.wm = wm
	if !s.Window.Proctime || wm == MaxWatermark {
		if err := s.fire(wm); err != nil {
			return err
		}
	}
	return s.Out.EmitWatermark(wm)
}

// NextProcessingTime implements ProcessingTimeOperator.
func (s *SessionWindows) NextProcessingTime() (int64, bool) {
	if !s.Window.Proctime || s.minEnd == MaxWatermark {
		return 0, false
	}
	return s.Window.ToUTC(s.minEnd) - 1, true
}

// OnProcessingTime implements ProcessingTimeOperator.
func (s *SessionWindows) OnProcessingTime(now int64) error {
	if !s.Window.Proctime {
		return nil
	}
	return s.fire(now)
}

type firedSession struct {
	key int32
	session
}

func (s *SessionWindows) fire(wm int64) error {
	if s.minEnd == MaxWatermark || !windowFired(s.Window, s.minEnd, wm) {
		return nil
	}
	var fired []firedSession
	s.minEnd = MaxWatermark
	for k, ss := range s.sessions {
		var keep []session
		for _, x := range ss {
			if windowFired(s.Window, x.end, wm) {
				fired = append(fired, firedSession{int32(k), x})
			} else {
				keep = append(keep, x)
				s.minEnd = min(s.minEnd, x.end)
			}
		}
		if len(keep) != len(ss) {
			s.sessions[k] = keep
		}
	}
	if len(fired) == 0 {
		return nil
	}
	sort.SliceStable(fired, func(i, j int) bool {
		if fired[i].end != fired[j].end {
			return fired[i].end < fired[j].end
		}
		return fired[i].key < fired[j].key
	})
	var err error
	if s.Rows {
		err = s.emitRows(fired)
	} else {
		err = s.emitAggs(fired)
	}
	for _, f := range fired {
		s.free = append(s.free, f.id)
		if s.Rows {
			s.rows[f.id] = nil
		}
	}
	s.reportState()
	return err
}

func (s *SessionWindows) keyColumns() []arrow.Array {
	if len(s.pending) > 0 {
		for c := range s.Keys {
			parts := make([]arrow.Array, 0, len(s.pending)+1)
			if s.keyChunk != nil {
				parts = append(parts, s.keyChunk[c])
			}
			for _, p := range s.pending {
				parts = append(parts, p[c])
			}
			if s.keyChunk == nil {
				s.keyChunk = make([]arrow.Array, len(s.Keys))
			}
			s.keyChunk[c] = vector.Concat(parts)
		}
		s.pending = nil
	}
	return s.keyChunk
}

func (s *SessionWindows) emitAggs(fired []firedSession) error {
	n := len(fired)
	keyIdx := make([]int32, n)
	for i, f := range fired {
		keyIdx[i] = f.key
	}
	cols := make([]arrow.Array, 0, len(s.OutTypes))
	kc := s.keyColumns()
	for c := range s.Keys {
		cols = append(cols, vector.Take(kc[c], keyIdx))
	}
	nk := len(s.Keys)
	for a, acc := range s.accs {
		t := s.OutTypes[nk+a]
		bld := array.NewBuilder(memory.DefaultAllocator, types.ToArrow(t))
		for _, f := range fired {
			types.AppendValue(bld, acc.result(f.id), t)
		}
		cols = append(cols, bld.NewArray())
	}
	for i, p := range s.Props {
		cols = append(cols, s.propColumn(p, s.OutTypes[nk+len(s.Aggs)+i], fired, nil))
	}
	return s.Emit(&types.Batch{Cols: cols, Len: n})
}

// propColumn builds a window property column for fired sessions; counts,
// when set, repeats session i counts[i] times.
func (s *SessionWindows) propColumn(p opspec.WindowProp, t *types.DataType, fired []firedSession, counts []int) arrow.Array {
	var vals []int64
	now := s.clock.Now().UnixMilli()
	for i, f := range fired {
		var v int64
		switch p {
		case opspec.PropStart:
			v = f.start
		case opspec.PropEnd:
			v = f.end
		case opspec.PropTime:
			v = f.end - 1
			if t.Root == types.TimestampLTZRoot {
				v = s.Window.ToUTC(f.end) - 1
			}
		case opspec.PropProctime:
			v = now
		}
		reps := 1
		if counts != nil {
			reps = counts[i]
		}
		for r := 0; r < reps; r++ {
			vals = append(vals, v)
		}
	}
	return vector.FromValues(types.ToArrow(t), vals, nil, 0)
}

func (s *SessionWindows) emitRows(fired []firedSession) error {
	counts := make([]int, len(fired))
	var parts []*types.Batch
	for i, f := range fired {
		refs := s.rows[f.id]
		counts[i] = len(refs)
		// gather consecutive rows of the same batch together
		for j := 0; j < len(refs); {
			k := j
			var sel []int32
			for k < len(refs) && refs[k].b == refs[j].b {
				sel = append(sel, refs[k].row)
				k++
			}
			parts = append(parts, TakeRows(refs[j].b, sel))
			j = k
		}
	}
	if len(parts) == 0 {
		return nil
	}
	all := ConcatBatches(parts, len(s.InTypes))
	cols := append([]arrow.Array(nil), all.Cols...)
	nIn := len(s.InTypes)
	for i, p := range s.Props {
		cols = append(cols, s.propColumn(p, s.OutTypes[nIn+i], fired, counts))
	}
	return s.Emit(&types.Batch{Cols: cols, Len: all.Len})
}

func (s *SessionWindows) reportState() {
	k, b := s.StateSize()
	s.Ctx.ReportState(k, b)
}

// StateSize implements StateReporter.
func (s *SessionWindows) StateSize() (int64, int64) {
	bytes := s.index.size() + int64(s.nSess)*24
	for _, acc := range s.accs {
		bytes += acc.size()
	}
	var rows int64
	for _, r := range s.rows {
		rows += int64(len(r))
	}
	return int64(s.nKeys), bytes + rows*16
}
