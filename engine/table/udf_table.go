package table

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// attachTable makes a table function callable by the planner's Correlate
// operator (LATERAL TABLE, JoinLateral, FlatMap).
func (f *UserDefinedFunction) attachTable(fn *expr.Function) {
	fn.Table = func(args []*types.DataType, rt *types.DataType) (expr.TableFunction, error) {
		return f.tableFunction(rt), nil
	}
}

// tableFunction evaluates a table function for the Correlate operator.
func (f *UserDefinedFunction) tableFunction(ret *types.DataType) expr.TableFunction {
	return expr.TableFunctionFunc(func(ctx *expr.Ctx, args []any, emit func([]any) error) error {
		inst, done, err := instances.acquire(ctx, f)
		if err != nil {
			return err
		}
		rows, err := inst.evalTable(args)
		done()
		if err != nil {
			return &expr.EvalError{Func: f.name, Msg: err.Error()}
		}
		for _, r := range rows {
			if len(r) != len(ret.Fields) {
				return &expr.EvalError{Func: f.name, Msg: fmt.Sprintf("emitted %d values, the function declares %d columns", len(r), len(ret.Fields))}
			}
			out := make([]any, len(r))
			for i, v := range r {
				cv, err := convertValue(v, ret.Fields[i].Type)
				if err != nil {
					return &expr.EvalError{Func: f.name, Msg: fmt.Sprintf("emitted column %s: %v", ret.Fields[i].Name, err)}
				}
				out[i] = cv
			}
			if err := emit(out); err != nil {
				return err
			}
		}
		return nil
	})
}
