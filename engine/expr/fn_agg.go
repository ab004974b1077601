package expr

import (
	"github.com/riffle-sql/riffle/engine/types"
)

// Aggregate functions: type inference only; the runtime implements the
// accumulators (engine/internal/runtime/accum.go) by name.

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
		if len(c.Args) == 1 && c.Args[0].Root == types.VariantRoot {
			name := map[string]string{"MIN": "Min", "MAX": "Max"}[c.Name]
			return nil, typeErrorf("%s aggregate function does not support type: ''VARIANT''.\nPlease re-check the data type.", name)
		}
		if len(c.Args) != 1 || !c.Args[0].IsComparable() {
			return nil, invalidArgs(c)
		}
		return c.Args[0].WithNullable(true).WithTimeAttr(types.NoTimeAttr), nil
	}
	aggFn("MIN", "MIN([ ALL | DISTINCT ] expression) -> same type", 1, 1, extreme)
	aggFn("MAX", "MAX([ ALL | DISTINCT ] expression) -> same type", 1, 1, extreme)
}

// aggParamLiteral checks that argument i of an aggregate is a literal (a
// parameter such as the LISTAGG separator) and returns it.
func aggParamLiteral(c *InferCtx, i int) (*Literal, error) {
	if i >= len(c.Literals) || c.Literals[i] == nil {
		return nil, typeErrorf("The argument %d of %s must be a literal", i+1, c.Name)
	}
	return c.Literals[i], nil
}

func init() {
	variance := func(c *InferCtx) (*types.DataType, error) {
		if len(c.Args) != 1 || (!c.Args[0].IsNumeric() && c.Args[0].Root != types.Null) {
			return nil, invalidArgs(c)
		}
		return types.AvgAggType(c.Args[0]).WithNullable(true), nil
	}
	for _, name := range []string{"STDDEV_POP", "STDDEV_SAMP", "VAR_POP", "VAR_SAMP", "VARIANCE", "STDDEV"} {
		aggFn(name, name+"([ ALL | DISTINCT ] numeric) -> the same numeric type (DECIMAL(38, max(6, s)) for DECIMAL)", 1, 1, variance)
	}
	aggFn("COLLECT", "COLLECT([ ALL | DISTINCT ] expression) -> MULTISET NOT NULL of the non-NULL values", 1, 1,
		func(c *InferCtx) (*types.DataType, error) {
			return types.MultisetType(c.Args[0].WithTimeAttr(types.NoTimeAttr)).NotNull(), nil
		})
	aggFn("LISTAGG", "LISTAGG(expression [, separator]) -> STRING of the non-NULL values joined by separator (default ',')", 1, 2,
		func(c *InferCtx) (*types.DataType, error) {
			if !c.Args[0].IsString() && c.Args[0].Root != types.Null {
				return nil, invalidArgs(c)
			}
			if len(c.Args) == 2 {
				if _, err := aggParamLiteral(c, 1); err != nil {
					return nil, err
				}
				if !c.Args[1].IsString() {
					return nil, invalidArgs(c)
				}
			}
			c.CastArg(0, types.StringType())
			return types.StringType(), nil
		})
	firstLast := func(c *InferCtx) (*types.DataType, error) {
		if len(c.Args) != 1 {
			return nil, invalidArgs(c)
		}
		return c.Args[0].WithNullable(true).WithTimeAttr(types.NoTimeAttr), nil
	}
	aggFn("FIRST_VALUE", "FIRST_VALUE(expression) -> the first non-NULL value", 1, 1, firstLast)
	aggFn("LAST_VALUE", "LAST_VALUE(expression) -> the last non-NULL value", 1, 1, firstLast)
	aggFn("ARRAY_AGG", "ARRAY_AGG([ ALL | DISTINCT ] expression [ RESPECT NULLS | IGNORE NULLS ]) -> ARRAY of the values; NULL for no rows", 1, 1,
		func(c *InferCtx) (*types.DataType, error) {
			return types.ArrayType(c.Args[0].WithTimeAttr(types.NoTimeAttr)), nil
		})
	aggFn("JSON_OBJECTAGG", "JSON_OBJECTAGG([KEY] key VALUE value [ { NULL | ABSENT } ON NULL ]) -> STRING NOT NULL, a JSON object", 2, 2,
		func(c *InferCtx) (*types.DataType, error) {
			if !c.Args[0].IsString() || c.Args[0].Nullable {
				return nil, typeErrorf("The key of JSON_OBJECTAGG must be a non-nullable character string, got %s", c.Args[0])
			}
			return types.StringType().NotNull(), nil
		})
	aggFn("JSON_ARRAYAGG", "JSON_ARRAYAGG(items [ { NULL | ABSENT } ON NULL ]) -> STRING NOT NULL, a JSON array", 1, 1,
		func(c *InferCtx) (*types.DataType, error) { return types.StringType().NotNull(), nil })
	aggFn("PERCENTILE", "PERCENTILE(expr, percentage[, frequency]) -> DOUBLE (or ARRAY<DOUBLE> for an array of percentages), the exact percentile with linear interpolation", 2, 3,
		func(c *InferCtx) (*types.DataType, error) {
			if !c.Args[0].IsNumeric() && c.Args[0].Root != types.Null {
				return nil, invalidArgs(c)
			}
			l, err := aggParamLiteral(c, 1)
			if err != nil {
				return nil, err
			}
			if len(c.Args) == 3 && !c.Args[2].IsIntegral() {
				return nil, invalidArgs(c)
			}
			check := func(v any) error {
				f, ok := toFloat(v)
				if !ok || f < 0 || f > 1 {
					return typeErrorf("Percentage of PERCENTILE must be between [0.0, 1.0], but was '%v'", v)
				}
				return nil
			}
			if arr, ok := l.Value.([]any); ok {
				for _, e := range arr {
					if err := check(e); err != nil {
						return nil, err
					}
				}
				return types.ArrayType(types.DoubleType()), nil
			}
			if err := check(l.Value); err != nil {
				return nil, err
			}
			return types.DoubleType(), nil
		})
}

func init() {
	aggFn("SINGLE_VALUE", "SINGLE_VALUE(expression) -> the only value of the group; fails for more than one row (scalar subqueries)", 1, 1,
		func(c *InferCtx) (*types.DataType, error) { return c.Args[0].WithNullable(true), nil })
}
