//go:build interop

package interop

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/sqltest"
)

// TestGoldenScriptsOnFlink makes real Apache Flink the oracle of Riffle's
// golden SQL scripts (engine/sqltest/testdata/*.q): each script runs, in
// one session of Flink's SQL Gateway opened with
// sqltest.SessionProperties (sqltest.GatewayEngine), through the same
// harness the embedded and loopback-gateway golden tests use, so
// Flink's rows are rendered by the same tableau printer and compared with
// the expectations Riffle passes.
// Statements that set parallelism.default run with parallelism 1: the
// shared test cluster's task manager has too few network buffers for
// parallel batch shuffles (Flink fails such jobs with "Insufficient
// number of network buffers: required 512"), and a query's rows do not
// depend on its parallelism (their order, where it may, is compared
// with !unordered).
//
// A batch job's blocking (sort) shuffle reserves 512 network buffers per
// result partition, which scripts/flink.sh's 2 GB task manager cannot
// always give a join or a sort ("Insufficient number of network buffers:
// required 512, but only 471 available"): such a case is counted as
// unavailable and logged, not compared (the summary's "unavailable").
//
// Cases marked "# riffle-only: <reason>" (or files marked
// "# riffle-only-file: <reason>") are skipped. Every other difference
// fails the test.
//
// It logs one summary line (scripts, cases run, agreed, differed, error
// texts that differ, Flink-only errors, Riffle-only errors, cases marked
// Riffle-only) and writes it, with one line per difference, to the file
// named by $RIFFLE_DIFF_REPORT when that is set. One script runs with
// -run 'TestGoldenScriptsOnFlink/scripts/like.q'.
func TestGoldenScriptsOnFlink(t *testing.T) {
	f := fcRequire(t)
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(root, "engine", "sqltest", "testdata", "*.q"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden scripts: %v", err)
	}
	newEngine := sqltest.GatewayEngine(sqltest.Gateway{Endpoint: f.Gateway}, "riffle-golden")
	sqltest.StatementTimeout = 3 * time.Minute
	var tally sqltest.Tally
	t.Run("scripts", func(t *testing.T) {
		for _, file := range files {
			file := file
			t.Run(filepath.Base(file), func(t *testing.T) {
				// one script at a time: parallel jobs compete for the
				// task manager's slots and network buffers
				sqltest.RunScript(t, file, newEngine, sqltest.Options{Oracle: true, Tally: &tally, Rewrite: serialParallelism, Unavailable: lacksNetworkBuffers})
			})
		}
	})
	summary := tally.Summary("flink")
	t.Log(summary)
	if path := os.Getenv("RIFFLE_DIFF_REPORT"); path != "" {
		var b strings.Builder
		b.WriteString(summary + "\n")
		diffs := append([]sqltest.Diff(nil), tally.Diffs...)
		sort.Slice(diffs, func(i, j int) bool {
			if diffs[i].Script != diffs[j].Script {
				return diffs[i].Script < diffs[j].Script
			}
			return diffs[i].Line < diffs[j].Line
		})
		for _, d := range diffs {
			first, _, _ := strings.Cut(strings.TrimPrefix(d.Got, "[ERROR] Could not execute SQL statement. Reason:\n"), "\n")
			fmt.Fprintf(&b, "%s:%d %s %s\n", d.Script, d.Line, d.Class, first)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Errorf("RIFFLE_DIFF_REPORT: %v", err)
		}
	}
}

var parallelismRe = regexp.MustCompile(`(?i)^(\s*SET\s+'parallelism\.default'\s*=\s*)'\d+'`)

// serialParallelism turns SET 'parallelism.default' = 'N' into '1'.
func serialParallelism(statement string) string {
	return parallelismRe.ReplaceAllString(statement, "${1}'1'")
}

// lacksNetworkBuffers recognizes Flink's failure for want of network
// buffers.
func lacksNetworkBuffers(output string) bool {
	return strings.Contains(output, "Insufficient number of network buffers")
}
