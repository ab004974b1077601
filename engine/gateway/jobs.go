package gateway

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// The gateway is the cluster its sessions submit to, as a Flink session
// cluster is to Flink's SQL Gateway:
//
//   - A job of an INSERT or statement set outlives the session that
//     submitted it. When the session closes (the SQL Client exits at the end
//     of a -f script, or the session expires), the job runs on until it
//     ends or is stopped; the server keeps it. Only a query's job, whose
//     rows nobody can fetch any more, is cancelled with its session.
//   - SHOW JOBS lists the jobs of every session and those kept after their
//     session closed, and STOP JOB stops any of them.
//
// Closing the server cancels every job.

// jobRetention is how long the server lists a job that ended after its
// session closed (Flink's jobstore.expiration-time, default one hour).
const jobRetention = time.Hour

// jobRegistry holds the jobs whose session closed while they ran.
type jobRegistry struct {
	mu   sync.Mutex
	jobs []*table.JobClient
}

// adopt keeps j, and forgets the kept jobs that ended over jobRetention
// ago.
func (r *jobRegistry) adopt(j *table.JobClient, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	kept := r.jobs[:0]
	for _, k := range r.jobs {
		if k.Status().IsTerminal() && !k.EndTime().IsZero() && now.Sub(k.EndTime()) > jobRetention {
			continue
		}
		kept = append(kept, k)
	}
	r.jobs = append(kept, j)
}

func (r *jobRegistry) list() []*table.JobClient {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*table.JobClient(nil), r.jobs...)
}

// cancelAll cancels the kept jobs and waits for them until deadline.
func (r *jobRegistry) cancelAll(deadline <-chan struct{}) {
	jobs := r.list()
	for _, j := range jobs {
		if !j.Status().IsTerminal() {
			_ = j.Cancel()
		}
	}
	for _, j := range jobs {
		select {
		case <-j.Done():
		case <-deadline:
			return
		}
	}
}

// allJobs lists the jobs of every open session and those kept after their
// session closed, oldest first.
func (s *Server) allJobs() []*table.JobClient {
	s.mu.Lock()
	sessions := make([]*session, 0, len(s.sessions))
	for _, ss := range s.sessions {
		sessions = append(sessions, ss)
	}
	s.mu.Unlock()
	seen := map[string]bool{}
	var jobs []*table.JobClient
	add := func(js []*table.JobClient) {
		for _, j := range js {
			if !seen[j.JobID()] {
				seen[j.JobID()] = true
				jobs = append(jobs, j)
			}
		}
	}
	for _, ss := range sessions {
		add(ss.env.Jobs())
	}
	add(s.detached.list())
	sort.SliceStable(jobs, func(a, b int) bool { return jobs[a].StartTime().Before(jobs[b].StartTime()) })
	return jobs
}

// showJobs answers SHOW JOBS with the gateway's jobs, in the columns and
// forms of the engine's SHOW JOBS.
func (s *Server) showJobs() (*opResult, error) {
	ts := []*types.DataType{types.StringType().NotNull(), types.StringType().NotNull(), types.StringType().NotNull(), types.StringType().NotNull()}
	var rows []*types.Row
	for _, j := range s.allJobs() {
		rows = append(rows, types.NewRow(j.JobID(), j.JobName(), j.Status().String(),
			j.StartTime().UTC().Format("2006-01-02T15:04:05.000Z")))
	}
	src, err := newStaticSource(ts, rows...)
	if err != nil {
		return nil, err
	}
	return &opResult{kind: ResultKindSuccessWithContent, names: []string{"job id", "job name", "status", "start time"}, types: ts, src: src}, nil
}

// stopJob runs STOP JOB for a job of another session or of none (the
// session's own jobs are the engine's to stop); it reports false when the
// gateway has no such job.
func (s *Server) stopJob(ctx context.Context, env *table.TableEnvironment, st *sql.StopJob) (*opResult, bool, error) {
	var job *table.JobClient
	for _, j := range s.allJobs() {
		if j.JobID() == st.JobID {
			job = j
			break
		}
	}
	if job == nil {
		return nil, false, nil
	}
	if st.WithSavepoint {
		// the savepoint goes where the asking session's options say
		res, err := env.StopJobWithSavepoint(ctx, job, st.WithDrain)
		if err != nil {
			return nil, true, err
		}
		op, err := resultOf(res)
		return op, true, err
	}
	if status := job.Status(); status.IsTerminal() {
		return nil, true, fmt.Errorf("Could not stop job %s: the job is not running (it is %s)", st.JobID, status)
	}
	if err := job.Cancel(); err != nil {
		return nil, true, err
	}
	// answer once the job has stopped (bounded), so that a SHOW JOBS right
	// after lists it CANCELED
	select {
	case <-job.Done():
	case <-time.After(s.cfg.CloseWait):
	}
	return okResult(), true, nil
}
