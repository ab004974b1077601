package config

import "fmt"

// The disk-backed keyed state backend (state.backend.type 'rocksdb' or
// 'forst': Riffle's is built on pebble, the Go peer of RocksDB): Flink's
// keys where one fits, read by engine/table when a streaming job is
// submitted; documented in docs/fault-tolerance.md.
var (
	CheckpointingIncremental = Register(Option{Key: "execution.checkpointing.incremental", Default: "false", Kind: "bool",
		Description: "With the disk state backend, a checkpoint links the state files the previous checkpoint already holds instead of copying them. Fallback key: state.backend.incremental."})
	StateBackendIncrementalLegacy = Register(Option{Key: "state.backend.incremental", Default: "false", Kind: "bool",
		Description: "Flink 1.x name of execution.checkpointing.incremental."})
	RocksDBLocalDir = Register(Option{Key: "state.backend.rocksdb.localdir", Default: "", Kind: "string",
		Description: "Local directory of the disk state backend's working files (a folder per job, removed when it ends). Fallbacks: state.backend.forst.local-dir, process.taskmanager.working-dir, then the temporary directory."})
	ForStLocalDir = Register(Option{Key: "state.backend.forst.local-dir", Default: "", Kind: "string",
		Description: "ForSt's name of state.backend.rocksdb.localdir."})
	TaskManagerWorkingDir = Register(Option{Key: "process.taskmanager.working-dir", Default: "", Kind: "string",
		Description: "Working directory; the disk state backend's files go under it when state.backend.rocksdb.localdir is not set."})
	RocksDBBlockCacheSize = Register(Option{Key: "state.backend.rocksdb.block.cache-size", Default: "64 mb", Kind: "string",
		Description: "Block cache of the disk state backend, shared by the stores of a job: with the write buffers, the memory its state takes beside the operators' caches.",
		Check:       checkMemorySize("state.backend.rocksdb.block.cache-size")})
	RocksDBWriteBufferSize = Register(Option{Key: "state.backend.rocksdb.writebuffer.size", Default: "16 mb", Kind: "string",
		Description: "Memtable of each store of the disk state backend (one per stateful operator instance), flushed to a file when full and at each checkpoint.",
		Check:       checkMemorySize("state.backend.rocksdb.writebuffer.size")})
	StateBackendCacheEntries = Register(Option{Key: "riffle.state.backend.cache-entries", Default: "16384", Kind: "int",
		Description: "Riffle: keys (groups, join keys) an operator instance keeps decoded in memory in front of its store with the disk state backend; written to the store when full and before each checkpoint.",
		Check:       checkIntRange("riffle.state.backend.cache-entries", 1, 1<<30)})
)

// checkMemorySize validates a memory size (ParseMemorySize) of at least 1 KiB.
func checkMemorySize(key string) func(string) error {
	return func(v string) error {
		n, err := ParseMemorySize(v)
		if err != nil {
			return fmt.Errorf("Could not parse value '%s' for key '%s': %v", v, key, err)
		}
		if n < 1024 {
			return fmt.Errorf("Invalid value '%s' for key '%s': at least 1 kb.", v, key)
		}
		return nil
	}
}
