package expr

import (
	"math/big"
	"math/rand"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// TestDecimalRescaleMatchesCastValue checks the column kernel of CAST
// DECIMAL(p1, s1) AS DECIMAL(p2, s2) against CastValue (big.Rat, HALF_UP,
// NULL on overflow) for widening, narrowing, scale up and scale down, on
// values of every size, halves that round, and NULLs.
func TestDecimalRescaleMatchesCastValue(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	types4 := [][2]int{{1, 0}, {3, 3}, {5, 2}, {10, 0}, {18, 4}, {19, 0}, {22, 3}, {23, 3}, {20, 1}, {38, 0}, {38, 10}, {38, 38}, {30, 25}}
	for _, f := range types4 {
		for _, g := range types4 {
			from, to := types.DecimalType(f[0], f[1]), types.DecimalType(g[0], g[1])
			k := fastCast(from, to)
			if k == nil {
				t.Fatalf("%s -> %s: no fast cast", from, to)
			}
			n := 300
			vals := make([]decimal128.Num, n)
			valid := vector.AllValid(n)
			limit := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(f[0])), nil)
			for i := range vals {
				var b *big.Int
				switch i % 6 {
				case 0: // any value of the type
					b = new(big.Int).Rand(rng, limit)
				case 1: // small
					b = big.NewInt(rng.Int63n(100_000))
				case 2: // a half at some scale: ...5 followed by zeros
					b = new(big.Int).Mul(big.NewInt(rng.Int63n(1000)*10+5), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(rng.Intn(f[0]+1))), nil))
				case 3: // the largest value
					b = new(big.Int).Sub(limit, big.NewInt(1))
				case 4:
					b = new(big.Int)
				default:
					b = big.NewInt(rng.Int63())
				}
				if b.Cmp(limit) >= 0 {
					b.Mod(b, limit)
				}
				if rng.Intn(2) == 0 {
					b.Neg(b)
				}
				vals[i] = decimal128.FromBigInt(b)
				if i%17 == 16 {
					vector.ClearBit(valid, i)
				}
			}
			in := ArrVec(vector.FromValues(types.ToArrow(from), vals, valid, -1), from)
			got, err := k(nil, []*Vec{in}, n)
			if err != nil {
				t.Fatal(err)
			}
			for i := range vals {
				var want any
				if vector.BitIsSet(valid, i) {
					want, err = CastValue(types.Decimal{Unscaled: vals[i], Scale: int32(f[1])}, from, to, time.UTC)
					if err != nil {
						t.Fatal(err)
					}
				}
				g := got.Value(i)
				if (want == nil) != (g == nil) || (want != nil && want.(types.Decimal) != g.(types.Decimal)) {
					t.Fatalf("CAST(%s AS %s) of %s: kernel %v, CastValue %v", from, to,
						types.Decimal{Unscaled: vals[i], Scale: int32(f[1])}, g, want)
				}
			}
		}
	}
}

// BenchmarkCastDecimal22To23: Nexmark q1's CAST of the DECIMAL(22, 3)
// product to the sink's DECIMAL(23, 3) over 8 Ki rows; one op is a batch.
func BenchmarkCastDecimal22To23(b *testing.B) {
	from, to := types.DecimalType(22, 3), types.DecimalType(23, 3)
	n := 8192
	vals := make([]decimal128.Num, n)
	for i := range vals {
		vals[i] = decimal128.FromI64(int64(i*7919%100_000_000) * 908)
	}
	in := ArrVec(vector.FromValues(types.ToArrow(from), vals, nil, -1), from)
	k, err := castKernel(from, to, false)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		if _, err := k(nil, []*Vec{in}, n); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((processCPU()-cpu0)*1e9/float64(b.N*n), "cpu-ns/row")
}
