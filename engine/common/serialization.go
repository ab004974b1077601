package common

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// SerializationSchema turns records into bytes (PyFlink's
// SerializationSchema).
type SerializationSchema interface {
	Serialize(v any) ([]byte, error)
}

// DeserializationSchema turns bytes into records and describes their type
// (PyFlink's DeserializationSchema).
type DeserializationSchema interface {
	Deserialize(b []byte) (any, error)
	ProducedType() *TypeInformation
}

// ErrUnsupportedCharset is returned for charsets other than UTF-8: Go
// strings are UTF-8.
var ErrUnsupportedCharset = errors.New("only the UTF-8 charset is supported")

// SimpleStringSchema serializes strings as their bytes and back (PyFlink's
// SimpleStringSchema).
type SimpleStringSchema struct{ charset string }

// NewSimpleStringSchema returns a schema for a charset, UTF-8 by default
// (PyFlink's SimpleStringSchema(charset='UTF-8')).
func NewSimpleStringSchema(charset ...string) (*SimpleStringSchema, error) {
	cs := "UTF-8"
	if len(charset) > 0 {
		cs = strings.ToUpper(charset[0])
	}
	if cs != "UTF-8" && cs != "UTF8" {
		return nil, ErrUnsupportedCharset
	}
	return &SimpleStringSchema{charset: "UTF-8"}, nil
}

// Charset returns the charset name.
func (s *SimpleStringSchema) Charset() string { return s.charset }

// Serialize implements SerializationSchema: a string's bytes (other values
// are formatted first).
func (s *SimpleStringSchema) Serialize(v any) ([]byte, error) {
	if str, ok := v.(string); ok {
		return []byte(str), nil
	}
	return []byte(fmt.Sprint(v)), nil
}

// Deserialize implements DeserializationSchema.
func (s *SimpleStringSchema) Deserialize(b []byte) (any, error) { return string(b), nil }

// ProducedType implements DeserializationSchema.
func (s *SimpleStringSchema) ProducedType() *TypeInformation { return TypeString() }

// Encoder writes records to a stream, as file sinks do (PyFlink's
// Encoder).
type Encoder interface {
	Encode(v any, w io.Writer) error
}

type stringEncoder struct{}

// SimpleStringEncoder writes each record's string form followed by "\n";
// only UTF-8 is supported (PyFlink's Encoder.simple_string_encoder).
func SimpleStringEncoder(charset ...string) (Encoder, error) {
	if len(charset) > 0 && !strings.EqualFold(charset[0], "UTF-8") {
		return nil, ErrUnsupportedCharset
	}
	return stringEncoder{}, nil
}

func (stringEncoder) Encode(v any, w io.Writer) error {
	_, err := io.WriteString(w, fmt.Sprint(v)+"\n")
	return err
}

// rowFields returns the field names and types of a ROW type information.
func rowFields(ti *TypeInformation) ([]types.Field, error) {
	if ti == nil || ti.dt.Root != types.RowRoot {
		return nil, errors.New("the type information must describe rows (TypeRow or TypeRowNamed)")
	}
	return ti.dt.Fields, nil
}

// ---------------------------------------------------------------- JSON

// JsonRowSerializationSchema serializes rows as JSON objects whose keys
// are the field names (PyFlink's JsonRowSerializationSchema).
type JsonRowSerializationSchema struct {
	fields []types.Field
}

// JsonRowSerializationSchemaBuilder builds it (PyFlink's Builder).
type JsonRowSerializationSchemaBuilder struct {
	ti *TypeInformation
}

// NewJsonRowSerializationSchemaBuilder starts a builder (PyFlink's
// JsonRowSerializationSchema.builder).
func NewJsonRowSerializationSchemaBuilder() *JsonRowSerializationSchemaBuilder {
	return &JsonRowSerializationSchemaBuilder{}
}

// WithTypeInfo sets the row type (PyFlink's with_type_info).
func (b *JsonRowSerializationSchemaBuilder) WithTypeInfo(ti *TypeInformation) *JsonRowSerializationSchemaBuilder {
	b.ti = ti
	return b
}

// Build returns the schema; the type information must describe rows
// (PyFlink's build).
func (b *JsonRowSerializationSchemaBuilder) Build() (*JsonRowSerializationSchema, error) {
	fs, err := rowFields(b.ti)
	if err != nil {
		return nil, err
	}
	return &JsonRowSerializationSchema{fields: fs}, nil
}

