package parquet

import (
	"math"
	"math/big"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// Row-group skipping: a row group is skipped when its column statistics
// prove that no row satisfies a filter. Statistics are converted to the
// declared column type the way the reader converts values (flooring finer
// timestamp units), so the decision is the one the Filter above the scan
// would make on the converted rows. Anything unknown (no statistics, a
// type or literal not handled, NaN bounds) keeps the row group.

// statColumn is a filterable column: its leaf in the file and its
// declared type.
type statColumn struct {
	leaf int
	t    *types.DataType
}

// mayMatch reports whether some row of row group rg may satisfy p.
func (r *FileReader) mayMatch(p *connector.Predicate, rg *metadata.RowGroupMetaData) bool {
	switch p.Op {
	case connector.OpAnd:
		for _, a := range p.Args {
			if !r.mayMatch(a, rg) {
				return false
			}
		}
		return true
	case connector.OpOr:
		for _, a := range p.Args {
			if r.mayMatch(a, rg) {
				return true
			}
		}
		return len(p.Args) == 0
	case connector.OpNot:
		if len(p.Args) == 1 && (p.Args[0].Op == connector.OpIsNull || p.Args[0].Op == connector.OpIsNotNull) {
			q := *p.Args[0]
			if q.Op == connector.OpIsNull {
				q.Op = connector.OpIsNotNull
			} else {
				q.Op = connector.OpIsNull
			}
			return r.mayMatch(&q, rg)
		}
		return true
	}
	col, ok := r.statCols[p.Name]
	if !ok {
		return true
	}
	cc, err := rg.ColumnChunk(col.leaf)
	if err != nil {
		return true
	}
	if set, err := cc.StatsSet(); err != nil || !set {
		return true
	}
	st, err := cc.Statistics()
	if err != nil || st == nil {
		return true
	}
	rows := rg.NumRows()
	nulls := int64(-1)
	if st.HasNullCount() {
		nulls = st.NullCount()
	}
	switch p.Op {
	case connector.OpIsNull:
		return nulls != 0
	case connector.OpIsNotNull:
		return nulls != rows
	}
	if nulls == rows && rows > 0 {
		return false // only NULLs: no comparison is true
	}
	if !st.HasMinMax() {
		return true
	}
	lo, hi, ok := r.bounds(st, col.t)
	if !ok {
		return true
	}
	lit := func(v any) (any, bool) { return normLiteral(v, col.t) }
	switch p.Op {
	case connector.OpEq:
		v, ok := lit(p.Value)
		return !ok || (cmpValues(lo, v) <= 0 && cmpValues(v, hi) <= 0)
	case connector.OpNotEq:
		v, ok := lit(p.Value)
		return !ok || isFloat(col.t) || !(cmpValues(lo, v) == 0 && cmpValues(hi, v) == 0)
	case connector.OpLess:
		v, ok := lit(p.Value)
		return !ok || cmpValues(lo, v) < 0
	case connector.OpLessEq:
		v, ok := lit(p.Value)
		return !ok || cmpValues(lo, v) <= 0
	case connector.OpGreater:
		v, ok := lit(p.Value)
		return !ok || cmpValues(hi, v) > 0
	case connector.OpGreaterEq:
		v, ok := lit(p.Value)
		return !ok || cmpValues(hi, v) >= 0
	case connector.OpIn:
		for _, x := range p.Values {
			v, ok := lit(x)
			if !ok || (cmpValues(lo, v) <= 0 && cmpValues(v, hi) <= 0) {
				return true
			}
		}
		return false
	case connector.OpLike:
		pat, ok := p.Value.(string)
		los, ok1 := lo.(string)
		his, ok2 := hi.(string)
		if !ok || !ok1 || !ok2 {
			return true
		}
		prefix := likePrefix(pat)
		if prefix == "" {
			return true
		}
		if his < prefix {
			return false
		}
		if los > prefix && !strings.HasPrefix(los, prefix) {
			return false
		}
		return true
	}
	return true
}

// likePrefix is the literal prefix of a LIKE pattern before its first
// wildcard or escape ("" when there is none).
func likePrefix(pat string) string {
	i := strings.IndexAny(pat, "%_\\")
	if i < 0 {
		return "" // no wildcard: equality, not worth special-casing
	}
	return pat[:i]
}

func isFloat(t *types.DataType) bool { return t.Root == types.Float || t.Root == types.Double }

// bounds converts a chunk's min/max to values of the declared type's
// comparison domain: int64, float64, string, types.Decimal or time.Time.
func (r *FileReader) bounds(st metadata.TypedStatistics, t *types.DataType) (lo, hi any, ok bool) {
	descr := st.Descr()
	lt := descr.LogicalType()
	if il, isInt := lt.(schema.IntLogicalType); isInt && !il.IsSigned() {
		return nil, nil, false
	}
	switch s := st.(type) {
	case *metadata.Int32Statistics:
		return intBounds(int64(s.Min()), int64(s.Max()), lt, t)
	case *metadata.Int64Statistics:
		if tl, isTS := lt.(schema.TimestampLogicalType); isTS {
			if t.Root == types.TimestampRoot && r.opts.shiftsTimestamps() {
				return nil, nil, false
			}
			if t.Root != types.TimestampRoot && t.Root != types.TimestampLTZRoot {
				return nil, nil, false
			}
			unit := map[schema.TimeUnitType]int{schema.TimeUnitMillis: 3, schema.TimeUnitMicros: 6, schema.TimeUnitNanos: 9}[tl.TimeUnit()]
			from := types.TimestampUnit(unit)
			to := types.TimestampUnit(t.Precision)
			return types.TimeFromUnits(convertUnit(s.Min(), from, to), to), types.TimeFromUnits(convertUnit(s.Max(), from, to), to), true
		}
		return intBounds(s.Min(), s.Max(), lt, t)
	case *metadata.Float32Statistics:
		lo, hi := float64(s.Min()), float64(s.Max())
		if math.IsNaN(lo) || math.IsNaN(hi) || !isFloat(t) {
			return nil, nil, false
		}
		return lo, hi, true
	case *metadata.Float64Statistics:
		lo, hi := s.Min(), s.Max()
		if math.IsNaN(lo) || math.IsNaN(hi) || t.Root != types.Double {
			return nil, nil, false
		}
		return lo, hi, true
	case *metadata.ByteArrayStatistics:
		if dl, isDec := lt.(schema.DecimalLogicalType); isDec {
			return decBounds(s.Min(), s.Max(), dl.Scale(), t)
		}
		if t.Root == types.VarChar && (descr.ConvertedType() == schema.ConvertedTypes.UTF8 || isString(lt)) {
			return string(s.Min()), string(s.Max()), true
		}
		return nil, nil, false
	case *metadata.FixedLenByteArrayStatistics:
		if dl, isDec := lt.(schema.DecimalLogicalType); isDec {
			return decBounds(s.Min(), s.Max(), dl.Scale(), t)
		}
	}
	return nil, nil, false
}

func isString(lt schema.LogicalType) bool {
	_, ok := lt.(schema.StringLogicalType)
	return ok
}

func intBounds(lo, hi int64, lt schema.LogicalType, t *types.DataType) (any, any, bool) {
	if dl, isDec := lt.(schema.DecimalLogicalType); isDec {
		if t.Root != types.DecimalRoot {
			return nil, nil, false
		}
		return types.Decimal{Unscaled: decimal128.FromI64(lo), Scale: dl.Scale()}, types.Decimal{Unscaled: decimal128.FromI64(hi), Scale: dl.Scale()}, true
	}
	switch lt.(type) {
	case schema.DateLogicalType:
		if t.Root != types.DateRoot {
			return nil, nil, false
		}
		return lo, hi, true
	case nil, schema.IntLogicalType, schema.NoLogicalType:
		switch t.Root {
		case types.TinyInt, types.SmallInt, types.Integer, types.BigInt:
			return lo, hi, true
		case types.DecimalRoot:
			return types.Decimal{Unscaled: decimal128.FromI64(lo)}, types.Decimal{Unscaled: decimal128.FromI64(hi)}, true
		}
	}
	return nil, nil, false
}

// decBounds decodes big-endian two's complement unscaled decimals.
func decBounds(lo, hi []byte, scale int32, t *types.DataType) (any, any, bool) {
	if t.Root != types.DecimalRoot || len(lo) == 0 || len(hi) == 0 || len(lo) > 16 || len(hi) > 16 {
		return nil, nil, false
	}
	return types.Decimal{Unscaled: beToNum(lo), Scale: scale}, types.Decimal{Unscaled: beToNum(hi), Scale: scale}, true
}

func beToNum(b []byte) decimal128.Num {
	v := new(big.Int).SetBytes(b)
	if b[0]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), uint(8*len(b))))
	}
	return decimal128.FromBigInt(v)
}

