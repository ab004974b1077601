package gateway

import (
	"encoding/base64"
	"math"
	"strconv"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	jsonformat "github.com/riffle-sql/riffle/engine/connector/format/json"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// The row encoders append rows straight from Arrow columns into the
// response buffer, with one specialised writer per column and batch: no
// Go value per field, no reflection. encoding/json caps at about 3 M rows
// per second per core; these writers are several times faster (docs/benchmarks.md).
//
// JSON follows Flink's RowDataToJsonConverters with the ISO-8601 timestamp
// format, as ResultInfoSerializer configures it:
//
//	BOOLEAN true/false; TINYINT..BIGINT and INTERVAL (months, milliseconds)
//	as JSON integers; FLOAT, DOUBLE as Java prints them (NaN and Infinity as
//	strings); DECIMAL as a JSON number with the type's scale; CHAR, VARCHAR
//	strings; BINARY base64; DATE "2024-01-31"; TIME "12:30:00" (with a
//	fraction only when non-zero); TIMESTAMP "2024-01-31T12:30:00.123"
//	(fraction without trailing zeros, none when zero); TIMESTAMP_LTZ the
//	wall-clock time in the session time zone (table.local-time-zone)
//	followed by "Z", also nested (Flink's RowDataLocalTimeZoneConverter
//	shifts the values before the JSON format appends "Z": epoch 0 in a
//	session in Asia/Tokyo is "1970-01-01T09:00:00Z"); ARRAY an array; MAP and MULTISET an object keyed
//	by the key's string form (NULL key "null"), MULTISET values are counts;
//	ROW an object keyed by field name; NULL null.
//
// PLAIN_TEXT writes every non-NULL field as a JSON string holding the text
// Flink's SQL Client prints for it (RowDataToStringConverterImpl, the
// cast-to-STRING rules in printing mode; expr.FormatSQL): numbers as Java
// prints them, BOOLEAN TRUE/FALSE, DECIMAL with the type's scale, DATE
// 2024-01-31, TIME 12:34:56, TIMESTAMP(p) 2024-01-31 10:00:00.5 (exactly p
// fractional digits), TIMESTAMP_LTZ the same in the session time zone
// (table.local-time-zone), intervals +1-02 and +2 00:00:00.000, BINARY
// x'0102', ARRAY [1, 2], MAP {a=1}, ROW (1, x), nested NULLs as NULL. NULL
// fields are JSON null. Flink 2.3.0's SQL Client fetches PLAIN_TEXT and
// prints these strings as they are.

// fieldWriter appends field i of one column of one batch.
type fieldWriter func(buf []byte, i int) []byte

// writerFor returns the writer of a column in a row format.
//
// zone is the session time zone TIMESTAMP_LTZ values are written in, as
// wall-clock times in both formats (nil = UTC).
func writerFor(arr arrow.Array, t *types.DataType, format RowFormat, zone *time.Location) fieldWriter {
	if zone == nil {
		zone = time.UTC
	}
	var w fieldWriter
	if format == RowFormatPlainText {
		w = textWriter(arr, t, zone)
	} else {
		w = jsonWriter(arr, t, zone)
	}
	if arr.NullN() == 0 {
		return w
	}
	return func(buf []byte, i int) []byte {
		if arr.IsNull(i) {
			return append(buf, "null"...)
		}
		return w(buf, i)
	}
}

func jsonWriter(arr arrow.Array, t *types.DataType, zone *time.Location) fieldWriter {
	switch a := arr.(type) {
	case *array.Boolean:
		return func(buf []byte, i int) []byte { return strconv.AppendBool(buf, a.Value(i)) }
	case *array.Int8:
		return func(buf []byte, i int) []byte { return strconv.AppendInt(buf, int64(a.Value(i)), 10) }
	case *array.Int16:
		return func(buf []byte, i int) []byte { return strconv.AppendInt(buf, int64(a.Value(i)), 10) }
	case *array.Int32:
		return func(buf []byte, i int) []byte { return strconv.AppendInt(buf, int64(a.Value(i)), 10) }
	case *array.Int64:
		vals := a.Int64Values()
		return func(buf []byte, i int) []byte { return strconv.AppendInt(buf, vals[i], 10) }
	case *array.Float32:
		return func(buf []byte, i int) []byte { return appendJavaFloat(buf, float64(a.Value(i)), 32, true) }
	case *array.Float64:
		return func(buf []byte, i int) []byte { return appendJavaFloat(buf, a.Value(i), 64, true) }
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		return func(buf []byte, i int) []byte {
			return append(buf, types.Decimal{Unscaled: a.Value(i), Scale: scale}.String()...)
		}
	case *array.String:
		return func(buf []byte, i int) []byte { return jsonformat.AppendString(buf, a.Value(i)) }
	case *array.Binary:
		if t.Root == types.VariantRoot {
			// Flink's JSON row format cannot write a VARIANT; Riffle writes
			// its JSON text as a string
			return func(buf []byte, i int) []byte {
				return jsonformat.AppendString(buf, types.Variant(a.Value(i)).OrderedJSON())
			}
		}
		return func(buf []byte, i int) []byte { return appendBase64(buf, a.Value(i)) }
	case *array.Date32:
		return func(buf []byte, i int) []byte {
			buf = append(buf, '"')
			buf = appendISODate(buf, int64(a.Value(i)))
			return append(buf, '"')
		}
	case *array.Time32:
		return func(buf []byte, i int) []byte {
			buf = append(buf, '"')
			buf = appendTimeOfDay(buf, int64(a.Value(i))*1_000_000)
			return append(buf, '"')
		}
	case *array.Time64:
		return func(buf []byte, i int) []byte {
			buf = append(buf, '"')
			buf = appendTimeOfDay(buf, int64(a.Value(i)))
			return append(buf, '"')
		}
	case *array.Timestamp:
		perSec := types.UnitsPerSecond(a.DataType().(*arrow.TimestampType).Unit)
		ltz := t.Root == types.TimestampLTZRoot
		vals := a.TimestampValues()
		return func(buf []byte, i int) []byte {
			v := int64(vals[i])
			buf = append(buf, '"')
			if ltz {
				v = shiftToWallClock(v, perSec, zone)
			}
			buf = appendISOTimestamp(buf, v, perSec)
			if ltz {
				buf = append(buf, 'Z')
			}
			return append(buf, '"')
		}
	case *array.MonthInterval:
		return func(buf []byte, i int) []byte { return strconv.AppendInt(buf, int64(a.Value(i)), 10) }
	case *array.Duration:
		return func(buf []byte, i int) []byte { return strconv.AppendInt(buf, int64(a.Value(i)), 10) }
	}
	if hasLTZ(t) {
		return func(buf []byte, i int) []byte {
			return jsonformat.AppendGoValue(buf, instantToWallClock(types.ValueAt(arr, i, t), t, zone), t, true)
		}
	}
	return func(buf []byte, i int) []byte {
		return jsonformat.AppendGoValue(buf, types.ValueAt(arr, i, t), t, true)
	}
}

// shiftToWallClock returns the epoch value v (perSec units per second) of
// an instant moved by zone's UTC offset at that instant: the wall-clock
// time in zone, counted as if it were UTC.
func shiftToWallClock(v, perSec int64, zone *time.Location) int64 {
	if zone == time.UTC {
		return v
	}
	sec := v / perSec
	if v%perSec < 0 {
		sec--
	}
	_, off := time.Unix(sec, 0).In(zone).Zone()
	return v + int64(off)*perSec
}

func textWriter(arr arrow.Array, t *types.DataType, zone *time.Location) fieldWriter {
	quoted := func(f func(buf []byte, i int) []byte) fieldWriter {
		return func(buf []byte, i int) []byte {
			buf = append(buf, '"')
			buf = f(buf, i)
			return append(buf, '"')
		}
	}
	switch a := arr.(type) {
	case *array.Boolean:
		return func(buf []byte, i int) []byte {
			if a.Value(i) {
				return append(buf, `"TRUE"`...)
			}
			return append(buf, `"FALSE"`...)
		}
	case *array.Int8:
		return quoted(func(buf []byte, i int) []byte { return strconv.AppendInt(buf, int64(a.Value(i)), 10) })
	case *array.Int16:
		return quoted(func(buf []byte, i int) []byte { return strconv.AppendInt(buf, int64(a.Value(i)), 10) })
	case *array.Int32:
		if t.Root == types.IntervalYearMonthRoot {
			break
		}
		return quoted(func(buf []byte, i int) []byte { return strconv.AppendInt(buf, int64(a.Value(i)), 10) })
	case *array.Int64:
		return quoted(func(buf []byte, i int) []byte { return strconv.AppendInt(buf, a.Value(i), 10) })
	case *array.Float32:
		return func(buf []byte, i int) []byte { return appendJavaFloat(buf, float64(a.Value(i)), 32, false) }
	case *array.Float64:
		return func(buf []byte, i int) []byte { return appendJavaFloat(buf, a.Value(i), 64, false) }
	case *array.Decimal128:
		scale := a.DataType().(*arrow.Decimal128Type).Scale
		return quoted(func(buf []byte, i int) []byte {
			return append(buf, types.Decimal{Unscaled: a.Value(i), Scale: scale}.String()...)
		})
	case *array.String:
		return func(buf []byte, i int) []byte { return jsonformat.AppendString(buf, a.Value(i)) }
	case *array.Date32:
		return quoted(func(buf []byte, i int) []byte { return append(buf, types.FormatDate(int32(a.Value(i)))...) })
	}
	var text []byte
	return func(buf []byte, i int) []byte {
		text = expr.AppendSQL(text[:0], types.ValueAt(arr, i, t), t, zone)
		return jsonformat.AppendString(buf, string(text))
	}
}

// appendJavaFloat appends a float as Java's Float/Double.toString prints
// it; non-finite values (and every value when asNumber is false) as JSON
// strings.
func appendJavaFloat(buf []byte, f float64, bits int, asNumber bool) []byte {
	var s string
	if bits == 32 {
		s = types.FormatFloatJava(float32(f))
	} else {
		s = types.FormatDoubleJava(f)
	}
	if !asNumber || math.IsNaN(f) || math.IsInf(f, 0) {
		return jsonformat.AppendString(buf, s)
	}
	return append(buf, s...)
}

func appendBase64(buf []byte, b []byte) []byte {
	buf = append(buf, '"')
	n := base64.StdEncoding.EncodedLen(len(b))
	buf = append(buf, make([]byte, n)...)
	base64.StdEncoding.Encode(buf[len(buf)-n:], b)
	return append(buf, '"')
}

// civil converts days since 1970-01-01 to a proleptic Gregorian date
// (Howard Hinnant's days_from_civil inverse).
func civil(days int64) (y int64, m, d int) {
	z := days + 719468
	era := z / 146097
	if z < 0 && z%146097 != 0 {
		era--
	}
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y = yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d = int(doy - (153*mp+2)/5 + 1)
	if mp < 10 {
		m = int(mp + 3)
	} else {
		m = int(mp - 9)
	}
	if m <= 2 {
		y++
	}
	return y, m, d
}

func append2(buf []byte, v int) []byte {
	return append(buf, byte('0'+v/10), byte('0'+v%10))
}

// appendYear writes a year as java.time does: four digits, a sign for
// negative years and "+" above 9999.
func appendYear(buf []byte, y int64) []byte {
	switch {
	case y > 9999:
		buf = append(buf, '+')
		return strconv.AppendInt(buf, y, 10)
	case y < 0:
		buf = append(buf, '-')
		y = -y
	}
	return append(buf, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10))
}

