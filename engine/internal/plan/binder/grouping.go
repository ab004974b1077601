package binder

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// GROUPING SETS, ROLLUP and CUBE, with GROUPING(), GROUPING_ID() and
// GROUP_ID(), planned as Flink does: an Expand step (here a Correlate with
// the internal EXPAND table function) emits each input row once per
// grouping set with the keys outside the set NULL and a set id $e, and the
// aggregate groups by the expanded keys and $e.
//
// $e has a bit per key, most significant first, set when the key is not in
// the grouping set (so GROUPING(k) is that bit and GROUPING_ID(a, b) the
// concatenation of the bits of a and b); duplicate grouping sets add their
// occurrence number above these bits, which GROUP_ID() returns.

// groupingSets binds the GROUP BY clause: the distinct key expressions and,
// when the clause has grouping sets, the sets as key indexes (nil for a
// plain GROUP BY of all keys).
func (b *binder) groupingSets(s *sql.Select, sc *scope) ([]expr.Expr, []string, [][]int) {
	var keys []expr.Expr
	var strs []string
	keyOf := func(ge sql.Expr) int {
		if containsAgg(b, ge) {
			b.failAt(ge, "Aggregate expression is illegal in GROUP BY clause")
		}
		e := b.expr(ge, sc)
		str := exprKey(e)
		for i, x := range strs {
			if x == str {
				return i
			}
		}
		keys = append(keys, e)
		strs = append(strs, str)
		return len(keys) - 1
	}
	items := func(es []sql.Expr) []int {
		var out []int
		for _, e := range es {
			if r, ok := e.(*sql.RowExpr); ok && !r.Explicit {
				for _, it := range r.Items {
					out = append(out, keyOf(it))
				}
				continue
			}
			out = append(out, keyOf(e))
		}
		return out
	}
	plain := true
	var elemSets [][][]int // per GROUP BY element, its list of sets
	var expand func(g *sql.GroupingElement) [][]int
	expand = func(g *sql.GroupingElement) [][]int {
		switch g.Kind {
		case sql.GroupExpr:
			return [][]int{items(g.Exprs)}
		case sql.GroupEmpty:
			plain = false
			return [][]int{{}}
		case sql.GroupRollup:
			plain = false
			var parts [][]int
			for _, e := range g.Exprs {
				parts = append(parts, items([]sql.Expr{e}))
			}
			var out [][]int
			for i := len(parts); i >= 0; i-- {
				var set []int
				for _, p := range parts[:i] {
					set = append(set, p...)
				}
				out = append(out, set)
			}
			return out
		case sql.GroupCube:
			plain = false
			var parts [][]int
			for _, e := range g.Exprs {
				parts = append(parts, items([]sql.Expr{e}))
			}
			if len(parts) > 12 {
				b.failAt(g, "CUBE of more than 12 expressions is not supported")
			}
			var out [][]int
			n := len(parts)
			for mask := (1 << n) - 1; mask >= 0; mask-- {
				var set []int
				for i := 0; i < n; i++ {
					if mask&(1<<(n-1-i)) != 0 {
						set = append(set, parts[i]...)
					}
				}
				out = append(out, set)
			}
			return out
		case sql.GroupSets:
			plain = false
			var out [][]int
			for _, sub := range g.Sets {
				out = append(out, expand(sub)...)
			}
			return out
		}
		b.failAt(g, "unsupported grouping element")
		return nil
	}
	for _, g := range s.GroupBy {
		elemSets = append(elemSets, expand(g))
	}
	if plain || s.GroupByQuantifier == "" && len(elemSets) == 0 {
		return keys, strs, nil
	}
	// cross product of the elements' sets
	sets := [][]int{{}}
	for _, es := range elemSets {
		var next [][]int
		for _, prefix := range sets {
			for _, set := range es {
				next = append(next, append(append([]int(nil), prefix...), set...))
			}
		}
		sets = next
	}
	if s.GroupByQuantifier == "DISTINCT" {
		seen := map[string]bool{}
		var uniq [][]int
		for _, set := range sets {
			k := setKey(set)
			if !seen[k] {
				seen[k] = true
				uniq = append(uniq, set)
			}
		}
		sets = uniq
	}
	if len(sets) == 1 && len(setKey(sets[0])) == len(setKey(identitySet(len(keys)))) {
		// one grouping set of all the keys (GROUP BY (), GROUP BY
		// GROUPING SETS ((a, b))) is a plain aggregation, as Calcite makes
		// it: a global aggregate has its one row also over no input
		return keys, strs, nil
	}
	return keys, strs, sets
}

