package runtime

import (
	"errors"
	"testing"
)

// The budget fails the job once, when the operators' reported state sums
// past the limit, naming the operator holding the most.
func TestMemoryBudget(t *testing.T) {
	g := &Graph{}
	agg := &Node{Name: "GroupAggregate(groupBy=[k])", metrics: newMetrics(1, "GroupAggregate(groupBy=[k])")}
	join := &Node{Name: "Join(...)", metrics: newMetrics(2, "Join(...)")}
	g.Nodes = []*Node{agg, join}
	var failures []error
	b := newMemoryBudget(10<<20, g, func(err error) { failures = append(failures, err) })
	report := func(n *Node, sub int, bytes int64) {
		(&OpContext{Metrics: n.metrics, Subtask: sub, budget: b}).ReportState(1, bytes)
	}
	report(agg, 0, 4<<20)
	report(agg, 1, 2<<20)
	report(join, 0, 3<<20)
	if len(failures) != 0 {
		t.Fatalf("failed under the limit: %v", failures)
	}
	report(join, 0, 5<<20) // 6 + 5 = 11 MB
	report(join, 0, 6<<20)
	if len(failures) != 1 {
		t.Fatalf("%d failures, want 1", len(failures))
	}
	var me *MemoryLimitError
	if !errors.As(failures[0], &me) || me.Operator != "GroupAggregate(groupBy=[k])" || me.Bytes != 6<<20 || me.Total != 11<<20 {
		t.Fatalf("failure %#v", failures[0])
	}
	want := "memory limit exceeded: operator GroupAggregate(groupBy=[k]) holds 6.00 MB of state (the job's operators hold 11 MB); the job's limit is 10 MB (option 'riffle.job.memory-limit')"
	if got := failures[0].Error(); got != want {
		t.Fatalf("message\n%s\nwant\n%s", got, want)
	}
	if newMemoryBudget(0, g, nil) != nil {
		t.Fatal("a limit of 0 makes a budget")
	}
}
