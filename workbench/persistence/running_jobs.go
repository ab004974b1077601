package persistence

import (
	"context"
	"fmt"
	"time"
)

// RunningJob is an embedded streaming job that takes checkpoints, kept
// while it runs so that a workbench started after a crash (the process
// killed, a power loss) can offer to resume it from its last checkpoint.
// The workbench removes it when the job ends and when it closes normally.
type RunningJob struct {
	JobID string
	// TabID is the editor tab the statement ran from (Tab.ID).
	TabID int64
	// Statement is the statement's text, without a trailing ';'.
	Statement string
	// CheckpointDir and CheckpointInterval are the session's
	// execution.checkpointing.dir ("" = the engine's default directory)
	// and execution.checkpointing.interval (such as "10 s") when it ran.
	CheckpointDir, CheckpointInterval string
	// JobCheckpointDir is the job's checkpoint directory,
	// <checkpoint dir>/<job id>: what execution.state-recovery.path is
	// set to when resuming.
	JobCheckpointDir string
	Started          time.Time
}

// SaveRunningJob inserts or replaces a running job by its id.
func (s *Store) SaveRunningJob(ctx context.Context, j RunningJob) error {
	if j.JobID == "" {
		return fmt.Errorf("persistence: a running job needs an id")
	}
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO running_jobs(job_id, tab_id, statement, checkpoint_dir, checkpoint_interval, job_checkpoint_dir, started_at)
		 VALUES (?, ?, ?, ?, ?, ?, ?)
		 ON CONFLICT(job_id) DO UPDATE SET tab_id = excluded.tab_id, statement = excluded.statement,
		   checkpoint_dir = excluded.checkpoint_dir, checkpoint_interval = excluded.checkpoint_interval,
		   job_checkpoint_dir = excluded.job_checkpoint_dir, started_at = excluded.started_at`,
		j.JobID, j.TabID, j.Statement, j.CheckpointDir, j.CheckpointInterval, j.JobCheckpointDir,
		j.Started.UTC().Format(time.RFC3339Nano))
	if err != nil {
		return fmt.Errorf("persistence: %w", err)
	}
	return nil
}

// ForgetRunningJob removes a running job (none with that id is no error).
func (s *Store) ForgetRunningJob(ctx context.Context, jobID string) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM running_jobs WHERE job_id = ?`, jobID); err != nil {
		return fmt.Errorf("persistence: %w", err)
	}
	return nil
}

// ForgetRunningJobs removes every running job.
func (s *Store) ForgetRunningJobs(ctx context.Context) error {
	if _, err := s.db.ExecContext(ctx, `DELETE FROM running_jobs`); err != nil {
		return fmt.Errorf("persistence: %w", err)
	}
	return nil
}

// RunningJobs lists the running jobs, oldest first. A row whose start time
// does not parse is kept with a zero Started.
func (s *Store) RunningJobs(ctx context.Context) ([]RunningJob, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT job_id, tab_id, statement, checkpoint_dir, checkpoint_interval, job_checkpoint_dir, started_at
		 FROM running_jobs ORDER BY started_at, job_id`)
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	defer rows.Close()
	var out []RunningJob
	for rows.Next() {
		var j RunningJob
		var started string
		if err := rows.Scan(&j.JobID, &j.TabID, &j.Statement, &j.CheckpointDir, &j.CheckpointInterval, &j.JobCheckpointDir, &started); err != nil {
			return nil, fmt.Errorf("persistence: %w", err)
		}
		j.Started, _ = time.Parse(time.RFC3339Nano, started)
		out = append(out, j)
	}
	return out, rows.Err()
}
