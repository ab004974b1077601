//go:build interop

package interop

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/gateway"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/testwait"
	"github.com/riffle-sql/riffle/engine/types"
)

// fcRequire returns the running Flink or fails the test.
func fcRequire(t testing.TB) Flink {
	t.Helper()
	f, err := FlinkFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// fcConnectFlink opens a session on the running Flink SQL Gateway with the
// given properties (plus the cluster REST URL, so that jobs are looked up
// there); the session is closed when the test ends.
func fcConnectFlink(t testing.TB, f Flink, props map[string]string) *gateway.RemoteEngine {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	e, err := gateway.Connect(ctx, f.Gateway, gateway.RemoteOptions{
		SessionName: t.Name(), Properties: props, ClusterREST: f.REST,
	})
	if err != nil {
		t.Fatalf("connect to %s: %v", f.Gateway, err)
	}
	t.Cleanup(func() { _ = e.Close() })
	return e
}

// fcZeroPos is the position of a statement that stands alone.
var fcZeroPos = sql.Pos{}

// fcBatchProps and fcStreamingProps are session properties for the two modes.
func fcBatchProps() map[string]string {
	return map[string]string{"execution.runtime-mode": "batch", "table.dml-sync": "true"}
}

func fcStreamingProps() map[string]string {
	return map[string]string{"execution.runtime-mode": "streaming", "table.dml-sync": "true"}
}

// fcExec runs one statement and fails the test on error.
func fcExec(t testing.TB, ctx context.Context, e table.Engine, stmt string) table.StatementResult {
	t.Helper()
	res, err := e.ExecuteStatement(ctx, stmt, fcZeroPos)
	if err != nil {
		t.Fatalf("%s: %v", fcFirstLine(stmt), err)
	}
	return res
}

// fcRowsOf runs a statement and returns its rows formatted as the SQL
// Client shows them ("+I[1, a]"), in arrival order.
func fcRowsOf(t testing.TB, ctx context.Context, e table.Engine, stmt string) []string {
	t.Helper()
	res := fcExec(t, ctx, e, stmt)
	return fcFormatRows(t, res)
}

// fcFormatRows reads a result to its end.
func fcFormatRows(t testing.TB, res table.StatementResult) []string {
	t.Helper()
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	ts := res.Schema().GetFieldDataTypes()
	var out []string
	for it.Next() {
		out = append(out, fcFormatRow(it.Row(), ts, res.TimeZone()))
	}
	if err := it.Err(); err != nil {
		t.Fatalf("reading rows: %v", err)
	}
	return out
}

func fcFormatRow(r *types.Row, ts []*types.DataType, zone *time.Location) string {
	cells := make([]string, len(r.Values))
	for i, v := range r.Values {
		var dt *types.DataType
		if i < len(ts) {
			dt = ts[i]
		}
		cells[i] = table.FormatCell(v, dt, zone)
	}
	return r.Kind.ShortString() + "[" + strings.Join(cells, ", ") + "]"
}

// fcApplyChangelog folds a changelog into the final multiset of rows (as
// "[a, b]" strings, sorted).
func fcApplyChangelog(t testing.TB, rows []string) []string {
	t.Helper()
	count := map[string]int{}
	for _, r := range rows {
		kind, body := r[:2], r[2:]
		switch kind {
		case "+I", "+U":
			count[body]++
		case "-U", "-D":
			if count[body] == 0 {
				t.Fatalf("changelog retracts %s that is not there (changelog %v)", body, rows)
			}
			count[body]--
		default:
			t.Fatalf("bad row kind in %q", r)
		}
	}
	var out []string
	for body, n := range count {
		for i := 0; i < n; i++ {
			out = append(out, body)
		}
	}
	fcSortStrings(out)
	return out
}

func fcSortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func fcFirstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " ..."
	}
	return s
}

// fcClusterJob is a job as the cluster's REST API (/jobs/overview) shows it.
type fcClusterJob struct {
	ID    string `json:"jid"`
	Name  string `json:"name"`
	State string `json:"state"`
}

// fcClusterJobState returns a job's state from the cluster's REST API
// (/jobs/overview), or "" when the cluster does not know the job.
func fcClusterJobState(t testing.TB, f Flink, id string) string {
	t.Helper()
	resp, err := http.Get(f.REST + "/jobs/overview")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var body struct {
		Jobs []fcClusterJob `json:"jobs"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	for _, j := range body.Jobs {
		if j.ID == id {
			return j.State
		}
	}
	return ""
}

// fcWaitUntil polls cond (testwait.Poll) until it is true or the
// deadline passes; it fails the test with what() then.
func fcWaitUntil(t testing.TB, within time.Duration, cond func() bool, what func() string) {
	t.Helper()
	if !testwait.Poll(within, cond) {
		t.Fatalf("not within %v: %s", within, what())
	}
}

func fcEqualStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func fcMustEqual(t testing.TB, what string, got, want []string) {
	t.Helper()
	if !fcEqualStrings(got, want) {
		t.Fatalf("%s:\n got  %s\n want %s", what, fmt.Sprint(got), fmt.Sprint(want))
	}
}
