package ui

import (
	"sort"
	"strings"
	"testing"
)

// The Jobs panel lists a topic's partitions in numeric order (the runtime
// gives them sorted as text: clicks-12-0, clicks-12-1, clicks-12-10, …).
func TestSplitLessOrdersPartitionsByNumber(t *testing.T) {
	names := []string{"clicks-12-0", "clicks-12-1", "clicks-12-10", "clicks-12-11", "clicks-12-2", "clicks-12-3",
		"clicks-12-4", "clicks-12-5", "clicks-12-6", "clicks-12-7", "clicks-12-8", "clicks-12-9", "a-10", "b", "a-9"}
	sort.SliceStable(names, func(i, j int) bool { return splitLess(names[i], names[j]) })
	want := "a-9 a-10 b clicks-12-0 clicks-12-1 clicks-12-2 clicks-12-3 clicks-12-4 clicks-12-5 clicks-12-6 clicks-12-7 clicks-12-8 clicks-12-9 clicks-12-10 clicks-12-11"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("order\n%s\nwant\n%s", got, want)
	}
}
