package monitor

import (
	"errors"
	"slices"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/table"
)

// Job is what the job list needs of a job: *table.JobClient implements it.
type Job interface {
	JobID() string
	JobName() string
	Statement() string
	StartTime() time.Time
	EndTime() time.Time
	Status() table.JobStatus
	Err() error
	Plan() *table.PlanNode
	NodeMetrics(*table.PlanNode) (table.OperatorMetrics, bool)
	Cancel() error
}

// JobRow is one line of the Jobs panel.
type JobRow struct {
	ID, Name string
	// Statement is the job's SQL on one line; Kind is "query" for a
	// SELECT (its rows go to a result tab) and "insert" for INSERT INTO
	// and statement sets (running in the background).
	Statement, Kind string
	Start           time.Time
	// Duration is how long the job ran (so far).
	Duration time.Duration
	Status   table.JobStatus
	// RowsOut counts rows that reached the sink(s); Rate is rows per
	// second into them over the last seconds.
	RowsOut int64
	Rate    float64
	HasRate bool
	// Watermark is the watermark reaching the sink (epoch ms; see
	// HasWatermark); Lag how far it is behind processing time.
	Watermark    int64
	HasWatermark bool
	Lag          time.Duration
	Err          error
}

// StatusChange reports a job that changed status between two Updates.
type StatusChange struct {
	ID, Name, Statement string
	From, To            table.JobStatus
	Err                 error
}

type jobEntry struct {
	job     Job
	sinks   []*table.PlanNode
	sampler *Sampler
	lag     *LagHistory
	status  table.JobStatus
	row     JobRow
}

// Jobs is the model of the Jobs panel: every job of the session with its
// status, output and watermark, refreshed by Update about once a second.
// It is not safe for concurrent use (the UI's ticker goroutine owns it).
type Jobs struct {
	// LagSpan is the span of each job's watermark history (0 = 5 min).
	LagSpan time.Duration

	entries []*jobEntry
	byID    map[string]*jobEntry
}

// NewJobs returns an empty job list.
func NewJobs() *Jobs { return &Jobs{byID: map[string]*jobEntry{}} }

// Update samples the given jobs (all jobs of the session, as
// TableEnvironment.Jobs returns them) at now and reports the jobs whose
// status changed since the last Update (a new job counts as a change
// from CREATED). Jobs no longer listed are dropped. A job may be listed by
// a new value each time (a snapshot, such as a gateway's SHOW JOBS row):
// the newest is the one read and cancelled.
func (j *Jobs) Update(now time.Time, jobs []Job) []StatusChange {
	var changes []StatusChange
	seen := make(map[string]bool, len(jobs))
	for _, jb := range jobs {
		id := jb.JobID()
		seen[id] = true
		e := j.byID[id]
		if e == nil {
			e = &jobEntry{job: jb, sampler: NewSampler(1), lag: NewLagHistory(j.LagSpan), status: table.JobCreated}
			if root := jb.Plan(); root != nil {
				e.sinks = []*table.PlanNode{root}
			}
			j.byID[id] = e
			j.entries = append(j.entries, e)
		}
		e.job = jb // a snapshot (a gateway's SHOW JOBS row) is replaced by the newer one
		j.sample(e, now)
		if e.row.Status != e.status {
			changes = append(changes, StatusChange{ID: id, Name: e.row.Name, Statement: e.row.Statement,
				From: e.status, To: e.row.Status, Err: e.row.Err})
			e.status = e.row.Status
		}
	}
	if len(seen) != len(j.entries) {
		j.entries = slices.DeleteFunc(j.entries, func(e *jobEntry) bool {
			id := e.job.JobID()
			if !seen[id] {
				delete(j.byID, id)
				return true
			}
			return false
		})
	}
	return changes
}

