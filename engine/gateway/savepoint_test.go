package gateway

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/table"
)

// STOP JOB … WITH SAVEPOINT through the REST API, of a job another
// session started: the savepoint goes into the asking session's savepoint
// directory, the result is Flink's one-row "savepoint path", and the job
// ends FINISHED.
func TestStopJobWithSavepointFromAnotherSession(t *testing.T) {
	g := newTestGateway(t, Config{})
	a := g.openSession(t, nil)
	for _, ddl := range []string{
		"CREATE TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '20')",
		"CREATE TABLE bh (a BIGINT) WITH ('connector' = 'blackhole')",
	} {
		g.fetchUntilReady(t, a, g.execute(t, a, ddl))
	}
	insert := g.fetchUntilReady(t, a, g.execute(t, a, "INSERT INTO bh SELECT a FROM gen"))["jobID"].(string)
	ss, _ := g.srv.session(a)
	job, _ := ss.env.JobByID(insert)
	if job == nil {
		t.Fatalf("job %s not found", insert)
	}

	b := g.openSession(t, nil)
	dir := t.TempDir()
	g.fetchUntilReady(t, b, g.execute(t, b, "SET 'execution.checkpointing.savepoint-dir' = '"+dir+"'"))
	fr := g.fetchUntilReady(t, b, g.execute(t, b, "STOP JOB '"+insert+"' WITH SAVEPOINT"))
	res := fr["results"].(map[string]any)
	cols := res["columns"].([]any)
	data := res["data"].([]any)
	if len(cols) != 1 || cols[0].(map[string]any)["name"] != "savepoint path" || len(data) != 1 {
		t.Fatalf("STOP JOB WITH SAVEPOINT: %v", fr)
	}
	path := data[0].(map[string]any)["fields"].([]any)[0].(string)
	if !strings.HasPrefix(path, "file:"+filepath.ToSlash(dir)+"/savepoint-"+insert[:6]+"-") {
		t.Fatalf("savepoint path %q", path)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := job.Wait(ctx); err != nil || job.Status() != table.JobFinished {
		t.Fatalf("after STOP JOB WITH SAVEPOINT: %v, %s", err, job.Status())
	}
}
