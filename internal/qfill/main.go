// Command qfill turns a draft golden script into an engine/sqltest .q file.
//
// A draft is a .q script whose statements carry their expected values in
// marker lines instead of the full SQL Client output:
//
//	# DATE_FORMAT with Java pattern letters (sql_functions.yml)
//	SELECT DATE_FORMAT(TIMESTAMP '2024-01-31 12:00:00', 'yyyy/MM/dd');
//	#= 2024/01/31
//
//	SELECT 1, 'a' UNION ALL SELECT 2, 'b';
//	#= 1 | a
//	#= 2 | b
//
//	SELECT CAST('x' AS INT);
//	#! Cannot cast 'x' to INT
//
// "#=" lines are the expected rows (cells as displayed, separated by " | ",
// NULL for NULL, "#= (empty)" for no rows), or, for an output that is not
// a table (SHOW CREATE TABLE, EXPLAIN), its lines without indentation; "#~" instead of "#=" marks rows
// whose order Flink does not define; "#!" is a text the error must contain; a
// statement without markers must succeed with an [INFO] message.
//
// qfill runs each statement, checks the result against the markers, and
// writes the script with the engine's actual output (which then is the
// golden output). Mismatches are reported and make qfill exit with status
// 1; the expected values in the draft, not the engine, are the authority.
//
//	go run ./internal/qfill draft.q > engine/sqltest/testdata/x.q
package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/sqltest"
	"github.com/riffle-sql/riffle/engine/table"
)

func main() {
	sqltest.RegisterDocFunctions()
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: qfill draft.q > out.q")
		os.Exit(2)
	}
	data, err := os.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	abs, _ := filepath.Abs(filepath.Dir(os.Args[1]))
	repl := strings.NewReplacer("${ASSETS}", filepath.Join(sqltest.RepoRoot(), "assets"), "${TESTDATA}", abs)
	env := table.MustCreate(table.InStreamingMode())
	env.GetConfig().Set("table.local-time-zone", "UTC")

	lines := strings.Split(string(data), "\n")
	var out strings.Builder
	var stmt []string
	var pre []string // comments and blank lines before the statement
	failures := 0
	flush := func(markers []string, line int) {
		if len(stmt) == 0 {
			return
		}
		text := strings.TrimSuffix(strings.TrimSpace(strings.Join(stmt, "\n")), ";")
		got := sqltest.Output(env, repl.Replace(text))
		kind, msg := check(got, markers)
		if msg != "" {
			failures++
			fmt.Fprintf(os.Stderr, "%s:%d: %s\n  statement: %s\n  got:\n%s\n\n", os.Args[1], line, msg, text, indent(got))
		}
		for _, p := range pre {
			out.WriteString(p + "\n")
		}
		out.WriteString(strings.Join(stmt, "\n") + "\n")
		if kind == "error" {
			// keep only the first line and the pinned messages: error texts
			// carry positions and wording the script should not over-fit
			out.WriteString("[ERROR] Could not execute SQL statement. Reason:\n")
			for _, m := range markers {
				if strings.HasPrefix(m, "#!") {
					out.WriteString(strings.TrimSpace(m[2:]) + "\n")
				}
			}
		} else {
			out.WriteString(got + "\n")
		}
		out.WriteString("!" + kind + "\n")
		stmt, pre = nil, nil
	}
	var markers []string
	markerLine := 0
	for i, l := range lines {
		trim := strings.TrimSpace(l)
		if strings.HasPrefix(trim, "#=") || strings.HasPrefix(trim, "#~") || strings.HasPrefix(trim, "#!") {
			markers = append(markers, trim)
			continue
		}
		if len(stmt) > 0 && stmtDone(stmt) {
			flush(markers, markerLine)
			markers = nil
		}
		if len(stmt) == 0 && (trim == "" || strings.HasPrefix(trim, "#") || strings.HasPrefix(trim, "--")) {
			pre = append(pre, l)
			continue
		}
		if len(stmt) == 0 {
			markerLine = i + 1
		}
		stmt = append(stmt, l)
	}
	if len(stmt) > 0 {
		flush(markers, markerLine)
	}
	for _, p := range pre {
		out.WriteString(p + "\n")
	}
	fmt.Print(strings.TrimRight(out.String(), "\n") + "\n")
	if failures > 0 {
		fmt.Fprintf(os.Stderr, "%d mismatches\n", failures)
		os.Exit(1)
	}
}

func stmtDone(stmt []string) bool {
	return strings.HasSuffix(strings.TrimSpace(stmt[len(stmt)-1]), ";")
}

func indent(s string) string {
	return "    " + strings.ReplaceAll(s, "\n", "\n    ")
}

// check compares an output with the markers; it returns the terminator
// kind and a mismatch message ("" when it matches).
func check(got string, markers []string) (string, string) {
	var rows []string
	unordered := false
	var errs []string
	for _, m := range markers {
		switch {
		case strings.HasPrefix(m, "#!"):
			errs = append(errs, strings.TrimSpace(m[2:]))
		default:
			if strings.HasPrefix(m, "#~") {
				unordered = true
			}
			rows = append(rows, strings.TrimSpace(m[2:]))
		}
	}
	isErr := strings.HasPrefix(got, "[ERROR]")
	switch {
	case len(errs) > 0:
		if !isErr {
			return "error", "expected an error"
		}
		for _, e := range errs {
			if !strings.Contains(got, e) {
				return "error", fmt.Sprintf("error lacks %q", e)
			}
		}
		return "error", ""
	case isErr:
		return "ok", "unexpected error"
	case len(rows) == 0:
		if strings.HasPrefix(got, "[INFO]") {
			return "info", ""
		}
		return "ok", "no expected rows given"
	}
	if !strings.HasPrefix(got, "+") && got != "Empty set" {
		// raw text (SHOW CREATE TABLE, EXPLAIN): compare trimmed lines
		var have []string
		for _, l := range strings.Split(strings.TrimSpace(got), "\n") {
			have = append(have, strings.TrimSpace(l))
		}
		if strings.Join(rows, "\n") != strings.Join(have, "\n") {
			return "ok", fmt.Sprintf("text differs:\n  want: %q\n  have: %q", rows, have)
		}
		return "ok", ""
	}
	cells := tableCells(got)
	if len(rows) == 1 && rows[0] == "(empty)" {
		rows = nil
	}
	want := make([]string, len(rows))
	for i, r := range rows {
		parts := strings.Split(r, " | ")
		for j := range parts {
			parts[j] = strings.TrimSpace(parts[j])
		}
		want[i] = strings.Join(parts, " | ")
	}
	have := make([]string, len(cells))
	for i, c := range cells {
		have[i] = strings.Join(c, " | ")
	}
	kind := "ok"
	if unordered {
		kind = "unordered"
		sortStrings(want)
		sortStrings(have)
	}
	if strings.Join(want, "\n") != strings.Join(have, "\n") {
		return kind, fmt.Sprintf("rows differ:\n  want: %q\n  have: %q", want, have)
	}
	return kind, ""
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

// tableCells extracts the data cells of a tableau table (rows between the
// second and third separator lines); the op column of streaming output is
// kept as the first cell.
func tableCells(s string) [][]string {
	var out [][]string
	seps := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "+-") {
			seps++
			continue
		}
		if seps == 2 && strings.HasPrefix(l, "|") {
			inner := strings.TrimSuffix(strings.TrimPrefix(l, "|"), "|")
			parts := strings.Split(inner, "|")
			for i := range parts {
				parts[i] = strings.TrimSpace(parts[i])
			}
			out = append(out, parts)
		}
	}
	return out
}
