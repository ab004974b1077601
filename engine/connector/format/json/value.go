package json

import (
	"encoding/base64"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/engine/connector/internal/textconv"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// hexDigits are upper case, as Jackson writes \u escapes ("\u001F").
const hexDigits = "0123456789ABCDEF"

// AppendString appends s as a JSON string literal, escaped as Jackson
// does: \" \\ \n \r \t \b \f and \u00XX for the other control
// characters; other valid UTF-8 as is, and each invalid byte as \ufffd.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				dst = append(dst, s[start:i]...)
				dst = append(dst, `\ufffd`...)
				i++
				start = i
				continue
			}
			i += n
			continue
		}
		dst = append(dst, s[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\n':
			dst = append(dst, '\\', 'n')
		case '\r':
			dst = append(dst, '\\', 'r')
		case '\t':
			dst = append(dst, '\\', 't')
		case '\b':
			dst = append(dst, '\\', 'b')
		case '\f':
			dst = append(dst, '\\', 'f')
		default:
			dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendGoValue appends v, a value of SQL type t in the Go form
// types.ValueAt returns (nil for NULL), as the json format encodes it (see
// Encoder): TIMESTAMP "yyyy-MM-dd HH:mm:ss[.f]", or with 'T' when iso is
// true (json.timestamp-format.standard 'ISO-8601'), TIMESTAMP_LTZ the same
// in UTC followed by 'Z'; DECIMAL with its exact digits; MAP and MULTISET
// keys of any type as their SQL text ("null" for a NULL key); INTERVAL
// YEAR TO MONTH as months, INTERVAL DAY TO SECOND as milliseconds. The
// SQL client's JSON output and the SQL Gateway's nested values use it.
func AppendGoValue(dst []byte, v any, t *types.DataType, iso bool) []byte {
	if v == nil {
		return append(dst, "null"...)
	}
	switch x := v.(type) {
	case bool:
		return strconv.AppendBool(dst, x)
	case int8:
		return strconv.AppendInt(dst, int64(x), 10)
	case int16:
		return strconv.AppendInt(dst, int64(x), 10)
	case int32:
		return strconv.AppendInt(dst, int64(x), 10)
	case int64:
		return strconv.AppendInt(dst, x, 10)
	case float32:
		return appendFloat(dst, float64(x), 32)
	case float64:
		return appendFloat(dst, x, 64)
	case types.Decimal:
		return append(dst, x.String()...)
	case string:
		return AppendString(dst, x)
	case []byte:
		return appendBase64(dst, x)
	case types.Variant:
		// a JSON string holding the variant's JSON text (Riffle's gateway
		// wire form; the json format refuses VARIANT columns)
		return AppendString(dst, x.OrderedJSON())
	case types.Date:
		dst = append(dst, '"')
		return append(textconv.AppendDate(dst, int64(x)), '"')
	case types.LocalTime:
		dst = append(dst, '"')
		return append(textconv.AppendTime(dst, int64(x)), '"')
	case time.Time:
		sep := byte(' ')
		if iso {
			sep = 'T'
		}
		dst = append(dst, '"')
		dst = textconv.AppendTimestamp(dst, x.Unix(), int64(x.Nanosecond()), sep)
		if t.Root == types.TimestampLTZRoot {
			dst = append(dst, 'Z')
		}
		return append(dst, '"')
	case types.Months:
		return strconv.AppendInt(dst, int64(x), 10)
	case time.Duration:
		return strconv.AppendInt(dst, x.Milliseconds(), 10)
	case []any:
		dst = append(dst, '[')
		for i, e := range x {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendGoValue(dst, e, t.Elem, iso)
		}
		return append(dst, ']')
	case *types.Map:
		kt, vt := t.Key, t.Value
		if t.Root == types.MultisetRoot {
			kt, vt = t.Elem, types.IntType()
		}
		dst = append(dst, '{')
		for i := range x.Keys {
			if i > 0 {
				dst = append(dst, ',')
			}
			key := "null"
			if x.Keys[i] != nil {
				key = expr.FormatSQL(x.Keys[i], kt, time.UTC)
			}
			dst = AppendString(dst, key)
			dst = append(dst, ':')
			dst = AppendGoValue(dst, x.Values[i], vt, iso)
		}
		return append(dst, '}')
	case *types.Row:
		dst = append(dst, '{')
		for i, f := range t.Fields {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = AppendString(dst, f.Name)
			dst = append(dst, ':')
			var fv any
			if i < len(x.Values) {
				fv = x.Values[i]
			}
			dst = AppendGoValue(dst, fv, f.Type, iso)
		}
		return append(dst, '}')
	}
	return AppendString(dst, types.FormatValue(v))
}

func appendBase64(dst, b []byte) []byte {
	dst = append(dst, '"')
	n := len(dst)
	dst = append(dst, make([]byte, base64.StdEncoding.EncodedLen(len(b)))...)
	base64.StdEncoding.Encode(dst[n:], b)
	return append(dst, '"')
}
