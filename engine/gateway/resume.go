package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
)

// Resuming jobs after a restart (Config.ResumeDir, riffle gateway
// --resume-jobs; issue 16). While a session's checkpointed streaming
// INSERT or statement set runs, the server keeps in ResumeDir one file,
// <job id>.json, holding what a session needs to run it again: the
// session's configuration (with the statement's execution config), the
// statements that made its catalog objects (CREATE, ALTER, DROP, USE …, in
// the order they ran), the INSERT text and the job's checkpoint folder.
// The file goes when the job ends (finished, cancelled or failed). When
// the gateway stops normally, each such job is stopped with a savepoint
// into ResumeDir/savepoints and its file keeps the savepoint's path.
//
// A server started with files in ResumeDir (the last one was killed, or
// stopped as above) runs each job again in a new session named
// "resumed <old job id>": its configuration, its statements, then the
// INSERT with execution.state-recovery.path set to the savepoint or the
// latest complete checkpoint of the old job (from the beginning when it
// had none). The new job is recorded in place of the old one.

// resumeRecordVersion is the version of the files' format.
const resumeRecordVersion = 1

// resumeRecord is one file of ResumeDir.
type resumeRecord struct {
	Version     int    `json:"version"`
	JobID       string `json:"jobId"`
	JobName     string `json:"jobName,omitempty"`
	SessionName string `json:"sessionName,omitempty"`
	// Properties is the session's configuration when the job started.
	Properties map[string]string `json:"properties"`
	// Setup are the statements that made the session's catalog objects.
	Setup []string `json:"setup,omitempty"`
	// Statement is the INSERT or EXECUTE STATEMENT SET text.
	Statement string `json:"statement"`
	// CheckpointDir is the job's checkpoint folder (<checkpoint dir>/<job id>).
	CheckpointDir string `json:"checkpointDir"`
	// Savepoint, when set, is the savepoint the gateway took when it
	// stopped; the job resumes from it.
	Savepoint string `json:"savepoint,omitempty"`
	// RestoredFrom is the savepoint or checkpoint the job itself started
	// from (execution.state-recovery.path or execution.savepoint.path
	// when it was submitted): it resumes from there when it has taken no
	// checkpoint of its own yet, not from the beginning.
	RestoredFrom string    `json:"restoredFrom,omitempty"`
	Started      time.Time `json:"started"`
}

// notForResume are the keys a recorded configuration leaves out: where the
// job resumed from (the new job resumes from its own checkpoints) and the
// synchronous INSERT (a resumed job is not waited for).
var notForResume = []string{config.StateRecoveryPath.Key, "execution.savepoint.path", "table.dml-sync"}

// jobKeeper keeps the files of ResumeDir.
type jobKeeper struct {
	dir string

	mu      sync.Mutex
	running map[string]*keptJob // by job id
	closing bool
}

// keptJob is a recorded job of this server.
type keptJob struct {
	rec *resumeRecord
	job *table.JobClient
	// stopped is set when the server stopped the job with a savepoint: its
	// file stays.
	stopped bool
}

func (k *jobKeeper) path(jobID string) string { return filepath.Join(k.dir, jobID+".json") }

// write stores rec atomically (a temporary file renamed).
func (k *jobKeeper) write(rec *resumeRecord) error {
	raw, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(k.dir, "."+rec.JobID+"-*.tmp")
	if err != nil {
		return err
	}
	_, err = tmp.Write(append(raw, '\n'))
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), k.path(rec.JobID))
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
		return fmt.Errorf("keeping job %s for resuming in %s: %w", rec.JobID, k.dir, err)
	}
	return nil
}

func (k *jobKeeper) forget(jobID string) { _ = os.Remove(k.path(jobID)) }

// records reads the files of ResumeDir, oldest job first; a file that does
// not parse is reported in bad.
func (k *jobKeeper) records() (recs []*resumeRecord, bad []error) {
	ents, err := os.ReadDir(k.dir)
	if err != nil {
		return nil, []error{err}
	}
	for _, e := range ents {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".json") || strings.HasPrefix(name, ".") {
			continue
		}
		p := filepath.Join(k.dir, name)
		raw, err := os.ReadFile(p)
		if err != nil {
			bad = append(bad, err)
			continue
		}
		var r resumeRecord
		if err := json.Unmarshal(raw, &r); err != nil {
			bad = append(bad, fmt.Errorf("%s is corrupt: %v", p, err))
			continue
		}
		if r.Version != resumeRecordVersion || r.JobID == "" || r.Statement == "" {
			bad = append(bad, fmt.Errorf("%s: not a job this gateway can resume (version %d)", p, r.Version))
			continue
		}
		recs = append(recs, &r)
	}
	sort.SliceStable(recs, func(a, b int) bool { return recs[a].Started.Before(recs[b].Started) })
	return recs, bad
}

