package filesystem

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// Continuous file monitoring ('source.monitor-interval' in streaming mode,
// Flink's FileSystemTableSource with a monitor interval).
//
// The source has a single split whose reader lists the path, reads every
// file it has not read before (in path order), and then lists the path
// again every interval, forever: the table is unbounded. As in Flink, a
// file is read once, when it is first seen; a file changed or extended
// afterwards is not read again. Write files somewhere else (or under a
// hidden name starting with '.' or '_') and move them into the directory
// once complete, so that no half-written file is read.

// MonitorSplit is the single split of a monitored path.
type MonitorSplit struct {
	Path     string
	Interval time.Duration
}

// String names the split.
func (m *MonitorSplit) String() string { return "monitor " + m.Path }

// monitorReader reads the files of a path as they appear.
type monitorReader struct {
	src     *Source
	split   *MonitorSplit
	spec    connector.ReadSpec
	seen    map[string]bool
	pending []connector.Split
	cur     connector.Reader
	listed  bool
	skipped int64
}

func (src *Source) openMonitor(m *MonitorSplit, spec connector.ReadSpec) connector.Reader {
	return &monitorReader{src: src, split: m, spec: spec, seen: map[string]bool{}}
}

// Next returns the next batch of the current file, opening newly found
// files and waiting an interval between listings.
func (r *monitorReader) Next(ctx context.Context) (*types.Batch, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if r.cur != nil {
			b, err := r.cur.Next(ctx)
			if err == nil {
				return b, nil
			}
			if !errors.Is(err, io.EOF) {
				return nil, err
			}
			if sc, ok := r.cur.(connector.SkipCounter); ok {
				r.skipped += sc.SkippedRows()
			}
			r.cur.Close()
			r.cur = nil
			continue
		}
		if len(r.pending) > 0 {
			next := r.pending[0]
			r.pending = r.pending[1:]
			rd, err := r.src.Open(ctx, next, r.spec)
			if err != nil {
				return nil, err
			}
			r.cur = rd
			continue
		}
		if r.listed {
			t := time.NewTimer(r.split.Interval)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil, ctx.Err()
			case <-t.C:
			}
		}
		r.listed = true
		splits, err := r.src.listSplits(ctx)
		if err != nil {
			return nil, fmt.Errorf("monitoring %s: %w", r.split.Path, err)
		}
		for _, sp := range splits {
			if p := sp.(*FileSplit).Path; !r.seen[p] {
				r.seen[p] = true
				r.pending = append(r.pending, sp)
			}
		}
	}
}

// SkippedRows implements connector.SkipCounter over the files read.
func (r *monitorReader) SkippedRows() int64 {
	n := r.skipped
	if sc, ok := r.cur.(connector.SkipCounter); ok {
		n += sc.SkippedRows()
	}
	return n
}

// Close closes the current file.
func (r *monitorReader) Close() error {
	if r.cur != nil {
		err := r.cur.Close()
		r.cur = nil
		return err
	}
	return nil
}
