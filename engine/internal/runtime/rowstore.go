package runtime

import (
	"bytes"
	"math"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// RowStore keeps rows of a fixed schema in growable typed columns (the
// state of stateful operators: join sides, buffered rows). Rows are
// appended from batches and read back by gathering row ids into Arrow
// arrays; nothing is boxed on the way in or out for flat types.
type RowStore struct {
	types []*types.DataType
	cols  []storeCol
	n     int32
}

// NewRowStore creates a store for columns of the given types.
func NewRowStore(ts []*types.DataType) *RowStore {
	s := &RowStore{types: ts}
	for _, t := range ts {
		s.cols = append(s.cols, newStoreCol(t))
	}
	return s
}

// Len is the number of rows appended.
func (s *RowStore) Len() int32 { return s.n }

// Append adds rows sel of b (all rows when sel is nil); the new rows get
// ids Len() .. Len()+len(sel)-1.
func (s *RowStore) Append(b *types.Batch, sel []int32) {
	if sel == nil {
		sel = make([]int32, b.Len)
		for i := range sel {
			sel[i] = int32(i)
		}
	}
	for c, col := range s.cols {
		col.append(b.Cols[c], sel)
	}
	s.n += int32(len(sel))
}

// Gather builds the columns of rows ids (-1 gives NULL).
func (s *RowStore) Gather(ids []int32) []arrow.Array {
	out := make([]arrow.Array, len(s.cols))
	for c, col := range s.cols {
		out[c] = col.gather(ids)
	}
	return out
}

// EqualRow reports whether stored row id equals row i of b.
func (s *RowStore) EqualRow(id int32, b *types.Batch, i int) bool {
	for c, col := range s.cols {
		if !col.equal(id, b.Cols[c], i) {
			return false
		}
	}
	return true
}

// Bytes estimates the memory held.
func (s *RowStore) Bytes() int64 {
	var n int64
	for _, c := range s.cols {
		n += c.bytes()
	}
	return n
}

type storeCol interface {
	append(arr arrow.Array, rows []int32)
	gather(ids []int32) arrow.Array
	equal(id int32, arr arrow.Array, row int) bool
	bytes() int64
}

func newStoreCol(t *types.DataType) storeCol {
	dt := types.ToArrow(t)
	switch dt.ID() {
	case arrow.INT8:
		return &fixedCol[int8]{dt: dt}
	case arrow.INT16:
		return &fixedCol[int16]{dt: dt}
	case arrow.INT32, arrow.DATE32, arrow.TIME32, arrow.INTERVAL_MONTHS:
		return &fixedCol[int32]{dt: dt}
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION:
		return &fixedCol[int64]{dt: dt}
	case arrow.FLOAT32:
		return &fixedCol[float32]{dt: dt}
	case arrow.FLOAT64:
		return &fixedCol[float64]{dt: dt}
	case arrow.DECIMAL128:
		return &fixedCol[decimal128.Num]{dt: dt}
	case arrow.STRING:
		return &strCol{}
	case arrow.BINARY:
		return &strCol{binary: true}
	}
	return &anyCol{t: t}
}

// validity is a growable validity bitmap (nil until the first NULL).
type validity struct {
	bits  []byte
	nulls int
}

func (v *validity) set(i int, ok bool, n int) {
	if ok && v.bits == nil {
		return
	}
	if v.bits == nil {
		v.bits = make([]byte, (n+8)/8+64)
		for j := 0; j < i; j++ {
			vector.SetBit(v.bits, j)
		}
	}
	for len(v.bits)*8 <= i {
		v.bits = append(v.bits, make([]byte, len(v.bits)+1)...)
	}
	if ok {
		vector.SetBit(v.bits, i)
	} else {
		vector.ClearBit(v.bits, i)
		v.nulls++
	}
}

func (v *validity) valid(i int) bool { return v.bits == nil || vector.BitIsSet(v.bits, i) }

// gatherValidity builds the validity of ids (-1 = NULL); nil when all valid.
func (v *validity) gather(ids []int32) []byte {
	any := false
	for _, id := range ids {
		if id < 0 || (v.bits != nil && !vector.BitIsSet(v.bits, int(id))) {
			any = true
			break
		}
	}
	if !any {
		return nil
	}
	out := make([]byte, (len(ids)+7)/8)
	for i, id := range ids {
		if id >= 0 && v.valid(int(id)) {
			vector.SetBit(out, i)
		}
	}
	return out
}

type fixedCol[T vector.Fixed] struct {
	dt   arrow.DataType
	vals []T
	v    validity
}

func (c *fixedCol[T]) append(arr arrow.Array, rows []int32) {
	src := vector.Values[T](arr)
	nulls := arr.NullN() > 0
	base := len(c.vals)
	for k, r := range rows {
		if nulls && arr.IsNull(int(r)) {
			var zero T
			c.vals = append(c.vals, zero)
			c.v.set(base+k, false, base+len(rows))
			continue
		}
		c.vals = append(c.vals, src[r])
		if c.v.bits != nil {
			c.v.set(base+k, true, base+len(rows))
		}
	}
}

func (c *fixedCol[T]) gather(ids []int32) arrow.Array {
	out := make([]T, len(ids))
	for i, id := range ids {
		if id >= 0 {
			out[i] = c.vals[id]
		}
	}
	return vector.FromValues(c.dt, out, c.v.gather(ids), -1)
}

func (c *fixedCol[T]) equal(id int32, arr arrow.Array, row int) bool {
	an, sn := arr.IsNull(row), !c.v.valid(int(id))
	if an || sn {
		return an == sn
	}
	a, b := vector.Values[T](arr)[row], c.vals[id]
	switch x := any(a).(type) {
	case float32:
		y := any(b).(float32)
		return x == y || (math.IsNaN(float64(x)) && math.IsNaN(float64(y)))
	case float64:
		y := any(b).(float64)
		return x == y || (math.IsNaN(x) && math.IsNaN(y))
	}
	return a == b
}

func (c *fixedCol[T]) bytes() int64 {
	var zero T
	return int64(cap(c.vals))*int64(sizeOf(zero)) + int64(len(c.v.bits))
}

func sizeOf(v any) int {
	switch v.(type) {
	case int8:
		return 1
	case int16:
		return 2
	case int32, float32:
		return 4
	case decimal128.Num:
		return 16
	}
	return 8
}

// strCol stores strings (or bytes) back to back.
type strCol struct {
	binary bool
	offs   []int64 // start of row i; the end is offs[i+1] or len(data)
	data   []byte
	v      validity
}

func (c *strCol) end(i int) int64 {
	if i+1 < len(c.offs) {
		return c.offs[i+1]
	}
	return int64(len(c.data))
}

func (c *strCol) append(arr arrow.Array, rows []int32) {
	offs, data := vector.StringData(arr)
	nulls := arr.NullN() > 0
	base := len(c.offs)
	for k, r := range rows {
		c.offs = append(c.offs, int64(len(c.data)))
		if nulls && arr.IsNull(int(r)) {
			c.v.set(base+k, false, base+len(rows))
			continue
		}
		c.data = append(c.data, data[offs[r]:offs[r+1]]...)
		if c.v.bits != nil {
			c.v.set(base+k, true, base+len(rows))
		}
	}
}

func (c *strCol) gather(ids []int32) arrow.Array {
	total := 0
	for _, id := range ids {
		if id >= 0 {
			total += int(c.end(int(id)) - c.offs[id])
		}
	}
	offs := make([]int32, len(ids)+1)
	data := make([]byte, 0, total)
	for i, id := range ids {
		if id >= 0 {
			data = append(data, c.data[c.offs[id]:c.end(int(id))]...)
		}
		offs[i+1] = int32(len(data))
	}
	return vector.StringsFrom(offs, data, c.v.gather(ids), c.binary)
}

func (c *strCol) equal(id int32, arr arrow.Array, row int) bool {
	an, sn := arr.IsNull(row), !c.v.valid(int(id))
	if an || sn {
		return an == sn
	}
	offs, data := vector.StringData(arr)
	return bytes.Equal(data[offs[row]:offs[row+1]], c.data[c.offs[id]:c.end(int(id))])
}

func (c *strCol) bytes() int64 {
	return int64(cap(c.offs))*8 + int64(cap(c.data)) + int64(len(c.v.bits))
}

// anyCol stores values of nested types boxed (slow path).
type anyCol struct {
	t    *types.DataType
	vals []any
}

func (c *anyCol) append(arr arrow.Array, rows []int32) {
	for _, r := range rows {
		c.vals = append(c.vals, types.ValueAt(arr, int(r), c.t))
	}
}

func (c *anyCol) gather(ids []int32) arrow.Array {
	b := array.NewBuilder(memory.DefaultAllocator, types.ToArrow(c.t))
	for _, id := range ids {
		if id < 0 {
			b.AppendNull()
			continue
		}
		types.AppendValue(b, c.vals[id], c.t)
	}
	return b.NewArray()
}

func (c *anyCol) equal(id int32, arr arrow.Array, row int) bool {
	return types.ValuesEqual(c.vals[id], types.ValueAt(arr, row, c.t))
}

func (c *anyCol) bytes() int64 { return int64(len(c.vals)) * 64 }
