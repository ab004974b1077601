package runtime

import (
	"encoding/binary"
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
	// leadEnds, when not nil, holds the end of each code of the leading
	// key in the sorted words: positions [leadEnds[d-1], leadEnds[d]) have
	// code d (the bucketed sort's buckets, when its digit was the whole
	// leading key)
	leadEnds []int
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
	shift := total - posBits
	for k := range codes {
		shift -= codes[k].bits
		codes[k].shift = shift
	}
	keyBits := total - posBits
	packed := make([]uint64, n)
	if keyBits <= radixDigitBits || n <= radixLeafRows {
		packCodes(packed, codes, posBits, nil)
		if keyBits > 0 {
			packed = radixSortBits(packed, posBits, keyBits)
		}
		return &radixSorted{packed: packed, posBits: posBits, codes: codes}
	}
	// the leading key's top digit splits the rows into buckets as they
	// are packed (the first pass of a most significant digit sort, with
	// no pass of its own); each bucket is then sorted by the rest
	lead := &codes[0]
	digit := min(lead.bits, radixDigitBits)
	if digit == 0 {
		lead = nil // a key of one value: no split
	}
	var ends []int
	if lead != nil {
		ends = make([]int, 1<<digit)
		var words [packChunk]uint64
		for from := 0; from < n; from += packChunk {
			w := words[:min(packChunk, n-from)]
			clear(w)
			lead.packRange(w, from)
			for _, v := range w {
				ends[v>>(lead.bits-digit)]++
			}
		}
		sum := 0
		for d, c := range ends {
			ends[d] = sum // the bucket's start until the packing moves it to its end
			sum += c
		}
	}
	packCodes(packed, codes, posBits, ends)
	rest := keyBits
	if lead != nil {
		rest -= digit
	}
	var leadEnds []int
	if lead != nil && digit == lead.bits {
		leadEnds = ends
	}
	if rest == 0 {
		return &radixSorted{packed: packed, posBits: posBits, codes: codes, leadEnds: leadEnds}
	}
	if lead == nil {
		packed = radixSortBits(packed, posBits, rest)
		return &radixSorted{packed: packed, posBits: posBits, codes: codes}
	}
	largest, start := 0, 0
	for _, end := range ends {
		largest = max(largest, end-start)
		start = end
	}
	scratch := make([]uint64, largest)
	start = 0
	for _, end := range ends {
		if end-start > 1 {
			msdSortBits(packed[start:end], scratch[:end-start], posBits, rest, false)
		}
		start = end
	}
	return &radixSorted{packed: packed, posBits: posBits, codes: codes, leadEnds: leadEnds}
}

// packChunk is the number of rows packCodes codes at a time (16 KiB of
// words, in the L1 cache while every key adds its code).
const packChunk = 2048

// packCodes writes every row's packed word (the codes of codes, then the
// row's position in the low posBits bits) into packed: in row order when
// ends is nil, else into the bucket of the leading key's top digit
// (ends[d] holds bucket d's start on entry and its end on return). The
// rows are coded a chunk at a time in a small buffer, so packed is written
// once, in one pass.
func packCodes(packed []uint64, codes []keyCode, posBits uint, ends []int) {
	n := len(packed)
	var words [packChunk]uint64
	var topShift uint
	if ends != nil {
		lead := codes[0].bits
		topShift = posBits + codes[0].shift + lead - min(lead, radixDigitBits)
	}
	for from := 0; from < n; from += packChunk {
		w := words[:min(packChunk, n-from)]
		clear(w)
		for k := range codes {
			codes[k].packRange(w, from)
		}
		for j := range w {
			w[j] = w[j]<<posBits | uint64(from+j)
		}
		if ends == nil {
			copy(packed[from:], w)
			continue
		}
		for _, v := range w {
			d := v >> topShift
			packed[ends[d]] = v
			ends[d]++
		}
	}
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
	cols := r.columns(len(b.Cols), keys, func() []int32 { return perm }, func(c int) arrow.Array { return b.Cols[c] })
	var kinds []types.RowKind
	if b.Kinds != nil {
		kinds = make([]types.RowKind, len(perm))
		for i, s := range perm {
			kinds[i] = b.Kinds[s]
		}
	}
	return &types.Batch{Cols: cols, Kinds: kinds, Len: len(perm)}
}

