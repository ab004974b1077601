package gateway

import (
	"sync/atomic"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/internal/runtime"
)

// A job that finished in a session that then closed stays in every other
// session's SHOW JOBS, as a Flink cluster keeps ended jobs in its job
// store: until jobstore.expiration-time after its end
// (Config.JobStoreExpiration), at most jobstore.max-capacity ended jobs
// (Config.JobStoreMaxCapacity; the ones that ended first go).
func TestFinishedJobsOfClosedSessionsStayListed(t *testing.T) {
	var offset atomic.Int64 // the server's clock runs ahead by it
	g := newTestGateway(t, Config{JobStoreMaxCapacity: 2, JobStoreExpiration: time.Hour,
		Now: func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }})
	finishedIn := func() string {
		s := g.openSession(t, batchMode)
		g.fetchUntilReady(t, s, g.execute(t, s, "CREATE TABLE gen (a BIGINT) WITH ('connector' = 'datagen', 'number-of-rows' = '10')"))
		g.fetchUntilReady(t, s, g.execute(t, s, "CREATE TABLE bh (a BIGINT) WITH ('connector' = 'blackhole')"))
		id := g.fetchUntilReady(t, s, g.execute(t, s, "INSERT INTO bh SELECT a FROM gen"))["jobID"].(string)
		ss, _ := g.srv.session(s)
		job, _ := ss.env.JobByID(id)
		select {
		case <-job.Done():
		case <-time.After(30 * time.Second):
			t.Fatal("the INSERT did not finish")
		}
		if st := job.Status(); st != runtime.Finished {
			t.Fatalf("job %s", st)
		}
		g.mustOK(t, "DELETE", "/v2/sessions/"+s, nil)
		return id
	}
	first := finishedIn()
	other := g.openSession(t, nil)
	if st := jobStatus(g.jobRows(t, other), first); st != "FINISHED" {
		t.Fatalf("SHOW JOBS in another session lists the closed session's finished job as %q, want FINISHED", st)
	}
	// capacity 2: a third ended job pushes out the one that ended first
	second, third := finishedIn(), finishedIn()
	rows := g.jobRows(t, other)
	if jobStatus(rows, first) != "" || jobStatus(rows, second) != "FINISHED" || jobStatus(rows, third) != "FINISHED" {
		t.Fatalf("with jobstore.max-capacity 2, SHOW JOBS lists %v; want the last two only", rows)
	}
	// expiration: an hour after they ended they are gone
	offset.Store(int64(time.Hour + time.Minute))
	if rows := g.jobRows(t, other); jobStatus(rows, second) != "" || jobStatus(rows, third) != "" {
		t.Fatalf("past jobstore.expiration-time SHOW JOBS still lists %v", rows)
	}
}
