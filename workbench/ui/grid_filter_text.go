package ui

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/sql"
)

// keepShape returns the grid action's rewritten query out in the shape
// of the user's query orig, as far as it can. Package authoring prints
// its result in Format's multi-line style, which would re-indent every
// line the user wrote; instead:
//
//   - when only the WHERE or HAVING condition changed (a grid filter on
//     a query it can filter in place), orig's text is kept and only the
//     condition is edited: " AND cond" after the old condition, or a new
//     "WHERE cond" / "HAVING cond" after FROM / GROUP BY (on a line of
//     its own when the clause before it ends its line);
//   - when only the ORDER BY changed (Sort ascending / descending), its
//     list is written anew in place, or a new ORDER BY goes before LIMIT
//     (or at the end);
//   - when the query was wrapped (SELECT * FROM (orig) WHERE cond), orig
//     goes inside the parentheses as the user wrote it;
//   - otherwise a query written on one line stays on one line
//     (sql.FormatCompact of out, which keeps the user's identifier
//     quoting), and a multi-line one takes out as it is.
//
// Should either text not parse as a query, out is returned unchanged.
func keepShape(orig, out string) string {
	q0, ok0 := parseQuery(orig)
	q1, ok1 := parseQuery(out)
	if !ok0 || !ok1 {
		return out
	}
	if s, ok := editConditions(orig, q0, q1); ok {
		return s
	}
	if s, ok := editOrderBy(orig, q0, q1); ok {
		return s
	}
	if s, ok := wrapped(orig, q0, q1); ok {
		return s
	}
	return keepOneLine(orig, out)
}

func parseQuery(text string) (*sql.Query, bool) {
	st, err := sql.Parse(text)
	if err != nil {
		return nil, false
	}
	q, ok := st.(*sql.Query)
	return q, ok
}

// withoutConditions prints q with its top select's WHERE and HAVING left
// out, to compare two queries on everything else.
func withoutConditions(q *sql.Query) (string, *sql.Select, bool) {
	sel, ok := q.Body.(*sql.Select)
	if !ok {
		return "", nil, false
	}
	s, qq := *sel, *q
	s.Where, s.Having = nil, nil
	qq.Body = &s
	return sql.FormatCompact(&qq), sel, true
}

func compact(e sql.Expr) string {
	if e == nil {
		return ""
	}
	return sql.FormatCompact(e)
}

// editConditions edits orig's WHERE and HAVING text when they are all
// that differs between q0 (orig parsed) and q1 (the action's query).
func editConditions(orig string, q0, q1 *sql.Query) (string, bool) {
	k0, s0, ok0 := withoutConditions(q0)
	k1, s1, ok1 := withoutConditions(q1)
	if !ok0 || !ok1 || k0 != k1 || s0.From == nil {
		return "", false
	}
	type edit struct {
		at, end int // replace orig[at:end]
		text    string
	}
	var edits []edit
	cond := func(old, new sql.Expr, keyword string, after int) bool {
		if compact(old) == compact(new) {
			return true
		}
		if new == nil {
			return false // the action removed a condition: not a filter
		}
		if old == nil {
			edits = append(edits, edit{after, after, clauseBreak(orig, after) + keyword + " " + compact(new)})
			return true
		}
		start, end := old.Pos().Offset, old.End()
		if start < 0 || end > len(orig) || start >= end {
			return false
		}
		// new is old AND c: keep the old condition's text
		if b, ok := new.(*sql.BinaryExpr); ok && strings.EqualFold(b.Op, "AND") && compact(b.X) == compact(old) {
			if o, ok := old.(*sql.BinaryExpr); ok && strings.EqualFold(o.Op, "OR") && !parenthesised(orig, start, end) {
				edits = append(edits, edit{start, start, "("}, edit{end, end, ")"})
			}
			edits = append(edits, edit{end, end, " AND " + compact(b.Y)})
			return true
		}
		// an earlier filter replaced: the condition is written anew
		edits = append(edits, edit{start, end, compact(new)})
		return true
	}
	whereAfter := s0.From.End()
	if !cond(s0.Where, s1.Where, "WHERE", whereAfter) {
		return "", false
	}
	havingAfter := whereAfter
	if s0.Where != nil {
		havingAfter = s0.Where.End()
	}
	if n := len(s0.GroupBy); n > 0 {
		havingAfter = s0.GroupBy[n-1].End()
	}
	if !cond(s0.Having, s1.Having, "HAVING", havingAfter) {
		return "", false
	}
	if len(edits) == 0 {
		return "", false
	}
	// apply from the end so the earlier offsets hold (edits at one offset
	// keep their order)
	s := orig
	for i := len(edits) - 1; i >= 0; i-- {
		e := edits[i]
		if e.at < 0 || e.end > len(s) || e.at > e.end {
			return "", false
		}
		s = s[:e.at] + e.text + s[e.end:]
	}
	if _, ok := parseQuery(s); !ok {
		return "", false
	}
	return s, true
}

