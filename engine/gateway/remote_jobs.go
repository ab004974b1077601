package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/table"
)

// Jobs implements table.Engine: the jobs this engine started (queries,
// INSERTs, statement sets), with their current state. A Flink gateway's
// SHOW JOBS lists every job of the cluster, other clients' too; they are
// left out here, as the embedded engine and Riffle's gateway list only the
// session's jobs. With RemoteOptions.ClusterREST the states come from the
// cluster's /jobs/overview, otherwise from SHOW JOBS.
func (e *RemoteEngine) Jobs(ctx context.Context) ([]table.JobInfo, error) {
	all, err := e.allJobs(ctx)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []table.JobInfo
	for _, j := range all {
		if _, ok := e.statements[j.info.ID]; ok {
			out = append(out, j.info)
		}
	}
	return out, nil
}

// remoteJobInfo is a job as the gateway or the cluster reports it.
type remoteJobInfo struct {
	info table.JobInfo
	end  time.Time // zero when unknown or still running
}

// allJobs lists every job the gateway (SHOW JOBS) or the cluster
// (/jobs/overview) knows.
func (e *RemoteEngine) allJobs(ctx context.Context) ([]remoteJobInfo, error) {
	if e.opts.ClusterREST != "" {
		var body struct {
			Jobs []clusterJobJSON `json:"jobs"`
		}
		if _, err := e.clusterGet(ctx, "/jobs/overview", &body); err != nil {
			return nil, err
		}
		out := make([]remoteJobInfo, len(body.Jobs))
		for i, j := range body.Jobs {
			out[i] = j.info()
		}
		return out, nil
	}
	infos, err := table.JobsSQL(ctx, e)
	if err != nil {
		return nil, err
	}
	out := make([]remoteJobInfo, len(infos))
	for i, j := range infos {
		out[i] = remoteJobInfo{info: j}
	}
	return out, nil
}

// jobState returns a job's state ("" with found false for a job the
// gateway or cluster does not know).
func (e *RemoteEngine) jobState(ctx context.Context, jobID string) (state string, found bool, err error) {
	if e.opts.ClusterREST != "" {
		var j clusterJobJSON
		status, err := e.clusterGet(ctx, "/jobs/"+url.PathEscape(jobID), &j)
		if status == http.StatusNotFound {
			return "", false, nil
		}
		if err != nil {
			return "", false, err
		}
		return j.State, true, nil
	}
	all, err := e.allJobs(ctx)
	if err != nil {
		return "", false, err
	}
	for _, j := range all {
		if j.info.ID == jobID {
			return j.info.Status, true, nil
		}
	}
	return "", false, nil
}

// jobCanceledError is WaitJob's error for a CANCELED job: its text is
// "job <id> CANCELED" and errors.Is matches table.ErrCanceled.
type jobCanceledError string

func (id jobCanceledError) Error() string     { return "job " + string(id) + " CANCELED" }
func (jobCanceledError) Is(target error) bool { return target == table.ErrCanceled }

// WaitJob implements table.Engine by polling the job's state with
// back-off (50 ms doubling up to 2 s): nil when it FINISHED, an error
// naming the job when it was CANCELED ("job <id> CANCELED", matching
// table.ErrCanceled with errors.Is, as the embedded engine's does) or
// FAILED, or when the gateway or cluster does not know it
// (table.ErrJobNotFound).
func (e *RemoteEngine) WaitJob(ctx context.Context, jobID string) error {
	wait := 50 * time.Millisecond
	for {
		state, found, err := e.jobState(ctx, jobID)
		if err != nil {
			return err
		}
		if !found {
			return fmt.Errorf("job %s: %w", jobID, table.ErrJobNotFound)
		}
		switch state {
		case "FINISHED":
			return nil
		case "FAILED":
			if why := e.jobFailure(ctx, jobID); why != "" {
				return fmt.Errorf("job %s FAILED: %s", jobID, why)
			}
			return fmt.Errorf("job %s %s", jobID, state)
		case "CANCELED":
			return jobCanceledError(jobID)
		case "SUSPENDED":
			return fmt.Errorf("job %s %s", jobID, state)
		}
		if err := sleepCtx(ctx, wait); err != nil {
			return err
		}
		wait = min(wait*2, 2*time.Second)
	}
}