// Serialize implements SerializationSchema for *types.Row values.
func (s *JsonRowSerializationSchema) Serialize(v any) ([]byte, error) {
	r, ok := v.(*types.Row)
	if !ok {
		return nil, fmt.Errorf("JsonRowSerializationSchema serializes *types.Row values, got %T", v)
	}
	if len(r.Values) != len(s.fields) {
		return nil, fmt.Errorf("row %s has %d fields, the schema %d", r, len(r.Values), len(s.fields))
	}
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, f := range s.fields {
		if i > 0 {
			buf.WriteByte(',')
		}
		k, _ := json.Marshal(f.Name)
		buf.Write(k)
		buf.WriteByte(':')
		val, err := json.Marshal(jsonValue(r.Values[i]))
		if err != nil {
			return nil, err
		}
		buf.Write(val)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

func jsonValue(v any) any {
	switch x := v.(type) {
	case nil, bool, string, int8, int16, int32, int64, float32, float64:
		return x
	case types.Decimal:
		return json.Number(x.String())
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	case *types.Row:
		if x.Names != nil {
			m := map[string]any{}
			for i, n := range x.Names {
				m[n] = jsonValue(x.Values[i])
			}
			return m
		}
		out := make([]any, len(x.Values))
		for i, e := range x.Values {
			out[i] = jsonValue(e)
		}
		return out
	case *types.Map:
		m := map[string]any{}
		for i := range x.Keys {
			m[types.FormatValue(x.Keys[i])] = jsonValue(x.Values[i])
		}
		return m
	}
	return types.FormatValue(v)
}

// JsonRowDeserializationSchema parses JSON objects into rows (PyFlink's
// JsonRowDeserializationSchema). A missing field is NULL unless
// FailOnMissingField was set; a parse error fails unless
// IgnoreParseErrors was set (the record is then skipped: Deserialize
// returns nil, nil).
type JsonRowDeserializationSchema struct {
	ti          *TypeInformation
	failMissing bool
	ignoreErrs  bool
}

// JsonRowDeserializationSchemaBuilder builds it (PyFlink's Builder).
type JsonRowDeserializationSchemaBuilder struct {
	s   JsonRowDeserializationSchema
	err error
}

// NewJsonRowDeserializationSchemaBuilder starts a builder (PyFlink's
// JsonRowDeserializationSchema.builder).
func NewJsonRowDeserializationSchemaBuilder() *JsonRowDeserializationSchemaBuilder {
	return &JsonRowDeserializationSchemaBuilder{}
}

// TypeInfo sets the row type (PyFlink's type_info).
func (b *JsonRowDeserializationSchemaBuilder) TypeInfo(ti *TypeInformation) *JsonRowDeserializationSchemaBuilder {
	b.s.ti = ti
	return b
}

// JSONSchema derives the row type from a JSON Schema object with
// "properties" of types string, integer, number, boolean, array and
// object (PyFlink's json_schema); properties become fields in name order.
func (b *JsonRowDeserializationSchemaBuilder) JSONSchema(schema string) *JsonRowDeserializationSchemaBuilder {
	var js map[string]any
	if err := json.Unmarshal([]byte(schema), &js); err != nil {
		b.err = fmt.Errorf("invalid JSON schema: %w", err)
		return b
	}
	dt, err := jsonSchemaType(js)
	if err != nil {
		b.err = err
		return b
	}
	if dt.Root != types.RowRoot {
		b.err = errors.New("the JSON schema must describe an object")
		return b
	}
	b.s.ti = TypeOf(dt.NotNull())
	return b
}

func jsonSchemaType(js map[string]any) (*types.DataType, error) {
	switch js["type"] {
	case "string":
		return types.StringType(), nil
	case "integer":
		return types.BigIntType(), nil
	case "number":
		return types.DoubleType(), nil
	case "boolean":
		return types.BooleanType(), nil
	case "array":
		items, _ := js["items"].(map[string]any)
		et, err := jsonSchemaType(items)
		if err != nil {
			return nil, err
		}
		return types.ArrayType(et), nil
	case "object":
		props, _ := js["properties"].(map[string]any)
		names := make([]string, 0, len(props))
		for n := range props {
			names = append(names, n)
		}
		sort.Strings(names)
		var fields []types.Field
		for _, n := range names {
			p, _ := props[n].(map[string]any)
			ft, err := jsonSchemaType(p)
			if err != nil {
				return nil, fmt.Errorf("property %s: %w", n, err)
			}
			fields = append(fields, types.NewField(n, ft))
		}
		return types.RowType(fields...), nil
	}
	return nil, fmt.Errorf("unsupported JSON schema type %v", js["type"])
}

// FailOnMissingField makes a missing field an error (PyFlink's
// fail_on_missing_field).
func (b *JsonRowDeserializationSchemaBuilder) FailOnMissingField() *JsonRowDeserializationSchemaBuilder {
	b.s.failMissing = true
	return b
}

// IgnoreParseErrors skips records that do not parse (PyFlink's
// ignore_parse_errors).
func (b *JsonRowDeserializationSchemaBuilder) IgnoreParseErrors() *JsonRowDeserializationSchemaBuilder {
	b.s.ignoreErrs = true
	return b
}

// Build returns the schema (PyFlink's build).
func (b *JsonRowDeserializationSchemaBuilder) Build() (*JsonRowDeserializationSchema, error) {
	if b.err != nil {
		return nil, b.err
	}
	if _, err := rowFields(b.s.ti); err != nil {
		return nil, err
	}
	s := b.s
	return &s, nil
}

// ProducedType implements DeserializationSchema.
func (s *JsonRowDeserializationSchema) ProducedType() *TypeInformation { return s.ti }

// Deserialize implements DeserializationSchema: a *types.Row with field
// names.
func (s *JsonRowDeserializationSchema) Deserialize(b []byte) (any, error) {
	r, err := s.parse(b)
	if err != nil {
		if s.ignoreErrs {
			return nil, nil
		}
		return nil, fmt.Errorf("Failed to deserialize JSON '%s': %w", b, err)
	}
	return r, nil
}

func (s *JsonRowDeserializationSchema) parse(b []byte) (*types.Row, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		return nil, err
	}
	v, err := fromJSON(obj, s.ti.dt, s.failMissing)
	if err != nil {
		return nil, err
	}
	return v.(*types.Row), nil
}

func fromJSON(v any, t *types.DataType, failMissing bool) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch t.Root {
	case types.RowRoot:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("expected an object for %s", t)
		}
		r := &types.Row{Kind: types.Insert, Values: make([]any, len(t.Fields)), Names: make([]string, len(t.Fields))}
		for i, f := range t.Fields {
			r.Names[i] = f.Name
			fv, ok := obj[f.Name]
			if !ok && failMissing {
				return nil, fmt.Errorf("could not find field '%s'", f.Name)
			}
			x, err := fromJSON(fv, f.Type, failMissing)
			if err != nil {
				return nil, fmt.Errorf("field %s: %w", f.Name, err)
			}
			r.Values[i] = x
		}
		return r, nil
	case types.ArrayRoot:
		arr, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("expected an array for %s", t)
		}
		out := make([]any, len(arr))
		for i, e := range arr {
			x, err := fromJSON(e, t.Elem, failMissing)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case types.MapRoot:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("expected an object for %s", t)
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		m := &types.Map{}
		for _, k := range keys {
			kv, err := expr.CastValue(k, types.StringType(), t.Key, time.UTC)
			if err != nil {
				return nil, err
			}
			vv, err := fromJSON(obj[k], t.Value, failMissing)
			if err != nil {
				return nil, err
			}
			m.Keys, m.Values = append(m.Keys, kv), append(m.Values, vv)
		}
		return m, nil
	case types.Boolean:
		if b, ok := v.(bool); ok {
			return b, nil
		}
	}
	var text string
	switch x := v.(type) {
	case json.Number:
		text = x.String()
	case string:
		text = x
	case bool:
		text = fmt.Sprint(x)
	default:
		return nil, fmt.Errorf("cannot read %v as %s", v, t)
	}
	return expr.CastValue(text, types.StringType(), t, time.UTC)
}

