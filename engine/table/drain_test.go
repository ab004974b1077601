package table

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/testwait"
)

// windowCounts reads the csv table out(cnt, mx) of a tumbling window
// count: the rows counted and the largest value seen over its committed
// files.
func windowCounts(t *testing.T, dir string) (windows int, rows, largest int64) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") || strings.HasPrefix(e.Name(), "_") {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Fields(string(b)) {
			cnt, mx, ok := strings.Cut(line, ",")
			c, err1 := strconv.ParseInt(cnt, 10, 64)
			m, err2 := strconv.ParseInt(mx, 10, 64)
			if !ok || err1 != nil || err2 != nil {
				t.Fatalf("%s: %q", e.Name(), line)
			}
			windows++
			rows += c
			largest = max(largest, m)
		}
	}
	return windows, rows, largest
}

// STOP JOB … WITH SAVEPOINT WITH DRAIN advances event time to its end
// before the savepoint, as Flink's stop-with-savepoint --drain: the
// tumbling window still open fires, so the windows counted every row the
// job read, and the job ends FINISHED. Stopped WITH SAVEPOINT alone, the
// open window stays in the savepoint unfired.
func TestStopWithSavepointWithDrainFiresWindows(t *testing.T) {
	for _, drain := range []bool{true, false} {
		t.Run(fmt.Sprintf("drain=%v", drain), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "out")
			env := MustCreate(InStreamingMode())
			mustExec(t, env,
				"SET 'parallelism.default' = '1'",
				"SET 'execution.checkpointing.savepoint-dir' = '"+t.TempDir()+"'",
				`CREATE TABLE gen (v BIGINT, ts AS TO_TIMESTAMP_LTZ(v * 1000, 3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen',
					'rows-per-second' = '200', 'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '100000')`,
				fmt.Sprintf(`CREATE TABLE out_t (cnt BIGINT, mx BIGINT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')`, dir))
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			res, err := env.ExecuteSQLContext(ctx, `INSERT INTO out_t SELECT COUNT(*), MAX(v)
				FROM TABLE(TUMBLE(TABLE gen, DESCRIPTOR(ts), INTERVAL '7' SECOND)) GROUP BY window_start, window_end`)
			if err != nil {
				t.Fatal(err)
			}
			job := res.JobClient()
			testwait.Until(t, time.Minute, "the job to read past a few windows", func() bool {
				for _, m := range job.Metrics() {
					if m.RecordsOut > 40 {
						return true
					}
				}
				return false
			})
			stop := "STOP JOB '" + job.JobID() + "' WITH SAVEPOINT"
			if drain {
				stop += " WITH DRAIN"
			}
			sp, err := env.ExecuteSQLContext(ctx, stop)
			if err != nil {
				t.Fatal(err)
			}
			var path string
			for r, err := range sp.Rows(ctx) {
				if err != nil {
					t.Fatal(err)
				}
				path = r.Values[0].(string)
			}
			if err := job.Wait(ctx); err != nil {
				t.Fatal(err)
			}
			if st := job.Status().String(); st != "FINISHED" {
				t.Fatalf("job %s after the stop", st)
			}
			if _, err := os.Stat(filepath.Join(strings.TrimPrefix(path, "file:"), "_metadata")); err != nil {
				t.Fatalf("savepoint %s: %v", path, err)
			}
			read := job.Metrics()[0].RecordsOut // the source's rows: 1..read
			windows, rows, largest := windowCounts(t, dir)
			if windows == 0 || rows != largest {
				t.Fatalf("%d windows counted %d rows up to value %d, want each value up to it once", windows, rows, largest)
			}
			if drain {
				// the window open at the stop fired too: every row read
				if largest != read {
					t.Fatalf("drained: the windows counted the values up to %d, the source read %d", largest, read)
				}
				if cp, err := ReadCheckpoint(path); err != nil || !cp.Savepoint {
					t.Fatalf("the drained job's savepoint: %+v, %v", cp, err)
				}
			} else if largest >= read || largest%7 != 6 {
				// windows [7k, 7k+7) s hold the values 7k … 7k+6: only
				// whole windows fired, the open one stays in the savepoint
				t.Fatalf("not drained: the windows counted the values up to %d, the source read %d", largest, read)
			}
		})
	}
}