// appendISODate appends yyyy-MM-dd of a day number.
func appendISODate(buf []byte, days int64) []byte {
	y, m, d := civil(days)
	buf = appendYear(buf, y)
	buf = append(buf, '-')
	buf = append2(buf, m)
	buf = append(buf, '-')
	return append2(buf, d)
}

// appendFraction appends "." and the nanoseconds without trailing zeros
// (nothing when zero).
func appendFraction(buf []byte, nanos int64) []byte {
	if nanos == 0 {
		return buf
	}
	var digits [9]byte
	for i := 8; i >= 0; i-- {
		digits[i] = byte('0' + nanos%10)
		nanos /= 10
	}
	n := 9
	for n > 0 && digits[n-1] == '0' {
		n--
	}
	buf = append(buf, '.')
	return append(buf, digits[:n]...)
}

// appendTimeOfDay appends HH:mm:ss[.fraction] of nanoseconds since midnight.
func appendTimeOfDay(buf []byte, nanos int64) []byte {
	secs := nanos / 1e9
	buf = append2(buf, int(secs/3600))
	buf = append(buf, ':')
	buf = append2(buf, int(secs/60%60))
	buf = append(buf, ':')
	buf = append2(buf, int(secs%60))
	return appendFraction(buf, nanos%1e9)
}

