package gateway

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/runtime"
)

// jobRows runs SHOW JOBS in a session and returns its rows: id, name,
// status, start time.
func (g *testGateway) jobRows(t *testing.T, session string) [][]any {
	t.Helper()
	fr := g.fetchUntilReady(t, session, g.execute(t, session, "SHOW JOBS"))
	var rows [][]any
	for _, r := range fr["results"].(map[string]any)["data"].([]any) {
		rows = append(rows, r.(map[string]any)["fields"].([]any))
	}
	return rows
}

func jobStatus(rows [][]any, id string) string {
	for _, r := range rows {
		if r[0] == id {
			return r[2].(string)
		}
	}
	return ""
}

// TestInsertJobOutlivesItsSession: as on a Flink session cluster, closing
// a session (the SQL Client exits after a -f script) cancels its query's
// job but not its INSERT's: another session lists the INSERT's job and
// stops it with STOP JOB; closing the server cancels the jobs it kept.
func TestInsertJobOutlivesItsSession(t *testing.T) {
	g := newTestGateway(t, Config{})
	a := g.openSession(t, nil)
	for _, ddl := range []string{
		"CREATE TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '20')",
		"CREATE TABLE bh (a BIGINT) WITH ('connector' = 'blackhole')",
	} {
		g.fetchUntilReady(t, a, g.execute(t, a, ddl))
	}
	insert := g.fetchUntilReady(t, a, g.execute(t, a, "INSERT INTO bh SELECT a FROM gen"))["jobID"].(string)
	query := g.fetchUntilReady(t, a, g.execute(t, a, "SELECT a FROM gen"))["jobID"].(string)
	ss, _ := g.srv.session(a)
	queryJob, _ := ss.env.JobByID(query)
	insertJob, _ := ss.env.JobByID(insert)
	if queryJob == nil || insertJob == nil {
		t.Fatalf("jobs %s, %s not found", insert, query)
	}
	g.mustOK(t, "DELETE", "/v2/sessions/"+a, nil)

	select {
	case <-queryJob.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the query's job did not end with its session")
	}
	if st := insertJob.Status(); st != runtime.Running {
		t.Fatalf("the INSERT's job is %s after its session closed, want RUNNING", st)
	}
	b := g.openSession(t, nil)
	if st := jobStatus(g.jobRows(t, b), insert); st != "RUNNING" {
		t.Errorf("SHOW JOBS in another session: the INSERT's job is %q", st)
	}
	fr := g.fetchUntilReady(t, b, g.execute(t, b, "STOP JOB '"+insert+"'"))
	if fr["resultKind"] != "SUCCESS" {
		t.Errorf("STOP JOB: %v", fr)
	}
	select {
	case <-insertJob.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("STOP JOB from another session did not stop the job")
	}
	if st := jobStatus(g.jobRows(t, b), insert); st != "CANCELED" {
		t.Errorf("after STOP JOB: %q", st)
	}
	// stopping it again fails as the engine's STOP JOB does
	op := g.execute(t, b, "STOP JOB '"+insert+"'")
	if !waitFor(10*time.Second, func() bool {
		st, _ := g.callJSON(t, "GET", "/v2/sessions/"+b+"/operations/"+op+"/status", nil)
		return st == 200 && g.mustOK(t, "GET", "/v2/sessions/"+b+"/operations/"+op+"/status", nil)["status"] == "ERROR"
	}) {
		t.Fatal("the second STOP JOB's operation did not end in ERROR within 10 s")
	}
	status, raw := g.call(t, "GET", "/v2/sessions/"+b+"/operations/"+op+"/result/0?rowFormat=JSON", nil)
	if status != 500 || !strings.Contains(string(raw), "the job is not running (it is CANCELED)") {
		t.Errorf("second STOP JOB: %d %s", status, raw)
	}

	// a job kept after its session closed is cancelled with the server
	c := g.openSession(t, nil)
	for _, ddl := range []string{
		"CREATE TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '20')",
		"CREATE TABLE bh (a BIGINT) WITH ('connector' = 'blackhole')",
	} {
		g.fetchUntilReady(t, c, g.execute(t, c, ddl))
	}
	kept := g.fetchUntilReady(t, c, g.execute(t, c, "INSERT INTO bh SELECT a FROM gen"))["jobID"].(string)
	cs, _ := g.srv.session(c)
	keptJob, _ := cs.env.JobByID(kept)
	g.mustOK(t, "DELETE", "/v2/sessions/"+c, nil)
	if st := keptJob.Status(); st != runtime.Running {
		t.Fatalf("kept job %s", st)
	}
	g.srv.Close()
	select {
	case <-keptJob.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("closing the server did not cancel the kept job")
	}
}

// TestBoundedInsertFinishesAfterSessionCloses is the SQL Client's batch
// script: INSERT INTO a filesystem table, then exit. The job writes every
// row although the session closed right after submitting it.
func TestBoundedInsertFinishesAfterSessionCloses(t *testing.T) {
	g := newTestGateway(t, Config{})
	dir := t.TempDir()
	s := g.openSession(t, batchMode)
	for _, ddl := range []string{
		"CREATE TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '20000', 'rows-per-second' = '20000', 'fields.a.kind' = 'sequence', 'fields.a.start' = '1', 'fields.a.end' = '20000')",
		"CREATE TABLE fs (a BIGINT) WITH ('connector' = 'filesystem', 'path' = '" + dir + "', 'format' = 'csv')",
	} {
		g.fetchUntilReady(t, s, g.execute(t, s, ddl))
	}
	id := g.fetchUntilReady(t, s, g.execute(t, s, "INSERT INTO fs SELECT a FROM gen"))["jobID"].(string)
	ss, _ := g.srv.session(s)
	job, _ := ss.env.JobByID(id)
	if st := job.Status(); st != runtime.Running { // it takes about a second
		t.Fatalf("the INSERT's job is %s before the session closes", st)
	}
	g.mustOK(t, "DELETE", "/v2/sessions/"+s, nil)
	select {
	case <-job.Done():
	case <-time.After(60 * time.Second):
		t.Fatal("the INSERT did not finish")
	}
	if st := job.Status(); st != runtime.Finished {
		t.Fatalf("the INSERT's job is %s, want FINISHED", st)
	}
	n := 0
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), ".") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n += strings.Count(string(b), "\n")
	}
	if n != 20000 {
		t.Errorf("%d rows written, want 20000", n)
	}
}
