package runtime

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// ---- DISTINCT: forwards a value to the inner accumulator only on its
// first occurrence in a group (and retracts it on its last removal), as
// Flink's distinct aggregates keep a MapView of value → count per key.
//
// The state is shared by all groups of the accumulator: a dictionary
// numbers the distinct argument values seen (in any group), and one hash
// table holds the multiplicity of each (group, value number) pair. A row
// costs one dictionary lookup and one integer-keyed probe, with no
// allocation unless the value or the pair is new.

type distinctAcc struct {
	inner accumulator
	t     *types.DataType
	// how a row's arguments are numbered: intKey for a single integral or
	// temporal argument (dictionary keyed by the value), strKey for a
	// single character or binary argument (keyed by its bytes), otherwise
	// by the arguments' AppendKey encoding
	intKey, strKey bool
	intIDs         intDict
	ids            map[string]int32
	shortIDs       u64Table // strKey values of up to 7 bytes, by shortKey
	ints           []int64  // value number → value (intKey)
	keys           []string // value number → key (otherwise)
	kb             []byte
	// pairs maps (group, value number) to the value's multiplicity in
	// the group; members lists each group's value numbers in pairs
	// (entries whose multiplicity fell to zero stay listed)
	pairs   u64Table
	members [][]int32
	// accumulateStrings' and accumulateInts' buffers
	packed   []uint64
	valueIDs []int32
	added    []int32
}

func newDistinctAcc(inner accumulator, s opspec.AggSpec) *distinctAcc {
	d := &distinctAcc{inner: inner}
	if len(s.ArgTypes) > 0 {
		d.t = s.ArgTypes[0]
	}
	if len(s.Args) == 1 && d.t != nil {
		d.intKey = d.t.IsIntegral() || d.t.IsDatetime()
		d.strKey = d.t.IsString() || d.t.IsBinary()
	}
	if !d.intKey {
		d.ids = map[string]int32{}
	}
	return d
}

func (a *distinctAcc) resize(n int) {
	a.inner.resize(n)
	for len(a.members) < n {
		a.members = append(a.members, nil)
	}
}

// valueID numbers the arguments of row i; ok is false when an argument
// is NULL (DISTINCT ignores such rows) or, without create, when the value
// was never seen.
func (a *distinctAcc) valueID(args []arrow.Array, i int, create bool) (id int32, ok bool) {
	switch {
	case a.intKey:
		c := args[0]
		if c.IsNull(i) {
			return 0, false
		}
		v := int64Of(c, i)
		if id, ok := a.intIDs.get(v); ok {
			return id, true
		}
		if !create {
			return 0, false
		}
		return a.newInt(v), true
	case a.strKey && isStringData(args[0]):
		c := args[0]
		if c.IsNull(i) {
			return 0, false
		}
		offs, data := vector.StringData(c)
		return a.stringID(offs, data, i, create)
	}
	kb := a.kb[:0]
	for _, c := range args {
		if c.IsNull(i) {
			return 0, false
		}
		kb = AppendKey(kb, c, i)
	}
	a.kb = kb
	return a.keyID(vector.UnsafeString(kb), create)
}

// isStringData reports an array vector.StringData can read.
func isStringData(c arrow.Array) bool {
	switch c.(type) {
	case *array.String, *array.Binary:
		return true
	}
	return false
}

// stringID numbers element i of a string column (strKey).
func (a *distinctAcc) stringID(offs []int32, data []byte, i int, create bool) (int32, bool) {
	k, short := shortKey(offs, data, i)
	if !short {
		return a.keyID(vector.UnsafeString(data[offs[i]:offs[i+1]]), create)
	}
	if !create {
		if p := a.shortIDs.find(k); p != nil {
			return int32(*p), true
		}
		return 0, false
	}
	p, isNew := a.shortIDs.slot(k)
	if isNew {
		*p = int64(len(a.keys))
		a.keys = append(a.keys, string(data[offs[i]:offs[i+1]]))
	}
	return int32(*p), true
}

