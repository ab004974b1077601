package runtime

// CheckpointedOperator is implemented by a stateful operator whose state a
// checkpoint saves (Flink's CheckpointedFunction / keyed state snapshot).
// Both methods are called on the operator's task goroutine, between two
// events: SnapshotState when the checkpoint's barrier has arrived on every
// input (its state then reflects exactly the events before the barrier),
// RestoreState once, after Open and before the first event, when the job
// resumes from a checkpoint or savepoint.
//
// The encoding is the operator's (engine/internal/state's codec): it must
// be versioned, and RestoreState of bytes that do not decode, or that were
// saved by an operator of another kind or shape, returns an error saying
// so; it never panics and never leaves half-restored state behind.
type CheckpointedOperator interface {
	// SnapshotState returns the operator's state: keyed state, timers,
	// buffered rows, and whatever else decides its future output.
	SnapshotState() ([]byte, error)
	// RestoreState replaces the state of a freshly opened operator with a
	// snapshot SnapshotState returned.
	RestoreState(snapshot []byte) error
}

// CommittingOperator is implemented by a sink operator whose output
// becomes visible only when a checkpoint completes (Flink's two-phase
// commit sink: connector.CommittingWriter underneath).
//
// PrepareCommit is called on the task goroutine when the checkpoint's
// barrier has arrived, just before SnapshotState: the operator flushes
// what it wrote and keeps, in the state SnapshotState returns, what is
// needed to publish it. NotifyCheckpointComplete is called once the
// checkpoint is on disk, from the job's coordinator goroutine (possibly
// while the task goes on with later events, so the operator locks what
// the two share); an error fails the job. After a restore, RestoreState
// publishes what the restored state holds that may not have been
// published (publishing must be idempotent).
type CommittingOperator interface {
	CheckpointedOperator
	PrepareCommit(checkpointID int64) error
	NotifyCheckpointComplete(checkpointID int64) error
}

// FinalCheckpointOperator is a CommittingOperator that commits the end of
// a bounded input through a final checkpoint, as Flink does with
// execution.checkpointing.checkpoints-after-tasks-finish (FLIP-147):
// publishing at the end of input, outside any checkpoint, would let a
// process that dies before the job's end is recorded resume from an
// earlier checkpoint and write the tail again.
//
// CommitAtFinalCheckpoint is called on the task goroutine once the
// operator is open (and restored), when the job takes periodic checkpoints
// and final ones are on; it returns whether the operator commits that way
// (false: it has nothing to commit on checkpoints and keeps committing at
// EndInput). When it does, EndInput publishes nothing: the task, its input
// ended, takes part in one more checkpoint (PrepareCommit and
// SnapshotState with everything written), waits until that checkpoint is
// complete (NotifyCheckpointComplete has published it), then calls
// FinishCommit, which ends the write. A job that ends otherwise (cancel,
// STOP JOB, a failure) never calls FinishCommit; Close aborts what no
// checkpoint holds.
type FinalCheckpointOperator interface {
	CommittingOperator
	CommitAtFinalCheckpoint() bool
	FinishCommit() error
}

// DiskStateOperator is implemented by an operator that can keep its keyed
// state in the job's disk state backend (JobConfig.DiskState, Flink's
// EmbeddedRocksDBStateBackend). When it does (UsesDisk), a checkpoint
// holds, besides SnapshotState's bytes (what stays in memory: timers,
// the operator's shape), a copy of its store: SnapshotDisk writes it, on
// the task goroutine at the barrier, after SnapshotState; RestoreDisk
// replaces the store of a freshly opened operator with a checkpoint's,
// before RestoreState.
type DiskStateOperator interface {
	CheckpointedOperator
	// UsesDisk reports whether the operator keeps its state in a store.
	UsesDisk() bool
	// SnapshotDisk writes everything the operator holds in memory for the
	// store into it, then the store as it is now into dir, a directory
	// that does not exist yet (kvstate.Store.Checkpoint).
	SnapshotDisk(dir string) error
	// RestoreDisk replaces the operator's store with one holding the
	// state of dir, a store directory of a checkpoint.
	RestoreDisk(dir string) error
}
