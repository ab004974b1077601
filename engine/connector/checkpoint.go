package connector

import "context"

// Checkpoints (Flink's checkpointed sources and two-phase-commit sinks).
//
// When 'execution.checkpointing.interval' is set, the runtime takes
// checkpoints: between two batches of a reader it asks the reader for its
// position, puts a barrier behind the batches already emitted, and every
// operator saves its state when the barrier passes it. A job resumed from
// that checkpoint reopens each split at its saved position, so no row is
// read twice or lost. A source whose readers do not implement
// PositionReader cannot be checkpointed: a job reading it with
// checkpointing on fails at start with an error naming the table.

// PositionReader is implemented by a Reader whose position can be saved
// and resumed.
type PositionReader interface {
	Reader
	// Position returns the reader's position right after the last batch
	// Next returned (before the first Next: the split's start). It is an
	// opaque encoding of the connector's choosing (a byte offset and line
	// number, a sequence number, a Kafka offset), valid across restarts of
	// the same program version. For a MultiSplitReader it covers every
	// split the reader reads.
	Position() ([]byte, error)
}

// WakeableReader is implemented by a Reader whose Next may block for long
// waiting for data (an idle Kafka partition). Wake, called from another
// goroutine, makes a blocked Next (or the next call) return (nil, nil)
// soon, without losing data, so that a checkpoint's barrier does not wait
// for the next row. Only a woken Next returns a nil batch.
type WakeableReader interface {
	Reader
	Wake()
}

// ResumableSource is implemented by a Source whose readers are
// PositionReaders: it reopens a split (or, for a MultiSplitSource, an
// instance's splits) at a position one of them returned.
type ResumableSource interface {
	Source
	// OpenAt opens split at pos, a position returned by the Position of a
	// reader of the same split. A position that does not decode, or does
	// not fit the split (a file shorter than the saved offset), is an
	// error naming the split; it never reads from elsewhere.
	OpenAt(ctx context.Context, split Split, spec ReadSpec, pos []byte) (Reader, error)
}

// ResumableMultiSplitSource is the ResumableSource of a MultiSplitSource.
type ResumableMultiSplitSource interface {
	MultiSplitSource
	// OpenInstanceAt is OpenInstance resuming at pos, a position returned
	// by the Position of the same instance's reader (splits found since
	// then start as a new split would).
	OpenInstanceAt(ctx context.Context, splits []Split, instance, parallelism int, spec ReadSpec, pos []byte) (Reader, error)
}

// CommittingWriter is implemented by a sink's Writer that makes its output
// visible only when a checkpoint completes (Flink's two-phase-commit sink:
// the filesystem sink's in-progress → pending → finished files, a Kafka
// transaction). Rows written between two checkpoints stay invisible to
// readers until the later one completes.
type CommittingWriter interface {
	Writer
	// Writer.Commit still ends the write at the end of a bounded input.
	//
	// PrepareCommit is called when the checkpoint's barrier reaches the
	// writer: everything written so far is flushed and made durable but
	// not visible. It returns what Commit needs to publish it (file names,
	// a transaction id), saved in the checkpoint.
	PrepareCommit(ctx context.Context, checkpointID int64) (committable []byte, err error)
	// CommitCheckpoint publishes what PrepareCommit of that checkpoint returned,
	// once the checkpoint is complete. It may be called again with the
	// same committable after a restart (from the checkpoint's saved
	// state), so it must be idempotent.
	CommitCheckpoint(ctx context.Context, checkpointID int64, committable []byte) error
}
