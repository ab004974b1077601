package common

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// TypeInformation describes the type of DataStream records (PyFlink's
// TypeInformation). In Riffle a type information is a logical data type
// with the nullability rules of Flink's Java types: primitive wrappers
// (Types.INT, ...) and rows do not accept null, BigDecimal, String and SQL
// time types do.
type TypeInformation struct {
	name string
	dt   *types.DataType
}

// DataType returns the logical type.
func (t *TypeInformation) DataType() *types.DataType { return t.dt }

// String renders the Java-style name, e.g. "Integer", "Row(a: Integer)".
func (t *TypeInformation) String() string { return t.name }

// Arity is the number of fields of a row or tuple, 1 otherwise.
func (t *TypeInformation) Arity() int {
	if t.dt.Root == types.RowRoot {
		return len(t.dt.Fields)
	}
	return 1
}

// NeedConversion reports whether values need converting between Go and
// the engine's representation (PyFlink's need_conversion): rows, arrays
// and maps do.
func (t *TypeInformation) NeedConversion() bool {
	switch t.dt.Root {
	case types.RowRoot, types.ArrayRoot, types.MapRoot, types.MultisetRoot:
		return true
	}
	return false
}

// ToInternalType checks a Go value against the type (nil where the type
// does not accept null is an error) and returns it (PyFlink's
// to_internal_type).
func (t *TypeInformation) ToInternalType(v any) (any, error) {
	if v == nil {
		if !t.dt.Nullable {
			return nil, fmt.Errorf("%s does not accept null", t.name)
		}
		return nil, nil
	}
	if err := types.CheckValue(v, t.dt); err != nil {
		return nil, err
	}
	return v, nil
}

// FromInternalType returns an engine value as is (PyFlink's
// from_internal_type; Go values need no conversion).
func (t *TypeInformation) FromInternalType(v any) any { return v }

func typeInfo(name string, dt *types.DataType) *TypeInformation {
	return &TypeInformation{name: name, dt: dt}
}

// TypeString is a nullable STRING (PyFlink's Types.STRING).
func TypeString() *TypeInformation { return typeInfo("String", types.StringType()) }

// TypeByte is a NOT NULL TINYINT (PyFlink's Types.BYTE).
func TypeByte() *TypeInformation { return typeInfo("Byte", types.TinyIntType().NotNull()) }

// TypeBoolean is a NOT NULL BOOLEAN (PyFlink's Types.BOOLEAN).
func TypeBoolean() *TypeInformation { return typeInfo("Boolean", types.BooleanType().NotNull()) }

// TypeShort is a NOT NULL SMALLINT (PyFlink's Types.SHORT).
func TypeShort() *TypeInformation { return typeInfo("Short", types.SmallIntType().NotNull()) }

// TypeInt is a NOT NULL INT (PyFlink's Types.INT).
func TypeInt() *TypeInformation { return typeInfo("Integer", types.IntType().NotNull()) }

// TypeLong is a NOT NULL BIGINT (PyFlink's Types.LONG).
func TypeLong() *TypeInformation { return typeInfo("Long", types.BigIntType().NotNull()) }

// TypeFloat is a NOT NULL FLOAT (PyFlink's Types.FLOAT).
func TypeFloat() *TypeInformation { return typeInfo("Float", types.FloatType().NotNull()) }

// TypeDouble is a NOT NULL DOUBLE (PyFlink's Types.DOUBLE).
func TypeDouble() *TypeInformation { return typeInfo("Double", types.DoubleType().NotNull()) }

// TypeChar is a NOT NULL CHAR(1) (PyFlink's Types.CHAR).
func TypeChar() *TypeInformation { return typeInfo("Character", types.CharType(1).NotNull()) }

// TypeBigInt is a nullable DECIMAL(38, 0), Java's BigInteger (PyFlink's
// Types.BIG_INT).
func TypeBigInt() *TypeInformation { return typeInfo("BigInteger", types.DecimalType(38, 0)) }