// sample refreshes one job's row.
func (j *Jobs) sample(e *jobEntry, now time.Time) {
	jb := e.job
	status := jb.Status()
	r := JobRow{ID: jb.JobID(), Name: jb.JobName(), Statement: OneLine(jb.Statement(), 200),
		Kind: statementKind(jb.Statement()), Start: jb.StartTime(), Status: status, Watermark: NoWatermark}
	if status.IsTerminal() {
		r.Err = jb.Err()
		if end := jb.EndTime(); !end.IsZero() {
			r.Duration = end.Sub(r.Start)
		}
	} else if !r.Start.IsZero() {
		r.Duration = now.Sub(r.Start)
	}
	// rows into the sinks; the watermark is the least over the sinks'
	// inputs (what reached the sink)
	var reading Reading
	wm, inputs := EndWatermark, 0
	for _, s := range e.sinks {
		if m, ok := jb.NodeMetrics(s); ok {
			reading.Present = true
			reading.RecordsIn += m.RecordsIn
		}
		for _, in := range s.Inputs {
			if m, ok := jb.NodeMetrics(in); ok {
				wm = min(wm, watermarkOf(m))
				inputs++
			}
		}
	}
	haveWM := inputs > 0 && wm != NoWatermark
	e.sampler.Add(now, []Reading{reading})
	st := e.sampler.Stats(0)
	r.RowsOut, r.Rate, r.HasRate = reading.RecordsIn, st.InRate, st.HasRate && !status.IsTerminal()
	if haveWM {
		r.Watermark, r.HasWatermark = wm, true
		if wm != EndWatermark {
			r.Lag = now.Sub(time.UnixMilli(wm))
			if !status.IsTerminal() {
				e.lag.Add(now, wm)
			}
		}
	}
	e.row = r
}

// Rows returns the jobs for display: running ones first, each group
// newest first.
func (j *Jobs) Rows() []JobRow {
	rows := make([]JobRow, len(j.entries))
	for i, e := range j.entries {
		rows[i] = e.row
	}
	slices.SortStableFunc(rows, func(a, b JobRow) int {
		ar, br := !a.Status.IsTerminal(), !b.Status.IsTerminal()
		if ar != br {
			if ar {
				return -1
			}
			return 1
		}
		return b.Start.Compare(a.Start)
	})
	return rows
}

// Running counts the jobs not yet ended.
func (j *Jobs) Running() int {
	n := 0
	for _, e := range j.entries {
		if !e.row.Status.IsTerminal() {
			n++
		}
	}
	return n
}

// Job returns a listed job by id.
func (j *Jobs) Job(id string) (Job, bool) {
	e, ok := j.byID[id]
	if !ok {
		return nil, false
	}
	return e.job, true
}

// Lag returns a job's watermark history.
func (j *Jobs) Lag(id string) (*LagHistory, bool) {
	e, ok := j.byID[id]
	if !ok {
		return nil, false
	}
	return e.lag, true
}

// Cancel cancels a running job of the list.
func (j *Jobs) Cancel(id string) error {
	e, ok := j.byID[id]
	if !ok {
		return errors.New("no job " + id)
	}
	if e.job.Status().IsTerminal() {
		return nil
	}
	return e.job.Cancel()
}

// statementKind tells queries from INSERT jobs.
func statementKind(stmt string) string {
	s := strings.ToUpper(strings.TrimSpace(stripComments(stmt)))
	for _, p := range []string{"INSERT", "EXECUTE STATEMENT SET", "EXECUTE INSERT", "BEGIN STATEMENT SET", "STATEMENT SET"} {
		if strings.HasPrefix(s, p) {
			return "insert"
		}
	}
	return "query"
}

// stripComments removes leading -- and /* */ comments.
func stripComments(s string) string {
	for {
		s = strings.TrimSpace(s)
		switch {
		case strings.HasPrefix(s, "--"):
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				return ""
			}
			s = s[i+1:]
		case strings.HasPrefix(s, "/*"):
			i := strings.Index(s, "*/")
			if i < 0 {
				return ""
			}
			s = s[i+2:]
		default:
			return s
		}
	}
}

// OneLine collapses whitespace (newlines included) to single spaces and
// shortens the text to n runes with a trailing "…".
func OneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:max(n-1, 0)]) + "…"
	}
	return s
}

// Failure splits a job's error for the Messages panel: the first line as
// the summary and the rest (the stack of a panic) as details.
func Failure(err error) (summary, details string) {
	if err == nil {
		return "", ""
	}
	msg := err.Error()
	summary, details, _ = strings.Cut(msg, "\n")
	// a panic's stack is kept apart from its message (expr.PanicError):
	// the details show it, as an IDE's error log shows a stack trace
	var p interface{ PanicStack() string }
	if errors.As(err, &p) && p.PanicStack() != "" {
		details = strings.TrimLeft(details+"\n"+p.PanicStack(), "\n")
	}
	return summary, strings.TrimRight(details, "\n")
}

var _ Job = (*table.JobClient)(nil)

// SessionJobs lists the jobs of a TableEnvironment as Jobs.
func SessionJobs(env *table.TableEnvironment) []Job {
	clients := env.Jobs()
	out := make([]Job, len(clients))
	for i, c := range clients {
		out[i] = c
	}
	return out
}
