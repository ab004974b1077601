package expr

import (
	"strconv"
	"strings"

	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// ShareSubexpressions finds the subexpressions of exprs worth computing
// once per batch, before the expressions, as Flink's code generator reuses
// a common expression within one Calc (its filter and projection): every
// ROW field access (GET_FIELD chains over a column, free to compute), and
// every call appearing more than once that never fails, is deterministic
// and not expensive (NeverFails, Expensive; e.g. LOWER(channel) used in a
// filter and in four CASE conditions). Regular expressions and JSON calls
// are not shared this way, since computing them on every row would undo
// the lazy evaluation of AND, OR and CASE, which runs them only on the
// rows that need them.
//
// width is the number of input columns (greater than every InputRef
// index). The result lists the shared expressions, over the input
// columns, and exprs rewritten to read shared expression j as column
// width+j; nil entries of exprs stay nil. It returns no shared
// expressions, and exprs unchanged, when there is nothing to share.
func ShareSubexpressions(exprs []Expr, width int) (shared []Expr, rewritten []Expr) {
	count := map[string]int{}
	for _, e := range exprs {
		if e == nil {
			continue
		}
		Walk(e, func(x Expr) bool {
			if c, ok := x.(*Call); ok {
				count[shareKey(c)]++
			}
			return true
		})
	}
	index := map[string]int{}
	var rewrite func(e Expr) Expr
	rewrite = func(e Expr) Expr {
		c, ok := e.(*Call)
		if !ok {
			return e
		}
		if isGetFieldChain(c) || count[shareKey(c)] > 1 && NeverFails(c) && !Expensive(c) && !IsConstant(c) {
			k := shareKey(c)
			j, seen := index[k]
			if !seen {
				j = len(shared)
				index[k] = j
				shared = append(shared, c)
			}
			return &InputRef{Index: width + j, T: c.T}
		}
		return withArgsMapped(c, rewrite)
	}
	rewritten = make([]Expr, len(exprs))
	for i, e := range exprs {
		if e != nil {
			rewritten[i] = rewrite(e)
		}
	}
	if len(shared) == 0 {
		return nil, exprs
	}
	return shared, rewritten
}

func shareKey(c *Call) string { return exprKey(c) }

// Key identifies an expression by its structure, columns by index (two
// columns can have the same name): equal keys mean the same value on
// every row, for deterministic expressions.
func Key(e Expr) string { return exprKey(e) }

// exprKey identifies an expression by its structure: a column by its
// index (String shows its name, and two columns may have the same one, as
// a join's a.g and b.g do), a call by its name, arguments and type, any
// other expression by its text and type.
func exprKey(e Expr) string {
	var b strings.Builder
	writeExprKey(&b, e)
	return b.String()
}

func writeExprKey(b *strings.Builder, e Expr) {
	switch x := e.(type) {
	case *InputRef:
		b.WriteString("$" + strconv.Itoa(x.Index))
	case *Call:
		b.WriteString(x.Name)
		b.WriteByte('(')
		for i, a := range x.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExprKey(b, a)
		}
		b.WriteString(") ")
		b.WriteString(x.T.String())
	default:
		b.WriteString(e.String())
		b.WriteByte(' ')
		b.WriteString(e.Type().String())
	}
}

// isGetFieldChain reports a ROW field access (GET_FIELD with a literal
// name) on a column or on such an access.
func isGetFieldChain(c *Call) bool {
	if c.Name != "GET_FIELD" || len(c.Args) != 2 || c.Fn == nil || c.Fn.UDF {
		return false
	}
	if _, ok := c.Args[1].(*Literal); !ok {
		return false
	}
	switch x := c.Args[0].(type) {
	case *InputRef:
		return true
	case *Call:
		return isGetFieldChain(x)
	}
	return false
}

// Memo holds, for one batch, the values computed so far of the expensive
// subexpressions a Calc shares between its filter and projection (see
// Memoize), by row of the batch. It belongs to one operator instance and
// is not safe for concurrent use.
type Memo struct {
	gen   int
	n     int
	slots []*memoSlot
}

// Reset starts a batch of n rows, forgetting every value.
func (m *Memo) Reset(n int) {
	m.gen++
	m.n = n
}

type memoSlot struct {
	gen   int
	parts []*Vec
	// which and pos locate the value of batch row r: parts[which[r]] at
	// pos[r]; which[r] < 0 when not computed yet
	which []int8
	pos   []int32
}

// maxMemoParts bounds the evaluations stored per batch and expression.
const maxMemoParts = 100

func (m *Memo) slot(j int) *memoSlot {
	s := m.slots[j]
	if s.gen != m.gen {
		s.gen = m.gen
		s.parts = s.parts[:0]
		if cap(s.which) < m.n {
			s.which = make([]int8, m.n)
			s.pos = make([]int32, m.n)
		}
		s.which = s.which[:m.n]
		s.pos = s.pos[:m.n]
		for i := range s.which {
			s.which[i] = -1
		}
	}
	return s
}

