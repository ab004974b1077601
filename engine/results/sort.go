package results

import (
	"context"
	"fmt"
	"math/bits"
	"slices"
)

// chunkShift is log2(chunkRows): a sorted row is the position
// chunk<<chunkShift | offset, 4 bytes a row.
const chunkShift = 13

// maxSortChunks is the most chunks a sort order can address (2^19 chunks of
// chunkRows rows: 4,294,967,296 rows).
const maxSortChunks = 1 << (32 - chunkShift)

// sortRun is how many rows a sort orders at a time before merging: the unit
// of its progress reports and cancellation checks (about 10 ms of work).
const sortRun = 1 << 15

// sortOrder is a client-side ordering of the table view; any change of
// the result drops it. rows[i] is the position of the i-th row in chunks.
type sortOrder struct {
	col    int
	desc   bool
	chunks []*chunk
	rows   []uint32
}

// at returns the chunk and physical row of the i-th sorted row.
func (o *sortOrder) at(i int) (*chunk, int) {
	p := o.rows[i]
	return o.chunks[p>>chunkShift], int(p & (chunkRows - 1))
}

// SortProgress is told how far a sort has come: done of total units of
// work (both grow with the number of rows; done reaches total at the end).
// It is called on the sorting goroutine, a few hundred times for a
// million rows.
type SortProgress func(done, total int64)

// SortBy orders the table view of a finished result by column col,
// comparing typed values (numbers numerically, strings by their UTF-8
// bytes, timestamps in time order). NULLs come first in ascending order and
// last in descending order, as Flink's default null collation (LOW) does.
// Ties keep arrival order. It returns ErrRunning while the query runs. The
// rows are sorted outside the lock (readers are not held up); the order is
// installed only if the result did not change meanwhile.
func (r *Result) SortBy(col int, desc bool) error {
	return r.SortByContext(context.Background(), col, desc, nil)
}

// SortByContext is SortBy that can be cancelled and reports its progress
// (progress may be nil). When ctx ends before the sort is done it returns
// ctx.Err() and the view keeps the order it had (sorted or not). The order
// takes 4 bytes a row; sorting needs 4 more a row while it runs.
func (r *Result) SortByContext(ctx context.Context, col int, desc bool, progress SortProgress) error {
	if st, _ := r.State(); st == Running {
		return ErrRunning
	}
	if col < 0 || col >= len(r.cols) {
		return fmt.Errorf("results: no column %d", col)
	}
	for {
		f := r.freeze(TableView, true)
		o, err := sortedRows(ctx, f, col, desc, progress)
		if err != nil {
			return err
		}
		r.mu.Lock()
		if r.version.Load() == f.version {
			r.sorted = o
			r.version.Add(1)
			r.mu.Unlock()
			return nil
		}
		r.mu.Unlock() // changed while sorting (rows added after Finish): again
	}
}

// sortedRows returns the rows of f ordered by column col: runs of sortRun
// rows are sorted, then merged pairwise, checking ctx and reporting
// progress after every run's worth of rows.
func sortedRows(ctx context.Context, f *Frozen, col int, desc bool, progress SortProgress) (*sortOrder, error) {
	if len(f.parts) > maxSortChunks {
		return nil, fmt.Errorf("results: %d rows are too many to sort", f.Len())
	}
	o := &sortOrder{col: col, desc: desc, chunks: make([]*chunk, len(f.parts)), rows: make([]uint32, 0, f.Len())}
	for i, p := range f.parts {
		o.chunks[i] = p.c
		base := uint32(i) << chunkShift
		if p.offs != nil {
			for _, off := range p.offs[:p.n] {
				o.rows = append(o.rows, base|uint32(off))
			}
			continue
		}
		for off := p.from; off < p.from+p.n; off++ {
			o.rows = append(o.rows, base|uint32(off))
		}
	}
	cmp := func(a, b uint32) int {
		av, bv := o.chunks[a>>chunkShift].cols[col], o.chunks[b>>chunkShift].cols[col]
		ai, bi := int(a&(chunkRows-1)), int(b&(chunkRows-1))
		an, bn := av.isNull(ai), bv.isNull(bi)
		var c int
		switch {
		case an && bn:
			return 0
		case an:
			c = -1
		case bn:
			c = 1
		default:
			c = av.compare(ai, bv, bi)
		}
		if desc {
			return -c
		}
		return c
	}

	n := len(o.rows)
	runs := (n + sortRun - 1) / sortRun
	passes := 0
	if runs > 1 {
		passes = bits.Len(uint(runs - 1))
	}
	// work: a run sort counts log2(sortRun) units a row, a merge pass one
	total := int64(n) * int64(bits.Len(sortRun-1)+passes)
	var done int64
	step := func(units int64) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		done += units
		if progress != nil {
			progress(done, total)
		}
		return nil
	}
	if err := step(0); err != nil {
		return nil, err
	}
	for from := 0; from < n; from += sortRun {
		run := o.rows[from:min(from+sortRun, n)]
		slices.SortStableFunc(run, cmp)
		if err := step(int64(len(run)) * int64(bits.Len(sortRun-1))); err != nil {
			return nil, err
		}
	}
	if runs <= 1 {
		return o, nil
	}
	src, dst := o.rows, make([]uint32, n)
	for width := sortRun; width < n; width *= 2 {
		for lo := 0; lo < n; lo += 2 * width {
			mid, hi := min(lo+width, n), min(lo+2*width, n)
			if err := mergeRuns(dst[lo:hi], src[lo:mid], src[mid:hi], cmp, step); err != nil {
				return nil, err
			}
		}
		src, dst = dst, src
	}
	o.rows = src
	return o, nil
}

// mergeRuns merges the sorted runs a and b into out (len(a)+len(b) rows),
// taking from a on ties (stable), and calls step every sortRun rows.
func mergeRuns(out, a, b []uint32, cmp func(a, b uint32) int, step func(int64) error) error {
	i, j, k := 0, 0, 0
	for k < len(out) {
		start, end := k, min(k+sortRun, len(out))
		for ; k < end; k++ {
			switch {
			case j >= len(b) || (i < len(a) && cmp(a[i], b[j]) <= 0):
				out[k] = a[i]
				i++
			default:
				out[k] = b[j]
				j++
			}
		}
		if err := step(int64(end - start)); err != nil {
			return err
		}
	}
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
