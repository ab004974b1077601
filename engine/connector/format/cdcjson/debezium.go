package cdcjson

import (
	stdjson "encoding/json"
	"errors"
	"fmt"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/format/json"
	"github.com/riffle-sql/riffle/engine/types"
)

// DebeziumIdentifier is the 'format' value of debezium-json.
const DebeziumIdentifier = "debezium-json"

// OptSchemaInclude is 'debezium-json.schema-include'.
const OptSchemaInclude = "schema-include"

// DebeziumFactory is Flink's debezium-json format.
//
// Decoding (DebeziumJsonDeserializationSchema): op "c" and "r" give +I of
// "after"; "u" gives -U of "before" and +U of "after"; "d" gives -D of
// "before". A null "before" for "u" or "d" is an error (the Postgres
// REPLICA IDENTITY message), as are an unknown op ("t" included), a missing
// op or a null "after" for "c". An empty message (a tombstone, or a blank
// line in a file) is skipped without counting. With
// 'debezium-json.schema-include' = 'true' the envelope is
// {"schema": ..., "payload": {...}}.
//
// Metadata (keys as 'value.<key>' on Kafka): schema STRING (the "schema"
// object as JSON text, with schema-include), ingestion-timestamp
// TIMESTAMP_LTZ(3) ("ts_ms"), source.timestamp TIMESTAMP_LTZ(3)
// (source.ts_ms), source.database STRING (source.db), source.schema
// STRING, source.table STRING, source.properties MAP<STRING, STRING> (the
// whole "source" object).
//
// Encoding (DebeziumJsonSerializationSchema): +I and +U give
// {"before":null,"after":{...},"op":"c"}, -U and -D give
// {"before":{...},"after":null,"op":"d"}.
type DebeziumFactory struct{}

func (DebeziumFactory) Identifier() string { return DebeziumIdentifier }

var debeziumOptions = []connector.Option{
	{Key: OptSchemaInclude, Default: "false", Kind: "bool", Description: "Whether the Debezium JSON messages include the schema (Kafka Connect's 'value.converter.schemas.enable')."},
}

func (DebeziumFactory) Options() []connector.Option {
	return append(append([]connector.Option(nil), commonOptions...), debeziumOptions...)
}

// DecodingChangelogMode is [I, UB, UA, D].
func (DebeziumFactory) DecodingChangelogMode() types.ChangelogMode { return retractMode }

// EncodingChangelogMode is [I, UB, UA, D].
func (DebeziumFactory) EncodingChangelogMode() types.ChangelogMode { return retractMode }

var debeziumMeta = []metaField{
	{"schema", types.StringType()},
	{"ingestion-timestamp", types.TimestampLTZType(3)},
	{"source.timestamp", types.TimestampLTZType(3)},
	{"source.database", types.StringType()},
	{"source.schema", types.StringType()},
	{"source.table", types.StringType()},
	{"source.properties", types.MapType(types.StringType(), types.StringType())},
}

func (f DebeziumFactory) options(ctx *connector.FormatContext) (json.Options, bool, error) {
	o, rest, err := parseOptions(DebeziumIdentifier, ctx.Options, debeziumOptions)
	if err != nil {
		return o, false, err
	}
	inc, err := boolOption(DebeziumIdentifier, rest, OptSchemaInclude)
	return o, inc, err
}

// CreateMessageDecoder builds a decoder of Debezium envelopes.
func (f DebeziumFactory) CreateMessageDecoder(ctx *connector.FormatContext) (connector.MessageDecoder, error) {
	o, inc, err := f.options(ctx)
	if err != nil {
		return nil, err
	}
	rd, err := newRowDecoder(ctx, o, debeziumMeta)
	if err != nil {
		return nil, err
	}
	return &debeziumDecoder{rowDecoder: rd, schemaInclude: inc}, nil
}

// CreateDecoder reads a file of Debezium envelopes, one per line.
func (f DebeziumFactory) CreateDecoder(ctx *connector.FormatContext) (connector.Decoder, error) {
	if _, err := f.CreateMessageDecoder(ctx); err != nil {
		return nil, err
	}
	return lineDecoder{func() (connector.MessageDecoder, error) { return f.CreateMessageDecoder(ctx) }}, nil
}

type debeziumDecoder struct {
	*rowDecoder
	schemaInclude bool
}

type debeziumPayload struct {
	Before stdjson.RawMessage `json:"before"`
	After  stdjson.RawMessage `json:"after"`
	Op     stdjson.RawMessage `json:"op"`
	TsMs   stdjson.RawMessage `json:"ts_ms"`
	Source stdjson.RawMessage `json:"source"`
}

const replicaIdentity = `The "before" field of %s message is null, if you are using Debezium Postgres Connector, please check the Postgres table has been set REPLICA IDENTITY to FULL level.`

// Decode decodes one envelope into zero, one or two rows.
func (d *debeziumDecoder) Decode(msg []byte) (int, error) {
	if len(msg) == 0 {
		return 0, nil // a tombstone
	}
	mark := d.rows.Mark()
	n, err := d.decode(msg)
	if err != nil {
		return d.fail(mark, fmt.Errorf("Corrupt Debezium JSON message %s: %w", quote(msg), err))
	}
	return n, nil
}

