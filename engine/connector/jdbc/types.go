package jdbc

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgtype"

	"github.com/riffle-sql/riffle/engine/types"
)

// Type mapping (Flink's JDBC data type mapping table): which database
// column types a declared Flink type can read, the Go value conversions of
// a scan or lookup (database driver value -> engine value) and of a sink
// (engine value -> driver argument).

type roots []types.TypeRoot

var (
	intRoots16 = roots{types.SmallInt, types.Integer, types.BigInt}
	intRoots32 = roots{types.Integer, types.BigInt}
	stringR    = roots{types.Char, types.VarChar}
	bytesR     = roots{types.Binary, types.VarBinary}
)

// pgTypes maps PostgreSQL type names (pg_type.typname) to the Flink type
// roots that can read them, and the Flink type to suggest.
var pgTypes = map[string]struct {
	ok      roots
	suggest string
}{
	"int2":        {intRoots16, "SMALLINT"},
	"int4":        {intRoots32, "INT"},
	"int8":        {roots{types.BigInt}, "BIGINT"},
	"float4":      {roots{types.Float, types.Double}, "FLOAT"},
	"float8":      {roots{types.Double}, "DOUBLE"},
	"numeric":     {roots{types.DecimalRoot}, "DECIMAL(p, s)"},
	"bool":        {roots{types.Boolean}, "BOOLEAN"},
	"text":        {stringR, "STRING"},
	"varchar":     {stringR, "STRING"},
	"bpchar":      {stringR, "STRING"},
	"name":        {stringR, "STRING"},
	"uuid":        {stringR, "STRING"},
	"bytea":       {bytesR, "BYTES"},
	"date":        {roots{types.DateRoot}, "DATE"},
	"time":        {roots{types.TimeRoot}, "TIME(p)"},
	"timestamp":   {roots{types.TimestampRoot}, "TIMESTAMP(p)"},
	"timestamptz": {roots{types.TimestampLTZRoot}, "TIMESTAMP_LTZ(p)"},
}

// mysqlTypes maps go-sql-driver's type names (lower case) likewise.
var mysqlTypes = map[string]struct {
	ok      roots
	suggest string
}{
	"tinyint":            {roots{types.Boolean, types.TinyInt, types.SmallInt, types.Integer, types.BigInt}, "TINYINT (BOOLEAN for TINYINT(1))"},
	"unsigned tinyint":   {intRoots16, "SMALLINT"},
	"smallint":           {intRoots16, "SMALLINT"},
	"unsigned smallint":  {intRoots32, "INT"},
	"mediumint":          {intRoots32, "INT"},
	"unsigned mediumint": {intRoots32, "INT"},
	"int":                {intRoots32, "INT"},
	"unsigned int":       {roots{types.BigInt}, "BIGINT"},
	"bigint":             {roots{types.BigInt}, "BIGINT"},
	"unsigned bigint":    {roots{types.DecimalRoot}, "DECIMAL(20, 0)"},
	"float":              {roots{types.Float, types.Double}, "FLOAT"},
	"double":             {roots{types.Double}, "DOUBLE"},
	"decimal":            {roots{types.DecimalRoot}, "DECIMAL(p, s)"},
	"bit":                {roots{types.Boolean}, "BOOLEAN (BIT(1))"},
	"char":               {stringR, "STRING"},
	"varchar":            {stringR, "STRING"},
	"text":               {stringR, "STRING"},
	"tinytext":           {stringR, "STRING"},
	"mediumtext":         {stringR, "STRING"},
	"longtext":           {stringR, "STRING"},
	"json":               {stringR, "STRING"},
	"enum":               {stringR, "STRING"},
	"set":                {stringR, "STRING"},
	"binary":             {bytesR, "BYTES"},
	"varbinary":          {bytesR, "BYTES"},
	"blob":               {bytesR, "BYTES"},
	"tinyblob":           {bytesR, "BYTES"},
	"mediumblob":         {bytesR, "BYTES"},
	"longblob":           {bytesR, "BYTES"},
	"date":               {roots{types.DateRoot}, "DATE"},
	"time":               {roots{types.TimeRoot}, "TIME(p)"},
	"datetime":           {roots{types.TimestampRoot}, "TIMESTAMP(p)"},
	"timestamp":          {roots{types.TimestampRoot}, "TIMESTAMP(p)"},
	"year":               {intRoots16, "SMALLINT"},
}

// checkColumnType reports whether a column the database types dbType can
// be read as t; the error names the table, the column and both types, and
// suggests the Flink type of Flink's mapping table.
func (t *tableOptions) checkColumnType(col string, dbType string, ft *types.DataType) error {
	ok, suggest, known := compatible(t.endpoint.Dialect, dbType, ft)
	if ok {
		return nil
	}
	if !known {
		return t.errorf("column '%s' of %s table '%s' has type %s, which Riffle's jdbc connector cannot map to a Flink type (declared %s)", col, t.endpoint.Dialect.Name, t.dbTable, dbTypeString(dbType), ft)
	}
	return t.errorf("column '%s' of %s table '%s' has type %s, which cannot be read as the declared type %s; declare it as %s", col, t.endpoint.Dialect.Name, t.dbTable, dbTypeString(dbType), ft, suggest)
}

