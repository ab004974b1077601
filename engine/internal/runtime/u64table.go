package runtime

// u64Table is an open-addressing hash table from uint64 keys to int64
// values (linear probing, at most half full): the (group, value) counts
// of DISTINCT and dictionaries keyed by shortKey. ^uint64(0) cannot be a
// key. remove deletes an entry; the table never shrinks.
type u64Table struct {
	keys  []uint64 // emptyPair marks a free slot
	vals  []int64
	n     int
	shift uint
}

// emptyPair marks a free slot; it is never a pairKey (group ids are below
// 2^31) nor a shortKey (lengths are below 8).
const emptyPair = ^uint64(0)

func (t *u64Table) home(k uint64) uint64 { return (k * 0x9E3779B97F4A7C15) >> t.shift }

// find returns the count of key k, nil if absent. The pointer is valid
// until the next slot call.
func (t *u64Table) find(k uint64) *int64 {
	if t.n == 0 {
		return nil
	}
	mask := uint64(len(t.keys) - 1)
	for i := t.home(k); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			return &t.vals[i]
		case emptyPair:
			return nil
		}
	}
}

// slot returns the count of key k, adding it with count 0 (isNew) if
// absent. The pointer is valid until the next slot call.
func (t *u64Table) slot(k uint64) (p *int64, isNew bool) {
	if 2*(t.n+1) > len(t.keys) {
		t.grow()
	}
	mask := uint64(len(t.keys) - 1)
	for i := t.home(k); ; i = (i + 1) & mask {
		switch t.keys[i] {
		case k:
			return &t.vals[i], false
		case emptyPair:
			// a removed entry may have left its value in the slot
			t.keys[i], t.vals[i] = k, 0
			t.n++
			return &t.vals[i], true
		}
	}
}

func (t *u64Table) grow() {
	size := max(2*len(t.keys), 64)
	old, oldVals := t.keys, t.vals
	t.keys, t.vals = make([]uint64, size), make([]int64, size)
	for i := range t.keys {
		t.keys[i] = emptyPair
	}
	t.shift = 64
	for s := size; s > 1; s >>= 1 {
		t.shift--
	}
	mask := uint64(size - 1)
	for j, k := range old {
		if k == emptyPair {
			continue
		}
		i := t.home(k)
		for t.keys[i] != emptyPair {
			i = (i + 1) & mask
		}
		t.keys[i], t.vals[i] = k, oldVals[j]
	}
}

// remove deletes key k, reporting whether it was present. Later entries of
// its probe run move back into the freed slot (backward shift deletion),
// so lookups never need tombstones.
func (t *u64Table) remove(k uint64) bool {
	if t.n == 0 {
		return false
	}
	mask := uint64(len(t.keys) - 1)
	i := t.home(k)
	for ; t.keys[i] != k; i = (i + 1) & mask {
		if t.keys[i] == emptyPair {
			return false
		}
	}
	for j := i; ; {
		j = (j + 1) & mask
		if t.keys[j] == emptyPair {
			break
		}
		// the entry at j stays unless its home lies outside (i, j]
		// (cyclically): then it may move back to i
		h := t.home(t.keys[j])
		if i <= j && (h <= i || h > j) || i > j && h <= i && h > j {
			t.keys[i], t.vals[i] = t.keys[j], t.vals[j]
			i = j
		}
	}
	t.keys[i] = emptyPair
	t.n--
	return true
}

// findBatch sets out[i] to the value of keys[i], or -1 when keys[i] is
// absent or emptyPair (the caller's mark for a row it looks up otherwise).
// Values must fit in an int32 (group ids, value numbers). One loop over
// the batch keeps the table's slices and shift in registers and lets the
// probes of successive rows overlap. len(out) >= len(keys).
func (t *u64Table) findBatch(keys []uint64, out []int32) {
	out = out[:len(keys)]
	if t.n == 0 {
		for i := range out {
			out[i] = -1
		}
		return
	}
	tk, tv := t.keys, t.vals[:len(t.keys)]
	mask := uint64(len(tk) - 1)
	shift := t.shift & 63
	for i, k := range keys {
		g := int32(-1)
		if k != emptyPair {
			for h := (k * 0x9E3779B97F4A7C15) >> shift; ; h++ {
				kk := tk[h&mask]
				if kk == k {
					g = int32(tv[h&mask])
					break
				}
				if kk == emptyPair {
					break
				}
			}
		}
		out[i] = g
	}
}

// addBatch adds 1 to the value of each present keys[i] and sets out[i] to
// 1 when the value became 1, to 0 when it became anything else, and to -1
// when keys[i] is absent or emptyPair (the caller adds those, in its
// order, with slot): DISTINCT's multiplicities counted a batch at a time,
// the probes of successive rows overlapping as in findBatch. len(out) >=
// len(keys).
func (t *u64Table) addBatch(keys []uint64, out []int32) {
	out = out[:len(keys)]
	if t.n == 0 {
		for i := range out {
			out[i] = -1
		}
		return
	}
	tk, tv := t.keys, t.vals[:len(t.keys)]
	mask := uint64(len(tk) - 1)
	shift := t.shift & 63
	for i, k := range keys {
		r := int32(-1)
		if k != emptyPair {
			for h := (k * 0x9E3779B97F4A7C15) >> shift; ; h++ {
				kk := tk[h&mask]
				if kk == k {
					tv[h&mask]++
					r = 0
					if tv[h&mask] == 1 {
						r = 1
					}
					break
				}
				if kk == emptyPair {
					break
				}
			}
		}
		out[i] = r
	}
}
