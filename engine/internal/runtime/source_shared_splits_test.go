package runtime

import (
	"context"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// heldSplitSource has n splits of one row each (the split's index). Its
// split 0 is held: its reader returns only after every other split was
// read, so one instance is stuck on it while the others work. It counts
// its Splits calls.
type heldSplitSource struct {
	n        int
	listed   atomic.Int32
	read     atomic.Int32
	others   chan struct{} // closed when the n-1 other splits were read
	doneOnce sync.Once
}

type indexSplit int

func (s indexSplit) String() string { return fmt.Sprint(int(s)) }

func (s *heldSplitSource) Bounded() bool                      { return true }
func (s *heldSplitSource) ChangelogMode() types.ChangelogMode { return types.InsertOnlyMode }
func (s *heldSplitSource) Splits(context.Context) ([]connector.Split, error) {
	s.listed.Add(1)
	out := make([]connector.Split, s.n)
	for i := range out {
		out[i] = indexSplit(i)
	}
	return out, nil
}
func (s *heldSplitSource) Open(_ context.Context, sp connector.Split, _ connector.ReadSpec) (connector.Reader, error) {
	return &heldSplitReader{s: s, i: int(sp.(indexSplit))}, nil
}

type heldSplitReader struct {
	s    *heldSplitSource
	i    int
	done bool
}

func (r *heldSplitReader) Next(ctx context.Context) (*types.Batch, error) {
	if r.done {
		return nil, io.EOF
	}
	r.done = true
	if r.i == 0 {
		select {
		case <-r.s.others:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	} else if int(r.s.read.Add(1)) == r.s.n-1 {
		r.s.doneOnce.Do(func() { close(r.s.others) })
	}
	col := vector.FromValues(arrow.PrimitiveTypes.Int64, []int64{int64(r.i)}, nil, -1)
	return types.NewBatch([]arrow.Array{col}, nil, 1), nil
}
func (r *heldSplitReader) Close() error { return nil }

// In a batch job the instances of a source take splits as they finish
// the last one, from one list made once: with split 0 held until all the
// others are read, the second instance reads all of them (a fixed
// assignment, instance i reading splits i, i+2, ..., would wait forever
// for split 2 behind split 0), and Splits is called once for both.
func TestBatchSourceInstancesShareSplits(t *testing.T) {
	src := &heldSplitSource{n: 9, others: make(chan struct{})}
	g := &Graph{}
	s := g.AddSource("held", 2, true, ConnectorSource(src, connector.ReadSpec{}, nil))
	seen := map[int64]bool{}
	for _, b := range collectBatchJob(t, g, s) {
		for _, v := range vector.Values[int64](b.Cols[0]) {
			if seen[v] {
				t.Fatalf("split %d read twice", v)
			}
			seen[v] = true
		}
	}
	if len(seen) != src.n {
		t.Fatalf("read splits %v, want all %d", seen, src.n)
	}
	if n := src.listed.Load(); n != 1 {
		t.Fatalf("Splits called %d times, want once for both instances", n)
	}
}

// collectBatchJob runs g as a batch job, its output the rows of node from
// (collected on one instance), and returns them as they came (a minute at
// most).
func collectBatchJob(t *testing.T, g *Graph, from *Node) []*types.Batch {
	t.Helper()
	coll := NewCollector(16)
	g.AddOperator("collect", 1, coll.NewSink, Edge{From: from, Part: opspec.Single})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	job, err := Submit(ctx, "collect", g, DefaultJobConfig(), &expr.Ctx{Zone: time.UTC, Start: time.Now()}, true)
	if err != nil {
		t.Fatal(err)
	}
	defer job.Cancel()
	coll.Attach(job)
	var out []*types.Batch
	for {
		b, err := coll.Next(ctx)
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, b)
	}
}
