package expr

import (
	"fmt"
	"runtime/debug"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Evaluator computes an expression over a whole batch.
type Evaluator func(ctx *Ctx, b *types.Batch) (*Vec, error)

// EvalError is a runtime failure of a function, naming it and the value
// that caused it (e.g. a bad CAST, integer division by zero).
type EvalError struct {
	Func string
	Msg  string
}

func (e *EvalError) Error() string {
	if e.Func == "" {
		return e.Msg
	}
	return fmt.Sprintf("%s: %s", e.Func, e.Msg)
}

// Compile turns an expression into an evaluator, binding every function's
// kernel once. It fails when a function has no kernel for its types.
func Compile(e Expr) (Evaluator, error) {
	switch x := e.(type) {
	case *InputRef:
		idx, t := x.Index, x.T
		return func(_ *Ctx, b *types.Batch) (*Vec, error) {
			return &Vec{Arr: b.Cols[idx], T: t}, nil
		}, nil
	case *Literal:
		v := ConstVec(x.Value, x.T)
		return func(*Ctx, *types.Batch) (*Vec, error) { return v, nil }, nil
	case *Call:
		return compileCall(x)
	}
	return nil, fmt.Errorf("expr.Compile: unsupported expression %T", e)
}

func compileCall(c *Call) (Evaluator, error) {
	if c.Fn == nil {
		return nil, fmt.Errorf("expr.Compile: call %s has no function", c.Name)
	}
	args := make([]Evaluator, len(c.Args))
	argTypes := make([]*types.DataType, len(c.Args))
	for i, a := range c.Args {
		ev, err := Compile(a)
		if err != nil {
			return nil, err
		}
		args[i] = ev
		argTypes[i] = a.Type()
	}
	name := c.Name
	if c.Fn.Lazy != nil {
		return compileLazy(c, args, argTypes), nil
	}
	if c.Fn.Build == nil {
		return nil, fmt.Errorf("function %s cannot be evaluated here", name)
	}
	k, err := c.Fn.Build(argTypes, c.T)
	if err != nil {
		return nil, err
	}
	ret := c.T
	return guard(name, func(ctx *Ctx, b *types.Batch) (*Vec, error) {
		vals := make([]*Vec, len(args))
		for i, ev := range args {
			v, err := ev(ctx, b)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		out, err := k(ctx, vals, b.Len)
		if err != nil {
			return nil, err
		}
		if out.T == nil {
			out.T = ret
		}
		return out, nil
	}), nil
}

// guard turns a panic inside a kernel (a bug, or a user function) into an
// error naming the function, with the stack.
func guard(name string, ev Evaluator) Evaluator {
	return func(ctx *Ctx, b *types.Batch) (v *Vec, err error) {
		defer func() {
			if r := recover(); r != nil {
				err = &EvalError{Func: name, Msg: fmt.Sprintf("panic: %v\n%s", r, debug.Stack())}
			}
		}()
		return ev(ctx, b)
	}
}

// EvalArray evaluates and materialises the result as an array of b.Len rows.
func EvalArray(ev Evaluator, ctx *Ctx, b *types.Batch) (arrow.Array, error) {
	v, err := ev(ctx, b)
	if err != nil {
		return nil, err
	}
	return v.Materialize(b.Len), nil
}

// EvalConst evaluates a constant expression (no input columns).
func EvalConst(e Expr, ctx *Ctx) (any, error) {
	ev, err := Compile(e)
	if err != nil {
		return nil, err
	}
	v, err := ev(ctx, &types.Batch{Len: 1})
	if err != nil {
		return nil, err
	}
	return v.Value(0), nil
}

// evalSubset evaluates ev on the rows sel of b and returns a column of
// len(sel) rows.
func evalSubset(ctx *Ctx, ev Evaluator, b *types.Batch, sel []int32) (*Vec, error) {
	if len(sel) == b.Len {
		return ev(ctx, b)
	}
	sub := &types.Batch{Cols: make([]arrow.Array, len(b.Cols)), Len: len(sel)}
	for i, c := range b.Cols {
		// compileLazy leaves the columns no argument reads nil
		if c != nil {
			sub.Cols[i] = vector.Take(c, sel)
		}
	}
	return ev(ctx, sub)
}

// compileLazy compiles a call of a lazy function (CASE, COALESCE, IF...),
// which evaluates its arguments on subsets of the rows. Two things keep
// the subsets cheap: the batch handed to the function holds only the
// columns its arguments read (the others are nil, so evalSubset does not
// gather them), and arguments that cannot fail and cost next to nothing
// on all rows (column references, ROW field access, comparisons and
// logic over them; see cheapSafe) are evaluated once on the whole batch
// and handed over as extra columns, so a subset gathers their values
// instead of whole ROW columns.
func compileLazy(c *Call, args []Evaluator, argTypes []*types.DataType) Evaluator {
	lazy, ret, name := c.Fn.Lazy, c.T, c.Name
	used := map[int]bool{}
	var pre []int // argument positions evaluated up front
	for i, a := range c.Args {
		if _, ok := a.(*Call); ok && cheapSafe(a) {
			pre = append(pre, i)
			continue
		}
		for _, r := range InputRefs(a) {
			used[r] = true
		}
	}
	return guard(name, func(ctx *Ctx, b *types.Batch) (*Vec, error) {
		view := &types.Batch{Cols: make([]arrow.Array, len(b.Cols), len(b.Cols)+len(pre)), Kinds: b.Kinds, Len: b.Len}
		for i, col := range b.Cols {
			if used[i] {
				view.Cols[i] = col
			}
		}
		evs := args
		if len(pre) > 0 {
			evs = append([]Evaluator(nil), args...)
			for _, i := range pre {
				v, err := args[i](ctx, b)
				if err != nil {
					return nil, err
				}
				idx, t := len(view.Cols), argTypes[i]
				view.Cols = append(view.Cols, v.Materialize(b.Len))
				evs[i] = func(_ *Ctx, sb *types.Batch) (*Vec, error) {
					return &Vec{Arr: sb.Cols[idx], T: t}, nil
				}
			}
		}
		return lazy(ctx, view, evs, argTypes, ret)
	})
}

// cheapSafeFuncs are functions that never fail on well-typed arguments and
// cost about as much on all rows of a batch as on a subset.
var cheapSafeFuncs = map[string]bool{
	"GET_FIELD": true, "=": true, "<>": true, "!=": true, "<": true, ">": true, "<=": true, ">=": true,
	"IS NULL": true, "IS NOT NULL": true, "AND": true, "OR": true, "NOT": true,
}

// cheapSafe reports whether e is built only from column references,
// literals and cheapSafeFuncs over numeric, boolean, temporal or ROW
// values (string comparisons are left lazy: they are not free).
func cheapSafe(e Expr) bool {
	ok := true
	Walk(e, func(x Expr) bool {
		switch y := x.(type) {
		case *Call:
			if !cheapSafeFuncs[y.Name] {
				ok = false
				return false
			}
			if y.Name != "GET_FIELD" {
				for _, a := range y.Args {
					if r := a.Type().Root; r == types.Char || r == types.VarChar || r == types.Binary || r == types.VarBinary {
						ok = false
					}
				}
			}
		}
		return ok
	})
	return ok
}

// scatter builds a column of n rows taking row i from parts[which[i]] at
// position pos[i]; it is how lazy functions put branch results together.
func scatter(t *types.DataType, n int, parts []*Vec, which []int8, pos []int32) arrow.Array {
	need := make([]int, len(parts))
	for i, w := range which {
		if w >= 0 && int(pos[i])+1 > need[w] {
			need[w] = int(pos[i]) + 1
		}
	}
	arrs := make([]arrow.Array, len(parts))
	for i, p := range parts {
		if p != nil {
			arrs[i] = p.Materialize(max(need[i], 1))
		}
	}
	// concatenate the parts and take by global index
	offsets := make([]int32, len(parts)+1)
	var all []arrow.Array
	for i, a := range arrs {
		offsets[i+1] = offsets[i]
		if a != nil {
			all = append(all, a)
			offsets[i+1] += int32(a.Len())
		}
	}
	if len(all) == 0 {
		return vector.NullArray(types.ToArrow(t), n)
	}
	cat := vector.Concat(all)
	idx := make([]int32, n)
	for i := 0; i < n; i++ {
		w := which[i]
		if w < 0 || arrs[w] == nil {
			idx[i] = -1
			continue
		}
		idx[i] = offsets[w] + pos[i]
	}
	return vector.Take(cat, idx)
}
