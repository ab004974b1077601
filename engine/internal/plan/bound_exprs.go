package plan

// Helpers over bound expressions shared by the binder, the rewrite rules
// and physical planning.

import (
	"github.com/riffle-sql/riffle/engine/expr"
)

// Conjuncts splits a condition on AND.
func Conjuncts(e expr.Expr) []expr.Expr {
	if c, ok := e.(*expr.Call); ok && c.Name == "AND" {
		var out []expr.Expr
		for _, a := range c.Args {
			out = append(out, Conjuncts(a)...)
		}
		return out
	}
	return []expr.Expr{e}
}

// AndOf builds the conjunction of conditions (nil for none).
func AndOf(es []expr.Expr) expr.Expr {
	switch len(es) {
	case 0:
		return nil
	case 1:
		return es[0]
	}
	f, _ := expr.Builtins.Lookup("AND")
	c, err := expr.ResolveCall(f, "AND", es)
	if err != nil {
		return es[0]
	}
	return c
}

// RefsWithin reports whether every input reference of e is in [lo, hi).
func RefsWithin(e expr.Expr, lo, hi int) bool {
	for _, r := range expr.InputRefs(e) {
		if r < lo || r >= hi {
			return false
		}
	}
	return true
}

// Substitute replaces each InputRef i in e by exprs[i].
func Substitute(e expr.Expr, exprs []expr.Expr) expr.Expr {
	return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
		if r, ok := x.(*expr.InputRef); ok {
			return exprs[r.Index]
		}
		return x
	})
}

// Shift adds by to every input reference of e (e moves to the right of
// by columns).
func Shift(e expr.Expr, by int) expr.Expr {
	return expr.ShiftInputs(e, func(i int) int { return i + by })
}

// SubstituteAll substitutes by into each of es (see Substitute).
func SubstituteAll(es, by []expr.Expr) []expr.Expr {
	out := make([]expr.Expr, len(es))
	for i, e := range es {
		out[i] = Substitute(e, by)
	}
	return out
}

// ToInt64 converts a literal's integer value (int8, int16, int32 or
// int64) to int64; other values give 0.
func ToInt64(v any) int64 {
	switch x := v.(type) {
	case int8:
		return int64(x)
	case int16:
		return int64(x)
	case int32:
		return int64(x)
	case int64:
		return x
	}
	return 0
}
