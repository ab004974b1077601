package expr

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Comparison operators =, <>, <, <=, >, >=, IS [NOT] DISTINCT FROM, IN.

// comparisonType finds the type both sides are compared in, following
// Flink/Calcite coercion: numeric with numeric (common type), string with
// string, string with numeric or datetime (the string is cast), datetime
// with datetime of the same family, same-root otherwise. It returns nil
// when the types cannot be compared (e.g. INT and BOOLEAN).
func comparisonType(a, b *types.DataType) *types.DataType {
	switch {
	case a.Root == types.Null && b.Root == types.Null:
		return types.BooleanType()
	case a.Root == types.Null:
		return b.WithNullable(true)
	case b.Root == types.Null:
		return a.WithNullable(true)
	case a.IsString() && b.IsString():
		return types.StringType()
	case a.IsString() && (b.IsDatetime() || b.Root == types.Boolean):
		return b.WithNullable(true).WithTimeAttr(types.NoTimeAttr)
	case b.IsString() && (a.IsDatetime() || a.Root == types.Boolean):
		return a.WithNullable(true).WithTimeAttr(types.NoTimeAttr)
	case a.IsString() && b.IsNumeric(), b.IsString() && a.IsNumeric():
		// FLINK-24914: comparing character strings with numbers is
		// rejected (ImplicitConversionEqualsFunctionITCase)
		return nil
	case a.Root == types.DateRoot && b.IsTimestamp():
		return b.WithNullable(true).WithTimeAttr(types.NoTimeAttr)
	case b.Root == types.DateRoot && a.IsTimestamp():
		return a.WithNullable(true).WithTimeAttr(types.NoTimeAttr)
	}
	ct := types.CommonType(a, b)
	if ct == nil || ct.Root == types.Null {
		return nil
	}
	if a.Root != b.Root && !(a.IsNumeric() && b.IsNumeric()) && !(a.IsTimestamp() && b.IsTimestamp()) &&
		!(a.IsBinary() && b.IsBinary()) && !(a.IsInterval() && b.IsInterval() && a.Root == b.Root) {
		return nil
	}
	return ct.WithNullable(true)
}

// stringNumericError is Flink's validation error for comparing a character
// string with a number (FLINK-24914, ImplicitConversionEqualsFunctionITCase):
// "implicit type conversion between VARCHAR and INTEGER is not supported now"
// (CHAR for a character literal, as Flink names the string's type root).
func stringNumericError(a, b *types.DataType) error {
	if b.IsString() && a.IsNumeric() {
		a, b = b, a
	}
	if !a.IsString() || !b.IsNumeric() {
		return nil
	}
	root := b.Root.String()
	switch b.Root {
	case types.Integer:
		root = "INTEGER"
	}
	str := "VARCHAR"
	if a.Root == types.Char {
		str = "CHAR"
	}
	return typeErrorf("implicit type conversion between %s and %s is not supported now", str, root)
}

func calciteName(t *types.DataType) string {
	switch t.Root {
	case types.Integer:
		return "INTEGER"
	case types.VarChar:
		if t.Length == types.MaxLength {
			return "VARCHAR(2147483647)"
		}
	}
	return t.WithNullable(true).String()
}

func comparisonInfer(op string) func(c *InferCtx) (*types.DataType, error) {
	return func(c *InferCtx) (*types.DataType, error) {
		a, b := c.Args[0], c.Args[1]
		if err := stringNumericError(a, b); err != nil {
			return nil, err
		}
		ct := comparisonType(a, b)
		if ct != nil && ct.Root == types.VariantRoot && op != "=" && op != "<>" && op != "IS DISTINCT FROM" && op != "IS NOT DISTINCT FROM" {
			// VARIANT values are equal or not, never ordered
			return nil, typeErrorf("Comparable type expected, but was '%s'.", ct.WithNullable(a.Nullable || b.Nullable))
		}
		equality := op == "=" || op == "<>" || (ct != nil && ct.Root == types.VariantRoot)
		if ct == nil || (!equality && !ct.IsComparable()) {
			return nil, typeErrorf("Cannot apply '%s' to arguments of type '<%s> %s <%s>'. Supported form(s): '<COMPARABLE_TYPE> %s <COMPARABLE_TYPE>'",
				op, calciteName(a), op, calciteName(b), op)
		}
		if !(a.IsString() && b.IsString()) && !(a.IsBinary() && b.IsBinary()) {
			// character (binary) strings of any lengths compare as they
			// are: no cast, as in Flink's plans (=($1, $3))
			c.CastArg(0, ct)
			c.CastArg(1, ct)
		}
		nullable := a.Nullable || b.Nullable
		if op == "IS DISTINCT FROM" || op == "IS NOT DISTINCT FROM" {
			nullable = false
		}
		return types.BooleanType().WithNullable(nullable), nil
	}
}

