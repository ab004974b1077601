package results

import (
	"math/bits"
	"sort"

	"github.com/riffle-sql/riffle/engine/types"
)

// Rows is a fixed, consistent set of rows that can be written out: what
// Export reads. *Frozen implements it; other sources (e.g. a query streamed
// straight to a file) may too.
type Rows interface {
	Columns() []Column
	Len() int
	// AppendText appends the display text of a cell (see Format) and
	// reports whether it is SQL NULL (nothing is appended then).
	AppendText(dst []byte, row, col int) ([]byte, bool)
}

// Frozen is an immutable picture of one view of a Result, in display order
// (sorted if the table view is sorted). The changelog view gets a leading
// "op" column (+I, -U, +U, -D), as Flink's streaming CSV output has.
//
// It shares the Result's sealed chunks, whose rows never change, and holds
// a private copy of the chunk that was still being written to, so taking
// one costs time in proportion to the number of chunks (about 120 for a
// million rows), not rows, and the Result keeps changing without
// affecting it. A Frozen is safe for concurrent readers.
type Frozen struct {
	cols []Column
	fmt  Formatter
	op   bool // changelog view: column 0 is the RowKind
	n    int
	// version is the Result's version when it was taken.
	version uint64

	// parts are runs of rows of one chunk each, in order; ends[i] is the
	// number of rows in parts[0..i].
	parts []part
	ends  []int
	// sorted, when set (a sorted table view), has the rows in order.
	sorted *sortOrder
	// uniform: every part is a whole chunk of chunkRows rows (the first
	// may start at parts[0].from, the last may be shorter), so row r is at
	// (r+parts[0].from) / chunkRows: the case of insert-only results.
	uniform bool
}

// part is the rows of one chunk in a Frozen: physical rows from..from+n-1,
// or, when offs is set (a table chunk with deleted rows), the physical
// rows offs[0..n-1].
type part struct {
	c    *chunk
	offs []uint16
	from int
	n    int
}

var _ Rows = (*Frozen)(nil)

// Freeze returns an immutable picture of view v as it is now. It holds the
// read lock only to capture the chunk list (see Frozen): well under a
// millisecond for a million rows, so it may be called on a UI goroutine,
// and a running query exports its current state.
func (r *Result) Freeze(v View) *Frozen { return r.freeze(v, false) }

// freeze captures view v; arrival ignores a sort order.
func (r *Result) freeze(v View, arrival bool) *Frozen {
	f := &Frozen{fmt: r.fmt}
	if v == ChangelogView {
		f.op = true
		f.cols = append([]Column{{Name: "op", Type: types.StringType().NotNull()}}, r.cols...)
	} else {
		f.cols = r.cols
	}
	type pending struct {
		i    int // index in f.parts
		live bitmap
	}
	var dead []pending
	r.mu.RLock()
	f.version = r.version.Load()
	// The last chunk may still be appended to: copy it.
	own := func(chunks []*chunk, i int) *chunk {
		if i == len(chunks)-1 {
			return chunks[i].clone()
		}
		return chunks[i]
	}
	switch {
	case v == ChangelogView:
		l := r.log
		skip := l.held - l.visible()
		for i, c := range l.chunks {
			n := c.n()
			if skip >= n {
				skip -= n
				continue
			}
			f.parts = append(f.parts, part{c: own(l.chunks, i), from: skip, n: n - skip})
			skip = 0
		}
	case r.sorted != nil && !arrival:
		// Only a finished result is sorted: no writer touches its chunks.
		f.sorted = r.sorted
	default:
		t := r.tab
		for i, c := range t.chunks {
			if c.nLive == 0 {
				continue
			}
			n := c.n()
			p := part{c: own(t.chunks, i), n: c.nLive}
			if c.nLive < n {
				dead = append(dead, pending{len(f.parts), c.live[:min(len(c.live), (n+63)>>6)].clone()})
			}
			f.parts = append(f.parts, p)
		}
	}
	r.mu.RUnlock()
	// Outside the lock: list the live rows of chunks with deleted ones.
	for _, d := range dead {
		p := &f.parts[d.i]
		p.offs = make([]uint16, 0, p.n)
		for w, word := range d.live {
			for word != 0 {
				p.offs = append(p.offs, uint16(w<<6+bits.TrailingZeros64(word)))
				word &= word - 1
			}
		}
		p.offs = p.offs[:min(len(p.offs), p.n)]
	}
	if f.sorted != nil {
		f.n = len(f.sorted.rows)
		return f
	}
	f.ends = make([]int, len(f.parts))
	f.uniform = true
	for i, p := range f.parts {
		f.n += p.n
		f.ends[i] = f.n
		if p.offs != nil || (i > 0 && p.from != 0) || (i < len(f.parts)-1 && p.from+p.n != chunkRows) {
			f.uniform = false
		}
	}
	return f
}

