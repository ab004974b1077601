package opspec

// Partitioning says how an edge distributes batches to the parallel
// instances of its consumer.
type Partitioning uint8

// Edge partitionings (Flink's exchange kinds).
const (
	// Forward keeps instance i's output at instance i (same parallelism).
	Forward Partitioning = iota
	// Hash routes each row by the hash of its key columns.
	Hash
	// Broadcast sends every batch to every instance.
	Broadcast
	// Single sends everything to instance 0 (global operators).
	Single
	// Rebalance spreads batches round-robin.
	Rebalance
)

func (p Partitioning) String() string {
	return [...]string{"FORWARD", "HASH", "BROADCAST", "SINGLETON", "REBALANCE"}[p]
}
