package filesystem

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
)

// A range's reader waiting for the check of an earlier range that its
// reader is still making ends with the job's cancellation; the earlier
// reader then gives its rows.
func TestRangeHoldWaitCancelled(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f.csv")
	if err := os.WriteFile(path, rangeTestFile(4<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	defer func() { testCheckWait, testHoldParsed = nil, nil }()
	src := csvSource(t, path, 2, nil)
	splits, err := src.Splits(context.Background())
	if err != nil || len(splits) != 4 {
		t.Fatalf("%d splits, error %v", len(splits), err)
	}
	parsed0 := make(chan struct{})
	release0 := make(chan struct{})
	testHoldParsed = func(i int) {
		if i == 0 {
			close(parsed0)
			<-release0
		}
	}
	ctx1, cancel1 := context.WithCancel(context.Background())
	testCheckWait = func(i int) {
		if i == 0 {
			cancel1() // the job is cancelled while range 1's reader waits
		}
	}
	rows0 := make(chan int, 1)
	go func() {
		r, err := src.Open(context.Background(), splits[0], connector.ReadSpec{})
		if err != nil {
			rows0 <- -1
			return
		}
		defer r.Close()
		n := 0
		for {
			b, err := r.Next(context.Background())
			if err != nil {
				if err != io.EOF {
					n = -1
				}
				rows0 <- n
				return
			}
			n += b.Len
		}
	}()
	<-parsed0
	r1, err := src.Open(ctx1, splits[1], connector.ReadSpec{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r1.Next(ctx1)
	r1.Close()
	close(release0)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("range 1's reader: %v, want context.Canceled", err)
	}
	if n := <-rows0; n != (1<<20)/len(rangeTestLine) {
		t.Fatalf("range 0's reader: %d rows", n)
	}
}
