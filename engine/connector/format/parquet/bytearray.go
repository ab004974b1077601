package parquet

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/bitutil"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// Top-level, non-repeated BYTE_ARRAY columns read as strings or bytes are
// read here rather than by pqarrow, which appends them to an Arrow builder
// value by value (a third of the CPU of reading the flights file's two
// string columns). The column chunk reader hands out each page's values
// as slices of the decoded page (or of the dictionary), and a batch's
// offsets and bytes are filled in one pass over them.

// noPages makes byteArrayColumn read every chunk through the column chunk
// reader (tests compare the two ways).
var noPages = false

// byteArrayColumn reads one top-level BYTE_ARRAY column across the row
// groups being read, in the record reader's row order, as a String (t is
// arrow.BinaryTypes.String) or Binary column.
type byteArrayColumn struct {
	pf     *file.Reader
	leaf   int
	maxDef int16
	groups []int
	t      arrow.DataType
	next   int // index in groups of the next row group to open
	cr     *file.ByteArrayColumnChunkReader
	pages  *byteArrayPages // the current chunk when decoded from its pages (pages.go)
	paged  int             // chunks decoded from their pages so far
	vals   []pq.ByteArray
	defs   []int16
	data   int // bytes of the previous batch: the next one's first guess
}

// read returns the next n values.
func (c *byteArrayColumn) read(n int) (arrow.Array, error) {
	offs := make([]int32, n+1)
	data := make([]byte, 0, c.data+c.data/8)
	var valid []byte
	nulls := 0
	if cap(c.vals) < n {
		c.vals, c.defs = make([]pq.ByteArray, n), make([]int16, n)
	}
	if c.maxDef > 0 {
		valid = make([]byte, bitutil.BytesForBits(int64(n)))
	}
	for got := 0; got < n; {
		if c.pages != nil {
			k, null, d, err := c.pages.read(n-got, data, offs, got, valid)
			data = d
			if err != nil {
				return nil, err
			}
			if k == 0 {
				c.pages.pr.Close()
				c.pages = nil
			}
			got += k
			nulls += null
			continue
		}
		if c.cr == nil || !c.cr.HasNext() {
			if c.next >= len(c.groups) {
				return nil, fmt.Errorf("BYTE_ARRAY column has fewer rows than the file's other columns")
			}
			rg := c.pf.RowGroup(c.groups[c.next])
			c.next++
			c.cr = nil
			if md, err := rg.MetaData().ColumnChunk(c.leaf); err == nil && !noPages && pageDecodable(md) {
				pr, err := rg.GetColumnPageReader(c.leaf)
				if err != nil {
					return nil, err
				}
				c.pages = &byteArrayPages{pr: pr, maxDef: c.maxDef}
				c.paged++
				continue
			}
			ccr, err := rg.Column(c.leaf)
			if err != nil {
				return nil, err
			}
			cr, ok := ccr.(*file.ByteArrayColumnChunkReader)
			if !ok {
				return nil, fmt.Errorf("column is not BYTE_ARRAY")
			}
			c.cr = cr
			continue
		}
		want := n - got
		vals, defs := c.vals[:want], c.defs[:want]
		// The values of one page at most, slices of the page's buffer:
		// copied before the next call.
		total, read, err := c.cr.ReadBatchInPage(int64(want), vals, defs, nil)
		if err != nil {
			return nil, err
		}
		if total == 0 {
			c.cr = nil
			continue
		}
		size := 0
		for _, v := range vals[:read] {
			size += len(v)
		}
		if len(data)+size > 1<<31-1 {
			return nil, fmt.Errorf("a batch of %d values holds more than 2 GiB", n)
		}
		if cap(data)-len(data) < size {
			grown := make([]byte, len(data), len(data)+size+(len(data)+size)/4)
			copy(grown, data)
			data = grown
		}
		off := offs[got]
		if c.maxDef == 0 || int(total) == read {
			for i, v := range vals[:read] {
				data = append(data, v...)
				off += int32(len(v))
				offs[got+i+1] = off
			}
		} else {
			v := 0
			for i := 0; i < int(total); i++ {
				if defs[i] < c.maxDef {
					nulls++
				} else {
					bitutil.SetBit(valid, got+i)
					data = append(data, vals[v]...)
					off += int32(len(vals[v]))
					v++
				}
				offs[got+i+1] = off
			}
			got += int(total)
			continue
		}
		if valid != nil {
			bitutil.SetBitsTo(valid, int64(got), total, true)
		}
		got += int(total)
	}
	c.data = len(data)
	var vb *memory.Buffer
	if nulls > 0 {
		vb = memory.NewBufferBytes(valid)
	}
	d := array.NewData(c.t, n, []*memory.Buffer{vb, memory.NewBufferBytes(arrow.Int32Traits.CastToBytes(offs)), memory.NewBufferBytes(data)}, nil, nulls, 0)
	defer d.Release()
	return array.MakeFromData(d), nil
}
