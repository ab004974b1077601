// Package types holds Riffle's logical data types (Flink's LogicalType /
// DataType), rows with their RowKind, resolved schemas, the columnar batch
// that flows between operators, and the mapping of each type to Arrow.
//
// The type system follows Flink's org.apache.flink.table.types.logical
// package: every type has a root (BOOLEAN, INT, DECIMAL, ...), optional
// parameters (length, precision, scale, element types, fields) and a
// nullability flag. String renders Flink's summary string, e.g.
// "DECIMAL(10, 2) NOT NULL", "STRING", "ROW<`a` INT, `b` STRING>".
package types

import (
	"fmt"
	"strings"
)

// TypeRoot identifies the family of a logical type (Flink's LogicalTypeRoot).
type TypeRoot uint8

// The type roots, in Flink's order.
const (
	Invalid TypeRoot = iota
	Char
	VarChar
	Boolean
	Binary
	VarBinary
	DecimalRoot
	TinyInt
	SmallInt
	Integer
	BigInt
	Float
	Double
	DateRoot
	TimeRoot
	TimestampRoot         // TIMESTAMP(p) WITHOUT TIME ZONE
	TimestampLTZRoot      // TIMESTAMP(p) WITH LOCAL TIME ZONE
	IntervalYearMonthRoot // INTERVAL YEAR TO MONTH family
	IntervalDayTimeRoot   // INTERVAL DAY TO SECOND family
	ArrayRoot
	MultisetRoot
	MapRoot
	RowRoot
	Null
	Raw
	Symbol // internal: flags such as TRIM(BOTH ...) or time units
	Descriptor
	VariantRoot // VARIANT: semi-structured data (Flink 2.1), see Variant
)

var rootNames = [...]string{
	Invalid: "INVALID", Char: "CHAR", VarChar: "VARCHAR", Boolean: "BOOLEAN",
	Binary: "BINARY", VarBinary: "VARBINARY", DecimalRoot: "DECIMAL",
	TinyInt: "TINYINT", SmallInt: "SMALLINT", Integer: "INT", BigInt: "BIGINT",
	Float: "FLOAT", Double: "DOUBLE", DateRoot: "DATE", TimeRoot: "TIME",
	TimestampRoot: "TIMESTAMP", TimestampLTZRoot: "TIMESTAMP_LTZ",
	IntervalYearMonthRoot: "INTERVAL YEAR TO MONTH", IntervalDayTimeRoot: "INTERVAL DAY TO SECOND",
	ArrayRoot: "ARRAY", MultisetRoot: "MULTISET", MapRoot: "MAP", RowRoot: "ROW",
	Null: "NULL", Raw: "RAW", Symbol: "SYMBOL", Descriptor: "DESCRIPTOR",
	VariantRoot: "VARIANT",
}

func (r TypeRoot) String() string {
	if int(r) < len(rootNames) {
		return rootNames[r]
	}
	return fmt.Sprintf("TypeRoot(%d)", r)
}

// Limits of Flink's types.
const (
	MaxLength           = 2147483647 // VARCHAR(MAX) == STRING, VARBINARY(MAX) == BYTES
	MaxDecimalPrecision = 38
	MaxTimePrecision    = 9
)

// IntervalResolution is the resolution of an interval type (Flink's
// YearMonthResolution / DayTimeResolution).
type IntervalResolution uint8

// Interval resolutions.
const (
	ResYear IntervalResolution = iota
	ResYearToMonth
	ResMonth
	ResDay
	ResDayToHour
	ResDayToMinute
	ResDayToSecond
	ResHour
	ResHourToMinute
	ResHourToSecond
	ResMinute
	ResMinuteToSecond
	ResSecond
)

// TimeAttr marks a TIMESTAMP / TIMESTAMP_LTZ column as a time attribute.
type TimeAttr uint8

// Time attribute kinds.
const (
	NoTimeAttr TimeAttr = iota
	Rowtime
	Proctime
)

// Field is one field of a ROW type.
type Field struct {
	Name        string
	Type        *DataType
	Description string
}

