//go:build interop

package interop

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/interop/querygen"
)

// The differential run's knobs: a flag, else an environment variable, else
// the CI default. `go test -tags interop,migrated_fynedo -run TestDiffFlink
// ./interop/ -args -diff.n=10000` (or RIFFLE_DIFF_N=10000) is the nightly
// size; -diff.id=17,42 re-runs single queries of the seed.
var (
	diffSeed = flag.Int64("diff.seed", envInt64("RIFFLE_DIFF_SEED", 20261201), "seed of the tables and queries (env RIFFLE_DIFF_SEED)")
	diffN    = flag.Int("diff.n", int(envInt64("RIFFLE_DIFF_N", 240)), "number of queries (env RIFFLE_DIFF_N)")
	diffIDs  = flag.String("diff.id", os.Getenv("RIFFLE_DIFF_ID"), "comma-separated query numbers to run alone (env RIFFLE_DIFF_ID)")
)

func envInt64(name string, def int64) int64 {
	if v, err := strconv.ParseInt(os.Getenv(name), 10, 64); err == nil {
		return v
	}
	return def
}

// diffOutcome is one query's result on both engines.
type diffOutcome struct {
	q                     querygen.Query
	flinkRows, riffleRows [][]any
	flinkErr, riffleErr   error
	diff                  string // "" when the results agree
	known                 string // why a difference is expected, when it is
}

func (o *diffOutcome) class() string {
	switch {
	case o.flinkErr != nil && o.riffleErr != nil:
		return "both-error"
	case o.flinkErr != nil:
		return "flink-only-error"
	case o.riffleErr != nil:
		return "riffle-only-error"
	case o.diff != "":
		return "differed"
	}
	return "agreed"
}

// TestDiffFlink runs generated queries on the embedded engine and on the
// running Apache Flink (SQL Gateway) and compares their final results. It
// fails on any difference, and on any error of one engine only, that
// querygen.Known does not explain.
func TestDiffFlink(t *testing.T) {
	seed := *diffSeed
	var queries []querygen.Query
	if *diffIDs != "" {
		for _, s := range strings.Split(*diffIDs, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), fmt.Sprintf("s%d-q", seed))))
			if err != nil {
				t.Fatalf("-diff.id: %q is not a query number", s)
			}
			queries = append(queries, querygen.QueryAt(seed, n))
		}
	} else {
		queries = querygen.Generate(seed, *diffN)
	}

	flink, riffle := diffEngines(t, seed)
	ctx := context.Background()

	// two queries at a time: Flink's cluster is shared
	outcomes := make([]*diffOutcome, len(queries))
	work := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range work {
				q := queries[i]
				o := &diffOutcome{q: q}
				o.flinkRows, o.flinkErr = runFlinkQuery(ctx, flink[q.Mode], q.SQL)
				o.riffleRows, o.riffleErr = runQuery(ctx, riffle[q.Mode], q.SQL)
				if o.flinkErr == nil && o.riffleErr == nil {
					o.diff = querygen.Compare(o.flinkRows, o.riffleRows, q.Ordered)
				}
				o.known = querygen.Known(q, errText(o.flinkErr), errText(o.riffleErr), o.diff)
				if o.diff != "" && querygen.Compare(querygen.FoldFinalSigma(o.flinkRows), querygen.FoldFinalSigma(o.riffleRows), q.Ordered) == "" {
					o.known = "Java's final-sigma context (Flink's LOWER) differs from Unicode's Final_Sigma (Riffle's): σ vs ς"
				}
				outcomes[i] = o
			}
		}()
	}
	for i := range queries {
		work <- i
	}
	close(work)
	wg.Wait()

	counts := map[string]int{}
	var unexplained []*diffOutcome
	var report strings.Builder
	for _, o := range outcomes {
		c := o.class()
		counts[c]++
		if c == "agreed" {
			continue
		}
		if c == "both-error" {
			// both reject the query: nothing to compare, listed for review
			fmt.Fprintf(&report, "== %s [%s, %s, %s] both engines failed\n%s\nflink:  %s\nriffle: %s\n\n",
				o.q.ID, o.q.Kind, o.q.Mode, c, o.q.SQL, firstLine(o.flinkErr), firstLine(o.riffleErr))
			continue
		}
		if o.known == "" {
			unexplained = append(unexplained, o)
		} else {
			counts["explained"]++
		}
		fmt.Fprintf(&report, "== %s [%s, %s, %s]%s\n%s\n", o.q.ID, o.q.Kind, o.q.Mode, c, knownNote(o.known), o.q.SQL)
		if o.diff != "" {
			fmt.Fprintf(&report, "difference: %s\n-- flink (%d rows):\n%s\n-- riffle (%d rows):\n%s\n",
				o.diff, len(o.flinkRows), querygen.FormatRows(o.flinkRows, o.q.Ordered), len(o.riffleRows), querygen.FormatRows(o.riffleRows, o.q.Ordered))
		}
		if o.flinkErr != nil {
			fmt.Fprintf(&report, "flink error: %s\n", firstLine(o.flinkErr))
		} else if o.diff == "" {
			fmt.Fprintf(&report, "-- flink (%d rows):\n%s\n", len(o.flinkRows), querygen.FormatRows(o.flinkRows, o.q.Ordered))
		}
		if o.riffleErr != nil {
			fmt.Fprintf(&report, "riffle error: %s\n", firstLine(o.riffleErr))
		}
		report.WriteString("\n")
	}
	summary := fmt.Sprintf("diff-flink seed=%d: %d cases, %d agreed, %d differed, %d flink-only errors, %d riffle-only errors, %d both-error; %d explained, %d unexplained",
		seed, len(outcomes), counts["agreed"], counts["differed"], counts["flink-only-error"], counts["riffle-only-error"], counts["both-error"], counts["explained"], len(unexplained))
	t.Log(summary)
	fmt.Println(summary)
	if path := os.Getenv("RIFFLE_DIFF_REPORT"); path != "" {
		if err := os.WriteFile(path, []byte(summary+"\n\n"+report.String()), 0o644); err != nil {
			t.Errorf("writing the report: %v", err)
		}
	}
	for _, o := range unexplained {
		t.Errorf("%s (%s, %s): %s\n%s\nflink: %s\nriffle: %s", o.q.ID, o.q.Kind, o.q.Mode, o.class(), o.q.SQL,
			describe(o.flinkErr, o.diff), firstLine(o.riffleErr))
	}
}

