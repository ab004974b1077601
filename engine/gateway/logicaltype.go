package gateway

import (
	"encoding/json"
	"fmt"
	"strconv"

	jsonformat "github.com/riffle-sql/riffle/engine/connector/format/json"
	"github.com/riffle-sql/riffle/engine/types"
)

// Logical types travel as Flink's LogicalTypeJsonSerializer writes them:
//
//	{"type":"INTEGER","nullable":false}
//	{"type":"VARCHAR","nullable":true,"length":2147483647}
//	{"type":"DECIMAL","nullable":true,"precision":10,"scale":2}
//	{"type":"TIMESTAMP_WITHOUT_TIME_ZONE","nullable":true,"precision":3}
//	{"type":"ARRAY","nullable":true,"elementType":{...}}
//	{"type":"MAP","nullable":true,"keyType":{...},"valueType":{...}}
//	{"type":"ROW","nullable":true,"fields":[{"name":"a","fieldType":{...}}]}
//	{"type":"INTERVAL_DAY_TIME","nullable":true,"precision":2,"fractionalPrecision":3,"resolution":"DAY_TO_SECOND"}
//	{"type":"NULL"}
//	{"type":"VARIANT","nullable":true}
//
// "type" is the LogicalTypeRoot name; NULL carries nothing else.

// typeRootName is the LogicalTypeRoot name of a type.
func typeRootName(t *types.DataType) string {
	switch t.Root {
	case types.Char:
		return "CHAR"
	case types.VarChar:
		return "VARCHAR"
	case types.Boolean:
		return "BOOLEAN"
	case types.Binary:
		return "BINARY"
	case types.VarBinary:
		return "VARBINARY"
	case types.DecimalRoot:
		return "DECIMAL"
	case types.TinyInt:
		return "TINYINT"
	case types.SmallInt:
		return "SMALLINT"
	case types.Integer:
		return "INTEGER"
	case types.BigInt:
		return "BIGINT"
	case types.Float:
		return "FLOAT"
	case types.Double:
		return "DOUBLE"
	case types.DateRoot:
		return "DATE"
	case types.TimeRoot:
		return "TIME_WITHOUT_TIME_ZONE"
	case types.TimestampRoot:
		return "TIMESTAMP_WITHOUT_TIME_ZONE"
	case types.TimestampLTZRoot:
		return "TIMESTAMP_WITH_LOCAL_TIME_ZONE"
	case types.IntervalYearMonthRoot:
		return "INTERVAL_YEAR_MONTH"
	case types.IntervalDayTimeRoot:
		return "INTERVAL_DAY_TIME"
	case types.ArrayRoot:
		return "ARRAY"
	case types.MultisetRoot:
		return "MULTISET"
	case types.MapRoot:
		return "MAP"
	case types.RowRoot:
		return "ROW"
	case types.Null:
		return "NULL"
	case types.Raw:
		return "RAW"
	case types.Symbol:
		return "SYMBOL"
	case types.Descriptor:
		return "DESCRIPTOR"
	case types.VariantRoot:
		return "VARIANT"
	}
	return "UNRESOLVED"
}

var yearMonthResolutions = map[types.IntervalResolution]string{
	types.ResYear: "YEAR", types.ResYearToMonth: "YEAR_TO_MONTH", types.ResMonth: "MONTH",
}

var dayTimeResolutions = map[types.IntervalResolution]string{
	types.ResDay: "DAY", types.ResDayToHour: "DAY_TO_HOUR", types.ResDayToMinute: "DAY_TO_MINUTE",
	types.ResDayToSecond: "DAY_TO_SECOND", types.ResHour: "HOUR", types.ResHourToMinute: "HOUR_TO_MINUTE",
	types.ResHourToSecond: "HOUR_TO_SECOND", types.ResMinute: "MINUTE", types.ResMinuteToSecond: "MINUTE_TO_SECOND",
	types.ResSecond: "SECOND",
}

// Flink's defaults for interval precisions.
const (
	defaultYearPrecision       = 2
	defaultDayPrecision        = 2
	defaultFractionalPrecision = 6
)

