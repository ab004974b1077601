package runtime

import (
	"fmt"
	"sync"
)

// MemoryLimitOption is the key of the job option that bounds the state a
// job's operators hold (config.JobMemoryLimit, riffle.job.memory-limit).
const MemoryLimitOption = "riffle.job.memory-limit"

// MemoryLimitError is the failure of a job whose operators' state grew
// past JobConfig.MemoryLimit. Operator is the operator holding the most
// state at that moment, with Bytes of it; Total is the job's sum and
// Limit the budget, in bytes.
type MemoryLimitError struct {
	Operator     string
	Bytes, Total int64
	Limit        int64
}

func (e *MemoryLimitError) Error() string {
	held, total, limit := mb(e.Bytes), mb(e.Total), mb(e.Limit)
	if held == limit || total == limit {
		// rounded alike: the bytes tell them apart
		held = fmt.Sprintf("%s (%d bytes)", held, e.Bytes)
		total = fmt.Sprintf("%s (%d bytes)", total, e.Total)
		limit = fmt.Sprintf("%s (%d bytes)", limit, e.Limit)
	}
	msg := fmt.Sprintf("memory limit exceeded: operator %s holds %s of state", e.Operator, held)
	if e.Total != e.Bytes {
		msg += fmt.Sprintf(" (the job's operators hold %s)", total)
	}
	return msg + fmt.Sprintf("; the job's limit is %s (option '%s')", limit, MemoryLimitOption)
}

// mb formats bytes in mebibytes, with two decimals below 10 MB.
func mb(n int64) string {
	v := float64(n) / (1 << 20)
	if v < 10 {
		return fmt.Sprintf("%.2f MB", v)
	}
	return fmt.Sprintf("%.0f MB", v)
}

// memoryBudget checks the state the operators of one job report
// (OpContext.ReportState, the operators' own estimates of their state's
// bytes) against the job's limit, and fails the job once when their sum
// is over it.
type memoryBudget struct {
	limit   int64
	metrics []*OperatorMetrics
	fail    func(error)
	once    sync.Once
}

func newMemoryBudget(limit int64, g *Graph, fail func(error)) *memoryBudget {
	if limit <= 0 {
		return nil
	}
	b := &memoryBudget{limit: limit, fail: fail}
	for _, n := range g.Nodes {
		if n.Source == nil {
			b.metrics = append(b.metrics, n.metrics)
		}
	}
	return b
}

// check sums the operators' state and fails the job when it is over the
// limit.
func (b *memoryBudget) check() {
	var total int64
	var top *OperatorMetrics
	var topBytes int64
	for _, m := range b.metrics {
		n := m.StateBytes.Load()
		total += n
		if top == nil || n > topBytes {
			top, topBytes = m, n
		}
	}
	if total <= b.limit || top == nil {
		return
	}
	b.once.Do(func() {
		b.fail(&MemoryLimitError{Operator: top.Name, Bytes: topBytes, Total: total, Limit: b.limit})
	})
}