// ---------------------------------------------------------------- CSV

type csvOptions struct {
	fieldDelim     rune
	lineDelim      string
	arrayDelim     string
	escape         rune
	quote          rune
	quoteDisabled  bool
	nullLiteral    string
	hasNullLiteral bool
	allowComments  bool
	ignoreErrors   bool
}

func defaultCSV() csvOptions {
	return csvOptions{fieldDelim: ',', lineDelim: "\n", arrayDelim: ";", quote: '"'}
}

// CsvRowSerializationSchema serializes rows as CSV lines (PyFlink's
// CsvRowSerializationSchema).
type CsvRowSerializationSchema struct {
	fields []types.Field
	o      csvOptions
}

// CsvRowSerializationSchemaBuilder builds it (PyFlink's Builder).
type CsvRowSerializationSchemaBuilder struct {
	ti *TypeInformation
	o  csvOptions
}

// NewCsvRowSerializationSchemaBuilder starts a builder for a row type
// (PyFlink's CsvRowSerializationSchema.Builder(type_info)).
func NewCsvRowSerializationSchemaBuilder(ti *TypeInformation) *CsvRowSerializationSchemaBuilder {
	return &CsvRowSerializationSchemaBuilder{ti: ti, o: defaultCSV()}
}

// SetFieldDelimiter sets the field delimiter (default ',').
func (b *CsvRowSerializationSchemaBuilder) SetFieldDelimiter(c rune) *CsvRowSerializationSchemaBuilder {
	b.o.fieldDelim = c
	return b
}