// keyID numbers key, which may alias memory that changes (it is copied
// when stored).
func (a *distinctAcc) keyID(key string, create bool) (int32, bool) {
	if a.strKey {
		if k, short := shortKeyOf(key); short {
			if !create {
				if p := a.shortIDs.find(k); p != nil {
					return int32(*p), true
				}
				return 0, false
			}
			p, isNew := a.shortIDs.slot(k)
			if isNew {
				*p = int64(len(a.keys))
				a.keys = append(a.keys, strings.Clone(key))
			}
			return int32(*p), true
		}
	}
	if id, ok := a.ids[key]; ok {
		return id, true
	}
	if !create {
		return 0, false
	}
	id := int32(len(a.keys))
	key = strings.Clone(key)
	a.keys = append(a.keys, key)
	a.ids[key] = id
	return id, true
}

// add counts one more occurrence of value id in group g and forwards its
// first occurrence to the inner accumulator.
func (a *distinctAcc) add(g, id int32, args []arrow.Array, i int) {
	p, isNew := a.pairs.slot(pairKey(g, id))
	if isNew {
		a.members[g] = append(a.members[g], id)
	}
	*p++
	if *p == 1 {
		a.inner.update(g, args, i, false)
	}
}

func (a *distinctAcc) update(g int32, args []arrow.Array, i int, retract bool) {
	id, ok := a.valueID(args, i, !retract)
	if !ok {
		return
	}
	if !retract {
		a.add(g, id, args, i)
		return
	}
	p := a.pairs.find(pairKey(g, id))
	if p == nil || *p <= 0 {
		return
	}
	*p--
	if *p == 0 {
		a.inner.update(g, args, i, true)
	}
}

func (a *distinctAcc) accumulateBatch(gids []int32, args []arrow.Array) {
	if a.strKey && isStringData(args[0]) {
		a.accumulateStrings(gids, args)
		return
	}
	if a.intKey {
		a.accumulateInts(gids, args)
		return
	}
	for i, g := range gids {
		if g < 0 {
			continue
		}
		if id, ok := a.valueID(args, i, true); ok {
			a.add(g, id, args, i)
		}
	}
}

// newInt numbers v, a value not numbered yet (intKey).
func (a *distinctAcc) newInt(v int64) int32 {
	id := int32(len(a.ints))
	a.ints = append(a.ints, v)
	a.intIDs.put(v, id)
	return id
}

// accumulateInts is accumulateBatch for one integral or temporal column:
// the batch's values are numbered in one loop over their packed bits.
func (a *distinctAcc) accumulateInts(gids []int32, args []arrow.Array) {
	c := args[0]
	n := len(gids)
	a.packed = growKeys(a.packed, n)
	packIntKeys(c, a.packed)
	a.valueIDs = growIDs(a.valueIDs, n)
	a.intIDs.t.findBatch(a.packed, a.valueIDs)
	bits, off := validityOf(c)
	for i, g := range gids {
		if g < 0 || bits != nil && !isValidBit(bits, off, i) {
			continue
		}
		id := a.valueIDs[i]
		if id < 0 {
			v := int64(a.packed[i])
			var ok bool
			if id, ok = a.intIDs.get(v); !ok {
				id = a.newInt(v)
			}
		}
		a.countPair(g, id, args, i)
	}
}

// countPairs (accumulateStrings) counts the batch's (group, value number)
// pairs, value numbers in a.valueIDs (-1: a row left out, its group or
// value NULL): the pairs already in the table in one addBatch loop, then,
// in row order, the new ones added and every value new to its group
// forwarded.
func (a *distinctAcc) countPairs(gids []int32, args []arrow.Array) {
	n := len(gids)
	a.packed = growKeys(a.packed, n)
	keys := a.packed[:n]
	for i, g := range gids {
		if id := a.valueIDs[i]; g >= 0 && id >= 0 {
			keys[i] = pairKey(g, id)
		} else {
			keys[i] = emptyPair
		}
	}
	a.added = growIDs(a.added, n)
	a.pairs.addBatch(keys, a.added)
	cnt, _ := a.inner.(*countAcc)
	for i, g := range gids {
		switch id := a.valueIDs[i]; {
		case g < 0 || id < 0:
		case a.added[i] < 0:
			a.countPair(g, id, args, i)
		case a.added[i] == 1:
			if cnt != nil {
				cnt.counts[g]++
			} else {
				a.inner.update(g, args, i, false)
			}
		}
	}
}

