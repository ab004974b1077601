package config

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
)

// DefaultParallelism is the parallelism of a job whose session does not
// set parallelism.default (or sets it to -1): the number of cores
// (runtime.NumCPU), within 1..MaxParallelism. It is Flink's local
// execution default: StreamExecutionEnvironment.createLocalEnvironment
// (what getExecutionEnvironment and PyFlink's TableEnvironment use outside
// a cluster) sets parallelism.default to defaultLocalParallelism =
// Runtime.getRuntime().availableProcessors() when the configuration does
// not name it; the option's own default of 1 applies on a cluster, whose
// configuration file sets it.
func DefaultParallelism() int {
	return min(max(runtime.NumCPU(), 1), MaxParallelism)
}

// Parallelism is the parallelism jobs run at: parallelism.default when it
// is set to a number from 1 to MaxParallelism, else DefaultParallelism
// (unset, -1 or a value the option refuses; SET refuses such values before
// they reach a job). A nil configuration has the default.
func (c *Configuration) Parallelism() int {
	p, _ := c.ParallelismSource()
	return p
}

// ParallelismSource is Parallelism and whether it was set (true: the
// configuration names it; false: it is the number of cores).
func (c *Configuration) ParallelismSource() (parallelism int, set bool) {
	if v, ok := c.Get(Parallelism.Key); ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 1 && n <= MaxParallelism {
			return n, true
		}
	}
	return DefaultParallelism(), false
}

// DescribeParallelism says, in a sentence for the user, which parallelism
// jobs of c run at and where it comes from, e.g. "Jobs run at parallelism
// 2: parallelism.default is not set, so it is the number of cores (as in
// Flink's local execution)."
func (c *Configuration) DescribeParallelism() string {
	p, set := c.ParallelismSource()
	if set {
		return fmt.Sprintf("Jobs run at parallelism %d: parallelism.default is set to %d in this session (RESET 'parallelism.default' returns to the number of cores, %d).", p, p, DefaultParallelism())
	}
	return fmt.Sprintf("Jobs run at parallelism %d: parallelism.default is not set, so it is the number of cores (as in Flink's local execution); SET 'parallelism.default' = 'N' changes it.", p)
}