func knownNote(k string) string {
	if k == "" {
		return " UNEXPLAINED"
	}
	return " explained: " + k
}

func describe(err error, diff string) string {
	if err != nil {
		return firstLine(err)
	}
	return diff
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func firstLine(err error) string {
	if err == nil {
		return "ok"
	}
	s := err.Error()
	if len(s) > 600 {
		s = s[:600] + "…"
	}
	return s
}

// diffEngines writes the test tables of seed, opens a Flink gateway session
// and an embedded engine per runtime mode and creates the tables in each.
func diffEngines(t *testing.T, seed int64) (flink, riffle map[querygen.Mode]table.Engine) {
	t.Helper()
	f := fcRequire(t)
	dir := t.TempDir()
	paths, err := querygen.WriteCSV(dir, querygen.Tables(seed))
	if err != nil {
		t.Fatal(err)
	}
	var ddl []string
	for _, name := range querygen.TableNames {
		ddl = append(ddl, querygen.DDL(name, paths[name]))
	}

	ctx := context.Background()
	flink = map[querygen.Mode]table.Engine{}
	riffle = map[querygen.Mode]table.Engine{}
	for _, m := range []querygen.Mode{querygen.Batch, querygen.Streaming} {
		cctx, cancel := context.WithTimeout(ctx, time.Minute)
		fe, err := gateway.Connect(cctx, f.Gateway, gateway.RemoteOptions{
			SessionName: "riffle-diff-" + string(m),
			Properties:  map[string]string{"execution.runtime-mode": string(m)},
			PollMax:     200 * time.Millisecond,
		})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { fe.Close() })
		settings := table.InBatchMode()
		if m == querygen.Streaming {
			settings = table.InStreamingMode()
		}
		env, err := table.Create(settings)
		if err != nil {
			t.Fatal(err)
		}
		re := table.NewEmbeddedEngine(env)
		t.Cleanup(func() { re.Close() })
		for _, st := range ddl {
			for name, e := range map[string]table.Engine{"flink": fe, "riffle": re} {
				if _, err := runStatement(ctx, e, st); err != nil {
					t.Fatalf("%s %s: %v\n%s", name, m, err, st)
				}
			}
		}
		flink[m], riffle[m] = fe, re
	}

	return flink, riffle
}

