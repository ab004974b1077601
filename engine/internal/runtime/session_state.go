package runtime

import (
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
)

// sessionStateVersion is the format version of SessionWindows snapshots.
const sessionStateVersion = 1

// A SessionWindows snapshot (CheckpointedOperator) holds, after the header
// and the operator's shape (key types, aggregate calls or TVF mode with
// the input types, the gap, the time attribute): the watermark it has
// seen and the earliest end of an open session (its timer), the number of
// keys, the key index and the keys (a RowStore of the key types), each
// key's open sessions (start, end, session id), the number of session
// ids, each session's key, the free ids, then each accumulator's sessions
// (aggregation) or, in TVF mode, the rows of every session (a RowStore of
// the input types and each session's number of rows).

func (s *SessionWindows) stateShape() string {
	var b strings.Builder
	fmt.Fprintf(&b, "keys (%s);", typesShape(s.KeyTypes))
	if s.Rows {
		fmt.Fprintf(&b, " rows (%s);", typesShape(s.InTypes))
	} else {
		b.WriteString(" aggregates")
		for _, a := range s.Aggs {
			fmt.Fprintf(&b, " %s(%s) %s;", a.String(), typesShape(a.ArgTypes), a.Type)
		}
	}
	fmt.Fprintf(&b, " window %s proctime %v", s.Window, s.Window.Proctime)
	if s.Window.Zone != nil {
		fmt.Fprintf(&b, " zone %s", s.Window.Zone)
	}
	fmt.Fprintf(&b, "; time $%d", s.TimeCol)
	return b.String()
}

// SnapshotState implements CheckpointedOperator.
func (s *SessionWindows) SnapshotState() ([]byte, error) {
	_, size := s.StateSize()
	w := state.NewWriter(64 + int(size))
	w.Header("SessionWindows", sessionStateVersion)
	w.String(s.stateShape())
	w.Varint(s.wm)
	w.Varint(s.minEnd)
	nKeys := int(s.nKeys)
	w.Count(nKeys)
	writeGroupIndex(w, s.index)
	keys := NewRowStore(s.KeyTypes)
	if nKeys > 0 {
		keys.Append(&types.Batch{Cols: s.keyColumns(), Len: nKeys}, nil)
	}
	keys.WriteState(w)
	for _, ss := range s.sessions[:nKeys] {
		w.Count(len(ss))
		for _, x := range ss {
			w.Varint(x.start)
			w.Varint(x.end)
			w.Varint(int64(x.id))
		}
	}
	n := int(s.nSess)
	w.Count(n)
	w.Int32s(s.keyOf[:n])
	w.Int32s(append(append([]int32(nil), s.free...), s.freed...))
	for _, acc := range s.accs {
		writeAcc(w, acc, n)
	}
	if s.Rows {
		store := NewRowStore(s.InTypes)
		counts := make([]int64, n)
		for id, refs := range s.rows[:n] {
			counts[id] = int64(len(refs))
			for j := 0; j < len(refs); {
				k := j
				var sel []int32
				for k < len(refs) && refs[k].b == refs[j].b {
					sel = append(sel, refs[k].row)
					k++
				}
				store.Append(refs[j].b, sel)
				j = k
			}
		}
		store.WriteState(w)
		w.Int64s(counts)
	}
	if err := w.Err(); err != nil {
		return nil, fmt.Errorf("SessionWindows: %w", err)
	}
	return w.Data(), nil
}

// RestoreState implements CheckpointedOperator: the state is decoded into
// new structures and replaces the operator's only when all of it decoded.
func (s *SessionWindows) RestoreState(snapshot []byte) error {
	r := state.NewReader(snapshot)
	r.Header("SessionWindows", sessionStateVersion)
	checkShape(r, "SessionWindows", s.stateShape())
	wm := r.Varint()
	minEnd := r.Varint()
	nKeys := r.Count(1)
	index := newGroupIndex(s.Keys, s.KeyTypes)
	readGroupIndex(r, index, int32(nKeys))
	var keys *RowStore
	if r.Err() == nil {
		keys = ReadRowStore(r, s.KeyTypes)
		if r.Err() == nil && int(keys.Len()) != nKeys {
			r.Failf("want the values of %d keys, found %d", nKeys, keys.Len())
		}
	}
	var sessions [][]session
	if r.Err() == nil {
		sessions = make([][]session, nKeys)
	}
	for k := 0; k < len(sessions) && r.Err() == nil; k++ {
		cnt := r.Count(3)
		if cnt == 0 {
			continue
		}
		ss := make([]session, cnt)
		for i := range ss {
			ss[i] = session{start: r.Varint(), end: r.Varint(), id: r.Int32()}
		}
		sessions[k] = ss
	}
	n := r.Count(1)
	keyOf := readN(r, n, r.Int32s, "session keys")
	for _, k := range keyOf {
		if r.Err() == nil && (k < 0 || int(k) >= nKeys) {
			r.Failf("want a session's key id below %d, found %d", nKeys, k)
		}
	}
	for _, ss := range sessions {
		for _, x := range ss {
			if r.Err() == nil && (x.id < 0 || int(x.id) >= n) {
				r.Failf("want a session id below %d, found %d", n, x.id)
			}
		}
	}
	free := readIDs(r, int32(n), "a free session id")
	var accs []accumulator
	if r.Err() == nil {
		var err error
		if accs, err = freshAccumulators(s.accs, s.Aggs, false); err != nil {
			return fmt.Errorf("SessionWindows: restoring state: %w", err)
		}
	}
	for _, acc := range accs {
		if r.Err() == nil {
			readAcc(r, acc, n)
		}
	}
	var rows [][]rowRef
	if s.Rows && r.Err() == nil {
		store := ReadRowStore(r, s.InTypes)
		counts := readN(r, n, r.Int64s, "session row counts")
		total := int64(0)
		for _, c := range counts {
			if c < 0 || c > int64(store.Len())-total {
				r.Failf("want session row counts adding up to %d, found %v", store.Len(), counts)
				break
			}
			total += c
		}
		if r.Err() == nil && total != int64(store.Len()) {
			r.Failf("want session row counts adding up to %d, found %d", store.Len(), total)
		}
		if r.Err() == nil {
			b := &types.Batch{Cols: store.Gather(seqIDs(int(total))), Len: int(total)}
			rows = make([][]rowRef, n)
			at := int32(0)
			for id, c := range counts {
				for j := int64(0); j < c; j++ {
					rows[id] = append(rows[id], rowRef{b: b, row: at})
					at++
				}
			}
		}
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("SessionWindows: restoring state: %w", err)
	}
	var keyChunk []arrow.Array
	if nKeys > 0 {
		keyChunk = keys.Gather(seqIDs(nKeys))
	}
	s.index, s.nKeys, s.keyChunk, s.pending, s.sessions = index, int32(nKeys), keyChunk, nil, sessions
	s.keyOf, s.accs, s.rows, s.nSess, s.free, s.freed = keyOf, accs, rows, int32(n), free, nil
	s.wm, s.minEnd = wm, minEnd
	s.reportState()
	return nil
}

// seqIDs returns the ids 0 .. n-1.
func seqIDs(n int) []int32 {
	ids := make([]int32, n)
	for i := range ids {
		ids[i] = int32(i)
	}
	return ids
}
