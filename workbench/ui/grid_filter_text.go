package ui

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// keepOneLine returns the grid action's rewritten query out on one line
// when the user's query orig was written on one line (package authoring
// prints it in the multi-line style of Format, which would turn a short
// query into a dozen lines); otherwise out unchanged. The one-line form
// is sql.FormatCompact of out's tree, which keeps the user's identifier
// quoting; should out not parse, it is returned as it is.
func keepOneLine(orig, out string) string {
	if strings.ContainsAny(strings.TrimSpace(orig), "\r\n") {
		return out
	}
	st, err := sql.Parse(out)
	if err != nil {
		return out
	}
	return sql.FormatCompact(st)
}
