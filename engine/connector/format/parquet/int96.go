package parquet

import (
	"encoding/binary"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
)

// Top-level INT96 timestamp columns are read here rather than by pqarrow:
// Flink (like Hive and Spark) writes a timestamp before 1970 as the
// Julian day truncated toward zero plus a negative nanosecond-of-day,
// which pqarrow rejects ("invalid INT96 nanoseconds of day"). The value is
// days * 86400 s + nanos, signed, as Flink's and Spark's readers take it.

// julianUnixEpoch is the Julian day number of 1970-01-01.
const julianUnixEpoch = 2440588

// int96Column reads one top-level INT96 column across the row groups
// being read, in the record reader's row order.
type int96Column struct {
	pf     *file.Reader
	leaf   int
	maxDef int16
	groups []int
	next   int // index in groups of the next row group to open
	cr     *file.Int96ColumnChunkReader
	vals   []pq.Int96
	defs   []int16
}

// read returns the next n values as a nanosecond timestamp column.
func (c *int96Column) read(n int) (arrow.Array, error) {
	b := array.NewTimestampBuilder(memory.DefaultAllocator, &arrow.TimestampType{Unit: arrow.Nanosecond})
	b.Reserve(n)
	for got := 0; got < n; {
		if c.cr == nil || !c.cr.HasNext() {
			if c.next >= len(c.groups) {
				b.Release()
				return nil, fmt.Errorf("INT96 column has fewer rows than the file's other columns")
			}
			ccr, err := c.pf.RowGroup(c.groups[c.next]).Column(c.leaf)
			c.next++
			if err != nil {
				b.Release()
				return nil, err
			}
			cr, ok := ccr.(*file.Int96ColumnChunkReader)
			if !ok {
				b.Release()
				return nil, fmt.Errorf("column is not INT96")
			}
			c.cr = cr
			continue
		}
		want := n - got
		if cap(c.vals) < want {
			c.vals, c.defs = make([]pq.Int96, want), make([]int16, want)
		}
		vals, defs := c.vals[:want], c.defs[:want]
		total, _, err := c.cr.ReadBatch(int64(want), vals, defs, nil)
		if err != nil {
			b.Release()
			return nil, err
		}
		if total == 0 {
			c.cr = nil
			continue
		}
		v := 0
		for i := 0; i < int(total); i++ {
			if c.maxDef > 0 && defs[i] < c.maxDef {
				b.AppendNull()
				continue
			}
			b.UnsafeAppend(arrow.Timestamp(int96Nanos(vals[v])))
			v++
		}
		got += int(total)
	}
	return b.NewArray(), nil
}

// int96Nanos converts an INT96 timestamp to nanoseconds since the epoch,
// with a signed nanosecond-of-day.
func int96Nanos(v pq.Int96) int64 {
	nanos := int64(binary.LittleEndian.Uint64(v[:8]))
	days := int64(binary.LittleEndian.Uint32(v[8:])) - julianUnixEpoch
	return days*86_400_000_000_000 + nanos
}
