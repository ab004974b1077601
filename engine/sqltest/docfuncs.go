package sqltest

import (
	"strings"
	"sync"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

var docFuncsOnce sync.Once

// RegisterDocFunctions registers, once per process, the user-defined
// functions that Flink's documentation uses in its SQL examples, so golden
// scripts can run those examples as written. They are marked Internal
// (SHOW FUNCTIONS does not list them) and live only in processes that call
// this function (the golden tests and the qfill tool), never in the
// product.
//
//   - SplitFunction(s STRING) is the table function of
//     docs/content/docs/dev/table/functions/udfs.md ("Table Functions"):
//     one row ROW<word STRING, length INT> per piece of s split at " "
//     (Java String.split: trailing empty pieces dropped; length counts
//     UTF-16 code units as String.length does); no rows for NULL.
func RegisterDocFunctions() {
	docFuncsOnce.Do(func() {
		expr.Builtins.Register(&expr.Function{Name: "SplitFunction", Kind: expr.TableKind, Internal: true,
			MinArgs: 1, MaxArgs: 1,
			Infer: func(c *expr.InferCtx) (*types.DataType, error) {
				return types.RowType(types.NewField("word", types.StringType()), types.NewField("length", types.IntType())), nil
			},
			Table: func(args []*types.DataType, ret *types.DataType) (expr.TableFunction, error) {
				return expr.TableFunctionFunc(func(ctx *expr.Ctx, a []any, emit func([]any) error) error {
					s, ok := a[0].(string)
					if !ok {
						return nil
					}
					parts := strings.Split(s, " ")
					for len(parts) > 0 && parts[len(parts)-1] == "" {
						parts = parts[:len(parts)-1]
					}
					for _, p := range parts {
						if err := emit([]any{p, javaLength(p)}); err != nil {
							return err
						}
					}
					return nil
				}), nil
			}})
	})
}

// javaLength is Java's String.length: UTF-16 code units.
func javaLength(s string) int32 {
	n := int32(0)
	for _, r := range s {
		n++
		if r > 0xFFFF {
			n++
		}
	}
	return n
}
