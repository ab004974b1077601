package runtime

import (
	"encoding/binary"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// pairIndex (batch mode: no snapshot saves it) numbers the groups of two key columns, each an integral,
// date-time, interval or string column: each column's values are numbered
// by an index of their own (intIndex, strIndex), and the pair of numbers,
// packed into a word, by an open-addressing table. It replaces encoding
// both values into a byte string per row (bytesIndex) for GROUP BY a, b
// and for the distinct (key, value) pairs of a two-phase COUNT(DISTINCT)
// (engine/internal/plan/physical/agg_phase.go).
//
// When both columns are strings, a pair of values of at most 3 bytes each
// (airport codes, country codes, flags) is its own key (tinyPairKey): one
// probe of the table direct a row, instead of a probe per column and one
// for the pair. Whether a pair goes there depends only on its values, so
// a pair always meets the same table (a string column's arrays are
// *array.String, as strIndex reads them).
type pairIndex struct {
	sub   [2]groupIndex
	nSub  [2]int32
	pairs u64Table
	// strs: both columns are strings; direct numbers their pairs of
	// values of up to 3 bytes each by tinyPairKey
	strs   bool
	direct u64Table
	cols   [2]int // the key columns in the batch
	// lookupBatch's buffers: each column's numbers, the rows that created
	// one, the packed pairs
	ids     [2][]int32
	scratch []int32
	keys    []uint64
}

// lookupBatch implements batchIndex: both columns are numbered a batch at
// a time when their indexes can (batchIndex), then the pairs are looked up
// in one loop (u64Table.findBatch, whose probes of successive rows
// overlap) and only the pairs it did not find are added one by one.
func (x *pairIndex) lookupBatch(b *types.Batch, next int32, gids, newRows []int32) (int32, []int32) {
	if x.strs && isStringData(b.Cols[x.cols[0]]) && isStringData(b.Cols[x.cols[1]]) {
		return x.lookupTinyBatch(b, next, gids, newRows)
	}
	for c, s := range x.sub {
		if cap(x.ids[c]) < b.Len {
			x.ids[c] = make([]int32, b.Len)
		}
		ids := x.ids[c][:b.Len]
		if bx, ok := s.(batchIndex); ok {
			x.nSub[c], x.scratch = bx.lookupBatch(b, x.nSub[c], ids, x.scratch[:0])
			continue
		}
		for i := range ids {
			id, isNew := s.lookup(b, i, x.nSub[c])
			if isNew {
				x.nSub[c]++
			}
			ids[i] = id
		}
	}
	ids0, ids1 := x.ids[0][:b.Len], x.ids[1][:b.Len]
	x.keys = growKeys(x.keys, len(gids))
	keys := x.keys[:len(gids)]
	for i := range keys {
		// numbers are >= 0: a pair is never emptyPair
		keys[i] = uint64(uint32(ids0[i]))<<32 | uint64(uint32(ids1[i]))
	}
	x.pairs.findBatch(keys, gids)
	for i := range gids {
		if gids[i] >= 0 {
			continue
		}
		// new to the index before this batch (a pair new twice in the
		// batch is added at its first row, found by slot at its second)
		p, isNew := x.pairs.slot(keys[i])
		if isNew {
			*p = int64(next)
			next++
			newRows = append(newRows, int32(i))
		}
		gids[i] = int32(*p)
	}
	return next, newRows
}

// lookupTinyBatch is lookupBatch for two string columns: every pair
// keyed by tinyPairKey is looked up in one loop (u64Table.findBatch);
// the rows it did not find, and the others (a longer value or a NULL),
// are numbered one by one in row order.
func (x *pairIndex) lookupTinyBatch(b *types.Batch, next int32, gids, newRows []int32) (int32, []int32) {
	c0, c1 := b.Cols[x.cols[0]], b.Cols[x.cols[1]]
	offs0, data0 := vector.StringData(c0)
	offs1, data1 := vector.StringData(c1)
	bits0, off0 := validityOf(c0)
	bits1, off1 := validityOf(c1)
	x.keys = growKeys(x.keys, len(gids))
	keys := x.keys[:len(gids)]
	n := len(keys)
	offs0, offs1 = offs0[:n+1], offs1[:n+1]
	for i := range keys {
		// tinyPairKey, in line: 4-byte loads where the data lasts
		f0, t0, f1, t1 := int(offs0[i]), int(offs0[i+1]), int(offs1[i]), int(offs1[i+1])
		l0, l1 := t0-f0, t1-f1
		var k uint64
		switch {
		case l0 > 3 || l1 > 3:
			k = emptyPair
		case f0+4 <= len(data0) && f1+4 <= len(data1):
			k = uint64(binary.LittleEndian.Uint32(data0[f0:])&(1<<(8*l0)-1)|uint32(l0)<<24) |
				uint64(binary.LittleEndian.Uint32(data1[f1:])&(1<<(8*l1)-1)|uint32(l1)<<24)<<32
		default:
			k, _ = tinyPairKey(offs0, data0, offs1, data1, i)
		}
		keys[i] = k
	}
	if bits0 != nil || bits1 != nil {
		for i := range keys {
			if bits0 != nil && !isValidBit(bits0, off0, i) || bits1 != nil && !isValidBit(bits1, off1, i) {
				keys[i] = emptyPair
			}
		}
	}
	x.direct.findBatch(keys, gids)
	for i := range gids {
		if gids[i] >= 0 {
			continue
		}
		var p *int64
		var isNew bool
		if keys[i] != emptyPair {
			p, isNew = x.direct.slot(keys[i])
		} else {
			k, _ := x.pair(b, i, true)
			p, isNew = x.pairs.slot(k)
		}
		if isNew {
			*p = int64(next)
			next++
			newRows = append(newRows, int32(i))
		}
		gids[i] = int32(*p)
	}
	return next, newRows
}

// tinyPairKey packs row i's values of two string columns, when each is at
// most 3 bytes long, into one key: each value's bytes and its length in a
// 32-bit half (never emptyPair). A NULL's offsets give an empty value:
// the caller checks validity.
func tinyPairKey(offs0 []int32, data0 []byte, offs1 []int32, data1 []byte, i int) (uint64, bool) {
	a, ok := tinyHalf(offs0, data0, i)
	if !ok {
		return 0, false
	}
	b, ok := tinyHalf(offs1, data1, i)
	if !ok {
		return 0, false
	}
	return a | b<<32, true
}

func tinyHalf(offs []int32, data []byte, i int) (uint64, bool) {
	from, to := int(offs[i]), int(offs[i+1])
	l := to - from
	if l > 3 {
		return 0, false
	}
	var v uint64
	if from+4 <= len(data) {
		v = uint64(binary.LittleEndian.Uint32(data[from:])) & (1<<(8*l) - 1)
	} else {
		for j := to - 1; j >= from; j-- {
			v = v<<8 | uint64(data[j])
		}
	}
	return v | uint64(l)<<24, true
}

// tinyKey is row i's tinyPairKey in b, ok false when the row's pair is
// not keyed so (not two string columns, a longer value or a NULL).
func (x *pairIndex) tinyKey(b *types.Batch, i int) (uint64, bool) {
	if !x.strs {
		return 0, false
	}
	c0, c1 := b.Cols[x.cols[0]], b.Cols[x.cols[1]]
	if !isStringData(c0) || !isStringData(c1) || c0.IsNull(i) || c1.IsNull(i) {
		return 0, false
	}
	offs0, data0 := vector.StringData(c0)
	offs1, data1 := vector.StringData(c1)
	return tinyPairKey(offs0, data0, offs1, data1, i)
}

// pairKeyable reports a key column type pairIndex can number.
func pairKeyable(t *types.DataType) bool {
	return t.IsIntegral() || t.IsDatetime() || t.IsInterval() || t.IsString()
}

func newPairIndex(keys []int, keyTypes []*types.DataType) *pairIndex {
	x := &pairIndex{cols: [2]int{keys[0], keys[1]}, strs: keyTypes[0].IsString() && keyTypes[1].IsString()}
	for i := range x.sub {
		x.sub[i] = newGroupIndex(keys[i:i+1], keyTypes[i:i+1])
	}
	return x
}

// ids numbers row i's values in both columns (creating numbers when
// create is set); ok is false when a value has no number.
func (x *pairIndex) pair(b *types.Batch, i int, create bool) (uint64, bool) {
	var ids [2]int32
	for c, s := range x.sub {
		if !create {
			id, ok := s.find(b, i)
			if !ok {
				return 0, false
			}
			ids[c] = id
			continue
		}
		id, isNew := s.lookup(b, i, x.nSub[c])
		if isNew {
			x.nSub[c]++
		}
		ids[c] = id
	}
	return uint64(uint32(ids[0]))<<32 | uint64(uint32(ids[1])), true
}

func (x *pairIndex) lookup(b *types.Batch, i int, next int32) (int32, bool) {
	var p *int64
	var isNew bool
	if k, ok := x.tinyKey(b, i); ok {
		p, isNew = x.direct.slot(k)
	} else {
		k, _ := x.pair(b, i, true)
		p, isNew = x.pairs.slot(k)
	}
	if isNew {
		*p = int64(next)
	}
	return int32(*p), isNew
}

func (x *pairIndex) find(b *types.Batch, i int) (int32, bool) {
	if k, ok := x.tinyKey(b, i); ok {
		if p := x.direct.find(k); p != nil {
			return int32(*p), true
		}
		return 0, false
	}
	k, ok := x.pair(b, i, false)
	if !ok {
		return 0, false
	}
	if p := x.pairs.find(k); p != nil {
		return int32(*p), true
	}
	return 0, false
}

// remove forgets the pair (the columns' numbers stay).
func (x *pairIndex) remove(b *types.Batch, i int) {
	if k, ok := x.tinyKey(b, i); ok {
		x.direct.remove(k)
		return
	}
	if k, ok := x.pair(b, i, false); ok {
		x.pairs.remove(k)
	}
}

func (x *pairIndex) size() int64 {
	return x.sub[0].size() + x.sub[1].size() + int64(len(x.pairs.keys)+len(x.direct.keys))*16
}

func (x *pairIndex) count() int64 { return int64(x.pairs.n + x.direct.n) }

func (x *pairIndex) evict(dead func(int32) bool) {
	for _, t := range []*u64Table{&x.pairs, &x.direct} {
		var drop []uint64
		for j, k := range t.keys {
			if k != emptyPair && dead(int32(t.vals[j])) {
				drop = append(drop, k)
			}
		}
		for _, k := range drop {
			t.remove(k)
		}
	}
}
