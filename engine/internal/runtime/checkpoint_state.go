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