var cmpOps = map[string]func(c int) bool{
	"=":  func(c int) bool { return c == 0 },
	"<>": func(c int) bool { return c != 0 },
	"<":  func(c int) bool { return c < 0 },
	"<=": func(c int) bool { return c <= 0 },
	">":  func(c int) bool { return c > 0 },
	">=": func(c int) bool { return c >= 0 },
}

func init() {
	names := map[string]string{"=": "EQUALS", "<>": "NOT_EQUALS", "<": "LESS_THAN", "<=": "LESS_THAN_OR_EQUAL",
		">": "GREATER_THAN", ">=": "GREATER_THAN_OR_EQUAL"}
	for op := range cmpOps {
		op := op
		Builtins.Register(&Function{
			Name: op, Category: "Comparison", MinArgs: 2, MaxArgs: 2,
			Signatures:  []string{fmt.Sprintf("value1 %s value2", op)},
			Description: strings.ToLower(names[op]),
			Infer:       comparisonInfer(op),
			Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
				return compareKernel(op, args[0])
			},
		}, names[op])
	}
	Builtins.Register(&Function{Name: "!=", Category: "Comparison", MinArgs: 2, MaxArgs: 2,
		Infer: comparisonInfer("<>"),
		Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) { return compareKernel("<>", args[0]) }})
	for _, op := range []string{"IS DISTINCT FROM", "IS NOT DISTINCT FROM"} {
		op := op
		Builtins.Register(&Function{
			Name: op, Category: "Comparison", MinArgs: 2, MaxArgs: 2,
			Signatures: []string{"value1 " + op + " value2"},
			Infer:      comparisonInfer(op),
			Build: func(args []*types.DataType, ret *types.DataType) (Kernel, error) {
				eq, err := compareKernel("=", args[0])
				if err != nil {
					return nil, err
				}
				distinct := op == "IS DISTINCT FROM"
				return func(ctx *Ctx, a []*Vec, n int) (*Vec, error) {
					r, err := eq(ctx, a, n)
					if err != nil {
						return nil, err
					}
					out := make([]bool, n)
					for i := 0; i < n; i++ {
						an, bn := a[0].Null(i), a[1].Null(i)
						var same bool
						switch {
						case an && bn:
							same = true
						case an || bn:
							same = false
						default:
							same = r.Value(i).(bool)
						}
						out[i] = same != distinct
					}
					return ArrVec(vector.Bools(out, nil), ret), nil
				}, nil
			},
		})
	}
	Builtins.Register(&Function{
		Name: "IN", Category: "Comparison", MinArgs: 2, MaxArgs: -1,
		Signatures: []string{"value1 IN (value2 [, value3]*)"},
		Infer:      inInfer,
		Build:      inKernel,
	})
}

// compareKernel builds the kernel for op over two columns of type t.
func compareKernel(op string, t *types.DataType) (Kernel, error) {
	test := cmpOps[op]
	switch t.Root {
	case types.TinyInt:
		return cmpIntKernel[int8](op, test), nil
	case types.SmallInt:
		return cmpIntKernel[int16](op, test), nil
	case types.Integer, types.DateRoot, types.IntervalYearMonthRoot:
		return cmpIntKernel[int32](op, test), nil
	case types.BigInt, types.TimestampRoot, types.TimestampLTZRoot, types.IntervalDayTimeRoot:
		return cmpIntKernel[int64](op, test), nil
	case types.TimeRoot:
		if t.Precision <= 3 {
			return cmpIntKernel[int32](op, test), nil
		}
		return cmpIntKernel[int64](op, test), nil
	case types.Float:
		return cmpFixedKernel[float32](test), nil
	case types.Double:
		return cmpFixedKernel[float64](test), nil
	case types.DecimalRoot:
		return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
			return compareFixed(a[0], a[1], n, func(x, y decimal128.Num) bool { return test(x.Cmp(y)) }), nil
		}, nil
	case types.Char, types.VarChar, types.Binary, types.VarBinary:
		if op == "=" || op == "<>" {
			eq := op == "="
			return func(_ *Ctx, a []*Vec, n int) (*Vec, error) { return equalStrings(a[0], a[1], n, eq), nil }, nil
		}
		return func(_ *Ctx, a []*Vec, n int) (*Vec, error) { return compareStrings(a[0], a[1], n, test), nil }, nil
	case types.Boolean:
		return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
			return rowWise(a, n, types.BooleanType(), false, func(v []any) (any, error) {
				x, y := v[0].(bool), v[1].(bool)
				c := 0
				if x != y {
					c = 1
					if !x {
						c = -1
					}
				}
				return test(c), nil
			})
		}, nil
	case types.Null:
		return func(_ *Ctx, a []*Vec, n int) (*Vec, error) { return ConstVec(nil, types.BooleanType()), nil }, nil
	}
	// nested types: equality by value
	if op == "=" || op == "<>" {
		return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
			return rowWise(a, n, types.BooleanType(), false, func(v []any) (any, error) {
				eq := types.ValuesEqual(v[0], v[1])
				return eq == (op == "="), nil
			})
		}, nil
	}
	return nil, fmt.Errorf("cannot compare values of type %s", t)
}

