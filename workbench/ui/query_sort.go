package ui

import (
	"strconv"
	"strings"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/sql"
)

// querySort finds the sort of a query that ends in ORDER BY … LIMIT n
// (a Top-N): the result column of its first key (by name or position)
// and the direction. A streaming Top-N sends its rows as changes, so a
// finished result's table view is in change order, not in the query's:
// the workbench sorts it by this key when the query finishes, as DBeaver
// or DataGrip users expect (the set of rows is Flink's either way).
func querySort(stmt string, cols []results.Column) (col int, desc bool, label string, ok bool) {
	st, err := sql.Parse(stmt)
	if err != nil {
		return 0, false, "", false
	}
	q, isQuery := st.(*sql.Query)
	if !isQuery || len(q.OrderBy) == 0 || q.Limit == nil {
		return 0, false, "", false
	}
	key := q.OrderBy[0]
	col = -1
	switch e := key.Expr.(type) {
	case *sql.Identifier:
		name := e.Parts[len(e.Parts)-1].Name
		for i, c := range cols {
			if c.Name == name {
				col = i
				break
			}
		}
		for i, c := range cols {
			if col < 0 && strings.EqualFold(c.Name, name) {
				col = i
			}
		}
	case *sql.NumberLit:
		if n, err := strconv.Atoi(e.Text); err == nil && n >= 1 && n <= len(cols) {
			col = n - 1
		}
	}
	if col < 0 {
		return 0, false, "", false
	}
	label = cols[col].Name
	if key.Desc {
		label += " DESC"
	}
	return col, key.Desc, label, true
}

// sortAsQueried orders a finished Top-N result's table view as its ORDER
// BY does and says so in Messages; it reports whether it did.
func (wb *Workbench) sortAsQueried(rt *resultTab) bool {
	col, desc, label, ok := querySort(rt.stmt, rt.Res.Columns())
	if !ok || rt.Res.SortBy(col, desc) != nil {
		return false
	}
	rt.sortedAs = label
	return true
}
