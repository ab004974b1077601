package plan

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
)

// Over computes window functions (f(...) OVER (...)): its output is the
// input's columns followed by one column per call, group after group
// (Calcite's LogicalWindow).
type Over struct {
	Input  Node
	Groups []opspec.OverGroup
	Cols   []Column
}

func (o *Over) Columns() []Column { return o.Cols }
func (o *Over) Inputs() []Node    { return []Node{o.Input} }
func (o *Over) WithInputs(in []Node) Node {
	c := *o
	c.Input = in[0]
	return &c
}

// Describe renders Calcite's LogicalWindow.
func (o *Over) Describe() string {
	names := Names(o.Input.Columns())
	var parts []string
	for i, g := range o.Groups {
		parts = append(parts, fmt.Sprintf("window#%d=[window(%s)]", i, overGroupString(g, names, true)))
	}
	return "LogicalWindow(" + strings.Join(parts, ", ") + ")"
}

// overGroupString renders a group: "partition {0} order by [1 ASC-nulls-first]
// rows between UNBOUNDED PRECEDING and CURRENT ROW aggs [COUNT($2)]".
func overGroupString(g opspec.OverGroup, names []string, refs bool) string {
	name := func(i int) string {
		if refs {
			return fmt.Sprintf("$%d", i)
		}
		return names[i]
	}
	var b strings.Builder
	if len(g.PartitionKeys) > 0 {
		var ks []string
		for _, k := range g.PartitionKeys {
			ks = append(ks, name(k))
		}
		b.WriteString("partition {" + strings.Join(ks, ", ") + "} ")
	}
	if len(g.Order) > 0 {
		var ks []string
		for _, k := range g.Order {
			dir := "ASC"
			if k.Desc {
				dir = "DESC"
			}
			nulls := "nulls-last"
			if k.NullsFirst {
				nulls = "nulls-first"
			}
			ks = append(ks, name(k.Col)+" "+dir+"-"+nulls)
		}
		b.WriteString("order by [" + strings.Join(ks, ", ") + "] ")
	}
	unit := "range"
	if g.Frame.Rows {
		unit = "rows"
	}
	fmt.Fprintf(&b, "%s between %s and %s", unit, g.Frame.Lower, g.Frame.Upper)
	var calls []string
	for _, c := range g.Calls {
		args := make([]string, len(c.Args))
		for i, a := range c.Args {
			args[i] = name(a)
		}
		calls = append(calls, c.Func+"("+strings.Join(args, ", ")+")")
	}
	b.WriteString(" aggs [" + strings.Join(calls, ", ") + "]")
	return b.String()
}

// RankingFunctions are the window-only functions, with whether they need
// an ORDER BY.
var RankingFunctions = map[string]bool{
	"ROW_NUMBER": true, "RANK": true, "DENSE_RANK": true, "PERCENT_RANK": true, "CUME_DIST": true,
	"NTILE": true, "LEAD": true, "LAG": true, "FIRST_VALUE": false, "LAST_VALUE": false,
}
