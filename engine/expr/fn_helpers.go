package expr

import (
	"github.com/riffle-sql/riffle/engine/types"
)

// Helpers to register the many rarely-hot functions compactly: argument
// kinds are checked and coerced during type inference, and the function
// body works on Go values row by row (rowWise). Hot functions have typed,
// vectorised kernels instead.

// argKind is what a function accepts at one argument position.
type argKind uint8

const (
	kString   argKind = iota // CHAR/VARCHAR, passed as string
	kBinary                  // BINARY/VARBINARY, passed as []byte
	kStrOrBin                // either; passed unchanged
	kInt                     // integral, cast to INT (int32)
	kLong                    // integral, cast to BIGINT (int64)
	kNumeric                 // any numeric, passed unchanged
	kDouble                  // any numeric, cast to DOUBLE (float64)
	kBool                    // BOOLEAN
	kAny                     // anything, unchanged
	kArray                   // ARRAY<T>
	kMap                     // MAP<K, V>
	kDatetime                // DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ
)

func (k argKind) accepts(t *types.DataType) bool {
	if t.Root == types.Null {
		return true
	}
	switch k {
	case kString:
		return t.IsString()
	case kBinary:
		return t.IsBinary()
	case kStrOrBin:
		return t.IsString() || t.IsBinary()
	case kInt, kLong:
		return t.IsIntegral()
	case kNumeric, kDouble:
		return t.IsNumeric()
	case kBool:
		return t.Root == types.Boolean
	case kArray:
		return t.Root == types.ArrayRoot
	case kMap:
		return t.Root == types.MapRoot
	case kDatetime:
		return t.IsDatetime()
	}
	return true
}

func (k argKind) castTo(t *types.DataType) *types.DataType {
	switch k {
	case kString:
		return types.StringType()
	case kBinary:
		return types.BytesType()
	case kInt:
		return types.IntType()
	case kLong:
		return types.BigIntType()
	case kDouble:
		return types.DoubleType()
	case kBool:
		return types.BooleanType()
	}
	if t.Root == types.Null {
		return nil
	}
	return nil
}

// rowFn describes a function evaluated on Go values.
type rowFn struct {
	name     string
	aliases  []string
	category string
	sig      string
	// args gives the kind of each argument; the last kind repeats for
	// variadic functions (max < 0).
	args     []argKind
	min, max int
	// ret computes the result type (nullability is applied afterwards
	// unless exactNull is set): a fixed type or a function of the args.
	ret       *types.DataType
	retFn     func(c *InferCtx) (*types.DataType, error)
	exactNull bool
	// alwaysNull marks results that can be NULL even for non-NULL input.
	alwaysNull bool
	// nullSafe functions see NULL arguments (nil) instead of returning NULL.
	nullSafe bool
	nonDet   bool
	eval     func(ctx *Ctx, v []any) (any, error)
}

func (f rowFn) kind(i int) argKind {
	if i < len(f.args) {
		return f.args[i]
	}
	if len(f.args) == 0 {
		return kAny
	}
	return f.args[len(f.args)-1]
}

func registerRowFn(f rowFn) {
	max := f.max
	if max == 0 && f.min == 0 && len(f.args) > 0 {
		max = len(f.args)
	}
	min := f.min
	if min == 0 && f.max == 0 {
		min = len(f.args)
		max = len(f.args)
	}
	spec := f
	fn := &Function{Name: f.name, Category: f.category, MinArgs: min, MaxArgs: max,
		NonDeterministic: f.nonDet, Signatures: []string{f.sig},
		Infer: func(c *InferCtx) (*types.DataType, error) {
			for i, t := range c.Args {
				k := spec.kind(i)
				if !k.accepts(t) {
					return nil, invalidArgs(c)
				}
				if ct := k.castTo(t); ct != nil && t.Root != types.Null && !t.EqualsIgnoreNull(ct) {
					c.CastArg(i, ct.WithNullable(t.Nullable))
				}
			}
			var rt *types.DataType
			if spec.retFn != nil {
				var err error
				if rt, err = spec.retFn(c); err != nil {
					return nil, err
				}
			} else {
				rt = spec.ret
			}
			if spec.exactNull {
				return rt, nil
			}
			return rt.WithNullable(spec.alwaysNull || anyNullable(c.Args) || spec.nullSafe), nil
		},
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
			return func(ctx *Ctx, a []*Vec, n int) (*Vec, error) {
				return rowWise(a, n, ret, spec.nullSafe, func(v []any) (any, error) { return spec.eval(ctx, v) })
			}, nil
		}}
	Builtins.Register(fn, f.aliases...)
}

// str returns the string form of a string or binary value.
func str(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []byte:
		return string(x)
	}
	return ""
}

// intArg returns an integral Go value as int64.
func intArg(v any) int64 {
	i, _ := toInt64(v)
	return i
}