// AppendLogicalType appends t as Flink's LogicalTypeJsonSerializer writes
// it.
func AppendLogicalType(buf []byte, t *types.DataType) []byte {
	buf = append(buf, `{"type":"`...)
	buf = append(buf, typeRootName(t)...)
	buf = append(buf, '"')
	if t.Root == types.Null {
		return append(buf, '}')
	}
	buf = append(buf, `,"nullable":`...)
	buf = strconv.AppendBool(buf, t.Nullable)
	num := func(name string, v int) {
		buf = append(buf, ',', '"')
		buf = append(buf, name...)
		buf = append(buf, '"', ':')
		buf = strconv.AppendInt(buf, int64(v), 10)
	}
	str := func(name, v string) {
		buf = append(buf, ',', '"')
		buf = append(buf, name...)
		buf = append(buf, '"', ':')
		buf = jsonformat.AppendString(buf, v)
	}
	switch t.Root {
	case types.Char, types.VarChar, types.Binary, types.VarBinary:
		num("length", t.Length)
	case types.DecimalRoot:
		num("precision", t.Precision)
		num("scale", t.Scale)
	case types.TimeRoot, types.TimestampRoot, types.TimestampLTZRoot:
		num("precision", t.Precision)
	case types.IntervalYearMonthRoot:
		p := t.Precision
		if p == 0 {
			p = defaultYearPrecision
		}
		num("precision", p)
		str("resolution", yearMonthResolutions[t.Resolution])
	case types.IntervalDayTimeRoot:
		p, f := t.Precision, t.Scale
		if p == 0 {
			p = defaultDayPrecision
		}
		switch t.Resolution {
		case types.ResDayToSecond, types.ResHourToSecond, types.ResMinuteToSecond, types.ResSecond:
		default:
			if f == 0 {
				f = defaultFractionalPrecision
			}
		}
		num("precision", p)
		num("fractionalPrecision", f)
		str("resolution", dayTimeResolutions[t.Resolution])
	case types.ArrayRoot, types.MultisetRoot:
		buf = append(buf, `,"elementType":`...)
		buf = AppendLogicalType(buf, t.Elem)
	case types.MapRoot:
		buf = append(buf, `,"keyType":`...)
		buf = AppendLogicalType(buf, t.Key)
		buf = append(buf, `,"valueType":`...)
		buf = AppendLogicalType(buf, t.Value)
	case types.RowRoot:
		buf = append(buf, `,"fields":[`...)
		for i, f := range t.Fields {
			if i > 0 {
				buf = append(buf, ',')
			}
			buf = append(buf, `{"name":`...)
			buf = jsonformat.AppendString(buf, f.Name)
			buf = append(buf, `,"fieldType":`...)
			buf = AppendLogicalType(buf, f.Type)
			if f.Description != "" {
				buf = append(buf, `,"description":`...)
				buf = jsonformat.AppendString(buf, f.Description)
			}
			buf = append(buf, '}')
		}
		buf = append(buf, ']')
	case types.Raw:
		str("class", t.RawName)
		str("serializer", "")
	}
	return append(buf, '}')
}

// logicalTypeJSON mirrors the serialized form for decoding.
type logicalTypeJSON struct {
	Type                string           `json:"type"`
	Nullable            *bool            `json:"nullable"`
	Length              int              `json:"length"`
	Precision           *int             `json:"precision"`
	Scale               int              `json:"scale"`
	ElementType         *logicalTypeJSON `json:"elementType"`
	KeyType             *logicalTypeJSON `json:"keyType"`
	ValueType           *logicalTypeJSON `json:"valueType"`
	Fields              []fieldJSON      `json:"fields"`
	Resolution          string           `json:"resolution"`
	FractionalPrecision *int             `json:"fractionalPrecision"`
	Class               string           `json:"class"`
}

type fieldJSON struct {
	Name        string           `json:"name"`
	FieldType   *logicalTypeJSON `json:"fieldType"`
	Description string           `json:"description"`
}

// ParseLogicalType decodes a logical type written by Flink's
// LogicalTypeJsonSerializer (or AppendLogicalType).
func ParseLogicalType(data []byte) (*types.DataType, error) {
	var j logicalTypeJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("gateway: bad logical type %s: %w", data, err)
	}
	return j.dataType()
}

