// Package json implements Flink's 'json' format for JSON Lines: one JSON
// object per line, decoded into Arrow batches and encoded back, configured
// by Flink's json.* options (JsonFormatOptions).
//
// Options (keys as written in a table's WITH clause):
//
//	json.fail-on-missing-field          false  a missing field is an error (else NULL)
//	json.ignore-parse-errors            false  a field that does not convert becomes NULL;
//	                                           a line that is not a JSON object is skipped
//	                                           and counted (SkippedRows)
//	json.timestamp-format.standard      SQL    'SQL': "yyyy-MM-dd HH:mm:ss.s{precision}";
//	                                           'ISO-8601': "yyyy-MM-ddTHH:mm:ss.s{precision}"
//	                                           (TIMESTAMP_LTZ adds 'Z')
//	json.map-null-key.mode              FAIL   encoding a MAP with a NULL key: FAIL, DROP the
//	                                           entry, or LITERAL (use map-null-key.literal);
//	                                           Riffle's MAP keys are never NULL (Arrow), so
//	                                           the option is validated but rarely matters
//	json.map-null-key.literal           null   the key text for LITERAL
//	json.encode.decimal-as-plain-number false  DECIMAL as plain digits, never 1E-7
//	json.encode.ignore-null-fields      false  leave NULL fields out of encoded objects
//	json.zero-timestamp.behavior        FAIL   "0000-00-00 00:00:00": FAIL or CONVERT_TO_NULL
//	json.decode.json-parser.enabled     true   accepted for compatibility (Riffle always
//	                                           uses its streaming decoder)
//
// Decoding follows Flink's JsonToRowDataConverters: fields are matched by
// name (the last of duplicate keys wins) and unknown keys are ignored;
// JSON null is NULL. Numbers convert to every numeric type (an integer
// column truncates a fractional number, as Jackson's asInt does; DECIMAL
// keeps the exact digits, rounded HALF_UP to the scale, and a value too
// large for its precision is an error, not NULL); strings holding numbers
// or booleans convert too. STRING takes a string's text, a number's or
// boolean's text as written, and an object or array as compact JSON.
// BYTES are base64; DATE is yyyy-MM-dd; TIME is HH:mm:ss[.f]. ARRAY,
// MAP/MULTISET (string keys only) and ROW come from arrays and objects.
// Blank lines are skipped. Text must be UTF-8 (as Jackson requires).
//
// Errors are *connector.DataError values with the file, the line, the
// 1-based byte column within the line, the (dotted) field name and the
// reason.
package json

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/connector"
)

// Identifier is the 'format' value of this format.
const Identifier = "json"

// Option keys (without the "json." prefix).
const (
	OptFailOnMissingField     = "fail-on-missing-field"
	OptIgnoreParseErrors      = "ignore-parse-errors"
	OptTimestampFormat        = "timestamp-format.standard"
	OptMapNullKeyMode         = "map-null-key.mode"
	OptMapNullKeyLiteral      = "map-null-key.literal"
	OptEncodeDecimalPlain     = "encode.decimal-as-plain-number"
	OptEncodeIgnoreNullFields = "encode.ignore-null-fields"
	OptZeroTimestampBehavior  = "zero-timestamp.behavior"
	OptDecodeJSONParser       = "decode.json-parser.enabled"
)

// Map null key modes.
const (
	MapNullKeyFail    = "FAIL"
	MapNullKeyDrop    = "DROP"
	MapNullKeyLiteral = "LITERAL"
)

// Options are the parsed json.* options.
type Options struct {
	FailOnMissingField bool
	IgnoreParseErrors  bool
	ISO8601            bool
	MapNullKeyMode     string
	MapNullKeyLiteral  string
	DecimalPlain       bool
	IgnoreNullFields   bool
	ZeroTimestampNull  bool
}

// DefaultOptions are the options of a table without json.* keys.
func DefaultOptions() Options {
	return Options{MapNullKeyMode: MapNullKeyFail, MapNullKeyLiteral: "null"}
}

