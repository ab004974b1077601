package avro

import (
	"fmt"

	hamba "github.com/hamba/avro/v2"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/internal/pending"
	"github.com/riffle-sql/riffle/engine/types"
)

func init() { connector.RegisterFormat(Factory{}) }

// Factory is the 'avro' format factory (Flink's AvroFormatFactory).
type Factory struct{}

// Identifier returns "avro".
func (Factory) Identifier() string { return Identifier }

var optionList = []connector.Option{
	{Key: OptEncoding, Default: "binary", Kind: "enum", Values: []string{"binary", "json"}, Description: "The encoding of Avro messages: binary or json (Avro's JSON encoding)."},
	{Key: OptCodec, Default: "snappy", Kind: "enum", Values: []string{"null", "deflate", "snappy", "zstandard"}, Description: "The compression codec of Avro container files (filesystem connector)."},
	{Key: OptLegacyMapping, Default: "true", Kind: "bool", Description: "Use the legacy timestamp mapping: TIMESTAMP as timestamp-millis/micros, TIMESTAMP_LTZ unsupported."},
}

// Options lists the avro.* options (without the prefix).
func (Factory) Options() []connector.Option { return append([]connector.Option(nil), optionList...) }

// Codec holds a table's derived schema and the readers and writers of its
// records.
type Codec struct {
	Opts   Options
	Names  []string
	Types  []*types.DataType
	Schema string // the Avro schema JSON (AvroSchemaConverter)
	parsed hamba.Schema
	w      []writer
}

// NewCodec derives the schema of the columns and checks it parses.
func NewCodec(opts Options, names []string, ts []*types.DataType) (*Codec, error) {
	s, err := Schema(names, ts, opts.Legacy)
	if err != nil {
		return nil, err
	}
	parsed, err := hamba.ParseWithCache(s, "", &hamba.SchemaCache{})
	if err != nil {
		return nil, fmt.Errorf("avro: the schema derived from the table does not parse: %v", err)
	}
	c := &Codec{Opts: opts, Names: names, Types: ts, Schema: s, parsed: parsed}
	for i, t := range ts {
		c.w = append(c.w, newWriter(t, names[i]))
	}
	return c, nil
}

// RecordReader decodes records into typed column accumulators.
type RecordReader struct {
	Rows *pending.Rows
	rs   []reader
	cur  cursor
}

// NewRecordReader creates the columns (capacity rows each) and readers.
func (c *Codec) NewRecordReader(capacity int) (*RecordReader, error) {
	rows, err := pending.New(c.Types, capacity)
	if err != nil {
		return nil, err
	}
	r := &RecordReader{Rows: rows}
	for i, t := range c.Types {
		r.rs = append(r.rs, newReader(t, rows.Cols[i], c.Names[i]))
	}
	return r, nil
}

// readRecord decodes one record from cur and commits it; on an error the
// row is rolled back.
func (r *RecordReader) readRecord(cur *cursor) error {
	for _, rd := range r.rs {
		rd.read(cur)
	}
	if cur.err != nil {
		r.Rows.Rollback()
		return cur.err
	}
	r.Rows.Commit(types.Insert)
	return nil
}

// Decode decodes one message holding one record (bytes after the record
// are ignored, as Avro's BinaryDecoder does).
func (r *RecordReader) Decode(msg []byte) (int, error) {
	r.cur = cursor{b: msg}
	if err := r.readRecord(&r.cur); err != nil {
		return 0, fmt.Errorf("failed to deserialize Avro record: %w", err)
	}
	return 1, nil
}

// Flush returns the decoded rows.
func (r *RecordReader) Flush() *types.Batch { return r.Rows.Flush() }

// SkippedRows is always 0: the avro format has no ignore-parse-errors.
func (r *RecordReader) SkippedRows() int64 { return 0 }

// AppendRecord appends the binary encoding of row i of b.
func (c *Codec) AppendRecord(dst []byte, b *types.Batch, i int) ([]byte, error) {
	if len(b.Cols) != len(c.w) {
		return nil, fmt.Errorf("avro: batch has %d columns, the encoder %d", len(b.Cols), len(c.w))
	}
	var err error
	for k, w := range c.w {
		if dst, err = w(dst, b.Cols[k], i); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

type messageEncoder struct{ c *Codec }

// Encode appends row i as one Avro binary record (no header).
func (m messageEncoder) Encode(dst []byte, b *types.Batch, i int) ([]byte, error) {
	out, err := m.c.AppendRecord(dst, b, i)
	if err == nil && out == nil {
		out = []byte{}
	}
	return out, err
}

func codecOf(ctx *connector.FormatContext) (*Codec, error) {
	o, err := ParseOptions(ctx.Options)
	if err != nil {
		return nil, err
	}
	return NewCodec(o, ctx.Names, ctx.Types)
}

// CreateMessageDecoder builds a decoder of single binary records.
func (Factory) CreateMessageDecoder(ctx *connector.FormatContext) (connector.MessageDecoder, error) {
	c, err := codecOf(ctx)
	if err != nil {
		return nil, err
	}
	rr, err := c.NewRecordReader(1024)
	if err != nil || !c.Opts.JSON {
		return rr, err
	}
	return &jsonRecordReader{c: c, rows: rr}, nil
}

// CreateMessageEncoder builds an encoder of single binary records.
func (Factory) CreateMessageEncoder(ctx *connector.FormatContext) (connector.MessageEncoder, error) {
	c, err := codecOf(ctx)
	if err != nil {
		return nil, err
	}
	if c.Opts.JSON {
		return newJSONRecordWriter(c.Names, c.Types), nil
	}
	return messageEncoder{c}, nil
}
