package parquet

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	pq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riffle-sql/riffle/engine/types"
)

// TestBytePages reads string columns decoded from their pages (pages.go):
// a dictionary that overflows its size limit so that the writer falls
// back to PLAIN in the middle of a column chunk, NULLs in runs and
// scattered, pages of both versions, several row groups, and batches that
// straddle pages and row groups. Every value is checked against the
// values written and against the column chunk reader's reading, and every
// chunk must have been decoded from its pages.
func TestBytePages(t *testing.T) {
	sc := arrow.NewSchema([]arrow.Field{
		{Name: "i", Type: arrow.PrimitiveTypes.Int64},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true}, // dictionary, then PLAIN
		{Name: "r", Type: arrow.BinaryTypes.String},                 // required, dictionary
		{Name: "u", Type: arrow.BinaryTypes.String, Nullable: true}, // one value, many NULLs
	}, nil)
	const rows, group = 20000, 6500
	bld := array.NewRecordBuilder(memory.DefaultAllocator, sc)
	var want [][]any
	for i := 0; i < rows; i++ {
		bld.Field(0).(*array.Int64Builder).Append(int64(i))
		row := []any{int64(i)}
		// Few distinct values first, then ever new ones: the dictionary
		// outgrows its 2 KiB limit in the first row group.
		s := fmt.Sprintf("a%d", i%50)
		if i > 3000 {
			s = fmt.Sprintf("new-%d-%s", i, strings.Repeat("z", i%5))
		}
		if i%13 == 4 || (i >= 9000 && i < 9800) {
			bld.Field(1).AppendNull()
			row = append(row, nil)
		} else {
			bld.Field(1).(*array.StringBuilder).Append(s)
			row = append(row, s)
		}
		r := fmt.Sprintf("r%03d", (i*7)%300)
		bld.Field(2).(*array.StringBuilder).Append(r)
		row = append(row, r)
		if i%1000 < 990 {
			bld.Field(3).AppendNull()
			row = append(row, nil)
		} else {
			bld.Field(3).(*array.StringBuilder).Append("only")
			row = append(row, "only")
		}
		want = append(want, row)
	}
	rec := bld.NewRecordBatch()
	defer rec.Release()
	names := []string{"i", "s", "r", "u"}
	ts := []*types.DataType{types.BigIntType(), types.StringType(), types.StringType(), types.StringType()}
	for _, v := range []pq.DataPageVersion{pq.DataPageV1, pq.DataPageV2} {
		var buf bytes.Buffer
		props := pq.NewWriterProperties(pq.WithDataPageSize(700), pq.WithMaxRowGroupLength(group),
			pq.WithDictionaryPageSizeLimit(2048), pq.WithDataPageVersion(v), pq.WithCompression(compress.Codecs.Zstd))
		w, err := pqarrow.NewFileWriter(sc, &buf, props, pqarrow.NewArrowWriterProperties())
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(rec); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		// The file is what the test means: s falls back to PLAIN.
		pf, err := file.NewParquetReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		md, _ := pf.MetaData().RowGroup(0).ColumnChunk(1)
		if encs := fmt.Sprint(md.Encodings()); !strings.Contains(encs, "PLAIN") || !strings.Contains(encs, "DICTIONARY") {
			t.Fatalf("column s of row group 0 has encodings %s, want dictionary and PLAIN", encs)
		}
		read := func(batch int, paged bool) [][]any {
			t.Helper()
			noPages = !paged
			defer func() { noPages = false }()
			dec, err := Factory{}.CreateDecoder(fctx(names, ts, nil))
			if err != nil {
				t.Fatal(err)
			}
			br, err := dec.(*Decoder).NewFileReader(bytes.NewReader(data), int64(len(data)), "f.parquet", batch, nil)
			if err != nil {
				t.Fatal(err)
			}
			var out [][]any
			for {
				b, err := br.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				for _, r := range b.Rows(ts) {
					out = append(out, r.Values)
				}
			}
			for i := 1; i < 4; i++ {
				c := br.(*FileReader).direct[i].(*byteArrayColumn)
				if want := map[bool]int{true: 4, false: 0}[paged]; c.paged != want {
					t.Fatalf("column %s: %d chunks decoded from their pages, want %d", names[i], c.paged, want)
				}
			}
			return out
		}
		for _, batch := range []int{1, 999, 8192} {
			for _, paged := range []bool{true, false} {
				got := read(batch, paged)
				if len(got) != len(want) {
					t.Fatalf("page version %v, batch %d, paged %v: %d rows, want %d", v, batch, paged, len(got), len(want))
				}
				for i := range want {
					if !reflect.DeepEqual(got[i], want[i]) {
						t.Fatalf("page version %v, batch %d, paged %v: row %d = %v, want %v", v, batch, paged, i, got[i], want[i])
					}
				}
			}
		}
	}
}