func dbTypeString(dbType string) string {
	if strings.HasPrefix(dbType, "_") {
		return strings.ToUpper(dbType[1:]) + "[]"
	}
	return strings.ToUpper(dbType)
}

func compatible(d *Dialect, dbType string, ft *types.DataType) (ok bool, suggest string, known bool) {
	if d.Name == DialectPostgres {
		if strings.HasPrefix(dbType, "_") {
			elem := dbType[1:]
			e, known := pgTypes[elem]
			if !known {
				return false, "", false
			}
			if ft.Root != types.ArrayRoot {
				return false, "ARRAY<" + e.suggest + ">", true
			}
			ok, _, _ := compatible(d, elem, ft.Elem)
			return ok, "ARRAY<" + e.suggest + ">", true
		}
		e, known := pgTypes[dbType]
		if !known {
			return false, "", false
		}
		return hasRoot(e.ok, ft.Root), e.suggest, true
	}
	e, known := mysqlTypes[dbType]
	if !known {
		return false, "", false
	}
	if dbType == "unsigned bigint" && ft.Root == types.DecimalRoot && ft.Precision-ft.Scale < 20 {
		return false, e.suggest, true
	}
	return hasRoot(e.ok, ft.Root), e.suggest, true
}

func hasRoot(rs roots, r types.TypeRoot) bool {
	for _, x := range rs {
		if x == r {
			return true
		}
	}
	return false
}

// toEngine converts a driver value to the engine's Go value of type t
// (see engine/types: int32 for INT, types.Decimal, types.Date, ...).
func toEngine(v any, t *types.DataType) (any, error) {
	if v == nil {
		return nil, nil
	}
	switch t.Root {
	case types.Boolean:
		switch x := v.(type) {
		case bool:
			return x, nil
		case []byte:
			if len(x) == 1 && (x[0] == 0 || x[0] == 1) { // BIT(1)
				return x[0] == 1, nil
			}
			return strconv.ParseBool(string(x))
		}
		n, err := toInt64(v)
		if err != nil {
			return nil, err
		}
		return n != 0, nil
	case types.TinyInt, types.SmallInt, types.Integer, types.BigInt:
		n, err := toInt64(v)
		if err != nil {
			return nil, err
		}
		switch t.Root {
		case types.TinyInt:
			if n < math.MinInt8 || n > math.MaxInt8 {
				return nil, fmt.Errorf("value %d is out of the range of TINYINT", n)
			}
			return int8(n), nil
		case types.SmallInt:
			if n < math.MinInt16 || n > math.MaxInt16 {
				return nil, fmt.Errorf("value %d is out of the range of SMALLINT", n)
			}
			return int16(n), nil
		case types.Integer:
			if n < math.MinInt32 || n > math.MaxInt32 {
				return nil, fmt.Errorf("value %d is out of the range of INT", n)
			}
			return int32(n), nil
		}
		return n, nil
	case types.Float, types.Double:
		var f float64
		switch x := v.(type) {
		case float32:
			f = float64(x)
		case float64:
			f = x
		case []byte:
			var err error
			if f, err = strconv.ParseFloat(string(x), 64); err != nil {
				return nil, err
			}
		default:
			n, err := toInt64(v)
			if err != nil {
				return nil, err
			}
			f = float64(n)
		}
		if t.Root == types.Float {
			if x, ok := v.(float32); ok {
				return x, nil
			}
			return float32(f), nil
		}
		return f, nil
	case types.DecimalRoot:
		r, err := toRat(v)
		if err != nil {
			return nil, err
		}
		d, err := types.DecimalFromRat(r, int32(t.Scale))
		if err == nil {
			d, err = d.Rescale(int32(t.Scale), int32(t.Precision))
		}
		if err != nil {
			return nil, fmt.Errorf("value %s does not fit %s", r.FloatString(t.Scale), t)
		}
		return d, nil
	case types.Char, types.VarChar:
		switch x := v.(type) {
		case string:
			return x, nil
		case []byte:
			return string(x), nil
		case [16]byte: // uuid
			return fmt.Sprintf("%x-%x-%x-%x-%x", x[0:4], x[4:6], x[6:8], x[8:10], x[10:16]), nil
		}
	case types.Binary, types.VarBinary:
		switch x := v.(type) {
		case []byte:
			return append([]byte(nil), x...), nil
		case string:
			return []byte(x), nil
		}
	case types.DateRoot:
		switch x := v.(type) {
		case time.Time:
			return types.DateOf(x.Year(), x.Month(), x.Day()), nil
		case []byte:
			return types.ParseDate(string(x))
		case string:
			return types.ParseDate(x)
		}
	case types.TimeRoot:
		var lt types.LocalTime
		switch x := v.(type) {
		case pgtype.Time:
			lt = types.LocalTime(x.Microseconds * 1000)
		case time.Time:
			lt = types.TimeOf(x.Hour(), x.Minute(), x.Second(), x.Nanosecond())
		case time.Duration:
			lt = types.LocalTime(x)
		case []byte, string:
			s := fmt.Sprint(x)
			if b, ok := x.([]byte); ok {
				s = string(b)
			}
			p, err := types.ParseTime(s)
			if err != nil {
				return nil, err
			}
			lt = p
		default:
			return nil, fmt.Errorf("cannot read a %T as %s", v, t)
		}
		unit := int64(math.Pow10(9 - t.Precision))
		return types.LocalTime(int64(lt) / unit * unit), nil
	case types.TimestampRoot, types.TimestampLTZRoot:
		var tm time.Time
		switch x := v.(type) {
		case time.Time:
			tm = x
		case []byte:
			p, err := types.ParseTimestamp(string(x))
			if err != nil {
				return nil, err
			}
			tm = p
		default:
			return nil, fmt.Errorf("cannot read a %T as %s (an infinite timestamp?)", v, t)
		}
		if t.Root == types.TimestampRoot {
			tm = time.Date(tm.Year(), tm.Month(), tm.Day(), tm.Hour(), tm.Minute(), tm.Second(), tm.Nanosecond(), time.UTC)
		} else {
			tm = tm.UTC()
		}
		return types.TruncateTime(tm, t.Precision), nil
	case types.ArrayRoot:
		xs, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("cannot read a %T as %s", v, t)
		}
		out := make([]any, len(xs))
		for i, x := range xs {
			e, err := toEngine(x, t.Elem)
			if err != nil {
				return nil, fmt.Errorf("element %d: %w", i+1, err)
			}
			out[i] = e
		}
		return out, nil
	}
	return nil, fmt.Errorf("cannot read a %T as %s", v, t)
}