// columns returns ncols columns in sorted order: the key columns it can
// decode from the sorted codes, the others taken from column(c) in the
// order of perm() (r.perm; nil stays nil; column and perm are called only
// for those).
func (r *radixSorted) columns(ncols int, keys []opspec.SortKey, perm func() []int32, column func(c int) arrow.Array) []arrow.Array {
	cols := make([]arrow.Array, ncols)
	decoded := make([]bool, ncols)
	for k, key := range keys {
		if !decoded[key.Col] {
			decoded[key.Col] = true
			if k == 0 && r.leadEnds != nil {
				cols[key.Col] = r.codes[0].decodeRuns(r.leadEnds)
			} else {
				cols[key.Col] = r.codes[k].decode(r.packed, r.posBits+r.codes[k].shift)
			}
		}
	}
	for i := range cols {
		if cols[i] == nil {
			if c := column(i); c != nil {
				cols[i] = vector.Take(c, perm())
			}
		}
	}
	return cols
}

// radixSortBits sorts vals stably by bits [lo, lo+width) (the bits above
// lo+width must be zero) and returns the sorted slice (vals or a buffer
// of the same length). A large array whose key takes more than one digit
// is sorted most significant digit first: one pass over the whole array
// puts each value in the bucket of its top digit, and each bucket, a few
// thousand values on data like the OVER's (partition rank, order key),
// is then sorted by the remaining bits while it sits in the cache. So
// the whole array is streamed and scattered once instead of once per
// digit, and a second core running the same sort contends for memory in
// one pass instead of several. Small arrays and keys of one digit take
// the least significant digit passes directly.
func radixSortBits(vals []uint64, lo, width uint) []uint64 {
	tmp := make([]uint64, len(vals))
	if len(vals) <= radixLeafRows || width <= radixDigitBits {
		if lsdSortBits(vals, tmp, lo, width, false) {
			return tmp
		}
		return vals
	}
	msdSortBits(vals, tmp, lo, width, false)
	return vals
}

// radixDigitBits is the widest digit of a radix pass (2,048 buckets).
const radixDigitBits = 11

// radixLeafRows (a variable for the tests) is the largest bucket sorted
// by least significant digit passes: it and its scratch space (1 MiB
// together) stay in a core's L2 cache through the passes. Larger buckets
// are split by their top digit first.
var radixLeafRows = 1 << 16

// msdSortBits sorts src stably by bits [lo, lo+width), the bits above
// equal, and leaves the result in buf when toBuf, else in src; the other
// slice (of src's length) is scratch space.
func msdSortBits(src, buf []uint64, lo, width uint, toBuf bool) {
	for {
		n := len(src)
		if n <= radixLeafRows || width <= radixDigitBits {
			if lsdSortBits(src, buf, lo, width, toBuf) != toBuf {
				if toBuf {
					copy(buf, src)
				} else {
					copy(src, buf)
				}
			}
			return
		}
		d := uint(radixDigitBits)
		shift := lo + width - d
		dmask := uint64(1)<<d - 1
		var countsArr [1 << radixDigitBits]int
		counts := countsArr[:1<<d]
		if countingScatter(src, buf, shift, dmask, counts) {
			// every value has this digit: sort by the rest
			width -= d
			continue
		}
		start := 0
		for _, end := range counts {
			if end-start > 0 {
				msdSortBits(buf[start:end], src[start:end], lo, width-d, !toBuf)
			}
			start = end
		}
		return
	}
}

// radixInsertionRows is the largest bucket lsdSortBits sorts by
// insertion: below it counting passes cost more than they save.
const radixInsertionRows = 24

