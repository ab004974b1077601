package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"
)

// Checkpoints and savepoints: Flink 2's keys, with the Flink 1.x keys they
// replaced read as fallbacks (state.checkpoints.dir, state.savepoints.dir,
// state.checkpoints.num-retained, execution.savepoint.path,
// execution.savepoint.ignore-unclaimed-state). Read by engine/table when a
// streaming job is submitted; documented in docs/fault-tolerance.md.
var (
	CheckpointingInterval = Register(Option{Key: "execution.checkpointing.interval", Default: "", Kind: "duration",
		Description: "Interval between two checkpoints of a streaming job; unset or 0 takes none, otherwise at least 10 ms.",
		Check:       checkCheckpointDuration("execution.checkpointing.interval", true)})
	CheckpointingMode = Register(Option{Key: "execution.checkpointing.mode", Default: "EXACTLY_ONCE", Kind: "enum",
		Values:      []string{"EXACTLY_ONCE", "AT_LEAST_ONCE"},
		Description: "EXACTLY_ONCE aligns the barriers of a checkpoint; AT_LEAST_ONCE does not wait for them, and a resumed job may process some rows twice."})
	CheckpointingTimeout = Register(Option{Key: "execution.checkpointing.timeout", Default: "10 min", Kind: "duration",
		Description: "A checkpoint not complete after this long is given up (at least 10 ms).",
		Check:       checkCheckpointDuration("execution.checkpointing.timeout", false)})
	CheckpointingMinPause = Register(Option{Key: "execution.checkpointing.min-pause", Default: "0 ms", Kind: "duration",
		Description: "Least time between the end of one checkpoint and the start of the next."})
	CheckpointingMaxConcurrent = Register(Option{Key: "execution.checkpointing.max-concurrent-checkpoints", Default: "1", Kind: "int",
		Description: "Checkpoints in progress at once; Riffle takes one at a time, so only 1 is accepted.",
		Check:       checkIntRange("execution.checkpointing.max-concurrent-checkpoints", 1, 1)})
	CheckpointingTolerableFailures = Register(Option{Key: "execution.checkpointing.tolerable-failed-checkpoints", Default: "0", Kind: "int",
		Description: "Checkpoints that may fail in a row before the job fails.",
		Check:       checkIntRange("execution.checkpointing.tolerable-failed-checkpoints", 0, math.MaxInt32)})
	CheckpointingDir = Register(Option{Key: "execution.checkpointing.dir", Default: "", Kind: "string",
		Description: "Directory of checkpoints (a local path or file: URI): <dir>/<job id>/chk-<n>. Unset: the user's state directory, riffle/checkpoints. Fallback key: state.checkpoints.dir."})
	CheckpointingSavepointDir = Register(Option{Key: "execution.checkpointing.savepoint-dir", Default: "", Kind: "string",
		Description: "Default directory of savepoints (STOP JOB ... WITH SAVEPOINT). Fallback key: state.savepoints.dir."})
	CheckpointingNumRetained = Register(Option{Key: "execution.checkpointing.num-retained", Default: "1", Kind: "int",
		Description: "Complete checkpoints kept per job. Fallback key: state.checkpoints.num-retained.",
		Check:       checkIntRange("execution.checkpointing.num-retained", 1, math.MaxInt32)})
	CheckpointingRetention = Register(Option{Key: "execution.checkpointing.externalized-checkpoint-retention", Default: "NO_EXTERNALIZED_CHECKPOINTS", Kind: "enum",
		Values:      []string{"NO_EXTERNALIZED_CHECKPOINTS", "DELETE_ON_CANCELLATION", "RETAIN_ON_CANCELLATION"},
		Description: "Whether a job's checkpoints are kept when it is cancelled (RETAIN_ON_CANCELLATION); they are always kept when it fails or its process dies, and deleted when it finishes."})
	CheckpointsAfterTasksFinish = Register(Option{Key: "execution.checkpointing.checkpoints-after-tasks-finish", Default: "true", Kind: "bool",
		Description: "Checkpoints go on once bounded sources have ended, and a sink that commits on checkpoints (the filesystem sink) publishes the end of its input through a final checkpoint, taken as soon as every running task waits for it; false publishes it at once, outside any checkpoint. Flink 1.x key: execution.checkpointing.checkpoints-after-tasks-finish.enabled."})
	StateRecoveryPath = Register(Option{Key: "execution.state-recovery.path", Default: "", Kind: "string",
		Description: "Checkpoint or savepoint the next jobs resume from: its directory, its _metadata file, or a job's checkpoint directory (its latest). Fallback key: execution.savepoint.path."})
	StateRecoveryIgnoreUnclaimed = Register(Option{Key: "execution.state-recovery.ignore-unclaimed-state", Default: "false", Kind: "bool",
		Description: "Resume even when the checkpoint holds state of operators the job no longer has (dropping it). Fallback key: execution.savepoint.ignore-unclaimed-state."})

	StateBackendType = Register(Option{Key: "state.backend.type", Default: "hashmap", Kind: "enum",
		Values:      []string{"hashmap", "rocksdb", "forst"},
		Description: "Where keyed state lives: hashmap (memory; checkpoints write it to files), or rocksdb / forst, the disk state backend (Riffle's is built on pebble, the Go peer of RocksDB): streaming group aggregates and regular joins keep their keyed state on disk."})

	CheckpointingUnaligned = Register(Option{Key: "execution.checkpointing.unaligned.enabled", Default: "false", Kind: "bool",
		Description: "Unaligned checkpoints; not supported: only false is accepted (Riffle aligns barriers). Flink 1.x key: execution.checkpointing.unaligned.",
		Check:       onlyFalse("execution.checkpointing.unaligned.enabled")})
	CheckpointingUnalignedLegacy = Register(Option{Key: "execution.checkpointing.unaligned", Default: "false", Kind: "bool",
		Description: "Flink 1.x name of execution.checkpointing.unaligned.enabled.",
		Check:       onlyFalse("execution.checkpointing.unaligned")})

	// Flink 1.x keys, read when the newer key is not set.
	CheckpointsDirLegacy = Register(Option{Key: "state.checkpoints.dir", Default: "", Kind: "string",
		Description: "Flink 1.x name of execution.checkpointing.dir."})
	SavepointsDirLegacy = Register(Option{Key: "state.savepoints.dir", Default: "", Kind: "string",
		Description: "Flink 1.x name of execution.checkpointing.savepoint-dir."})
	CheckpointsNumRetainedLegacy = Register(Option{Key: "state.checkpoints.num-retained", Default: "1", Kind: "int",
		Description: "Flink 1.x name of execution.checkpointing.num-retained.",
		Check:       checkIntRange("state.checkpoints.num-retained", 1, math.MaxInt32)})
	CheckpointsAfterTasksFinishLegacy = Register(Option{Key: "execution.checkpointing.checkpoints-after-tasks-finish.enabled", Default: "true", Kind: "bool",
		Description: "Flink 1.x name of execution.checkpointing.checkpoints-after-tasks-finish."})
	SavepointPathLegacy = Register(Option{Key: "execution.savepoint.path", Default: "", Kind: "string",
		Description: "Flink 1.x name of execution.state-recovery.path."})
	SavepointIgnoreUnclaimedLegacy = Register(Option{Key: "execution.savepoint.ignore-unclaimed-state", Default: "false", Kind: "bool",
		Description: "Flink 1.x name of execution.state-recovery.ignore-unclaimed-state."})
)

