package table

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	rt "github.com/riffle-sql/riffle/engine/internal/runtime"
)

// checkpointConfig reads the session's checkpoint options (Flink's keys,
// config/checkpoint_options.go) into the runtime's configuration, loading
// the checkpoint to resume from when execution.state-recovery.path (or
// execution.savepoint.path) is set. A checkpoint that cannot be loaded is
// an error: the job does not start afresh in its place.
func (t *TableEnvironment) checkpointConfig() (rt.CheckpointConfig, error) {
	conf := t.config.conf
	var c rt.CheckpointConfig
	get := func(key string, fallbacks ...string) string {
		if v, ok := conf.Get(key); ok && strings.TrimSpace(v) != "" {
			return strings.TrimSpace(v)
		}
		for _, k := range fallbacks {
			if v, ok := conf.Get(k); ok && strings.TrimSpace(v) != "" {
				return strings.TrimSpace(v)
			}
		}
		return ""
	}
	duration := func(key string) (time.Duration, error) {
		v := get(key)
		if v == "" {
			return 0, nil
		}
		d, err := config.ParseDuration(v)
		if err != nil {
			return 0, fmt.Errorf("Could not parse value '%s' for key '%s' (expected a duration such as '10 s' or '500 ms').", v, key)
		}
		return d, nil
	}
	integer := func(key string, def int, fallbacks ...string) (int, error) {
		v := get(key, fallbacks...)
		if v == "" {
			return def, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return 0, fmt.Errorf("Could not parse value '%s' for key '%s' (expected an integer).", v, key)
		}
		return n, nil
	}
	var err error
	c.Incremental = strings.EqualFold(get(config.CheckpointingIncremental.Key, config.StateBackendIncrementalLegacy.Key), "true")
	if c.Interval, err = duration(config.CheckpointingInterval.Key); err != nil {
		return c, err
	}
	if c.Timeout, err = duration(config.CheckpointingTimeout.Key); err != nil {
		return c, err
	}
	if c.MinPause, err = duration(config.CheckpointingMinPause.Key); err != nil {
		return c, err
	}
	if strings.EqualFold(get(config.CheckpointingMode.Key), "AT_LEAST_ONCE") {
		c.Mode = rt.AtLeastOnce
	}
	if c.TolerableFailures, err = integer(config.CheckpointingTolerableFailures.Key, 0); err != nil {
		return c, err
	}
	if c.Retained, err = integer(config.CheckpointingNumRetained.Key, 1, config.CheckpointsNumRetainedLegacy.Key); err != nil {
		return c, err
	}
	c.RetainOnCancellation = strings.EqualFold(get(config.CheckpointingRetention.Key), "RETAIN_ON_CANCELLATION")
	c.NoFinalCheckpoint = strings.EqualFold(get(config.CheckpointsAfterTasksFinish.Key, config.CheckpointsAfterTasksFinishLegacy.Key), "false")
	if dir := get(config.CheckpointingDir.Key, config.CheckpointsDirLegacy.Key); dir != "" {
		if c.Dir, err = localPath(config.CheckpointingDir.Key, dir); err != nil {
			return c, err
		}
	} else if c.Interval > 0 {
		c.Dir = defaultCheckpointDir()
	}
	c.IgnoreUnclaimedState = strings.EqualFold(get(config.StateRecoveryIgnoreUnclaimed.Key, config.SavepointIgnoreUnclaimedLegacy.Key), "true")
	if p := get(config.StateRecoveryPath.Key, config.SavepointPathLegacy.Key); p != "" && t.IsStreaming() {
		path, err := localPath(config.StateRecoveryPath.Key, p)
		if err != nil {
			return c, err
		}
		cp, err := rt.LoadCheckpoint(path)
		if err != nil {
			return c, fmt.Errorf("Could not restore the job from '%s' (execution.state-recovery.path): %w", p, err)
		}
		c.Restore = cp
	}
	return c, nil
}

// savepointDir is the directory STOP JOB ... WITH SAVEPOINT writes into.
func (t *TableEnvironment) savepointDir() (string, error) {
	v, ok := t.config.conf.Get(config.CheckpointingSavepointDir.Key)
	if !ok || strings.TrimSpace(v) == "" {
		v, ok = t.config.conf.Get(config.SavepointsDirLegacy.Key)
	}
	if !ok || strings.TrimSpace(v) == "" {
		return "", errors.New("no savepoint directory is configured: set 'execution.checkpointing.savepoint-dir' (or 'state.savepoints.dir')")
	}
	return localPath(config.CheckpointingSavepointDir.Key, strings.TrimSpace(v))
}

