package table

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// rowsOf runs a streaming query and returns its first n rows (as "+I[...]"
// strings); the job is cancelled afterwards.
func rowsOf(t *testing.T, env *TableEnvironment, query string, n int) []string {
	t.Helper()
	res, err := env.ExecuteSQL(query)
	if err != nil {
		t.Fatal(err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for len(out) < n && it.Next() {
		out = append(out, it.Row().String())
	}
	if len(out) < n {
		t.Fatalf("got %d rows (%v), want %d: %v", len(out), out, n, it.Err())
	}
	return out
}

func mustExec(t *testing.T, env *TableEnvironment, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := env.ExecuteSQL(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// With table.exec.source.idle-timeout, a source that stops producing is
// ignored by watermark alignment, so windows fire on the other input's
// watermark (two monitored directories: both unbounded, b silent after
// its first file). Without it, the union's watermark would wait for b.
func TestSourceIdleTimeoutLetsWindowsFire(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "a", "1.csv"), "2024-03-01 10:00:01,1\n2024-03-01 10:00:05,1\n2024-03-01 10:00:25,1\n")
	writeFile(t, filepath.Join(dir, "b", "1.csv"), "2024-03-01 10:00:02,2\n")
	env := MustCreate(InStreamingMode())
	env.Config().Set("table.local-time-zone", "UTC")
	mustExec(t, env,
		"SET 'pipeline.auto-watermark-interval' = '0'",
		"SET 'table.exec.source.idle-timeout' = '100 ms'")
	for _, name := range []string{"a", "b"} {
		mustExec(t, env, fmt.Sprintf(`CREATE TABLE %s (ts TIMESTAMP(3), v INT, WATERMARK FOR ts AS ts)
WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'source.monitor-interval' = '20 ms')`, name, filepath.Join(dir, name)))
	}
	got := rowsOf(t, env, `SELECT window_start, COUNT(*) AS n, SUM(v) AS s
FROM TABLE(TUMBLE((SELECT * FROM a UNION ALL SELECT * FROM b), DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end`, 1)
	if want := "+I[2024-03-01T10:00, 3, 4]"; got[0] != want {
		t.Fatalf("got %s, want %s", got[0], want)
	}
}

// A row behind the watermark does not count in its window and is counted
// in the window operator's LateDropped metric.
func TestLateRowsCountedInMetrics(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bids.csv")
	writeFile(t, path, "2024-03-01 10:00:01,1\n2024-03-01 10:00:16,2\n2024-03-01 10:00:05,3\n2024-03-01 10:00:26,4\n")
	env := MustCreate(InStreamingMode())
	env.Config().Set("table.local-time-zone", "UTC")
	mustExec(t, env, "SET 'pipeline.auto-watermark-interval' = '0'",
		fmt.Sprintf(`CREATE TABLE bids (ts TIMESTAMP(3), price INT, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND)
WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')`, path))
	res, err := env.ExecuteSQL(`SELECT window_start, SUM(price) FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end`)
	if err != nil {
		t.Fatal(err)
	}
	it, _ := res.Collect()
	var got []string
	for it.Next() {
		got = append(got, it.Row().String())
	}
	want := "+I[2024-03-01T10:00, 1] +I[2024-03-01T10:00:10, 2] +I[2024-03-01T10:00:20, 4]"
	if strings.Join(got, " ") != want {
		t.Fatalf("got %v, want %s", got, want)
	}
	jc := res.JobClient()
	late := int64(0)
	for _, m := range jc.Metrics() {
		late += m.LateDropped
	}
	if late != 1 {
		t.Fatalf("LateDropped = %d, want 1", late)
	}
}

// 'source.replay-speed' replays a bounded file as a live stream paced by
// event time; the results are those of the unpaced query.
func TestReplaySpeedKeepsResults(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bids.csv")
	writeFile(t, path, "2024-03-01 10:00:01,1\n2024-03-01 10:00:03,2\n2024-03-01 10:00:12,3\n2024-03-01 10:00:21,4\n")
	query := `SELECT window_start, SUM(price) FROM TABLE(TUMBLE(TABLE bids, DESCRIPTOR(ts), INTERVAL '10' SECOND))
GROUP BY window_start, window_end`
	var results []string
	for _, speed := range []string{"", "'source.replay-speed' = '2000',", "'source.replay-speed' = 'max',"} {
		env := MustCreate(InStreamingMode())
		env.Config().Set("table.local-time-zone", "UTC")
		mustExec(t, env, fmt.Sprintf(`CREATE TABLE bids (ts TIMESTAMP(3), price INT, WATERMARK FOR ts AS ts)
WITH (%s 'connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')`, speed, path))
		results = append(results, strings.Join(rowsOf(t, env, query, 3), " "))
	}
	want := "+I[2024-03-01T10:00, 3] +I[2024-03-01T10:00:10, 3] +I[2024-03-01T10:00:20, 4]"
	for i, r := range results {
		if r != want {
			t.Errorf("run %d: %s, want %s", i, r, want)
		}
	}
}

// A print sink with a primary key that the query's updates are not keyed
// on: by default (AUTO) the INSERT fails as on Flink 2.3 (it asks for ON
// CONFLICT); with 'table.exec.sink.upsert-materialize' FORCE the rows go
// through a SinkUpsertMaterializer: per key, the latest row.
func TestUpsertMaterializeIntoPrintSink(t *testing.T) {
	env := atParallelismOne(MustCreate(InStreamingMode()))
	var out strings.Builder
	env.SetStdout(&out)
	mustExec(t, env,
		"SET 'table.dml-sync' = 'true'",
		"CREATE TABLE p (item STRING, cnt BIGINT, PRIMARY KEY (cnt) NOT ENFORCED) WITH ('connector' = 'print')")
	const insert = "INSERT INTO p SELECT item, COUNT(*) FROM (VALUES ('a'), ('b'), ('a')) AS t(item) GROUP BY item"
	if _, err := env.ExecuteSQL(insert); err == nil || !strings.Contains(err.Error(), "Primary key: [cnt], upsert key: [item]") {
		t.Fatalf("AUTO: err = %v, want the upsert key conflict", err)
	}
	mustExec(t, env, "SET 'table.exec.sink.upsert-materialize' = 'FORCE'", insert)
	want := "+I[a, 1]\n+U[b, 1]\n+I[a, 2]\n"
	if out.String() != want {
		t.Fatalf("printed:\n%s\nwant:\n%s", out.String(), want)
	}
}