// lsdSortBits sorts vals stably by bits [lo, lo+width), the bits above
// equal, with least significant digit passes of at most radixDigitBits
// bits (fewer for few values), skipping passes in which every value has
// the same digit; tmp (of vals' length) is scratch space. It reports
// whether the result is in tmp (else it is in vals); prefer, when it
// costs nothing, says which one the caller wants.
func lsdSortBits(vals, tmp []uint64, lo, width uint, prefer bool) (inTmp bool) {
	n := len(vals)
	if n <= 1 || width == 0 {
		return false
	}
	mask := uint64(1)<<width - 1
	if width == 64 {
		mask = ^uint64(0)
	}
	if n <= radixInsertionRows {
		dst := vals
		if prefer {
			dst = tmp
			copy(dst, vals)
		}
		for i := 1; i < n; i++ {
			v := dst[i]
			k := (v >> lo) & mask
			j := i
			for j > 0 && (dst[j-1]>>lo)&mask > k {
				dst[j] = dst[j-1]
				j--
			}
			dst[j] = v
		}
		return prefer
	}
	// at most radixDigitBits bits a pass, and no more buckets than about
	// twice the values
	maxDigit := min(uint(radixDigitBits), max(uint(bits.Len(uint(n))), 4))
	passes := (width + maxDigit - 1) / maxDigit
	digit := (width + passes - 1) / passes
	var countsArr [1 << radixDigitBits]int
	counts := countsArr[:1<<digit]
	dmask := uint64(1)<<digit - 1
	a, b := vals, tmp
	for shift := lo; shift < lo+width; shift += digit {
		clear(counts)
		if countingScatter(a, b, shift, dmask, counts) {
			continue
		}
		a, b = b, a
		inTmp = !inTmp
	}
	return inTmp
}