// DataType is a logical type with its nullability. It is immutable once
// built: the With* methods return copies. Parameters that do not apply to
// the root are zero.
//
//   - Length: CHAR, VARCHAR, BINARY, VARBINARY (MaxLength for STRING / BYTES).
//   - Precision: DECIMAL (1..38), TIME, TIMESTAMP, TIMESTAMP_LTZ (0..9),
//     interval leading precision (year or day precision).
//   - Scale: DECIMAL scale; fractional-second precision of DAY TO SECOND intervals.
//   - Elem: ARRAY and MULTISET element type.
//   - Key, Value: MAP key and value types.
//   - Fields: ROW fields.
type DataType struct {
	Root       TypeRoot
	Nullable   bool
	Length     int
	Precision  int
	Scale      int
	Resolution IntervalResolution
	TimeAttr   TimeAttr
	Elem       *DataType
	Key, Value *DataType
	Fields     []Field
	// RawName names the Go type of a RAW type (used for opaque UDF values).
	RawName string
}

func simple(root TypeRoot) *DataType { return &DataType{Root: root, Nullable: true} }

// BooleanType is BOOLEAN.
func BooleanType() *DataType { return simple(Boolean) }

// TinyIntType is TINYINT, 1-byte signed integer.
func TinyIntType() *DataType { return simple(TinyInt) }

// SmallIntType is SMALLINT, 2-byte signed integer.
func SmallIntType() *DataType { return simple(SmallInt) }

// IntType is INT, 4-byte signed integer.
func IntType() *DataType { return simple(Integer) }

// BigIntType is BIGINT, 8-byte signed integer.
func BigIntType() *DataType { return simple(BigInt) }

// FloatType is FLOAT, 4-byte IEEE 754.
func FloatType() *DataType { return simple(Float) }

// DoubleType is DOUBLE, 8-byte IEEE 754.
func DoubleType() *DataType { return simple(Double) }

// DateType is DATE (days since 1970-01-01, no time zone).
func DateType() *DataType { return simple(DateRoot) }

// NullType is the type of the untyped NULL literal.
func NullType() *DataType { return simple(Null) }

// CharType is CHAR(n), 1 <= n <= MaxLength.
func CharType(n int) *DataType { return &DataType{Root: Char, Nullable: true, Length: n} }

// VarCharType is VARCHAR(n), 1 <= n <= MaxLength.
func VarCharType(n int) *DataType { return &DataType{Root: VarChar, Nullable: true, Length: n} }

// StringType is STRING, i.e. VARCHAR(2147483647).
func StringType() *DataType { return VarCharType(MaxLength) }

// BinaryType is BINARY(n).
func BinaryType(n int) *DataType { return &DataType{Root: Binary, Nullable: true, Length: n} }

// VarBinaryType is VARBINARY(n).
func VarBinaryType(n int) *DataType { return &DataType{Root: VarBinary, Nullable: true, Length: n} }

// BytesType is BYTES, i.e. VARBINARY(2147483647).
func BytesType() *DataType { return VarBinaryType(MaxLength) }

// DecimalType is DECIMAL(p, s), 1 <= p <= 38, 0 <= s <= p.
func DecimalType(p, s int) *DataType {
	return &DataType{Root: DecimalRoot, Nullable: true, Precision: p, Scale: s}
}

// TimeType is TIME(p): time of day without zone, p fractional-second digits (0..9).
func TimeType(p int) *DataType { return &DataType{Root: TimeRoot, Nullable: true, Precision: p} }

// TimestampType is TIMESTAMP(p) WITHOUT TIME ZONE, p in 0..9.
func TimestampType(p int) *DataType {
	return &DataType{Root: TimestampRoot, Nullable: true, Precision: p}
}

// TimestampLTZType is TIMESTAMP_LTZ(p) (TIMESTAMP(p) WITH LOCAL TIME ZONE):
// an instant, shown in the session time zone (table.local-time-zone).
func TimestampLTZType(p int) *DataType {
	return &DataType{Root: TimestampLTZRoot, Nullable: true, Precision: p}
}