func identitySet(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

func setKey(set []int) string {
	m := map[int]bool{}
	for _, k := range set {
		m[k] = true
	}
	var parts []string
	for k := 0; k < 64; k++ {
		if m[k] {
			parts = append(parts, strconv.Itoa(k))
		}
	}
	return strings.Join(parts, ",")
}

// expandSets puts the EXPAND correlate over pre (whose first nk columns are
// the keys) and returns it with the aggregate's grouping columns.
func (b *binder) expandSets(pre plan.Node, nk int, sets [][]int) (plan.Node, []int) {
	cols := pre.Columns()
	args := make([]expr.Expr, 0, nk+1)
	for i := 0; i < nk; i++ {
		args = append(args, &expr.InputRef{Index: i, Name: cols[i].Name, T: cols[i].Type})
	}
	// keys in no set (correlation keys) are grouped in every set
	mentioned := map[int]bool{}
	for _, set := range sets {
		for _, k := range set {
			mentioned[k] = true
		}
	}
	var spec []string
	for _, set := range sets {
		in := map[int]bool{}
		for _, k := range set {
			in[k] = true
		}
		var parts []string
		for k := 0; k < nk; k++ {
			if in[k] || !mentioned[k] {
				parts = append(parts, strconv.Itoa(k))
			}
		}
		spec = append(spec, strings.Join(parts, ","))
	}
	args = append(args, expr.Symbol(strings.Join(spec, ";")))
	f, _ := expr.Builtins.Lookup("EXPAND")
	call, err := expr.ResolveTableCall(f, "EXPAND", args)
	if err != nil {
		b.fail(err)
	}
	out := append([]plan.Column(nil), cols...)
	for i, fld := range call.T.Fields {
		name := fld.Name
		if i < nk {
			name = cols[i].Name
		}
		out = append(out, plan.Column{Name: name, Type: fld.Type})
	}
	n := &plan.Correlate{Input: pre, Call: call, Cols: out}
	keys := make([]int, nk+1)
	for i := range keys {
		keys[i] = len(cols) + i
	}
	return n, keys
}

func isGroupingFunc(c *sql.FuncCall) bool {
	if len(c.Name.Parts) != 1 {
		return false
	}
	switch strings.ToUpper(c.Name.Parts[0].Name) {
	case "GROUPING", "GROUPING_ID", "GROUP_ID":
		return true
	}
	return false
}

// groupingCall binds GROUPING(...), GROUPING_ID(...) or GROUP_ID() over the
// aggregate output (the set id $e is column nk when expanded).
func (b *binder) groupingCall(c *sql.FuncCall, sc *scope, keyStrs []string, expanded bool, nk int) expr.Expr {
	name := strings.ToUpper(c.Name.Parts[0].Name)
	bigint := types.BigIntType().NotNull()
	e := &expr.InputRef{Index: nk, Name: "$e", T: bigint}
	lit := func(v int64) expr.Expr { return &expr.Literal{Value: v, T: bigint} }
	if name == "GROUP_ID" {
		if len(c.Args) != 0 {
			b.failAt(c, "Invalid number of arguments to function 'GROUP_ID'. Was expecting 0 arguments, got %d", len(c.Args))
		}
		if !expanded {
			return lit(0)
		}
		return b.call(c, "/", e, lit(int64(1)<<nk))
	}
	if len(c.Args) == 0 {
		b.failAt(c, "Invalid number of arguments to function '%s'. Was expecting at least 1 arguments, got 0", name)
	}
	if name == "GROUPING" && len(c.Args) > 1 {
		name = "GROUPING_ID"
	}
	var out expr.Expr = lit(0)
	for i, a := range c.Args {
		ae := b.expr(a, sc)
		pos := -1
		for k, s := range keyStrs {
			if s == exprKey(ae) {
				pos = k
			}
		}
		if pos < 0 {
			b.failAt(a, "Argument to %s operator must be a grouped expression", name)
		}
		if !expanded {
			continue
		}
		// bit of key pos: (e / 2^(nk-1-pos)) % 2
		bit := b.call(a, "MOD", b.call(a, "/", e, lit(int64(1)<<(nk-1-pos))), lit(2))
		shift := len(c.Args) - 1 - i
		term := bit
		if shift > 0 {
			term = b.call(a, "*", bit, lit(int64(1)<<shift))
		}
		out = b.call(a, "+", out, term)
	}
	return out
}

func init() {
	for _, name := range []string{"GROUPING", "GROUPING_ID", "GROUP_ID"} {
		expr.Builtins.Register(&expr.Function{Name: name, Kind: expr.AggregateKind, Category: "Grouping", MinArgs: 0, MaxArgs: -1,
			Signatures: []string{map[string]string{
				"GROUPING":    "GROUPING(expression1 [, expression2]*) -> BIGINT, 1 when the expression is not grouped in the current grouping set",
				"GROUPING_ID": "GROUPING_ID(expression1 [, expression2]*) -> BIGINT, the bit vector of GROUPING of the expressions",
				"GROUP_ID":    "GROUP_ID() -> BIGINT, the occurrence number of a duplicate grouping set",
			}[name]},
			Infer: func(c *expr.InferCtx) (*types.DataType, error) { return types.BigIntType().NotNull(), nil }})
	}
	expr.Builtins.Register(&expr.Function{Name: "EXPAND", Kind: expr.TableKind, Category: "Internal", Internal: true,
		MinArgs: 1, MaxArgs: -1,
		Infer: func(c *expr.InferCtx) (*types.DataType, error) {
			fields := make([]types.Field, 0, len(c.Args))
			for i, t := range c.Args[:len(c.Args)-1] {
				fields = append(fields, types.Field{Name: fmt.Sprintf("k%d", i), Type: t.WithNullable(true)})
			}
			fields = append(fields, types.Field{Name: "$e", Type: types.BigIntType().NotNull()})
			return types.RowType(fields...), nil
		},
		Table: func(args []*types.DataType, ret *types.DataType) (expr.TableFunction, error) {
			nk := len(args) - 1
			return expr.TableFunctionFunc(func(ctx *expr.Ctx, a []any, emit func([]any) error) error {
				spec, _ := a[nk].(string)
				row := make([]any, nk+1)
				seen := map[string]int64{}
				for _, set := range strings.Split(spec, ";") {
					in := map[int]bool{}
					if set != "" {
						for _, k := range strings.Split(set, ",") {
							i, _ := strconv.Atoi(k)
							in[i] = true
						}
					}
					var bits int64
					for k := 0; k < nk; k++ {
						if in[k] {
							row[k] = a[k]
						} else {
							row[k] = nil
							bits |= 1 << (nk - 1 - k)
						}
					}
					dup := seen[set]
					seen[set]++
					row[nk] = bits | dup<<nk
					if err := emit(row); err != nil {
						return err
					}
				}
				return nil
			}), nil
		}})
}
