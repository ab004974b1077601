package runtime

import (
	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// WriteState saves the store's rows in a snapshot: the row count and
// column count, then each column as it is held: its validity bitmap (when
// it has NULLs), then fixed-width values (integers and temporal values as
// varints, floats and decimals in their bits), strings and bytes as their
// lengths and data, nested values one by one (state.Writer.Value).
func (s *RowStore) WriteState(w *state.Writer) {
	w.Varint(int64(s.n))
	w.Count(len(s.cols))
	for _, col := range s.cols {
		switch c := col.(type) {
		case *fixedCol[int8]:
			writeFixed(w, c, func(v int8) { w.Varint(int64(v)) })
		case *fixedCol[int16]:
			writeFixed(w, c, func(v int16) { w.Varint(int64(v)) })
		case *fixedCol[int32]:
			writeFixed(w, c, func(v int32) { w.Varint(int64(v)) })
		case *fixedCol[int64]:
			writeFixed(w, c, func(v int64) { w.Varint(v) })
		case *fixedCol[float32]:
			writeFixed(w, c, w.Float32)
		case *fixedCol[float64]:
			writeFixed(w, c, w.Float64)
		case *fixedCol[decimal128.Num]:
			writeFixed(w, c, func(v decimal128.Num) {
				w.Int64(v.HighBits())
				w.Uint64(v.LowBits())
			})
		case *strCol:
			writeValidity(w, &c.v)
			w.Count(len(c.offs))
			for i := range c.offs {
				w.Count(int(c.end(i) - c.offs[i]))
			}
			w.Raw(c.data)
		case *anyCol:
			w.Count(len(c.vals))
			for _, v := range c.vals {
				w.Value(v, c.t)
			}
		}
	}
}

func writeFixed[T vector.Fixed](w *state.Writer, c *fixedCol[T], put func(T)) {
	writeValidity(w, &c.v)
	w.Count(len(c.vals))
	for _, v := range c.vals {
		put(v)
	}
}

func writeValidity(w *state.Writer, v *validity) {
	w.Bool(v.bits != nil)
	if v.bits != nil {
		w.Count(v.nulls)
		w.Bytes(v.bits)
	}
}

// ReadRowStore reads a store of columns of types ts that WriteState
// saved. A store of another number of columns or rows is a failure of r
// (the returned store is then not to be used).
func ReadRowStore(r *state.Reader, ts []*types.DataType) *RowStore {
	s := NewRowStore(ts)
	n := r.Int32()
	if n < 0 {
		r.Failf("want a row count, found %d", n)
		return s
	}
	if cols := r.Count(1); r.Err() == nil && cols != len(ts) {
		r.Failf("want a row store of %d columns, found %d", len(ts), cols)
		return s
	}
	s.n = n
	for _, col := range s.cols {
		if r.Err() != nil {
			break
		}
		switch c := col.(type) {
		case *fixedCol[int8]:
			readFixed(r, c, int(n), 1, func() int8 { return int8(r.Varint()) })
		case *fixedCol[int16]:
			readFixed(r, c, int(n), 1, func() int16 { return int16(r.Varint()) })
		case *fixedCol[int32]:
			readFixed(r, c, int(n), 1, r.Int32)
		case *fixedCol[int64]:
			readFixed(r, c, int(n), 1, r.Varint)
		case *fixedCol[float32]:
			readFixed(r, c, int(n), 4, r.Float32)
		case *fixedCol[float64]:
			readFixed(r, c, int(n), 8, r.Float64)
		case *fixedCol[decimal128.Num]:
			readFixed(r, c, int(n), 16, func() decimal128.Num {
				hi := r.Int64()
				return decimal128.New(hi, r.Uint64())
			})
		case *strCol:
			readValidity(r, &c.v, int(n))
			rows := r.Count(1)
			if r.Err() == nil && rows != int(n) {
				r.Failf("want %d strings, found %d", n, rows)
				break
			}
			c.offs = make([]int64, rows)
			total := int64(0)
			for i := range c.offs {
				c.offs[i] = total
				total += int64(r.Count(0))
			}
			if r.Err() == nil && total > int64(r.Remaining()) {
				r.Failf("want %d bytes of strings, %d left (truncated snapshot)", total, r.Remaining())
				break
			}
			c.data = r.Raw(int(total))
		case *anyCol:
			rows := r.Count(1)
			if r.Err() == nil && rows != int(n) {
				r.Failf("want %d values, found %d", n, rows)
				break
			}
			c.vals = make([]any, rows)
			for i := range c.vals {
				c.vals[i] = r.Value(c.t)
			}
		}
	}
	return s
}

func readFixed[T vector.Fixed](r *state.Reader, c *fixedCol[T], n, minSize int, get func() T) {
	readValidity(r, &c.v, n)
	rows := r.Count(minSize)
	if r.Err() == nil && rows != n {
		r.Failf("want %d values, found %d", n, rows)
		return
	}
	c.vals = make([]T, rows)
	for i := range c.vals {
		c.vals[i] = get()
	}
}

func readValidity(r *state.Reader, v *validity, n int) {
	if !r.Bool() {
		return
	}
	nulls := r.Uvarint()
	if r.Err() == nil && nulls > uint64(n) {
		r.Failf("want a number of NULLs of at most %d, found %d", n, nulls)
		return
	}
	bits := r.Bytes()
	if r.Err() == nil && len(bits)*8 < n {
		r.Failf("want a validity bitmap of %d rows, found %d bytes", n, len(bits))
		return
	}
	v.nulls, v.bits = int(nulls), bits
}
