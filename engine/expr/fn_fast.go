package expr

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Typed fast paths for row-wise functions on their most common argument
// shapes. Each wraps the function's generic kernel and falls back to it
// for the other shapes, so the results are the same.

// fastPath replaces the kernel builder of a registered function with one
// that tries fast first; fast returns nil to defer to the generic kernel.
func fastPath(name string, fast func(args []*types.DataType, ret *types.DataType, a []*Vec, n int) *Vec) {
	f, ok := Builtins.Lookup(name)
	if !ok || f.Build == nil {
		return
	}
	generic := f.Build
	f.Build = func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
		k, err := generic(args, ret)
		if err != nil {
			return nil, err
		}
		return func(ctx *Ctx, a []*Vec, n int) (*Vec, error) {
			if v := fast(args, ret, a, n); v != nil {
				return v, nil
			}
			return k(ctx, a, n)
		}, nil
	}
}

// splitIndexFast is SPLIT_INDEX(column, 'sep', k) with a constant
// non-empty separator and index: it finds the k-th piece (Flink's
// splitByWholeSeparatorPreserveAllTokens; an empty string has no pieces)
// without splitting the whole string.
func splitIndexFast(_ []*types.DataType, ret *types.DataType, a []*Vec, n int) *Vec {
	if a[0].Const || !a[1].Const || !a[2].Const || a[1].Val == nil || a[2].Val == nil {
		return nil
	}
	sep, ok := a[1].Val.(string)
	if !ok || sep == "" {
		return nil
	}
	k := intArg(a[2].Val)
	if k < 0 {
		return ConstVec(nil, ret)
	}
	s := strOf(a[0])
	sb := vector.NewStringBuilder(n, 8)
	for i := 0; i < n; i++ {
		if a[0].Arr.IsNull(i) {
			sb.AppendNull()
			continue
		}
		str := s.at(i)
		if str == "" {
			sb.AppendNull()
			continue
		}
		piece, found := nthPiece(str, sep, k)
		if !found {
			sb.AppendNull()
			continue
		}
		sb.AppendString(piece)
	}
	return ArrVec(sb.Finish(false), ret)
}

// nthPiece returns piece k (0-based) of s split at every sep.
func nthPiece(s, sep string, k int64) (string, bool) {
	if len(sep) == 1 {
		// one byte (SPLIT_INDEX(url, '/', 3)): one pass over short
		// pieces instead of a strings.Index call per piece
		c, start := sep[0], 0
		for i := 0; i < len(s); i++ {
			if s[i] == c {
				if k == 0 {
					return s[start:i], true
				}
				k--
				start = i + 1
			}
		}
		if k == 0 {
			return s[start:], true
		}
		return "", false
	}
	for ; k > 0; k-- {
		j := strings.Index(s, sep)
		if j < 0 {
			return "", false
		}
		s = s[j+len(sep):]
	}
	if j := strings.Index(s, sep); j >= 0 {
		return s[:j], true
	}
	return s, true
}
