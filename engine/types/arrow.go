package types

import (
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
)

// TimestampUnit is the Arrow unit Riffle stores a TIMESTAMP(p) /
// TIMESTAMP_LTZ(p) / TIME(p) column in: milliseconds for p <= 3,
// microseconds for p <= 6, nanoseconds above.
func TimestampUnit(precision int) arrow.TimeUnit {
	switch {
	case precision <= 3:
		return arrow.Millisecond
	case precision <= 6:
		return arrow.Microsecond
	default:
		return arrow.Nanosecond
	}
}

// UnitsPerSecond is the number of units of u in one second.
func UnitsPerSecond(u arrow.TimeUnit) int64 {
	switch u {
	case arrow.Second:
		return 1
	case arrow.Millisecond:
		return 1_000
	case arrow.Microsecond:
		return 1_000_000
	default:
		return 1_000_000_000
	}
}

// ToArrow maps a logical type to the Arrow type Riffle stores it in:
//
//	BOOLEAN→Boolean, TINYINT→Int8, SMALLINT→Int16, INT→Int32, BIGINT→Int64,
//	FLOAT→Float32, DOUBLE→Float64, DECIMAL(p,s)→Decimal128(p,s),
//	CHAR/VARCHAR→String, BINARY/VARBINARY→Binary, DATE→Date32,
//	TIME(p)→Time32(ms) for p<=3 else Time64(ns),
//	TIMESTAMP(p)→Timestamp(unit by p, no zone),
//	TIMESTAMP_LTZ(p)→Timestamp(unit by p, "UTC"),
//	INTERVAL YEAR TO MONTH→MonthInterval, INTERVAL DAY TO SECOND→Duration(ms),
//	ARRAY→List, MULTISET and MAP→Map, ROW→Struct, NULL→Null, RAW→Binary,
//	VARIANT→Binary (Variant's encoding).
func ToArrow(t *DataType) arrow.DataType {
	switch t.Root {
	case Boolean:
		return arrow.FixedWidthTypes.Boolean
	case TinyInt:
		return arrow.PrimitiveTypes.Int8
	case SmallInt:
		return arrow.PrimitiveTypes.Int16
	case Integer:
		return arrow.PrimitiveTypes.Int32
	case BigInt:
		return arrow.PrimitiveTypes.Int64
	case Float:
		return arrow.PrimitiveTypes.Float32
	case Double:
		return arrow.PrimitiveTypes.Float64
	case DecimalRoot:
		return &arrow.Decimal128Type{Precision: int32(t.Precision), Scale: int32(t.Scale)}
	case Char, VarChar:
		return arrow.BinaryTypes.String
	case Binary, VarBinary, Raw, VariantRoot:
		return arrow.BinaryTypes.Binary
	case DateRoot:
		return arrow.FixedWidthTypes.Date32
	case TimeRoot:
		if t.Precision <= 3 {
			return arrow.FixedWidthTypes.Time32ms
		}
		return arrow.FixedWidthTypes.Time64ns
	case TimestampRoot:
		return &arrow.TimestampType{Unit: TimestampUnit(t.Precision)}
	case TimestampLTZRoot:
		return &arrow.TimestampType{Unit: TimestampUnit(t.Precision), TimeZone: "UTC"}
	case IntervalYearMonthRoot:
		return arrow.FixedWidthTypes.MonthInterval
	case IntervalDayTimeRoot:
		return arrow.FixedWidthTypes.Duration_ms
	case ArrayRoot:
		return arrow.ListOf(ToArrow(t.Elem))
	case MultisetRoot:
		return arrow.MapOf(ToArrow(t.Elem), arrow.PrimitiveTypes.Int32)
	case MapRoot:
		return arrow.MapOf(ToArrow(t.Key), ToArrow(t.Value))
	case RowRoot:
		fields := make([]arrow.Field, len(t.Fields))
		for i, f := range t.Fields {
			fields[i] = arrow.Field{Name: f.Name, Type: ToArrow(f.Type), Nullable: f.Type.Nullable}
		}
		return arrow.StructOf(fields...)
	case Null:
		return arrow.Null
	}
	panic(fmt.Sprintf("types.ToArrow: no Arrow mapping for %s", t))
}

