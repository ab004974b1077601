package expr

import (
	"github.com/riffle-sql/riffle/engine/types"
)

// Aggregate functions: type inference only; the runtime implements the
// accumulators (engine/runtime/accum.go) by name.

func aggFn(name, sig string, min, max int, infer func(c *InferCtx) (*types.DataType, error)) {
	Builtins.Register(&Function{Name: name, Kind: AggregateKind, Category: "Aggregate",
		MinArgs: min, MaxArgs: max, Signatures: []string{sig}, Infer: infer})
}

func init() {
	aggFn("COUNT", "COUNT([ ALL | DISTINCT ] expression | *) -> BIGINT NOT NULL", 0, -1, func(c *InferCtx) (*types.DataType, error) {
		return types.BigIntType().NotNull(), nil
	})
	numeric := func(c *InferCtx) error {
		if len(c.Args) != 1 || (!c.Args[0].IsNumeric() && c.Args[0].Root != types.Null) {
			return invalidArgs(c)
		}
		return nil
	}
	aggFn("SUM", "SUM([ ALL | DISTINCT ] numeric) -> same numeric type (DECIMAL(38, s) for DECIMAL)", 1, 1, func(c *InferCtx) (*types.DataType, error) {
		if err := numeric(c); err != nil {
			return nil, err
		}
		return types.SumAggType(c.Args[0]).WithNullable(true), nil
	})
	aggFn("SUM0", "SUM0([ ALL | DISTINCT ] numeric) -> like SUM, but 0 instead of NULL for no rows", 1, 1, func(c *InferCtx) (*types.DataType, error) {
		if err := numeric(c); err != nil {
			return nil, err
		}
		return types.SumAggType(c.Args[0]).NotNull(), nil
	})
	aggFn("AVG", "AVG([ ALL | DISTINCT ] numeric) -> same numeric type (AVG over INT is INT)", 1, 1, func(c *InferCtx) (*types.DataType, error) {
		if err := numeric(c); err != nil {
			return nil, err
		}
		return types.AvgAggType(c.Args[0]).WithNullable(true), nil
	})
	extreme := func(c *InferCtx) (*types.DataType, error) {
		if len(c.Args) != 1 || !c.Args[0].IsComparable() {
			return nil, invalidArgs(c)
		}
		return c.Args[0].WithNullable(true).WithTimeAttr(types.NoTimeAttr), nil
	}
	aggFn("MIN", "MIN([ ALL | DISTINCT ] expression) -> same type", 1, 1, extreme)
	aggFn("MAX", "MAX([ ALL | DISTINCT ] expression) -> same type", 1, 1, extreme)
}
