package jdbc

import (
	"encoding/binary"
	"fmt"
	"math"
	"math/big"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/decimal128"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/riffle-sql/riffle/engine/types"
)

// The PostgreSQL fast path of a scan: the columns' binary wire values are
// decoded straight into Arrow builders, without boxing each value in an
// interface (pgx's Values) and checking it again (BatchBuilder). A scan
// uses it when every column has a decoder here; arrays, uuid and text
// format columns take the general path.

// rawDecoder appends one non-NULL binary value to an Arrow builder.
type rawDecoder func(b array.Builder, raw []byte) error

// pgEpochDays and pgEpochMicros shift PostgreSQL's 2000-01-01 epoch to
// 1970-01-01.
const (
	pgEpochDays   = 10957
	pgEpochMicros = 946_684_800_000_000
)

// fastDecoders returns one decoder per column, or nil when a column has
// none (the scan then uses the general path).
func fastDecoders(fds []pgconn.FieldDescription, cols []dbColumn, ts []*types.DataType) []rawDecoder {
	if len(fds) != len(ts) || len(ts) == 0 {
		return nil
	}
	out := make([]rawDecoder, len(ts))
	for i, t := range ts {
		if fds[i].Format != pgtype.BinaryFormatCode && !isText(cols[i].typ) {
			return nil
		}
		d := fastDecoder(cols[i].typ, t)
		if d == nil {
			return nil
		}
		out[i] = d
	}
	return out
}

func isText(typ string) bool {
	return typ == "text" || typ == "varchar" || typ == "bpchar" || typ == "name"
}

func fastDecoder(typ string, t *types.DataType) rawDecoder {
	intOf := func(raw []byte) (int64, error) {
		switch len(raw) {
		case 2:
			return int64(int16(binary.BigEndian.Uint16(raw))), nil
		case 4:
			return int64(int32(binary.BigEndian.Uint32(raw))), nil
		case 8:
			return int64(binary.BigEndian.Uint64(raw)), nil
		}
		return 0, fmt.Errorf("integer of %d bytes", len(raw))
	}
	switch typ {
	case "int2", "int4", "int8":
		switch t.Root {
		case types.SmallInt:
			return func(b array.Builder, raw []byte) error {
				n, err := intOf(raw)
				b.(*array.Int16Builder).Append(int16(n))
				return err
			}
		case types.Integer:
			return func(b array.Builder, raw []byte) error {
				n, err := intOf(raw)
				b.(*array.Int32Builder).Append(int32(n))
				return err
			}
		case types.BigInt:
			return func(b array.Builder, raw []byte) error {
				n, err := intOf(raw)
				b.(*array.Int64Builder).Append(n)
				return err
			}
		}
	case "float4":
		switch t.Root {
		case types.Float:
			return func(b array.Builder, raw []byte) error {
				b.(*array.Float32Builder).Append(math.Float32frombits(binary.BigEndian.Uint32(raw)))
				return nil
			}
		case types.Double:
			return func(b array.Builder, raw []byte) error {
				b.(*array.Float64Builder).Append(float64(math.Float32frombits(binary.BigEndian.Uint32(raw))))
				return nil
			}
		}
	case "float8":
		if t.Root == types.Double {
			return func(b array.Builder, raw []byte) error {
				b.(*array.Float64Builder).Append(math.Float64frombits(binary.BigEndian.Uint64(raw)))
				return nil
			}
		}
	case "bool":
		if t.Root == types.Boolean {
			return func(b array.Builder, raw []byte) error {
				b.(*array.BooleanBuilder).Append(len(raw) == 1 && raw[0] != 0)
				return nil
			}
		}
	case "text", "varchar", "bpchar", "name":
		if t.IsString() {
			return func(b array.Builder, raw []byte) error {
				b.(*array.StringBuilder).BinaryBuilder.Append(raw)
				return nil
			}
		}
	case "bytea":
		if t.IsBinary() {
			return func(b array.Builder, raw []byte) error {
				b.(*array.BinaryBuilder).Append(raw)
				return nil
			}
		}
	case "date":
		if t.Root == types.DateRoot {
			return func(b array.Builder, raw []byte) error {
				d := int32(binary.BigEndian.Uint32(raw))
				if d == math.MaxInt32 || d == math.MinInt32 {
					return fmt.Errorf("infinite DATE has no Flink value")
				}
				b.(*array.Date32Builder).Append(arrow.Date32(d + pgEpochDays))
				return nil
			}
		}
	case "time":
		if t.Root == types.TimeRoot {
			trunc := int64(math.Pow10(max(0, 6-t.Precision)))
			if t.Precision <= 3 {
				return func(b array.Builder, raw []byte) error {
					us := int64(binary.BigEndian.Uint64(raw)) / trunc * trunc
					b.(*array.Time32Builder).Append(arrow.Time32(us / 1000))
					return nil
				}
			}
			return func(b array.Builder, raw []byte) error {
				us := int64(binary.BigEndian.Uint64(raw)) / trunc * trunc
				b.(*array.Time64Builder).Append(arrow.Time64(us * 1000))
				return nil
			}
		}
	case "timestamp", "timestamptz":
		if (typ == "timestamp" && t.Root == types.TimestampRoot) || (typ == "timestamptz" && t.Root == types.TimestampLTZRoot) {
			trunc := int64(math.Pow10(max(0, 6-t.Precision)))
			unit := types.TimestampUnit(t.Precision)
			return func(b array.Builder, raw []byte) error {
				v := int64(binary.BigEndian.Uint64(raw))
				if v == math.MaxInt64 || v == math.MinInt64 {
					return fmt.Errorf("infinite timestamp has no Flink value")
				}
				us := v + pgEpochMicros
				us -= ((us % trunc) + trunc) % trunc // floor to the precision
				var x int64
				switch unit {
				case arrow.Millisecond:
					x = us / 1000
				case arrow.Microsecond:
					x = us
				default:
					x = us * 1000
				}
				b.(*array.TimestampBuilder).Append(arrow.Timestamp(x))
				return nil
			}
		}
	case "numeric":
		if t.Root == types.DecimalRoot {
			p, s := int32(t.Precision), int32(t.Scale)
			return func(b array.Builder, raw []byte) error {
				n, err := decodeNumeric(raw, s)
				if err != nil {
					return err
				}
				if !n.FitsInPrecision(p) {
					return fmt.Errorf("value %s does not fit %s", n.ToString(s), t)
				}
				b.(*array.Decimal128Builder).Append(n)
				return nil
			}
		}
	}
	return nil
}

