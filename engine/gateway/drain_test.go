package gateway

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/testwait"
)

// STOP JOB … WITH SAVEPOINT WITH DRAIN through the REST API, from another
// session: the window open at the stop fires (event time advances to its
// end before the savepoint), so the windows count every row the source
// read, and the job ends FINISHED.
func TestStopJobWithDrainFromAnotherSession(t *testing.T) {
	g := newTestGateway(t, Config{})
	out := filepath.Join(t.TempDir(), "out")
	a := g.openSession(t, map[string]string{"parallelism.default": "1"})
	for _, st := range []string{
		`CREATE TABLE gen (v BIGINT, ts AS TO_TIMESTAMP_LTZ(v * 1000, 3), WATERMARK FOR ts AS ts) WITH ('connector' = 'datagen',
			'rows-per-second' = '200', 'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '100000')`,
		fmt.Sprintf(`CREATE TABLE out_t (cnt BIGINT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')`, out),
	} {
		g.fetchUntilReady(t, a, g.execute(t, a, st))
	}
	insert := g.fetchUntilReady(t, a, g.execute(t, a, `INSERT INTO out_t SELECT COUNT(*)
		FROM TABLE(TUMBLE(TABLE gen, DESCRIPTOR(ts), INTERVAL '7' SECOND)) GROUP BY window_start, window_end`))["jobID"].(string)
	ss, _ := g.srv.session(a)
	job, _ := ss.env.JobByID(insert)
	if job == nil {
		t.Fatalf("job %s not found", insert)
	}
	testwait.Until(t, time.Minute, "the job to read past a few windows", func() bool { return job.Metrics()[0].RecordsOut > 40 })

	b := g.openSession(t, map[string]string{"execution.checkpointing.savepoint-dir": t.TempDir()})
	fr := g.fetchUntilReady(t, b, g.execute(t, b, "STOP JOB '"+insert+"' WITH SAVEPOINT WITH DRAIN"))
	if data := fr["results"].(map[string]any)["data"].([]any); len(data) != 1 {
		t.Fatalf("STOP JOB WITH SAVEPOINT WITH DRAIN: %v", fr)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := job.Wait(ctx); err != nil || job.Status() != table.JobFinished {
		t.Fatalf("after STOP JOB WITH DRAIN: %v, %s", err, job.Status())
	}
	read := job.Metrics()[0].RecordsOut
	var counted int64
	ents, _ := os.ReadDir(out)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(out, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range strings.Fields(string(raw)) {
			n, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				t.Fatalf("%s: %q", e.Name(), f)
			}
			counted += n
		}
	}
	if counted != read {
		t.Fatalf("the windows counted %d rows, the source read %d", counted, read)
	}
}
