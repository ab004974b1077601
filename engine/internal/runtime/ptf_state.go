package runtime

import (
	"fmt"
	"sort"
	"strings"

	"github.com/riffle-sql/riffle/engine/internal/state"
)

// ptfStateVersion is the format version of ProcessTableFunction snapshots.
const ptfStateVersion = 1

// A ProcessTableFunction snapshot (CheckpointedOperator) holds, after the
// header and the operator's shape (function, uid, partition key types,
// state entries): the watermark, the timer counter, then per partition
// (in key order) its key, each state entry (present flag and value), its
// named timers (by name: name, time, order) and its unnamed timers (time,
// order).

func (o *ProcessTableFunction) stateShape() string {
	var st []string
	for _, s := range o.Spec.Def.State {
		st = append(st, s.Name+" "+s.Type.String())
	}
	// the uid EXPLAIN shows: the given one, else the function's name for
	// set semantics
	uid := o.Spec.UID
	if uid == "" && o.Spec.SetSemantics {
		uid = o.Spec.Name
	}
	return fmt.Sprintf("function %s; uid %s; keys (%s); state (%s)", o.Spec.Name, uid, typesShape(o.keyTypes), strings.Join(st, ", "))
}

// SnapshotState implements CheckpointedOperator.
func (o *ProcessTableFunction) SnapshotState() ([]byte, error) {
	w := state.NewWriter(256)
	w.Header("ProcessTableFunction", ptfStateVersion)
	w.String(o.stateShape())
	w.Varint(o.wm)
	w.Varint(o.timerSeq)
	keys := make([]string, 0, len(o.parts))
	for k := range o.parts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	w.Count(len(keys))
	for _, k := range keys {
		p := o.parts[k]
		for i, v := range p.key {
			w.Value(v, o.keyTypes[i])
		}
		for i, v := range p.state {
			w.Bool(v != nil)
			if v != nil {
				w.Value(v, o.Spec.Def.State[i].Type)
			}
		}
		names := make([]string, 0, len(p.named))
		for n := range p.named {
			names = append(names, n)
		}
		sort.Strings(names)
		w.Count(len(names))
		for _, n := range names {
			w.String(n)
			w.Varint(p.named[n].at)
			w.Varint(p.named[n].seq)
		}
		w.Count(len(p.unnamed))
		for _, t := range p.unnamed {
			w.Varint(t.at)
			w.Varint(t.seq)
		}
	}
	if err := w.Err(); err != nil {
		return nil, fmt.Errorf("ProcessTableFunction: %w", err)
	}
	return w.Data(), nil
}

// RestoreState implements CheckpointedOperator: the state replaces the
// operator's only when all of it decoded.
func (o *ProcessTableFunction) RestoreState(snapshot []byte) error {
	r := state.NewReader(snapshot)
	r.Header("ProcessTableFunction", ptfStateVersion)
	checkShape(r, "ProcessTableFunction", o.stateShape())
	wm := r.Varint()
	seq := r.Varint()
	parts := map[string]*ptfPartition{}
	n := r.Count(1)
	for i := 0; i < n && r.Err() == nil; i++ {
		p := &ptfPartition{key: make([]any, len(o.keyTypes)), state: make([]any, len(o.Spec.Def.State))}
		kw := state.NewWriter(16)
		for j, t := range o.keyTypes {
			p.key[j] = r.Value(t)
			kw.Value(p.key[j], t)
		}
		p.ks = string(kw.Data())
		for j, s := range o.Spec.Def.State {
			if r.Bool() {
				p.state[j] = r.Value(s.Type)
			}
		}
		nn := r.Count(3)
		for j := 0; j < nn && r.Err() == nil; j++ {
			if p.named == nil {
				p.named = map[string]ptfTimer{}
			}
			name := r.String()
			p.named[name] = ptfTimer{at: r.Varint(), seq: r.Varint()}
		}
		nu := r.Count(2)
		for j := 0; j < nu && r.Err() == nil; j++ {
			p.unnamed = append(p.unnamed, ptfTimer{at: r.Varint(), seq: r.Varint()})
		}
		parts[p.ks] = p
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("ProcessTableFunction: restoring state: %w", err)
	}
	o.wm, o.timerSeq, o.parts = wm, seq, parts
	o.reportState()
	return nil
}
