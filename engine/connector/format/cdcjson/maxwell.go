package cdcjson

import (
	stdjson "encoding/json"
	"errors"
	"fmt"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// MaxwellIdentifier is the 'format' value of maxwell-json.
const MaxwellIdentifier = "maxwell-json"

// MaxwellFactory is Flink's maxwell-json format.
//
// Decoding (MaxwellJsonDeserializationSchema): "type" insert gives +I of
// "data"; update gives -U of the old row ("old" with the columns it does
// not mention taken from "data") and +U of "data"; delete gives -D of
// "data". Other types (bootstrap-insert, table-create, ...), a null "data"
// and an update without "old" are errors.
//
// Metadata: database STRING, table STRING, primary-key-columns
// ARRAY<STRING> ("primary_key_columns"), ingestion-timestamp
// TIMESTAMP_LTZ(3) ("ts", in seconds).
//
// Encoding (MaxwellJsonSerializationSchema): +I and +U give
// {"data":{...},"type":"insert"}, -U and -D {"data":{...},"type":"delete"}.
type MaxwellFactory struct{}

func (MaxwellFactory) Identifier() string { return MaxwellIdentifier }

func (MaxwellFactory) Options() []connector.Option {
	return append([]connector.Option(nil), commonOptions...)
}

// DecodingChangelogMode is [I, UB, UA, D].
func (MaxwellFactory) DecodingChangelogMode() types.ChangelogMode { return retractMode }

// EncodingChangelogMode is [I, UB, UA, D].
func (MaxwellFactory) EncodingChangelogMode() types.ChangelogMode { return retractMode }

var maxwellMeta = []metaField{
	{"database", types.StringType()},
	{"table", types.StringType()},
	{"primary-key-columns", types.ArrayType(types.StringType())},
	{"ingestion-timestamp", types.TimestampLTZType(3)},
}

// CreateMessageDecoder builds a decoder of Maxwell envelopes.
func (f MaxwellFactory) CreateMessageDecoder(ctx *connector.FormatContext) (connector.MessageDecoder, error) {
	o, _, err := parseOptions(MaxwellIdentifier, ctx.Options, nil)
	if err != nil {
		return nil, err
	}
	rd, err := newRowDecoder(ctx, o, maxwellMeta)
	if err != nil {
		return nil, err
	}
	return &maxwellDecoder{rd}, nil
}

// CreateDecoder reads a file of Maxwell envelopes, one per line.
func (f MaxwellFactory) CreateDecoder(ctx *connector.FormatContext) (connector.Decoder, error) {
	if _, err := f.CreateMessageDecoder(ctx); err != nil {
		return nil, err
	}
	return lineDecoder{func() (connector.MessageDecoder, error) { return f.CreateMessageDecoder(ctx) }}, nil
}

type maxwellDecoder struct{ *rowDecoder }

type maxwellEnvelope struct {
	Data     stdjson.RawMessage `json:"data"`
	Old      stdjson.RawMessage `json:"old"`
	Type     stdjson.RawMessage `json:"type"`
	Database stdjson.RawMessage `json:"database"`
	Table    stdjson.RawMessage `json:"table"`
	PkCols   stdjson.RawMessage `json:"primary_key_columns"`
	Ts       stdjson.RawMessage `json:"ts"`
}

// Decode decodes one envelope into one or two rows.
func (d *maxwellDecoder) Decode(msg []byte) (int, error) {
	if len(msg) == 0 {
		return 0, nil
	}
	mark := d.rows.Mark()
	n, err := d.decode(msg)
	if err != nil {
		return d.fail(mark, fmt.Errorf("Corrupt Maxwell JSON message %s: %w", quote(msg), err))
	}
	return n, nil
}

func (d *maxwellDecoder) decode(msg []byte) (int, error) {
	var e maxwellEnvelope
	if err := stdjson.Unmarshal(msg, &e); err != nil {
		return 0, errors.New("not a JSON object")
	}
	for i, m := range d.meta {
		var v any
		var err error
		switch m.key {
		case "database":
			v, err = textOf(e.Database)
		case "table":
			v, err = textOf(e.Table)
		case "primary-key-columns":
			v, err = stringArrayOf(e.PkCols)
		case "ingestion-timestamp":
			v, err = millisOf(e.Ts, 1000)
		}
		if err != nil {
			return 0, fmt.Errorf("metadata '%s': %v", m.key, err)
		}
		d.metaVal[i] = v
	}
	var typ string
	if isNull(e.Type) || stdjson.Unmarshal(e.Type, &typ) != nil {
		return 0, errors.New(`the "type" field is missing or not a string`)
	}
	object := func(raw stdjson.RawMessage, what string) error {
		if isNull(raw) {
			return fmt.Errorf(`the "%s" field is null`, what)
		}
		if raw[0] != '{' {
			return fmt.Errorf(`the "%s" field is not a JSON object`, what)
		}
		return nil
	}
	emit := func(obj []byte, kind types.RowKind) error {
		ok, err := d.emit(obj, kind)
		if err == nil && !ok {
			err = errors.New("skipped")
		}
		return err
	}
	switch typ {
	case "insert", "delete":
		if err := object(e.Data, "data"); err != nil {
			return 0, err
		}
		kind := types.Insert
		if typ == "delete" {
			kind = types.Delete
		}
		return 1, emit(e.Data, kind)
	case "update":
		if err := object(e.Data, "data"); err != nil {
			return 0, err
		}
		if err := object(e.Old, "old"); err != nil {
			return 0, err
		}
		if err := emit(beforeImage(e.Data, e.Old, keysAnywhere(e.Old), d.obj), types.UpdateBefore); err != nil {
			return 0, err
		}
		return 2, emit(e.Data, types.UpdateAfter)
	}
	return 0, fmt.Errorf(`Unknown "type" value "%s".`, typ)
}

// CreateMessageEncoder builds an encoder of Maxwell envelopes.
func (f MaxwellFactory) CreateMessageEncoder(ctx *connector.FormatContext) (connector.MessageEncoder, error) {
	o, _, err := parseOptions(MaxwellIdentifier, ctx.Options, nil)
	if err != nil {
		return nil, err
	}
	return newEnvelopeEncoder(o, ctx, maxwellWrap)
}

// CreateEncoder writes Maxwell envelopes, one per line.
func (f MaxwellFactory) CreateEncoder(ctx *connector.FormatContext) (connector.Encoder, error) {
	return linesOf(f.CreateMessageEncoder(ctx))
}

func maxwellWrap(dst, obj []byte, kind types.RowKind, _ bool) []byte {
	dst = append(dst, `{"data":`...)
	dst = append(dst, obj...)
	if kind.IsAccumulate() {
		return append(dst, `,"type":"insert"}`...)
	}
	return append(dst, `,"type":"delete"}`...)
}

func init() {
	connector.RegisterFormat(DebeziumFactory{})
	connector.RegisterFormat(CanalFactory{})
	connector.RegisterFormat(MaxwellFactory{})
}
