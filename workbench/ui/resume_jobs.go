package ui

import (
	"context"
	"path/filepath"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/resumejobs"
)

// Resuming after a crash (issue 16): the workspace keeps the embedded
// streaming jobs that take checkpoints while they run (rememberJob); a job
// is forgotten when it ends in any way and when the workbench closes
// normally. A workspace that opens with jobs still listed belonged to a
// process that died, and offerResume proposes to run them again from
// their last checkpoints (resumejobs).

// rememberJob keeps a job started from an editor tab (Run, Run all) on
// the embedded engine in the workspace while it runs, when it is a
// streaming job over an unbounded source that takes checkpoints. It runs
// on the worker goroutine, which owns the session's configuration.
func (wb *Workbench) rememberJob(req runReq, text string, res table.StatementResult, started time.Time) {
	if req.source != srcEditor || !req.conn.embedded() || wb.store == nil || wb.store.ReadOnly() {
		return
	}
	tr := tableResult(res)
	if tr == nil {
		return
	}
	job := tr.JobClient()
	if job == nil || job.Bounded() {
		return
	}
	conf := wb.env.Config()
	get := func(keys ...string) string {
		for _, k := range keys {
			if v := strings.TrimSpace(conf.Get(k, "")); v != "" {
				return v
			}
		}
		return ""
	}
	interval := get(config.CheckpointingInterval.Key)
	if d, err := config.ParseDuration(interval); interval == "" || err != nil || d <= 0 {
		return
	}
	dir := get(config.CheckpointingDir.Key, config.CheckpointsDirLegacy.Key)
	j := persistence.RunningJob{JobID: job.JobID(), TabID: req.tabID, Statement: strings.TrimSpace(text),
		CheckpointDir: dir, CheckpointInterval: interval, JobCheckpointDir: filepath.Join(checkpointRoot(dir), job.JobID()),
		Started: started}
	if err := wb.store.SaveRunningJob(context.Background(), j); err != nil {
		wb.post(levelWarning, "Could not keep the job in the workspace (it will not be offered for resuming after a crash): "+err.Error(), nil)
		return
	}
	go func() {
		select {
		case <-job.Done():
		case <-wb.quit:
			return // Close forgets every job
		}
		_ = wb.store.ForgetRunningJob(context.Background(), j.JobID)
	}()
}

// checkpointRoot is the directory a session's checkpoints go to
// (table.CheckpointDir of its execution.checkpointing.dir).
func checkpointRoot(dir string) string {
	root, err := table.CheckpointDir(dir)
	if err != nil {
		return dir // the job was refused at submission; nothing to find
	}
	return root
}

// forgetRunningJobs empties the workspace's list of running jobs: Close
// cancels them.
func (wb *Workbench) forgetRunningJobs() {
	if wb.store != nil && !wb.store.ReadOnly() {
		_ = wb.store.ForgetRunningJobs(context.Background())
	}
}

// offerResume shows the offer to resume the jobs the workspace still
// lists (the last process died), on the UI goroutine while the workbench
// opens. A read-only window offers nothing: the jobs are another
// window's.
func (wb *Workbench) offerResume() {
	if wb.store == nil || wb.store.ReadOnly() {
		return
	}
	rows, err := wb.store.RunningJobs(context.Background())
	if err != nil {
		wb.messages.add(levelWarning, "Could not read the jobs that were running: "+err.Error(), nil)
		return
	}
	if len(rows) == 0 {
		return
	}
	list := make([]resumejobs.Job, len(rows))
	for i, r := range rows {
		j := resumejobs.Job{Statement: r.Statement, Dir: r.JobCheckpointDir}
		if t := wb.editors.byID(r.TabID); t != nil {
			j.Tab = t.title
		}
		if cp, err := table.ReadCheckpoint(r.JobCheckpointDir); err == nil {
			j.Checkpoint, j.HasCheckpoint = cp, true
		} else {
			j.Problem = err.Error()
		}
		list[i] = j
	}
	wb.resumeOffer = resumejobs.Show(wb.win, &resumeHost{wb: wb, rows: rows, jobs: list}, list, time.Now())
}

// resumeHost is the resume offer's resumejobs.Host.
type resumeHost struct {
	wb   *Workbench
	rows []persistence.RunningJob
	jobs []resumejobs.Job
}

// Resume runs the chosen jobs again in their editor tabs (a closed tab is
// opened again with the statement), each from its checkpoint, and forgets
// the others.
func (h *resumeHost) Resume(indices []int) {
	wb := h.wb
	chosen := map[int]bool{}
	for _, i := range indices {
		chosen[i] = true
	}
	for i, r := range h.rows {
		if !chosen[i] {
			_ = wb.store.ForgetRunningJob(context.Background(), r.JobID)
			continue
		}
		from := ""
		if h.jobs[i].HasCheckpoint {
			from = r.JobCheckpointDir
		}
		t := wb.editors.byID(r.TabID)
		doc, base := r.Statement, 0
		if t != nil {
			if k := strings.Index(t.ed.Text(), r.Statement); k >= 0 {
				doc, base = t.ed.Text(), k
			} else {
				t = nil
			}
		}
		if t == nil {
			if t = wb.editors.newTab("", r.Statement); t == nil {
				continue
			}
		} else {
			wb.editors.tabs.Select(t.item)
		}
		wb.submit(runReq{source: srcEditor, tab: t, doc: doc, base: base, text: r.Statement,
			resume: &resumeFrom{job: r, path: from}})
	}
}

// Discard forgets the jobs; their checkpoint files stay.
func (h *resumeHost) Discard() {
	for _, r := range h.rows {
		_ = h.wb.store.ForgetRunningJob(context.Background(), r.JobID)
	}
	h.wb.post(levelInfo, "The jobs that were running are forgotten; their checkpoints stay in "+
		filepath.Dir(h.rows[0].JobCheckpointDir)+".", nil)
}

// resumeFrom is a job resumed after a crash: the run sets the session's
// checkpoint options it ran with and, for this statement only,
// execution.state-recovery.path (path; "" starts from the beginning).
type resumeFrom struct {
	job  persistence.RunningJob
	path string
}

// applyResume sets the session's options for a resumed statement (on the
// worker goroutine) and returns what undoes execution.state-recovery.path
// once the statement has started; the old job is then forgotten (the new
// one is remembered in its place).
func (wb *Workbench) applyResume(r *resumeFrom) (done func()) {
	conf := wb.env.Config()
	if r.job.CheckpointInterval != "" {
		conf.Set(config.CheckpointingInterval.Key, r.job.CheckpointInterval)
	}
	if r.job.CheckpointDir != "" {
		conf.Set(config.CheckpointingDir.Key, r.job.CheckpointDir)
	}
	if r.path != "" {
		conf.Set(config.StateRecoveryPath.Key, r.path)
	}
	return func() {
		if r.path != "" {
			conf.Configuration().Remove(config.StateRecoveryPath.Key)
		}
		_ = wb.store.ForgetRunningJob(context.Background(), r.job.JobID)
	}
}

// ResumeOffer returns the open resume offer, nil when none was shown (for
// tests).
func (wb *Workbench) ResumeOffer() *resumejobs.Dialog { return wb.resumeOffer }