// TypeBigDec is a nullable DECIMAL(38, 18), Java's BigDecimal (PyFlink's
// Types.BIG_DEC).
func TypeBigDec() *TypeInformation { return typeInfo("BigDecimal", types.DecimalType(38, 18)) }

// TypeInstant is a nullable TIMESTAMP_LTZ(9) (PyFlink's Types.INSTANT).
func TypeInstant() *TypeInformation { return typeInfo("Instant", types.TimestampLTZType(9)) }

// TypeSQLDate is a nullable DATE (PyFlink's Types.SQL_DATE).
func TypeSQLDate() *TypeInformation { return typeInfo("Date", types.DateType()) }

// TypeSQLTime is a nullable TIME(0) (PyFlink's Types.SQL_TIME).
func TypeSQLTime() *TypeInformation { return typeInfo("Time", types.TimeType(0)) }

// TypeSQLTimestamp is a nullable TIMESTAMP(3) (PyFlink's
// Types.SQL_TIMESTAMP).
func TypeSQLTimestamp() *TypeInformation { return typeInfo("Timestamp", types.TimestampType(3)) }

// TypeRow is a NOT NULL row of positional fields f0, f1, ... (PyFlink's
// Types.ROW).
func TypeRow(fieldTypes ...*TypeInformation) *TypeInformation {
	names := make([]string, len(fieldTypes))
	for i := range names {
		names[i] = fmt.Sprintf("f%d", i)
	}
	return TypeRowNamed(names, fieldTypes)
}

// TypeRowNamed is a NOT NULL row with named fields (PyFlink's
// Types.ROW_NAMED); names and types must have equal length.
func TypeRowNamed(fieldNames []string, fieldTypes []*TypeInformation) *TypeInformation {
	fields := make([]types.Field, len(fieldTypes))
	parts := make([]string, len(fieldTypes))
	for i, ft := range fieldTypes {
		name := fmt.Sprintf("f%d", i)
		if i < len(fieldNames) {
			name = fieldNames[i]
		}
		fields[i] = types.NewField(name, ft.dt)
		parts[i] = name + ": " + ft.name
	}
	return typeInfo("Row("+strings.Join(parts, ", ")+")", types.RowType(fields...).NotNull())
}

// TypeTuple is a NOT NULL tuple, a row of fields f0, f1, ... (PyFlink's
// Types.TUPLE).
func TypeTuple(fieldTypes ...*TypeInformation) *TypeInformation {
	t := TypeRow(fieldTypes...)
	t.name = "Tuple" + strings.TrimPrefix(t.name, "Row")
	return t
}

// TypePrimitiveArray is a NOT NULL array of NOT NULL elements (PyFlink's
// Types.PRIMITIVE_ARRAY).
func TypePrimitiveArray(elem *TypeInformation) *TypeInformation {
	return typeInfo(elem.name+"[]", types.ArrayType(elem.dt.NotNull()).NotNull())
}

// TypeBasicArray is a nullable array of nullable boxed elements (PyFlink's
// Types.BASIC_ARRAY).
func TypeBasicArray(elem *TypeInformation) *TypeInformation {
	return typeInfo(elem.name+"[]", types.ArrayType(elem.dt.AsNullable()))
}

// TypeObjectArray is a NOT NULL array whose elements may be null
// (PyFlink's Types.OBJECT_ARRAY).
func TypeObjectArray(elem *TypeInformation) *TypeInformation {
	return typeInfo(elem.name+"[]", types.ArrayType(elem.dt.AsNullable()).NotNull())
}

// TypeList is a nullable list (PyFlink's Types.LIST).
func TypeList(elem *TypeInformation) *TypeInformation {
	return typeInfo("List<"+elem.name+">", types.ArrayType(elem.dt))
}

// TypeMap is a nullable map (PyFlink's Types.MAP).
func TypeMap(key, value *TypeInformation) *TypeInformation {
	return typeInfo("Map<"+key.name+", "+value.name+">", types.MapType(key.dt, value.dt))
}

// TypeOf wraps a logical data type as type information.
func TypeOf(dt *types.DataType) *TypeInformation { return typeInfo(dt.String(), dt) }