// hybrid encodes values in Parquet's RLE / bit-packed hybrid encoding:
// runs of at least 8 equal values as RLE runs, the rest bit-packed.
func hybrid(vals []uint32, width uint) []byte {
	var out []byte
	uvarint := func(x uint64) {
		for x >= 0x80 {
			out = append(out, byte(x)|0x80)
			x >>= 7
		}
		out = append(out, byte(x))
	}
	for i := 0; i < len(vals); {
		j := i
		for j < len(vals) && vals[j] == vals[i] {
			j++
		}
		if j-i >= 8 {
			uvarint(uint64(j-i) << 1)
			for b := 0; b < int(width+7)/8; b++ {
				out = append(out, byte(vals[i]>>(8*b)))
			}
			i = j
			continue
		}
		// Up to 16 values bit-packed (two groups, the last one padded).
		k := min(16, len(vals)-i)
		groups := (k + 7) / 8
		uvarint(uint64(groups)<<1 | 1)
		var acc uint64
		var nacc uint
		for x := 0; x < groups*8; x++ {
			v := uint64(0)
			if x < k {
				v = uint64(vals[i+x])
			}
			acc |= v << nacc
			nacc += width
			for nacc >= 8 {
				out = append(out, byte(acc))
				acc >>= 8
				nacc -= 8
			}
		}
		i += k
	}
	return out
}

// TestRLEReader decodes hybrid runs of every width, read in pieces of
// several sizes, and reports truncated input as an error.
func TestRLEReader(t *testing.T) {
	for _, width := range []uint{0, 1, 2, 3, 7, 8, 9, 13, 16, 20, 31, 32} {
		var vals []uint32
		mask := uint32(1<<width - 1)
		if width == 32 {
			mask = ^uint32(0)
		}
		for i := 0; i < 1000; i++ {
			v := uint32(i*2654435761) & mask
			if i%100 < 30 {
				v = uint32(i/100) & mask // runs
			}
			vals = append(vals, v)
		}
		enc := hybrid(vals, width)
		for _, piece := range []int{1, 7, 8, 100, 1000} {
			r := rleReader{data: enc, width: width}
			got := make([]uint32, 0, len(vals))
			for len(got) < len(vals) {
				dst := make([]uint32, min(piece, len(vals)-len(got)))
				if err := r.read(dst); err != nil {
					t.Fatalf("width %d, pieces of %d: %v", width, piece, err)
				}
				got = append(got, dst...)
			}
			if !reflect.DeepEqual(got, vals) {
				t.Fatalf("width %d, pieces of %d: values differ", width, piece)
			}
		}
		if width > 0 {
			r := rleReader{data: enc[:len(enc)/2], width: width}
			if err := r.read(make([]uint32, len(vals))); err == nil {
				t.Fatalf("width %d: truncated input read without an error", width)
			}
		}
	}
}

// TestBytePagesCorrupt: a dictionary index beyond the dictionary, and a
// dictionary page shorter than its values, are errors, not panics.
func TestBytePagesCorrupt(t *testing.T) {
	p := &byteArrayPages{}
	if err := p.readDictionary([]byte{3, 0, 0, 0, 'a', 'b', 'c', 9, 0, 0, 0, 'x'}, 2); err == nil {
		t.Fatal("a truncated dictionary page was read")
	}
	if err := p.readDictionary([]byte{1, 0, 0, 0, 'a', 2, 0, 0, 0, 'b', 'c'}, 2); err != nil {
		t.Fatal(err)
	}
	p.idx = rleReader{data: hybrid([]uint32{0, 1, 2}, 2), width: 2}
	p.isIdx, p.left = true, 3
	_, _, _, err := p.read(3, nil, make([]int32, 4), 0, nil)
	if err == nil || !strings.Contains(err.Error(), "out of a dictionary of 2 values") {
		t.Fatalf("index 2 of a 2-value dictionary: %v", err)
	}
	p.idx = rleReader{data: hybrid([]uint32{1, 0, 1}, 2), width: 2}
	p.left = 3
	offs := make([]int32, 4)
	k, nulls, data, err := p.read(3, nil, offs, 0, nil)
	if err != nil || k != 3 || nulls != 0 || string(data) != "bcabc" || !reflect.DeepEqual(offs, []int32{0, 2, 3, 5}) {
		t.Fatalf("read = %d, %d, %q, %v, offsets %v", k, nulls, data, err, offs)
	}
}
