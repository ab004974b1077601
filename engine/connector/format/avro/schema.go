// Package avro implements Flink's 'avro' format (AvroFormatFactory): rows
// as Avro binary records whose schema is derived from the table's columns
// as Flink's AvroSchemaConverter derives it, on message connectors (one
// record per message, no schema registry, no header) and on the
// filesystem connector (Avro object container files).
//
// Options (keys as written in a table's WITH clause):
//
//	avro.encoding                  binary  binary | json (Avro's JSON encoding, for messages;
//	                                       container files are binary either way, as in Flink)
//	avro.codec                     snappy  container file codec: null, deflate, snappy, zstandard
//	                                       (Flink also has bzip2 and xz)
//	avro.timestamp_mapping.legacy  true    true: TIMESTAMP is timestamp-millis/micros and
//	                                       TIMESTAMP_LTZ is unsupported; false: TIMESTAMP is
//	                                       local-timestamp-millis/micros and TIMESTAMP_LTZ is
//	                                       timestamp-millis/micros
//
// Schema (AvroSchemaConverter.convertToSchema): the table is a record named
// "org.apache.flink.avro.generated.record"; a nested ROW column c is a
// record named "<parent record name>_c"; a nullable type T is the union
// ["null", T] (a nullable record field gets the default null); BOOLEAN
// boolean; TINYINT, SMALLINT, INT int; BIGINT long; FLOAT float; DOUBLE
// double; CHAR/VARCHAR/STRING string; BINARY/VARBINARY/BYTES bytes; DATE
// int (date); TIME(p <= 3) int (time-millis); TIMESTAMP(p <= 3) long
// (timestamp-millis; with avro.timestamp_mapping.legacy = false
// local-timestamp-millis, or -micros for p 4..6, and TIMESTAMP_LTZ is
// timestamp-millis/micros); DECIMAL(p,
// s) bytes (decimal(p, s), big-endian two's complement); ARRAY array;
// MAP<STRING, V> map; MULTISET<STRING> map of ["null", "int"]; ROW record.
// Other types (TIME(p > 3), TIMESTAMP(p > 3) with the legacy mapping,
// non-string map keys, INTERVAL, RAW) are rejected with Flink's messages.
// All of this was checked against Flink 2.3.0's AvroSchemaConverter and
// AvroRowDataSerializationSchema (byte for byte, see avro_test.go).
package avro

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// Identifier is the 'format' value of this format.
const Identifier = "avro"

// RecordName is the name of the top-level record, as in Flink's
// AvroSchemaConverter.
const RecordName = Namespace + ".record"

// Namespace is the namespace of the derived records.
const Namespace = "org.apache.flink.avro.generated"

// Option keys (without the "avro." prefix).
const (
	OptEncoding      = "encoding"
	OptCodec         = "codec"
	OptLegacyMapping = "timestamp_mapping.legacy"
)

// Options are the parsed avro.* options.
type Options struct {
	Codec  string // null, deflate, snappy, zstandard
	Legacy bool   // avro.timestamp_mapping.legacy
	JSON   bool   // avro.encoding = json (messages; container files are binary)
}

// ParseOptions validates avro.* options (keys without the prefix).
func ParseOptions(opts map[string]string) (Options, error) {
	o := Options{Codec: "snappy", Legacy: true}
	for k, v := range opts {
		switch k {
		case OptEncoding:
			switch strings.ToLower(v) {
			case "binary":
			case "json":
				o.JSON = true
			default:
				return o, fmt.Errorf("Could not parse value '%s' for key 'avro.encoding'; supported values are binary, json", v)
			}
		case OptCodec:
			switch strings.ToLower(v) {
			case "null", "deflate", "snappy", "zstandard":
				o.Codec = strings.ToLower(v)
			case "bzip2", "xz":
				return o, fmt.Errorf("'avro.codec' = '%s' is not supported by Riffle; supported codecs are null, deflate, snappy, zstandard", v)
			default:
				return o, fmt.Errorf("unrecognized 'avro.codec' value '%s'; supported codecs are null, deflate, snappy, zstandard", v)
			}
		case OptLegacyMapping:
			switch strings.ToLower(v) {
			case "true":
				o.Legacy = true
			case "false":
				o.Legacy = false
			default:
				return o, fmt.Errorf("Unrecognized option for boolean: %s. Expected either true or false(case insensitive) for option 'avro.%s'", v, k)
			}
		default:
			return o, fmt.Errorf("unsupported option 'avro.%s' for format 'avro'; supported options are: avro.encoding, avro.codec, avro.timestamp_mapping.legacy", k)
		}
	}
	return o, nil
}

