package cdcjson

import (
	stdjson "encoding/json"
	"errors"
	"fmt"
	"regexp"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/format/json"
	"github.com/riffle-sql/riffle/engine/types"
)

// CanalIdentifier is the 'format' value of canal-json.
const CanalIdentifier = "canal-json"

// Canal option keys.
const (
	OptDatabaseInclude = "database.include"
	OptTableInclude    = "table.include"
)

// CanalFactory is Flink's canal-json format.
//
// Decoding (CanalJsonDeserializationSchema): "type" INSERT gives one +I
// per element of "data"; UPDATE gives, per element, -U of the old row and
// +U of the new one, where the old row is the element of "old" at the same
// position with the columns it does not mention taken from "data" (as
// Flink, a column counts as mentioned when its name is a key anywhere in
// "old"); DELETE gives one -D per element; CREATE (DDL) is skipped; other
// types, a missing "type", a null "data" for INSERT/UPDATE/DELETE and a
// missing or short "old" for UPDATE are errors. 'canal-json.database.include'
// and 'canal-json.table.include' are Java regular expressions matched
// against the whole "database"/"table" value: other messages are skipped
// (not counted); a message without the field is then an error.
//
// Metadata: database STRING, table STRING, sql-type MAP<STRING, INT>
// ("sqlType"), pk-names ARRAY<STRING> ("pkNames"), ingestion-timestamp
// TIMESTAMP_LTZ(3) ("ts"), event-timestamp TIMESTAMP_LTZ(3) ("es").
//
// Encoding (CanalJsonSerializationSchema): +I and +U give
// {"data":[{...}],"type":"INSERT"}, -U and -D {"data":[{...}],"type":"DELETE"}.
type CanalFactory struct{}

func (CanalFactory) Identifier() string { return CanalIdentifier }

var canalOptions = []connector.Option{
	{Key: OptDatabaseInclude, Kind: "string", Description: "A regular expression matched against the whole \"database\" meta field; only changes of matching databases are read."},
	{Key: OptTableInclude, Kind: "string", Description: "A regular expression matched against the whole \"table\" meta field; only changes of matching tables are read."},
}

func (CanalFactory) Options() []connector.Option {
	return append(append([]connector.Option(nil), commonOptions...), canalOptions...)
}

// DecodingChangelogMode is [I, UB, UA, D].
func (CanalFactory) DecodingChangelogMode() types.ChangelogMode { return retractMode }

// EncodingChangelogMode is [I, UB, UA, D].
func (CanalFactory) EncodingChangelogMode() types.ChangelogMode { return retractMode }

var canalMeta = []metaField{
	{"database", types.StringType()},
	{"table", types.StringType()},
	{"sql-type", types.MapType(types.StringType(), types.IntType())},
	{"pk-names", types.ArrayType(types.StringType())},
	{"ingestion-timestamp", types.TimestampLTZType(3)},
	{"event-timestamp", types.TimestampLTZType(3)},
}

