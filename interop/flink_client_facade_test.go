//go:build interop

package interop

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/table"
)

// fcReport is a Go program written against table.Engine, the shape both
// engines share: it declares tables over files in dir, writes a sink and
// runs several queries, and returns each query's final rows (a changelog
// applied, sorted). It knows nothing of which engine it runs on.
func fcReport(ctx context.Context, e table.Engine, dir string) (map[string][]string, error) {
	ddl := []string{
		"CREATE TABLE orders (id INT, name STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3), " +
			"WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) WITH (" +
			"'connector' = 'filesystem', 'path' = 'file://" + filepath.Join(dir, "orders") + "', 'format' = 'csv')",
		"CREATE TABLE fruit (name STRING, color STRING) WITH (" +
			"'connector' = 'filesystem', 'path' = 'file://" + filepath.Join(dir, "fruit") + "', 'format' = 'json')",
		// Flink 2.3.0 counts a datagen table bounded only with
		// number-of-rows (sequence fields alone end the stream, yet batch
		// mode refuses the table as unbounded); so does Riffle
		"CREATE TABLE seq (id BIGINT) WITH ('connector' = 'datagen', " +
			"'number-of-rows' = '1000', 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '1000')",
		"CREATE TABLE big_orders (id INT, name STRING, amount DECIMAL(10, 2)) WITH (" +
			"'connector' = 'filesystem', 'path' = 'file://" + filepath.Join(dir, "big_orders") + "', 'format' = 'csv')",
		"INSERT INTO big_orders SELECT id, name, amount FROM orders WHERE amount >= 2",
	}
	for _, s := range ddl {
		res, err := e.ExecuteStatement(ctx, s, fcZeroPos)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", firstWords(s), err)
		}
		if id := res.JobID(); id != "" {
			if err := e.WaitJob(ctx, id); err != nil {
				return nil, err
			}
		}
	}
	queries := map[string]string{
		"group by":  "SELECT name, SUM(amount) AS total, COUNT(*) AS n FROM orders GROUP BY name",
		"filter":    "SELECT id, UPPER(name), amount * 2 FROM orders WHERE amount > 1",
		"join":      "SELECT o.id, o.name, f.color FROM orders AS o JOIN fruit AS f ON o.name = f.name",
		"datagen":   "SELECT COUNT(*), SUM(id), MAX(id) FROM seq",
		"distinct":  "SELECT COUNT(DISTINCT name) FROM orders",
		"sink":      "SELECT id, name, amount FROM big_orders",
		"tumble":    "SELECT window_start, window_end, COUNT(*) AS n, SUM(amount) AS total FROM TABLE(TUMBLE(TABLE orders, DESCRIPTOR(ts), INTERVAL '1' MINUTE)) GROUP BY window_start, window_end",
		"top-n":     "SELECT name, amount FROM (SELECT name, amount, ROW_NUMBER() OVER (PARTITION BY name ORDER BY amount DESC) AS rn FROM orders) WHERE rn = 1",
		"left join": "SELECT f.name, COUNT(o.id) FROM fruit AS f LEFT JOIN orders AS o ON o.name = f.name GROUP BY f.name",
	}
	out := map[string][]string{}
	for name, q := range queries {
		res, err := e.ExecuteStatement(ctx, q, fcZeroPos)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		it, err := res.Collect()
		if err != nil {
			return nil, err
		}
		ts := res.Schema().GetFieldDataTypes()
		count := map[string]int{}
		for it.Next() {
			r := it.Row()
			row := fcFormatRow(r, ts, res.TimeZone())
			body := row[2:]
			switch row[:2] {
			case "+I", "+U":
				count[body]++
			default:
				count[body]--
			}
		}
		err = it.Err()
		it.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		var rows []string
		for body, n := range count {
			if n < 0 {
				return nil, fmt.Errorf("%s: more retractions than rows of %s", name, body)
			}
			for ; n > 0; n-- {
				rows = append(rows, body)
			}
		}
		fcSortStrings(rows)
		out[name] = rows
	}
	return out, nil
}

func firstWords(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// TestFlinkClientSameProgram runs one Go program on the embedded engine
// and on real Flink (through RemoteEngine), in streaming and in batch mode,
// and gets the same final results from both.
func TestFlinkClientSameProgram(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for _, mode := range []string{"streaming", "batch"} {
		t.Run(mode, func(t *testing.T) {
			data := func(t *testing.T) string {
				dir := t.TempDir()
				fcWriteFile(t, dir, "orders", "part-0.csv",
					"1,apple,2.50,2024-01-01 10:00:05\n2,pear,1.25,2024-01-01 10:00:30\n3,apple,4.00,2024-01-01 10:01:10\n"+
						"4,plum,0.75,2024-01-01 10:01:50\n5,pear,3.00,2024-01-01 10:02:01\n6,apple,1.00,2024-01-01 10:02:59\n")
				fcWriteFile(t, dir, "fruit", "part-0.json",
					`{"name":"apple","color":"red"}`+"\n"+`{"name":"pear","color":"green"}`+"\n"+`{"name":"kiwi","color":"brown"}`+"\n")
				return dir
			}
			props := fcStreamingProps()
			settings := table.InStreamingMode()
			if mode == "batch" {
				props = fcBatchProps()
				settings = table.InBatchMode()
			}
			props["table.local-time-zone"] = "UTC"
			remote := fcConnectFlink(t, f, props)
			want, err := fcReport(ctx, remote, data(t))
			if err != nil {
				t.Fatalf("on Flink: %v", err)
			}
			env, err := table.Create(settings)
			if err != nil {
				t.Fatal(err)
			}
			env.GetConfig().Set("table.local-time-zone", "UTC")
			env.GetConfig().Set("table.dml-sync", "true")
			embedded := table.NewEmbeddedEngine(env)
			defer embedded.Close()
			got, err := fcReport(ctx, embedded, data(t))
			if err != nil {
				t.Fatalf("embedded: %v", err)
			}
			if len(want) != 9 {
				t.Fatalf("Flink answered %d queries", len(want))
			}
			for name, w := range want {
				if len(w) == 0 {
					t.Errorf("%s: no rows from Flink", name)
				}
				if strings.Join(got[name], "\n") != strings.Join(w, "\n") {
					t.Errorf("%s:\n embedded %v\n Flink    %v", name, got[name], w)
				}
			}
		})
	}
}
