package table

import (
	"fmt"
	"math/big"

	"github.com/riffle-sql/riffle/engine/types"
)

// RoundingMode is a rounding mode of a DecimalContext (Java's
// RoundingMode, as named by PyFlink's set_decimal_context).
type RoundingMode string

// Rounding modes.
const (
	RoundUp          RoundingMode = "UP"
	RoundDown        RoundingMode = "DOWN"
	RoundCeiling     RoundingMode = "CEILING"
	RoundFloor       RoundingMode = "FLOOR"
	RoundHalfUp      RoundingMode = "HALF_UP"
	RoundHalfDown    RoundingMode = "HALF_DOWN"
	RoundHalfEven    RoundingMode = "HALF_EVEN"
	RoundUnnecessary RoundingMode = "UNNECESSARY"
)

func (m RoundingMode) valid() bool {
	switch m {
	case RoundUp, RoundDown, RoundCeiling, RoundFloor, RoundHalfUp, RoundHalfDown, RoundHalfEven, RoundUnnecessary:
		return true
	}
	return false
}

// DecimalContext is a precision and rounding mode (Java's MathContext).
type DecimalContext struct {
	Precision    int
	RoundingMode RoundingMode
}

// Round rounds d to scale decimal places with the context's rounding
// mode; UNNECESSARY fails when rounding would change the value.
func (c DecimalContext) Round(d types.Decimal, scale int32) (types.Decimal, error) {
	r := d.Rat()
	shift := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(abs32(scale))), nil)
	scaled := new(big.Rat).Set(r)
	if scale >= 0 {
		scaled.Mul(scaled, new(big.Rat).SetInt(shift))
	} else {
		scaled.Quo(scaled, new(big.Rat).SetInt(shift))
	}
	q, rem := new(big.Int).QuoRem(scaled.Num(), scaled.Denom(), new(big.Int))
	if rem.Sign() != 0 {
		sign := scaled.Sign()
		// twice the remainder compared with the denominator: the tie test
		twice := new(big.Int).Mul(new(big.Int).Abs(rem), big.NewInt(2))
		cmpHalf := twice.Cmp(scaled.Denom())
		away := false
		switch c.RoundingMode {
		case RoundUp:
			away = true
		case RoundDown:
		case RoundCeiling:
			away = sign > 0
		case RoundFloor:
			away = sign < 0
		case RoundHalfUp:
			away = cmpHalf >= 0
		case RoundHalfDown:
			away = cmpHalf > 0
		case RoundHalfEven:
			away = cmpHalf > 0 || (cmpHalf == 0 && q.Bit(0) == 1)
		case RoundUnnecessary:
			return types.Decimal{}, fmt.Errorf("Rounding necessary: %s cannot be represented with scale %d", d, scale)
		default:
			return types.Decimal{}, fmt.Errorf("unknown rounding mode %q", c.RoundingMode)
		}
		if away {
			if sign > 0 {
				q.Add(q, big.NewInt(1))
			} else {
				q.Sub(q, big.NewInt(1))
			}
		}
	}
	if scale < 0 {
		q.Mul(q, shift)
		scale = 0
	}
	return types.DecimalFromBig(q, scale)
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}