// Memoize rewrites exprs so that an expensive call (Expensive) occurring
// more than once, which never fails and is deterministic, with column
// references and literals as arguments, is computed at most once per row
// of a batch, and only on the rows where some occurrence is evaluated:
// e.g. q21's REGEXP_EXTRACT(url, ...), in the filter's OR after a cheaper
// operand and in a CASE's ELSE branch. Each occurrence becomes a call
// that also reads column rowID, the position of the row in the batch
// (which survives the subsets of lazy evaluation and the filter's
// selection), and looks the row up in memo before computing. The caller
// resets memo for every batch and adds the rowID column (INT, 0..n-1).
// The returned memo is nil, and exprs unchanged, when nothing qualifies.
func Memoize(exprs []Expr, rowID int) (*Memo, []Expr) {
	count := map[string]int{}
	for _, e := range exprs {
		if e == nil {
			continue
		}
		Walk(e, func(x Expr) bool {
			if c, ok := x.(*Call); ok {
				count[shareKey(c)]++
			}
			return true
		})
	}
	memo := &Memo{}
	index := map[string]int{}
	rowRef := &InputRef{Index: rowID, Name: "$row", T: types.IntType().NotNull()}
	var rewrite func(e Expr) Expr
	rewrite = func(e Expr) Expr {
		c, ok := e.(*Call)
		if !ok {
			return e
		}
		k := shareKey(c)
		if count[k] > 1 && memoizable(c) {
			j, seen := index[k]
			if !seen {
				j = len(memo.slots)
				index[k] = j
				memo.slots = append(memo.slots, &memoSlot{})
			}
			fn := memoFunction(c, memo, j)
			return &Call{Name: c.Name, Fn: fn, Args: append([]Expr{rowRef}, c.Args...), T: c.T}
		}
		return withArgsMapped(c, rewrite)
	}
	out := make([]Expr, len(exprs))
	for i, e := range exprs {
		if e != nil {
			out[i] = rewrite(e)
		}
	}
	if len(memo.slots) == 0 {
		return nil, exprs
	}
	return memo, out
}

func memoizable(c *Call) bool {
	if c.Fn == nil || c.Fn.Build == nil || c.Fn.Lazy != nil || !NeverFails(c) || !Expensive(c) {
		return false
	}
	for _, a := range c.Args {
		switch a.(type) {
		case *InputRef, *Literal:
		default:
			return false
		}
	}
	return true
}

// memoFunction is the function of a memoized call: argument 0 is the row
// position, the others those of c.
func memoFunction(c *Call, memo *Memo, j int) *Function {
	orig := c.Fn
	argTypes := make([]*types.DataType, len(c.Args))
	for i, a := range c.Args {
		argTypes[i] = a.Type()
	}
	f := *orig
	f.Build = func(_ []*types.DataType, ret *types.DataType) (Kernel, error) {
		inner, err := orig.Build(argTypes, ret)
		if err != nil {
			return nil, err
		}
		return func(ctx *Ctx, a []*Vec, n int) (*Vec, error) {
			s := memo.slot(j)
			if len(s.parts) >= maxMemoParts || a[0].Const {
				return inner(ctx, a[1:], n)
			}
			ids := a[0].Arr.(*array.Int32).Int32Values()
			var missing []int32
			for i := 0; i < n; i++ {
				if s.which[ids[i]] < 0 {
					missing = append(missing, int32(i))
				}
			}
			if len(missing) > 0 {
				args := a[1:]
				if len(missing) < n {
					args = make([]*Vec, len(a)-1)
					for i, v := range a[1:] {
						args[i] = v
						if !v.Const {
							args[i] = &Vec{Arr: vector.Take(v.Arr, missing), T: v.T}
						}
					}
				}
				v, err := inner(ctx, args, len(missing))
				if err != nil {
					return nil, err
				}
				if v.T == nil {
					v.T = ret
				}
				p := int8(len(s.parts))
				s.parts = append(s.parts, v)
				for k, i := range missing {
					s.which[ids[i]] = p
					s.pos[ids[i]] = int32(k)
				}
				if len(missing) == n {
					return v, nil
				}
			}
			which := make([]int8, n)
			pos := make([]int32, n)
			for i := 0; i < n; i++ {
				which[i] = s.which[ids[i]]
				pos[i] = s.pos[ids[i]]
			}
			return ArrVec(scatter(ret, n, s.parts, which, pos), ret), nil
		}, nil
	}
	return &f
}

// withArgsMapped returns c with f applied to each argument: c itself when
// f changes none of them, otherwise a copy of the call with the new
// arguments (the tree rewriters never modify a Call in place).
func withArgsMapped(c *Call, f func(Expr) Expr) Expr {
	var args []Expr
	for i, a := range c.Args {
		na := f(a)
		if na != a && args == nil {
			args = make([]Expr, len(c.Args))
			copy(args, c.Args[:i])
		}
		if args != nil {
			args[i] = na
		}
	}
	if args == nil {
		return c
	}
	nc := *c
	nc.Args = args
	return &nc
}
