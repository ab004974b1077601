package ui

import (
	"strings"

	"github.com/riffle-sql/riffle/workbench/ui/designer"
)

// windowTVFTable names the table of a window TVF in FROM, given the words
// after FROM: "TABLE(TUMBLE(TABLE" "flights," … gives flights; "" when
// FROM is not a window TVF. resultTitle names a result tab by it.
func windowTVFTable(words []string) string {
	if len(words) < 2 || !strings.HasPrefix(strings.ToUpper(words[0]), "TABLE(") {
		return ""
	}
	if !strings.HasSuffix(strings.ToUpper(words[0]), "(TABLE") {
		return ""
	}
	// the table name runs to the first "," or space outside backquotes
	rest := strings.Join(words[1:], " ")
	quoted := false
	end := len(rest)
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if c == '`' {
			quoted = !quoted
		} else if !quoted && (c == ',' || c == ' ' || c == ')') {
			end = i
			break
		}
	}
	parts := designer.SplitPath(rest[:end])
	return parts[len(parts)-1]
}
