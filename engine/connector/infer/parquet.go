package infer

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riffle-sql/riffle/engine/types"
)

// Parquet infers a table for a Parquet file from the schema in its footer.
// Parquet types map to Flink types as Flink's parquet format maps them (in
// the other direction): BOOLEAN; INT32 → INT, with INT(8)/INT(16)
// annotations TINYINT/SMALLINT; INT64 → BIGINT; FLOAT, DOUBLE; BINARY
// with STRING/UTF8/ENUM/JSON → STRING, plain BINARY → BYTES,
// FIXED_LEN_BYTE_ARRAY(n) → BINARY(n); DECIMAL(p, s) (any physical type);
// DATE; TIME(unit) → TIME(0/3/6/9); TIMESTAMP(unit) → TIMESTAMP(p), or
// TIMESTAMP_LTZ(p) when isAdjustedToUTC; INT96 → TIMESTAMP(9); LIST →
// ARRAY, MAP → MAP, groups → ROW. Unsigned integers widen (UINT8 →
// SMALLINT, UINT16 → INT, UINT32 → BIGINT); UINT64 is BIGINT, as Flink
// reads INT64 whatever its annotation (with a note: larger values do not
// fit).
// REQUIRED fields are NOT NULL.
//
// The footer gives the row count (Result.Records, Complete); the first
// sampleRows rows give examples, null counts and the rowtime proposal. A
// file that is not Parquet, or whose footer is damaged, is an error
// wrapping ErrUnsupported.
func Parquet(path string, opts Options) (res *Result, err error) {
	defer func() {
		// a damaged footer can make the reader panic
		if p := recover(); p != nil {
			res, err = nil, fmt.Errorf("%w: %s is not a readable Parquet file (%v)", ErrUnsupported, path, p)
		}
	}()
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		return nil, fmt.Errorf("%w: %s is not a readable Parquet file: %v", ErrUnsupported, path, err)
	}
	defer pf.Close()
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: 8192}, memory.DefaultAllocator)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUnsupported, path, err)
	}
	schema, err := fr.Schema()
	if err != nil {
		return nil, fmt.Errorf("%w: the schema of %s has no Flink counterpart: %v", ErrUnsupported, path, err)
	}
	r := &Result{Path: path, Format: "parquet", Name: TableName(path), Records: pf.NumRows(), Complete: true}
	r.Options = []Option{{"connector", "filesystem"}, {"path", path}, {"format", "parquet"}}
	for _, f := range schema.Fields() {
		t, note, err := parquetField(f)
		if err != nil {
			return nil, fmt.Errorf("%w: column %s of %s: %v", ErrUnsupported, f.Name, path, err)
		}
		r.Columns = append(r.Columns, Column{Name: f.Name, Header: f.Name, Type: t, Note: note})
	}
	if len(r.Columns) == 0 {
		return nil, fmt.Errorf("%w: %s has no columns", ErrUnsupported, path)
	}
	s := newColumnSampler(r.Columns)
	if r.Records > 0 {
		rr, err := fr.GetRecordReader(context.Background(), nil, nil)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %v", path, err)
		}
		defer rr.Release()
		for s.rows < sampleRows && rr.Next() {
			rec := rr.RecordBatch()
			s.add(rec.Columns(), int(rec.NumRows()))
		}
		if err := rr.Err(); err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("reading %s: %v", path, err)
		}
	}
	r.finishSample(s)
	r.sampleNote(s)
	return r, nil
}

// parquetField maps the Arrow field pqarrow derives from a Parquet column
// to a Flink type (NOT NULL for a REQUIRED column); note explains a
// widening.
func parquetField(f arrow.Field) (*types.DataType, string, error) {
	t, note, err := parquetType(f.Type)
	if err != nil {
		return nil, "", err
	}
	return t.WithNullable(f.Nullable), note, nil
}

func parquetType(at arrow.DataType) (*types.DataType, string, error) {
	switch x := at.(type) {
	case *arrow.DictionaryType:
		return parquetType(x.ValueType)
	case *arrow.Uint64Type:
		return types.BigIntType(), "unsigned 64-bit integers are BIGINT, as Flink reads an INT64 column whatever its annotation: a value above 9223372036854775807 does not fit (Riffle's parquet format stops with an error naming it).", nil
	case *arrow.Uint8Type, *arrow.Uint16Type, *arrow.Uint32Type:
		t, _ := types.FromArrow(at)
		return t, fmt.Sprintf("unsigned %s widens to %s.", at, t), nil
	case *arrow.Decimal256Type:
		if x.Precision > 38 {
			return nil, "", fmt.Errorf("DECIMAL(%d, %d) exceeds Flink's largest precision, 38", x.Precision, x.Scale)
		}
		return types.DecimalType(int(x.Precision), int(x.Scale)), "", nil
	case *arrow.Decimal32Type:
		return types.DecimalType(int(x.Precision), int(x.Scale)), "", nil
	case *arrow.Decimal64Type:
		return types.DecimalType(int(x.Precision), int(x.Scale)), "", nil
	case *arrow.StructType:
		fields := make([]types.Field, x.NumFields())
		var notes []string
		for i, f := range x.Fields() {
			ft, note, err := parquetField(f)
			if err != nil {
				return nil, "", fmt.Errorf("field %s: %v", f.Name, err)
			}
			if note != "" {
				notes = append(notes, f.Name+": "+note)
			}
			fields[i] = types.NewField(f.Name, ft)
		}
		return types.RowType(fields...), joinNotes(notes), nil
	case *arrow.MapType:
		k, n1, err := parquetType(x.KeyType())
		if err != nil {
			return nil, "", err
		}
		v, n2, err := parquetField(x.ItemField())
		if err != nil {
			return nil, "", err
		}
		return types.MapType(k.NotNull(), v), joinNotes([]string{n1, n2}), nil
	case arrow.ListLikeType:
		e, note, err := parquetField(x.ElemField())
		if err != nil {
			return nil, "", err
		}
		return types.ArrayType(e), note, nil
	case *arrow.NullType:
		return types.StringType(), "the column holds only nulls (Parquet's UNKNOWN type): STRING.", nil
	}
	t, err := types.FromArrow(at)
	if err != nil {
		return nil, "", err
	}
	return t, "", nil
}

func joinNotes(notes []string) string {
	out := ""
	for _, n := range notes {
		if n == "" {
			continue
		}
		if out != "" {
			out += " "
		}
		out += n
	}
	return out
}