// cmpIntKernel compares integer columns with Go's operators in a loop of
// their own per operator (no call per row), the common case of filters
// such as delay > 60; other operators take cmpFixedKernel.
func cmpIntKernel[T ~int8 | ~int16 | ~int32 | ~int64](op string, test func(int) bool) Kernel {
	if _, ok := cmpOps[op]; !ok {
		return cmpFixedKernel[T](test)
	}
	general := cmpFixedKernel[T](test)
	return func(ctx *Ctx, a []*Vec, n int) (*Vec, error) {
		x, y := a[0], a[1]
		if x.IsNullConst() || y.IsNullConst() || x.Const && y.Const {
			return general(ctx, a, n)
		}
		bits := make([]byte, (n+7)/8)
		av, ac := fixedOf[T](x)
		bv, bc := fixedOf[T](y)
		if !x.Const {
			av = av[:n]
		}
		if !y.Const {
			bv = bv[:n]
		}
		cmpIntLoops(op, av, bv, ac, bc, x.Const, y.Const, bits)
		return ArrVec(vector.BoolsFromBits(bits, n, andValidity(n, x, y)), types.BooleanType()), nil
	}
}

// cmpIntLoops sets bit i of bits where a[i] op b[i] (a constant side given
// as ac or bc). bits must be zero. The loops store eight results at a time
// and turn each comparison into a 0 or 1 without a branch, so their speed
// does not depend on how predictable the data is.
func cmpIntLoops[T ~int8 | ~int16 | ~int32 | ~int64](op string, av, bv []T, ac, bc T, aConst, bConst bool, bits []byte) {
	if aConst {
		// c op b[i] is b[i] op' c with the operator mirrored
		switch op {
		case "<":
			op = ">"
		case "<=":
			op = ">="
		case ">":
			op = "<"
		case ">=":
			op = "<="
		}
		av, bc, bConst = bv, ac, true
	}
	full := len(av) &^ 7
	if bConst {
		switch op {
		case "=":
			for i := 0; i < full; i += 8 {
				x := av[i : i+8 : i+8]
				bits[i>>3] = bit(x[0] == bc) | bit(x[1] == bc)<<1 | bit(x[2] == bc)<<2 | bit(x[3] == bc)<<3 |
					bit(x[4] == bc)<<4 | bit(x[5] == bc)<<5 | bit(x[6] == bc)<<6 | bit(x[7] == bc)<<7
			}
			for i := full; i < len(av); i++ {
				bits[i>>3] |= bit(av[i] == bc) << (i & 7)
			}
		case "<>":
			for i := 0; i < full; i += 8 {
				x := av[i : i+8 : i+8]
				bits[i>>3] = bit(x[0] != bc) | bit(x[1] != bc)<<1 | bit(x[2] != bc)<<2 | bit(x[3] != bc)<<3 |
					bit(x[4] != bc)<<4 | bit(x[5] != bc)<<5 | bit(x[6] != bc)<<6 | bit(x[7] != bc)<<7
			}
			for i := full; i < len(av); i++ {
				bits[i>>3] |= bit(av[i] != bc) << (i & 7)
			}
		case "<":
			for i := 0; i < full; i += 8 {
				x := av[i : i+8 : i+8]
				bits[i>>3] = bit(x[0] < bc) | bit(x[1] < bc)<<1 | bit(x[2] < bc)<<2 | bit(x[3] < bc)<<3 |
					bit(x[4] < bc)<<4 | bit(x[5] < bc)<<5 | bit(x[6] < bc)<<6 | bit(x[7] < bc)<<7
			}
			for i := full; i < len(av); i++ {
				bits[i>>3] |= bit(av[i] < bc) << (i & 7)
			}
		case "<=":
			for i := 0; i < full; i += 8 {
				x := av[i : i+8 : i+8]
				bits[i>>3] = bit(x[0] <= bc) | bit(x[1] <= bc)<<1 | bit(x[2] <= bc)<<2 | bit(x[3] <= bc)<<3 |
					bit(x[4] <= bc)<<4 | bit(x[5] <= bc)<<5 | bit(x[6] <= bc)<<6 | bit(x[7] <= bc)<<7
			}
			for i := full; i < len(av); i++ {
				bits[i>>3] |= bit(av[i] <= bc) << (i & 7)
			}
		case ">":
			for i := 0; i < full; i += 8 {
				x := av[i : i+8 : i+8]
				bits[i>>3] = bit(x[0] > bc) | bit(x[1] > bc)<<1 | bit(x[2] > bc)<<2 | bit(x[3] > bc)<<3 |
					bit(x[4] > bc)<<4 | bit(x[5] > bc)<<5 | bit(x[6] > bc)<<6 | bit(x[7] > bc)<<7
			}
			for i := full; i < len(av); i++ {
				bits[i>>3] |= bit(av[i] > bc) << (i & 7)
			}
		case ">=":
			for i := 0; i < full; i += 8 {
				x := av[i : i+8 : i+8]
				bits[i>>3] = bit(x[0] >= bc) | bit(x[1] >= bc)<<1 | bit(x[2] >= bc)<<2 | bit(x[3] >= bc)<<3 |
					bit(x[4] >= bc)<<4 | bit(x[5] >= bc)<<5 | bit(x[6] >= bc)<<6 | bit(x[7] >= bc)<<7
			}
			for i := full; i < len(av); i++ {
				bits[i>>3] |= bit(av[i] >= bc) << (i & 7)
			}
		}
		return
	}
	bv = bv[:len(av)]
	switch op {
	case "=":
		for i := 0; i < full; i += 8 {
			x := av[i : i+8 : i+8]
			y := bv[i : i+8 : i+8]
			bits[i>>3] = bit(x[0] == y[0]) | bit(x[1] == y[1])<<1 | bit(x[2] == y[2])<<2 | bit(x[3] == y[3])<<3 |
				bit(x[4] == y[4])<<4 | bit(x[5] == y[5])<<5 | bit(x[6] == y[6])<<6 | bit(x[7] == y[7])<<7
		}
		for i := full; i < len(av); i++ {
			bits[i>>3] |= bit(av[i] == bv[i]) << (i & 7)
		}
	case "<>":
		for i := 0; i < full; i += 8 {
			x := av[i : i+8 : i+8]
			y := bv[i : i+8 : i+8]
			bits[i>>3] = bit(x[0] != y[0]) | bit(x[1] != y[1])<<1 | bit(x[2] != y[2])<<2 | bit(x[3] != y[3])<<3 |
				bit(x[4] != y[4])<<4 | bit(x[5] != y[5])<<5 | bit(x[6] != y[6])<<6 | bit(x[7] != y[7])<<7
		}
		for i := full; i < len(av); i++ {
			bits[i>>3] |= bit(av[i] != bv[i]) << (i & 7)
		}
	case "<":
		for i := 0; i < full; i += 8 {
			x := av[i : i+8 : i+8]
			y := bv[i : i+8 : i+8]
			bits[i>>3] = bit(x[0] < y[0]) | bit(x[1] < y[1])<<1 | bit(x[2] < y[2])<<2 | bit(x[3] < y[3])<<3 |
				bit(x[4] < y[4])<<4 | bit(x[5] < y[5])<<5 | bit(x[6] < y[6])<<6 | bit(x[7] < y[7])<<7
		}
		for i := full; i < len(av); i++ {
			bits[i>>3] |= bit(av[i] < bv[i]) << (i & 7)
		}
	case "<=":
		for i := 0; i < full; i += 8 {
			x := av[i : i+8 : i+8]
			y := bv[i : i+8 : i+8]
			bits[i>>3] = bit(x[0] <= y[0]) | bit(x[1] <= y[1])<<1 | bit(x[2] <= y[2])<<2 | bit(x[3] <= y[3])<<3 |
				bit(x[4] <= y[4])<<4 | bit(x[5] <= y[5])<<5 | bit(x[6] <= y[6])<<6 | bit(x[7] <= y[7])<<7
		}
		for i := full; i < len(av); i++ {
			bits[i>>3] |= bit(av[i] <= bv[i]) << (i & 7)
		}
	case ">":
		for i := 0; i < full; i += 8 {
			x := av[i : i+8 : i+8]
			y := bv[i : i+8 : i+8]
			bits[i>>3] = bit(x[0] > y[0]) | bit(x[1] > y[1])<<1 | bit(x[2] > y[2])<<2 | bit(x[3] > y[3])<<3 |
				bit(x[4] > y[4])<<4 | bit(x[5] > y[5])<<5 | bit(x[6] > y[6])<<6 | bit(x[7] > y[7])<<7
		}
		for i := full; i < len(av); i++ {
			bits[i>>3] |= bit(av[i] > bv[i]) << (i & 7)
		}
	case ">=":
		for i := 0; i < full; i += 8 {
			x := av[i : i+8 : i+8]
			y := bv[i : i+8 : i+8]
			bits[i>>3] = bit(x[0] >= y[0]) | bit(x[1] >= y[1])<<1 | bit(x[2] >= y[2])<<2 | bit(x[3] >= y[3])<<3 |
				bit(x[4] >= y[4])<<4 | bit(x[5] >= y[5])<<5 | bit(x[6] >= y[6])<<6 | bit(x[7] >= y[7])<<7
		}
		for i := full; i < len(av); i++ {
			bits[i>>3] |= bit(av[i] >= bv[i]) << (i & 7)
		}
	}
}

