package sqlclient

import (
	"bufio"
	"encoding/base64"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// streamingOp reports whether rows of this result carry an op column: the
// results of queries in streaming mode.
func streamingOp(res table.StatementResult) bool {
	return res.IsQuery() && res.IsStreaming()
}

// writeCSV writes RFC 4180 CSV with a header row; streaming query results
// get a leading op column. NULL is an empty field; an empty string is "".
func writeCSV(w io.Writer, res table.StatementResult) error {
	it, err := res.Collect()
	if err != nil {
		return err
	}
	defer it.Close()
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	schema := res.GetTableSchema()
	names := schema.GetFieldNames()
	ts := schema.GetFieldDataTypes()
	op := streamingOp(res)
	zone := res.TimeZone()
	var rec []string
	if op {
		rec = append(rec, "op")
	}
	rec = append(rec, names...)
	writeCSVRecord(bw, rec, nil)
	nulls := make([]bool, len(rec))
	for it.Next() {
		r := it.Row()
		rec = rec[:0]
		for i := range nulls {
			nulls[i] = false
		}
		if op {
			rec = append(rec, r.Kind.ShortString())
		}
		for i, v := range r.Values {
			if v == nil {
				nulls[len(rec)] = true
				rec = append(rec, "")
				continue
			}
			rec = append(rec, expr.FormatSQL(v, ts[i], zone))
		}
		writeCSVRecord(bw, rec, nulls)
		if op {
			// streaming results are shown as they arrive
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
	return it.Err()
}

func writeCSVRecord(w *bufio.Writer, rec []string, nulls []bool) {
	for i, f := range rec {
		if i > 0 {
			w.WriteByte(',')
		}
		isNull := nulls != nil && nulls[i]
		if !isNull && (f == "" || strings.ContainsAny(f, ",\"\r\n") || strings.HasPrefix(f, " ") || strings.HasSuffix(f, " ")) {
			w.WriteByte('"')
			w.WriteString(strings.ReplaceAll(f, `"`, `""`))
			w.WriteByte('"')
			continue
		}
		w.WriteString(f)
	}
	w.WriteByte('\n')
}

// writeJSON writes JSON Lines: one object per row with the column names as
// keys in order; streaming query rows start with "op". Values follow
// Flink's json format with the SQL timestamp standard.
func writeJSON(w io.Writer, res table.StatementResult) error {
	it, err := res.Collect()
	if err != nil {
		return err
	}
	defer it.Close()
	bw := bufio.NewWriter(w)
	defer bw.Flush()
	schema := res.GetTableSchema()
	names := schema.GetFieldNames()
	ts := schema.GetFieldDataTypes()
	op := streamingOp(res)
	var buf []byte
	for it.Next() {
		r := it.Row()
		buf = append(buf[:0], '{')
		first := true
		if op {
			buf = append(buf, `"op":`...)
			buf = strconv.AppendQuote(buf, r.Kind.ShortString())
			first = false
		}
		for i, v := range r.Values {
			if !first {
				buf = append(buf, ',')
			}
			first = false
			buf = appendJSONString(buf, names[i])
			buf = append(buf, ':')
			buf = AppendJSONValue(buf, v, ts[i])
		}
		buf = append(buf, '}', '\n')
		if _, err := bw.Write(buf); err != nil {
			return err
		}
		if op {
			if err := bw.Flush(); err != nil {
				return err
			}
		}
	}
	return it.Err()
}

// AppendJSONValue appends a value as Flink's json format writes it
// ('json.timestamp-format.standard' = 'SQL'): BOOLEAN true/false, numbers
// as JSON numbers (DECIMAL with its exact digits), strings, DATE
// "yyyy-MM-dd", TIME "HH:mm:ss[.fff]", TIMESTAMP "yyyy-MM-dd HH:mm:ss[.fff]"
// (fraction without trailing zeros), TIMESTAMP_LTZ the same in UTC with
// "Z", BYTES base64, ARRAY as an array, MAP and ROW as objects, NULL null.
// Non-finite floats are written as strings ("NaN", "Infinity").
func AppendJSONValue(buf []byte, v any, t *types.DataType) []byte {
	if v == nil {
		return append(buf, "null"...)
	}
	switch x := v.(type) {
	case bool:
		return strconv.AppendBool(buf, x)
	case int8:
		return strconv.AppendInt(buf, int64(x), 10)
	case int16:
		return strconv.AppendInt(buf, int64(x), 10)
	case int32:
		return strconv.AppendInt(buf, int64(x), 10)
	case int64:
		return strconv.AppendInt(buf, x, 10)
	case float32:
		return appendFloat(buf, float64(x), 32)
	case float64:
		return appendFloat(buf, x, 64)
	case types.Decimal:
		return append(buf, x.String()...)
	case string:
		return appendJSONString(buf, x)
	case []byte:
		return appendJSONString(buf, base64.StdEncoding.EncodeToString(x))
	case types.Date:
		return appendJSONString(buf, x.String())
	case types.LocalTime:
		return appendJSONString(buf, jsonTime(int64(x)))
	case time.Time:
		if t.Root == types.TimestampLTZRoot {
			return appendJSONString(buf, jsonTimestamp(x.UTC())+"Z")
		}
		return appendJSONString(buf, jsonTimestamp(x))
	case types.Months:
		return strconv.AppendInt(buf, int64(x), 10)
	case time.Duration:
		return strconv.AppendInt(buf, x.Milliseconds(), 10)
	case []any:
		buf = append(buf, '[')
		for i, e := range x {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = AppendJSONValue(buf, e, t.Elem)
		}
		return append(buf, ']')
	case *types.Map:
		kt, vt := t.Key, t.Value
		if t.Root == types.MultisetRoot {
			kt, vt = t.Elem, types.IntType()
		}
		buf = append(buf, '{')
		for i := range x.Keys {
			if i > 0 {
				buf = append(buf, ',')
			}
			key := "null"
			if x.Keys[i] != nil {
				key = expr.FormatSQL(x.Keys[i], kt, time.UTC)
			}
			buf = appendJSONString(buf, key)
			buf = append(buf, ':')
			buf = AppendJSONValue(buf, x.Values[i], vt)
		}
		return append(buf, '}')
	case *types.Row:
		buf = append(buf, '{')
		for i, f := range t.Fields {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = appendJSONString(buf, f.Name)
			buf = append(buf, ':')
			var fv any
			if i < len(x.Values) {
				fv = x.Values[i]
			}
			buf = AppendJSONValue(buf, fv, f.Type)
		}
		return append(buf, '}')
	}
	return appendJSONString(buf, types.FormatValue(v))
}

func appendFloat(buf []byte, f float64, bits int) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return appendJSONString(buf, types.FormatDoubleJava(f))
	}
	if bits == 32 {
		return append(buf, types.FormatFloatJava(float32(f))...)
	}
	return append(buf, types.FormatDoubleJava(f)...)
}

// jsonTime renders HH:mm:ss with a fraction only when non-zero.
func jsonTime(nanos int64) string {
	s := types.FormatTimeSQL(nanos-nanos%1e9, 0)
	if frac := nanos % 1e9; frac != 0 {
		s += "." + strings.TrimRight(strconv.FormatInt(1e9+frac, 10)[1:], "0")
	}
	return s
}

func jsonTimestamp(t time.Time) string {
	s := types.FormatTimestampSQL(t, 0)
	if n := t.Nanosecond(); n != 0 {
		s += "." + strings.TrimRight(strconv.FormatInt(int64(1e9+n), 10)[1:], "0")
	}
	return s
}

func appendJSONString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				buf = append(buf, '\\', c)
			case c == '\n':
				buf = append(buf, '\\', 'n')
			case c == '\r':
				buf = append(buf, '\\', 'r')
			case c == '\t':
				buf = append(buf, '\\', 't')
			case c < 0x20:
				buf = append(buf, `\u00`...)
				buf = append(buf, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
			default:
				buf = append(buf, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			buf = append(buf, `\ufffd`...)
		} else {
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return append(buf, '"')
}