// splitEpoch splits an epoch count in units of 1/perSec second into days,
// nanoseconds of the day.
func splitEpoch(v, perSec int64) (days, nanosOfDay int64) {
	secs := v / perSec
	rem := v % perSec
	if rem < 0 {
		secs--
		rem += perSec
	}
	nanos := rem * (1e9 / perSec)
	days = secs / 86400
	sod := secs % 86400
	if sod < 0 {
		days--
		sod += 86400
	}
	return days, sod*1e9 + nanos
}

// appendISOTimestamp appends yyyy-MM-ddTHH:mm:ss[.fraction].
func appendISOTimestamp(buf []byte, v, perSec int64) []byte {
	days, nod := splitEpoch(v, perSec)
	buf = appendISODate(buf, days)
	buf = append(buf, 'T')
	return appendTimeOfDay(buf, nod)
}

// rowKindNames are the wire names of the row kinds, indexed by RowKind.
var rowKindNames = [...]string{`"INSERT"`, `"UPDATE_BEFORE"`, `"UPDATE_AFTER"`, `"DELETE"`}

// appendRows appends the rows of batches as the elements of the "data"
// array: {"kind":"INSERT","fields":[...]}, separated by commas.
//
// zone is the session time zone TIMESTAMP_LTZ values are written in
// (nil = UTC).
func appendRows(buf []byte, batches []*types.Batch, ts []*types.DataType, format RowFormat, zone *time.Location) []byte {
	first := true
	writers := make([]fieldWriter, len(ts))
	for _, b := range batches {
		for c := range ts {
			writers[c] = writerFor(b.Cols[c], ts[c], format, zone)
		}
		for i := 0; i < b.Len; i++ {
			if !first {
				buf = append(buf, ',')
			}
			first = false
			buf = append(buf, `{"kind":`...)
			k := b.Kind(i)
			if int(k) < len(rowKindNames) {
				buf = append(buf, rowKindNames[k]...)
			} else {
				buf = append(buf, `"INSERT"`...)
			}
			buf = append(buf, `,"fields":[`...)
			for c, w := range writers {
				if c > 0 {
					buf = append(buf, ',')
				}
				buf = w(buf, i)
			}
			buf = append(buf, ']', '}')
		}
	}
	return buf
}
