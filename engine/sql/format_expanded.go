package sql

// FormatExpanded renders a query in the layout Calcite gives a validated
// query when Flink unparses it (the expanded query of a view, which SHOW
// CREATE VIEW prints): every identifier backquoted, each FROM, WHERE,
// GROUP BY, HAVING, join, set operator, ORDER BY, OFFSET and FETCH on a
// line of its own with no indentation, subqueries inline in parentheses,
// WITH on the line of the query it qualifies, INNER JOIN spelled out and a
// space before an alias's column list. It only lays the tree out: the
// rewrites of the validator (qualified names, * expanded, LIMIT as FETCH,
// ROW in VALUES) are the caller's, done on q before.
func FormatExpanded(q *Query) string {
	p := &printer{canonical: true, calcite: true}
	p.query(q)
	return p.b.String()
}
