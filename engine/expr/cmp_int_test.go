package expr

import (
	"math/rand"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// The per-operator integer loops agree with the general comparison kernel
// for every operator, constant side and NULL pattern.
func TestCmpIntKernelMatchesGeneral(t *testing.T) {
	// 1000 rows fill whole bytes of the result; 1003 and 5 end in a
	// partial byte
	for _, n := range []int{1000, 1003, 5} {
		testCmpIntKernel(t, n)
	}
}

func testCmpIntKernel(t *testing.T, n int) {
	rng := rand.New(rand.NewSource(int64(n)))
	it := types.IntType()
	mk := func() *Vec {
		bb := types.NewBatchBuilder([]*types.DataType{it})
		for i := 0; i < n; i++ {
			var v any = int32(rng.Intn(7) - 3)
			if rng.Intn(10) == 0 {
				v = nil
			}
			if err := bb.Append(types.Insert, []any{v}); err != nil {
				t.Fatal(err)
			}
		}
		return ArrVec(bb.Build().Cols[0], it)
	}
	a, b := mk(), mk()
	c := ConstVec(int32(1), it)
	for op, test := range cmpOps {
		fast := cmpIntKernel[int32](op, test)
		slow := cmpFixedKernel[int32](test)
		for _, args := range [][]*Vec{{a, b}, {a, c}, {c, b}, {c, c}, {a, ConstVec(nil, it)}} {
			got, err := fast(nil, args, n)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := slow(nil, args, n)
			for i := 0; i < n; i++ {
				if g, w := got.Value(i), want.Value(i); g != w {
					t.Fatalf("n=%d %s row %d: got %v, want %v (%v, %v)", n, op, i, g, w, args[0].Value(i), args[1].Value(i))
				}
			}
		}
	}
}

func benchCmp(b *testing.B, k Kernel) {
	benchCmpValues(b, k, func(i int) int32 { return int32(i % 120) })
}

func benchCmpValues(b *testing.B, k Kernel, value func(i int) int32) {
	const n = 8192
	it := types.IntType()
	bb := types.NewBatchBuilder([]*types.DataType{it})
	for i := 0; i < n; i++ {
		bb.Append(types.Insert, []any{value(i)})
	}
	args := []*Vec{ArrVec(bb.Build().Cols[0], it), ConstVec(int32(60), it)}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		k(nil, args, n)
	}
}

// BenchmarkCmpInt32Const: delay > 60 over a batch of 8 Ki rows.
func BenchmarkCmpInt32Const(b *testing.B) {
	b.Run("loops", func(b *testing.B) { benchCmp(b, cmpIntKernel[int32](">", cmpOps[">"])) })
	b.Run("general", func(b *testing.B) { benchCmp(b, cmpFixedKernel[int32](cmpOps[">"])) })
}

// BenchmarkCmpInt32ConstRandom: delay > 60 over 8 Ki rows in random order
// (about one row in two passes), where a branch per row mispredicts.
func BenchmarkCmpInt32ConstRandom(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	vals := make([]int32, 8192)
	for i := range vals {
		vals[i] = int32(r.Intn(120))
	}
	b.Run("loops", func(b *testing.B) {
		benchCmpValues(b, cmpIntKernel[int32](">", cmpOps[">"]), func(i int) int32 { return vals[i] })
	})
}
