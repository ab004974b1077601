package runtime

import "github.com/riffle-sql/riffle/engine/internal/state"

// saveJoinKeyIndex saves a join key index: its kind (integer keys or key
// bytes), its number of ids and its entries.
func saveJoinKeyIndex(w *state.Writer, x *joinKeyIndex) {
	w.Bool(x.intKey)
	w.Varint(int64(x.n))
	if x.intKey {
		w.Count(len(x.ints))
		for k, id := range x.ints {
			w.Varint(k)
			w.Varint(int64(id))
		}
		return
	}
	w.Count(len(x.strs))
	for k, id := range x.strs {
		w.String(k)
		w.Varint(int64(id))
	}
}

// loadJoinKeyIndex fills x, a new index of the operator's keys, with what
// saveJoinKeyIndex saved; an index of the other kind is a failure.
func loadJoinKeyIndex(r *state.Reader, x *joinKeyIndex) {
	if intKey := r.Bool(); r.Err() == nil && intKey != x.intKey {
		r.Failf("want a join key index keyed by %s, found the other kind", map[bool]string{true: "integers", false: "key bytes"}[x.intKey])
	}
	x.n = r.Int32()
	if r.Err() == nil && x.n < 0 {
		r.Failf("want a number of join keys, found %d", x.n)
	}
	id := func() int32 {
		k := r.Int32()
		if r.Err() == nil && (k < 0 || k >= x.n) {
			r.Failf("want a join key id below %d, found %d", x.n, k)
		}
		return k
	}
	cnt := r.Count(2)
	if x.intKey {
		x.ints = make(map[int64]int32, cnt)
		for i := 0; i < cnt && r.Err() == nil; i++ {
			k := r.Varint()
			x.ints[k] = id()
		}
		return
	}
	x.strs = make(map[string]int32, cnt)
	for i := 0; i < cnt && r.Err() == nil; i++ {
		k := r.String()
		x.strs[k] = id()
	}
}