// editOrderBy rewrites orig's ORDER BY list when it is all that differs
// between q0 (orig parsed) and q1.
func editOrderBy(orig string, q0, q1 *sql.Query) (string, bool) {
	a, b := *q0, *q1
	a.OrderBy, b.OrderBy = nil, nil
	if len(q1.OrderBy) == 0 || sql.FormatCompact(&a) != sql.FormatCompact(&b) || q0.Body == nil {
		return "", false
	}
	items := make([]string, len(q1.OrderBy))
	for i, o := range q1.OrderBy {
		items[i] = sql.FormatCompact(o)
	}
	list := strings.Join(items, ", ")
	var s string
	if n := len(q0.OrderBy); n > 0 {
		start, end := q0.OrderBy[0].Pos().Offset, q0.OrderBy[n-1].End()
		if start < 0 || end > len(orig) || start >= end {
			return "", false
		}
		s = orig[:start] + list + orig[end:]
	} else {
		at := q0.Body.End()
		if at <= 0 || at > len(orig) {
			return "", false
		}
		s = orig[:at] + clauseBreak(orig, at) + "ORDER BY " + list + orig[at:]
	}
	if _, ok := parseQuery(s); !ok {
		return "", false
	}
	return s, true
}

// clauseBreak is what goes before a clause inserted at offset at: a line
// break and the indentation of the line at is on when the text there
// ends its line (the user writes a clause per line), else a space.
func clauseBreak(text string, at int) string {
	rest := text[at:]
	if i := strings.IndexByte(rest, '\n'); i < 0 || strings.TrimSpace(rest[:i]) != "" {
		return " "
	}
	lineStart := strings.LastIndexByte(text[:at], '\n') + 1
	line := text[lineStart:at]
	indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
	return "\n" + indent
}

// parenthesised reports text[start:end] standing between ( and ).
func parenthesised(text string, start, end int) bool {
	before := strings.TrimRight(text[:start], " \t\r\n")
	after := strings.TrimLeft(text[end:], " \t\r\n")
	return strings.HasSuffix(before, "(") && strings.HasPrefix(after, ")")
}

// wrapped handles an action that wrapped the query (SELECT ... FROM
// (q0) ...): orig goes inside the parentheses as written.
func wrapped(orig string, q0, q1 *sql.Query) (string, bool) {
	sel, ok := q1.Body.(*sql.Select)
	if !ok {
		return "", false
	}
	dt, ok := sel.From.(*sql.DerivedTable)
	if !ok || sql.FormatCompact(dt.Query) != sql.FormatCompact(q0) {
		return "", false
	}
	inner := "(" + sql.FormatCompact(q0) + ")"
	outer := sql.FormatCompact(q1)
	i := strings.Index(outer, inner)
	if i < 0 {
		return "", false
	}
	body := strings.TrimSpace(orig)
	if strings.ContainsAny(body, "\r\n") {
		body = "(\n" + body + "\n)"
	} else {
		body = "(" + body + ")"
	}
	s := outer[:i] + body + outer[i+len(inner):]
	if _, ok := parseQuery(s); !ok {
		return "", false
	}
	return s, true
}

// keepOneLine returns out on one line when orig was written on one line
// (sql.FormatCompact of out's tree); otherwise out unchanged.
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
