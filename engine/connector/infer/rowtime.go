package infer

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// timeNames rank column names as event times.
var timeNames = []string{"rowtime", "event_time", "ts", "timestamp", "time", "datetime", "created_at", "date"}

// timeNameScore ranks a column name: exact well-known names first, then
// names containing time or date, then the rest.
func timeNameScore(name string) int {
	l := strings.ToLower(name)
	for i, n := range timeNames {
		if l == n {
			return 100 - i
		}
	}
	if strings.Contains(l, "time") || strings.Contains(l, "date") || strings.HasSuffix(l, "_at") {
		return 50
	}
	return 0
}

// rowtimeFromStats proposes a rowtime from the CSV columns typed
// TIMESTAMP / TIMESTAMP_LTZ (or DATE, through a computed column), using the
// order of their values in the file for the watermark delay.
func (r *Result) rowtimeFromStats(stats []*textStats) {
	best, bestScore := -1, -1
	for i, c := range r.Columns {
		score := -1
		switch {
		case c.Type.IsTimestamp():
			score = 1000 + timeNameScore(c.Name)
		case c.Type.Root == types.DateRoot:
			score = timeNameScore(c.Name)
		}
		if score > bestScore {
			best, bestScore = i, score
		}
	}
	if best < 0 || bestScore < 0 {
		r.rowtimeFromText(stats)
		return
	}
	c := r.Columns[best]
	rt := &Rowtime{Column: c.Name, Source: c.Name}
	switch {
	case c.Type.Root == types.DateRoot:
		rt.Column = r.freeName("rowtime")
		rt.Expr = "CAST(" + sql.QuoteIdentIfNeeded(c.Name) + " AS TIMESTAMP(3))"
		rt.Note = fmt.Sprintf("%s holds dates; the rowtime %s is their midnight as TIMESTAMP(3).", c.Name, rt.Column)
	case c.Type.Precision > 3:
		rt.Column = r.freeName("rowtime")
		rt.Expr = "CAST(" + sql.QuoteIdentIfNeeded(c.Name) + " AS " + strings.Replace(c.Type.String(), fmt.Sprintf("(%d)", c.Type.Precision), "(3)", 1) + ")"
		rt.Note = "a rowtime has at most millisecond precision; the computed column rounds to it."
	}
	r.finishRowtime(rt, &stats[best].order)
}

// rowtimeFromText proposes TO_TIMESTAMP(col, 'pattern') for a STRING
// column of timestamps in a layout the csv format cannot read, when the
// engine has TO_TIMESTAMP; otherwise it says what would be needed.
func (r *Result) rowtimeFromText(stats []*textStats) {
	for i, c := range r.Columns {
		s := stats[i]
		if !c.Type.IsString() || s.javaPattern == "" || s.n == s.empty {
			continue
		}
		expr := fmt.Sprintf("TO_TIMESTAMP(%s, '%s')", sql.QuoteIdentIfNeeded(c.Name), s.javaPattern)
		if !hasFunction("TO_TIMESTAMP") {
			r.note("%s holds timestamps written %s: a rowtime would be rowtime AS %s, but this engine has no TO_TIMESTAMP yet.", c.Name, s.javaPattern, expr)
			return
		}
		rt := &Rowtime{Column: r.freeName("rowtime"), Expr: "CAST(" + expr + " AS TIMESTAMP(3))", Source: c.Name,
			Note: fmt.Sprintf("%s holds timestamps written %s; the rowtime converts them.", c.Name, s.javaPattern)}
		r.finishRowtime(rt, &s.patternOrder)
		return
	}
}

// finishRowtime fills in the order and delay and attaches the proposal.
func (r *Result) finishRowtime(rt *Rowtime, o *orderStats) {
	rt.Order, rt.Delay, rt.Unit = o.describe()
	rt.MaxLateness = o.maxLateness
	switch rt.Order {
	case "ascending":
		r.note("%s is ascending in the file: a watermark of %s - INTERVAL '1' SECOND drops no rows.", rt.Source, rt.Column)
	case "descending":
		r.note("%s is in descending order in the file (newest first): in streaming mode nearly every row is late unless the watermark delay covers the whole span (%s %s); batch mode reads it in any order.", rt.Source, rt.Delay, rt.Unit)
	default:
		r.note("%s is out of order by up to %s %s(s) in the file: the proposed watermark delay covers that.", rt.Source, rt.Delay, strings.ToLower(rt.Unit))
	}
	r.Rowtime = rt
}

// freeName returns name, or name_2, ... when a column has it.
func (r *Result) freeName(name string) string {
	used := map[string]bool{}
	for _, c := range r.Columns {
		used[c.Name] = true
	}
	out := name
	for k := 2; used[out]; k++ {
		out = fmt.Sprintf("%s_%d", name, k)
	}
	return out
}

// hasFunction reports whether the engine has a built-in function.
func hasFunction(name string) bool {
	_, ok := expr.Builtins.Lookup(name)
	return ok
}