// FromArrow maps an Arrow type back to a logical type (nullable). Types
// Riffle does not produce map to their closest Flink type: Uint32→BIGINT,
// LargeString→STRING, Timestamp(s)→TIMESTAMP(0), Date64→DATE,
// Time32(s)→TIME(0), Time64(us)→TIME(6). It fails for types without a
// Flink counterpart (e.g. Uint64, dense unions).
func FromArrow(t arrow.DataType) (*DataType, error) {
	switch t.ID() {
	case arrow.BOOL:
		return BooleanType(), nil
	case arrow.INT8:
		return TinyIntType(), nil
	case arrow.INT16, arrow.UINT8:
		return SmallIntType(), nil
	case arrow.INT32, arrow.UINT16:
		return IntType(), nil
	case arrow.INT64, arrow.UINT32:
		return BigIntType(), nil
	case arrow.FLOAT16, arrow.FLOAT32:
		return FloatType(), nil
	case arrow.FLOAT64:
		return DoubleType(), nil
	case arrow.DECIMAL128:
		d := t.(*arrow.Decimal128Type)
		return DecimalType(int(d.Precision), int(d.Scale)), nil
	case arrow.STRING, arrow.LARGE_STRING, arrow.STRING_VIEW:
		return StringType(), nil
	case arrow.BINARY, arrow.LARGE_BINARY, arrow.BINARY_VIEW:
		return BytesType(), nil
	case arrow.FIXED_SIZE_BINARY:
		return BinaryType(t.(*arrow.FixedSizeBinaryType).ByteWidth), nil
	case arrow.DATE32, arrow.DATE64:
		return DateType(), nil
	case arrow.TIME32:
		if t.(*arrow.Time32Type).Unit == arrow.Second {
			return TimeType(0), nil
		}
		return TimeType(3), nil
	case arrow.TIME64:
		if t.(*arrow.Time64Type).Unit == arrow.Microsecond {
			return TimeType(6), nil
		}
		return TimeType(9), nil
	case arrow.TIMESTAMP:
		ts := t.(*arrow.TimestampType)
		p := map[arrow.TimeUnit]int{arrow.Second: 0, arrow.Millisecond: 3, arrow.Microsecond: 6, arrow.Nanosecond: 9}[ts.Unit]
		if ts.TimeZone != "" {
			return TimestampLTZType(p), nil
		}
		return TimestampType(p), nil
	case arrow.INTERVAL_MONTHS:
		return IntervalYearMonthType(ResYearToMonth, 2), nil
	case arrow.DURATION:
		return IntervalDayTimeType(ResDayToSecond, 2, 3), nil
	case arrow.LIST, arrow.LARGE_LIST, arrow.FIXED_SIZE_LIST:
		elem, err := FromArrow(t.(arrow.ListLikeType).Elem())
		if err != nil {
			return nil, err
		}
		return ArrayType(elem), nil
	case arrow.MAP:
		m := t.(*arrow.MapType)
		k, err := FromArrow(m.KeyType())
		if err != nil {
			return nil, err
		}
		v, err := FromArrow(m.ItemType())
		if err != nil {
			return nil, err
		}
		return MapType(k.NotNull(), v), nil
	case arrow.STRUCT:
		st := t.(*arrow.StructType)
		fields := make([]Field, st.NumFields())
		for i, f := range st.Fields() {
			ft, err := FromArrow(f.Type)
			if err != nil {
				return nil, err
			}
			fields[i] = Field{Name: f.Name, Type: ft.WithNullable(f.Nullable)}
		}
		return RowType(fields...), nil
	case arrow.NULL:
		return NullType(), nil
	}
	return nil, fmt.Errorf("arrow type %s has no Flink counterpart", t)
}

// ArrowSchema builds an Arrow schema for named columns.
func ArrowSchema(names []string, ts []*DataType) *arrow.Schema {
	fields := make([]arrow.Field, len(names))
	for i := range names {
		fields[i] = arrow.Field{Name: names[i], Type: ToArrow(ts[i]), Nullable: ts[i].Nullable}
	}
	return arrow.NewSchema(fields, nil)
}
