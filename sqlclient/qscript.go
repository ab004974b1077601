package sqlclient

import (
	"fmt"
	"regexp"
	"strings"
)

// QCase is one statement of a script in Flink's SQL Client test format
// (the .q files CliClientITCase and the SQL Gateway's statement tests
// read): the statement, terminated by ';' at the end of a line, an
// optional "!output" line, the expected output lines, and a terminator
// line: "!ok" (output compared), "!info" (a statement without rows) or
// "!error" (the expected lines name the error).
type QCase struct {
	Line   int      // 1-based line of the statement's first line
	SQL    string   // the statement without its final ';'
	Output []string // expected output lines
	Kind   string   // "ok", "info" or "error"
	// StmtEnd and End are the 1-based lines of the statement's last line
	// and of the terminator.
	StmtEnd, End int
}

// ParseQScript splits a .q script into cases. Lines starting with '#'
// between cases are comments; blank lines between cases are skipped. It
// fails on a statement without a terminator line.
func ParseQScript(text string) ([]QCase, error) {
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	var cases []QCase
	i := 0
	for i < len(lines) {
		l := lines[i]
		if strings.TrimSpace(l) == "" || strings.HasPrefix(l, "#") {
			i++
			continue
		}
		c := QCase{Line: i + 1}
		var stmt []string
		for ; i < len(lines); i++ {
			stmt = append(stmt, lines[i])
			if strings.HasSuffix(strings.TrimRight(lines[i], " \t"), ";") {
				// a statement set block ends at END;, not at its INSERTs
				text := strings.Join(stmt, "\n")
				if qSetBlockRe.MatchString(text) && !qSetEndRe.MatchString(text) {
					continue
				}
				i++
				break
			}
		}
		c.StmtEnd = i
		c.SQL = strings.TrimSuffix(strings.TrimRight(strings.Join(stmt, "\n"), " \t"), ";")
		if i < len(lines) && strings.TrimSpace(lines[i]) == "!output" {
			i++
		}
		for ; i < len(lines); i++ {
			switch t := strings.TrimRight(lines[i], " \t"); t {
			case "!ok", "!info", "!error":
				c.Kind = t[1:]
			}
			if c.Kind != "" {
				c.End = i + 1
				i++
				break
			}
			c.Output = append(c.Output, lines[i])
		}
		if c.Kind == "" {
			return nil, fmt.Errorf("line %d: statement without !ok, !info or !error", c.Line)
		}
		cases = append(cases, c)
	}
	return cases, nil
}

var (
	qSetBlockRe  = regexp.MustCompile(`(?is)^\s*(?:explain|execute)\b.*\bstatement\s+set\s+begin\b`)
	qSetEndRe    = regexp.MustCompile(`(?is)\bend\s*;\s*$`)
	qSecondsRe   = regexp.MustCompile(` \([0-9.]+ seconds\)$`)
	qExceptionRe = regexp.MustCompile(`^(?:[a-z][a-z0-9_]*\.)+[A-Za-z0-9_$]*(?:Exception|Error): `)
)

// QNormalize prepares output lines for comparison: trailing blanks and
// the SQL Client's timings ("(0.52 seconds)") dropped, blank lines at
// either end removed.
func QNormalize(lines []string) []string {
	var out []string
	for _, l := range lines {
		out = append(out, qSecondsRe.ReplaceAllString(strings.TrimRight(l, " \t"), ""))
	}
	for len(out) > 0 && out[0] == "" {
		out = out[1:]
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// QErrorMatches reports whether an error output matches the expected
// lines of an !error case: every expected line but the
// "[ERROR] Could not execute SQL statement. Reason:" header occurs in
// got, a leading Java exception class ("org.apache...ValidationException: ")
// removed, since Riffle names no Java classes.
func QErrorMatches(expected []string, got string) bool {
	if !strings.Contains(got, "[ERROR]") && !strings.Contains(got, "Reason:") {
		return false
	}
	for _, l := range QNormalize(expected) {
		if l == "" || strings.HasPrefix(l, "[ERROR] Could not execute SQL statement.") {
			continue
		}
		if !strings.Contains(got, strings.TrimSpace(qExceptionRe.ReplaceAllString(l, ""))) {
			return false
		}
	}
	return true
}
