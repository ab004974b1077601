package runtime

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
)

// Snapshots of the keyed state that several operators share: the group
// index (key → dense id) and the state TTL's last writes.

// The kinds of group index, as saved.
const (
	indexGlobal uint8 = iota + 1
	indexInt
	indexStr
	indexBytes
)

// writeGroupIndex saves a group index: its kind, then its entries (key
// and id) as the index holds them, so that the restored index gives every
// key the same id.
func writeGroupIndex(w *state.Writer, x groupIndex) {
	switch x := x.(type) {
	case *globalIndex:
		w.Uint8(indexGlobal)
		w.Bool(x.exists)
	case *intIndex:
		w.Uint8(indexInt)
		w.Varint(int64(x.null))
		w.Count(x.t.n + int(min(x.minus+1, 1)))
		x.each(func(k int64, g int32) {
			w.Varint(k)
			w.Varint(int64(g))
		})
	case *strIndex:
		w.Uint8(indexStr)
		w.Varint(int64(x.null))
		writeU64Table(w, &x.short)
		w.Count(len(x.m))
		for k, g := range x.m {
			w.String(k)
			w.Varint(int64(g))
		}
	case *bytesIndex:
		w.Uint8(indexBytes)
		w.Count(len(x.m))
		for k, g := range x.m {
			w.String(k)
			w.Varint(int64(g))
		}
	default:
		w.Fail(fmt.Errorf("group index %T cannot be saved", x))
	}
}

// readGroupIndex fills x, a new empty index of the operator's key types,
// from a snapshot whose ids are below n. An index of another kind (the key
// types differ) is a failure.
func readGroupIndex(r *state.Reader, x groupIndex, n int32) {
	kind := r.Uint8()
	id := func() int32 {
		g := r.Int32()
		if g < 0 || g >= n {
			r.Failf("want a group id below %d, found %d", n, g)
			return 0
		}
		return g
	}
	null := func() int32 {
		g := r.Int32()
		if g < -1 || g >= n {
			r.Failf("want the NULL key's group id (-1 or below %d), found %d", n, g)
			return -1
		}
		return g
	}
	want := uint8(0)
	switch x := x.(type) {
	case *globalIndex:
		if want = indexGlobal; kind == want {
			x.exists = r.Bool()
		}
	case *intIndex:
		if want = indexInt; kind == want {
			x.null = null()
			cnt := r.Count(2)
			x.t, x.minus = u64Table{}, -1
			for i := 0; i < cnt && r.Err() == nil; i++ {
				k := r.Varint()
				g := id()
				if uint64(k) == emptyPair {
					x.minus = g
					continue
				}
				p, _ := x.t.slot(uint64(k))
				*p = int64(g)
			}
		}
	case *strIndex:
		if want = indexStr; kind == want {
			x.null = null()
			readU64Table(r, &x.short, func(k uint64, v int64) bool {
				return k>>56 <= 7 && v >= 0 && v < int64(n)
			})
			cnt := r.Count(2)
			x.m = make(map[string]int32, cnt)
			for i := 0; i < cnt && r.Err() == nil; i++ {
				k := r.String()
				x.m[k] = id()
			}
		}
	case *bytesIndex:
		if want = indexBytes; kind == want {
			cnt := r.Count(2)
			x.m = make(map[string]int32, cnt)
			for i := 0; i < cnt && r.Err() == nil; i++ {
				k := r.String()
				x.m[k] = id()
			}
		}
	}
	if r.Err() == nil && kind != want {
		r.Failf("want a group index of kind %d, found kind %d (a snapshot of other key types)", want, kind)
	}
}

// writeU64Table saves the entries of a u64Table.
func writeU64Table(w *state.Writer, t *u64Table) {
	w.Count(t.n)
	for j, k := range t.keys {
		if k != emptyPair {
			w.Uint64(k)
			w.Varint(t.vals[j])
		}
	}
}

