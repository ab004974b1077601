package jdbc

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
)

// UnsupportedColumnTypeError is a column type a JDBC catalog cannot map to
// a Flink type (Flink's type mappers throw UnsupportedOperationException
// "Doesn't support <db> type '<type>' yet").
type UnsupportedColumnTypeError struct {
	Product string // "Postgres" or "MySQL", as Flink names them
	Type    string
	Reason  string // set when the type is known but out of range
	// Column, Table and Catalog name where the type was found (set by
	// the catalog's GetTable; Table is "database.table").
	Column, Table, Catalog string
}

// Error is "Doesn't support Postgres type 'jsonb' on column 'doc' of
// table db.public.t in catalog pg yet" (type and column first: they are
// what a user looks for, in a narrow tree node too).
func (e *UnsupportedColumnTypeError) Error() string {
	where := ""
	if e.Column != "" {
		where = fmt.Sprintf(" on column '%s'", e.Column)
	}
	if e.Table != "" {
		where += " of table " + e.Table
	}
	if e.Catalog != "" {
		where += " in catalog " + e.Catalog
	}
	if e.Reason != "" {
		return fmt.Sprintf("Doesn't support %s type '%s'%s: %s", e.Product, e.Type, where, e.Reason)
	}
	return fmt.Sprintf("Doesn't support %s type '%s'%s yet", e.Product, e.Type, where)
}

// decimalMaxPrecision is Flink's DecimalType.MAX_PRECISION.
const decimalMaxPrecision = 38

// PostgresColumnType maps a PostgreSQL column to a Flink type as Flink's
// PostgresTypeMapper does, from the column's type name in pg_type (int4,
// varchar, _numeric for numeric[]) and its type modifier (atttypmod, -1
// for none), which carries what pgjdbc reports as precision and scale:
//
//	bool → BOOLEAN, bytea → BYTES, int2/smallserial → SMALLINT,
//	int4/serial → INT, int8/bigserial → BIGINT, float4 → FLOAT,
//	float8 → DOUBLE, numeric(p,s) → DECIMAL(p,s) (numeric without a
//	precision → DECIMAL(38,18)), bpchar(n) → CHAR(n), varchar(n) →
//	VARCHAR(n) (no length → STRING), text → STRING, uuid → VARCHAR(36),
//	timestamp(p) → TIMESTAMP(p), timestamptz(p) → TIMESTAMP_LTZ(p),
//	time(p) → TIME(p) (p is 6 when not given), date → DATE;
//	an array of one of these (but uuid) → ARRAY of its mapping.
//
// Any other type (json, jsonb, interval, timetz, money, enums, …) is an
// *UnsupportedColumnTypeError.
func PostgresColumnType(typname string, typmod int) (*types.DataType, error) {
	unsupported := &UnsupportedColumnTypeError{Product: "Postgres", Type: typname}
	if elem, ok := strings.CutPrefix(typname, "_"); ok {
		if elem == "uuid" {
			return nil, unsupported
		}
		t, err := pgScalarType(elem, typmod)
		if err != nil {
			if u, ok := err.(*UnsupportedColumnTypeError); ok && u.Reason == "" {
				return nil, unsupported
			}
			return nil, err
		}
		return types.ArrayType(t), nil
	}
	return pgScalarType(typname, typmod)
}

func pgScalarType(typname string, typmod int) (*types.DataType, error) {
	// pgjdbc: the precision of a character type is typmod-4 (unknown:
	// Integer.MAX_VALUE); the scale of a time type is typmod (unknown: 6)
	length := func() int {
		if typmod < 4 {
			return types.MaxLength
		}
		return typmod - 4
	}
	timeScale := func() int {
		if typmod < 0 {
			return 6
		}
		return typmod
	}
	switch typname {
	case "bool":
		return types.BooleanType(), nil
	case "bytea":
		return types.BytesType(), nil
	case "int2", "smallserial":
		return types.SmallIntType(), nil
	case "int4", "serial":
		return types.IntType(), nil
	case "int8", "bigserial":
		return types.BigIntType(), nil
	case "float4":
		return types.FloatType(), nil
	case "float8":
		return types.DoubleType(), nil
	case "numeric":
		if typmod < 4 {
			// no precision: Flink's DECIMAL(38, 18) (SPARK-26538)
			return types.DecimalType(decimalMaxPrecision, 18), nil
		}
		p, s := ((typmod-4)>>16)&0xffff, (typmod-4)&0xffff
		if s > 0x7ff { // PostgreSQL 15 stores a negative scale in 11 bits
			s -= 0x800
		}
		if p < 1 || p > decimalMaxPrecision || s < 0 || s > p {
			return nil, &UnsupportedColumnTypeError{Product: "Postgres", Type: fmt.Sprintf("numeric(%d,%d)", p, s),
				Reason: fmt.Sprintf("Flink's DECIMAL takes a precision from 1 to %d and a scale from 0 to the precision", decimalMaxPrecision)}
		}
		return types.DecimalType(p, s), nil
	case "bpchar", "character":
		return types.CharType(length()), nil
	case "varchar":
		return types.VarCharType(length()), nil
	case "text":
		return types.StringType(), nil
	case "uuid":
		return types.VarCharType(36), nil
	case "timestamp":
		return types.TimestampType(timeScale()), nil
	case "timestamptz":
		return types.TimestampLTZType(timeScale()), nil
	case "time":
		return types.TimeType(timeScale()), nil
	case "date":
		return types.DateType(), nil
	}
	return nil, &UnsupportedColumnTypeError{Product: "Postgres", Type: typname}
}

