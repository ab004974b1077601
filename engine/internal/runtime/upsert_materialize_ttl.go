package runtime

import "github.com/riffle-sql/riffle/engine/types"

// State time-to-live of the sink's upsert materializer
// (table.exec.state.ttl), as Flink's SinkUpsertMaterializer applies it: a
// key's list of rows is state with a TTL refreshed on every write
// (StateTtlConfig OnCreateAndWrite, NeverReturnExpired, processing time).
// A write is a row added (+I/+U) or a row removed (-U/-D) that leaves rows
// behind; a retraction of a row the key does not hold writes nothing.
//
// A key whose rows were last written TTL or more milliseconds ago is gone:
// its next +I/+U is emitted as +I, a retraction for it is ignored. A
// cleanup timer drops expired keys that see no more rows, emitting
// nothing.
//
// Keys leave memory: expired keys and keys emptied by retractions leave
// the index and give their id (their slot in the per-key slice) to the
// next new key, so the slice is as long as the most keys alive at once;
// their rows leave the row store when it is compacted.

// lookup returns the id of row i's key, creating it (with a freed id when
// there is one) when it is new.
func (m *SinkUpsertMaterializer) lookup(b *types.Batch, i int) (int32, bool) {
	next, free := m.n, len(m.free)
	if free > 0 {
		next = m.free[free-1]
	}
	g, isNew := m.index.lookup(b, i, next)
	if !isNew {
		return g, false
	}
	if free > 0 {
		m.free = m.free[:free-1]
	} else {
		m.n++
		m.rows = append(m.rows, nil)
	}
	return g, true
}

// clearRows drops the rows of key g.
func (m *SinkUpsertMaterializer) clearRows(g int32) {
	m.live -= int64(len(m.rows[g]))
	m.rows[g] = nil
}

// NextProcessingTime implements ProcessingTimeOperator: the TTL cleanup
// timer.
func (m *SinkUpsertMaterializer) NextProcessingTime() (int64, bool) {
	return m.ttl.next, m.ttl.on() && m.ttl.next > 0
}

// OnProcessingTime drops the keys whose state expired, emitting nothing.
func (m *SinkUpsertMaterializer) OnProcessingTime(now int64) error {
	if !m.ttl.on() || m.ttl.next == 0 || now < m.ttl.next {
		return nil
	}
	next := int64(0)
	m.index.evict(func(g int32) bool {
		if m.ttl.expired(g, now) {
			m.clearRows(g)
			m.free = append(m.free, g)
			return true
		}
		if due := m.ttl.last[g] + m.ttl.ttl; next == 0 || due < next {
			next = due
		}
		return false
	})
	m.ttl.next = next
	m.compact()
	m.Ctx.ReportState(m.StateSize())
	return nil
}

// StateSize implements StateReporter: keys held and the row store's bytes.
func (m *SinkUpsertMaterializer) StateSize() (int64, int64) {
	return m.index.count(), m.store.Bytes()
}
