package ui

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// runWordsMax is how many characters of a statement the status bar shows.
const runWordsMax = 48

// runSummary says what an editor run executes, for the status bar
// ("Running line 6: SELECT a.state, COUNT(*) AS departures, …"): the
// 1-based editor line(s) of the statements and the first words of the
// last one (a setup run with its query names the query); "the whole tab"
// for Run all. Runs that are not an editor tab's (init script, Preview,
// history) give "".
func runSummary(req runReq) string {
	if req.source != srcEditor || strings.TrimSpace(req.text) == "" {
		return ""
	}
	spans := sql.SplitStatements(req.text)
	if len(spans) == 0 {
		return ""
	}
	if req.base == 0 && req.text == req.doc {
		if len(spans) == 1 {
			return "the whole tab (1 statement)"
		}
		return fmt.Sprintf("the whole tab (%d statements)", len(spans))
	}
	base := req.base
	if base > len(req.doc) {
		base = len(req.doc)
	}
	baseLine := strings.Count(req.doc[:base], "\n") // 0-based line of text's first byte
	first, last := spans[0], spans[len(spans)-1]
	from := baseLine + first.Start.Line
	to := baseLine + 1 + strings.Count(req.text[:last.End], "\n")
	words := strings.Join(strings.Fields(req.text[last.Start.Offset:last.End]), " ")
	if r := []rune(words); len(r) > runWordsMax {
		words = strings.TrimRight(string(r[:runWordsMax-1]), " ,") + " …"
	}
	where := fmt.Sprintf("line %d", from)
	if to > from {
		where = fmt.Sprintf("lines %d–%d", from, to)
	}
	if len(spans) > 1 {
		where += fmt.Sprintf(" (%d statements)", len(spans))
	}
	return where + ": " + words
}
