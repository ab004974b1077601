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
//     session closed: running ones, and ended ones (FINISHED, CANCELED,
//     FAILED) for Config.JobStoreExpiration after their end, at most
//     Config.JobStoreMaxCapacity of them (Flink's jobstore.expiration-time
//     and jobstore.max-capacity); STOP JOB stops any of them.
//
// Closing the server cancels every job.

// The defaults of Config.JobStoreExpiration and Config.JobStoreMaxCapacity.
const (
	// DefaultJobStoreExpiration is Flink's jobstore.expiration-time
	// default (3600 s).
	DefaultJobStoreExpiration = time.Hour
	// DefaultJobStoreMaxCapacity bounds the jobs kept after their session
	// closed (Flink's jobstore.max-capacity is unbounded by default; a
	// Riffle job keeps its plan and metrics, so the gateway bounds them).
	DefaultJobStoreMaxCapacity = 1000
)

// jobRegistry holds the jobs of closed sessions, as a Flink cluster's job
// store keeps its jobs for SHOW JOBS: those still running, and those that
// ended until expiration after their end (jobstore.expiration-time), at
// most capacity of the ended ones (jobstore.max-capacity; the oldest
// ended go first). A running job is never dropped.
type jobRegistry struct {
	mu         sync.Mutex
	jobs       []*table.JobClient
	expiration time.Duration
	capacity   int
}

// adopt keeps j.
func (r *jobRegistry) adopt(j *table.JobClient, now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range r.jobs {
		if k == j {
			return
		}
	}
	r.jobs = append(r.jobs, j)
	r.prune(now)
}

// prune forgets the ended jobs past expiration, then the oldest ended
// ones over capacity (under mu).
func (r *jobRegistry) prune(now time.Time) {
	expiration, capacity := r.expiration, r.capacity
	if expiration <= 0 {
		expiration = DefaultJobStoreExpiration
	}
	if capacity <= 0 {
		capacity = DefaultJobStoreMaxCapacity
	}
	ended := 0
	kept := r.jobs[:0]
	for _, k := range r.jobs {
		if k.Status().IsTerminal() {
			if end := k.EndTime(); !end.IsZero() && now.Sub(end) > expiration {
				continue
			}
			ended++
		}
		kept = append(kept, k)
	}
	clear(r.jobs[len(kept):])
	r.jobs = kept
	if ended <= capacity {
		return
	}
	// drop the ended jobs that ended first
	var endedJobs []*table.JobClient
	for _, k := range r.jobs {
		if k.Status().IsTerminal() {
			endedJobs = append(endedJobs, k)
		}
	}
	sort.SliceStable(endedJobs, func(a, b int) bool { return endedJobs[a].EndTime().Before(endedJobs[b].EndTime()) })
	drop := map[*table.JobClient]bool{}
	for _, k := range endedJobs[:ended-capacity] {
		drop[k] = true
	}
	kept = r.jobs[:0]
	for _, k := range r.jobs {
		if !drop[k] {
			kept = append(kept, k)
		}
	}
	clear(r.jobs[len(kept):])
	r.jobs = kept
}

// list returns the kept jobs, after forgetting those past expiration.
func (r *jobRegistry) list(now time.Time) []*table.JobClient {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.prune(now)
	return append([]*table.JobClient(nil), r.jobs...)
}

// cancelAll cancels the kept jobs and waits for them until deadline.
func (r *jobRegistry) cancelAll(deadline <-chan struct{}) {
	r.mu.Lock()
	jobs := append([]*table.JobClient(nil), r.jobs...)
	r.mu.Unlock()
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
	add(s.detached.list(s.now()))
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
