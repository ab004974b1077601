package expr

import (
	"fmt"
	"runtime/debug"
	"time"

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
	// Stack is the goroutine's stack when the error is a panic in the
	// function (Msg "panic: …"), "" otherwise: shown with sql-client.verbose.
	Stack string
}

// PanicStack returns the stack of a panic in the function ("" for other
// errors), for front ends that print it on request (sql-client.verbose).
func (e *EvalError) PanicStack() string { return e.Stack }

// PanicError is a panic recovered in an operator or a function (a bug, or
// a user function's own panic): its message is "panic: " and the value,
// as Flink's SQL Client shows an exception's message; the stack is kept
// for front ends that print it on request (sql-client.verbose).
type PanicError struct {
	Value any
	Stack string
}

// NewPanicError records the panic value r with the current goroutine's
// stack; call it in the deferred function that recovered r.
func NewPanicError(r any) *PanicError {
	return &PanicError{Value: r, Stack: string(debug.Stack())}
}

func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// PanicStack returns the stack where the panic was recovered.
func (e *PanicError) PanicStack() string { return e.Stack }

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
		if t, ok := x.Value.(time.Time); ok {
			if err := types.CheckTimestampRange(t, x.T); err != nil {
				return nil, err
			}
		}
		v := ConstVec(x.Value, x.T)
		return func(*Ctx, *types.Batch) (*Vec, error) { return v, nil }, nil
	case *Call:
		return compileCall(x)
	}
	return nil, fmt.Errorf("expr.Compile: unsupported expression %T", e)
}

func compileCall(c *Call) (Evaluator, error) {
	ev, err := compileCallGeneric(c)
	if err != nil {
		return nil, err
	}
	return fuseDecimalTimesInt(c, ev)
}