func toInt64(v any) (int64, error) {
	switch x := v.(type) {
	case int8:
		return int64(x), nil
	case int16:
		return int64(x), nil
	case int32:
		return int64(x), nil
	case int64:
		return x, nil
	case int:
		return int64(x), nil
	case uint8:
		return int64(x), nil
	case uint16:
		return int64(x), nil
	case uint32:
		return int64(x), nil
	case uint64:
		if x > math.MaxInt64 {
			return 0, fmt.Errorf("value %d is out of the range of BIGINT", x)
		}
		return int64(x), nil
	case []byte:
		return strconv.ParseInt(string(x), 10, 64)
	case string:
		return strconv.ParseInt(x, 10, 64)
	}
	return 0, fmt.Errorf("cannot read a %T as an integer", v)
}

func toRat(v any) (*big.Rat, error) {
	switch x := v.(type) {
	case pgtype.Numeric:
		if x.NaN || x.InfinityModifier != pgtype.Finite {
			return nil, fmt.Errorf("NUMERIC value NaN or Infinity has no DECIMAL value")
		}
		r := new(big.Rat).SetInt(x.Int)
		if x.Exp > 0 {
			r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(x.Exp)), nil)))
		} else if x.Exp < 0 {
			r.Quo(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-x.Exp)), nil)))
		}
		return r, nil
	case []byte:
		r, ok := new(big.Rat).SetString(string(x))
		if !ok {
			return nil, fmt.Errorf("invalid decimal %q", x)
		}
		return r, nil
	case string:
		r, ok := new(big.Rat).SetString(x)
		if !ok {
			return nil, fmt.Errorf("invalid decimal %q", x)
		}
		return r, nil
	case uint64:
		return new(big.Rat).SetInt(new(big.Int).SetUint64(x)), nil
	case float64:
		return new(big.Rat).SetFloat64(x), nil
	}
	n, err := toInt64(v)
	if err != nil {
		return nil, err
	}
	return new(big.Rat).SetInt64(n), nil
}

// toDriver converts an engine value of type t to the driver's argument.
func toDriver(d *Dialect, v any, t *types.DataType) any {
	if v == nil {
		return nil
	}
	pg := d.Name == DialectPostgres
	switch x := v.(type) {
	case types.Decimal:
		if pg {
			return pgtype.Numeric{Int: x.Unscaled.BigInt(), Exp: -x.Scale, Valid: true}
		}
		return x.String()
	case types.Date:
		if pg {
			return pgtype.Date{Time: x.Time(), Valid: true}
		}
		return x.String()
	case types.LocalTime:
		if pg {
			return pgtype.Time{Microseconds: int64(x) / 1000, Valid: true}
		}
		return types.FormatTimeSQL(int64(x), 6)
	case time.Time:
		if t != nil && t.Root == types.TimestampRoot {
			if pg {
				return pgtype.Timestamp{Time: x.UTC(), Valid: true}
			}
			return x.UTC()
		}
		return x
	case []any:
		var et *types.DataType
		if t != nil {
			et = t.Elem
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = toDriver(d, e, et)
		}
		return out
	case int8:
		return int16(x)
	}
	return v
}