// accumulateStrings is accumulateBatch for one string column: the values
// of up to 7 bytes are packed and numbered in one loop over the batch
// (stringID numbers the others and the new ones), and a COUNT(DISTINCT)
// counts a value new to its group without a call.
func (a *distinctAcc) accumulateStrings(gids []int32, args []arrow.Array) {
	c := args[0]
	offs, data := vector.StringData(c)
	n := len(gids)
	a.packed = growKeys(a.packed, n)
	packShortKeys(offs[:n+1], data, a.packed)
	a.valueIDs = growIDs(a.valueIDs, n)
	a.shortIDs.findBatch(a.packed, a.valueIDs)
	bits, off := validityOf(c)
	for i, g := range gids {
		if g < 0 || bits != nil && !isValidBit(bits, off, i) {
			a.valueIDs[i] = -1
			continue
		}
		if a.valueIDs[i] < 0 {
			a.valueIDs[i], _ = a.stringID(offs, data, i, true)
		}
	}
	a.countPairs(gids, args)
}

// countPair is add for the batch loops: a COUNT(DISTINCT) counts a value
// new to its group without a call.
func (a *distinctAcc) countPair(g, id int32, args []arrow.Array, i int) {
	p, isNew := a.pairs.slot(pairKey(g, id))
	if isNew {
		a.members[g] = append(a.members[g], id)
	}
	*p++
	if *p != 1 {
		return
	}
	if cnt, ok := a.inner.(*countAcc); ok {
		cnt.counts[g]++
	} else {
		a.inner.update(g, args, i, false)
	}
}

func (a *distinctAcc) result(g int32) any { return a.inner.result(g) }

func (a *distinctAcc) size() int64 {
	n := a.inner.size() + int64(len(a.pairs.keys)+len(a.shortIDs.keys))*16 + int64(len(a.ints))*24
	for _, k := range a.keys {
		n += int64(len(k)) + 40
	}
	for _, m := range a.members {
		n += int64(cap(m)) * 4
	}
	return n
}

// mergeFrom merges the distinct value sets; only a COUNT(DISTINCT) inner
// accumulator is supported (canMerge checks it). src may number its values
// differently: they are renumbered through their values.
func (a *distinctAcc) mergeFrom(dst int32, src accumulator, sg int32) {
	s := src.(*distinctAcc)
	cnt := a.inner.(*countAcc)
	for _, sid := range s.members[sg] {
		sp := s.pairs.find(pairKey(sg, sid))
		if sp == nil || *sp <= 0 {
			continue
		}
		c := *sp
		id := sid
		if s != a {
			if a.intKey {
				v := s.ints[sid]
				var ok bool
				if id, ok = a.intIDs.get(v); !ok {
					id = a.newInt(v)
				}
			} else {
				id, _ = a.keyID(s.keys[sid], true)
			}
		}
		p, isNew := a.pairs.slot(pairKey(dst, id))
		if isNew {
			a.members[dst] = append(a.members[dst], id)
		}
		if *p == 0 {
			cnt.counts[dst]++
		}
		*p += c
	}
}

// reset empties group g's value set, removing its (group, value) pairs so
// that a reused id starts with no members.
func (a *distinctAcc) reset(g int32) {
	for _, id := range a.members[g] {
		a.pairs.remove(pairKey(g, id))
	}
	a.members[g] = a.members[g][:0]
	if r, ok := a.inner.(resettableAcc); ok {
		r.reset(g)
	}
}

// pairKey packs a group id and a value number into one key.
func pairKey(g, id int32) uint64 { return uint64(uint32(g))<<32 | uint64(uint32(id)) }

// intDict numbers int64 values (DISTINCT's intKey dictionary): an
// open-addressing table keyed by the value's bits, the value -1 (whose
// bits are the table's empty mark) kept apart. The zero value is empty.
type intDict struct {
	t     u64Table
	minus int32 // 1 + the number of -1, 0 if none
}

func (d *intDict) get(v int64) (int32, bool) {
	if uint64(v) == emptyPair {
		return d.minus - 1, d.minus > 0
	}
	if p := d.t.find(uint64(v)); p != nil {
		return int32(*p), true
	}
	return 0, false
}

func (d *intDict) put(v int64, id int32) {
	if uint64(v) == emptyPair {
		d.minus = id + 1
		return
	}
	p, _ := d.t.slot(uint64(v))
	*p = int64(id)
}