// IntervalYearMonthType is an INTERVAL YEAR TO MONTH family type; p is the
// year precision (Flink's default 2).
func IntervalYearMonthType(res IntervalResolution, p int) *DataType {
	return &DataType{Root: IntervalYearMonthRoot, Nullable: true, Resolution: res, Precision: p}
}

// IntervalDayTimeType is an INTERVAL DAY TO SECOND family type; dayP is the
// day precision (default 2), fracP the fractional-second precision (default 6).
func IntervalDayTimeType(res IntervalResolution, dayP, fracP int) *DataType {
	return &DataType{Root: IntervalDayTimeRoot, Nullable: true, Resolution: res, Precision: dayP, Scale: fracP}
}

// ArrayType is ARRAY<elem>.
func ArrayType(elem *DataType) *DataType {
	return &DataType{Root: ArrayRoot, Nullable: true, Elem: elem}
}

// MultisetType is MULTISET<elem>.
func MultisetType(elem *DataType) *DataType {
	return &DataType{Root: MultisetRoot, Nullable: true, Elem: elem}
}

// MapType is MAP<key, value>.
func MapType(key, value *DataType) *DataType {
	return &DataType{Root: MapRoot, Nullable: true, Key: key, Value: value}
}

// RowType is ROW<fields...>.
func RowType(fields ...Field) *DataType {
	return &DataType{Root: RowRoot, Nullable: true, Fields: fields}
}

// NewField builds a ROW field.
func NewField(name string, t *DataType) Field { return Field{Name: name, Type: t} }

// RawType is RAW('name', ...): an opaque Go value.
func RawType(name string) *DataType { return &DataType{Root: Raw, Nullable: true, RawName: name} }

// VariantType is VARIANT: a semi-structured value (a JSON document's
// object, array or scalar); its Go value is Variant.
func VariantType() *DataType { return simple(VariantRoot) }

// SymbolType is the internal type of flag arguments (TRIM BOTH, time units).
func SymbolType() *DataType { return &DataType{Root: Symbol, Nullable: false} }

// Copy returns a shallow copy.
func (t *DataType) Copy() *DataType {
	c := *t
	return &c
}

// NotNull returns a copy with Nullable=false.
func (t *DataType) NotNull() *DataType { return t.WithNullable(false) }

// AsNullable returns a copy with Nullable=true (Flink's DataType.nullable()).
func (t *DataType) AsNullable() *DataType { return t.WithNullable(true) }

// WithNullable returns a copy with the given nullability (t itself when equal).
func (t *DataType) WithNullable(n bool) *DataType {
	if t.Nullable == n {
		return t
	}
	c := *t
	c.Nullable = n
	return &c
}

// WithTimeAttr returns a copy marked as rowtime or proctime attribute.
func (t *DataType) WithTimeAttr(a TimeAttr) *DataType {
	if t.TimeAttr == a {
		return t
	}
	c := *t
	c.TimeAttr = a
	return &c
}

// IsString reports CHAR/VARCHAR.
func (t *DataType) IsString() bool { return t.Root == Char || t.Root == VarChar }

// IsBinary reports BINARY/VARBINARY.
func (t *DataType) IsBinary() bool { return t.Root == Binary || t.Root == VarBinary }

// IsIntegral reports TINYINT, SMALLINT, INT, BIGINT.
func (t *DataType) IsIntegral() bool {
	switch t.Root {
	case TinyInt, SmallInt, Integer, BigInt:
		return true
	}
	return false
}

// IsApproxNumeric reports FLOAT and DOUBLE.
func (t *DataType) IsApproxNumeric() bool { return t.Root == Float || t.Root == Double }

// IsNumeric reports the exact and approximate numeric types.
func (t *DataType) IsNumeric() bool {
	return t.IsIntegral() || t.IsApproxNumeric() || t.Root == DecimalRoot
}

// IsTimestamp reports TIMESTAMP and TIMESTAMP_LTZ.
func (t *DataType) IsTimestamp() bool {
	return t.Root == TimestampRoot || t.Root == TimestampLTZRoot
}

