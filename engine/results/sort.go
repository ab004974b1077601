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
// Ties keep arrival order. It returns ErrRunning while the query runs. The
// rows are sorted outside the lock (readers are not held up); the order is
// installed only if the result did not change meanwhile.
func (r *Result) SortBy(col int, desc bool) error {
	if st, _ := r.State(); st == Running {
		return ErrRunning
	}
	if col < 0 || col >= len(r.cols) {
		return fmt.Errorf("results: no column %d", col)
	}
	for {
		f := r.freeze(TableView, true)
		rows := sortedRows(f, col, desc)
		r.mu.Lock()
		if r.version.Load() == f.version {
			r.sorted = &sortOrder{col: col, desc: desc, rows: rows}
			r.version.Add(1)
			r.mu.Unlock()
			return nil
		}
		r.mu.Unlock() // changed while sorting (rows added after Finish): again
	}
}

// sortedRows returns the rows of f ordered by column col.
func sortedRows(f *Frozen, col int, desc bool) []rowRef {
	rows := make([]rowRef, 0, f.Len())
	f.scan(0, f.Len(), func(c *chunk, off int) {
		rows = append(rows, rowRef{c, int32(off)})
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
	return rows
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
