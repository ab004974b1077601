package results

import (
	"time"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// NullText is how a NULL value is displayed (Flink's PrintStyle.NULL_VALUE
// and the "NULL" inside ARRAY/MAP/ROW casts). The grid shows top-level
// NULLs distinctly; Snapshot reports them as flags, never as this text.
const NullText = expr.NullText

// Formatter renders values as Flink renders them for display: the SQL
// Client converts every column with the CAST(... AS STRING) rules in their
// non-legacy form (RowDataToStringConverterImpl in flink-table-planner,
// package functions.casting; table.exec.legacy-cast-behaviour is disabled by
// default since Flink 1.15). Expected strings were checked against Flink's
// CastRulesTest ("testCastTo(STRING())" cases):
//
//	BOOLEAN           TRUE / FALSE                      (BooleanToStringCastRule)
//	TINYINT..BIGINT   -12345678
//	FLOAT, DOUBLE     Java's Float/Double.toString: 123.4, 1.0E10
//	DECIMAL(4, 3)     9.870: exactly the type's scale, never exponent form
//	BINARY, BYTES     x'00fffe': the printing form of BinaryToStringCastRule
//	DATE              2021-09-24
//	TIME(p)           12:34:56.123: Flink keeps milliseconds and stops at the
//	                  last non-zero digit, at most p digits (DateTimeUtils.unixTimeToString)
//	TIMESTAMP(p)      2021-09-24 12:34:56.123456000 for p=9: exactly p digits
//	TIMESTAMP_LTZ(p)  the same, in the session time zone (Location)
//	INTERVAL          +10-03 (YEAR TO MONTH), +1 10:17:36.789 (DAY TO SECOND)
//	ARRAY             [NULL, 456]
//	MAP, MULTISET     {NULL=-10-03, b=NULL}, {a=1, b=1}
//	ROW               (123, abc), (NULL, abc)
//
// Nested NULLs print as NULL. Numbers never get digit grouping.
type Formatter struct {
	// Location is the session time zone for TIMESTAMP_LTZ (Flink's
	// table.local-time-zone); nil means UTC.
	Location *time.Location
}

// Format renders v of type t with TIMESTAMP_LTZ in UTC; see Formatter.
// A nil v renders as "NULL".
func Format(v any, t *types.DataType) string { return Formatter{}.Format(v, t) }

// Format renders v of type t; see Formatter. A nil v renders as "NULL".
func (f Formatter) Format(v any, t *types.DataType) string {
	return string(f.AppendFormat(nil, v, t))
}

func (f Formatter) loc() *time.Location {
	if f.Location == nil {
		return time.UTC
	}
	return f.Location
}

// AppendFormat appends the display text of v to dst. It is
// expr.AppendSQL, the engine's one implementation of Flink's display rules.
func (f Formatter) AppendFormat(dst []byte, v any, t *types.DataType) []byte {
	if v == nil {
		return append(dst, NullText...)
	}
	if t == nil {
		return append(dst, types.FormatValue(v)...)
	}
	return expr.AppendSQL(dst, v, t, f.loc())
}

func appendBool(dst []byte, b bool) []byte {
	if b {
		return append(dst, "TRUE"...)
	}
	return append(dst, "FALSE"...)
}

// appendTime and appendTimestamp are the engine's renderers (see
// expr.AppendTime and expr.AppendTimestamp), used by the columnar store.
func appendTime(dst []byte, nanosOfDay int64, precision int) []byte {
	return expr.AppendTime(dst, nanosOfDay, precision)
}

func appendTimestamp(dst []byte, t time.Time, precision int) []byte {
	return expr.AppendTimestamp(dst, t, precision)
}

func asInt64(v any) (int64, bool) {
	switch x := v.(type) {
	case int64:
		return x, true
	case int32:
		return int64(x), true
	case int16:
		return int64(x), true
	case int8:
		return int64(x), true
	case int:
		return int64(x), true
	}
	return 0, false
}