// bit is 1 for true and 0 for false (compiled without a branch).
func bit(b bool) byte {
	if b {
		return 1
	}
	return 0
}

func cmpFixedKernel[T interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~float32 | ~float64
}](test func(int) bool) Kernel {
	// Specialise the common operators so the inner loop has no indirect
	// call for the comparison itself.
	return func(_ *Ctx, a []*Vec, n int) (*Vec, error) {
		return compareFixed(a[0], a[1], n, func(x, y T) bool {
			switch {
			case x < y:
				return test(-1)
			case x > y:
				return test(1)
			case x == y:
				return test(0)
			}
			return false // NaN: every comparison is false except <>
		}), nil
	}
}

func compareStrings(a, b *Vec, n int, test func(int) bool) *Vec {
	out := types.BooleanType()
	if a.IsNullConst() || b.IsNullConst() {
		return ConstVec(nil, out)
	}
	sa, sb := strOf(a), strOf(b)
	if a.Const && b.Const {
		return ConstVec(test(strings.Compare(sa.c, sb.c)), out)
	}
	bits := make([]byte, (n+7)/8)
	for i := 0; i < n; i++ {
		if test(bytes.Compare(sa.bytesAt(i), sb.bytesAt(i))) {
			bits[i>>3] |= 1 << (i & 7)
		}
	}
	return ArrVec(vector.BoolsFromBits(bits, n, andValidity(n, a, b)), out)
}

