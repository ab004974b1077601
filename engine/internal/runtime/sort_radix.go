package runtime

import (
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// sortIndex returns the row positions of b ordered by keys; rows that
// compare equal keep their order (ties keep arrival order). When every key
// can be coded as a small unsigned integer (integral and temporal columns
// by their offset from the column's minimum, low cardinality strings by
// rank, booleans) and the codes and the row position fit in 64 bits
// together, it sorts the packed codes with a least significant digit radix
// sort (linear in the rows); otherwise it sorts with the comparator.
func sortIndex(b *types.Batch, keys []opspec.SortKey, ts []*types.DataType) []int32 {
	if idx := radixSortIndex(b, keys); idx != nil {
		return idx
	}
	idx := make([]int32, b.Len)
	for i := range idx {
		idx[i] = int32(i)
	}
	if len(keys) > 0 {
		stableSortIndex(idx, newSortComparator(b, keys, ts))
	}
	return idx
}

// radixMinRows is the smallest batch sortIndex radix sorts: below it the
// comparator sort is as fast and the key coding does not pay.
const radixMinRows = 1024

// radixSortIndex is sortIndex's radix path; nil when a key cannot be coded
// or the codes do not fit.
func radixSortIndex(b *types.Batch, keys []opspec.SortKey) []int32 {
	if r := radixSort(b, keys); r != nil {
		return r.perm()
	}
	return nil
}

// radixSorted is the outcome of the radix path: every row's key codes and
// position packed into one word, in sorted order. Key k's code occupies
// bits [posBits+codes[k].shift, +codes[k].bits) of a word, the row's
// position the low posBits bits; equal codes mean equal keys (NULL equals
// NULL), so runs of equal words above a key's bits are the groups of rows
// with equal leading keys, read without touching the columns again.
type radixSorted struct {
	packed  []uint64
	posBits uint
	codes   []keyCode
}

// radixSort sorts b's rows by keys with the radix path; nil when a key
// cannot be coded or the codes do not fit.
func radixSort(b *types.Batch, keys []opspec.SortKey) *radixSorted {
	return radixSortCoded(b.Len, keys, func(key opspec.SortKey) (keyCode, bool) {
		return codeKey(b.Cols[key.Col], key)
	})
}

// radixSortParts is radixSort over the selected rows of parts, total of
// them, as if gathered in order into one batch (positions count the rows
// so): string keys are ranked straight from the parts' columns, other keys
// gathered first (a copy of their values only).
func radixSortParts(parts []selectedRows, total int, keys []opspec.SortKey) *radixSorted {
	return radixSortCoded(total, keys, func(key opspec.SortKey) (keyCode, bool) {
		return codeKeyParts(parts, total, key)
	})
}

// radixSortCoded is radixSort for n rows whose keys code codes.
func radixSortCoded(n int, keys []opspec.SortKey, code func(opspec.SortKey) (keyCode, bool)) *radixSorted {
	if n < radixMinRows || len(keys) == 0 || n > 1<<31-1 {
		return nil
	}
	posBits := uint(bits.Len64(uint64(n - 1)))
	codes := make([]keyCode, len(keys))
	total := posBits
	for k, key := range keys {
		c, ok := code(key)
		if !ok {
			return nil
		}
		codes[k] = c
		total += c.bits
		if total > 64 {
			return nil
		}
	}
	packed := make([]uint64, n)
	shift := total - posBits
	for k := range codes {
		codes[k].pack(packed)
		shift -= codes[k].bits
		codes[k].shift = shift
	}
	keyBits := total - posBits
	for i := range packed {
		packed[i] = packed[i]<<posBits | uint64(i)
	}
	if keyBits > 0 {
		packed = radixSortBits(packed, posBits, keyBits)
	}
	return &radixSorted{packed: packed, posBits: posBits, codes: codes}
}

// perm returns the row positions in sorted order.
func (r *radixSorted) perm() []int32 {
	idx := make([]int32, len(r.packed))
	mask := uint64(1)<<r.posBits - 1
	for i, p := range r.packed {
		idx[i] = int32(p & mask)
	}
	return idx
}

// leadingShift returns the bit offset above which a packed word holds the
// codes of the first k keys: two sorted positions hold equal values in
// those keys when their words agree above it.
func (r *radixSorted) leadingShift(k int) uint {
	if k == 0 {
		return 64
	}
	return r.posBits + r.codes[k-1].shift
}

// sortRows returns b's rows ordered by keys (ties keep arrival order).
// After a radix sort the key columns the codes can rebuild (integral and
// temporal columns, ranked strings) are decoded from the sorted codes in
// one sequential pass instead of gathered row by row; the other columns are
// gathered.
func sortRows(b *types.Batch, keys []opspec.SortKey, ts []*types.DataType) *types.Batch {
	if r := radixSort(b, keys); r != nil {
		return r.rows(b, keys, r.perm())
	}
	return TakeRows(b, sortIndex(b, keys, ts))
}

// rows gathers b's rows in sorted order (perm from r.perm), decoding the
// key columns it can from the sorted codes.
func (r *radixSorted) rows(b *types.Batch, keys []opspec.SortKey, perm []int32) *types.Batch {
	cols := r.columns(len(b.Cols), keys, perm, func(c int) arrow.Array { return b.Cols[c] })
	var kinds []types.RowKind
	if b.Kinds != nil {
		kinds = make([]types.RowKind, len(perm))
		for i, s := range perm {
			kinds[i] = b.Kinds[s]
		}
	}
	return &types.Batch{Cols: cols, Kinds: kinds, Len: len(perm)}
}

// columns returns ncols columns in sorted order (perm from r.perm): the
// key columns it can decode from the sorted codes, the others taken from
// column(c) (nil stays nil; column is called only for those).
func (r *radixSorted) columns(ncols int, keys []opspec.SortKey, perm []int32, column func(c int) arrow.Array) []arrow.Array {
	cols := make([]arrow.Array, ncols)
	decoded := make([]bool, ncols)
	for k, key := range keys {
		if !decoded[key.Col] {
			decoded[key.Col] = true
			cols[key.Col] = r.codes[k].decode(r.packed, r.posBits+r.codes[k].shift)
		}
	}
	for i := range cols {
		if cols[i] == nil {
			if c := column(i); c != nil {
				cols[i] = vector.Take(c, perm)
			}
		}
	}
	return cols
}

// radixSortBits sorts vals stably by bits [lo, lo+width) with least
// significant digit passes of at most 11 bits, skipping passes in which
// every value has the same digit. It returns the sorted slice (vals or a
// buffer of the same length).
func radixSortBits(vals []uint64, lo, width uint) []uint64 {
	passes := (width + 10) / 11
	digit := (width + passes - 1) / passes
	tmp := make([]uint64, len(vals))
	counts := make([]int, 1<<digit)
	mask := uint64(1)<<digit - 1
	for shift := lo; shift < lo+width; shift += digit {
		clear(counts)
		for _, v := range vals {
			counts[(v>>shift)&mask]++
		}
		if counts[(vals[0]>>shift)&mask] == len(vals) {
			continue
		}
		sum := 0
		for d, c := range counts {
			counts[d] = sum
			sum += c
		}
		for _, v := range vals {
			d := (v >> shift) & mask
			tmp[counts[d]] = v
			counts[d]++
		}
		vals, tmp = tmp, vals
	}
	return vals
}

// keyCode codes one sort key's column: row i's code is a number in
// [0, 2^bits) whose unsigned order is the key's order, direction and NULL
// placement included.
type keyCode struct {
	dt   arrow.DataType
	col  arrow.Array // boolean columns: the column
	bits uint
	// integral columns: code = value - min (range - that for DESC)
	ints     []int64
	min      uint64
	span     uint64 // max - min
	desc     bool
	nulls    bool
	nullLow  bool   // NULLs take code 0 (values start at 1), else span+1
	valid    []byte // with nulls: row i is NULL when bit validOff+i is clear
	validOff int
	ranks    []int32  // string columns: rank of each row's value
	sorted   []string // string columns: the distinct values by rank
	boolCode [2]uint8 // boolean columns: code of false and true
	shift    uint     // the code's bit offset above the row position, once packed
}

// codeKey prepares the coding of key's column; ok is false for a column
// it cannot code (floating point, decimal, high cardinality strings).
func codeKey(col arrow.Array, key opspec.SortKey) (keyCode, bool) {
	var valid []byte
	if col.NullN() > 0 {
		valid = col.NullBitmapBytes()
	}
	switch col.(type) {
	case *array.String, *array.Binary:
		ranks, sorted := stringRanks(col)
		if ranks == nil {
			return keyCode{}, false
		}
		return codeRanks(col.DataType(), ranks, sorted, valid, col.Data().Offset(), key)
	}
	c := keyCode{dt: col.DataType(), desc: key.Desc, nulls: valid != nil, nullLow: key.NullsFirst,
		valid: valid, validOff: col.Data().Offset()}
	n := col.Len()
	switch col.(type) {
	case *array.Boolean:
		c.col = col
		c.span = 1
		if key.Desc {
			c.boolCode = [2]uint8{1, 0}
		} else {
			c.boolCode = [2]uint8{0, 1}
		}
	default:
		vals, ok := intKeyValues(col)
		if !ok || len(vals) != n {
			return c, false
		}
		c.ints = vals
		first := true
		var lo, hi int64
		for i, v := range vals {
			if c.nulls && col.IsNull(i) {
				continue
			}
			if first {
				lo, hi, first = v, v, false
				continue
			}
			lo, hi = min(lo, v), max(hi, v)
		}
		c.min = uint64(lo)
		c.span = uint64(hi) - uint64(lo)
	}
	if c.nulls && col.NullN() == n {
		c.span = 0
	}
	return c.sized()
}

// codeRanks prepares the coding of a string key whose rows have ranks
// among the distinct values sorted (stringRanks); valid is the rows'
// validity bitmap from bit validOff, nil without NULLs.
func codeRanks(dt arrow.DataType, ranks []int32, sorted []string, valid []byte, validOff int, key opspec.SortKey) (keyCode, bool) {
	c := keyCode{dt: dt, desc: key.Desc, nulls: valid != nil, nullLow: key.NullsFirst,
		valid: valid, validOff: validOff, ranks: ranks, sorted: sorted}
	// every distinct value is some valid row's: the largest rank is the
	// last one's
	c.span = uint64(max(len(sorted)-1, 0))
	return c.sized()
}

// sized sets c.bits from its largest code; false when the codes need more
// than 64 bits.
func (c keyCode) sized() (keyCode, bool) {
	codes := c.span // the largest code
	if c.nulls {
		if codes == ^uint64(0) {
			return c, false
		}
		codes++
	}
	c.bits = uint(bits.Len64(codes))
	return c, true
}

// codeKeyParts is codeKey for the column key.Col of the selected rows of
// parts, total of them, in order: a string column is ranked straight from
// the parts, an integral, temporal or boolean one gathered first.
func codeKeyParts(parts []selectedRows, total int, key opspec.SortKey) (keyCode, bool) {
	col := parts[0].b.Cols[key.Col]
	if len(parts) == 1 && parts[0].sel == nil {
		return codeKey(col, key)
	}
	switch col.DataType().ID() {
	case arrow.STRING, arrow.BINARY:
		ranks, sorted := stringRanksParts(parts, key.Col, total)
		if ranks == nil {
			return keyCode{}, false
		}
		return codeRanks(col.DataType(), ranks, sorted, gatherValidity(parts, key.Col, total), 0, key)
	case arrow.BOOL, arrow.INT8, arrow.INT16, arrow.INT32, arrow.DATE32, arrow.TIME32, arrow.INTERVAL_MONTHS,
		arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		return codeKey(gatherColumn(parts, key.Col, total), key)
	}
	return keyCode{}, false
}

// isNull reports whether row i's key is NULL.
func (c *keyCode) isNull(i int) bool {
	return c.nulls && bitutil.BitIsNotSet(c.valid, c.validOff+i)
}

// intKeyValues returns the values of an integral or temporal column as
// int64s in the column's order.
func intKeyValues(col arrow.Array) ([]int64, bool) {
	widen := func(n int, at func(i int) int64) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = at(i)
		}
		return out
	}
	switch col.DataType().ID() {
	case arrow.INT8:
		v := vector.Values[int8](col)
		return widen(len(v), func(i int) int64 { return int64(v[i]) }), true
	case arrow.INT16:
		v := vector.Values[int16](col)
		return widen(len(v), func(i int) int64 { return int64(v[i]) }), true
	case arrow.INT32, arrow.DATE32, arrow.TIME32, arrow.INTERVAL_MONTHS:
		v := vector.Values[int32](col)
		out := make([]int64, len(v))
		for i, x := range v {
			out[i] = int64(x)
		}
		return out, true
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		return vector.Values[int64](col), true
	}
	return nil, false
}