// isSetupStatement reports whether st makes or changes a catalog object a
// resumed job's statement may need: what configure-session accepts but
// SET and RESET (the recorded configuration holds their effect) and
// CREATE TABLE … AS, which runs a job.
func isSetupStatement(st sql.Statement) bool {
	switch s := st.(type) {
	case *sql.Set, *sql.Reset:
		return false
	case *sql.CreateTable:
		return s.AsQuery == nil
	}
	return configureAllowed(st)
}

// noteSetup records a statement that ran without error in the session, for
// the jobs it may start later.
func (ss *session) noteSetup(st sql.Statement, text string) {
	if ss.srv.keeper == nil || !isSetupStatement(st) {
		return
	}
	ss.mu.Lock()
	ss.setup = append(ss.setup, strings.TrimRight(strings.TrimSpace(text), ";"))
	ss.mu.Unlock()
}

// rememberJob records job, just started by text in the session, when the
// server keeps jobs for resuming and the job is a streaming job that takes
// checkpoints. It runs on the session's execution goroutine, with the
// statement's execution config in force.
func (ss *session) rememberJob(text string, job *table.JobClient) {
	k := ss.srv.keeper
	if k == nil || job == nil {
		return
	}
	conf := ss.env.Config().Configuration()
	if conf.IsBatch() {
		return
	}
	interval := strings.TrimSpace(conf.GetString(config.CheckpointingInterval.Key, ""))
	if d, err := config.ParseDuration(interval); interval == "" || err != nil || d <= 0 {
		return
	}
	cpDir := strings.TrimSpace(conf.GetString(config.CheckpointingDir.Key, ""))
	if cpDir == "" {
		cpDir = strings.TrimSpace(conf.GetString(config.CheckpointsDirLegacy.Key, ""))
	}
	root, err := table.CheckpointDir(cpDir)
	if err != nil {
		return // the job was refused at submission
	}
	props := conf.ToMap()
	restoredFrom := strings.TrimSpace(props[config.StateRecoveryPath.Key])
	if restoredFrom == "" {
		restoredFrom = strings.TrimSpace(props["execution.savepoint.path"])
	}
	for _, key := range notForResume {
		delete(props, key)
	}
	// the job's checkpoints fit only its parallelism: a session that did
	// not set it ran at the number of cores, which a restart on another
	// machine may change
	if _, ok := props[config.Parallelism.Key]; !ok {
		props[config.Parallelism.Key] = strconv.Itoa(conf.Parallelism())
	}
	ss.mu.Lock()
	setup := append([]string(nil), ss.setup...)
	ss.mu.Unlock()
	rec := &resumeRecord{Version: resumeRecordVersion, JobID: job.JobID(), JobName: job.JobName(), SessionName: ss.name,
		Properties: props, Setup: setup, Statement: strings.TrimRight(strings.TrimSpace(text), ";"),
		CheckpointDir: filepath.Join(root, job.JobID()), RestoredFrom: restoredFrom, Started: job.StartTime().UTC()}
	kj := &keptJob{rec: rec, job: job}
	k.mu.Lock()
	if k.closing {
		k.mu.Unlock()
		return
	}
	k.running[rec.JobID] = kj
	k.mu.Unlock()
	if err := k.write(rec); err != nil {
		ss.srv.logf("job %s will not be resumed after a restart: %v", rec.JobID, err)
		k.mu.Lock()
		delete(k.running, rec.JobID)
		k.mu.Unlock()
		return
	}
	go func() {
		<-job.Done()
		k.mu.Lock()
		stopped := kj.stopped
		delete(k.running, rec.JobID)
		k.mu.Unlock()
		if !stopped {
			k.forget(rec.JobID)
		}
	}()
}