func (d *debeziumDecoder) decode(msg []byte) (int, error) {
	var p debeziumPayload
	var schema stdjson.RawMessage
	if d.schemaInclude {
		var root struct {
			Schema  stdjson.RawMessage `json:"schema"`
			Payload stdjson.RawMessage `json:"payload"`
		}
		if err := stdjson.Unmarshal(msg, &root); err != nil {
			return 0, errors.New("not a JSON object")
		}
		if isNull(root.Payload) {
			return 0, errors.New(`the message has no "payload" ('debezium-json.schema-include' is true)`)
		}
		if err := stdjson.Unmarshal(root.Payload, &p); err != nil {
			return 0, errors.New(`"payload" is not a JSON object`)
		}
		schema = root.Schema
	} else {
		var root struct {
			debeziumPayload
			Schema stdjson.RawMessage `json:"schema"`
		}
		if err := stdjson.Unmarshal(msg, &root); err != nil {
			return 0, errors.New("not a JSON object")
		}
		p, schema = root.debeziumPayload, root.Schema
	}
	if err := d.metadata(&p, schema); err != nil {
		return 0, err
	}
	var op string
	if isNull(p.Op) || stdjson.Unmarshal(p.Op, &op) != nil {
		return 0, errors.New(`the "op" field is missing or not a string`)
	}
	emit := func(obj stdjson.RawMessage, kind types.RowKind, what string) (bool, error) {
		if isNull(obj) {
			return false, fmt.Errorf(`the "%s" field is null`, what)
		}
		if obj[0] != '{' {
			return false, fmt.Errorf(`the "%s" field is not a JSON object`, what)
		}
		ok, err := d.emit(obj, kind)
		if err == nil && !ok {
			err = errors.New("skipped")
		}
		return ok, err
	}
	switch op {
	case "c", "r":
		if _, err := emit(p.After, types.Insert, "after"); err != nil {
			return 0, err
		}
		return 1, nil
	case "u":
		if isNull(p.Before) {
			return 0, fmt.Errorf(replicaIdentity, "UPDATE")
		}
		if _, err := emit(p.Before, types.UpdateBefore, "before"); err != nil {
			return 0, err
		}
		if _, err := emit(p.After, types.UpdateAfter, "after"); err != nil {
			return 0, err
		}
		return 2, nil
	case "d":
		if isNull(p.Before) {
			return 0, fmt.Errorf(replicaIdentity, "DELETE")
		}
		if _, err := emit(p.Before, types.Delete, "before"); err != nil {
			return 0, err
		}
		return 1, nil
	}
	return 0, fmt.Errorf(`Unknown "op" value "%s".`, op)
}

// metadata computes the requested metadata values of the message.
func (d *debeziumDecoder) metadata(p *debeziumPayload, schema stdjson.RawMessage) error {
	if len(d.meta) == 0 {
		return nil
	}
	var src map[string]stdjson.RawMessage
	if !isNull(p.Source) {
		if err := stdjson.Unmarshal(p.Source, &src); err != nil {
			return errors.New(`the "source" field is not a JSON object`)
		}
	}
	for i, m := range d.meta {
		var v any
		var err error
		switch m.key {
		case "schema":
			v, err = textOf(schema)
		case "ingestion-timestamp":
			v, err = millisOf(p.TsMs, 1)
		case "source.timestamp":
			v, err = millisOf(src["ts_ms"], 1)
		case "source.database":
			v, err = textOf(src["db"])
		case "source.schema":
			v, err = textOf(src["schema"])
		case "source.table":
			v, err = textOf(src["table"])
		case "source.properties":
			v, err = stringMapOf(p.Source)
		}
		if err != nil {
			return fmt.Errorf("metadata '%s': %v", m.key, err)
		}
		d.metaVal[i] = v
	}
	return nil
}

// CreateMessageEncoder builds an encoder of Debezium envelopes.
func (f DebeziumFactory) CreateMessageEncoder(ctx *connector.FormatContext) (connector.MessageEncoder, error) {
	o, _, err := f.options(ctx)
	if err != nil {
		return nil, err
	}
	return newEnvelopeEncoder(o, ctx, debeziumWrap)
}

// CreateEncoder writes Debezium envelopes, one per line.
func (f DebeziumFactory) CreateEncoder(ctx *connector.FormatContext) (connector.Encoder, error) {
	return linesOf(f.CreateMessageEncoder(ctx))
}

func debeziumWrap(dst, obj []byte, kind types.RowKind, ignoreNull bool) []byte {
	if kind.IsAccumulate() {
		if !ignoreNull {
			dst = append(dst, `{"before":null,"after":`...)
		} else {
			dst = append(dst, `{"after":`...)
		}
		dst = append(dst, obj...)
		return append(dst, `,"op":"c"}`...)
	}
	dst = append(dst, `{"before":`...)
	dst = append(dst, obj...)
	if !ignoreNull {
		dst = append(dst, `,"after":null`...)
	}
	return append(dst, `,"op":"d"}`...)
}