// CreateMessageDecoder builds a decoder of Canal envelopes.
func (f CanalFactory) CreateMessageDecoder(ctx *connector.FormatContext) (connector.MessageDecoder, error) {
	o, rest, err := parseOptions(CanalIdentifier, ctx.Options, canalOptions)
	if err != nil {
		return nil, err
	}
	rd, err := newRowDecoder(ctx, o, canalMeta)
	if err != nil {
		return nil, err
	}
	d := &canalDecoder{rowDecoder: rd}
	if v, ok := rest[OptDatabaseInclude]; ok {
		if d.database, err = fullMatch(CanalIdentifier+"."+OptDatabaseInclude, v); err != nil {
			return nil, err
		}
	}
	if v, ok := rest[OptTableInclude]; ok {
		if d.table, err = fullMatch(CanalIdentifier+"."+OptTableInclude, v); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// CreateDecoder reads a file of Canal envelopes, one per line.
func (f CanalFactory) CreateDecoder(ctx *connector.FormatContext) (connector.Decoder, error) {
	if _, err := f.CreateMessageDecoder(ctx); err != nil {
		return nil, err
	}
	return lineDecoder{func() (connector.MessageDecoder, error) { return f.CreateMessageDecoder(ctx) }}, nil
}

type canalDecoder struct {
	*rowDecoder
	database, table *regexp.Regexp
}

type canalEnvelope struct {
	Data     stdjson.RawMessage `json:"data"`
	Old      stdjson.RawMessage `json:"old"`
	Type     stdjson.RawMessage `json:"type"`
	Database stdjson.RawMessage `json:"database"`
	Table    stdjson.RawMessage `json:"table"`
	SQLType  stdjson.RawMessage `json:"sqlType"`
	PkNames  stdjson.RawMessage `json:"pkNames"`
	Ts       stdjson.RawMessage `json:"ts"`
	Es       stdjson.RawMessage `json:"es"`
}

// errFiltered marks a message skipped by database.include/table.include.
var errFiltered = errors.New("filtered")

// Decode decodes one envelope into its rows.
func (d *canalDecoder) Decode(msg []byte) (int, error) {
	if len(msg) == 0 {
		return 0, nil
	}
	mark := d.rows.Mark()
	n, err := d.decode(msg)
	if err == errFiltered {
		return 0, nil
	}
	if err != nil {
		return d.fail(mark, fmt.Errorf("Corrupt Canal JSON message %s: %w", quote(msg), err))
	}
	return n, nil
}

func matches(re *regexp.Regexp, raw stdjson.RawMessage, field string) error {
	if re == nil {
		return nil
	}
	v, err := textOf(raw)
	if err != nil || v == nil {
		return fmt.Errorf(`the "%s" field is missing`, field)
	}
	if !re.MatchString(v.(string)) {
		return errFiltered
	}
	return nil
}

func (d *canalDecoder) decode(msg []byte) (int, error) {
	var e canalEnvelope
	if err := stdjson.Unmarshal(msg, &e); err != nil {
		return 0, errors.New("not a JSON object")
	}
	if err := matches(d.database, e.Database, "database"); err != nil {
		return 0, err
	}
	if err := matches(d.table, e.Table, "table"); err != nil {
		return 0, err
	}
	if err := d.metadata(&e); err != nil {
		return 0, err
	}
	var typ string
	if isNull(e.Type) || stdjson.Unmarshal(e.Type, &typ) != nil {
		return 0, errors.New(`the "type" field is missing or not a string`)
	}
	rowsOf := func(raw stdjson.RawMessage, what string) ([]stdjson.RawMessage, error) {
		if isNull(raw) {
			return nil, fmt.Errorf(`the "%s" field is null`, what)
		}
		var items []stdjson.RawMessage
		if err := stdjson.Unmarshal(raw, &items); err != nil {
			return nil, fmt.Errorf(`the "%s" field is not an array`, what)
		}
		for _, it := range items {
			if isNull(it) || it[0] != '{' {
				return nil, fmt.Errorf(`an element of "%s" is not a JSON object`, what)
			}
		}
		return items, nil
	}
	emit := func(obj []byte, kind types.RowKind) error {
		ok, err := d.emit(obj, kind)
		if err == nil && !ok {
			err = errors.New("skipped")
		}
		return err
	}
	switch typ {
	case "INSERT", "DELETE":
		data, err := rowsOf(e.Data, "data")
		if err != nil {
			return 0, err
		}
		kind := types.Insert
		if typ == "DELETE" {
			kind = types.Delete
		}
		for _, r := range data {
			if err := emit(r, kind); err != nil {
				return 0, err
			}
		}
		return len(data), nil
	case "UPDATE":
		data, err := rowsOf(e.Data, "data")
		if err != nil {
			return 0, err
		}
		old, err := rowsOf(e.Old, "old")
		if err != nil {
			return 0, err
		}
		if len(old) < len(data) {
			return 0, fmt.Errorf(`"old" has %d elements, "data" %d`, len(old), len(data))
		}
		changed := keysAnywhere(e.Old)
		for i, after := range data {
			if err := emit(beforeImage(after, old[i], changed, d.obj), types.UpdateBefore); err != nil {
				return 0, err
			}
			if err := emit(after, types.UpdateAfter); err != nil {
				return 0, err
			}
		}
		return 2 * len(data), nil
	case "CREATE":
		return 0, nil // a DDL event
	}
	return 0, fmt.Errorf(`Unknown "type" value "%s".`, typ)
}

func (d *canalDecoder) metadata(e *canalEnvelope) error {
	for i, m := range d.meta {
		var v any
		var err error
		switch m.key {
		case "database":
			v, err = textOf(e.Database)
		case "table":
			v, err = textOf(e.Table)
		case "sql-type":
			v, err = intMapOf(e.SQLType)
		case "pk-names":
			v, err = stringArrayOf(e.PkNames)
		case "ingestion-timestamp":
			v, err = millisOf(e.Ts, 1)
		case "event-timestamp":
			v, err = millisOf(e.Es, 1)
		}
		if err != nil {
			return fmt.Errorf("metadata '%s': %v", m.key, err)
		}
		d.metaVal[i] = v
	}
	return nil
}

// beforeImage builds the row before an update: the element of "old" with
// the table's columns that no element of "old" mentions copied from the
// new row (CanalJsonDeserializationSchema, MaxwellJsonDeserializationSchema).
func beforeImage(after, old stdjson.RawMessage, changed map[string]bool, obj *json.ObjectReader) []byte {
	_ = obj
	keys, vals, err := objectOf(after)
	if err != nil {
		return old
	}
	var keep []byte
	keep = append(keep, '{')
	for i, k := range keys {
		if changed[k] {
			continue
		}
		if len(keep) > 1 {
			keep = append(keep, ',')
		}
		keep = json.AppendString(keep, k)
		keep = append(keep, ':')
		keep = append(keep, vals[i]...)
	}
	keep = append(keep, '}')
	return mergeObjects(keep, old)
}

// CreateMessageEncoder builds an encoder of Canal envelopes.
func (f CanalFactory) CreateMessageEncoder(ctx *connector.FormatContext) (connector.MessageEncoder, error) {
	o, _, err := parseOptions(CanalIdentifier, ctx.Options, canalOptions)
	if err != nil {
		return nil, err
	}
	return newEnvelopeEncoder(o, ctx, canalWrap)
}

// CreateEncoder writes Canal envelopes, one per line.
func (f CanalFactory) CreateEncoder(ctx *connector.FormatContext) (connector.Encoder, error) {
	return linesOf(f.CreateMessageEncoder(ctx))
}

func canalWrap(dst, obj []byte, kind types.RowKind, _ bool) []byte {
	dst = append(dst, `{"data":[`...)
	dst = append(dst, obj...)
	if kind.IsAccumulate() {
		return append(dst, `],"type":"INSERT"}`...)
	}
	return append(dst, `],"type":"DELETE"}`...)
}
