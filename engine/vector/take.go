package vector

import (
	"fmt"
	"math/bits"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Take gathers rows idx of arr into a new array (filter and reorder). An
// index of -1 produces NULL (used by outer joins).
func Take(arr arrow.Array, idx []int32) arrow.Array {
	n := len(idx)
	valid := takeValidity(arr, idx)
	switch arr.DataType().ID() {
	case arrow.INT8:
		return FromValues(arr.DataType(), takeFixed(Values[int8](arr), idx), valid, -1)
	case arrow.INT16:
		return FromValues(arr.DataType(), takeFixed(Values[int16](arr), idx), valid, -1)
	case arrow.INT32, arrow.DATE32, arrow.TIME32, arrow.INTERVAL_MONTHS:
		return FromValues(arr.DataType(), takeFixed(Values[int32](arr), idx), valid, -1)
	case arrow.INT64, arrow.TIMESTAMP, arrow.TIME64, arrow.DURATION, arrow.DATE64:
		return FromValues(arr.DataType(), takeFixed(Values[int64](arr), idx), valid, -1)
	case arrow.FLOAT32:
		return FromValues(arr.DataType(), takeFixed(Values[float32](arr), idx), valid, -1)
	case arrow.FLOAT64:
		return FromValues(arr.DataType(), takeFixed(Values[float64](arr), idx), valid, -1)
	case arrow.DECIMAL128:
		return FromValues(arr.DataType(), takeFixed(Values[decimal128.Num](arr), idx), valid, -1)
	case arrow.BOOL:
		b := arr.(*array.Boolean)
		bits := make([]byte, bitutil.BytesForBits(int64(n)))
		for i, j := range idx {
			if j >= 0 && b.Value(int(j)) {
				bits[i>>3] |= 1 << (i & 7)
			}
		}
		return BoolsFromBits(bits, n, valid)
	case arrow.STRING, arrow.BINARY:
		offs, data := StringData(arr)
		total := 0
		for _, j := range idx {
			if j >= 0 {
				total += int(offs[j+1] - offs[j])
			}
		}
		outOffs := make([]int32, n+1)
		outData := make([]byte, 0, total)
		for i, j := range idx {
			if j >= 0 {
				outData = append(outData, data[offs[j]:offs[j+1]]...)
			}
			outOffs[i+1] = int32(len(outData))
		}
		return StringsFrom(outOffs, outData, valid, arr.DataType().ID() == arrow.BINARY)
	case arrow.NULL:
		return array.NewNull(n)
	case arrow.STRUCT:
		s := arr.(*array.Struct)
		children := make([]arrow.ArrayData, s.NumField())
		for f := 0; f < s.NumField(); f++ {
			children[f] = Take(s.Field(f), idx).Data()
		}
		data := array.NewData(arr.DataType(), n, []*memory.Buffer{validityBuffer(valid, n)}, children, nullCount(valid, n), 0)
		return array.MakeFromData(data)
	case arrow.LIST, arrow.MAP:
		var offs []int32
		var child arrow.Array
		if m, ok := arr.(*array.Map); ok {
			offs = m.Offsets()
			child = m.ListValues()
		} else {
			l := arr.(*array.List)
			offs = l.Offsets()
			child = l.ListValues()
		}
		outOffs := make([]int32, n+1)
		var childIdx []int32
		for i, j := range idx {
			if j >= 0 {
				for k := offs[j]; k < offs[j+1]; k++ {
					childIdx = append(childIdx, k)
				}
			}
			outOffs[i+1] = int32(len(childIdx))
		}
		newChild := Take(child, childIdx)
		data := array.NewData(arr.DataType(), n,
			[]*memory.Buffer{validityBuffer(valid, n), memory.NewBufferBytes(bytesOf(outOffs))},
			[]arrow.ArrayData{newChild.Data()}, nullCount(valid, n), 0)
		return array.MakeFromData(data)
	}
	panic(fmt.Sprintf("vector.Take: unsupported type %s", arr.DataType()))
}

func validityBuffer(valid []byte, n int) *memory.Buffer {
	if valid == nil || nullCount(valid, n) == 0 {
		return nil
	}
	return memory.NewBufferBytes(valid)
}

func nullCount(valid []byte, n int) int {
	if valid == nil {
		return 0
	}
	return n - bitutil.CountSetBits(valid, 0, n)
}

func takeFixed[T Fixed](vals []T, idx []int32) []T {
	out := make([]T, len(idx))
	for i, j := range idx {
		if j >= 0 {
			out[i] = vals[j]
		}
	}
	return out
}

func takeValidity(arr arrow.Array, idx []int32) []byte {
	hasNeg := false
	for _, j := range idx {
		if j < 0 {
			hasNeg = true
			break
		}
	}
	if arr.NullN() == 0 && !hasNeg {
		return nil
	}
	out := make([]byte, bitutil.BytesForBits(int64(len(idx))))
	d := arr.Data()
	var src []byte
	if bufs := d.Buffers(); len(bufs) > 0 && bufs[0] != nil {
		src = bufs[0].Bytes()
	}
	if src == nil || arr.NullN() == 0 {
		if arr.DataType().ID() == arrow.NULL {
			return out
		}
		for i, j := range idx {
			if j >= 0 {
				out[i>>3] |= 1 << (i & 7)
			}
		}
		return out
	}
	off := d.Offset()
	for i, j := range idx {
		if j >= 0 {
			k := off + int(j)
			if src[k>>3]&(1<<(k&7)) != 0 {
				out[i>>3] |= 1 << (i & 7)
			}
		}
	}
	return out
}

// Concat concatenates arrays of the same type.
func Concat(arrs []arrow.Array) arrow.Array {
	if len(arrs) == 1 {
		return arrs[0]
	}
	out, err := array.Concatenate(arrs, memory.DefaultAllocator)
	if err != nil {
		panic(fmt.Sprintf("vector.Concat: %v", err))
	}
	return out
}

// Repeat returns an array with element i of arr repeated n times.
func Repeat(arr arrow.Array, i, n int) arrow.Array {
	idx := make([]int32, n)
	for k := range idx {
		idx[k] = int32(i)
	}
	return Take(arr, idx)
}

// SelectionFromBools returns the indexes of rows whose boolean is true
// and valid (SQL WHERE keeps only TRUE), and whether every row is kept.
func SelectionFromBools(pred arrow.Array) ([]int32, bool) {
	b := pred.(*array.Boolean)
	n := b.Len()
	d := b.Data()
	bufs := d.Buffers()
	if d.Offset()%8 != 0 || len(bufs) < 2 || bufs[1] == nil {
		return selectionPerRow(b)
	}
	// whole bytes of the value bitmap, ANDed with the validity bitmap:
	// count the set bits to size the selection, then list them
	start := d.Offset() / 8
	vals := bufs[1].Bytes()[start:]
	var valid []byte
	if b.NullN() > 0 {
		if bufs[0] == nil {
			return selectionPerRow(b)
		}
		valid = bufs[0].Bytes()[start:]
	}
	nbytes := (n + 7) / 8
	byteAt := func(i int) uint8 {
		x := vals[i]
		if valid != nil {
			x &= valid[i]
		}
		if i == nbytes-1 && n%8 != 0 {
			x &= uint8(1)<<(n%8) - 1
		}
		return x
	}
	count := 0
	for i := 0; i < nbytes; i++ {
		count += bits.OnesCount8(byteAt(i))
	}
	sel := make([]int32, 0, count)
	for i := 0; i < nbytes; i++ {
		for x := byteAt(i); x != 0; x &= x - 1 {
			sel = append(sel, int32(i*8+bits.TrailingZeros8(x)))
		}
	}
	return sel, count == n
}

// selectionPerRow is SelectionFromBools reading one value at a time.
func selectionPerRow(b *array.Boolean) ([]int32, bool) {
	n := b.Len()
	sel := make([]int32, 0, n)
	for i := 0; i < n; i++ {
		if b.IsValid(i) && b.Value(i) {
			sel = append(sel, int32(i))
		}
	}
	return sel, len(sel) == n
}