// readU64Table adds the saved entries to t; valid checks each entry.
func readU64Table(r *state.Reader, t *u64Table, valid func(k uint64, v int64) bool) {
	cnt := r.Count(9)
	for i := 0; i < cnt && r.Err() == nil; i++ {
		k := r.Uint64()
		v := r.Varint()
		if r.Err() != nil {
			return
		}
		if k == emptyPair || !valid(k, v) {
			r.Failf("want a table entry, found key %#x with value %d", k, v)
			return
		}
		p, _ := t.slot(k)
		*p = v
	}
}

// writeTTL saves the last writes and the cleanup timer of a state TTL (its
// duration and clock are the configuration's, not state).
func writeTTL(w *state.Writer, t *ttlState) {
	w.Int64s(t.last)
	w.Varint(t.next)
}

// readTTL restores what writeTTL saved into t, whose ids are below n.
func readTTL(r *state.Reader, t *ttlState, n int) {
	last := r.Int64s()
	next := r.Varint()
	if len(last) > n {
		r.Failf("want at most %d last writes, found %d", n, len(last))
		return
	}
	t.last, t.next = last, next
}

// readIDs reads a list of ids that must lie in [0, n).
func readIDs(r *state.Reader, n int32, what string) []int32 {
	ids := r.Int32s()
	for _, g := range ids {
		if g < 0 || g >= n {
			r.Failf("want %s below %d, found %d", what, n, g)
			return nil
		}
	}
	return ids
}

// typesShape renders column types for a snapshot's shape.
func typesShape(ts []*types.DataType) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return strings.Join(parts, ", ")
}

// checkShape reads the shape a snapshot was saved with and compares it
// with the operator's: state of another shape (other key or value types,
// other aggregate calls) is refused.
func checkShape(r *state.Reader, kind, shape string) {
	off := r.Offset()
	got := r.String()
	if r.Err() == nil && got != shape {
		r.FailAt(off, "the %s snapshot is of another shape: saved [%s], this operator is [%s]", kind, got, shape)
	}
}

// Operators that keep one row per key (Deduplicate, ChangelogNormalize)
// save the same parts: the key ids' index with each id's row (NULL for a
// freed id), then, after their own, the state TTL, the number of live
// keys and the free ids.

// writeKeyedRows writes the number of key ids, the key index and each
// id's row.
func writeKeyedRows(w *state.Writer, index groupIndex, rows [][]any, ts []*types.DataType) {
	w.Count(len(rows))
	writeGroupIndex(w, index)
	for _, row := range rows {
		w.Bool(row != nil)
		for k, v := range row {
			w.Value(v, ts[k])
		}
	}
}

// readKeyedRows reads what writeKeyedRows wrote into a new index over
// keys.
func readKeyedRows(r *state.Reader, keys []int, keyTypes, ts []*types.DataType) (groupIndex, [][]any) {
	n := r.Count(1)
	index := newGroupIndex(keys, keyTypes)
	readGroupIndex(r, index, int32(n))
	var rows [][]any
	if r.Err() == nil {
		rows = make([][]any, n)
	}
	for g := 0; g < len(rows) && r.Err() == nil; g++ {
		if !r.Bool() {
			continue
		}
		vals := make([]any, len(ts))
		for k := range vals {
			vals[k] = r.Value(ts[k])
		}
		rows[g] = vals
	}
	return index, rows
}

// writeKeyedTail writes the state TTL, the number of live keys and the
// free ids.
func writeKeyedTail(w *state.Writer, ttl *ttlState, live int64, free []int32) {
	writeTTL(w, ttl)
	w.Varint(live)
	w.Int32s(free)
}

// readKeyedTail reads what writeKeyedTail wrote for n key ids into ttl.
func readKeyedTail(r *state.Reader, ttl *ttlState, n int) (live int64, free []int32) {
	readTTL(r, ttl, n)
	live = r.Varint()
	if r.Err() == nil && (live < 0 || live > int64(n)) {
		r.Failf("want a number of live keys from 0 to %d, found %d", n, live)
	}
	return live, readIDs(r, int32(n), "a free key id")
}
