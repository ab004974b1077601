package avro

import (
	"bytes"
	"compress/flate"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	hamba "github.com/hamba/avro/v2"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// Object container files (the filesystem connector), as Flink's
// AvroFileFormatFactory reads and writes them: a header with the schema
// and codec, then blocks of records.

// CreateDecoder builds a reader of Avro container files. A file must have
// been written with the schema Flink derives for the table (as Flink and
// Riffle write them), or one of the same shape (sameShape: other record,
// enum and fixed names and namespaces, field defaults and docs, the same
// fields and types in the same order); a file with another writer schema
// is an error (Flink resolves it against the table's schema). The schema is the one of all
// the table's physical columns (ctx.AllNames), whatever the query reads;
// the reader returns the projected columns (ctx.Projection).
func (Factory) CreateDecoder(ctx *connector.FormatContext) (connector.Decoder, error) {
	all := *ctx
	var proj []int
	if ctx.AllTypes != nil {
		all.Names, all.Types, proj = ctx.AllNames, ctx.AllTypes, ctx.Projection
	}
	c, err := codecOf(&all)
	if err != nil {
		return nil, err
	}
	return fileDecoder{c, proj}, nil
}

type fileDecoder struct {
	c    *Codec
	proj []int // nil: all columns
}

// NewReader reads one container file.
func (d fileDecoder) NewReader(r io.Reader, name string, maxRows int) connector.BatchReader {
	if maxRows <= 0 {
		maxRows = 8192
	}
	return &fileReader{c: d.c, proj: d.proj, r: hamba.NewReader(r, 64<<10), name: name, max: maxRows}
}

type fileReader struct {
	c      *Codec
	proj   []int
	r      *hamba.Reader
	name   string
	max    int
	rr     *RecordReader
	header bool
	sync   [16]byte
	codec  string
	zstd   *zstd.Decoder
	block  cursor
	left   int64 // records left in the block
	err    error
}

func (f *fileReader) SkippedRows() int64 { return 0 }

func (f *fileReader) fail(msg string, args ...any) error {
	f.err = &connector.DataError{File: f.name, Msg: fmt.Sprintf(msg, args...)}
	return f.err
}

func (f *fileReader) readHeader() error {
	var magic [4]byte
	f.r.Read(magic[:])
	if f.r.Error != nil || magic != [4]byte{'O', 'b', 'j', 1} {
		return f.fail("not an Avro container file (bad magic bytes)")
	}
	meta := map[string][]byte{}
	for {
		n := f.r.ReadLong()
		if n < 0 {
			n = -n
			f.r.ReadLong()
		}
		if n == 0 || f.r.Error != nil {
			break
		}
		for ; n > 0 && f.r.Error == nil; n-- {
			k := f.r.ReadString()
			meta[k] = f.r.ReadBytes()
		}
	}
	f.r.Read(f.sync[:])
	if f.r.Error != nil {
		return f.fail("not an Avro container file: %v", f.r.Error)
	}
	f.codec = string(meta["avro.codec"])
	switch f.codec {
	case "", "null", "deflate", "snappy":
	case "zstandard":
		f.zstd, _ = zstd.NewReader(nil)
	default:
		return f.fail("unsupported Avro codec '%s' (Riffle reads null, deflate, snappy, zstandard)", f.codec)
	}
	ws, err := hamba.ParseBytesWithCache(meta["avro.schema"], "", &hamba.SchemaCache{})
	if err != nil {
		return f.fail("the file's Avro schema does not parse: %v", err)
	}
	if ws.Fingerprint() != f.c.parsed.Fingerprint() && !sameShape(ws, f.c.parsed, 0) {
		return f.fail("the file's Avro schema differs from the table's; Riffle reads Avro files written with the schema derived from the table: %s (the file's: %s)", f.c.Schema, ws.String())
	}
	rr, err := f.c.NewRecordReader(f.max)
	if err != nil {
		return err
	}
	f.rr = rr
	f.header = true
	return nil
}

// nextBlock reads the next block; false at the end of the file.
func (f *fileReader) nextBlock() (bool, error) {
	for {
		_ = f.r.Peek()
		if errors.Is(f.r.Error, io.EOF) {
			return false, nil
		}
		count := f.r.ReadLong()
		size := f.r.ReadLong()
		if f.r.Error != nil || size < 0 || count < 0 {
			return false, f.fail("malformed Avro block header")
		}
		data := make([]byte, size)
		f.r.Read(data)
		var sync [16]byte
		f.r.Read(sync[:])
		if f.r.Error != nil {
			return false, f.fail("truncated Avro block: %v", f.r.Error)
		}
		if sync != f.sync {
			return false, f.fail("corrupt Avro file: a block's sync marker does not match the header's")
		}
		data, err := decompress(f.codec, data, f.zstd)
		if err != nil {
			return false, f.fail("cannot decompress an Avro block (%s): %v", f.codec, err)
		}
		if count == 0 {
			continue
		}
		f.block, f.left = cursor{b: data}, count
		return true, nil
	}
}

// Next returns up to maxRows records.
func (f *fileReader) Next() (*types.Batch, error) {
	if f.err != nil {
		return nil, f.err
	}
	if !f.header {
		if err := f.readHeader(); err != nil {
			return nil, err
		}
	}
	for f.rr.Rows.Len() < f.max {
		if f.left == 0 {
			ok, err := f.nextBlock()
			if err != nil {
				return nil, err
			}
			if !ok {
				break
			}
		}
		if err := f.rr.readRecord(&f.block); err != nil {
			return nil, f.fail("%v", err)
		}
		f.left--
	}
	if f.rr.Rows.Len() == 0 {
		if f.zstd != nil {
			f.zstd.Close()
		}
		f.err = io.EOF
		return nil, io.EOF
	}
	b := f.rr.Flush()
	if f.proj != nil {
		cols := make([]arrow.Array, len(f.proj))
		for i, p := range f.proj {
			cols[i] = b.Cols[p]
		}
		b = types.NewBatch(cols, b.Kinds, b.Len)
	}
	return b, nil
}

// CreateEncoder builds a writer of Avro container files with avro.codec.
func (Factory) CreateEncoder(ctx *connector.FormatContext) (connector.Encoder, error) {
	c, err := codecOf(ctx)
	if err != nil {
		return nil, err
	}
	return fileEncoder{c}, nil
}

type fileEncoder struct{ c *Codec }

func (e fileEncoder) NewWriter(w io.Writer) connector.BatchWriter {
	return &fileWriter{c: e.c, w: w}
}

// blockRows is the number of records per block written.
const blockRows = 4096

type fileWriter struct {
	c      *Codec
	w      io.Writer
	header bool
	sync   [16]byte
	block  []byte // encoded records of the open block
	count  int
	out    []byte
	zstd   *zstd.Encoder
}

func (fw *fileWriter) writeHeader() error {
	_, _ = rand.Read(fw.sync[:])
	h := append([]byte(nil), 'O', 'b', 'j', 1)
	h = appendLong(h, 2)
	h = appendBytes(h, []byte("avro.codec"))
	h = appendBytes(h, []byte(fw.c.Opts.Codec))
	h = appendBytes(h, []byte("avro.schema"))
	h = appendBytes(h, []byte(fw.c.Schema))
	h = append(h, 0)
	h = append(h, fw.sync[:]...)
	fw.header = true
	_, err := fw.w.Write(h)
	return err
}

// Write appends the rows as records (row kinds are not written).
func (fw *fileWriter) Write(b *types.Batch) error {
	if !fw.header {
		if err := fw.writeHeader(); err != nil {
			return err
		}
	}
	for i := 0; i < b.Len; i++ {
		var err error
		if fw.block, err = fw.c.AppendRecord(fw.block, b, i); err != nil {
			return err
		}
		fw.count++
		if fw.count >= blockRows {
			if err := fw.writeBlock(); err != nil {
				return err
			}
		}
	}
	return nil
}

func (fw *fileWriter) writeBlock() error {
	if fw.count == 0 {
		return nil
	}
	data, err := compress(fw.c.Opts.Codec, fw.block, &fw.zstd)
	if err != nil {
		return err
	}
	fw.out = appendLong(fw.out[:0], int64(fw.count))
	fw.out = appendLong(fw.out, int64(len(data)))
	fw.out = append(fw.out, data...)
	fw.out = append(fw.out, fw.sync[:]...)
	fw.block, fw.count = fw.block[:0], 0
	_, err = fw.w.Write(fw.out)
	return err
}

// Flush writes the open block (a file with no rows still gets its header).
func (fw *fileWriter) Flush() error {
	if !fw.header {
		if err := fw.writeHeader(); err != nil {
			return err
		}
	}
	return fw.writeBlock()
}

// compress encodes a block with an Avro codec: deflate is raw DEFLATE,
// snappy is a Snappy block followed by the CRC-32 (IEEE, big-endian) of
// the uncompressed data, zstandard is a zstd frame.
func compress(codec string, data []byte, z **zstd.Encoder) ([]byte, error) {
	switch codec {
	case "null":
		return data, nil
	case "deflate":
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, flate.DefaultCompression)
		_, _ = w.Write(data)
		if err := w.Close(); err != nil {
			return nil, err
		}
		return buf.Bytes(), nil
	case "snappy":
		out := s2.EncodeSnappy(nil, data)
		return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(data)), nil
	case "zstandard":
		if *z == nil {
			*z, _ = zstd.NewWriter(nil)
		}
		return (*z).EncodeAll(data, nil), nil
	}
	return nil, fmt.Errorf("avro: unsupported codec %s", codec)
}

