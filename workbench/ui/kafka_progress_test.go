package ui

import (
	"sort"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
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

// Once no running job reads a partition the table hides and the job list
// above takes the whole height (hiding alone left it in its 40% above an
// empty pane, as seen after stopping a query).
func TestSplitsViewHiddenGivesTheJobListItsRoom(t *testing.T) {
	test.NewTempApp(t)
	list := widget.NewLabel("jobs")
	v := &splitsView{box: container.NewStack(widget.NewLabel("partitions"))}
	v.split = container.NewVSplit(list, v.box)
	v.split.Offset = 0.4
	v.split.Resize(fyne.NewSize(600, 400))
	if h := list.Size().Height; h >= 400 {
		t.Fatalf("list %v tall beside the partitions", h)
	}
	v.box.Hide()
	v.relayout()
	if h := list.Size().Height; h != 400 {
		t.Errorf("list %v tall once the partitions hid, want 400", h)
	}
	v.box.Show()
	v.relayout()
	if h := list.Size().Height; h >= 400 {
		t.Errorf("list %v tall once the partitions showed again", h)
	}
}