// normLiteral converts a predicate literal to the comparison domain of t.
func normLiteral(v any, t *types.DataType) (any, bool) {
	switch t.Root {
	case types.TinyInt, types.SmallInt, types.Integer, types.BigInt:
		switch x := v.(type) {
		case int8:
			return int64(x), true
		case int16:
			return int64(x), true
		case int32:
			return int64(x), true
		case int64:
			return x, true
		case int:
			return int64(x), true
		}
	case types.Float, types.Double:
		switch x := v.(type) {
		case float32:
			return float64(x), !math.IsNaN(float64(x))
		case float64:
			return x, !math.IsNaN(x)
		case int32:
			return float64(x), true
		case int64:
			return float64(x), true
		}
	case types.DecimalRoot:
		switch x := v.(type) {
		case types.Decimal:
			return x, true
		case int32:
			return types.Decimal{Unscaled: decimal128.FromI64(int64(x))}, true
		case int64:
			return types.Decimal{Unscaled: decimal128.FromI64(x)}, true
		}
	case types.VarChar:
		if s, ok := v.(string); ok {
			return s, true
		}
	case types.DateRoot:
		switch x := v.(type) {
		case types.Date:
			return int64(x), true
		case int32:
			return int64(x), true
		}
	case types.TimestampRoot, types.TimestampLTZRoot:
		if x, ok := v.(time.Time); ok {
			return x.UTC(), true
		}
	}
	return nil, false
}

// cmpValues compares two values of one comparison domain.
func cmpValues(a, b any) int {
	switch x := a.(type) {
	case int64:
		y := b.(int64)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case float64:
		y := b.(float64)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	case string:
		return strings.Compare(x, b.(string))
	case types.Decimal:
		return x.Cmp(b.(types.Decimal))
	case time.Time:
		return x.Compare(b.(time.Time))
	}
	return 0
}