// jobFailure is why a failed job failed, as the cluster's REST API
// (/jobs/:jobid/exceptions) tells: the root cause of the latest exception,
// "NoResourceAvailableException: Could not acquire the minimum required
// resources."; "" without RemoteOptions.ClusterREST or when unknown.
func (e *RemoteEngine) jobFailure(ctx context.Context, jobID string) string {
	if e.opts.ClusterREST == "" {
		return ""
	}
	var body struct {
		History struct {
			Entries []struct {
				Name       string `json:"exceptionName"`
				StackTrace string `json:"stacktrace"`
			} `json:"entries"`
		} `json:"exceptionHistory"`
		RootException string `json:"root-exception"`
	}
	if _, err := e.clusterGet(ctx, "/jobs/"+url.PathEscape(jobID)+"/exceptions", &body); err != nil {
		return ""
	}
	trace := body.RootException
	if len(body.History.Entries) > 0 {
		trace = body.History.Entries[0].StackTrace
	}
	return javaRootCause(trace)
}

// javaRootCause is the last "Caused by:" of a Java stack trace (or its
// first line), with the exception's simple class name: "java.lang.
// ArithmeticException: / by zero" becomes "ArithmeticException: / by zero".
func javaRootCause(trace string) string {
	line := trace
	if i := strings.LastIndex(trace, "\nCaused by: "); i >= 0 {
		line = trace[i+len("\nCaused by: "):]
	}
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimSpace(line)
	if i := strings.Index(line, ": "); i > 0 && !strings.Contains(line[:i], " ") {
		if j := strings.LastIndexByte(line[:i], '.'); j >= 0 {
			line = line[j+1:]
		}
	} else if j := strings.LastIndexByte(line, '.'); j >= 0 && !strings.Contains(line, " ") {
		line = line[j+1:]
	}
	return line
}

// CancelJob implements table.Engine with STOP JOB; when that fails and
// RemoteOptions.ClusterREST is set, the cluster is asked to cancel the job
// (PATCH /jobs/:jobid?mode=cancel) and the STOP JOB error is returned only
// if that fails too.
func (e *RemoteEngine) CancelJob(ctx context.Context, jobID string) error {
	res, err := e.execute(ctx, "STOP JOB '"+strings.ReplaceAll(jobID, "'", "''")+"'")
	if err == nil {
		res.release()
		return nil
	}
	if e.opts.ClusterREST == "" || ctx.Err() != nil {
		return err
	}
	if _, _, rerr := e.clusterRequest(ctx, http.MethodPatch, "/jobs/"+url.PathEscape(jobID)+"?mode=cancel"); rerr != nil {
		return err
	}
	return nil
}

// clusterJobJSON is a job as the cluster's REST API describes it
// (/jobs/overview entries and /jobs/:jobid); times are epoch milliseconds,
// -1 while unknown.
type clusterJobJSON struct {
	ID    string `json:"jid"`
	Name  string `json:"name"`
	State string `json:"state"`
	Start int64  `json:"start-time"`
	End   int64  `json:"end-time"`
}

func (j clusterJobJSON) info() remoteJobInfo {
	r := remoteJobInfo{info: table.JobInfo{ID: j.ID, Name: j.Name, Status: j.State}}
	if j.Start > 0 {
		r.info.StartTime = time.UnixMilli(j.Start)
	}
	if j.End > 0 {
		r.end = time.UnixMilli(j.End)
	}
	return r
}

// clusterGet GETs a path of the cluster's REST API and decodes the JSON
// answer into out; it returns the HTTP status too.
func (e *RemoteEngine) clusterGet(ctx context.Context, path string, out any) (int, error) {
	raw, status, err := e.clusterRequest(ctx, http.MethodGet, path)
	if err != nil {
		return status, err
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return status, fmt.Errorf("cluster REST API %s: bad answer: %w", path, err)
	}
	return status, nil
}