var pow10u64 = func() [20]uint64 {
	var p [20]uint64
	p[0] = 1
	for i := 1; i < 20; i++ {
		p[i] = p[i-1] * 10
	}
	return p
}()

// decodeNumeric decodes PostgreSQL's binary NUMERIC (ndigits, weight,
// sign, dscale, then base-10000 digits) as an unscaled number at scale
// (rounding HALF_UP like Flink's BigDecimal.setScale).
func decodeNumeric(raw []byte, scale int32) (decimal128.Num, error) {
	if len(raw) < 8 {
		return decimal128.Num{}, fmt.Errorf("NUMERIC of %d bytes", len(raw))
	}
	ndigits := int(binary.BigEndian.Uint16(raw))
	weight := int(int16(binary.BigEndian.Uint16(raw[2:])))
	sign := binary.BigEndian.Uint16(raw[4:])
	if sign != 0 && sign != 0x4000 {
		return decimal128.Num{}, fmt.Errorf("NUMERIC value NaN or Infinity has no DECIMAL value")
	}
	if len(raw) < 8+2*ndigits {
		return decimal128.Num{}, fmt.Errorf("NUMERIC of %d bytes", len(raw))
	}
	// value = digits (as one integer) * 10^exp10
	exp10 := (weight - (ndigits - 1)) * 4
	shift := exp10 + int(scale) // power of ten to apply to the digit integer
	if ndigits <= 4 && shift >= -19 && shift <= 2 {
		var acc uint64
		for i := 0; i < ndigits; i++ {
			acc = acc*10000 + uint64(binary.BigEndian.Uint16(raw[8+2*i:]))
		}
		switch {
		case shift >= 0:
			acc *= pow10u64[shift]
		default:
			div := pow10u64[-shift]
			q, r := acc/div, acc%div
			if r*2 >= div {
				q++
			}
			acc = q
		}
		n := decimal128.FromU64(acc)
		if sign == 0x4000 {
			n = n.Negate()
		}
		return n, nil
	}
	acc := new(big.Int)
	tenK := big.NewInt(10000)
	for i := 0; i < ndigits; i++ {
		acc.Mul(acc, tenK)
		acc.Add(acc, big.NewInt(int64(binary.BigEndian.Uint16(raw[8+2*i:]))))
	}
	r := new(big.Rat).SetInt(acc)
	if exp10 > 0 {
		r.Mul(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(exp10)), nil)))
	} else if exp10 < 0 {
		r.Quo(r, new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(-exp10)), nil)))
	}
	if sign == 0x4000 {
		r.Neg(r)
	}
	d, err := types.DecimalFromRat(r, scale)
	if err != nil {
		return decimal128.Num{}, err
	}
	return d.Unscaled, nil
}
