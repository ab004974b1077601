package runtime

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/types"
)

// SinkUpsertMaterializer turns a changelog into an upsert stream on the
// sink's primary key (Flink's SinkUpsertMaterializer), for a sink with a
// primary key fed by a query whose updates are not keyed on it. Per key it
// keeps every row currently added, in order:
//
//   - +I/+U adds the row and emits it, as +I when the key had no row, else
//     as +U;
//   - -U/-D removes the first equal row; when that empties the key it emits
//     -D of the row, when it removed the last row it emits +U of the row
//     now last, otherwise nothing; a row never added is ignored.
//
// The output has no -U rows.
type SinkUpsertMaterializer struct {
	BaseOperator
	// Keys are the primary key columns; Types all input column types.
	Keys     []int
	KeyTypes []*types.DataType
	Types    []*types.DataType

	index groupIndex
	n     int32
	rows  [][]int32 // per key: store ids of its rows, oldest first
	store *RowStore
	live  int64
	// state TTL and id reuse (upsert_materialize_ttl.go)
	ttl  ttlState
	free []int32
}

// Open implements Operator.
func (m *SinkUpsertMaterializer) Open(ctx *OpContext, out Output) error {
	m.BaseOperator.Open(ctx, out)
	m.index = newGroupIndex(m.Keys, m.KeyTypes)
	m.store = NewRowStore(m.Types)
	if !ctx.Batch {
		m.ttl.open(ctx)
	}
	return nil
}

// ProcessBatch implements Operator.
func (m *SinkUpsertMaterializer) ProcessBatch(_ int, b *types.Batch) error {
	var kinds []types.RowKind
	var ids []int32
	emit := func(k types.RowKind, id int32) {
		kinds = append(kinds, k)
		ids = append(ids, id)
	}
	now := m.ttl.now()
	for i := 0; i < b.Len; i++ {
		kind := b.Kind(i)
		if kind.IsAccumulate() {
			g, isNew := m.lookup(b, i)
			if !isNew && m.ttl.expired(g, now) {
				m.clearRows(g) // expired: the key starts afresh (+I)
			}
			m.ttl.write(g, now)
			id := m.store.Len()
			m.store.Append(b, []int32{int32(i)})
			m.live++
			out := types.UpdateAfter
			if len(m.rows[g]) == 0 {
				out = types.Insert
			}
			m.rows[g] = append(m.rows[g], id)
			emit(out, id)
			continue
		}
		g, found := m.index.find(b, i)
		if !found {
			continue
		}
		if m.ttl.expired(g, now) {
			// expired: nothing left to retract from
			m.clearRows(g)
			m.index.remove(b, i)
			m.free = append(m.free, g)
			continue
		}
		rs := m.rows[g]
		at := -1
		for x, id := range rs {
			if m.store.EqualRow(id, b, i) {
				at = x
				break
			}
		}
		if at < 0 {
			continue // state cleared or never added: ignored, as Flink does
		}
		removed := rs[at]
		last := at == len(rs)-1
		rs = append(rs[:at], rs[at+1:]...)
		m.rows[g] = rs
		m.live--
		switch {
		case len(rs) == 0:
			emit(types.Delete, removed)
			m.index.remove(b, i)
			m.rows[g] = nil
			m.free = append(m.free, g)
			continue
		case last:
			emit(types.UpdateAfter, rs[len(rs)-1])
		}
		m.ttl.write(g, now)
	}
	var out *types.Batch
	if len(ids) > 0 {
		out = &types.Batch{Cols: m.store.Gather(ids), Kinds: kinds, Len: len(ids)}
	}
	m.compact()
	m.Ctx.ReportState(m.StateSize())
	if out == nil {
		return nil
	}
	return m.Emit(out)
}

// compact drops removed rows from the store once they are the majority.
func (m *SinkUpsertMaterializer) compact() {
	total := int64(m.store.Len())
	if dead := total - m.live; dead < 4096 || dead < m.live {
		return
	}
	var keep []int32
	for g, rs := range m.rows {
		for x, id := range rs {
			keep = append(keep, id)
			rs[x] = int32(len(keep) - 1)
		}
		m.rows[g] = rs
	}
	m.store = rebuildStore(m.store, keep)
}

// String names the operator in errors.
func (m *SinkUpsertMaterializer) String() string {
	return fmt.Sprintf("SinkUpsertMaterializer(keys=%v)", m.Keys)
}

// MaterializingSink runs a SinkUpsertMaterializer in front of a sink
// operator in one task (Flink shows it as the sink's
// upsertMaterialize=[true]).
type MaterializingSink struct {
	Materializer *SinkUpsertMaterializer
	Sink         Operator
}

type sinkInput struct{ op Operator }

func (s sinkInput) Emit(b *types.Batch) error    { return s.op.ProcessBatch(0, b) }
func (s sinkInput) EmitWatermark(wm int64) error { return s.op.ProcessWatermark(0, wm) }

// Open implements Operator.
func (m *MaterializingSink) Open(ctx *OpContext, out Output) error {
	if err := m.Sink.Open(ctx, out); err != nil {
		return err
	}
	return m.Materializer.Open(ctx, sinkInput{m.Sink})
}

// ProcessBatch implements Operator.
func (m *MaterializingSink) ProcessBatch(in int, b *types.Batch) error {
	return m.Materializer.ProcessBatch(in, b)
}

// ProcessWatermark implements Operator.
func (m *MaterializingSink) ProcessWatermark(in int, wm int64) error {
	return m.Sink.ProcessWatermark(in, wm)
}

// EndInput implements Operator.
func (m *MaterializingSink) EndInput(in int) error { return m.Sink.EndInput(in) }

// Close implements Operator.
func (m *MaterializingSink) Close() error { return m.Sink.Close() }

// NextProcessingTime implements ProcessingTimeOperator: the earlier of the
// materializer's TTL cleanup and the sink's own timer.
func (m *MaterializingSink) NextProcessingTime() (int64, bool) {
	next, ok := m.Materializer.NextProcessingTime()
	if s, isTimed := m.Sink.(ProcessingTimeOperator); isTimed {
		if t, due := s.NextProcessingTime(); due && (!ok || t < next) {
			next, ok = t, true
		}
	}
	return next, ok
}

// OnProcessingTime implements ProcessingTimeOperator.
func (m *MaterializingSink) OnProcessingTime(now int64) error {
	if err := m.Materializer.OnProcessingTime(now); err != nil {
		return err
	}
	if s, isTimed := m.Sink.(ProcessingTimeOperator); isTimed {
		if t, due := s.NextProcessingTime(); due && t <= now {
			return s.OnProcessingTime(now)
		}
	}
	return nil
}
