package connector

import (
	"context"
	"time"
)

// Readers of several unbounded splits at once (Kafka partitions). The
// runtime reads the splits of a source instance one after another, which
// an unbounded split would block forever; a MultiSplitSource instead opens
// one reader per parallel instance that reads all its splits together and
// says which split each batch came from, so the runtime can keep one
// watermark per split (Flink's per-partition watermarks: an idle split does
// not hold the watermark back).

// MultiSplitSource is implemented by a Source whose splits a single reader
// per parallel instance reads together. The runtime calls OpenInstance once
// per instance (instead of Open per split), passing every split Splits
// returned; the source picks the splits the instance owns (and may pick up
// splits discovered later, e.g. new Kafka partitions).
type MultiSplitSource interface {
	OpenInstance(ctx context.Context, splits []Split, instance, parallelism int, spec ReadSpec) (Reader, error)
}

// MultiSplitReader is implemented by the Reader a MultiSplitSource opens.
// Both methods are called from the goroutine that calls Next, right after
// it returned a batch.
type MultiSplitReader interface {
	// BatchSplit names the split of the batch last returned by Next (every
	// batch holds rows of one split).
	BatchSplit() string
	// ActiveSplits names the splits being read, those that hold back the
	// instance's watermark until they are idle; finished splits of a
	// bounded read are left out. The result may be shared; callers must not
	// modify it.
	ActiveSplits() []string
}

// IdleTimeoutSource is implemented by a Source with its own idle timeout
// (Flink's 'scan.watermark.idle-timeout'): a split without rows for that
// long is idle. ok is false when the table leaves it to
// table.exec.source.idle-timeout.
type IdleTimeoutSource interface {
	WatermarkIdleTimeout() (d time.Duration, ok bool)
}

// ParallelismSource is implemented by a Source with its own parallelism
// ('scan.parallelism'); 0 means parallelism.default. The planner still
// runs no more instances than the source has splits.
type ParallelismSource interface {
	ScanParallelism() int
}
