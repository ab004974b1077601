package results

import (
	"slices"

	"github.com/riffle-sql/riffle/engine/types"
)

// Snapshot is a consistent picture of a window of one view: what a grid
// draws in one frame.
type Snapshot struct {
	View    View
	Version uint64
	Total   int // rows in the view
	From    int // view index of Cells[0]
	// Cells[i][c] is the display text of column c of row From+i; Nulls[i][c]
	// says it is SQL NULL (its text is then empty, never "NULL").
	Cells [][]string
	Nulls [][]bool
	// Kinds[i] is the RowKind of row From+i (changelog view only).
	Kinds   []types.RowKind
	Dropped int64 // rows dropped from this view by its cap
	State   State
	Err     error
	SortCol int // column of the client-side sort, -1 = arrival order
	Desc    bool
}

// Snapshot returns rows from..to-1 of view v (clamped to the view). It
// holds the read lock only while copying that window, so the writer waits
// microseconds. dst, when not nil, is reused to save allocations.
func (r *Result) Snapshot(v View, from, to int, dst *Snapshot) *Snapshot {
	if dst == nil {
		dst = &Snapshot{}
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	total := r.lenLocked(v)
	from = min(max(from, 0), total)
	to = min(max(to, from), total)
	n := to - from
	*dst = Snapshot{
		View: v, Version: r.version.Load(), Total: total, From: from,
		Cells: resize(dst.Cells, n), Nulls: resize(dst.Nulls, n), Kinds: dst.Kinds[:0],
		State: r.state, Err: r.err, SortCol: -1,
	}
	if v == ChangelogView {
		dst.Dropped = r.log.dropped()
	} else {
		dst.Dropped = r.tab.dropped
		if r.sorted != nil {
			dst.SortCol, dst.Desc = r.sorted.col, r.sorted.desc
		}
	}
	ncol := len(r.cols)
	var buf []byte
	i := 0
	r.scan(v, from, to, func(c *chunk, off int) bool {
		cells, nulls := resize(dst.Cells[i], ncol), resize(dst.Nulls[i], ncol)
		for k, col := range c.cols {
			if col.isNull(off) {
				cells[k], nulls[k] = "", true
				continue
			}
			buf = col.appendText(buf[:0], off, &r.fmt)
			cells[k], nulls[k] = string(buf), false
		}
		dst.Cells[i], dst.Nulls[i] = cells, nulls
		if v == ChangelogView {
			dst.Kinds = append(dst.Kinds, c.kinds[off])
		}
		i++
		return true
	})
	return dst
}

func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return slices.Grow(s[:0], n)[:n]
	}
	return s[:n]
}