func (b bitmap) clone() bitmap { return append(bitmap(nil), b...) }

// Columns returns the columns (with "op" first for the changelog view).
func (f *Frozen) Columns() []Column { return f.cols }

// Len returns the number of rows.
func (f *Frozen) Len() int { return f.n }

// Version returns the Result's version when f was taken.
func (f *Frozen) Version() uint64 { return f.version }

// locate returns the chunk and physical row of row.
func (f *Frozen) locate(row int) (*chunk, int) {
	if f.sorted != nil {
		return f.sorted.at(row)
	}
	if f.uniform {
		idx := row + f.parts[0].from
		p := &f.parts[idx/chunkRows]
		return p.c, idx % chunkRows
	}
	i := sort.SearchInts(f.ends, row+1)
	p := &f.parts[i]
	k := row
	if i > 0 {
		k -= f.ends[i-1]
	}
	if p.offs != nil {
		return p.c, int(p.offs[k])
	}
	return p.c, p.from + k
}

// scan calls fn for rows from..to-1 in order.
func (f *Frozen) scan(from, to int, fn func(c *chunk, off int)) {
	from, to = max(from, 0), min(to, f.n)
	if from >= to {
		return
	}
	if f.sorted != nil {
		for i := from; i < to; i++ {
			fn(f.sorted.at(i))
		}
		return
	}
	i := sort.SearchInts(f.ends, from+1)
	row := from
	for ; i < len(f.parts) && row < to; i++ {
		p := &f.parts[i]
		start := 0
		if i > 0 {
			start = f.ends[i-1]
		}
		for k := row - start; k < p.n && row < to; k++ {
			if p.offs != nil {
				fn(p.c, int(p.offs[k]))
			} else {
				fn(p.c, p.from+k)
			}
			row++
		}
	}
}

// cell returns the vector and physical row of a data cell; op reports the
// changelog's op column (col 0), whose text is the RowKind.
func (f *Frozen) cell(row, col int) (c *chunk, v vec, i int, op bool) {
	c, i = f.locate(row)
	if f.op {
		if col == 0 {
			return c, nil, i, true
		}
		col--
	}
	return c, c.cols[col], i, false
}

// IsNull reports whether a cell is SQL NULL.
func (f *Frozen) IsNull(row, col int) bool {
	_, v, i, op := f.cell(row, col)
	return !op && v.isNull(i)
}

// Value returns a cell as a Go value (engine/types conventions; nil = NULL).
func (f *Frozen) Value(row, col int) any {
	c, v, i, op := f.cell(row, col)
	if op {
		return c.kinds[i].ShortString()
	}
	return v.value(i)
}

// Kind returns the RowKind of a row of a changelog view (Insert for a
// table view).
func (f *Frozen) Kind(row int) types.RowKind {
	if !f.op {
		return types.Insert
	}
	c, i := f.locate(row)
	return c.kinds[i]
}

// AppendText implements Rows.
func (f *Frozen) AppendText(dst []byte, row, col int) ([]byte, bool) {
	c, v, i, op := f.cell(row, col)
	if op {
		return append(dst, c.kinds[i].ShortString()...), false
	}
	if v.isNull(i) {
		return dst, true
	}
	return v.appendText(dst, i, &f.fmt), false
}

// Text returns a cell's display text and whether it is NULL.
func (f *Frozen) Text(row, col int) (string, bool) {
	b, null := f.AppendText(nil, row, col)
	return string(b), null
}
