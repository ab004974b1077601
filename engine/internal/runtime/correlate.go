package runtime

import (
	"fmt"
	"runtime/debug"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Correlate joins each input row with the rows a table function produces
// for it (Flink's Correlate: LATERAL TABLE(f(...)), CROSS JOIN UNNEST).
// The function's arguments are evaluated over the whole batch first; the
// function is then called once per row. Output rows are the input row's
// columns followed by the function's columns, with the input row's
// RowKind (so retractions flow through). With Left set, an input row for
// which the function emits nothing is kept once with NULLs (LEFT JOIN
// LATERAL ... ON TRUE). Cond, when set, filters the joined rows (an ON
// condition); with Left, rows whose candidates all fail it are kept with
// NULLs.
type Correlate struct {
	BaseOperator
	Call    *expr.TableCall
	InTypes []*types.DataType
	Left    bool
	Cond    expr.Expr

	fn   expr.TableFunction
	args []expr.Evaluator
	cond expr.Evaluator
}

// Open implements Operator.
func (c *Correlate) Open(ctx *OpContext, out Output) error {
	c.BaseOperator.Open(ctx, out)
	argTypes := make([]*types.DataType, len(c.Call.Args))
	for i, a := range c.Call.Args {
		ev, err := expr.Compile(a)
		if err != nil {
			return err
		}
		c.args = append(c.args, ev)
		argTypes[i] = a.Type()
	}
	fn, err := c.Call.Fn.Table(argTypes, c.Call.T)
	if err != nil {
		return err
	}
	c.fn = fn
	if c.Cond != nil {
		ev, err := expr.Compile(c.Cond)
		if err != nil {
			return err
		}
		c.cond = ev
	}
	return nil
}

// ProcessBatch implements Operator.
func (c *Correlate) ProcessBatch(_ int, b *types.Batch) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &expr.EvalError{Func: c.Call.Name, Msg: fmt.Sprintf("panic: %v", r), Stack: string(debug.Stack())}
		}
	}()
	vals := make([]*expr.Vec, len(c.args))
	for i, ev := range c.args {
		v, err := ev(c.Ctx.Eval, b)
		if err != nil {
			return err
		}
		vals[i] = v
	}
	outTypes := make([]*types.DataType, len(c.Call.T.Fields))
	for i, f := range c.Call.T.Fields {
		outTypes[i] = f.Type
	}
	builders := make([]array.Builder, len(outTypes))
	for i, t := range outTypes {
		builders[i] = array.NewBuilder(memory.DefaultAllocator, types.ToArrow(t))
	}
	var src []int32
	var kinds []types.RowKind
	nulls := make([]bool, 0)
	args := make([]any, len(vals))
	for i := 0; i < b.Len; i++ {
		for k, v := range vals {
			args[k] = v.Value(i)
		}
		emitted := 0
		err := c.fn.Eval(c.Ctx.Eval, args, func(row []any) error {
			if len(row) != len(outTypes) {
				return fmt.Errorf("table function %s emitted %d values, its row type has %d fields", c.Call.Name, len(row), len(outTypes))
			}
			for k, v := range row {
				types.AppendValue(builders[k], v, outTypes[k])
			}
			src = append(src, int32(i))
			kinds = append(kinds, b.Kind(i))
			nulls = append(nulls, false)
			emitted++
			return nil
		})
		if err != nil {
			if _, ok := err.(*expr.EvalError); ok {
				return err
			}
			return &expr.EvalError{Func: c.Call.Name, Msg: err.Error()}
		}
		if emitted == 0 && c.Left {
			for k := range builders {
				builders[k].AppendNull()
			}
			src = append(src, int32(i))
			kinds = append(kinds, b.Kind(i))
			nulls = append(nulls, true)
		}
	}
	if len(src) == 0 {
		return nil
	}
	cols := make([]arrow.Array, 0, len(b.Cols)+len(builders))
	for _, col := range b.Cols {
		cols = append(cols, vector.Take(col, src))
	}
	for _, bld := range builders {
		cols = append(cols, bld.NewArray())
	}
	out := &types.Batch{Cols: cols, Kinds: kinds, Len: len(src)}
	if b.Kinds == nil {
		out.Kinds = nil
	}
	if c.cond != nil {
		out, err = c.applyCond(out, src, nulls)
		if err != nil {
			return err
		}
	}
	return c.Emit(out)
}

// applyCond filters joined rows by the ON condition; for a LEFT correlate,
// an input row whose joined rows all fail keeps one NULL-padded row.
func (c *Correlate) applyCond(out *types.Batch, src []int32, padded []bool) (*types.Batch, error) {
	pred, err := c.cond(c.Ctx.Eval, out)
	if err != nil {
		return nil, err
	}
	p := pred.Materialize(out.Len)
	var keep []int32
	var padRows []int32
	i := 0
	for i < out.Len {
		j := i
		any := false
		for j < out.Len && src[j] == src[i] {
			if padded[j] || (p.IsValid(j) && p.(*array.Boolean).Value(j)) {
				keep = append(keep, int32(j))
				any = true
			}
			j++
		}
		if !any && c.Left {
			padRows = append(padRows, int32(i))
		}
		i = j
	}
	res := TakeRows(out, keep)
	if len(padRows) == 0 {
		return res, nil
	}
	// NULL-pad the function columns of rows whose candidates all failed
	nIn := len(c.InTypes)
	pad := TakeRows(out, padRows)
	for k := nIn; k < len(pad.Cols); k++ {
		pad.Cols[k] = vector.NullArray(pad.Cols[k].DataType(), pad.Len)
	}
	return ConcatBatches([]*types.Batch{res, pad}, len(out.Cols)), nil
}
