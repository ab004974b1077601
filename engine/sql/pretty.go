package sql

// FormatPretty renders a node in FormatSQL's multi-line style (one clause
// per line, upper-case keywords, identifiers backquoted only when they were
// written quoted or must be), without a terminating ";". Tools that edit a
// parsed statement (the workbench's grid actions and query builder) print
// it back with FormatPretty so that the user's quoting is kept.
func FormatPretty(n Node) string {
	p := &printer{pretty: true}
	p.node(n)
	return p.b.String()
}

// FormatCompact renders a node on one line like Format, but quotes
// identifiers only when they were written quoted or must be, as in
// "a + f(b)" where Format writes "`a` + f(`b`)".
func FormatCompact(n Node) string {
	p := &printer{}
	p.node(n)
	return p.b.String()
}
