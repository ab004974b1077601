package runtime

import "github.com/riffle-sql/riffle/engine/types"

// pairIndex (batch mode: no snapshot saves it) numbers the groups of two key columns, each an integral,
// date-time, interval or string column: each column's values are numbered
// by an index of their own (intIndex, strIndex), and the pair of numbers,
// packed into a word, by an open-addressing table. It replaces encoding
// both values into a byte string per row (bytesIndex) for GROUP BY a, b
// and for the distinct (key, value) pairs of a two-phase COUNT(DISTINCT)
// (engine/internal/plan/physical/agg_phase.go).
type pairIndex struct {
	sub   [2]groupIndex
	nSub  [2]int32
	pairs u64Table
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

// pairKeyable reports a key column type pairIndex can number.
func pairKeyable(t *types.DataType) bool {
	return t.IsIntegral() || t.IsDatetime() || t.IsInterval() || t.IsString()
}

func newPairIndex(keys []int, keyTypes []*types.DataType) *pairIndex {
	x := &pairIndex{}
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
	k, _ := x.pair(b, i, true)
	p, isNew := x.pairs.slot(k)
	if isNew {
		*p = int64(next)
	}
	return int32(*p), isNew
}

func (x *pairIndex) find(b *types.Batch, i int) (int32, bool) {
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
	if k, ok := x.pair(b, i, false); ok {
		x.pairs.remove(k)
	}
}

func (x *pairIndex) size() int64 {
	return x.sub[0].size() + x.sub[1].size() + int64(len(x.pairs.keys))*16
}

func (x *pairIndex) count() int64 { return int64(x.pairs.n) }

func (x *pairIndex) evict(dead func(int32) bool) {
	var drop []uint64
	for j, k := range x.pairs.keys {
		if k != emptyPair && dead(int32(x.pairs.vals[j])) {
			drop = append(drop, k)
		}
	}
	for _, k := range drop {
		x.pairs.remove(k)
	}
}
