package infer

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	hamba "github.com/hamba/avro/v2"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/format/avro"
	"github.com/riffle-sql/riffle/engine/types"
)

// Avro infers a table for an Avro object container file from the writer
// schema in its header, mapped as Flink's avro format maps Avro schemas
// (AvroSchemaConverter.convertToDataType): a top-level record's fields are
// the columns; a union of null and one type is that type, nullable, and
// every other type is NOT NULL; boolean, int, long, float, double, string
// and bytes are BOOLEAN, INT, BIGINT, FLOAT, DOUBLE, STRING and BYTES;
// enum → STRING; fixed(n) → VARBINARY(n); decimal(p, s) on bytes or fixed
// → DECIMAL(p, s); date → DATE; time-millis → TIME(3), time-micros →
// TIME(6); record → ROW; array → ARRAY; map → MAP<STRING, V>.
//
// Timestamps follow 'avro.timestamp_mapping.legacy': when the file has
// only timestamp-millis, the legacy mapping (Flink's default) reads it as
// TIMESTAMP(3); a file with timestamp-micros or local-timestamp-* gets
// 'avro.timestamp_mapping.legacy' = 'false', where timestamp-millis/micros
// are TIMESTAMP_LTZ(3/6) and local-timestamp-millis/micros TIMESTAMP(3/6).
//
// The proposed table is checked with the engine's avro format: when it
// cannot read the file (its reader takes files written with the schema
// Flink derives from the table or one of the same shape, whatever the
// record names; not enums, fixed, or unions with null second), a note says
// why. Unions of several non-null types, and files that are not Avro
// container files, are errors wrapping ErrUnsupported.
func Avro(path string, opts Options) (*Result, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	hr := hamba.NewReader(f, 64<<10)
	meta, err := readOCFHeader(hr)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not an Avro object container file: %v", ErrUnsupported, path, err)
	}
	ws, err := hamba.ParseBytesWithCache(meta["avro.schema"], "", &hamba.SchemaCache{})
	if err != nil {
		return nil, fmt.Errorf("%w: the Avro schema in %s does not parse: %v", ErrUnsupported, path, err)
	}
	rec, ok := ws.(*hamba.RecordSchema)
	if !ok {
		return nil, fmt.Errorf("%w: the schema of %s is %s, not a record: Flink's avro format reads records (one column per field)", ErrUnsupported, path, ws.Type())
	}
	r := &Result{Path: path, Format: "avro", Name: TableName(path), Complete: true}
	r.Options = []Option{{"connector", "filesystem"}, {"path", path}, {"format", "avro"}}
	legacy := !needsNewTimestampMapping(ws, map[string]bool{})
	if !legacy {
		r.setOption("avro.timestamp_mapping.legacy", "false")
	}
	for _, fld := range rec.Fields() {
		t, note, err := avroType(fld.Type(), legacy)
		if err != nil {
			return nil, fmt.Errorf("%w: field %s of %s: %v", ErrUnsupported, fld.Name(), path, err)
		}
		r.Columns = append(r.Columns, Column{Name: fld.Name(), Header: fld.Name(), Type: t, Note: note})
	}
	if len(r.Columns) == 0 {
		return nil, fmt.Errorf("%w: the record of %s has no fields", ErrUnsupported, path)
	}
	if codec := string(meta["avro.codec"]); codec != "" && codec != "null" {
		r.note("The file is compressed with the %s codec.", codec)
	}

	// Read the records with the engine's avro format: it checks the
	// proposal and gives typed values for the preview.
	names := make([]string, len(r.Columns))
	ts := make([]*types.DataType, len(r.Columns))
	for i, c := range r.Columns {
		names[i], ts[i] = c.Name, c.Type
	}
	fo := map[string]string{}
	if !legacy {
		fo["timestamp_mapping.legacy"] = "false"
	}
	s := newColumnSampler(r.Columns)
	readErr := readAvroSample(path, names, ts, fo, s)
	if readErr == nil {
		r.Records = s.rows
		r.finishSample(s)
		if s.rows >= sampleRows {
			r.Complete = false
			r.note("Examples, null counts and the order of timestamps come from the first %s records; the types come from the file's schema.", groupThousands(s.rows))
		}
		return r, nil
	}
	// The engine does not read the file: count the records from the
	// block headers and say why.
	for {
		n := hr.ReadLong()
		if hr.Error != nil {
			break // the end of the file
		}
		size := hr.ReadLong()
		if n < 0 || size < 0 || hr.Error != nil {
			return nil, fmt.Errorf("%w: %s has a damaged block after record %d", ErrUnsupported, path, r.Records)
		}
		hr.SkipNBytes(int(size) + 16)
		if hr.Error != nil {
			return nil, fmt.Errorf("%w: %s ends inside a block after record %d", ErrUnsupported, path, r.Records)
		}
		r.Records += n
	}
	msg := readErr.Error()
	var de *connector.DataError
	if errors.As(readErr, &de) {
		msg = de.Msg
	}
	r.note("Riffle's avro format cannot read this file yet: %s. Flink resolves a file's writer schema against the table's; Riffle reads files whose schema has the shape Flink derives from the table (record names aside: no enum or fixed, nullable fields as [\"null\", T]).", msg)
	return r, nil
}

