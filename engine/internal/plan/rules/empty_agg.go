package rules

import (
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// reduceEmptyAggregates replaces a global aggregate (no GROUP BY) over an
// input that is empty by construction (a WHERE that folds to FALSE or
// UNKNOWN, e.g. `x <> CAST(NULL AS INT)`) by the one row it yields, as
// Flink's planner does (Calcite's PruneEmptyRules and AggregateValuesRule):
// COUNT gives 0, SUM, MIN, MAX and AVG give NULL. With any other
// aggregate (variance, LISTAGG, ...) the plan is kept, as Flink keeps it.
//
// The difference shows in streaming mode: a streaming aggregate emits
// nothing until a row arrives, so Riffle returned no row where Flink
// returns e.g. (0, NULL) for SELECT COUNT(*), SUM(m) FROM t WHERE 1 = 0.
func reduceEmptyAggregates(n plan.Node) plan.Node {
	in := n.Inputs()
	if len(in) > 0 {
		next := make([]plan.Node, len(in))
		for i, c := range in {
			next[i] = reduceEmptyAggregates(c)
		}
		n = n.WithInputs(next)
	}
	a, ok := n.(*plan.Aggregate)
	if !ok || len(a.GroupKeys) > 0 || !provablyEmpty(a.Input) {
		return n
	}
	row := make([]expr.Expr, len(a.Aggs))
	for i, ag := range a.Aggs {
		t := a.Cols[i].Type
		switch ag.Func {
		case "COUNT":
			row[i] = &expr.Literal{Value: int64(0), T: t}
		case "SUM", "MIN", "MAX", "AVG":
			row[i] = &expr.Literal{Value: nil, T: t.WithNullable(true)}
		default:
			return n
		}
	}
	cols := make([]plan.Column, len(a.Cols))
	for i, c := range a.Cols {
		cols[i] = plan.Column{Name: c.Name, Type: row[i].Type()}
	}
	return &plan.Values{Rows: [][]expr.Expr{row}, Cols: cols}
}

// provablyEmpty reports an input that yields no rows whatever the data:
// an empty VALUES, or a filter (under projections and filters) with a
// conjunct that is FALSE or UNKNOWN for every row.
func provablyEmpty(n plan.Node) bool {
	switch x := n.(type) {
	case *plan.Values:
		return len(x.Rows) == 0
	case *plan.Project:
		return provablyEmpty(x.Input)
	case *plan.Filter:
		return neverTrue(x.Cond) || provablyEmpty(x.Input)
	}
	return false
}

// neverTrue reports a condition that is FALSE or NULL for every row, by
// evaluating it over the set of truth values each part can take (column
// values unknown, literals known): as Calcite's simplification does,
// comparisons with a NULL literal are NULL, x = x is TRUE or NULL and
// x < x FALSE or NULL, IS NULL of a NOT NULL expression is FALSE, and
// NOT, AND, OR and the IS [NOT] TRUE / FALSE / UNKNOWN tests combine the
// sets.
func neverTrue(e expr.Expr) bool { return truthValues(e)&tvTrue == 0 }

// truth-value sets
const (
	tvTrue  = 1
	tvFalse = 2
	tvNull  = 4
	tvAny   = tvTrue | tvFalse | tvNull
)

func truthValues(e expr.Expr) int {
	switch x := e.(type) {
	case *expr.Literal:
		switch x.Value {
		case nil:
			return tvNull
		case true:
			return tvTrue
		case false:
			return tvFalse
		}
		return tvAny
	case *expr.Call:
		return callTruthValues(x)
	}
	if e.Type().Nullable {
		return tvAny
	}
	return tvTrue | tvFalse
}

func callTruthValues(x *expr.Call) int {
	args := x.Args
	switch x.Name {
	case "=", "<>", "<", "<=", ">", ">=":
		if len(args) != 2 {
			break
		}
		if isNullLiteral(args[0]) || isNullLiteral(args[1]) {
			return tvNull
		}
		if expr.IsDeterministic(args[0]) && expr.Key(args[0]) == expr.Key(args[1]) {
			v := tvFalse
			if x.Name == "=" || x.Name == "<=" || x.Name == ">=" {
				v = tvTrue
			}
			if args[0].Type().Nullable {
				v |= tvNull
			}
			return v
		}
	case "IS NULL":
		if !args[0].Type().Nullable {
			return tvFalse
		}
		if isNullLiteral(args[0]) {
			return tvTrue
		}
		return tvTrue | tvFalse
	case "IS NOT NULL":
		if !args[0].Type().Nullable {
			return tvTrue
		}
		if isNullLiteral(args[0]) {
			return tvFalse
		}
		return tvTrue | tvFalse
	case "NOT":
		v := truthValues(args[0])
		out := v & tvNull
		if v&tvTrue != 0 {
			out |= tvFalse
		}
		if v&tvFalse != 0 {
			out |= tvTrue
		}
		return out
	case "AND", "OR":
		and := x.Name == "AND"
		if and && (contradicts(args) || emptyRange(args)) {
			// p AND NOT p, x IS NULL AND x IS NOT NULL: never TRUE
			return tvFalse | tvNull
		}
		// fold the operands' sets with three-valued AND / OR
		acc := tvTrue
		if !and {
			acc = tvFalse
		}
		for _, a := range args {
			acc = combine3(acc, truthValues(a), and)
		}
		return acc
	case "IS TRUE", "IS NOT TRUE", "IS FALSE", "IS NOT FALSE", "IS UNKNOWN", "IS NOT UNKNOWN":
		v := truthValues(args[0])
		var hit int // the argument values for which the test is TRUE
		switch x.Name {
		case "IS TRUE":
			hit = tvTrue
		case "IS NOT TRUE":
			hit = tvFalse | tvNull
		case "IS FALSE":
			hit = tvFalse
		case "IS NOT FALSE":
			hit = tvTrue | tvNull
		case "IS UNKNOWN":
			hit = tvNull
		case "IS NOT UNKNOWN":
			hit = tvTrue | tvFalse
		}
		out := 0
		if v&hit != 0 {
			out |= tvTrue
		}
		if v&^hit != 0 {
			out |= tvFalse
		}
		return out
	}
	if x.Type().Nullable {
		return tvAny
	}
	return tvTrue | tvFalse
}

// contradicts reports conjuncts of which one is the negation of another
// (NOT p and p, or x IS NOT NULL and x IS NULL).
func contradicts(args []expr.Expr) bool {
	seen := map[string]bool{} // key -> negated
	for _, a := range args {
		neg, key := polarKey(a)
		if !expr.IsDeterministic(a) {
			continue
		}
		if n, ok := seen[key]; ok && n != neg {
			return true
		}
		seen[key] = neg
	}
	// x IS NULL with a comparison of x: the comparison is NULL then
	for _, a := range args {
		c, ok := a.(*expr.Call)
		if !ok || len(c.Args) != 2 {
			continue
		}
		switch c.Name {
		case "=", "<>", "<", "<=", ">", ">=":
			for _, side := range c.Args {
				// through casts, which are NULL on NULL too
				for {
					if n, ok := seen["IS NULL("+expr.Key(side)+")"]; ok && !n {
						return true
					}
					cast, ok := side.(*expr.Call)
					if !ok || cast.Name != "CAST" || len(cast.Args) == 0 {
						break
					}
					side = cast.Args[0]
				}
			}
		}
	}
	return false
}

// polarKey splits a condition into a polarity and a key: NOT p is p
// negated, x IS NOT NULL is x IS NULL negated.
func polarKey(e expr.Expr) (neg bool, key string) {
	if c, ok := e.(*expr.Call); ok && len(c.Args) == 1 {
		switch c.Name {
		case "NOT":
			neg, key := polarKey(c.Args[0])
			return !neg, key
		case "IS NOT NULL":
			return true, "IS NULL(" + expr.Key(c.Args[0]) + ")"
		case "IS NULL":
			return false, "IS NULL(" + expr.Key(c.Args[0]) + ")"
		}
	}
	return false, expr.Key(e)
}

// emptyRange reports conjuncts that bound one expression by numeric
// literals to an empty range (x >= 0.5 AND x <= -1.5, which is how
// x BETWEEN 0.5 AND -1.5 is bound; x > 3 AND x < 2; x = 1 AND x = 2), as
// Calcite's range (Sarg) simplification finds.
func emptyRange(args []expr.Expr) bool {
	type bounds struct {
		lo, hi           float64
		loOpen, hiOpen   bool
		hasLo, hasHi     bool
		loExact, hiExact bool
	}
	ranges := map[string]*bounds{}
	for _, a := range flattenAnd(args) {
		c, ok := a.(*expr.Call)
		if !ok || len(c.Args) != 2 {
			continue
		}
		op := c.Name
		x, lit := c.Args[0], c.Args[1]
		v, exact, isNum := numericLiteral(lit)
		if !isNum {
			if v, exact, isNum = numericLiteral(x); !isNum {
				continue
			}
			x = lit
			op = map[string]string{"<": ">", "<=": ">=", ">": "<", ">=": "<=", "=": "="}[op]
		}
		if !expr.IsDeterministic(x) {
			continue
		}
		k := expr.Key(x)
		r := ranges[k]
		if r == nil {
			r = &bounds{}
			ranges[k] = r
		}
		setLo := func(v float64, open bool) {
			if !r.hasLo || v > r.lo || v == r.lo && open {
				r.lo, r.loOpen, r.hasLo, r.loExact = v, open, true, exact
			}
		}
		setHi := func(v float64, open bool) {
			if !r.hasHi || v < r.hi || v == r.hi && open {
				r.hi, r.hiOpen, r.hasHi, r.hiExact = v, open, true, exact
			}
		}
		switch op {
		case ">":
			setLo(v, true)
		case ">=":
			setLo(v, false)
		case "<":
			setHi(v, true)
		case "<=":
			setHi(v, false)
		case "=":
			setLo(v, false)
			setHi(v, false)
		default:
			continue
		}
		// the conversion to float64 keeps the order but may make two
		// values equal (BIGINT beyond 2^53, most decimals): equal bounds
		// prove nothing unless both are exact
		if r.hasLo && r.hasHi && (r.lo > r.hi || r.lo == r.hi && (r.loOpen || r.hiOpen) && r.loExact && r.hiExact) {
			return true
		}
	}
	return false
}

// flattenAnd lists the operands of nested ANDs.
func flattenAnd(args []expr.Expr) []expr.Expr {
	var out []expr.Expr
	for _, a := range args {
		if c, ok := a.(*expr.Call); ok && c.Name == "AND" {
			out = append(out, flattenAnd(c.Args)...)
			continue
		}
		out = append(out, a)
	}
	return out
}

// numericLiteral returns the value of a non-NULL numeric literal (through
// casts of one) as a float64, and whether that float64 is its exact value.
func numericLiteral(e expr.Expr) (f float64, exact, ok bool) {
	for {
		c, ok := e.(*expr.Call)
		if !ok || c.Name != "CAST" || len(c.Args) == 0 {
			break
		}
		e = c.Args[0]
	}
	l, isLit := e.(*expr.Literal)
	if !isLit || l.Value == nil {
		return 0, false, false
	}
	switch v := l.Value.(type) {
	case int8:
		return float64(v), true, true
	case int16:
		return float64(v), true, true
	case int32:
		return float64(v), true, true
	case int64:
		return float64(v), v >= -1<<53 && v <= 1<<53, true
	case float32:
		return float64(v), true, true
	case float64:
		return v, true, true
	case types.Decimal:
		f, exact := v.Rat().Float64()
		return f, exact, true
	}
	return 0, false, false
}

// combine3 is the set of results of a AND b (or a OR b) for a in sa, b in sb.
func combine3(sa, sb int, and bool) int {
	out := 0
	for _, a := range []int{tvTrue, tvFalse, tvNull} {
		if sa&a == 0 {
			continue
		}
		for _, b := range []int{tvTrue, tvFalse, tvNull} {
			if sb&b == 0 {
				continue
			}
			out |= op3(a, b, and)
		}
	}
	return out
}

func op3(a, b int, and bool) int {
	if and {
		switch {
		case a == tvFalse || b == tvFalse:
			return tvFalse
		case a == tvNull || b == tvNull:
			return tvNull
		}
		return tvTrue
	}
	switch {
	case a == tvTrue || b == tvTrue:
		return tvTrue
	case a == tvNull || b == tvNull:
		return tvNull
	}
	return tvFalse
}

func isNullLiteral(e expr.Expr) bool {
	l, ok := e.(*expr.Literal)
	return ok && l.Value == nil && l.T.Root != types.Symbol
}
