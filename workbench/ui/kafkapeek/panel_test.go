package kafkapeek

import (
	"testing"

	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
)

// The peek tab's status line says plainly what it shows ("20 message(s),
// the latest 50" read as if 50 were shown; "0 message(s)" for an empty
// topic).
func TestPeekSummary(t *testing.T) {
	for _, c := range []struct {
		n    int
		o    kafkabrowser.PeekOptions
		want string
	}{
		{50, kafkabrowser.PeekOptions{Latest: true, N: 50, Partition: -1}, "The latest 50 messages, newest first"},
		{1, kafkabrowser.PeekOptions{N: 1, Partition: -1}, "The earliest 1 message"},
		{20, kafkabrowser.PeekOptions{Latest: true, N: 50, Partition: -1}, "All 20 messages, newest first (asked for the latest 50)"},
		{0, kafkabrowser.PeekOptions{Latest: true, N: 50, Partition: -1}, "No messages: the topic is empty"},
		{0, kafkabrowser.PeekOptions{N: 50, Partition: 3}, "No messages: partition 3 is empty"},
		{7, kafkabrowser.PeekOptions{N: 5, Partition: -1, PerPartition: true}, "7 messages: the earliest 5 per partition"},
		{1500, kafkabrowser.PeekOptions{Latest: true, N: 1500, Partition: 2}, "The latest 1,500 messages, newest first"},
		{3, kafkabrowser.PeekOptions{Latest: true, Partition: -1}, "All 3 messages, newest first (asked for the latest 50)"},
	} {
		if got := Summary(c.n, c.o); got != c.want {
			t.Errorf("Summary(%d, %+v) = %q, want %q", c.n, c.o, got, c.want)
		}
	}
}