// SetLineDelimiter sets the line delimiter (default "\n").
func (b *CsvRowSerializationSchemaBuilder) SetLineDelimiter(s string) *CsvRowSerializationSchemaBuilder {
	b.o.lineDelim = s
	return b
}

// SetArrayElementDelimiter sets the delimiter of array elements (default
// ";").
func (b *CsvRowSerializationSchemaBuilder) SetArrayElementDelimiter(s string) *CsvRowSerializationSchemaBuilder {
	b.o.arrayDelim = s
	return b
}

// SetEscapeCharacter sets an escape character (default none).
func (b *CsvRowSerializationSchemaBuilder) SetEscapeCharacter(c rune) *CsvRowSerializationSchemaBuilder {
	b.o.escape = c
	return b
}

// SetQuoteCharacter sets the quote character (default '"').
func (b *CsvRowSerializationSchemaBuilder) SetQuoteCharacter(c rune) *CsvRowSerializationSchemaBuilder {
	b.o.quote = c
	return b
}

// DisableQuoteCharacter writes fields without quoting.
func (b *CsvRowSerializationSchemaBuilder) DisableQuoteCharacter() *CsvRowSerializationSchemaBuilder {
	b.o.quoteDisabled = true
	return b
}

// SetNullLiteral sets the text written for NULL (default empty).
func (b *CsvRowSerializationSchemaBuilder) SetNullLiteral(s string) *CsvRowSerializationSchemaBuilder {
	b.o.nullLiteral, b.o.hasNullLiteral = s, true
	return b
}

// Build returns the schema (PyFlink's build).
func (b *CsvRowSerializationSchemaBuilder) Build() (*CsvRowSerializationSchema, error) {
	fs, err := rowFields(b.ti)
	if err != nil {
		return nil, err
	}
	return &CsvRowSerializationSchema{fields: fs, o: b.o}, nil
}

// Serialize implements SerializationSchema for *types.Row values: one
// line ending with the line delimiter.
func (s *CsvRowSerializationSchema) Serialize(v any) ([]byte, error) {
	r, ok := v.(*types.Row)
	if !ok {
		return nil, fmt.Errorf("CsvRowSerializationSchema serializes *types.Row values, got %T", v)
	}
	var b strings.Builder
	for i, val := range r.Values {
		if i > 0 {
			b.WriteRune(s.o.fieldDelim)
		}
		b.WriteString(s.field(val))
	}
	b.WriteString(s.o.lineDelim)
	return []byte(b.String()), nil
}

func (s *CsvRowSerializationSchema) field(v any) string {
	if v == nil {
		return s.o.nullLiteral
	}
	var text string
	switch x := v.(type) {
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = s.field(e)
		}
		return strings.Join(parts, s.o.arrayDelim)
	case string:
		text = x
	default:
		text = types.FormatValue(v)
	}
	special := strings.ContainsRune(text, s.o.fieldDelim) || strings.ContainsAny(text, "\r\n") || (!s.o.quoteDisabled && strings.ContainsRune(text, s.o.quote))
	if s.o.escape != 0 {
		text = strings.ReplaceAll(text, string(s.o.escape), string(s.o.escape)+string(s.o.escape))
	}
	if special && !s.o.quoteDisabled {
		q := string(s.o.quote)
		return q + strings.ReplaceAll(text, q, q+q) + q
	}
	if special && s.o.escape != 0 {
		text = strings.ReplaceAll(text, string(s.o.fieldDelim), string(s.o.escape)+string(s.o.fieldDelim))
	}
	return text
}

// CsvRowDeserializationSchema parses CSV lines into rows (PyFlink's
// CsvRowDeserializationSchema).
type CsvRowDeserializationSchema struct {
	ti *TypeInformation
	o  csvOptions
}

// CsvRowDeserializationSchemaBuilder builds it (PyFlink's Builder).
type CsvRowDeserializationSchemaBuilder struct {
	ti *TypeInformation
	o  csvOptions
}

// NewCsvRowDeserializationSchemaBuilder starts a builder for a row type
// (PyFlink's CsvRowDeserializationSchema.Builder(type_info)).
func NewCsvRowDeserializationSchemaBuilder(ti *TypeInformation) *CsvRowDeserializationSchemaBuilder {
	return &CsvRowDeserializationSchemaBuilder{ti: ti, o: defaultCSV()}
}