// equalStrings is compareStrings for = (eq) and <>: byte equality, which
// checks lengths before bytes, rather than an ordering.
func equalStrings(a, b *Vec, n int, eq bool) *Vec {
	out := types.BooleanType()
	if a.IsNullConst() || b.IsNullConst() {
		return ConstVec(nil, out)
	}
	sa, sb := strOf(a), strOf(b)
	if a.Const && b.Const {
		return ConstVec((sa.c == sb.c) == eq, out)
	}
	bits := make([]byte, (n+7)/8)
	for i := 0; i < n; i++ {
		if (sa.at(i) == sb.at(i)) == eq {
			bits[i>>3] |= 1 << (i & 7)
		}
	}
	return ArrVec(vector.BoolsFromBits(bits, n, andValidity(n, a, b)), out)
}

func inInfer(c *InferCtx) (*types.DataType, error) {
	ct := c.Args[0]
	for _, t := range c.Args[1:] {
		if err := stringNumericError(c.Args[0], t); err != nil {
			return nil, err
		}
		next := comparisonType(ct, t)
		if next == nil {
			return nil, typeErrorf("Values passed to IN operator must have compatible types: %s and %s", c.Args[0], t)
		}
		ct = next
	}
	for i := range c.Args {
		c.CastArg(i, ct.WithNullable(true))
	}
	return types.BooleanType().WithNullable(anyNullable(c.Args)), nil
}

