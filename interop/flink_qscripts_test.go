//go:build interop

package interop

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/sqlclient"
)

// TestFlinkQScriptConformance counts how many statements of Apache
// Flink's own SQL Gateway test scripts Riffle answers as Flink recorded.
// It is a measuring tool, not a pass/fail test: it logs the counts and
// writes every difference to $RIFFLE_Q_REPORT (when set).
//
// The scripts are not part of this repository. They ship, for the very
// Flink version scripts/flink.sh runs, in the SQL Gateway's test jar:
//
//	mvn dependency:get -Dartifact=org.apache.flink:flink-sql-gateway:2.3.0:jar:tests -Dtransitive=false
//	unzip ~/.m2/repository/org/apache/flink/flink-sql-gateway/2.3.0/flink-sql-gateway-2.3.0-tests.jar 'sql/*.q' -d /tmp/flinkq
//	RIFFLE_FLINK_Q_DIR=/tmp/flinkq/sql go test -tags interop,migrated_fynedo -run TestFlinkQScriptConformance -v ./interop/
//
// Each script runs in one session of `riffle gateway` on a loopback port
// (RIFFLE_Q_ENGINE=embedded: the embedded engine), in streaming mode as
// Flink's test session starts. A statement's result is rendered as the
// gateway's statement test renders it: "OK" in a one-column "result"
// table for statements without rows, EXPLAIN and SHOW CREATE as their
// text, other rows sized to their content (an "op" column for a streaming
// query), NULL empty in results that are not queries. Cases are compared
// in substance:
//   - !ok: the rendered lines equal Flink's (trailing blanks ignored);
//   - !info (an INSERT's "Job ID:"): the statement succeeded;
//   - !error: Riffle failed, and Flink's message (without the Java
//     exception class) occurs in Riffle's error.
//
// Skipped, and counted apart, are the cases that need what only Flink's
// test JVM has: the 'values' test connector and test-only sources, jars
// (ADD/REMOVE/SHOW JARS, CREATE FUNCTION ... USING JAR, Java function
// classes), procedures of a test catalog, the session's cluster
// configuration (SET listing the test's REST port, $internal job ids),
// and every later statement naming an object such a skipped statement
// created. $VAR_..._PATH placeholders become fresh folders.
func TestFlinkQScriptConformance(t *testing.T) {
	dir := os.Getenv("RIFFLE_FLINK_Q_DIR")
	if dir == "" {
		t.Skip("RIFFLE_FLINK_Q_DIR is not set (see the comment for where Flink's scripts come from)")
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.q"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no .q scripts in %s: %v", dir, err)
	}
	sort.Strings(files)
	var report strings.Builder
	var total, skipped, matched int
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		cases, err := sqlclient.ParseQScript(string(raw))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		n, s, m := runFlinkQScript(t, filepath.Base(f), cases, &report)
		t.Logf("%-24s cases=%3d skipped=%3d run=%3d matched=%3d", filepath.Base(f), n, s, n-s, m)
		total, skipped, matched = total+n, skipped+s, matched+m
	}
	run := total - skipped
	pct := 0.0
	if run > 0 {
		pct = 100 * float64(matched) / float64(run)
	}
	summary := fmt.Sprintf("flink q scripts: cases=%d skipped=%d run=%d matched=%d (%.1f %%)", total, skipped, run, matched, pct)
	for _, cat := range []string{"metadata", "query", "dml", "explain", "plan"} {
		if tc := qTally[cat]; tc[0] > 0 {
			summary += fmt.Sprintf("\n  %-8s run=%3d matched=%3d (%.1f %%)", cat, tc[0], tc[1], 100*float64(tc[1])/float64(tc[0]))
		}
	}
	t.Log(summary)
	if p := os.Getenv("RIFFLE_Q_REPORT"); p != "" {
		if err := os.WriteFile(p, []byte(summary+"\n\n"+report.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

var (
	qFixtureRe    = regexp.MustCompile(`(?i)'values'|\$VAR_(REST|ADDRESS|JAR|UDF)|\bjars?\b|\busing\s+jar\b|\bcall\s|\$internal|'test[-_]|\bhive\b|\bas\s+'[a-z]+\.[a-z.]+[A-Z]`)
	qUseCatalogRe = regexp.MustCompile("(?is)^\\s*use\\s+catalog\\s+`?([A-Za-z0-9_]+)`?\\s*$")
	qSetAllRe     = regexp.MustCompile(`(?is)^\s*set\s*$`)
	qValuesRe     = regexp.MustCompile(`(?i)'connector'\s*=\s*'values'`)
	qUsesDataRe   = regexp.MustCompile(`(?is)^\s*(select|insert|explain|execute|compile|with|begin|end|values|table|create\s+table\s+\S+\s+.*\bas\s+select)`)
	qPathVarRe    = regexp.MustCompile(`\$VAR_[A-Z0-9_]*PATH[0-9]*`)
	qCreatedRe    = regexp.MustCompile("(?is)^\\s*create\\s+(?:or\\s+replace\\s+)?(?:temporary\\s+|temporary\\s+system\\s+)?(?:table|view|function|catalog|database)\\s+(?:if\\s+not\\s+exists\\s+)?`?([A-Za-z0-9_.]+)`?")
	qBatchRe      = regexp.MustCompile(`(?i)'?execution\.runtime-mode'?\s*=\s*'?batch`)
	qStreamRe     = regexp.MustCompile(`(?i)'?execution\.runtime-mode'?\s*=\s*'?streaming`)
	qExceptRe     = regexp.MustCompile(`^(?:[a-z][a-z0-9_]*\.)+[A-Za-z0-9_$]*(?:Exception|Error): `)
	qPositionRe   = regexp.MustCompile(`^From line \d+, column \d+ to line \d+, column \d+: |^At line \d+, column \d+: `)
)

// qCategory sorts a statement for the tallies: "explain", "plan" (COMPILE
// / EXECUTE PLAN), "query" (SELECT, EXECUTE SELECT), "dml" (INSERT,
// statement sets) or "metadata" (everything else: DDL, SHOW, DESCRIBE,
// USE, SET, RESET, BEGIN/END).
func qCategory(stmt string) string {
	w := strings.Fields(strings.ToUpper(stripQComments(stmt)))
	if len(w) == 0 {
		return "metadata"
	}
	if w[0] == "EXECUTE" && len(w) > 1 && w[1] != "PLAN" && w[1] != "STATEMENT" {
		w = w[1:]
	}
	switch w[0] {
	case "EXPLAIN":
		return "explain"
	case "COMPILE":
		return "plan"
	case "EXECUTE":
		if len(w) > 1 && w[1] == "PLAN" {
			return "plan"
		}
		return "dml"
	case "SELECT", "WITH", "VALUES", "TABLE":
		return "query"
	case "INSERT":
		return "dml"
	}
	return "metadata"
}

// qTally counts run and matched cases per category.
var qTally = map[string][2]int{}

func runFlinkQScript(t *testing.T, name string, cases []sqlclient.QCase, report *strings.Builder) (n, skipped, matched int) {
	eng := qEngine(t)
	defer eng.Close()
	tmp := t.TempDir()
	streaming := true
	skippedNames := map[string]bool{}
	valuesTables := map[string]bool{}
	inFixtureCatalog := false
	for _, c := range cases {
		n++
		stmt := qPathVarRe.ReplaceAllStringFunc(c.SQL, func(v string) string {
			// Flink's test makes these folders before the script runs;
			// $VAR_X_RELATIVE_PATH is $VAR_X_PATH's folder relative to the
			// working directory (AbstractSqlGatewayStatementITCase)
			rel := strings.Contains(v, "_RELATIVE_PATH")
			p := filepath.Join(tmp, strings.ToLower(strings.Replace(v[1:], "_RELATIVE_PATH", "_PATH", 1)))
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			if rel {
				wd, err := os.Getwd()
				if err != nil {
					t.Fatal(err)
				}
				if r, err := filepath.Rel(wd, p); err == nil {
					return r
				}
			}
			return p
		})
		plain := stripQComments(stmt)
		// a table of the 'values' test connector can be declared (as on
		// Flink, a connector is only looked up when a job uses it), but
		// not read or written
		declaresValues := qValuesRe.MatchString(stmt) && qCreatedRe.MatchString(plain)
		skip := (qFixtureRe.MatchString(stmt) && !declaresValues) || qSetAllRe.MatchString(plain)
		for nm := range skippedNames {
			if regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(nm) + `\b`).MatchString(stmt) {
				skip = true
			}
		}
		for nm := range valuesTables {
			if qUsesDataRe.MatchString(plain) && regexp.MustCompile(`(?i)\b`+regexp.QuoteMeta(nm)+`\b`).MatchString(plain) {
				skip = true
			}
		}
		if declaresValues && !skip {
			m := qCreatedRe.FindStringSubmatch(plain)
			parts := strings.Split(m[1], ".")
			valuesTables[parts[len(parts)-1]] = true
		}
		// once the session uses a catalog only Flink's test JVM has, what
		// follows runs in it, until another catalog is used
		if m := qUseCatalogRe.FindStringSubmatch(plain); m != nil {
			inFixtureCatalog = skippedNames[m[1]]
		}
		skip = skip || inFixtureCatalog
		if skip {
			if m := qCreatedRe.FindStringSubmatch(stripQComments(stmt)); m != nil {
				parts := strings.Split(m[1], ".")
				skippedNames[parts[len(parts)-1]] = true
			}
			skipped++
			continue
		}
		if qBatchRe.MatchString(stmt) {
			streaming = false
		} else if qStreamRe.MatchString(stmt) {
			streaming = true
		}
		got, failed := qRender(eng, stmt, streaming)
		ok := false
		switch {
		case c.Kind == "error":
			ok = failed && qErrorIn(c.Output, got)
		case c.Kind == "info":
			ok = !failed
		default:
			want := sqlclient.QNormalize(c.Output)
			ok = !failed && strings.Join(want, "\n") == strings.Join(sqlclient.QNormalize(strings.Split(got, "\n")), "\n")
		}
		cat := qCategory(stmt)
		tc := qTally[cat]
		tc[0]++
		if ok {
			tc[1]++
		}
		qTally[cat] = tc
		if ok {
			matched++
			continue
		}
		fmt.Fprintf(report, "== %s:%d (%s)\n%s\n-- flink:\n%s\n-- riffle:\n%s\n\n", name, c.Line, c.Kind, stmt, strings.Join(c.Output, "\n"), got)
	}
	return n, skipped, matched
}

// qEngine opens the session a script runs in: by default one of `riffle
// gateway` (gateway.NewServer on a loopback port, through gateway.Connect,
// as Flink's tests run the scripts through its SQL Gateway's session, which
// also keeps statement sets); RIFFLE_Q_ENGINE=embedded runs them on the
// embedded engine.
func qEngine(t *testing.T) table.Engine {
	if os.Getenv("RIFFLE_Q_ENGINE") == "embedded" {
		return table.NewEmbeddedEngine(table.MustCreate(table.InStreamingMode()))
	}
	srv := gateway.NewServer(gateway.Config{PrintOutput: io.Discard})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() { hs.Close(); srv.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	e, err := gateway.Connect(ctx, hs.URL, gateway.RemoteOptions{SessionName: "flink-q"})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func stripQComments(s string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "--") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// qErrorIn: Flink's message lines, without the exception class and a
// validator position, occur in Riffle's error.
func qErrorIn(expected []string, got string) bool {
	for _, l := range sqlclient.QNormalize(expected) {
		l = strings.TrimSpace(qPositionRe.ReplaceAllString(qExceptRe.ReplaceAllString(l, ""), ""))
		if l == "" || strings.HasPrefix(l, "[ERROR]") {
			continue
		}
		if !strings.Contains(got, l) {
			return false
		}
	}
	return true
}

// qRender runs one statement and renders its result as Flink's SQL Gateway
// statement tests print it; failed reports an error (rendered as its text).
func qRender(eng table.Engine, stmt string, streaming bool) (out string, failed bool) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := eng.ExecuteStatement(ctx, stmt, sql.Pos{})
	if err != nil {
		return err.Error(), true
	}
	if !res.IsQuery() && res.JobID() != "" {
		if err := eng.WaitJob(ctx, res.JobID()); err != nil {
			return err.Error(), true
		}
		return "Job ID: " + res.JobID(), false
	}
	if id := res.JobID(); id != "" && res.IsQuery() {
		// an unbounded query (one Flink would refuse) must not hang the count
		stop := time.AfterFunc(20*time.Second, func() { _ = eng.CancelJob(context.Background(), id) })
		defer stop.Stop()
	}
	if res.ResultKind() == table.Success {
		return "+--------+\n| result |\n+--------+\n|     OK |\n+--------+\n1 row in set", false
	}
	it, err := res.Collect()
	if err != nil {
		return err.Error(), true
	}
	defer it.Close()
	names := res.Schema().GetFieldNames()
	dts := res.Schema().GetFieldDataTypes()
	if st, _ := sql.Parse(stmt); st != nil {
		switch st.(type) {
		case *sql.Explain, *sql.ShowCreate:
			var b strings.Builder
			for it.Next() {
				b.WriteString(fmt.Sprint(it.Row().Values[0]))
			}
			if err := it.Err(); err != nil {
				return err.Error(), true
			}
			return strings.TrimRight(b.String(), "\n"), false
		}
	}
	// Flink's harness (AbstractSqlGatewayStatementITCase.StatementType)
	// prints the op column for a statement starting with SELECT in
	// streaming mode only: not for EXECUTE SELECT or WITH
	op := res.IsQuery() && streaming && strings.HasPrefix(strings.ToUpper(strings.TrimSpace(stripQComments(stmt))), "SELECT")
	header := names
	if op {
		header = append([]string{"op"}, names...)
	}
	var rows [][]string
	for it.Next() {
		r := it.Row()
		var cells []string
		if op {
			cells = append(cells, r.Kind.ShortString())
		}
		for i, v := range r.Values {
			if v == nil && !res.IsQuery() {
				cells = append(cells, "")
				continue
			}
			cells = append(cells, table.FormatCell(v, dts[i], time.UTC))
		}
		rows = append(rows, cells)
	}
	if err := it.Err(); err != nil {
		return err.Error(), true
	}
	if len(rows) == 0 {
		return "Empty set", false
	}
	widths := make([]int, len(header))
	for i, h := range header {
		widths[i] = table.DisplayWidth(h)
	}
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], table.DisplayWidth(c))
		}
	}
	var b strings.Builder
	sep := "+"
	for _, w := range widths {
		sep += strings.Repeat("-", w+2) + "+"
	}
	line := func(cells []string) {
		b.WriteString("|")
		for i, c := range cells {
			b.WriteString(" " + strings.Repeat(" ", widths[i]-table.DisplayWidth(c)) + c + " |")
		}
		b.WriteString("\n")
	}
	b.WriteString(sep + "\n")
	line(header)
	b.WriteString(sep + "\n")
	for _, r := range rows {
		line(r)
	}
	b.WriteString(sep + "\n")
	if len(rows) == 1 {
		b.WriteString("1 row in set")
	} else {
		fmt.Fprintf(&b, "%d rows in set", len(rows))
	}
	return b.String(), false
}