// countingScatter is one counting pass of a radix sort: it counts the
// digits (v>>shift)&mask of src (non-empty) into counts (zeroed, one
// entry per digit) and, unless every value has the same digit (then it
// reports same and writes nothing), copies src into dst (of src's length)
// in digit order, keeping the order of values with equal digits; counts
// then holds each digit's bucket end in dst.
func countingScatter(src, dst []uint64, shift uint, mask uint64, counts []int) (same bool) {
	for _, v := range src {
		counts[(v>>shift)&mask]++
	}
	if counts[(src[0]>>shift)&mask] == len(src) {
		return true
	}
	sum := 0
	for d, c := range counts {
		counts[d] = sum
		sum += c
	}
	for _, v := range src {
		d := (v >> shift) & mask
		dst[counts[d]] = v
		counts[d]++
	}
	return false
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
		// the producers' numbers when they gave them, else the strings
		ranks, sorted := dictRanksParts(parts, key.Col, total)
		if ranks == nil {
			ranks, sorted = stringRanksParts(parts, key.Col, total)
		}
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

// packRange shifts dst[j] left by c.bits and adds the code of row
// from+j, for every j.
func (c *keyCode) packRange(dst []uint64, from int) {
	sh := c.bits
	nullCode := c.span + 1
	valueBase := uint64(0)
	if c.nullLow {
		nullCode, valueBase = 0, 1
	}
	if !c.nulls {
		valueBase = 0
	}
	// code = (x - base) for ASC, (span - (x - base)) = (span + base) - x
	// for DESC, then + valueBase: x*sign + add
	switch {
	case c.ranks != nil || c.ints != nil:
		var sign, add uint64 = 1, valueBase
		if c.desc {
			sign = ^uint64(0) // -1
		}
		switch {
		case c.ranks != nil && c.desc:
			add += c.span
		case c.ints != nil && c.desc:
			add += c.span + c.min
		case c.ints != nil:
			add -= c.min
		}
		if c.nulls {
			// a NULL row's value may be anything: its code is set apart
			for j := range dst {
				i := from + j
				code := nullCode
				if bitutil.BitIsSet(c.valid, c.validOff+i) {
					if c.ranks != nil {
						code = uint64(c.ranks[i])*sign + add
					} else {
						code = uint64(c.ints[i])*sign + add
					}
				}
				dst[j] = dst[j]<<sh | code
			}
			return
		}
		if c.ranks != nil {
			r := c.ranks[from : from+len(dst)]
			for j, x := range r {
				dst[j] = dst[j]<<sh | (uint64(x)*sign + add)
			}
		} else {
			v := c.ints[from : from+len(dst)]
			for j, x := range v {
				dst[j] = dst[j]<<sh | (uint64(x)*sign + add)
			}
		}
	default:
		col := c.col.(*array.Boolean)
		for j := range dst {
			i := from + j
			var code uint64
			if c.isNull(i) {
				code = nullCode
			} else {
				v := 0
				if col.Value(i) {
					v = 1
				}
				code = uint64(c.boolCode[v]) + valueBase
			}
			dst[j] = dst[j]<<sh | code
		}
	}
}

// decode rebuilds the key's column in the order of the sorted packed words
// (the code at bit offset at of each), or nil when the column's type is
// not one it rebuilds (booleans).
func (c *keyCode) decode(packed []uint64, at uint) arrow.Array {
	dt := c.dt
	n := len(packed)
	mask := uint64(1)<<c.bits - 1
	sign, add := c.unpack()
	var valid []byte
	if c.nulls {
		valid = make([]byte, (n+7)/8)
		nullCode := c.nullCode()
		for i, p := range packed {
			if (p>>at)&mask != nullCode {
				valid[i>>3] |= 1 << (i & 7)
			}
		}
	}
	if c.ranks != nil {
		return c.decodeRanks(packed, at, mask, sign, add, valid)
	}
	if c.ints == nil {
		return nil
	}
	switch dt.ID() {
	case arrow.INT8:
		return vector.FromValues(dt, decodeInts[int8](packed, at, mask, sign, add+c.min, valid), valid, -1)
	case arrow.INT16:
		return vector.FromValues(dt, decodeInts[int16](packed, at, mask, sign, add+c.min, valid), valid, -1)
	case arrow.INT32, arrow.DATE32, arrow.TIME32, arrow.INTERVAL_MONTHS:
		return vector.FromValues(dt, decodeInts[int32](packed, at, mask, sign, add+c.min, valid), valid, -1)
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		return vector.FromValues(dt, decodeInts[int64](packed, at, mask, sign, add+c.min, valid), valid, -1)
	}
	return nil
}

// unpack returns sign and add that turn a value's code back into its
// offset from the column's minimum (the rank for strings): code*sign +
// add, that is code - valueBase for ASC, span - (code - valueBase) for
// DESC.
func (c *keyCode) unpack() (sign, add uint64) {
	valueBase := uint64(0)
	if c.nulls && c.nullLow {
		valueBase = 1
	}
	if c.desc {
		return ^uint64(0), c.span + valueBase
	}
	return 1, -valueBase
}

// nullCode returns the code of NULL (meaningful when c.nulls).
func (c *keyCode) nullCode() uint64 {
	if c.nullLow {
		return 0
	}
	return c.span + 1
}

// decodeRuns is decode for the leading key when the sorted words hold its
// codes in runs whose ends are ends (radixSorted.leadEnds): each run's
// value is written over its positions without reading the words.
func (c *keyCode) decodeRuns(ends []int) arrow.Array {
	n := ends[len(ends)-1]
	sign, add := c.unpack()
	var valid []byte
	if c.nulls {
		valid = make([]byte, (n+7)/8)
	}
	// each run: its code, start, end; NULL runs leave valid clear
	type run struct {
		code       uint64
		start, end int
	}
	var runs []run
	start := 0
	for d, end := range ends {
		if end > start {
			runs = append(runs, run{uint64(d), start, end})
			if c.nulls && uint64(d) != c.nullCode() {
				bitutil.SetBitsTo(valid, int64(start), int64(end-start), true)
			}
		}
		start = end
	}
	isNull := func(code uint64) bool { return c.nulls && code == c.nullCode() }
	if c.ranks != nil {
		offs := make([]int32, n+1)
		pos := int32(0)
		for _, rn := range runs {
			l := int32(0)
			if !isNull(rn.code) {
				l = int32(len(c.sorted[rn.code*sign+add]))
			}
			for i := rn.start; i < rn.end; i++ {
				pos += l
				offs[i+1] = pos
			}
		}
		data := make([]byte, pos)
		for _, rn := range runs {
			if isNull(rn.code) {
				continue
			}
			s := c.sorted[rn.code*sign+add]
			at := int(offs[rn.start])
			end := int(offs[rn.end])
			if len(s) == 0 {
				continue
			}
			// the value once, then doubling copies of it
			copy(data[at:end], s)
			for done := len(s); at+done < end; done *= 2 {
				copy(data[at+done:end], data[at:at+done])
			}
		}
		return vector.StringsFrom(offs, data, valid, c.dt.ID() == arrow.BINARY)
	}
	if c.ints == nil {
		return nil
	}
	fill := func(set func(start, end int, v uint64)) {
		for _, rn := range runs {
			if !isNull(rn.code) {
				set(rn.start, rn.end, rn.code*sign+add+c.min)
			}
		}
	}
	switch c.dt.ID() {
	case arrow.INT8:
		return vector.FromValues(c.dt, fillRuns[int8](n, fill), valid, -1)
	case arrow.INT16:
		return vector.FromValues(c.dt, fillRuns[int16](n, fill), valid, -1)
	case arrow.INT32, arrow.DATE32, arrow.TIME32, arrow.INTERVAL_MONTHS:
		return vector.FromValues(c.dt, fillRuns[int32](n, fill), valid, -1)
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		return vector.FromValues(c.dt, fillRuns[int64](n, fill), valid, -1)
	}
	return nil
}

// fillRuns returns n values, 0 but where fill's runs set them.
func fillRuns[T int8 | int16 | int32 | int64](n int, fill func(set func(start, end int, v uint64))) []T {
	out := make([]T, n)
	fill(func(start, end int, v uint64) {
		x := T(int64(v))
		for i := start; i < end; i++ {
			out[i] = x
		}
	})
	return out
}

// decodeRanks is decode for a string key: the values by rank (sign and
// add turn a code into its rank; valid, when not nil, marks the rows that
// are not NULL).
func (c *keyCode) decodeRanks(packed []uint64, at uint, mask, sign, add uint64, valid []byte) arrow.Array {
	n := len(packed)
	// the values' lengths by rank, and each value of up to 8 bytes as one
	// word (written with a single store)
	lens := make([]int32, len(c.sorted))
	words := make([]uint64, len(c.sorted))
	short := true
	for r, s := range c.sorted {
		lens[r] = int32(len(s))
		if len(s) > 8 {
			short = false
			continue
		}
		var w [8]byte
		copy(w[:], s)
		words[r] = binary.LittleEndian.Uint64(w[:])
	}
	rank := func(i int) (int, bool) {
		if valid != nil && bitutil.BitIsNotSet(valid, i) {
			return 0, false
		}
		return int(((packed[i]>>at)&mask)*sign + add), true
	}
	offs := make([]int32, n+1)
	pos := int32(0)
	for i := range packed {
		if r, ok := rank(i); ok {
			pos += lens[r]
		}
		offs[i+1] = pos
	}
	// 8 bytes of room after the values: a short value's store writes
	// past its end (the next value's store, or nothing, covers it)
	data := make([]byte, int(pos)+8)
	for i := range packed {
		r, ok := rank(i)
		if !ok {
			continue
		}
		if short {
			binary.LittleEndian.PutUint64(data[offs[i]:], words[r])
		} else {
			copy(data[offs[i]:], c.sorted[r])
		}
	}
	return vector.StringsFrom(offs, data[:pos], valid, c.dt.ID() == arrow.BINARY)
}

// decodeInts returns each position's value, code*sign + add as T, and 0
// for the NULLs (the positions valid, when not nil, does not mark).
func decodeInts[T int8 | int16 | int32 | int64](packed []uint64, at uint, mask, sign, add uint64, valid []byte) []T {
	out := make([]T, len(packed))
	for i, p := range packed {
		out[i] = T(int64(((p>>at)&mask)*sign + add))
	}
	if valid != nil {
		for i := range out {
			if bitutil.BitIsNotSet(valid, i) {
				out[i] = 0
			}
		}
	}
	return out
}
