package parquet

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// Top-level, non-repeated INT32, INT64, FLOAT and DOUBLE columns whose
// Arrow type has the physical layout (plain integers and floats, DATE,
// TIMESTAMP in the file's unit) are read here rather than by pqarrow: the
// column chunk reader decodes a page's values straight into the batch's
// value buffer, without pqarrow's record reader (its per-batch buffer
// growth, level bookkeeping and dictionary checks were half the CPU of
// summing two BIGINT columns of the flights file).

// directColumn reads one top-level column across the row groups being
// read, in row order, n values at a time.
type directColumn interface {
	read(n int) (arrow.Array, error)
}

// fixedValue is a Parquet physical type read into an Arrow fixed-width
// buffer of the same layout.
type fixedValue interface {
	int32 | int64 | float32 | float64
}

// fixedColumn reads one top-level fixed-width column as Arrow type t.
type fixedColumn[T fixedValue] struct {
	pf     *file.Reader
	leaf   int
	maxDef int16
	groups []int
	t      arrow.DataType
	next   int // index in groups of the next row group to open
	cr     file.ColumnChunkReader
	// readPage is the typed ReadBatchInPage of cr.
	readPage func(cr file.ColumnChunkReader, n int64, vals []T, defs []int16) (int64, int, error)
	defs     []int16
}

