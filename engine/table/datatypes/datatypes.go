// Package datatypes builds logical data types the way PyFlink's
// DataTypes does: datatypes.Int(), datatypes.Row(datatypes.Field("a",
// datatypes.String())), datatypes.Interval(datatypes.Day(2),
// datatypes.Second(9)). Every constructor returns a nullable
// *types.DataType; call NotNull() on it for a NOT NULL type (PyFlink's
// nullable=False). Precision and length parameters are checked: an
// invalid one makes the constructor return nil (DecimalE and IntervalE
// return the error instead).
package datatypes

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/types"
)

// TinyInt is a 1-byte signed integer, -128 to 127 (PyFlink's TINYINT).
func TinyInt() *types.DataType { return types.TinyIntType() }

// SmallInt is a 2-byte signed integer, -32768 to 32767 (PyFlink's
// SMALLINT).
func SmallInt() *types.DataType { return types.SmallIntType() }

// Int is a 4-byte signed integer, -2147483648 to 2147483647 (PyFlink's
// INT).
func Int() *types.DataType { return types.IntType() }

// BigInt is an 8-byte signed integer (PyFlink's BIGINT).
func BigInt() *types.DataType { return types.BigIntType() }

// Float is a 4-byte float (PyFlink's FLOAT).
func Float() *types.DataType { return types.FloatType() }

// Double is an 8-byte float (PyFlink's DOUBLE).
func Double() *types.DataType { return types.DoubleType() }

// Decimal is an exact decimal of precision digits (1 to 38), scale of
// them after the point (0 to precision) (PyFlink's DECIMAL). Invalid
// parameters give nil; see DecimalE.
func Decimal(precision, scale int) *types.DataType {
	t, _ := DecimalE(precision, scale)
	return t
}

// DecimalE is Decimal returning an error for invalid parameters.
func DecimalE(precision, scale int) (*types.DataType, error) {
	if precision < 1 || precision > types.MaxDecimalPrecision {
		return nil, fmt.Errorf("Decimal precision must be between 1 and 38 (both inclusive), got %d", precision)
	}
	if scale < 0 || scale > precision {
		return nil, fmt.Errorf("Decimal scale must be between 0 and the precision %d (both inclusive), got %d", precision, scale)
	}
	return types.DecimalType(precision, scale), nil
}

// Boolean is a three-valued boolean (PyFlink's BOOLEAN).
func Boolean() *types.DataType { return types.BooleanType() }

// Char is a fixed-length string of length 1 to 2147483647 characters
// (PyFlink's CHAR); nil for an invalid length.
func Char(length int) *types.DataType {
	if length < 1 {
		return nil
	}
	return types.CharType(length)
}

// VarChar is a variable-length string of at most length characters
// (PyFlink's VARCHAR); nil for an invalid length.
func VarChar(length int) *types.DataType {
	if length < 1 {
		return nil
	}
	return types.VarCharType(length)
}

// String is VARCHAR(2147483647) (PyFlink's STRING).
func String() *types.DataType { return types.StringType() }

// Binary is a fixed-length byte string (PyFlink's BINARY); nil for an
// invalid length.
func Binary(length int) *types.DataType {
	if length < 1 {
		return nil
	}
	return types.BinaryType(length)
}

// VarBinary is a variable-length byte string (PyFlink's VARBINARY); nil
// for an invalid length.
func VarBinary(length int) *types.DataType {
	if length < 1 {
		return nil
	}
	return types.VarBinaryType(length)
}

// Bytes is VARBINARY(2147483647) (PyFlink's BYTES).
func Bytes() *types.DataType { return types.BytesType() }

// Date is a date from 0000-01-01 to 9999-12-31 (PyFlink's DATE).
func Date() *types.DataType { return types.DateType() }

func precision(p []int, def, max int) (int, bool) {
	if len(p) == 0 {
		return def, true
	}
	return p[0], p[0] >= 0 && p[0] <= max
}

// Time is a time of day without time zone with precision fractional
// second digits, 0 (the default) to 9 (PyFlink's TIME); nil for an invalid
// precision.
func Time(p ...int) *types.DataType {
	v, ok := precision(p, 0, 9)
	if !ok {
		return nil
	}
	return types.TimeType(v)
}

// Timestamp is a date and time without time zone, precision 0 to 9
// (default 6) (PyFlink's TIMESTAMP); nil for an invalid precision.
func Timestamp(p ...int) *types.DataType {
	v, ok := precision(p, 6, 9)
	if !ok {
		return nil
	}
	return types.TimestampType(v)
}

// TimestampWithLocalTimeZone is an instant shown in the session time
// zone, precision 0 to 9 (default 6) (PyFlink's
// TIMESTAMP_WITH_LOCAL_TIME_ZONE); nil for an invalid precision.
func TimestampWithLocalTimeZone(p ...int) *types.DataType {
	v, ok := precision(p, 6, 9)
	if !ok {
		return nil
	}
	return types.TimestampLTZType(v)
}

// TimestampLTZ is TimestampWithLocalTimeZone (PyFlink's TIMESTAMP_LTZ).
func TimestampLTZ(p ...int) *types.DataType { return TimestampWithLocalTimeZone(p...) }

