package runtime

import "fmt"

// The lookup joins hold no state a checkpoint saves, as in Flink (whose
// lookup join operators checkpoint nothing): SourceLookupJoin's cache is
// a cache of the looked-up table, filled again by lookups after a
// restore, and LookupJoin's rows are the right table, which Open reads
// again. They report their memory (StateReporter) and implement
// CheckpointedOperator so that a job with checkpoints may use them: their
// snapshot is empty, and a restore takes only an empty snapshot.

// SnapshotState implements CheckpointedOperator: no state (the cache is
// not saved).
func (j *SourceLookupJoin) SnapshotState() ([]byte, error) { return nil, nil }

// RestoreState implements CheckpointedOperator: only an empty snapshot.
func (j *SourceLookupJoin) RestoreState(snapshot []byte) error {
	return restoreNoState("SourceLookupJoin", snapshot)
}

// SnapshotState implements CheckpointedOperator: no state (the right
// table is read again when the operator opens).
func (j *LookupJoin) SnapshotState() ([]byte, error) { return nil, nil }

// RestoreState implements CheckpointedOperator: only an empty snapshot.
func (j *LookupJoin) RestoreState(snapshot []byte) error {
	return restoreNoState("LookupJoin", snapshot)
}

// restoreNoState refuses a non-empty snapshot for an operator that saves
// none.
func restoreNoState(kind string, snapshot []byte) error {
	if len(snapshot) > 0 {
		return fmt.Errorf("%s: restoring state: it saves no state, but the snapshot holds %d bytes (of another operator?)", kind, len(snapshot))
	}
	return nil
}