// IsDatetime reports DATE, TIME, TIMESTAMP and TIMESTAMP_LTZ.
func (t *DataType) IsDatetime() bool {
	return t.Root == DateRoot || t.Root == TimeRoot || t.IsTimestamp()
}

// IsInterval reports both interval families.
func (t *DataType) IsInterval() bool {
	return t.Root == IntervalYearMonthRoot || t.Root == IntervalDayTimeRoot
}

// IsComparable reports whether values can be ordered (ORDER BY, MIN/MAX).
func (t *DataType) IsComparable() bool {
	switch t.Root {
	case ArrayRoot, MapRoot, MultisetRoot, RowRoot, Raw, VariantRoot:
		return false
	}
	return true
}

// IsRowtime reports a rowtime attribute.
func (t *DataType) IsRowtime() bool { return t.TimeAttr == Rowtime }

// IsProctime reports a proctime attribute.
func (t *DataType) IsProctime() bool { return t.TimeAttr == Proctime }

// IntegralRank orders integral types by width (TINYINT=1 .. BIGINT=4), 0 otherwise.
func (t *DataType) IntegralRank() int {
	switch t.Root {
	case TinyInt:
		return 1
	case SmallInt:
		return 2
	case Integer:
		return 3
	case BigInt:
		return 4
	}
	return 0
}

// IntegralPrecision is the decimal precision that holds every value of an
// integral type (Flink: TINYINT 3, SMALLINT 5, INT 10, BIGINT 19).
func (t *DataType) IntegralPrecision() int {
	switch t.Root {
	case TinyInt:
		return 3
	case SmallInt:
		return 5
	case Integer:
		return 10
	case BigInt:
		return 19
	}
	return 0
}

// Equals compares two types including nullability and parameters, but not
// time-attribute markers or field descriptions.
func (t *DataType) Equals(o *DataType) bool {
	if t == o {
		return true
	}
	if t == nil || o == nil {
		return false
	}
	return t.Nullable == o.Nullable && t.EqualsIgnoreNull(o)
}

// EqualsIgnoreNull compares two types ignoring top-level nullability.
func (t *DataType) EqualsIgnoreNull(o *DataType) bool {
	if t == o {
		return true
	}
	if t == nil || o == nil {
		return false
	}
	if t.Root != o.Root || t.Length != o.Length || t.Precision != o.Precision ||
		t.Scale != o.Scale || t.Resolution != o.Resolution || t.RawName != o.RawName {
		return false
	}
	if (t.Elem != nil || o.Elem != nil) && !t.Elem.Equals(o.Elem) {
		return false
	}
	if (t.Key != nil || o.Key != nil) && (!t.Key.Equals(o.Key) || !t.Value.Equals(o.Value)) {
		return false
	}
	if len(t.Fields) != len(o.Fields) {
		return false
	}
	for i := range t.Fields {
		if t.Fields[i].Name != o.Fields[i].Name || !t.Fields[i].Type.Equals(o.Fields[i].Type) {
			return false
		}
	}
	return true
}

// String renders Flink's summary string of the type, e.g. "INT NOT NULL",
// "STRING", "DECIMAL(10, 2)", "TIMESTAMP(3) *ROWTIME*", "ARRAY<INT>".
func (t *DataType) String() string {
	if t == nil {
		return "<nil>"
	}
	var b strings.Builder
	t.write(&b, true)
	return b.String()
}

// SQLString renders the type as it is written in DDL (no time-attribute
// markers), e.g. "TIMESTAMP(3)" for a rowtime column.
func (t *DataType) SQLString() string {
	var b strings.Builder
	t.write(&b, false)
	return b.String()
}

// StringNoNull renders the type without its " NOT NULL" suffix (DESCRIBE
// shows nullability in its own column).
func (t *DataType) StringNoNull() string { return t.WithNullable(true).String() }

