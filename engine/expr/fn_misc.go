package expr

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/riffle-sql/riffle/engine/types"
)

// GREATEST, LEAST, TYPEOF and UUID.

func init() {
	extreme := func(name string, want int) {
		Builtins.Register(&Function{Name: name, Category: "Conditional", MinArgs: 1, MaxArgs: -1,
			Signatures: []string{name + "(value1[, value2]*) -> the " + map[int]string{1: "greatest", -1: "least"}[want] + " value; NULL if any argument is NULL"},
			Infer: func(c *InferCtx) (*types.DataType, error) {
				ct := types.CommonType(c.Args...)
				if ct == nil || !ct.IsComparable() {
					return nil, typeErrorf("Could not find a common type of the arguments of %s: %s", name, argList(c.Args))
				}
				for i := range c.Args {
					c.CastArg(i, ct.WithNullable(c.Args[i].Nullable))
				}
				return ct.WithNullable(anyNullable(c.Args)), nil
			},
			Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
				return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
					return rowWise(a, n, ret, false, func(v []any) (any, error) {
						best := v[0]
						for _, x := range v[1:] {
							if compareAny(x, best)*want > 0 {
								best = x
							}
						}
						return best, nil
					})
				}, nil
			}})
	}
	extreme("GREATEST", 1)
	extreme("LEAST", -1)

	Builtins.Register(&Function{Name: "TYPEOF", Category: "Type conversion", MinArgs: 1, MaxArgs: 2,
		Signatures: []string{"TYPEOF(input[, force_serializable]) -> STRING NOT NULL, the summary string of the input's data type"},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			if len(c.Args) == 2 && (c.Args[1].Root != types.Boolean || c.Literals[1] == nil) {
				return nil, invalidArgs(c)
			}
			return types.StringType().NotNull(), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			s := args[0].String()
			if args[0].Root == types.Null {
				s = "NULL"
			}
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) { return ConstVec(s, ret), nil }, nil
		}})
}

func init() {
	registerRowFn(rowFn{name: "UUID", category: "Arithmetic", nonDet: true,
		sig: "UUID() -> CHAR(36) NOT NULL, a random RFC 4122 version 4 UUID", ret: types.CharType(36).NotNull(), exactNull: true,
		eval: func(_ *Ctx, _ []any) (any, error) { return newUUID(), nil }})
}

// newUUID returns a random version-4 UUID in lower-case 8-4-4-4-12 form.
func newUUID() string {
	var u [16]byte
	_, _ = rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	h := hex.EncodeToString(u[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
