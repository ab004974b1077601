package runtime

import (
	"strings"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// The batch form of the group key lookup (issue 19 §3): an index that
// implements batchIndex numbers all rows of a batch in a few loops over
// the key column (its buffers and validity bitmap fetched once, packed
// keys probed in one loop, no NULL test when the column has none) instead
// of a call per row. The ids and their order are the row-by-row lookup's.

// batchIndex is a groupIndex that looks a whole batch up at once.
type batchIndex interface {
	// lookupBatch sets gids[i] to the group of row i of b for every row
	// (len(gids) == b.Len), giving new keys the ids next, next+1, … in row
	// order, and appends the rows that created a group to newRows. It
	// returns the next free id and newRows.
	lookupBatch(b *types.Batch, next int32, gids, newRows []int32) (int32, []int32)
}

// validityOf returns arr's validity bitmap and the bit of element 0, or
// nil when arr has no NULLs.
func validityOf(arr arrow.Array) ([]byte, int) {
	if arr.NullN() == 0 {
		return nil, 0
	}
	return arr.NullBitmapBytes(), arr.Data().Offset()
}

// isValidBit reads element i's validity from a bitmap of validityOf.
func isValidBit(bits []byte, off, i int) bool {
	j := off + i
	return bits[j>>3]&(1<<(j&7)) != 0
}

// growKeys returns buf resized to n entries.
func growKeys(buf []uint64, n int) []uint64 {
	if cap(buf) < n {
		return make([]uint64, n)
	}
	return buf[:n]
}

func growIDs(buf []int32, n int) []int32 {
	if cap(buf) < n {
		return make([]int32, n)
	}
	return buf[:n]
}

// packIntKeys sets keys[i] to the bits of element i of an integral,
// date/time or interval column as int64 (NULL elements: whatever their
// slot holds).
func packIntKeys(c arrow.Array, keys []uint64) {
	switch c.DataType().ID() {
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		for i, v := range vector.Values[int64](c)[:len(keys)] {
			keys[i] = uint64(v)
		}
	case arrow.INT32, arrow.DATE32, arrow.TIME32, arrow.INTERVAL_MONTHS:
		for i, v := range vector.Values[int32](c)[:len(keys)] {
			keys[i] = uint64(int64(v))
		}
	case arrow.INT16:
		for i, v := range vector.Values[int16](c)[:len(keys)] {
			keys[i] = uint64(int64(v))
		}
	case arrow.INT8:
		for i, v := range vector.Values[int8](c)[:len(keys)] {
			keys[i] = uint64(int64(v))
		}
	default:
		for i := range keys {
			if c.IsValid(i) {
				keys[i] = uint64(int64Of(c, i))
			}
		}
	}
}

func (x *intIndex) lookupBatch(b *types.Batch, next int32, gids, newRows []int32) (int32, []int32) {
	c := b.Cols[x.col]
	if c.NullN() == 0 {
		switch c.DataType().ID() {
		case arrow.INT64:
			return lookupSmallInts(x, vector.Values[int64](c), next, gids, newRows)
		case arrow.INT32:
			return lookupSmallInts(x, vector.Values[int32](c), next, gids, newRows)
		}
	}
	x.keys = growKeys(x.keys, len(gids))
	packIntKeys(c, x.keys)
	x.t.findBatch(x.keys, gids)
	bits, off := validityOf(c)
	for i, g := range gids {
		null := bits != nil && !isValidBit(bits, off, i)
		if g >= 0 && !null {
			continue
		}
		// a new key, -1, a NULL, or a key first seen earlier in this batch
		var isNew bool
		if null {
			if isNew = x.null < 0; isNew {
				x.null = next
			}
			g = x.null
		} else {
			g, isNew = x.numberKey(int64(x.keys[i]), next)
		}
		if isNew {
			newRows = append(newRows, int32(i))
			next++
		}
		gids[i] = g
	}
	return next, newRows
}

// lookupSmallInts is intIndex.lookupBatch for a column of vals without
// NULLs: a key 0 to smallKeys-1 that x.small remembers takes its group
// from there; any other key is looked up in the table, in row order (so
// new keys get next, next+1, … as the row-by-row lookup gives them), and
// remembered when small.
func lookupSmallInts[T int64 | int32](x *intIndex, vals []T, next int32, gids, newRows []int32) (int32, []int32) {
	vals = vals[:len(gids)]
	small := &x.small
	for i := 0; i < len(vals); i++ {
		// a run of remembered keys: a loop without calls, so its
		// variables stay in registers
		for ; i < len(vals); i++ {
			k := uint64(int64(vals[i]))
			if k >= smallKeys {
				break
			}
			g := small[k]
			if g <= 0 {
				break
			}
			gids[i] = g - 1
		}
		if i == len(vals) {
			break
		}
		k := int64(vals[i])
		g, isNew := x.numberKey(k, next)
		if isNew {
			newRows = append(newRows, int32(i))
			next++
		}
		if uint64(k) < smallKeys {
			x.small[k] = g + 1
		}
		gids[i] = g
	}
	return next, newRows
}

func (x *strIndex) lookupBatch(b *types.Batch, next int32, gids, newRows []int32) (int32, []int32) {
	c := b.Cols[x.col]
	offs, data := vector.StringData(c)
	x.keys = growKeys(x.keys, len(gids))
	packShortKeys(offs[:len(gids)+1], data, x.keys)
	x.short.findBatch(x.keys, gids)
	bits, off := validityOf(c)
	for i, g := range gids {
		null := bits != nil && !isValidBit(bits, off, i)
		if g >= 0 && !null {
			continue
		}
		switch {
		case null:
			if x.null < 0 {
				x.null = next
				newRows = append(newRows, int32(i))
				next++
			}
			gids[i] = x.null
		case x.keys[i] != emptyPair:
			p, isNew := x.short.slot(x.keys[i])
			if isNew {
				*p = int64(next)
				newRows = append(newRows, int32(i))
				next++
			}
			gids[i] = int32(*p)
		default:
			k := vector.UnsafeString(data[offs[i]:offs[i+1]])
			g, ok := x.m[k]
			if !ok {
				g = next
				x.m[strings.Clone(k)] = g
				newRows = append(newRows, int32(i))
				next++
			}
			gids[i] = g
		}
	}
	return next, newRows
}

// findBatch sets ids[i] to the group of element i of c, a string column of
// another batch than the one the index numbers (a join's probe side), or
// -1 when the value has none; a NULL element gets the NULL key's group
// when nullSafe, else -1. It looks up the first len(ids) elements and
// packs their keys into keys, which it returns grown: the index itself is
// only read, so probes of several goroutines may share it.
func (x *strIndex) findBatch(c arrow.Array, nullSafe bool, ids []int32, keys []uint64) []uint64 {
	offs, data := vector.StringData(c)
	keys = growKeys(keys, len(ids))
	packShortKeys(offs[:len(ids)+1], data, keys)
	x.short.findBatch(keys, ids)
	if len(x.m) > 0 {
		for i, k := range keys {
			if k == emptyPair {
				if g, ok := x.m[vector.UnsafeString(data[offs[i]:offs[i+1]])]; ok {
					ids[i] = g
				}
			}
		}
	}
	if bits, off := validityOf(c); bits != nil {
		null := int32(-1)
		if nullSafe {
			null = x.null
		}
		for i := range ids {
			if !isValidBit(bits, off, i) {
				ids[i] = null
			}
		}
	}
	return keys
}
