package runtime

import (
	"encoding/binary"
	"hash/maphash"
	"math/bits"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/vector"
)

// keyDict is the pool-wide dictionary of a balanced exchange whose key is
// one string column (the batch OVER's PARTITION BY origin): the producers,
// which read each row's value anyway to put it in its key group, give it
// the value's number in the dictionary as well (keyGroupBatch.ids). Once
// the pool is complete the values are sorted once (rank, sorted), and each
// consumer instance ranks its rows by number (dictRanksParts) instead of
// reading the strings again through its selection and building a
// dictionary of its own.
//
// The dictionary gives up (failed) past keyDictMax values, or when a
// batch brings more than keyDictBatchMax(rows) values new to the
// dictionary (a key of high cardinality, which the ranking would refuse
// anyway; values only the producer's cache has not seen do not count: a
// cache is new whenever another producer holds the pool's or a garbage
// collection dropped it): later batches then
// get key groups only (stringKeyGroups, the same group for each value) and
// the instances rank the strings themselves.
type keyDict struct {
	col int // the key column

	mu     sync.Mutex
	short  u64Table         // shortKey word of a value of up to 7 bytes -> number
	long   map[string]int64 // longer values -> number
	values []string         // by number
	failed bool

	caches sync.Pool // *dictCache: the producers' caches of numbers

	// set by finish, once the pool is complete (finished, unless the
	// dictionary gave up): each number's rank among the sorted distinct
	// values, and those values in rank order
	finished bool
	rank     []int32
	sorted   []string
}

// keyDictMax is the most values a keyDict numbers (a number is a uint16).
const keyDictMax = 1 << 16

// keyDictBatchMax is the most values a batch of rows rows may bring that
// the dictionary has not numbered before, for it to go on: the
// ranking's bound (one value per rankMaxRatio rows), with room for small
// batches.
func keyDictBatchMax(rows int) int { return max(rows/rankMaxRatio, 256) }

// keyDictNullWord is the word a NULL's key group is taken from
// (stringKeyGroups' constant).
const keyDictNullWord = 0x51ed270b

// numberBatch sets groups[i] to the key group of row i of the string
// column col (as stringKeyGroups does, n groups) and counts the rows per
// group, and returns each row's number in the dictionary (0 for a NULL
// row); nil, with groups and counts not set, when the dictionary has
// given up or gives up on this batch.
//
// A producer reads the numbers from a cache of its own (dictCache, from
// the pool's caches): a value's number never changes, so only a value the
// cache has not seen takes the dictionary's lock.
func (d *keyDict) numberBatch(col arrow.Array, n uint64, groups []uint8, counts []int32) []uint16 {
	d.mu.Lock()
	failed := d.failed
	d.mu.Unlock()
	if failed {
		return nil
	}
	cache, _ := d.caches.Get().(*dictCache)
	if cache == nil {
		cache = &dictCache{}
		cache.short.init(512)
	}
	defer d.caches.Put(cache)
	rows := len(groups)
	limit := keyDictBatchMax(rows)
	misses := 0
	shift := uint(64 - bits.Len64(n-1)) // 64 for one group: every row in group 0
	offs, data := vector.StringData(col)
	offs = offs[:rows+1]
	nulls := col.NullN() > 0
	ids := make([]uint16, rows)
	var count [256]int32 // a group is a byte: no bounds check per row
	nullWord := uint64(keyDictNullWord)
	for i := range groups {
		from, to := int(offs[i]), int(offs[i+1])
		l := to - from
		var w uint64
		short := true
		switch {
		case nulls && col.IsNull(i):
			g := uint8((nullWord * 0x9E3779B97F4A7C15) >> shift)
			groups[i] = g
			count[g]++
			continue // number 0
		case l <= 7 && from+8 <= len(data):
			// the word stringKeyGroups takes, written out in both loops:
			// as a function (cost 130) it would not be inlined, a call a row
			w = binary.LittleEndian.Uint64(data[from:from+8])&(1<<(8*l)-1) | uint64(l)<<56
		default:
			if k, ok := shortKey(offs, data, i); ok {
				w = k
			} else {
				w = maphash.Bytes(hashSeed, data[from:to])
				short = false
			}
		}
		h := w * 0x9E3779B97F4A7C15
		g := uint8(h >> shift)
		groups[i] = g
		count[g]++
		var id uint16
		var ok bool
		if short {
			id, ok = cache.short.find(w, h)
		} else {
			id, ok = cache.long[vector.UnsafeString(data[from:to])]
		}
		if !ok {
			// a value new to this producer: the dictionary's number;
			// too many values new to the dictionary make it give up
			v := string(data[from:to])
			var isNew bool
			if id, isNew, ok = d.number(v, w, short); !ok {
				return nil
			}
			if isNew {
				if misses++; misses > limit {
					d.fail()
					return nil
				}
			}
			if short {
				cache.short.add(w, h, id)
			} else {
				if cache.long == nil {
					cache.long = make(map[string]uint16)
				}
				cache.long[v] = id
			}
		}
		ids[i] = id
	}
	copy(counts, count[:n])
	return ids
}

