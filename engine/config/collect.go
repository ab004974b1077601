package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// CollectSinkBatchSizeMax is Flink's collect-sink.batch-size.max
// (CollectSinkOperatorFactory.MAX_BATCH_SIZE, default 2 MB): the most
// result bytes the collect sink hands the client at once. As in Flink, a
// query's result buffer holds at most twice this many bytes before the
// job is back-pressured (runtime.Collector).
var CollectSinkBatchSizeMax = Register(Option{Key: "collect-sink.batch-size.max", Default: "2 mb", Kind: "string",
	Description: "Result bytes a query's collect sink hands the client at once (a memory size such as '2 mb' or '512 kb'); the buffer of a query's unfetched results holds at most twice this before the job waits for the client.",
	Check: func(v string) error {
		n, err := ParseMemorySize(v)
		if err == nil && n < 1 {
			err = fmt.Errorf("it must be at least 1 byte")
		}
		if err != nil {
			return fmt.Errorf("Could not parse value '%s' for key 'collect-sink.batch-size.max' (expected a memory size such as '2 mb' or '512 kb'): %v.", v, err)
		}
		return nil
	}})

// ParseMemorySize reads a memory size as Flink's MemorySize does: a
// non-negative whole number with an optional unit, b/bytes, k/kb/kibibytes,
// m/mb/mebibytes, g/gb/gibibytes or t/tb/tebibytes (powers of 1024, any
// case, spaces allowed before the unit). A number without unit is bytes.
// It returns the size in bytes, or an error naming what is wrong.
func ParseMemorySize(s string) (int64, error) {
	t := strings.TrimSpace(s)
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("%q does not start with a number", s)
	}
	n, err := strconv.ParseInt(t[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is too large", s)
	}
	var mult int64
	switch strings.ToLower(strings.TrimSpace(t[i:])) {
	case "", "b", "bytes":
		mult = 1
	case "k", "kb", "kibibytes":
		mult = 1 << 10
	case "m", "mb", "mebibytes":
		mult = 1 << 20
	case "g", "gb", "gibibytes":
		mult = 1 << 30
	case "t", "tb", "tebibytes":
		mult = 1 << 40
	default:
		return 0, fmt.Errorf("%q has an unknown unit (use b, kb, mb, gb or tb)", s)
	}
	if n > math.MaxInt64/mult {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return n * mult, nil
}