// Resolution is one unit of an interval type with its precision
// (PyFlink's Resolution): Year, Month, Day, Hour, Minute or Second.
type Resolution struct {
	unit      string
	precision int
}

// String renders e.g. "DAY(2)".
func (r Resolution) String() string {
	switch r.unit {
	case "YEAR", "DAY", "SECOND":
		return fmt.Sprintf("%s(%d)", r.unit, r.precision)
	}
	return r.unit
}

// Year is the year resolution with precision 1 to 4 digits (default 2)
// (PyFlink's YEAR).
func Year(p ...int) Resolution { v, _ := precision(p, 2, 4); return Resolution{"YEAR", v} }

// Month is the month resolution (PyFlink's MONTH).
func Month() Resolution { return Resolution{"MONTH", 0} }

// Day is the day resolution with precision 1 to 6 digits (default 2)
// (PyFlink's DAY).
func Day(p ...int) Resolution { v, _ := precision(p, 2, 6); return Resolution{"DAY", v} }

// Hour is the hour resolution (PyFlink's HOUR).
func Hour() Resolution { return Resolution{"HOUR", 0} }

// Minute is the minute resolution (PyFlink's MINUTE).
func Minute() Resolution { return Resolution{"MINUTE", 0} }

// Second is the second resolution with fractional precision 0 to 9
// (default 6) (PyFlink's SECOND).
func Second(p ...int) Resolution { v, _ := precision(p, 6, 9); return Resolution{"SECOND", v} }

// Interval is a year-month interval (YEAR, YEAR TO MONTH, MONTH) or a
// day-time interval (DAY, DAY TO HOUR, ..., SECOND) (PyFlink's
// INTERVAL(upper_resolution, lower_resolution=None)):
// Interval(Day(2), Second(9)) is INTERVAL DAY(2) TO SECOND(9). An invalid
// combination gives nil; see IntervalE.
func Interval(upper Resolution, lower ...Resolution) *types.DataType {
	t, _ := IntervalE(upper, lower...)
	return t
}

// IntervalE is Interval returning an error for invalid resolutions.
func IntervalE(upper Resolution, lower ...Resolution) (*types.DataType, error) {
	key := upper.unit
	var low Resolution
	if len(lower) > 0 {
		low = lower[0]
		key += " TO " + low.unit
	}
	ym := map[string]types.IntervalResolution{"YEAR": types.ResYear, "YEAR TO MONTH": types.ResYearToMonth, "MONTH": types.ResMonth}
	dt := map[string]types.IntervalResolution{"DAY": types.ResDay, "DAY TO HOUR": types.ResDayToHour, "DAY TO MINUTE": types.ResDayToMinute,
		"DAY TO SECOND": types.ResDayToSecond, "HOUR": types.ResHour, "HOUR TO MINUTE": types.ResHourToMinute,
		"HOUR TO SECOND": types.ResHourToSecond, "MINUTE": types.ResMinute, "MINUTE TO SECOND": types.ResMinuteToSecond, "SECOND": types.ResSecond}
	if r, ok := ym[key]; ok {
		p := upper.precision
		if upper.unit == "MONTH" {
			p = 2
		}
		return types.IntervalYearMonthType(r, p), nil
	}
	if r, ok := dt[key]; ok {
		dayP, frac := 2, 6
		if upper.unit == "DAY" {
			dayP = upper.precision
		}
		switch {
		case low.unit == "SECOND":
			frac = low.precision
		case upper.unit == "SECOND" && len(lower) == 0:
			frac = upper.precision
		default:
			frac = 0
		}
		return types.IntervalDayTimeType(r, dayP, frac), nil
	}
	return nil, fmt.Errorf("unsupported interval resolution %s", key)
}

// Array is an array of elements of a type (PyFlink's ARRAY).
func Array(elem *types.DataType) *types.DataType { return types.ArrayType(elem) }

// Map is a map from keys to values (PyFlink's MAP); key uniqueness is not
// enforced.
func Map(key, value *types.DataType) *types.DataType { return types.MapType(key, value) }

// Multiset is a bag of elements with multiplicities (PyFlink's MULTISET).
func Multiset(elem *types.DataType) *types.DataType { return types.MultisetType(elem) }

// Field is a named field of a ROW, with an optional description
// (PyFlink's FIELD).
func Field(name string, t *types.DataType, description ...string) types.Field {
	f := types.NewField(name, t)
	if len(description) > 0 {
		f.Description = description[0]
	}
	return f
}

// Row is a structured type of fields (PyFlink's ROW).
func Row(fields ...types.Field) *types.DataType { return types.RowType(fields...) }

// Null is the type of an untyped NULL (PyFlink's NULL).
func Null() *types.DataType { return types.NullType() }

// ListView is the accumulator type of a list view (PyFlink's LIST_VIEW;
// accumulator declarations only): an ARRAY of elements, as Riffle keeps
// ListView[T] values in memory.
func ListView(elem *types.DataType) *types.DataType { return types.ArrayType(elem) }

// MapView is the accumulator type of a map view (PyFlink's MAP_VIEW;
// accumulator declarations only): a MAP, as Riffle keeps MapView[K, V]
// values in memory.
func MapView(key, value *types.DataType) *types.DataType { return types.MapType(key, value) }