// MySQLColumnType maps a MySQL or MariaDB column to a Flink type as Flink's
// MySqlTypeMapper does with what MySQL Connector/J reports of it, from
// information_schema.COLUMNS: dataType is DATA_TYPE (int, varchar),
// columnType COLUMN_TYPE (int(10) unsigned, tinyint(1)), precision and
// scale NUMERIC_PRECISION / NUMERIC_SCALE, datetimePrecision
// DATETIME_PRECISION, charLength the length in characters:
//
//	BIT, TINYINT(1) → BOOLEAN (Connector/J's tinyInt1isBit),
//	TINYINT → TINYINT, TINYINT UNSIGNED, SMALLINT → SMALLINT,
//	SMALLINT UNSIGNED, MEDIUMINT [UNSIGNED], INT → INT,
//	INT UNSIGNED, BIGINT → BIGINT, BIGINT UNSIGNED → DECIMAL(20, 0),
//	DECIMAL(p,s) → DECIMAL(p,s), DECIMAL(p,s) UNSIGNED → DECIMAL(p+1,s),
//	FLOAT [UNSIGNED] → FLOAT, DOUBLE/REAL [UNSIGNED] → DOUBLE,
//	CHAR(n), ENUM, SET → CHAR(n), VARCHAR(n), TINYTEXT, TEXT,
//	MEDIUMTEXT → VARCHAR(n), LONGTEXT, JSON → STRING, DATE → DATE,
//	TIME(p) → TIME(p), DATETIME(p), TIMESTAMP(p) → TIMESTAMP(p),
//	BINARY, VARBINARY, *BLOB → BYTES.
//
// Any other type (YEAR, GEOMETRY, …) is an *UnsupportedColumnTypeError.
func MySQLColumnType(dataType, columnType string, precision, scale, datetimePrecision, charLength int64) (*types.DataType, error) {
	dt := strings.ToLower(strings.TrimSpace(dataType))
	ct := strings.ToLower(strings.TrimSpace(columnType))
	unsigned := strings.Contains(ct, "unsigned")
	name := strings.ToUpper(dt)
	if unsigned {
		name += " UNSIGNED"
	}
	chars := func() (int, error) {
		if charLength < 1 || charLength > types.MaxLength {
			return 0, &UnsupportedColumnTypeError{Product: "MySQL", Type: strings.ToUpper(ct), Reason: "a Flink CHAR or VARCHAR has a length from 1 to 2147483647"}
		}
		return int(charLength), nil
	}
	switch dt {
	case "bit":
		return types.BooleanType(), nil
	case "bool", "boolean":
		return types.BooleanType(), nil
	case "tinyint":
		if strings.HasPrefix(ct, "tinyint(1)") && !unsigned {
			return types.BooleanType(), nil
		}
		if unsigned {
			return types.SmallIntType(), nil
		}
		return types.TinyIntType(), nil
	case "smallint":
		if unsigned {
			return types.IntType(), nil
		}
		return types.SmallIntType(), nil
	case "mediumint":
		return types.IntType(), nil
	case "int", "integer":
		if unsigned {
			return types.BigIntType(), nil
		}
		return types.IntType(), nil
	case "bigint":
		if unsigned {
			return types.DecimalType(20, 0), nil
		}
		return types.BigIntType(), nil
	case "decimal", "numeric":
		p, s := int(precision), int(scale)
		if unsigned {
			if p >= decimalMaxPrecision {
				return nil, &UnsupportedColumnTypeError{Product: "MySQL", Type: strings.ToUpper(ct),
					Reason: fmt.Sprintf("precision %d of an unsigned DECIMAL exceeds DecimalType.MAX_PRECISION %d once widened by one", p, decimalMaxPrecision)}
			}
			p++
		}
		if p < 1 || p > decimalMaxPrecision || s < 0 || s > p {
			return nil, &UnsupportedColumnTypeError{Product: "MySQL", Type: strings.ToUpper(ct),
				Reason: fmt.Sprintf("Flink's DECIMAL takes a precision from 1 to %d", decimalMaxPrecision)}
		}
		return types.DecimalType(p, s), nil
	case "float":
		return types.FloatType(), nil
	case "double", "real", "double precision":
		return types.DoubleType(), nil
	case "char", "enum", "set":
		n, err := chars()
		if err != nil {
			return nil, err
		}
		return types.CharType(n), nil
	case "varchar", "tinytext", "text", "mediumtext":
		n, err := chars()
		if err != nil {
			return nil, err
		}
		return types.VarCharType(n), nil
	case "longtext", "json":
		return types.StringType(), nil
	case "date":
		return types.DateType(), nil
	case "time":
		return types.TimeType(clampPrecision(datetimePrecision)), nil
	case "datetime", "timestamp":
		return types.TimestampType(clampPrecision(datetimePrecision)), nil
	case "binary", "varbinary", "tinyblob", "blob", "mediumblob", "longblob":
		return types.BytesType(), nil
	}
	return nil, &UnsupportedColumnTypeError{Product: "MySQL", Type: name}
}

func clampPrecision(p int64) int {
	switch {
	case p < 0:
		return 0
	case p > 6:
		return 6
	}
	return int(p)
}
