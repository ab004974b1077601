package postgrescdc

import (
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// decodeFunc turns PostgreSQL's text output of one value into the Go value
// of the column's Riffle type (see types/values.go).
type decodeFunc func(s string) (any, error)

// pgColumn is a column of the captured PostgreSQL table.
type pgColumn struct {
	Name    string
	TypeOID uint32
	// TypeName is the base type's pg_type.typname (a domain's base type),
	// e.g. "int4", "varchar", "timestamptz"; "enum" for an enum type.
	TypeName string
	// Formatted is format_type(atttypid, atttypmod), e.g. "numeric(10,2)",
	// for error messages.
	Formatted string
}

// flinkCDCMapping is the Flink type Flink CDC's type mapping table gives
// a PostgreSQL type (for error messages).
func flinkCDCMapping(typname string) string {
	switch typname {
	case "int2":
		return "SMALLINT"
	case "int4":
		return "INT"
	case "int8":
		return "BIGINT"
	case "float4":
		return "FLOAT"
	case "float8":
		return "DOUBLE"
	case "numeric":
		return "DECIMAL(p, s)"
	case "bool":
		return "BOOLEAN"
	case "date":
		return "DATE"
	case "time":
		return "TIME(p)"
	case "timestamp":
		return "TIMESTAMP(p)"
	case "timestamptz":
		return "TIMESTAMP_LTZ(p)"
	case "bytea":
		return "BYTES"
	}
	return "STRING"
}

// decoderFor checks that a PostgreSQL column can be read as the declared
// Riffle type (Flink CDC's type mapping, plus integer and float widening
// and any type read as its text into a string column) and returns its
// decoder. The error names the column and both types.
func decoderFor(col pgColumn, dt *types.DataType) (decodeFunc, error) {
	tn := col.TypeName
	mismatch := func() error {
		return fmt.Errorf("column %s: PostgreSQL type %s cannot be read as %s (Flink CDC maps %s to %s)",
			types.QuoteIdent(col.Name), col.Formatted, dt.WithNullable(true), col.Formatted, flinkCDCMapping(tn))
	}
	intBits := map[string]int{"int2": 16, "int4": 32, "int8": 64, "oid": 64}
	switch dt.Root {
	case types.Char, types.VarChar:
		// every PostgreSQL type has a text form; Flink CDC reads a value
		// into STRING by its string form as well
		return func(s string) (any, error) { return s, nil }, nil
	case types.Boolean:
		if tn != "bool" {
			return nil, mismatch()
		}
		return func(s string) (any, error) {
			switch s {
			case "t", "true":
				return true, nil
			case "f", "false":
				return false, nil
			}
			return nil, fmt.Errorf("bad boolean %q", s)
		}, nil
	case types.TinyInt, types.SmallInt, types.Integer, types.BigInt:
		want := map[types.TypeRoot]int{types.TinyInt: 8, types.SmallInt: 16, types.Integer: 32, types.BigInt: 64}[dt.Root]
		have, ok := intBits[tn]
		// TINYINT takes int2 values that fit (Flink CDC maps no PostgreSQL
		// type to TINYINT)
		if !ok || (have > want && !(want == 8 && have == 16)) {
			return nil, mismatch()
		}
		return func(s string) (any, error) {
			n, err := strconv.ParseInt(s, 10, want)
			if err != nil {
				return nil, fmt.Errorf("value %s does not fit %s", s, dt.WithNullable(true))
			}
			switch want {
			case 8:
				return int8(n), nil
			case 16:
				return int16(n), nil
			case 32:
				return int32(n), nil
			}
			return n, nil
		}, nil
	case types.Float:
		if tn != "float4" {
			return nil, mismatch()
		}
		return func(s string) (any, error) {
			f, err := strconv.ParseFloat(s, 32)
			if err != nil {
				return nil, fmt.Errorf("bad real %q", s)
			}
			return float32(f), nil
		}, nil
	case types.Double:
		if tn != "float4" && tn != "float8" {
			return nil, mismatch()
		}
		return func(s string) (any, error) {
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, fmt.Errorf("bad double precision %q", s)
			}
			return f, nil
		}, nil
	case types.DecimalRoot:
		if tn != "numeric" {
			if _, ok := intBits[tn]; !ok {
				return nil, mismatch()
			}
		}
		return func(s string) (any, error) {
			d, err := types.ParseDecimal(s)
			if err != nil {
				return nil, fmt.Errorf("value %s cannot be read as %s", s, dt.WithNullable(true))
			}
			r, err := d.Rescale(int32(dt.Scale), int32(dt.Precision))
			if err != nil {
				return nil, fmt.Errorf("value %s does not fit %s", s, dt.WithNullable(true))
			}
			return r, nil
		}, nil
	case types.Binary, types.VarBinary:
		if tn != "bytea" {
			return nil, mismatch()
		}
		return decodeBytea, nil
	case types.DateRoot:
		if tn != "date" {
			return nil, mismatch()
		}
		return func(s string) (any, error) {
			t, err := time.Parse("2006-01-02", s)
			if err != nil {
				return nil, fmt.Errorf("date %s is outside the range Riffle reads (0001-01-01 to 9999-12-31)", s)
			}
			days := t.Unix() / 86400
			if t.Unix() < 0 && t.Unix()%86400 != 0 {
				days--
			}
			return types.Date(days), nil
		}, nil
	case types.TimeRoot:
		if tn != "time" {
			return nil, mismatch()
		}
		return func(s string) (any, error) {
			if s == "24:00:00" {
				return nil, fmt.Errorf("time 24:00:00 cannot be read as TIME")
			}
			t, err := time.Parse("15:04:05.999999999", s)
			if err != nil {
				return nil, fmt.Errorf("bad time %q", s)
			}
			ns := int64(t.Hour())*3600e9 + int64(t.Minute())*60e9 + int64(t.Second())*1e9 + int64(t.Nanosecond())
			return types.LocalTime(ns), nil
		}, nil
	case types.TimestampRoot:
		if tn != "timestamp" {
			return nil, mismatch()
		}
		return func(s string) (any, error) {
			t, err := time.ParseInLocation("2006-01-02 15:04:05.999999999", s, time.UTC)
			if err != nil {
				return nil, fmt.Errorf("timestamp %s is outside the range Riffle reads (0001 to 9999, not infinity)", s)
			}
			return t, types.CheckTimestampRange(t, dt)
		}, nil
	case types.TimestampLTZRoot:
		if tn != "timestamptz" {
			return nil, mismatch()
		}
		// the connections run with TimeZone = UTC, so the offset is +00
		return func(s string) (any, error) {
			t, err := time.Parse("2006-01-02 15:04:05.999999999-07", s)
			if err != nil {
				if t, err = time.Parse("2006-01-02 15:04:05.999999999-07:00", s); err != nil {
					return nil, fmt.Errorf("timestamptz %s is outside the range Riffle reads (0001 to 9999, not infinity)", s)
				}
			}
			t = t.UTC()
			return t, types.CheckTimestampRange(t, dt)
		}, nil
	}
	return nil, fmt.Errorf("column %s: the postgres-cdc connector cannot produce %s (PostgreSQL type %s; Flink CDC maps it to %s)",
		types.QuoteIdent(col.Name), dt.WithNullable(true), col.Formatted, flinkCDCMapping(tn))
}

// decodeBytea reads bytea's hex output ("\x0a0b"), PostgreSQL's default
// bytea_output.
func decodeBytea(s string) (any, error) {
	if !strings.HasPrefix(s, `\x`) {
		return nil, fmt.Errorf("bytea value is not in hex output (set bytea_output = 'hex')")
	}
	b, err := hex.DecodeString(s[2:])
	if err != nil {
		return nil, fmt.Errorf("bad bytea value: %v", err)
	}
	return b, nil
}
