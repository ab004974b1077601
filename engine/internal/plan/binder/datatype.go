package binder

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

func (b *binder) dataType(t *sql.DataType) *types.DataType {
	dt, err := ConvertType(t)
	if err != nil {
		b.failAt(t, "%v", err)
	}
	return dt
}

// ConvertType converts a parsed data type to a logical type, with Flink's
// SQL defaults (DECIMAL = DECIMAL(10, 0), CHAR = CHAR(1), VARCHAR =
// STRING, TIME = TIME(0), TIMESTAMP = TIMESTAMP(6), TIMESTAMP_LTZ =
// TIMESTAMP_LTZ(6), BINARY = BINARY(1), VARBINARY = BYTES) and range
// checks. In SQL text a VARCHAR or VARBINARY without a length has the
// maximum length: FlinkTypeSystem.getDefaultPrecision returns
// Integer.MAX_VALUE for them (unlike DataTypes.VARCHAR in the Table API).
func ConvertType(t *sql.DataType) (*types.DataType, error) {
	dt, err := convertType(t)
	if err != nil {
		return nil, err
	}
	if t.NotNull {
		dt = dt.NotNull()
	}
	return dt, nil
}

func param(t *sql.DataType, i, def int) int {
	if i < len(t.Params) {
		return t.Params[i]
	}
	return def
}

func convertType(t *sql.DataType) (*types.DataType, error) {
	switch t.Name {
	case "BOOLEAN":
		return types.BooleanType(), nil
	case "TINYINT":
		return types.TinyIntType(), nil
	case "SMALLINT":
		return types.SmallIntType(), nil
	case "INT":
		return types.IntType(), nil
	case "BIGINT":
		return types.BigIntType(), nil
	case "FLOAT", "REAL":
		return types.FloatType(), nil
	case "DOUBLE":
		return types.DoubleType(), nil
	case "DECIMAL":
		p, s := param(t, 0, 10), param(t, 1, 0)
		if p < 1 || p > types.MaxDecimalPrecision {
			return nil, fmt.Errorf("Decimal precision must be between 1 and 38 (both inclusive)")
		}
		if s < 0 || s > p {
			return nil, fmt.Errorf("Decimal scale must be between 0 and the precision %d (both inclusive)", p)
		}
		return types.DecimalType(p, s), nil
	case "CHAR":
		n := param(t, 0, 1)
		if n < 1 {
			return nil, fmt.Errorf("Character string length must be between 1 and %d (both inclusive)", types.MaxLength)
		}
		return types.CharType(n), nil
	case "VARCHAR":
		n := param(t, 0, types.MaxLength)
		if n < 1 {
			return nil, fmt.Errorf("Variable character string length must be between 1 and %d (both inclusive)", types.MaxLength)
		}
		return types.VarCharType(n), nil
	case "STRING":
		return types.StringType(), nil
	case "BINARY":
		return types.BinaryType(param(t, 0, 1)), nil
	case "VARBINARY":
		return types.VarBinaryType(param(t, 0, types.MaxLength)), nil
	case "BYTES":
		return types.BytesType(), nil
	case "VARIANT":
		return types.VariantType(), nil
	case "DATE":
		return types.DateType(), nil
	case "TIME":
		p := param(t, 0, 0)
		if p < 0 || p > 9 {
			return nil, fmt.Errorf("Time precision must be between 0 and 9 (both inclusive)")
		}
		return types.TimeType(p), nil
	case "TIMESTAMP":
		p := param(t, 0, 6)
		if p < 0 || p > 9 {
			return nil, fmt.Errorf("Timestamp precision must be between 0 and 9 (both inclusive)")
		}
		switch t.TimeZone {
		case "WITH LOCAL TIME ZONE":
			return types.TimestampLTZType(p), nil
		case "WITH TIME ZONE":
			return nil, fmt.Errorf("TIMESTAMP WITH TIME ZONE is not supported; use TIMESTAMP_LTZ")
		}
		return types.TimestampType(p), nil
	case "TIMESTAMP_LTZ":
		p := param(t, 0, 6)
		if p < 0 || p > 9 {
			return nil, fmt.Errorf("Timestamp precision must be between 0 and 9 (both inclusive)")
		}
		return types.TimestampLTZType(p), nil
	case "INTERVAL":
		it, err := IntervalType(t.Interval)
		if err != nil {
			return nil, err
		}
		return it.AsNullable(), nil
	case "ARRAY", "MULTISET":
		if t.Elem == nil {
			return nil, fmt.Errorf("%s needs an element type", t.Name)
		}
		e, err := ConvertType(t.Elem)
		if err != nil {
			return nil, err
		}
		if t.Name == "ARRAY" {
			return types.ArrayType(e), nil
		}
		return types.MultisetType(e), nil
	case "MAP":
		k, err := ConvertType(t.Key)
		if err != nil {
			return nil, err
		}
		v, err := ConvertType(t.Value)
		if err != nil {
			return nil, err
		}
		return types.MapType(k, v), nil
	case "ROW":
		fields := make([]types.Field, len(t.Fields))
		seen := map[string]bool{}
		for i, f := range t.Fields {
			ft, err := ConvertType(f.Type)
			if err != nil {
				return nil, err
			}
			if seen[f.Name.Name] {
				return nil, fmt.Errorf("Field names must be unique. Found duplicates: [%s]", f.Name.Name)
			}
			seen[f.Name.Name] = true
			fields[i] = types.Field{Name: f.Name.Name, Type: ft}
			if f.Comment != nil {
				fields[i].Description = *f.Comment
			}
		}
		return types.RowType(fields...), nil
	case "RAW":
		return types.RawType(t.RawClass), nil
	case "NULL":
		return types.NullType(), nil
	}
	if t.UserType != nil {
		return nil, fmt.Errorf("Unknown type '%s'", t.UserType)
	}
	return nil, fmt.Errorf("Unsupported type %s", t.Name)
}