func (e *RemoteEngine) clusterRequest(ctx context.Context, method, path string) ([]byte, int, error) {
	base := strings.TrimRight(e.opts.ClusterREST, "/")
	if !strings.Contains(base, "://") {
		base = "http://" + base
	}
	req, err := http.NewRequestWithContext(ctx, method, base+path, nil)
	if err != nil {
		return nil, 0, fmt.Errorf("cluster REST API: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := e.client.http.Do(req)
	if err != nil {
		return nil, 0, fmt.Errorf("cannot reach the cluster REST API at %s: %w", base, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return nil, resp.StatusCode, fmt.Errorf("cluster REST API %s %s: %w", method, path, err)
	}
	if resp.StatusCode/100 != 2 {
		var er ErrorResponse
		msg := strings.TrimSpace(string(raw))
		if json.Unmarshal(raw, &er) == nil && len(er.Errors) > 0 {
			msg = RootCause(er.Errors[len(er.Errors)-1])
		}
		return nil, resp.StatusCode, fmt.Errorf("cluster REST API %s %s: %s: %s", method, path, resp.Status, msg)
	}
	return raw, resp.StatusCode, nil
}

// RemoteJobs lists the jobs this engine started as RemoteJob values,
// which a job list (the workbench's monitor.Jobs) shows like embedded
// jobs, without what a remote engine cannot give.
func (e *RemoteEngine) RemoteJobs(ctx context.Context) ([]*RemoteJob, error) {
	all, err := e.allJobs(ctx)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []*RemoteJob
	for _, j := range all {
		stmt, ok := e.statements[j.info.ID]
		if !ok {
			continue
		}
		out = append(out, &RemoteJob{eng: e, info: j.info, end: j.end, statement: stmt})
	}
	return out, nil
}

// RemoteJob is a job of a gateway session as SHOW JOBS listed it: a
// snapshot (list again to refresh). It has the methods of
// *table.JobClient that a job list needs. What a remote engine does not
// report is left empty rather than made up: Plan and NodeMetrics are nil
// (no per-operator metrics), EndTime is zero unless the cluster's REST API
// is known (RemoteOptions.ClusterREST), Err is nil. Only jobs this
// RemoteEngine started are listed.
type RemoteJob struct {
	eng       *RemoteEngine
	info      table.JobInfo
	end       time.Time
	statement string
}

// JobID returns the job's id.
func (j *RemoteJob) JobID() string { return j.info.ID }

// JobName returns the job's name.
func (j *RemoteJob) JobName() string { return j.info.Name }

// Statement is the SQL that started the job, or "" when unknown.
func (j *RemoteJob) Statement() string { return j.statement }

// StartTime is when the job started.
func (j *RemoteJob) StartTime() time.Time { return j.info.StartTime }

// EndTime is when the job ended, as the cluster's REST API reports it
// (RemoteOptions.ClusterREST); zero while it runs, or when only SHOW JOBS
// was asked, which does not report it.
func (j *RemoteJob) EndTime() time.Time { return j.end }

// StatusName is the state as the gateway names it (Flink's JobStatus,
// e.g. "INITIALIZING", which Status maps to CREATED).
func (j *RemoteJob) StatusName() string { return j.info.Status }

// Status maps the gateway's state onto Riffle's: INITIALIZING is
// CREATED; RESTARTING, FAILING, CANCELLING and RECONCILING are RUNNING;
// SUSPENDED is FAILED.
func (j *RemoteJob) Status() table.JobStatus {
	switch j.info.Status {
	case "CREATED", "INITIALIZING":
		return table.JobCreated
	case "FINISHED":
		return table.JobFinished
	case "CANCELED":
		return table.JobCanceled
	case "FAILED", "SUSPENDED":
		return table.JobFailed
	}
	return table.JobRunning
}

// Err is nil: SHOW JOBS does not report why a job failed.
func (j *RemoteJob) Err() error { return nil }

// Plan is nil: a remote engine does not send its plan with its jobs (the
// workbench asks for EXPLAIN of the job's statement and reads the text
// with table.ParseExplainPlan).
func (j *RemoteJob) Plan() *table.PlanNode { return nil }

// NodeMetrics reports none: a remote engine gives no per-operator metrics.
func (j *RemoteJob) NodeMetrics(*table.PlanNode) (table.OperatorMetrics, bool) {
	return table.OperatorMetrics{}, false
}

// Cancel stops the job (STOP JOB).
func (j *RemoteJob) Cancel() error {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return j.eng.CancelJob(ctx, j.info.ID)
}

var _ table.Engine = (*RemoteEngine)(nil)
var _ table.StatementResult = (*RemoteResult)(nil)
