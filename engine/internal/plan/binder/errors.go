package binder

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
)

// errAt builds an Error spanning a node.
func (b *binder) errAt(n sql.Node, format string, args ...any) *plan.Error {
	e := &plan.Error{Msg: fmt.Sprintf(format, args...)}
	if n == nil {
		return e
	}
	p := n.Pos()
	e.Line, e.Column = p.Line, p.Column
	if b.text != "" {
		if el, ec, ok := b.posOf(n.End()); ok {
			e.EndLine, e.EndColumn = el, ec
		}
	}
	return e
}

// posOf finds the line and column of the last character before byte
// offset end in the statement text.
func (b *binder) posOf(end int) (int, int, bool) {
	rel := end - b.base.Offset
	if rel <= 0 || rel > len(b.text) {
		return 0, 0, false
	}
	// position of the last rune before end
	line, col := b.base.Line, b.base.Column
	if line == 0 {
		line, col = 1, 1
	}
	lastLine, lastCol := line, col
	for i, r := range b.text[:rel] {
		_ = i
		lastLine, lastCol = line, col
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	_ = utf8.RuneError
	return lastLine, lastCol, true
}

// suggest returns the candidate closest to name (case-insensitive equality
// first, then edit distance up to a third of the name's length), or "".
func suggest(name string, candidates []string) string {
	best, bestD := "", 1<<30
	for _, c := range candidates {
		if strings.EqualFold(c, name) {
			return c
		}
	}
	// a unique candidate that starts with the name ("dest" -> "destination")
	if len(name) >= 3 {
		prefixed := ""
		for _, c := range candidates {
			if strings.HasPrefix(strings.ToLower(c), strings.ToLower(name)) {
				if prefixed != "" {
					prefixed = ""
					break
				}
				prefixed = c
			}
		}
		if prefixed != "" {
			return prefixed
		}
	}
	limit := max(1, len(name)/3)
	for _, c := range candidates {
		d := levenshtein(strings.ToLower(name), strings.ToLower(c))
		if d <= limit && d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

func didYouMean(s string) string {
	if s == "" {
		return ""
	}
	return fmt.Sprintf("; did you mean '%s'?", s)
}