// TestDiffFlinkSQL runs one statement, RIFFLE_DIFF_SQL (default: a count of
// t1), on both engines over the tables of the seed and logs both results;
// it fails when they differ. RIFFLE_DIFF_MODE picks the runtime mode
// (batch, the default, or streaming). A tool for looking at a difference.
func TestDiffFlinkSQL(t *testing.T) {
	q := querygen.Query{ID: "adhoc", Kind: "adhoc", Mode: querygen.Batch, SQL: os.Getenv("RIFFLE_DIFF_SQL")}
	if q.SQL == "" {
		q.SQL = "SELECT COUNT(*), COUNT(DISTINCT id), SUM(k) FROM t1"
	}
	if os.Getenv("RIFFLE_DIFF_MODE") == "streaming" {
		q.Mode = querygen.Streaming
	}
	q.Ordered = strings.Contains(strings.ToUpper(q.SQL), "ORDER BY")
	flink, riffle := diffEngines(t, *diffSeed)
	ctx := context.Background()
	if os.Getenv("RIFFLE_DIFF_RAW") != "" {
		for name, e := range map[string]table.Engine{"flink": flink[q.Mode], "riffle": riffle[q.Mode]} {
			t.Logf("%s changelog:\n%s", name, rawChangelog(ctx, e, q.SQL))
		}
	}
	fr, ferr := runFlinkQuery(ctx, flink[q.Mode], q.SQL)
	rr, rerr := runQuery(ctx, riffle[q.Mode], q.SQL)
	t.Logf("flink (%v):\n%s", ferr, querygen.FormatRows(fr, q.Ordered))
	t.Logf("riffle (%v):\n%s", rerr, querygen.FormatRows(rr, q.Ordered))
	if ferr != nil || rerr != nil {
		if (ferr == nil) != (rerr == nil) {
			t.Errorf("only one engine failed")
		}
		return
	}
	if d := querygen.Compare(fr, rr, q.Ordered); d != "" {
		t.Errorf("difference: %s", d)
	}
}

// rawChangelog returns a query's rows with their kinds, one a line.
func rawChangelog(ctx context.Context, e table.Engine, q string) string {
	res, err := e.ExecuteStatement(ctx, q, sql.Pos{})
	if err != nil {
		return err.Error()
	}
	rows, err := res.Collect()
	if err != nil {
		return err.Error()
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		r := rows.Row()
		fmt.Fprintf(&b, "%s %s\n", r.Kind.ShortString(), querygen.FormatRow(r.Values))
	}
	if err := rows.Err(); err != nil {
		b.WriteString(err.Error())
	}
	return b.String()
}

// runFlinkQuery is runQuery that tries again, up to 5 times with a growing
// pause, when the shared cluster had no free slot for the job (a condition
// of the cluster, not an answer about the query).
func runFlinkQuery(ctx context.Context, e table.Engine, q string) ([][]any, error) {
	pause := time.Second
	for try := 1; ; try++ {
		rows, err := runQuery(ctx, e, q)
		// a query over these small tables takes about a second: running
		// out of the 2 minutes means a stalled cluster (an overloaded
		// machine, a TaskManager restarting), not an answer; tried twice
		stalled := errors.Is(err, context.DeadlineExceeded) || err != nil && strings.Contains(err.Error(), "context deadline exceeded")
		if err == nil || try == 5 || stalled && try >= 2 ||
			!stalled && !strings.Contains(err.Error(), "Could not acquire the minimum required resources") {
			return rows, err
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(pause):
		}
		pause *= 2
	}
}

// runStatement runs a statement without rows (DDL).
func runStatement(ctx context.Context, e table.Engine, st string) (table.StatementResult, error) {
	cctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	return e.ExecuteStatement(cctx, st, sql.Pos{})
}

// runQuery runs a query and returns its final rows (the changelog applied).
func runQuery(ctx context.Context, e table.Engine, q string) ([][]any, error) {
	cctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	res, err := e.ExecuteStatement(cctx, q, sql.Pos{})
	if err != nil {
		return nil, err
	}
	rows, err := res.Collect()
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var cl querygen.Changelog
	for rows.Next() {
		r := rows.Row()
		cl.Add(r.Kind, r.Values)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	if cl.Unmatched > 0 {
		return nil, fmt.Errorf("changelog retracts %d rows it never added", cl.Unmatched)
	}
	return cl.Rows(), nil
}
