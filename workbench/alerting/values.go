package alerting

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// valueText is a value as the alert log and messages show it.
func valueText(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case time.Time:
		return timestampText(x)
	}
	return types.FormatValue(v)
}

// timestampText is a TIMESTAMP value as "yyyy-MM-dd HH:mm:ss[.fff]".
func timestampText(t time.Time) string {
	return strings.TrimSuffix(t.UTC().Format("2006-01-02 15:04:05.999999999"), ".")
}

// rowText is a row as "col=value, …" for messages (values cut at 80
// characters).
func rowText(names []string, values []any) string {
	var b strings.Builder
	for i, v := range values {
		if i > 0 {
			b.WriteString(", ")
		}
		if i < len(names) {
			b.WriteString(names[i])
			b.WriteByte('=')
		}
		s := valueText(v)
		if len(s) > 80 {
			s = s[:77] + "…"
		}
		b.WriteString(s)
	}
	return b.String()
}

// rowJSON is a row as a JSON object in column order.
func rowJSON(names []string, values []any) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, name := range names {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(name)
		b.Write(k)
		b.WriteByte(':')
		var v any
		if i < len(values) {
			v = values[i]
		}
		b.WriteString(jsonValue(v))
	}
	b.WriteByte('}')
	return b.String()
}

func jsonValue(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(x)
	case int8, int16, int32, int64, int:
		return types.FormatValue(x)
	case float32, float64:
		if r := ratOf(x); r != nil {
			f, _ := r.Float64()
			return strconv.FormatFloat(f, 'g', -1, 64)
		}
		return "null"
	case types.Decimal:
		return x.String()
	case time.Time:
		s, _ := json.Marshal(timestampText(x))
		return string(s)
	}
	s, _ := json.Marshal(types.FormatValue(v))
	return string(s)
}

// sqlLiteral is a value as a SQL literal for a sink statement: NULL,
// numbers as written, strings quoted, TIMESTAMP 'yyyy-MM-dd HH:mm:ss.f'
// (the UTC wall clock of the time.Time: a TIMESTAMP column's value), DATE
// '…', TRUE/FALSE; other values as their text in quotes.
func sqlLiteral(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case bool:
		if x {
			return "TRUE"
		}
		return "FALSE"
	case string:
		return "'" + strings.ReplaceAll(x, "'", "''") + "'"
	case int8, int16, int32, int64, int, types.Decimal:
		return types.FormatValue(x)
	case float32, float64:
		if r := ratOf(x); r != nil {
			f, _ := r.Float64()
			return "CAST(" + strconv.FormatFloat(f, 'g', -1, 64) + " AS DOUBLE)"
		}
		return "CAST(NULL AS DOUBLE)"
	case time.Time:
		return "TIMESTAMP '" + timestampText(x) + "'"
	case types.Date:
		return "DATE '" + x.String() + "'"
	}
	return "'" + strings.ReplaceAll(types.FormatValue(v), "'", "''") + "'"
}