// SetFieldDelimiter sets the field delimiter (default ',').
func (b *CsvRowDeserializationSchemaBuilder) SetFieldDelimiter(c rune) *CsvRowDeserializationSchemaBuilder {
	b.o.fieldDelim = c
	return b
}

// SetArrayElementDelimiter sets the array element delimiter (default ";").
func (b *CsvRowDeserializationSchemaBuilder) SetArrayElementDelimiter(s string) *CsvRowDeserializationSchemaBuilder {
	b.o.arrayDelim = s
	return b
}

// SetEscapeCharacter sets an escape character (default none).
func (b *CsvRowDeserializationSchemaBuilder) SetEscapeCharacter(c rune) *CsvRowDeserializationSchemaBuilder {
	b.o.escape = c
	return b
}

// SetQuoteCharacter sets the quote character (default '"').
func (b *CsvRowDeserializationSchemaBuilder) SetQuoteCharacter(c rune) *CsvRowDeserializationSchemaBuilder {
	b.o.quote = c
	return b
}

// SetNullLiteral sets the text read as NULL (default: none).
func (b *CsvRowDeserializationSchemaBuilder) SetNullLiteral(s string) *CsvRowDeserializationSchemaBuilder {
	b.o.nullLiteral, b.o.hasNullLiteral = s, true
	return b
}

// SetAllowComments skips lines starting with '#'.
func (b *CsvRowDeserializationSchemaBuilder) SetAllowComments(v bool) *CsvRowDeserializationSchemaBuilder {
	b.o.allowComments = v
	return b
}

// SetIgnoreParseErrors skips lines that do not parse (Deserialize returns
// nil, nil) instead of failing.
func (b *CsvRowDeserializationSchemaBuilder) SetIgnoreParseErrors(v bool) *CsvRowDeserializationSchemaBuilder {
	b.o.ignoreErrors = v
	return b
}

// Build returns the schema (PyFlink's build).
func (b *CsvRowDeserializationSchemaBuilder) Build() (*CsvRowDeserializationSchema, error) {
	if _, err := rowFields(b.ti); err != nil {
		return nil, err
	}
	return &CsvRowDeserializationSchema{ti: b.ti, o: b.o}, nil
}

// ProducedType implements DeserializationSchema.
func (s *CsvRowDeserializationSchema) ProducedType() *TypeInformation { return s.ti }

// Deserialize implements DeserializationSchema: a *types.Row with field
// names, or nil for a comment line or an ignored bad line.
func (s *CsvRowDeserializationSchema) Deserialize(b []byte) (any, error) {
	line := strings.TrimRight(string(b), "\r\n")
	if s.o.allowComments && strings.HasPrefix(line, "#") {
		return nil, nil
	}
	r, err := s.parse(line)
	if err != nil {
		if s.o.ignoreErrors {
			return nil, nil
		}
		return nil, fmt.Errorf("Failed to deserialize CSV row '%s': %w", line, err)
	}
	return r, nil
}

func (s *CsvRowDeserializationSchema) parse(line string) (*types.Row, error) {
	rd := csv.NewReader(strings.NewReader(line))
	rd.Comma = s.o.fieldDelim
	rd.LazyQuotes = s.o.quote != '"'
	rd.FieldsPerRecord = -1
	rec, err := rd.Read()
	if err != nil {
		return nil, err
	}
	fields := s.ti.dt.Fields
	if len(rec) != len(fields) {
		return nil, fmt.Errorf("%d fields, expected %d", len(rec), len(fields))
	}
	r := &types.Row{Kind: types.Insert, Values: make([]any, len(fields)), Names: make([]string, len(fields))}
	for i, f := range fields {
		r.Names[i] = f.Name
		v, err := s.value(rec[i], f.Type)
		if err != nil {
			return nil, fmt.Errorf("field %s: %w", f.Name, err)
		}
		r.Values[i] = v
	}
	return r, nil
}

func (s *CsvRowDeserializationSchema) value(text string, t *types.DataType) (any, error) {
	if s.o.hasNullLiteral && text == s.o.nullLiteral {
		return nil, nil
	}
	if text == "" && !t.IsString() {
		return nil, nil
	}
	if s.o.escape != 0 {
		text = strings.ReplaceAll(text, string(s.o.escape)+string(s.o.escape), string(s.o.escape))
	}
	if t.Root == types.ArrayRoot {
		parts := strings.Split(text, s.o.arrayDelim)
		out := make([]any, len(parts))
		for i, p := range parts {
			v, err := s.value(p, t.Elem)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	}
	return expr.CastValue(text, types.StringType(), t, time.UTC)
}
