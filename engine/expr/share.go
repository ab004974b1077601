package expr

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
		args := make([]Expr, len(c.Args))
		changed := false
		for i, a := range c.Args {
			args[i] = rewrite(a)
			changed = changed || args[i] != a
		}
		if !changed {
			return c
		}
		nc := *c
		nc.Args = args
		return &nc
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

func shareKey(c *Call) string { return c.String() + " " + c.T.String() }

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