func compileCallGeneric(c *Call) (Evaluator, error) {
	if c.Fn == nil {
		return nil, fmt.Errorf("expr.Compile: call %s has no function", c.Name)
	}
	if c.Fn.Lazy != nil {
		return compileLazy(c)
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
		if out.Const {
			// a constant TIMESTAMP(7..9) outside int64 nanoseconds would
			// wrap when materialised: fail instead (types.CheckTimestampRange)
			if t, ok := out.Val.(time.Time); ok {
				if err := types.CheckTimestampRange(t, ret); err != nil {
					return nil, &EvalError{Func: name, Msg: err.Error()}
				}
			}
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
				err = &EvalError{Func: name, Msg: fmt.Sprintf("panic: %v", r), Stack: string(debug.Stack())}
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

// LazyArgs are the arguments of a lazy function (CASE, COALESCE, IF, AND,
// OR), evaluated on demand over all rows of the batch or a subset.
type LazyArgs struct {
	b   *types.Batch
	evs []Evaluator
	// cols[i] lists the columns argument i reads: a subset gathers only
	// those
	cols [][]int
	// safe[i]: argument i never fails (NeverFails); expensive[i]: it
	// calls an expensive function (Expensive)
	safe, expensive []bool
}

// Len is the number of rows of the batch.
func (a *LazyArgs) Len() int { return a.b.Len }

// Count is the number of arguments.
func (a *LazyArgs) Count() int { return len(a.evs) }

// Eval evaluates argument i on the rows sel of the batch (increasing row
// positions; nil means every row) and returns a column of len(sel) rows
// (Len() when sel is nil).
func (a *LazyArgs) Eval(ctx *Ctx, i int, sel []int32) (*Vec, error) {
	if sel == nil || len(sel) == a.b.Len {
		return a.evs[i](ctx, a.b)
	}
	sub := &types.Batch{Cols: make([]arrow.Array, len(a.b.Cols)), Len: len(sel)}
	for _, c := range a.cols[i] {
		if col := a.b.Cols[c]; col != nil {
			sub.Cols[c] = vector.Take(col, sel)
		}
	}
	return a.evs[i](ctx, sub)
}

// EvalCovering evaluates argument i at least on the rows sel (increasing
// positions, a subset of the batch): when the argument never fails and
// sel holds most rows, on every row, which costs less than gathering the
// argument's columns for the subset (a gather costs about as much per row
// and column as a cheap function; past 7/8 of the rows, the rows added
// cost at most 1/7 more of even an expensive function). full reports
// that the result has a row per batch row rather than per element of sel.
func (a *LazyArgs) EvalCovering(ctx *Ctx, i int, sel []int32) (v *Vec, full bool, err error) {
	n := a.b.Len
	if len(sel) < n && a.safe[i] && (len(sel)*8 >= n*7 || !a.expensive[i] && len(sel)*2 >= n) {
		v, err = a.evs[i](ctx, a.b)
		return v, true, err
	}
	v, err = a.Eval(ctx, i, sel)
	return v, len(sel) == n, err
}

// compileLazy compiles a call of a lazy function (CASE, COALESCE, IF, AND,
// OR), which evaluates its arguments on subsets of the rows. Three things
// keep the subsets cheap:
//   - the largest subexpressions of the arguments that cannot fail and
//     cost next to nothing on all rows (column references, ROW field
//     access, comparisons and logic over them; see cheapSafe) are
//     evaluated once on the whole batch and read as extra columns, so a
//     subset gathers, say, one field of a ROW rather than the whole ROW;
//   - a subset of rows gathers only the columns of the argument evaluated
//     on it;
//   - the operands of AND and OR are put in order of cost when none of
//     them can fail (costOrder).
func compileLazy(c *Call) (Evaluator, error) {
	lazy, ret, name := c.Fn.Lazy, c.T, c.Name
	args := c.Args
	if name == "AND" || name == "OR" {
		args = costOrder(args)
	}
	width := 0
	for _, r := range InputRefs(c) {
		width = max(width, r+1)
	}
	var hoisted []Expr
	keys := map[string]int{}
	var hoist func(e Expr) Expr
	hoist = func(e Expr) Expr {
		x, ok := e.(*Call)
		if !ok {
			return e
		}
		if cheapSafe(x) {
			key := exprKey(x) // by column index: names can repeat
			j, seen := keys[key]
			if !seen {
				j = len(hoisted)
				keys[key] = j
				hoisted = append(hoisted, x)
			}
			return &InputRef{Index: width + j, T: x.T}
		}
		return withArgsMapped(x, hoist)
	}
	evs := make([]Evaluator, len(args))
	argTypes := make([]*types.DataType, len(args))
	cols := make([][]int, len(args))
	safe, expensive := make([]bool, len(args)), make([]bool, len(args))
	for i, a := range args {
		safe[i], expensive[i] = NeverFails(a), Expensive(a)
	}
	used := make([]bool, width)
	for i, a := range args {
		ra := hoist(a)
		ev, err := Compile(ra)
		if err != nil {
			return nil, err
		}
		evs[i], argTypes[i], cols[i] = ev, a.Type(), InputRefs(ra)
		for _, r := range cols[i] {
			if r < width {
				used[r] = true
			}
		}
	}
	pre := make([]Evaluator, len(hoisted))
	for j, h := range hoisted {
		ev, err := Compile(h)
		if err != nil {
			return nil, err
		}
		pre[j] = ev
	}
	return guard(name, func(ctx *Ctx, b *types.Batch) (*Vec, error) {
		view := &types.Batch{Cols: make([]arrow.Array, width+len(pre)), Kinds: b.Kinds, Len: b.Len}
		for i, u := range used {
			if u {
				view.Cols[i] = b.Cols[i]
			}
		}
		for j, ev := range pre {
			v, err := ev(ctx, b)
			if err != nil {
				return nil, err
			}
			view.Cols[width+j] = v.Materialize(b.Len)
		}
		return lazy(ctx, &LazyArgs{b: view, evs: evs, cols: cols, safe: safe, expensive: expensive}, argTypes, ret)
	}), nil
}

// cheapSafeFuncs are functions that never fail on well-typed arguments and
// cost about as much on all rows of a batch as on a subset.
var cheapSafeFuncs = map[string]bool{
	"GET_FIELD": true, "=": true, "<>": true, "!=": true, "<": true, ">": true, "<=": true, ">=": true,
	"IS NULL": true, "IS NOT NULL": true, "AND": true, "OR": true, "NOT": true,
}

// cheapSafe reports whether e is built only from column references,
// literals and cheapSafeFuncs over numeric, boolean, temporal or ROW
// values, or comparisons of a string with a literal (comparisons of two
// string columns are left lazy: they are not free).
func cheapSafe(e Expr) bool {
	ok := true
	Walk(e, func(x Expr) bool {
		switch y := x.(type) {
		case *Call:
			if !cheapSafeFuncs[y.Name] || y.Fn == nil || y.Fn.UDF {
				ok = false
				return false
			}
			if y.Name != "GET_FIELD" {
				lit := false
				for _, a := range y.Args {
					if _, isLit := a.(*Literal); isLit {
						lit = true
					}
				}
				for _, a := range y.Args {
					if r := a.Type().Root; r == types.Char || r == types.VarChar || r == types.Binary || r == types.VarBinary {
						if !lit || len(y.Args) != 2 {
							ok = false
						}
					}
				}
			}
		}
		return ok
	})
	return ok
}

// neverFailFuncs are built-in functions that cannot raise an error on
// well-typed arguments (an invalid regular expression gives NULL, as in
// Flink), so evaluating them on more or fewer rows, or in another order,
// cannot change a query's outcome.
var neverFailFuncs = map[string]bool{
	"LOWER": true, "UPPER": true, "IN": true, "CHAR_LENGTH": true, "CHARACTER_LENGTH": true,
	"IS TRUE": true, "IS NOT TRUE": true, "IS FALSE": true, "IS NOT FALSE": true,
	"IS UNKNOWN": true, "IS NOT UNKNOWN": true, "CASE": true, "COALESCE": true,
	"REGEXP": true, "REGEXP_EXTRACT": true, "REGEXP_SUBSTR": true, "REGEXP_INSTR": true, "REGEXP_COUNT": true,
}

// expensiveFuncs cost far more per row than a comparison.
var expensiveFuncs = map[string]bool{
	"REGEXP": true, "REGEXP_EXTRACT": true, "REGEXP_SUBSTR": true, "REGEXP_INSTR": true, "REGEXP_COUNT": true,
	"REGEXP_REPLACE": true, "REGEXP_EXTRACT_ALL": true, "SIMILAR TO": true, "NOT SIMILAR TO": true,
	"JSON_VALUE": true, "JSON_QUERY": true, "JSON_EXISTS": true, "IS JSON": true, "JSON_STRING": true,
}

// NeverFails reports whether evaluating e can never raise an error and
// gives the same result whenever it is evaluated: it is built from column
// references, literals and built-in functions that cannot fail
// (cheapSafeFuncs, neverFailFuncs).
func NeverFails(e Expr) bool {
	ok := true
	Walk(e, func(x Expr) bool {
		if y, isCall := x.(*Call); isCall {
			if y.Fn == nil || y.Fn.UDF || y.Fn.NonDeterministic || !cheapSafeFuncs[y.Name] && !neverFailFuncs[y.Name] {
				ok = false
			}
		}
		return ok
	})
	return ok
}

// Expensive reports whether e calls a function that costs far more per row
// than a comparison (regular expressions, JSON functions, user-defined
// functions).
func Expensive(e Expr) bool {
	exp := false
	Walk(e, func(x Expr) bool {
		if y, isCall := x.(*Call); isCall && (expensiveFuncs[y.Name] || y.Fn != nil && y.Fn.UDF) {
			exp = true
		}
		return !exp
	})
	return exp
}

// costOrder orders the operands of AND or OR by cost: those cheapSafe
// first, those calling expensive functions last, the others between, each
// group in its written order. AND and OR are commutative in SQL's
// three-valued logic, so the result is the same; the operands are
// reordered only when none can fail, so no error is raised or hidden by
// the new order. With the lazy evaluation of AND and OR, an expensive
// operand is then evaluated only on the rows the cheaper ones leave
// undecided (Flink's generated code also evaluates operands only until
// the result is known, in written order).
func costOrder(args []Expr) []Expr {
	rank := make([]int, len(args))
	for i, a := range args {
		if !NeverFails(a) {
			return args
		}
		switch {
		case cheapSafe(a):
			rank[i] = 0
		case Expensive(a):
			rank[i] = 2
		default:
			rank[i] = 1
		}
	}
	out := make([]Expr, 0, len(args))
	for r := 0; r <= 2; r++ {
		for i, a := range args {
			if rank[i] == r {
				out = append(out, a)
			}
		}
	}
	return out
}

// scatterStrings is scatter for strings: the values are appended straight
// from the parts (constants or arrays), without gathering.
func scatterStrings(n int, parts []*Vec, which []int8, pos []int32) arrow.Array {
	acc := make([]strAccess, len(parts))
	for i, p := range parts {
		if p != nil {
			acc[i] = strOf(p)
		}
	}
	sb := vector.NewStringBuilder(n, 8)
	for i := 0; i < n; i++ {
		w := which[i]
		if w < 0 || parts[w] == nil || parts[w].Null(int(pos[i])) {
			sb.AppendNull()
			continue
		}
		sb.AppendString(acc[w].at(int(pos[i])))
	}
	return sb.Finish(false)
}

// scatter builds a column of n rows taking row i from parts[which[i]] at
// position pos[i]; it is how lazy functions put branch results together.
func scatter(t *types.DataType, n int, parts []*Vec, which []int8, pos []int32) arrow.Array {
	if t.Root == types.Char || t.Root == types.VarChar {
		return scatterStrings(n, parts, which, pos)
	}
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
