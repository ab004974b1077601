package results

import (
	"fmt"
	"slices"
)

type rowRef struct {
	c   *chunk
	off int32
}

// sortOrder is a client-side ordering of the table view; any change of
// the result drops it.
type sortOrder struct {
	col  int
	desc bool
	rows []rowRef
}

// SortBy orders the table view of a finished result by column col,
// comparing typed values (numbers numerically, strings by their UTF-8
// bytes, timestamps in time order). NULLs come first in ascending order and
// last in descending order, as Flink's default null collation (LOW) does.
// Ties keep arrival order. It returns ErrRunning while the query runs.
func (r *Result) SortBy(col int, desc bool) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state == Running {
		return ErrRunning
	}
	if col < 0 || col >= len(r.cols) {
		return fmt.Errorf("results: no column %d", col)
	}
	rows := make([]rowRef, 0, r.tab.live)
	r.tab.scan(0, r.tab.live, func(c *chunk, off int) bool {
		rows = append(rows, rowRef{c, int32(off)})
		return true
	})
	slices.SortStableFunc(rows, func(a, b rowRef) int {
		av, bv := a.c.cols[col], b.c.cols[col]
		an, bn := av.isNull(int(a.off)), bv.isNull(int(b.off))
		var c int
		switch {
		case an && bn:
			return 0
		case an:
			c = -1
		case bn:
			c = 1
		default:
			c = av.compare(int(a.off), bv, int(b.off))
		}
		if desc {
			return -c
		}
		return c
	})
	r.sorted = nil // set after the version bump below
	r.version.Add(1)
	r.sorted = &sortOrder{col: col, desc: desc, rows: rows}
	return nil
}

// ClearSort returns the table view to arrival order.
func (r *Result) ClearSort() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sorted != nil {
		r.sorted = nil
		r.version.Add(1)
	}
}