// localPath turns an option's path value (a path or a file: URI) into a
// local path; other schemes are refused.
func localPath(key, v string) (string, error) {
	if strings.HasPrefix(v, "file:") {
		u, err := url.Parse(v)
		if err != nil || (u.Host != "" && u.Host != "localhost") {
			return "", fmt.Errorf("Invalid value '%s' for key '%s': not a local file: URI.", v, key)
		}
		return filepath.FromSlash(u.Path), nil
	}
	if i := strings.Index(v, "://"); i > 0 && !strings.ContainsAny(v[:i], `/\`) {
		return "", fmt.Errorf("Invalid value '%s' for key '%s': Riffle writes checkpoints to local directories only (a path or a file: URI), not %s.", v, key, v[:i])
	}
	return v, nil
}

// StateDir is the directory where Riffle keeps state for the user:
// $XDG_STATE_HOME/riffle or ~/.local/state/riffle on Linux, riffle in the
// user config directory elsewhere (a temporary directory when neither is
// known). Checkpoints go to its checkpoints folder unless
// execution.checkpointing.dir says otherwise.
func StateDir() string {
	if runtime.GOOS == "linux" {
		if d := os.Getenv("XDG_STATE_HOME"); d != "" {
			return filepath.Join(d, "riffle")
		}
		if h, err := os.UserHomeDir(); err == nil {
			return filepath.Join(h, ".local", "state", "riffle")
		}
	}
	if d, err := os.UserConfigDir(); err == nil {
		return filepath.Join(d, "riffle")
	}
	return filepath.Join(os.TempDir(), "riffle-state")
}

// defaultCheckpointDir is where checkpoints go when no directory is set.
func defaultCheckpointDir() string { return filepath.Join(StateDir(), "checkpoints") }

// CheckpointDir is the directory a session's checkpoints go to, a job's
// in its <job id> folder: v, the value of execution.checkpointing.dir (a
// local path or a file: URI; other schemes are an error), or when v is
// empty StateDir's checkpoints folder.
func CheckpointDir(v string) (string, error) {
	if strings.TrimSpace(v) == "" {
		return defaultCheckpointDir(), nil
	}
	return localPath(config.CheckpointingDir.Key, strings.TrimSpace(v))
}

// savepointPathURI renders a savepoint's directory as Flink prints it.
func savepointPathURI(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	return "file:" + filepath.ToSlash(dir)
}

// stopWithSavepoint is STOP JOB 'id' WITH SAVEPOINT [WITH DRAIN]: a
// savepoint into the session's savepoint directory, then the job stops.
// Its result is Flink's: one row, the savepoint's path, in a column named
// "savepoint path". When the savepoint fails the job runs on.
func (t *TableEnvironment) stopWithSavepoint(ctx context.Context, j *JobClient, drain bool) (*TableResult, error) {
	if st := j.Status(); st.IsTerminal() {
		return nil, fmt.Errorf("Could not stop job %s: the job is not running (it is %s)", j.JobID(), st)
	}
	dir, err := t.savepointDir()
	if err != nil {
		return nil, fmt.Errorf("Could not stop job %s with a savepoint: %w", j.JobID(), err)
	}
	var opts []StopOption
	if drain {
		opts = append(opts, Drain())
	}
	path, err := j.StopWithSavepointContext(ctx, dir, opts...)
	if err != nil {
		return nil, fmt.Errorf("Could not stop job %s with a savepoint: %w", j.JobID(), err)
	}
	return listResult("savepoint path", []string{path}), nil
}

// StopJobWithSavepoint runs STOP JOB ... WITH SAVEPOINT [WITH DRAIN] for a
// job of another environment (riffle gateway stops any session's job)
// with this environment's savepoint directory.
func (t *TableEnvironment) StopJobWithSavepoint(ctx context.Context, j *JobClient, drain bool) (*TableResult, error) {
	return t.stopWithSavepoint(ctx, j, drain)
}

// CheckpointInfo describes a job's complete checkpoint or savepoint, as
// the Jobs panel and SHOW JOBS tooling show it.
type CheckpointInfo struct {
	// ID counts the job's checkpoints from 1.
	ID        int64
	Savepoint bool
	// Path is the checkpoint's directory (resume with
	// execution.state-recovery.path).
	Path string
	// Triggered and Completed are when it started and was written.
	Triggered, Completed time.Time
	// Size is the bytes of state the checkpoint holds.
	Size int64
	// IncrementalSize is the bytes of it not shared with the previous
	// checkpoint: less than Size for an incremental checkpoint of the
	// disk state backend (execution.checkpointing.incremental).
	IncrementalSize int64
}

// Duration is the time from trigger to completion.
func (c CheckpointInfo) Duration() time.Duration { return c.Completed.Sub(c.Triggered) }

// CheckpointCounts are a job's checkpoint totals.
type CheckpointCounts struct {
	Completed, Failed int64
	// InProgress is the id of the checkpoint being taken, 0 when none.
	InProgress int64
}

// LastCheckpoint returns the job's last complete checkpoint or savepoint;
// ok is false before the first, for a batch job and for a nil JobClient.
func (c *JobClient) LastCheckpoint() (info CheckpointInfo, ok bool) {
	if c == nil {
		return CheckpointInfo{}, false
	}
	s, ok := c.job.LastCheckpoint()
	if !ok {
		return CheckpointInfo{}, false
	}
	return CheckpointInfo{ID: s.ID, Savepoint: s.Savepoint, Path: s.Path, Triggered: s.Triggered, Completed: s.Completed, Size: s.Size, IncrementalSize: s.IncrementalSize}, true
}

// CheckpointCounts returns the job's checkpoint totals (zero for a batch
// job and a nil JobClient).
func (c *JobClient) CheckpointCounts() CheckpointCounts {
	if c == nil {
		return CheckpointCounts{}
	}
	n := c.job.CheckpointCounts()
	return CheckpointCounts{Completed: n.Completed, Failed: n.Failed, InProgress: n.InProgress}
}

// restartStrategy reads restart-strategy.type (or Flink 1.x's
// restart-strategy) and its options into the runtime's strategy; unset,
// a job with checkpoints restarts with exponential-delay and one without
// does not restart (nil), as in Flink.
func (t *TableEnvironment) restartStrategy(checkpointing bool) (rt.RestartStrategy, error) {
	conf := t.config.conf
	str := func(key string) string {
		v, _ := conf.Get(key)
		return strings.TrimSpace(v)
	}
	kind := strings.ToLower(str(config.RestartStrategyType.Key))
	if kind == "" {
		kind = strings.ToLower(str(config.RestartStrategyLegacy.Key))
	}
	dur := func(o config.Option) (time.Duration, error) {
		v := str(o.Key)
		if v == "" {
			v = o.Default
		}
		d, err := config.ParseDuration(v)
		if err != nil {
			return 0, fmt.Errorf("Could not parse value '%s' for key '%s' (expected a duration such as '10 s' or '500 ms').", v, o.Key)
		}
		return d, nil
	}
	num := func(o config.Option) (float64, error) {
		v := str(o.Key)
		if v == "" {
			v = o.Default
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return 0, fmt.Errorf("Could not parse value '%s' for key '%s' (expected a number).", v, o.Key)
		}
		return f, nil
	}
	var errs []error
	d := func(o config.Option) time.Duration {
		v, err := dur(o)
		errs = append(errs, err)
		return v
	}
	n := func(o config.Option) float64 {
		v, err := num(o)
		errs = append(errs, err)
		return v
	}
	var s rt.RestartStrategy
	switch kind {
	case "none", "off", "disable":
		return nil, nil
	case "fixed-delay", "fixeddelay":
		s = &rt.FixedDelayRestart{Attempts: int(n(config.FixedDelayAttempts)), Delay: d(config.FixedDelayDelay)}
	case "failure-rate", "failurerate":
		s = &rt.FailureRateRestart{MaxFailures: int(n(config.FailureRateMaxFailures)), Interval: d(config.FailureRateInterval), Delay: d(config.FailureRateDelay)}
	case "exponential-delay", "exponentialdelay":
		s = t.exponentialDelay(d, n)
	case "":
		if !checkpointing {
			return nil, nil
		}
		s = t.exponentialDelay(d, n)
	default:
		return nil, fmt.Errorf("Unknown restart strategy '%s' (restart-strategy.type): expected none, fixed-delay, failure-rate or exponential-delay.", kind)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if e, ok := s.(*rt.ExponentialDelayRestart); ok {
		// Flink's ExponentialDelayRestartBackoffTimeStrategy's checks
		switch {
		case e.Initial > e.Max:
			return nil, fmt.Errorf("Initial backoff cannot be higher than maximum backoff (%s = %s, %s = %s).", config.ExponentialInitialBackoff.Key, e.Initial, config.ExponentialMaxBackoff.Key, e.Max)
		case e.Jitter < 0 || e.Jitter > 1:
			return nil, fmt.Errorf("Jitter factor must be >= 0 and <= 1 (%s = %g).", config.ExponentialJitter.Key, e.Jitter)
		}
	}
	return s, nil
}

func (t *TableEnvironment) exponentialDelay(d func(config.Option) time.Duration, n func(config.Option) float64) rt.RestartStrategy {
	return &rt.ExponentialDelayRestart{Initial: d(config.ExponentialInitialBackoff), Max: d(config.ExponentialMaxBackoff),
		Multiplier: n(config.ExponentialMultiplier), ResetThreshold: d(config.ExponentialResetThreshold),
		Jitter: n(config.ExponentialJitter), AttemptsBeforeReset: int(n(config.ExponentialAttempts))}
}

// ReadCheckpoint reads the checkpoint or savepoint at path (its directory,
// its _metadata file, or a job's checkpoint directory: its latest complete
// checkpoint) and checks every state file against the manifest, as a job
// resuming from it would (execution.state-recovery.path). It returns what
// the checkpoint is; Triggered is when it was taken and Completed is zero
// (the manifest does not keep it). Errors name the file that is missing,
// corrupt or of a newer format.
func ReadCheckpoint(path string) (CheckpointInfo, error) {
	p, err := localPath(config.StateRecoveryPath.Key, path)
	if err != nil {
		return CheckpointInfo{}, err
	}
	cp, err := rt.LoadCheckpoint(p)
	if err != nil {
		return CheckpointInfo{}, err
	}
	return CheckpointInfo{ID: cp.ID, Savepoint: cp.Savepoint, Path: cp.Path, Triggered: cp.Timestamp, Size: cp.Size()}, nil
}