var optionList = []connector.Option{
	{Key: OptFailOnMissingField, Default: "false", Kind: "bool", Description: "Fail if a field is missing."},
	{Key: OptIgnoreParseErrors, Default: "false", Kind: "bool", Description: "Skip fields and rows with parse errors instead of failing; fields are set to null in case of errors."},
	{Key: OptTimestampFormat, Default: "SQL", Kind: "enum", Values: []string{"SQL", "ISO-8601"}, Description: "Timestamp format: SQL 'yyyy-MM-dd HH:mm:ss.s{precision}' or ISO-8601 'yyyy-MM-ddTHH:mm:ss.s{precision}'."},
	{Key: OptMapNullKeyMode, Default: "FAIL", Kind: "enum", Values: []string{"FAIL", "DROP", "LITERAL"}, Description: "How to encode a MAP entry with a null key."},
	{Key: OptMapNullKeyLiteral, Default: "null", Kind: "string", Description: "The key literal when 'map-null-key.mode' is LITERAL."},
	{Key: OptEncodeDecimalPlain, Default: "false", Kind: "bool", Description: "Encode all decimals as plain numbers instead of possible scientific notation."},
	{Key: OptEncodeIgnoreNullFields, Default: "false", Kind: "bool", Description: "Leave null fields out when encoding."},
	{Key: OptZeroTimestampBehavior, Default: "FAIL", Kind: "enum", Values: []string{"FAIL", "CONVERT_TO_NULL"}, Description: "What to do with a zero timestamp '0000-00-00 00:00:00'."},
	{Key: OptDecodeJSONParser, Default: "true", Kind: "bool", Description: "Accepted for compatibility with Flink; Riffle always decodes with its streaming parser."},
}

// ParseOptions validates json.* options (keys without the prefix).
func ParseOptions(opts map[string]string) (Options, error) {
	o := DefaultOptions()
	known := map[string]bool{}
	for _, d := range optionList {
		known[d.Key] = true
	}
	for k := range opts {
		if !known[k] {
			var keys []string
			for _, d := range optionList {
				keys = append(keys, "json."+d.Key)
			}
			return o, fmt.Errorf("unsupported option 'json.%s' for format 'json'; supported options are: %s", k, strings.Join(keys, ", "))
		}
	}
	var err error
	if o.FailOnMissingField, err = boolOpt(opts, OptFailOnMissingField); err != nil {
		return o, err
	}
	if o.IgnoreParseErrors, err = boolOpt(opts, OptIgnoreParseErrors); err != nil {
		return o, err
	}
	if o.FailOnMissingField && o.IgnoreParseErrors {
		return o, fmt.Errorf("'json.%s' and 'json.%s' shouldn't both be true", OptFailOnMissingField, OptIgnoreParseErrors)
	}
	switch v := opts[OptTimestampFormat]; strings.ToUpper(v) {
	case "", "SQL":
	case "ISO-8601":
		o.ISO8601 = true
	default:
		return o, fmt.Errorf("unsupported value '%s' for 'json.%s'; supported values are [SQL, ISO-8601]", v, OptTimestampFormat)
	}
	if v, ok := opts[OptMapNullKeyMode]; ok {
		switch strings.ToUpper(v) {
		case MapNullKeyFail, MapNullKeyDrop, MapNullKeyLiteral:
			o.MapNullKeyMode = strings.ToUpper(v)
		default:
			return o, fmt.Errorf("unsupported value '%s' for 'json.%s'; supported values are [FAIL, DROP, LITERAL]", v, OptMapNullKeyMode)
		}
	}
	if v, ok := opts[OptMapNullKeyLiteral]; ok {
		o.MapNullKeyLiteral = v
	}
	if o.DecimalPlain, err = boolOpt(opts, OptEncodeDecimalPlain); err != nil {
		return o, err
	}
	if o.IgnoreNullFields, err = boolOpt(opts, OptEncodeIgnoreNullFields); err != nil {
		return o, err
	}
	switch v := opts[OptZeroTimestampBehavior]; strings.ToUpper(v) {
	case "", "FAIL":
	case "CONVERT_TO_NULL":
		o.ZeroTimestampNull = true
	default:
		return o, fmt.Errorf("unsupported value '%s' for 'json.%s'; supported values are [FAIL, CONVERT_TO_NULL]", v, OptZeroTimestampBehavior)
	}
	if _, err = boolOpt(opts, OptDecodeJSONParser); err != nil {
		return o, err
	}
	return o, nil
}

func boolOpt(opts map[string]string, key string) (bool, error) {
	v, ok := opts[key]
	if !ok {
		return false, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("unrecognized option for boolean: %s. Expected either true or false(case insensitive) for option 'json.%s'", v, key)
}