func (t *DataType) write(b *strings.Builder, markers bool) {
	switch t.Root {
	case Char:
		fmt.Fprintf(b, "CHAR(%d)", t.Length)
	case VarChar:
		if t.Length == MaxLength {
			b.WriteString("STRING")
		} else {
			fmt.Fprintf(b, "VARCHAR(%d)", t.Length)
		}
	case Binary:
		fmt.Fprintf(b, "BINARY(%d)", t.Length)
	case VarBinary:
		if t.Length == MaxLength {
			b.WriteString("BYTES")
		} else {
			fmt.Fprintf(b, "VARBINARY(%d)", t.Length)
		}
	case DecimalRoot:
		fmt.Fprintf(b, "DECIMAL(%d, %d)", t.Precision, t.Scale)
	case TimeRoot:
		fmt.Fprintf(b, "TIME(%d)", t.Precision)
	case TimestampRoot:
		fmt.Fprintf(b, "TIMESTAMP(%d)", t.Precision)
	case TimestampLTZRoot:
		fmt.Fprintf(b, "TIMESTAMP_LTZ(%d)", t.Precision)
	case IntervalYearMonthRoot:
		switch t.Resolution {
		case ResYear:
			fmt.Fprintf(b, "INTERVAL YEAR(%d)", t.Precision)
		case ResMonth:
			b.WriteString("INTERVAL MONTH")
		default:
			fmt.Fprintf(b, "INTERVAL YEAR(%d) TO MONTH", t.Precision)
		}
	case IntervalDayTimeRoot:
		b.WriteString(dayTimeString(t))
	case ArrayRoot:
		b.WriteString("ARRAY<")
		t.Elem.write(b, markers)
		b.WriteString(">")
	case MultisetRoot:
		b.WriteString("MULTISET<")
		t.Elem.write(b, markers)
		b.WriteString(">")
	case MapRoot:
		b.WriteString("MAP<")
		t.Key.write(b, markers)
		b.WriteString(", ")
		t.Value.write(b, markers)
		b.WriteString(">")
	case RowRoot:
		b.WriteString("ROW<")
		for i, f := range t.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(QuoteIdent(f.Name))
			b.WriteByte(' ')
			f.Type.write(b, markers)
			if f.Description != "" {
				fmt.Fprintf(b, " '%s'", strings.ReplaceAll(f.Description, "'", "''"))
			}
		}
		b.WriteString(">")
	case Raw:
		fmt.Fprintf(b, "RAW('%s', '...')", t.RawName)
	default:
		b.WriteString(t.Root.String())
	}
	if !t.Nullable && t.Root != Symbol {
		b.WriteString(" NOT NULL")
	}
	if markers {
		switch t.TimeAttr {
		case Rowtime:
			b.WriteString(" *ROWTIME*")
		case Proctime:
			b.WriteString(" *PROCTIME*")
		}
	}
}

func dayTimeString(t *DataType) string {
	d, f := t.Precision, t.Scale
	switch t.Resolution {
	case ResDay:
		return fmt.Sprintf("INTERVAL DAY(%d)", d)
	case ResDayToHour:
		return fmt.Sprintf("INTERVAL DAY(%d) TO HOUR", d)
	case ResDayToMinute:
		return fmt.Sprintf("INTERVAL DAY(%d) TO MINUTE", d)
	case ResHour:
		return "INTERVAL HOUR"
	case ResHourToMinute:
		return "INTERVAL HOUR TO MINUTE"
	case ResHourToSecond:
		return fmt.Sprintf("INTERVAL HOUR TO SECOND(%d)", f)
	case ResMinute:
		return "INTERVAL MINUTE"
	case ResMinuteToSecond:
		return fmt.Sprintf("INTERVAL MINUTE TO SECOND(%d)", f)
	case ResSecond:
		return fmt.Sprintf("INTERVAL SECOND(%d)", f)
	default:
		return fmt.Sprintf("INTERVAL DAY(%d) TO SECOND(%d)", d, f)
	}
}

// QuoteIdent quotes an identifier with backticks, doubling inner backticks.
func QuoteIdent(s string) string {
	return "`" + strings.ReplaceAll(s, "`", "``") + "`"
}

// FieldIndex returns the index of the ROW field with the given name, or -1.
func (t *DataType) FieldIndex(name string) int {
	for i, f := range t.Fields {
		if f.Name == name {
			return i
		}
	}
	return -1
}