// Schema returns the Avro schema (JSON text) Flink derives for a table of
// the given columns (AvroSchemaConverter.convertToSchema of the NOT NULL
// row type).
func Schema(names []string, ts []*types.DataType, legacy bool) (string, error) {
	var b strings.Builder
	fields := make([]types.Field, len(names))
	for i := range names {
		fields[i] = types.NewField(names[i], ts[i])
	}
	if err := writeSchema(&b, types.RowType(fields...).NotNull(), RecordName, legacy); err != nil {
		return "", err
	}
	return b.String(), nil
}

func unsupported(t *types.DataType) error {
	return fmt.Errorf("Unsupported to derive Schema for type: %s", t)
}

func writeSchema(b *strings.Builder, t *types.DataType, name string, legacy bool) error {
	if t.Nullable && t.Root != types.Null {
		b.WriteString(`["null",`)
		defer b.WriteString("]")
	}
	switch t.Root {
	case types.Null:
		b.WriteString(`"null"`)
	case types.Boolean:
		b.WriteString(`"boolean"`)
	case types.TinyInt, types.SmallInt, types.Integer:
		b.WriteString(`"int"`)
	case types.BigInt:
		b.WriteString(`"long"`)
	case types.Float:
		b.WriteString(`"float"`)
	case types.Double:
		b.WriteString(`"double"`)
	case types.Char, types.VarChar:
		b.WriteString(`"string"`)
	case types.Binary, types.VarBinary:
		b.WriteString(`"bytes"`)
	case types.DateRoot:
		b.WriteString(`{"type":"int","logicalType":"date"}`)
	case types.TimeRoot:
		if t.Precision > 3 {
			return fmt.Errorf("Avro does not support TIME type with precision: %d, it only supports precision less than 3.", t.Precision)
		}
		b.WriteString(`{"type":"int","logicalType":"time-millis"}`)
	case types.TimestampRoot, types.TimestampLTZRoot:
		if t.Root == types.TimestampLTZRoot && legacy {
			return unsupported(t)
		}
		local := t.Root == types.TimestampRoot && !legacy
		switch {
		case legacy && t.Precision > 3:
			// Flink 2.3.0's legacy mapping has timestamp-millis only.
			return fmt.Errorf("Avro does not support TIMESTAMP type with precision: %d, it only supports precision less than 3.", t.Precision)
		case local && t.Precision > 6:
			return fmt.Errorf("Avro does not support LOCAL TIMESTAMP type with precision: %d, it only supports precision less than 6.", t.Precision)
		case t.Precision > 6:
			return fmt.Errorf("Avro does not support TIMESTAMP type with precision: %d, it only supports precision less than 6.", t.Precision)
		}
		lt := "timestamp-"
		if local {
			lt = "local-timestamp-"
		}
		if t.Precision <= 3 {
			lt += "millis"
		} else {
			lt += "micros"
		}
		fmt.Fprintf(b, `{"type":"long","logicalType":"%s"}`, lt)
	case types.DecimalRoot:
		fmt.Fprintf(b, `{"type":"bytes","logicalType":"decimal","precision":%d,"scale":%d}`, t.Precision, t.Scale)
	case types.ArrayRoot:
		b.WriteString(`{"type":"array","items":`)
		if err := writeSchema(b, t.Elem, name, legacy); err != nil {
			return err
		}
		b.WriteString("}")
	case types.MapRoot, types.MultisetRoot:
		k, v := t.Key, t.Value
		if t.Root == types.MultisetRoot {
			k, v = t.Elem, types.IntType() // a nullable int, as in Flink
		}
		if !k.IsString() {
			return fmt.Errorf("Avro format doesn't support non-string as key type of map. The key type is: %s", k)
		}
		b.WriteString(`{"type":"map","values":`)
		if err := writeSchema(b, v, name, legacy); err != nil {
			return err
		}
		b.WriteString("}")
	case types.RowRoot:
		// Avro writes a name in the enclosing namespace without it: the
		// top record is "record" in "org.apache.flink.avro.generated" and
		// a nested one "record_<field>".
		if short, ok := strings.CutPrefix(name, Namespace+"."); ok && name == RecordName {
			fmt.Fprintf(b, `{"type":"record","name":%s,"namespace":%s,"fields":[`, strconv.Quote(short), strconv.Quote(Namespace))
		} else {
			fmt.Fprintf(b, `{"type":"record","name":%s,"fields":[`, strconv.Quote(strings.TrimPrefix(name, Namespace+".")))
		}
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(b, `{"name":%s,"type":`, strconv.Quote(f.Name))
			if err := writeSchema(b, f.Type, name+"_"+f.Name, legacy); err != nil {
				return err
			}
			if f.Type.Nullable {
				b.WriteString(`,"default":null`)
			}
			b.WriteString("}")
		}
		b.WriteString("]}")
	default:
		return unsupported(t)
	}
	return nil
}
