package config

import (
	"fmt"
	"strings"
)

// JobMemoryLimit bounds the state of one job's operators (a Riffle option;
// Flink bounds memory per TaskManager, taskmanager.memory.*, not per job).
// The value is a memory size ('512 mb', '2 gb'), '0' for no limit, or
// 'default': half of the machine's physical memory (runtime.DefaultMemoryLimit).
// The state counted is what the stateful operators report as their state
// size (group aggregates, joins, ranks, windows, deduplication ...), summed
// over the job; past the limit the job fails with "memory limit exceeded"
// naming the operator that holds the most.
var JobMemoryLimit = Register(Option{Key: "riffle.job.memory-limit", Default: "default", Kind: "string",
	Description: "The most state a job's operators may hold together (a memory size such as '512 mb'; '0' for no limit; 'default' is half of the machine's memory); past it the job fails with 'memory limit exceeded' naming the operator holding the most.",
	Check: func(v string) error {
		_, _, err := ParseJobMemoryLimit(v)
		return err
	}})

// ParseJobMemoryLimit reads a value of riffle.job.memory-limit: the limit
// in bytes (0: none), or isDefault for 'default' (and an empty value).
func ParseJobMemoryLimit(v string) (limit int64, isDefault bool, err error) {
	t := strings.TrimSpace(v)
	if t == "" || strings.EqualFold(t, "default") {
		return 0, true, nil
	}
	n, err := ParseMemorySize(t)
	if err != nil {
		return 0, false, fmt.Errorf("Could not parse value '%s' for key 'riffle.job.memory-limit' (expected a memory size such as '512 mb' or '2 gb', '0' for no limit, or 'default'): %v.", v, err)
	}
	return n, false, nil
}
