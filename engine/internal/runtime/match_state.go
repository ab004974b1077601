package runtime

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/internal/state"
)

// matchStateVersion is the format version of Match snapshots.
const matchStateVersion = 1

// A Match snapshot (CheckpointedOperator) holds, after the header and the
// operator's shape (pattern, skip, WITHIN, time column, the types of the
// partition keys, secondary keys, time attribute and inner expressions):
// the watermark, the row counters (arrival, processing), then per
// partition (in key order) its key, the rows its state refers to (each
// once: arrival and processing numbers, timestamp, time value, secondary keys, inner values), the rows waiting
// for the watermark, the partial matches and the completed matches held
// back (element, count, then the rows by index with their variables).

func (m *Match) stateShape() string {
	s := m.Spec
	return fmt.Sprintf("pattern %s; %s; within %d; time $%d proctime %v; keys (%s); secondary (%s); time (%s); inner (%s)",
		s.PatternString(), s.SkipString(), s.WithinMillis, s.TimeCol, s.Proctime, typesShape(m.keyTypes), typesShape(m.secTypes),
		m.InTypes[s.TimeCol], typesShape(m.innerT))
}

// SnapshotState implements CheckpointedOperator.
func (m *Match) SnapshotState() ([]byte, error) {
	w := state.NewWriter(256)
	w.Header("Match", matchStateVersion)
	w.String(m.stateShape())
	w.Varint(m.wm)
	w.Varint(m.seq)
	w.Varint(m.nextID)
	keys := m.sortedKeys()
	w.Count(len(keys))
	for _, k := range keys {
		p := m.parts[k]
		for i, v := range p.key {
			w.Value(v, m.keyTypes[i])
		}
		idx := map[*matchRow]int{}
		var rows []*matchRow
		note := func(rs []*matchRow) {
			for _, r := range rs {
				if _, ok := idx[r]; !ok {
					idx[r] = len(rows)
					rows = append(rows, r)
				}
			}
		}
		note(p.pending)
		for _, c := range p.partials {
			note(c.rows)
		}
		for _, c := range p.completed {
			note(c.rows)
		}
		w.Count(len(rows))
		for _, r := range rows {
			w.Varint(r.seq)
			w.Varint(r.id)
			w.Varint(r.ts)
			w.Value(r.time, m.InTypes[m.Spec.TimeCol])
			for i, v := range r.sec {
				w.Value(v, m.secTypes[i])
			}
			for i, v := range r.inner {
				w.Value(v, m.innerT[i])
			}
		}
		w.Count(len(p.pending))
		for _, r := range p.pending {
			w.Uvarint(uint64(idx[r]))
		}
		for _, cs := range [][]*matchPartial{p.partials, p.completed} {
			w.Count(len(cs))
			for _, c := range cs {
				w.Varint(int64(c.elem))
				w.Varint(int64(c.count))
				w.Count(len(c.rows))
				for i, r := range c.rows {
					w.Uvarint(uint64(idx[r]))
					w.Uvarint(uint64(c.vars[i]))
				}
			}
		}
	}
	if err := w.Err(); err != nil {
		return nil, fmt.Errorf("Match: %w", err)
	}
	return w.Data(), nil
}

// RestoreState implements CheckpointedOperator: the state is decoded into
// new structures and replaces the operator's only when all of it decoded.
func (m *Match) RestoreState(snapshot []byte) error {
	r := state.NewReader(snapshot)
	r.Header("Match", matchStateVersion)
	checkShape(r, "Match", m.stateShape())
	wm := r.Varint()
	seq := r.Varint()
	nextID := r.Varint()
	parts := map[string]*matchPartition{}
	pending := 0
	n := r.Count(1)
	for i := 0; i < n && r.Err() == nil; i++ {
		p := &matchPartition{key: make([]any, len(m.keyTypes))}
		kw := state.NewWriter(16)
		for j, t := range m.keyTypes {
			p.key[j] = r.Value(t)
			kw.Value(p.key[j], t)
		}
		nr := r.Count(2)
		rows := make([]*matchRow, 0, nr)
		for j := 0; j < nr && r.Err() == nil; j++ {
			row := &matchRow{seq: r.Varint(), id: r.Varint(), ts: r.Varint()}
			row.time = r.Value(m.InTypes[m.Spec.TimeCol])
			for _, t := range m.secTypes {
				row.sec = append(row.sec, r.Value(t))
			}
			row.inner = make([]any, len(m.innerT))
			for k, t := range m.innerT {
				row.inner[k] = r.Value(t)
			}
			rows = append(rows, row)
		}
		at := func() *matchRow {
			off := r.Offset()
			k := r.Uvarint()
			if r.Err() != nil {
				return nil
			}
			if k >= uint64(len(rows)) {
				r.FailAt(off, "row %d of a Match partition out of range (%d rows)", k, len(rows))
				return nil
			}
			return rows[k]
		}
		np := r.Count(1)
		for j := 0; j < np && r.Err() == nil; j++ {
			p.pending = append(p.pending, at())
		}
		pending += len(p.pending)
		for list := 0; list < 2; list++ {
			nc := r.Count(3)
			for j := 0; j < nc && r.Err() == nil; j++ {
				c := &matchPartial{elem: int(r.Varint()), count: int(r.Varint())}
				off := r.Offset()
				if r.Err() == nil && (c.elem < 0 || c.elem >= len(m.Spec.Pattern)) {
					r.FailAt(off, "pattern element %d out of range", c.elem)
				}
				cr := r.Count(2)
				for k := 0; k < cr && r.Err() == nil; k++ {
					c.rows = append(c.rows, at())
					vo := r.Offset()
					v := r.Uvarint()
					if r.Err() == nil && v >= uint64(len(m.Spec.Vars)) {
						r.FailAt(vo, "pattern variable %d out of range", v)
					}
					c.vars = append(c.vars, int(v))
				}
				if r.Err() == nil && len(c.rows) == 0 {
					r.Failf("a Match partial match without rows")
				}
				if list == 0 {
					p.partials = append(p.partials, c)
				} else {
					p.completed = append(p.completed, c)
				}
			}
		}
		if err := kw.Err(); err != nil {
			r.Failf("%v", err)
		}
		parts[string(kw.Data())] = p
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("Match: restoring state: %w", err)
	}
	m.wm, m.seq, m.nextID, m.parts, m.pending = wm, seq, nextID, parts, pending
	m.waiting = map[string]bool{}
	for ks, p := range parts {
		if len(p.pending) > 0 {
			m.waiting[ks] = true
		}
	}
	m.flushDue = -1
	if m.Spec.Proctime && pending > 0 {
		// the rows saved waiting run at the first processing-time check
		m.flushDue = 0
	}
	m.resetExpiry()
	m.reportState()
	return nil
}