// pack shifts every packed code left by c.bits and adds row i's code.
func (c *keyCode) pack(packed []uint64) {
	sh := c.bits
	nullCode := c.span + 1
	valueBase := uint64(0)
	if c.nullLow {
		nullCode, valueBase = 0, 1
	}
	if !c.nulls {
		valueBase = 0
	}
	for i := range packed {
		var code uint64
		switch {
		case c.isNull(i):
			code = nullCode
		case c.ranks != nil:
			code = uint64(c.ranks[i])
			if c.desc {
				code = c.span - code
			}
			code += valueBase
		case c.ints != nil:
			code = uint64(c.ints[i]) - c.min
			if c.desc {
				code = c.span - code
			}
			code += valueBase
		default:
			v := 0
			if c.col.(*array.Boolean).Value(i) {
				v = 1
			}
			code = uint64(c.boolCode[v]) + valueBase
		}
		packed[i] = packed[i]<<sh | code
	}
}

// decode rebuilds the key's column in the order of the sorted packed words
// (the code at bit offset at of each), or nil when the column's type is
// not one it rebuilds (booleans).
func (c *keyCode) decode(packed []uint64, at uint) arrow.Array {
	dt := c.dt
	n := len(packed)
	mask := uint64(1)<<c.bits - 1
	nullCode := c.span + 1
	valueBase := uint64(0)
	if c.nullLow {
		nullCode, valueBase = 0, 1
	}
	if !c.nulls {
		valueBase = 0
	}
	var valid []byte
	if c.nulls {
		valid = make([]byte, (n+7)/8)
	}
	// value returns position i's code as the offset from the column's
	// minimum (the rank for strings); ok is false for NULL
	value := func(i int) (uint64, bool) {
		code := (packed[i] >> at) & mask
		if c.nulls {
			if code == nullCode {
				return 0, false
			}
			valid[i>>3] |= 1 << (i & 7)
		}
		v := code - valueBase
		if c.desc {
			v = c.span - v
		}
		return v, true
	}
	if c.ranks != nil {
		codes := make([]int32, n)
		total := 0
		for i := range codes {
			v, ok := value(i)
			if !ok {
				codes[i] = -1
				continue
			}
			codes[i] = int32(v)
			total += len(c.sorted[v])
		}
		offs := make([]int32, n+1)
		data := make([]byte, total)
		pos := 0
		for i, r := range codes {
			if r >= 0 {
				pos += copy(data[pos:], c.sorted[r])
			}
			offs[i+1] = int32(pos)
		}
		return vector.StringsFrom(offs, data, valid, dt.ID() == arrow.BINARY)
	}
	if c.ints == nil {
		return nil
	}
	switch dt.ID() {
	case arrow.INT8:
		return vector.FromValues(dt, decodeInts[int8](n, c.min, value), valid, -1)
	case arrow.INT16:
		return vector.FromValues(dt, decodeInts[int16](n, c.min, value), valid, -1)
	case arrow.INT32, arrow.DATE32, arrow.TIME32, arrow.INTERVAL_MONTHS:
		return vector.FromValues(dt, decodeInts[int32](n, c.min, value), valid, -1)
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		return vector.FromValues(dt, decodeInts[int64](n, c.min, value), valid, -1)
	}
	return nil
}

// decodeInts returns min + value(i) for every position (0 for NULL).
func decodeInts[T int8 | int16 | int32 | int64](n int, min uint64, value func(i int) (uint64, bool)) []T {
	out := make([]T, n)
	for i := range out {
		if v, ok := value(i); ok {
			out[i] = T(int64(v + min))
		}
	}
	return out
}
