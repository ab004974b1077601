package expr

import "math"

// javaAcos is the arc cosine as Java's StrictMath.acos computes it (the
// fdlibm algorithm), which can differ from Go's math.Acos in the last bit:
// Flink's ACOS(0.5) is 1.0471975511965979 (SqlExpressionTest).
func javaAcos(x float64) float64 {
	const (
		pio2Hi = 1.57079632679489655800e+00
		pio2Lo = 6.12323399573676603587e-17
		pi     = 3.14159265358979311600e+00
		pS0    = 1.66666666666666657415e-01
		pS1    = -3.25565818622400915405e-01
		pS2    = 2.01212532134862925881e-01
		pS3    = -4.00555345006794114027e-02
		pS4    = 7.91534994289814532176e-04
		pS5    = 3.47933107596021167570e-05
		qS1    = -2.40339491173441421878e+00
		qS2    = 2.02094576023350569471e+00
		qS3    = -6.88283971605453293030e-01
		qS4    = 7.70381505559019352791e-02
	)
	bits := math.Float64bits(x)
	hx := int32(bits >> 32)
	ix := hx & 0x7fffffff
	rat := func(z float64) float64 {
		p := z * (pS0 + z*(pS1+z*(pS2+z*(pS3+z*(pS4+z*pS5)))))
		q := 1 + z*(qS1+z*(qS2+z*(qS3+z*qS4)))
		return p / q
	}
	switch {
	case ix >= 0x3ff00000:
		if (uint32(ix-0x3ff00000) | uint32(bits)) == 0 {
			if hx > 0 {
				return 0
			}
			return pi + 2*pio2Lo
		}
		return math.NaN()
	case ix < 0x3fe00000:
		if ix <= 0x3c600000 {
			return pio2Hi + pio2Lo
		}
		r := rat(x * x)
		return pio2Hi - (x - (pio2Lo - x*r))
	case hx < 0:
		z := (1 + x) * 0.5
		s := math.Sqrt(z)
		w := rat(z)*s - pio2Lo
		return pi - 2*(s+w)
	}
	z := (1 - x) * 0.5
	s := math.Sqrt(z)
	df := math.Float64frombits(math.Float64bits(s) &^ 0xffffffff)
	c := (z - df*df) / (s + df)
	w := rat(z)*s + c
	return 2 * (df + w)
}