func decompress(codec string, data []byte, z *zstd.Decoder) ([]byte, error) {
	switch codec {
	case "", "null":
		return data, nil
	case "deflate":
		return io.ReadAll(flate.NewReader(bytes.NewReader(data)))
	case "snappy":
		if len(data) < 4 {
			return nil, errors.New("snappy block without its checksum")
		}
		out, err := s2.Decode(nil, data[:len(data)-4])
		if err != nil {
			return nil, err
		}
		if crc32.ChecksumIEEE(out) != binary.BigEndian.Uint32(data[len(data)-4:]) {
			return nil, errors.New("snappy block checksum mismatch")
		}
		return out, nil
	case "zstandard":
		return z.DecodeAll(data, nil)
	}
	return nil, fmt.Errorf("unsupported codec %s", codec)
}

// sameShape reports whether data written with schema w decodes with
// schema r as it is: the same types in the same order, records with the
// same field names, unions with the same branches in the same order, the
// same logical types (decimals with the same precision and scale), fixed
// of the same size. Names of records, enums and fixed types, namespaces,
// defaults, docs and aliases may differ: they do not change the binary
// encoding.
func sameShape(w, r hamba.Schema, depth int) bool {
	if depth > 64 {
		return false
	}
	if x, ok := w.(*hamba.RefSchema); ok {
		w = x.Schema()
	}
	if x, ok := r.(*hamba.RefSchema); ok {
		r = x.Schema()
	}
	if w.Type() != r.Type() {
		return false
	}
	switch ws := w.(type) {
	case *hamba.RecordSchema:
		rs := r.(*hamba.RecordSchema)
		if len(ws.Fields()) != len(rs.Fields()) {
			return false
		}
		for i, f := range ws.Fields() {
			g := rs.Fields()[i]
			if f.Name() != g.Name() || !sameShape(f.Type(), g.Type(), depth+1) {
				return false
			}
		}
		return true
	case *hamba.UnionSchema:
		rs := r.(*hamba.UnionSchema)
		if len(ws.Types()) != len(rs.Types()) {
			return false
		}
		for i, t := range ws.Types() {
			if !sameShape(t, rs.Types()[i], depth+1) {
				return false
			}
		}
		return true
	case *hamba.ArraySchema:
		return sameShape(ws.Items(), r.(*hamba.ArraySchema).Items(), depth+1)
	case *hamba.MapSchema:
		return sameShape(ws.Values(), r.(*hamba.MapSchema).Values(), depth+1)
	case *hamba.FixedSchema:
		rs := r.(*hamba.FixedSchema)
		return ws.Size() == rs.Size() && sameLogical(ws.Logical(), rs.Logical())
	case *hamba.EnumSchema:
		a, b := ws.Symbols(), r.(*hamba.EnumSchema).Symbols()
		if len(a) != len(b) {
			return false
		}
		for i := range a {
			if a[i] != b[i] {
				return false
			}
		}
		return true
	case *hamba.PrimitiveSchema:
		return sameLogical(ws.Logical(), r.(*hamba.PrimitiveSchema).Logical())
	case *hamba.NullSchema:
		return true
	}
	return false
}

func sameLogical(a, b hamba.LogicalSchema) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if a.Type() != b.Type() {
		return false
	}
	da, ok1 := a.(*hamba.DecimalLogicalSchema)
	db, ok2 := b.(*hamba.DecimalLogicalSchema)
	if ok1 || ok2 {
		return ok1 && ok2 && da.Precision() == db.Precision() && da.Scale() == db.Scale()
	}
	return true
}