// inKernel: x IN (v1, ...) is TRUE when x equals some vi, NULL when x is
// NULL or no vi matches but some vi is NULL, FALSE otherwise.
func inKernel(args []*types.DataType, ret *types.DataType) (Kernel, error) {
	eq, err := compareKernel("=", args[0])
	if err != nil {
		return nil, err
	}
	return func(ctx *Ctx, a []*Vec, n int) (*Vec, error) {
		// fast path: a string column against constant strings
		if r := a[0].T.Root; (r == types.Char || r == types.VarChar) && !a[0].Const {
			if list, hasNull, ok := constStrings(a[1:]); ok {
				return inStrings(a[0], n, list, hasNull, ret), nil
			}
		}
		// fast path: constant list of strings or integers
		if set, hasNull, ok := constSet(a[1:]); ok && !a[0].Const {
			out := make([]bool, n)
			valid := vector.AllValid(n)
			for i := 0; i < n; i++ {
				if a[0].Null(i) {
					vector.ClearBit(valid, i)
					continue
				}
				if set[setKey(a[0], i)] {
					out[i] = true
				} else if hasNull {
					vector.ClearBit(valid, i)
				}
			}
			return ArrVec(vector.Bools(out, valid), ret), nil
		}
		result := make([]int8, n) // 0 false, 1 true, 2 null
		for _, v := range a[1:] {
			r, err := eq(ctx, []*Vec{a[0], v}, n)
			if err != nil {
				return nil, err
			}
			for i := 0; i < n; i++ {
				if result[i] == 1 {
					continue
				}
				if r.Null(i) {
					result[i] = 2
				} else if r.Value(i).(bool) {
					result[i] = 1
				}
			}
		}
		out := make([]bool, n)
		valid := vector.AllValid(n)
		for i, r := range result {
			out[i] = r == 1
			if r == 2 {
				vector.ClearBit(valid, i)
			}
		}
		return ArrVec(vector.Bools(out, valid), ret), nil
	}, nil
}

// constStrings returns the values of constant string arguments (ok false
// when one is not a constant string) and whether one is NULL.
func constStrings(vs []*Vec) (list []string, hasNull, ok bool) {
	for _, v := range vs {
		if !v.Const {
			return nil, false, false
		}
		switch x := v.Val.(type) {
		case nil:
			hasNull = true
		case string:
			list = append(list, x)
		default:
			return nil, false, false
		}
	}
	return list, hasNull, true
}

// inStrings computes x IN (list) for a string column: TRUE when x equals an
// element, NULL when x is NULL or (hasNull) the list holds a NULL and x
// equals no element, FALSE otherwise. Short lists are compared in order, long
// ones through a set.
func inStrings(x *Vec, n int, list []string, hasNull bool, ret *types.DataType) *Vec {
	var set map[string]struct{}
	if len(list) > 8 {
		set = make(map[string]struct{}, len(list))
		for _, s := range list {
			set[s] = struct{}{}
		}
	}
	out := make([]bool, n)
	var valid []byte
	if hasNull || x.Arr.NullN() > 0 {
		valid = vector.AllValid(n)
	}
	s := strOf(x)
	for i := 0; i < n; i++ {
		if x.Arr.IsNull(i) {
			vector.ClearBit(valid, i)
			continue
		}
		v := s.at(i)
		found := false
		if set != nil {
			_, found = set[v]
		} else {
			for _, e := range list {
				if v == e {
					found = true
					break
				}
			}
		}
		if found {
			out[i] = true
		} else if hasNull {
			vector.ClearBit(valid, i)
		}
	}
	return ArrVec(vector.Bools(out, valid), ret)
}

func constSet(vs []*Vec) (map[any]bool, bool, bool) {
	set := map[any]bool{}
	hasNull := false
	for _, v := range vs {
		if !v.Const {
			return nil, false, false
		}
		switch x := v.Val.(type) {
		case nil:
			hasNull = true
		case string, int8, int16, int32, int64:
			set[x] = true
		default:
			return nil, false, false
		}
	}
	return set, hasNull, true
}

func setKey(v *Vec, i int) any {
	switch v.T.Root {
	case types.Char, types.VarChar:
		s := strOf(v)
		return s.at(i)
	}
	return v.Value(i)
}
