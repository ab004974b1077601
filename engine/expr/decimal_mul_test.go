package expr

import (
	"math"
	"math/big"
	"syscall"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// q1Price compiles Nexmark q1's 0.908 * price (price BIGINT) and a batch
// of n prices (every tenth NULL when nulls).
func q1Price(tb testing.TB, n int, nulls bool) (Evaluator, *types.Batch) {
	price := &InputRef{Index: 0, Name: "price", T: types.BigIntType()}
	f, _ := Builtins.Lookup("*")
	e, err := ResolveCall(f, "*", []Expr{lit(types.MustDecimal("0.908"), types.DecimalType(4, 3)), price})
	if err != nil {
		tb.Fatal(err)
	}
	ev, err := Compile(e)
	if err != nil {
		tb.Fatal(err)
	}
	bb := types.NewBatchBuilder([]*types.DataType{price.T})
	for i := 0; i < n; i++ {
		var v any = int64(i*7919%100_000_000 - 1000)
		if nulls && i%10 == 3 {
			v = nil
		}
		if err := bb.Append(types.Insert, []any{v}); err != nil {
			tb.Fatal(err)
		}
	}
	return ev, bb.Build()
}

// BenchmarkDecimalTimesBigInt: Nexmark q1's 0.908 * price over a batch of
// 8 Ki BIGINT prices; one op is one batch.
func BenchmarkDecimalTimesBigInt(b *testing.B) {
	ev, batch := q1Price(b, 8192, false)
	ctx := DefaultCtx()
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := processCPU()
	for i := 0; i < b.N; i++ {
		if _, err := ev(ctx, batch); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((processCPU()-cpu0)*1e9/float64(b.N*batch.Len), "cpu-ns/row")
}

// processCPU is the process's user+system CPU time in seconds.
func processCPU() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}

// TestDecimalTimesBigIntExact checks 0.908 * price against exact big
// integer arithmetic for NULLs, signs and prices whose product leaves
// int64 (the row-by-row path), on both the cast and the multiply loops.
func TestDecimalTimesBigIntExact(t *testing.T) {
	ev, b := q1Price(t, 1000, true)
	extra := []int64{math.MaxInt64, math.MinInt64, -1, 0, 1, math.MaxInt64 / 908, math.MaxInt64/908 + 1}
	check := func(b *types.Batch, price func(i int) (int64, bool)) {
		v, err := ev(DefaultCtx(), b)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < b.Len; i++ {
			p, ok := price(i)
			got := v.Value(i)
			if !ok {
				if got != nil {
					t.Fatalf("row %d: NULL price gave %v", i, got)
				}
				continue
			}
			want := new(big.Int).Mul(big.NewInt(p), big.NewInt(908))
			d, isDec := got.(types.Decimal)
			if !isDec || d.Scale != 3 || d.Unscaled.BigInt().Cmp(want) != 0 {
				t.Fatalf("row %d: 0.908 * %d = %v, want %s e-3", i, p, got, want)
			}
		}
	}
	check(b, func(i int) (int64, bool) { return int64(i*7919%100_000_000 - 1000), i%10 != 3 })
	bb := types.NewBatchBuilder([]*types.DataType{types.BigIntType()})
	for _, p := range extra {
		_ = bb.Append(types.Insert, []any{p})
	}
	check(bb.Build(), func(i int) (int64, bool) { return extra[i], true })
}

// TestIntegerToDecimalCastExact checks the unchecked integer -> DECIMAL
// loops (scale 0 and scale 2) against big integers, down to MinInt64.
func TestIntegerToDecimalCastExact(t *testing.T) {
	vals := []int64{math.MinInt64, math.MaxInt64, -1, 0, 7, -123456789}
	bb := types.NewBatchBuilder([]*types.DataType{types.BigIntType()})
	for _, p := range vals {
		_ = bb.Append(types.Insert, []any{p})
	}
	_ = bb.Append(types.Insert, []any{nil})
	b := bb.Build()
	for _, to := range []*types.DataType{types.DecimalType(19, 0), types.DecimalType(21, 2), types.DecimalType(38, 19)} {
		k, err := castKernel(types.BigIntType(), to, false)
		if err != nil {
			t.Fatal(err)
		}
		v, err := k(DefaultCtx(), []*Vec{ArrVec(b.Cols[0], types.BigIntType())}, b.Len)
		if err != nil {
			t.Fatal(err)
		}
		for i, p := range vals {
			want := new(big.Int).Mul(big.NewInt(p), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(to.Scale)), nil))
			d, ok := v.Value(i).(types.Decimal)
			if !ok || d.Unscaled.BigInt().Cmp(want) != 0 {
				t.Fatalf("CAST(%d AS %s) = %v, want %s", p, to, v.Value(i), want)
			}
		}
		if v.Value(len(vals)) != nil {
			t.Fatalf("CAST(NULL AS %s) = %v", to, v.Value(len(vals)))
		}
	}
}

// TestIntTimesDecimalLiteral: the fused loop with the literal second and
// an INT column, negative literal, NULLs kept.
func TestIntTimesDecimalLiteral(t *testing.T) {
	qty := &InputRef{Index: 0, Name: "qty", T: types.IntType()}
	f, _ := Builtins.Lookup("*")
	e, err := ResolveCall(f, "*", []Expr{qty, lit(types.MustDecimal("-2.50"), types.DecimalType(3, 2))})
	if err != nil {
		t.Fatal(err)
	}
	bb := types.NewBatchBuilder([]*types.DataType{qty.T})
	vals := []any{int32(4), nil, int32(math.MinInt32), int32(-3), int32(0)}
	for _, v := range vals {
		_ = bb.Append(types.Insert, []any{v})
	}
	got := eval(t, e, bb.Build())
	want := []string{"-10.00", "", "5368709120.00", "7.50", "0.00"}
	for i, w := range want {
		if w == "" {
			if got[i] != nil {
				t.Fatalf("row %d: NULL * -2.50 = %v", i, got[i])
			}
			continue
		}
		if d, ok := got[i].(types.Decimal); !ok || d.String() != w {
			t.Fatalf("row %d: %v * -2.50 = %v, want %s", i, vals[i], got[i], w)
		}
	}
}