// stopForResume stops the recorded jobs still running with a savepoint
// into ResumeDir/savepoints (bounded by wait), so that the next server
// resumes them; a job that cannot be stopped so is forgotten (Close then
// cancels it).
func (k *jobKeeper) stopForResume(s *Server, wait time.Duration) {
	k.mu.Lock()
	k.closing = true
	var jobs []*keptJob
	for _, kj := range k.running {
		if !kj.job.Status().IsTerminal() {
			kj.stopped = true
			jobs = append(jobs, kj)
		}
	}
	k.mu.Unlock()
	if len(jobs) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	var wg sync.WaitGroup
	for _, kj := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path, err := kj.job.StopWithSavepointContext(ctx, filepath.Join(k.dir, "savepoints"))
			if err == nil {
				kj.rec.Savepoint = strings.TrimPrefix(path, "file:")
				err = k.write(kj.rec)
			}
			if err != nil {
				s.logf("job %s is not kept for resuming: stopping it with a savepoint failed: %v", kj.rec.JobID, err)
				k.forget(kj.rec.JobID)
				return
			}
			s.logf("job %s stopped with savepoint %s; it resumes when the gateway starts again with the same resume folder", kj.rec.JobID, kj.rec.Savepoint)
		}()
	}
	wg.Wait()
}

// hasCompleteCheckpoint reports whether a job's checkpoint folder holds a
// complete checkpoint (a chk-<n> folder with its _metadata).
func hasCompleteCheckpoint(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "chk-*", "_metadata"))
	for _, p := range m {
		if !strings.HasSuffix(filepath.Dir(p), ".inprogress") && !strings.HasSuffix(filepath.Dir(p), ".discarded") {
			return true
		}
	}
	return false
}

// resumeJobs runs the recorded jobs of an earlier server again; it logs
// what it resumed and why it did not resume a job. A job it cannot resume
// is forgotten (its checkpoints stay).
func (s *Server) resumeJobs() {
	k := s.keeper
	recs, bad := k.records()
	for _, err := range bad {
		s.logf("resume: %v", err)
	}
	for _, r := range recs {
		if err := s.resumeJob(r); err != nil {
			s.logf("job %s (%s) not resumed: %v; its checkpoints stay in %s", r.JobID, r.JobName, err, r.CheckpointDir)
		}
		k.forget(r.JobID) // the new job, if any, has its own file
	}
}

// resumeJob runs one recorded job again in a new session.
func (s *Server) resumeJob(r *resumeRecord) error {
	from := r.Savepoint
	if from == "" && hasCompleteCheckpoint(r.CheckpointDir) {
		from = r.CheckpointDir
	}
	if from == "" {
		from = r.RestoredFrom // no checkpoint of its own yet
	}
	what := "from the beginning (it had no complete checkpoint)"
	if from != "" {
		cp, err := table.ReadCheckpoint(from)
		if err != nil {
			return err
		}
		kind := "checkpoint"
		if cp.Savepoint {
			kind = "savepoint"
		}
		from = cp.Path
		what = fmt.Sprintf("from %s %d (%s)", kind, cp.ID, cp.Path)
	}
	ss, err := s.newSession("resumed "+r.JobID, r.Properties)
	if err != nil {
		return fmt.Errorf("its session's configuration: %w", err)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		ss.close(0)
		return errors.New("the gateway is shutting down")
	}
	s.sessions[ss.id] = ss
	s.mu.Unlock()
	ctx, cancel := context.WithTimeout(ss.ctx, time.Minute)
	defer cancel()
	for _, st := range r.Setup {
		// a persistent catalog may hold the object already: the INSERT
		// says whether what it needs is there
		if err := ss.run(ctx, st, 0); err != nil {
			s.logf("resuming job %s: %q failed: %v", r.JobID, st, err)
		}
	}
	exec := map[string]string{"table.dml-sync": "false"}
	if from != "" {
		exec[config.StateRecoveryPath.Key] = from
	}
	before := len(ss.env.Jobs())
	if err := ss.runWith(ctx, r.Statement, exec, 0); err != nil {
		return err
	}
	jobs := ss.env.Jobs()
	if len(jobs) <= before {
		return errors.New("its statement started no job")
	}
	s.logf("resumed job %s (%s) as job %s in session %s %s", r.JobID, r.JobName, jobs[len(jobs)-1].JobID(), ss.id, what)
	return nil
}