// readOCFHeader reads the header of an Avro object container file: the
// magic bytes, the metadata map and the sync marker.
func readOCFHeader(hr *hamba.Reader) (map[string][]byte, error) {
	var magic [4]byte
	hr.Read(magic[:])
	if hr.Error != nil || magic != [4]byte{'O', 'b', 'j', 1} {
		return nil, fmt.Errorf("bad magic bytes")
	}
	meta := map[string][]byte{}
	for {
		n := hr.ReadLong()
		if n < 0 {
			n = -n
			hr.ReadLong()
		}
		if n == 0 || hr.Error != nil {
			break
		}
		for ; n > 0 && hr.Error == nil; n-- {
			k := hr.ReadString()
			meta[k] = hr.ReadBytes()
		}
	}
	var sync [16]byte
	hr.Read(sync[:])
	if hr.Error != nil {
		return nil, hr.Error
	}
	if len(meta["avro.schema"]) == 0 {
		return nil, fmt.Errorf("no avro.schema in the header")
	}
	return meta, nil
}

// readAvroSample reads up to sampleRows records with the engine's avro
// file format into s.
func readAvroSample(path string, names []string, ts []*types.DataType, fo map[string]string, s *columnSampler) error {
	d, err := avro.Factory{}.CreateDecoder(&connector.FormatContext{Names: names, Types: ts, AllNames: names, AllTypes: ts, Options: fo})
	if err != nil {
		return err
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	br := d.NewReader(f, path, 8192)
	for s.rows < sampleRows {
		b, err := br.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		s.add(b.Cols, b.Len)
	}
	return nil
}

// needsNewTimestampMapping reports whether a schema has timestamps the
// legacy mapping cannot write back (timestamp-micros, local-timestamp-*).
func needsNewTimestampMapping(s hamba.Schema, seen map[string]bool) bool {
	switch x := s.(type) {
	case *hamba.RecordSchema:
		if seen[x.FullName()] {
			return false
		}
		seen[x.FullName()] = true
		for _, f := range x.Fields() {
			if needsNewTimestampMapping(f.Type(), seen) {
				return true
			}
		}
	case *hamba.RefSchema:
		return needsNewTimestampMapping(x.Schema(), seen)
	case *hamba.UnionSchema:
		for _, t := range x.Types() {
			if needsNewTimestampMapping(t, seen) {
				return true
			}
		}
	case *hamba.ArraySchema:
		return needsNewTimestampMapping(x.Items(), seen)
	case *hamba.MapSchema:
		return needsNewTimestampMapping(x.Values(), seen)
	case *hamba.PrimitiveSchema:
		if l := x.Logical(); l != nil {
			switch l.Type() {
			case hamba.TimestampMicros, hamba.LocalTimestampMillis, hamba.LocalTimestampMicros:
				return true
			}
		}
	}
	return false
}

// avroType maps an Avro schema to a Flink type as Flink's avro format
// does; note explains a mapping the user may not expect.
func avroType(s hamba.Schema, legacy bool) (*types.DataType, string, error) {
	return avroTypeDepth(s, legacy, 0)
}

func avroTypeDepth(s hamba.Schema, legacy bool, depth int) (*types.DataType, string, error) {
	if depth > 64 {
		return nil, "", fmt.Errorf("the schema nests records more than 64 deep (a recursive record has no Flink type)")
	}
	switch x := s.(type) {
	case *hamba.RefSchema:
		return avroTypeDepth(x.Schema(), legacy, depth+1)
	case *hamba.UnionSchema:
		var nonNull []hamba.Schema
		for _, t := range x.Types() {
			if t.Type() != hamba.Null {
				nonNull = append(nonNull, t)
			}
		}
		switch {
		case len(nonNull) == 1:
			t, note, err := avroTypeDepth(nonNull[0], legacy, depth+1)
			if err != nil {
				return nil, "", err
			}
			return t.WithNullable(len(x.Types()) == 2), note, nil
		case len(nonNull) == 0:
			return types.NullType(), "", nil
		}
		var alts []string
		for _, t := range x.Types() {
			alts = append(alts, string(t.Type()))
		}
		return nil, "", fmt.Errorf("a union of %s has no Flink type (Flink maps only a union of null and one type)", strings.Join(alts, ", "))
	case *hamba.RecordSchema:
		fields := make([]types.Field, len(x.Fields()))
		var notes []string
		for i, f := range x.Fields() {
			ft, note, err := avroTypeDepth(f.Type(), legacy, depth+1)
			if err != nil {
				return nil, "", fmt.Errorf("field %s: %v", f.Name(), err)
			}
			if note != "" {
				notes = append(notes, f.Name()+": "+note)
			}
			fields[i] = types.NewField(f.Name(), ft)
		}
		return types.RowType(fields...).NotNull(), joinNotes(notes), nil
	case *hamba.EnumSchema:
		return types.StringType().NotNull(), "an enum (" + strings.Join(x.Symbols(), ", ") + ") is STRING in Flink.", nil
	case *hamba.ArraySchema:
		e, note, err := avroTypeDepth(x.Items(), legacy, depth+1)
		if err != nil {
			return nil, "", err
		}
		return types.ArrayType(e).NotNull(), note, nil
	case *hamba.MapSchema:
		v, note, err := avroTypeDepth(x.Values(), legacy, depth+1)
		if err != nil {
			return nil, "", err
		}
		return types.MapType(types.StringType().NotNull(), v).NotNull(), note, nil
	case *hamba.FixedSchema:
		if d, ok := x.Logical().(*hamba.DecimalLogicalSchema); ok {
			return types.DecimalType(d.Precision(), d.Scale()).NotNull(), "", nil
		}
		return types.VarBinaryType(x.Size()).NotNull(), fmt.Sprintf("fixed(%d) is VARBINARY(%d), as in Flink.", x.Size(), x.Size()), nil
	case *hamba.PrimitiveSchema:
		var lt hamba.LogicalType
		if l := x.Logical(); l != nil {
			lt = l.Type()
		}
		var t *types.DataType
		switch x.Type() {
		case hamba.Null:
			return types.NullType(), "", nil
		case hamba.Boolean:
			t = types.BooleanType()
		case hamba.Int:
			switch lt {
			case hamba.Date:
				t = types.DateType()
			case hamba.TimeMillis:
				t = types.TimeType(3)
			default:
				t = types.IntType()
			}
		case hamba.Long:
			switch lt {
			case hamba.TimestampMillis:
				t = types.TimestampType(3)
				if !legacy {
					t = types.TimestampLTZType(3)
				}
			case hamba.TimestampMicros:
				t = types.TimestampType(6)
				if !legacy {
					t = types.TimestampLTZType(6)
				}
			case hamba.LocalTimestampMillis:
				t = types.TimestampType(3)
			case hamba.LocalTimestampMicros:
				t = types.TimestampType(6)
			case hamba.TimeMicros:
				t = types.TimeType(6)
			default:
				t = types.BigIntType()
			}
		case hamba.Float:
			t = types.FloatType()
		case hamba.Double:
			t = types.DoubleType()
		case hamba.String:
			t = types.StringType()
		case hamba.Bytes:
			if d, ok := x.Logical().(*hamba.DecimalLogicalSchema); ok {
				t = types.DecimalType(d.Precision(), d.Scale())
			} else {
				t = types.BytesType()
			}
		default:
			return nil, "", fmt.Errorf("Avro type %s has no Flink type", x.Type())
		}
		return t.NotNull(), "", nil
	}
	return nil, "", fmt.Errorf("Avro type %s has no Flink type", s.Type())
}