// checkIntRange returns a Check accepting integers from lo to hi.
func checkIntRange(key string, lo, hi int64) func(string) error {
	return func(v string) error {
		n, _ := strconv.ParseInt(v, 10, 64)
		if n < lo || n > hi {
			if lo == hi {
				return fmt.Errorf("Invalid value '%s' for key '%s': only %d is supported.", v, key, lo)
			}
			return fmt.Errorf("Invalid value '%s' for key '%s': it must be at least %d.", v, key, lo)
		}
		return nil
	}
}

// Restart strategies (Flink's RestartStrategyOptions): how a failed
// streaming job restarts from its last checkpoint. Unset, a job with
// checkpoints restarts with exponential-delay and one without does not
// restart, as in Flink.
var (
	RestartStrategyType = Register(Option{Key: "restart-strategy.type", Default: "", Kind: "enum",
		Values:      []string{"none", "off", "disable", "fixed-delay", "fixeddelay", "failure-rate", "failurerate", "exponential-delay", "exponentialdelay"},
		Description: "How a failed streaming job restarts from its last checkpoint. Unset: exponential-delay with checkpointing on, none otherwise. Fallback key: restart-strategy."})
	RestartStrategyLegacy = Register(Option{Key: "restart-strategy", Default: "", Kind: "string",
		Description: "Flink 1.x name of restart-strategy.type."})
	FixedDelayAttempts = Register(Option{Key: "restart-strategy.fixed-delay.attempts", Default: "1", Kind: "int",
		Description: "Restarts before the job fails (fixed-delay).", Check: checkIntRange("restart-strategy.fixed-delay.attempts", 0, math.MaxInt32)})
	FixedDelayDelay = Register(Option{Key: "restart-strategy.fixed-delay.delay", Default: "1 s", Kind: "duration",
		Description: "Delay between a failure and the restart (fixed-delay)."})
	FailureRateMaxFailures = Register(Option{Key: "restart-strategy.failure-rate.max-failures-per-interval", Default: "1", Kind: "int",
		Description: "Failures within the interval before the job fails (failure-rate).", Check: checkIntRange("restart-strategy.failure-rate.max-failures-per-interval", 1, math.MaxInt32)})
	FailureRateInterval = Register(Option{Key: "restart-strategy.failure-rate.failure-rate-interval", Default: "1 min", Kind: "duration",
		Description: "The interval failures are counted in (failure-rate)."})
	FailureRateDelay = Register(Option{Key: "restart-strategy.failure-rate.delay", Default: "1 s", Kind: "duration",
		Description: "Delay between a failure and the restart (failure-rate)."})
	ExponentialInitialBackoff = Register(Option{Key: "restart-strategy.exponential-delay.initial-backoff", Default: "1 s", Kind: "duration",
		Description: "Delay before the first restart (exponential-delay)."})
	ExponentialMaxBackoff = Register(Option{Key: "restart-strategy.exponential-delay.max-backoff", Default: "1 min", Kind: "duration",
		Description: "Largest delay between restarts (exponential-delay)."})
	ExponentialMultiplier = Register(Option{Key: "restart-strategy.exponential-delay.backoff-multiplier", Default: "1.5", Kind: "float",
		Description: "Factor the delay grows by per failure (exponential-delay); at least 1.",
		Check: func(v string) error {
			if f, _ := strconv.ParseFloat(v, 64); f < 1 {
				return fmt.Errorf("Invalid value '%s' for key 'restart-strategy.exponential-delay.backoff-multiplier': it must be at least 1.", v)
			}
			return nil
		}})
	ExponentialResetThreshold = Register(Option{Key: "restart-strategy.exponential-delay.reset-backoff-threshold", Default: "1 h", Kind: "duration",
		Description: "Time without failure, counted from the start of the last restart, after which the delay starts over at the initial backoff (exponential-delay)."})
	ExponentialJitter = Register(Option{Key: "restart-strategy.exponential-delay.jitter-factor", Default: "0.1", Kind: "float",
		Description: "Fraction of the delay added or taken at random, the result kept between the initial and the maximum backoff (exponential-delay); 0 to 1."})
	ExponentialAttempts = Register(Option{Key: "restart-strategy.exponential-delay.attempts-before-reset-backoff", Default: "2147483647", Kind: "int",
		Description: "Restarts allowed in a row, before the backoff is reset; the failure after them fails the job (exponential-delay).", Check: checkIntRange("restart-strategy.exponential-delay.attempts-before-reset-backoff", 1, math.MaxInt32)})
)

// checkCheckpointDuration accepts durations of at least 10 ms, Flink's
// least checkpoint interval and timeout (and 0 when zeroOff: no
// checkpoints).
func checkCheckpointDuration(key string, zeroOff bool) func(string) error {
	return func(v string) error {
		d, _ := ParseDuration(v)
		if (zeroOff && d == 0) || d >= 10*time.Millisecond {
			return nil
		}
		return fmt.Errorf("Invalid value '%s' for key '%s': it must be at least 10 ms.", v, key)
	}
}

// onlyFalse accepts false only: the feature the key turns on is missing.
func onlyFalse(key string) func(string) error {
	return func(v string) error {
		if strings.EqualFold(v, "false") {
			return nil
		}
		return fmt.Errorf("Invalid value '%s' for key '%s': unaligned checkpoints are not supported; Riffle aligns checkpoint barriers (EXACTLY_ONCE) or does not wait for them (AT_LEAST_ONCE).", v, key)
	}
}