// number returns value v's number in the dictionary (w its shortKey word
// when short), numbering it if new (isNew); false when the dictionary has
// given up or would hold more than keyDictMax values.
func (d *keyDict) number(v string, w uint64, short bool) (id uint16, isNew, ok bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.failed {
		return 0, false, false
	}
	if short {
		if p := d.short.find(w); p != nil {
			return uint16(*p), false, true
		}
	} else if id, ok := d.long[v]; ok {
		return uint16(id), false, true
	}
	n := len(d.values)
	if n >= keyDictMax {
		d.failed = true
		return 0, false, false
	}
	d.values = append(d.values, v)
	if short {
		p, _ := d.short.slot(w)
		*p = int64(n)
	} else {
		if d.long == nil {
			d.long = make(map[string]int64)
		}
		d.long[v] = int64(n)
	}
	return uint16(n), true, true
}

// fail makes the dictionary give up.
func (d *keyDict) fail() {
	d.mu.Lock()
	d.failed = true
	d.mu.Unlock()
}

// finish sorts the values, once the pool is complete (no producer adds
// any more).
func (d *keyDict) finish() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.failed {
		return
	}
	order := make([]int32, len(d.values))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(d.values[a], d.values[b]) })
	d.rank = make([]int32, len(d.values))
	d.sorted = make([]string, len(d.values))
	for r, id := range order {
		d.rank[id] = int32(r)
		d.sorted[r] = d.values[id]
	}
	d.finished = true
}

// dictCache is a producer's copy of the numbers it has seen: a short
// value's word to its number (dictWords), a longer value to its number.
type dictCache struct {
	short dictWords
	long  map[string]uint16
}

// dictWords is a table from a short value's word to its number: open
// addressing, at most half full, probed from the top bits of the word's
// product with the key groups' multiplier (which the caller has already
// computed).
type dictWords struct {
	keys  []uint64
	ids   []uint16
	used  []bool
	n     int
	shift uint
}

func (t *dictWords) init(size int) {
	t.keys = make([]uint64, size)
	t.ids = make([]uint16, size)
	t.used = make([]bool, size)
	t.n = 0
	t.shift = uint(64 - bits.Len(uint(size-1)))
}

// find returns w's number (h is w times the multiplier); false when w is
// not in the table.
func (t *dictWords) find(w, h uint64) (uint16, bool) {
	mask := uint64(len(t.keys) - 1)
	for i := h >> t.shift; ; i = (i + 1) & mask {
		if !t.used[i] {
			return 0, false
		}
		if t.keys[i] == w {
			return t.ids[i], true
		}
	}
}

// add puts w, which is not in the table, with number id.
func (t *dictWords) add(w, h uint64, id uint16) {
	if 2*(t.n+1) > len(t.keys) {
		keys, ids, used := t.keys, t.ids, t.used
		t.init(2 * len(keys))
		for i, u := range used {
			if u {
				t.add(keys[i], keys[i]*0x9E3779B97F4A7C15, ids[i])
			}
		}
	}
	mask := uint64(len(t.keys) - 1)
	i := h >> t.shift
	for t.used[i] {
		i = (i + 1) & mask
	}
	t.keys[i], t.ids[i], t.used[i] = w, id, true
	t.n++
}

// dictRanksParts is stringRanksParts for the string column c of parts
// when every part carries its rows' numbers in one pool's dictionary of
// that column: each row's rank is its number's, and the sorted values are
// the pool's (all instances' values, so some may have no row here). It
// returns nil when a part has no numbers, or as stringRanksParts would
// for the pool's count of values.
func dictRanksParts(parts []selectedRows, c, total int) (ranks []int32, sorted []string) {
	if total < rankMinRows || len(parts) == 0 {
		return nil, nil
	}
	d := parts[0].dict
	for _, p := range parts {
		if d == nil || p.dict != d || p.ids == nil {
			return nil, nil
		}
	}
	if d.col != c || !d.finished || len(d.sorted) > total/rankMaxRatio {
		return nil, nil
	}
	ranks = make([]int32, total)
	if len(d.rank) == 0 {
		// every row NULL: rank 0 each, no values
		return ranks, nil
	}
	rank := d.rank
	k := 0
	for _, p := range parts {
		ids := p.ids
		if p.sel == nil {
			for _, id := range ids[:p.b.Len] {
				ranks[k] = rank[id]
				k++
			}
			continue
		}
		for _, j := range p.sel {
			ranks[k] = rank[ids[j]]
			k++
		}
	}
	return ranks, d.sorted
}
