package runtime

import "sync"

var (
	defaultLimitOnce sync.Once
	defaultLimit     int64
)

// DefaultMemoryLimit is the job memory limit when riffle.job.memory-limit
// is 'default': half of the machine's physical memory, in bytes (0, no
// limit, where it cannot be read). Half leaves room for what state
// estimates do not count (the Go heap's overhead over the estimate,
// buffers in flight, other jobs and programs), so that the job fails with
// a clear error before the process is killed for want of memory.
func DefaultMemoryLimit() int64 {
	defaultLimitOnce.Do(func() { defaultLimit = physicalMemory() / 2 })
	return defaultLimit
}