// UnmarshalJSON lets encoding/json decode a logical type into a
// *ColumnType.
func (c *ColumnType) UnmarshalJSON(data []byte) error {
	t, err := ParseLogicalType(data)
	if err != nil {
		return err
	}
	c.DataType = t
	return nil
}

// MarshalJSON writes the logical type as Flink does.
func (c ColumnType) MarshalJSON() ([]byte, error) {
	if c.DataType == nil {
		return []byte("null"), nil
	}
	return AppendLogicalType(nil, c.DataType), nil
}

// ColumnType wraps a logical type for JSON encoding and decoding.
type ColumnType struct{ *types.DataType }

func (j *logicalTypeJSON) dataType() (*types.DataType, error) {
	if j == nil {
		return nil, fmt.Errorf("gateway: missing logical type")
	}
	prec := func(def int) int {
		if j.Precision != nil {
			return *j.Precision
		}
		return def
	}
	var t *types.DataType
	switch j.Type {
	case "CHAR":
		t = types.CharType(j.Length)
	case "VARCHAR":
		t = types.VarCharType(j.Length)
	case "BOOLEAN":
		t = types.BooleanType()
	case "VARIANT":
		t = types.VariantType()
	case "BINARY":
		t = types.BinaryType(j.Length)
	case "VARBINARY":
		t = types.VarBinaryType(j.Length)
	case "DECIMAL":
		t = types.DecimalType(prec(10), j.Scale)
	case "TINYINT":
		t = types.TinyIntType()
	case "SMALLINT":
		t = types.SmallIntType()
	case "INTEGER":
		t = types.IntType()
	case "BIGINT":
		t = types.BigIntType()
	case "FLOAT":
		t = types.FloatType()
	case "DOUBLE":
		t = types.DoubleType()
	case "DATE":
		t = types.DateType()
	case "TIME_WITHOUT_TIME_ZONE":
		t = types.TimeType(prec(0))
	case "TIMESTAMP_WITHOUT_TIME_ZONE":
		t = types.TimestampType(prec(6))
	case "TIMESTAMP_WITH_LOCAL_TIME_ZONE", "TIMESTAMP_WITH_TIME_ZONE":
		t = types.TimestampLTZType(prec(6))
	case "INTERVAL_YEAR_MONTH":
		res := types.ResYearToMonth
		for r, name := range yearMonthResolutions {
			if name == j.Resolution {
				res = r
			}
		}
		t = types.IntervalYearMonthType(res, prec(defaultYearPrecision))
	case "INTERVAL_DAY_TIME":
		res := types.ResDayToSecond
		for r, name := range dayTimeResolutions {
			if name == j.Resolution {
				res = r
			}
		}
		f := defaultFractionalPrecision
		if j.FractionalPrecision != nil {
			f = *j.FractionalPrecision
		}
		t = types.IntervalDayTimeType(res, prec(defaultDayPrecision), f)
	case "ARRAY", "MULTISET":
		e, err := j.ElementType.dataType()
		if err != nil {
			return nil, err
		}
		if j.Type == "ARRAY" {
			t = types.ArrayType(e)
		} else {
			t = types.MultisetType(e)
		}
	case "MAP":
		k, err := j.KeyType.dataType()
		if err != nil {
			return nil, err
		}
		v, err := j.ValueType.dataType()
		if err != nil {
			return nil, err
		}
		t = types.MapType(k, v)
	case "ROW":
		fields := make([]types.Field, len(j.Fields))
		for i, f := range j.Fields {
			ft, err := f.FieldType.dataType()
			if err != nil {
				return nil, err
			}
			fields[i] = types.Field{Name: f.Name, Type: ft, Description: f.Description}
		}
		t = types.RowType(fields...)
	case "NULL":
		return types.NullType(), nil
	case "RAW":
		t = types.RawType(j.Class)
	default:
		return nil, fmt.Errorf("gateway: unsupported logical type %q", j.Type)
	}
	if j.Nullable != nil && !*j.Nullable {
		t = t.NotNull()
	}
	return t, nil
}