// read returns the next n values.
func (c *fixedColumn[T]) read(n int) (arrow.Array, error) {
	out := make([]T, n)
	var valid []byte
	nulls := 0
	if c.maxDef > 0 && cap(c.defs) < n {
		c.defs = make([]int16, n)
	}
	for got := 0; got < n; {
		if c.cr == nil || !c.cr.HasNext() {
			if c.next >= len(c.groups) {
				return nil, fmt.Errorf("column has fewer rows than the file's other columns")
			}
			cr, err := c.pf.RowGroup(c.groups[c.next]).Column(c.leaf)
			c.next++
			if err != nil {
				return nil, err
			}
			c.cr = cr
			continue
		}
		want := n - got
		if c.maxDef == 0 {
			total, _, err := c.readPage(c.cr, int64(want), out[got:], nil)
			if err != nil {
				return nil, err
			}
			if total == 0 {
				c.cr = nil
			}
			got += int(total)
			continue
		}
		// Values come packed (no slot for a NULL): read them into place
		// and spread them when the page has NULLs.
		defs := c.defs[:want]
		total, read, err := c.readPage(c.cr, int64(want), out[got:], defs)
		if err != nil {
			return nil, err
		}
		if total == 0 {
			c.cr = nil
			continue
		}
		if int(total) == read {
			if valid != nil {
				bitutil.SetBitsTo(valid, int64(got), total, true)
			}
			got += int(total)
			continue
		}
		if valid == nil {
			valid = make([]byte, bitutil.BytesForBits(int64(n)))
			bitutil.SetBitsTo(valid, 0, int64(got), true)
		}
		// From the last value backwards: value v moves to slot i >= v.
		v := read - 1
		for i := int(total) - 1; i >= 0; i-- {
			if defs[i] < c.maxDef {
				nulls++
				var zero T
				out[got+i] = zero
				continue
			}
			bitutil.SetBit(valid, got+i)
			out[got+i] = out[got+v]
			v--
		}
		got += int(total)
	}
	var vb *memory.Buffer
	if nulls > 0 {
		vb = memory.NewBufferBytes(valid)
	}
	d := array.NewData(c.t, n, []*memory.Buffer{vb, memory.NewBufferBytes(arrow.GetBytes(out))}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}

// newDirectColumn returns the reader of top-level leaf f of the row
// groups and its Arrow type, nil when pqarrow reads it: a nested or repeated column, or one
// whose Arrow type pqarrow converts (small or unsigned integers,
// decimals, times, INT96, a stored Arrow schema asking for another type).
func newDirectColumn(pf *file.Reader, f *pqarrow.SchemaField, groups []int) (directColumn, arrow.DataType) {
	if !f.IsLeaf() || f.Field == nil {
		return nil, nil
	}
	c := pf.MetaData().Schema.Column(f.ColIndex)
	if c.MaxRepetitionLevel() != 0 {
		return nil, nil
	}
	var t arrow.DataType
	lt := c.LogicalType()
	plain := lt == nil || !lt.IsValid() || lt.Equals(schema.NoLogicalType{})
	var il *schema.IntLogicalType
	switch l := lt.(type) {
	case schema.IntLogicalType:
		il = &l
	case *schema.IntLogicalType:
		il = l
	}
	if il != nil && il.IsSigned() && int(il.BitWidth()) == 8*c.PhysicalType().ByteSize() {
		plain = true
	}
	_, date := lt.(schema.DateLogicalType)
	var ts *schema.TimestampLogicalType
	switch l := lt.(type) {
	case schema.TimestampLogicalType:
		ts = &l
	case *schema.TimestampLogicalType:
		ts = l
	}
	switch c.PhysicalType() {
	case pq.Types.Int32:
		if plain {
			t = arrow.PrimitiveTypes.Int32
		} else if date {
			t = arrow.FixedWidthTypes.Date32
		}
	case pq.Types.Int64:
		if plain {
			t = arrow.PrimitiveTypes.Int64
		} else if ts != nil {
			// pqarrow's type, if its unit is the file's.
			unit := map[schema.TimeUnitType]arrow.TimeUnit{schema.TimeUnitMillis: arrow.Millisecond,
				schema.TimeUnitMicros: arrow.Microsecond, schema.TimeUnitNanos: arrow.Nanosecond}
			if at, ok := f.Field.Type.(*arrow.TimestampType); ok && ts.TimeUnit() != schema.TimeUnitUnknown && at.Unit == unit[ts.TimeUnit()] {
				t = at
			}
		}
	case pq.Types.Float:
		if plain {
			t = arrow.PrimitiveTypes.Float32
		}
	case pq.Types.Double:
		if plain {
			t = arrow.PrimitiveTypes.Float64
		}
	}
	if t == nil || !arrow.TypeEqual(t, f.Field.Type) {
		return nil, nil
	}
	maxDef := c.MaxDefinitionLevel()
	switch c.PhysicalType() {
	case pq.Types.Int32:
		return &fixedColumn[int32]{pf: pf, leaf: f.ColIndex, maxDef: maxDef, groups: groups, t: t,
			readPage: func(cr file.ColumnChunkReader, n int64, vals []int32, defs []int16) (int64, int, error) {
				return cr.(*file.Int32ColumnChunkReader).ReadBatchInPage(n, vals, defs, nil)
			}}, t
	case pq.Types.Int64:
		return &fixedColumn[int64]{pf: pf, leaf: f.ColIndex, maxDef: maxDef, groups: groups, t: t,
			readPage: func(cr file.ColumnChunkReader, n int64, vals []int64, defs []int16) (int64, int, error) {
				return cr.(*file.Int64ColumnChunkReader).ReadBatchInPage(n, vals, defs, nil)
			}}, t
	case pq.Types.Float:
		return &fixedColumn[float32]{pf: pf, leaf: f.ColIndex, maxDef: maxDef, groups: groups, t: t,
			readPage: func(cr file.ColumnChunkReader, n int64, vals []float32, defs []int16) (int64, int, error) {
				return cr.(*file.Float32ColumnChunkReader).ReadBatchInPage(n, vals, defs, nil)
			}}, t
	default:
		return &fixedColumn[float64]{pf: pf, leaf: f.ColIndex, maxDef: maxDef, groups: groups, t: t,
			readPage: func(cr file.ColumnChunkReader, n int64, vals []float64, defs []int16) (int64, int, error) {
				return cr.(*file.Float64ColumnChunkReader).ReadBatchInPage(n, vals, defs, nil)
			}}, t
	}
}
