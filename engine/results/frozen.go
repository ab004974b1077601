package results

import (
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

// Frozen is an immutable copy of one view of a Result, in display order
// (sorted if the table view is sorted). The changelog view gets a leading
// "op" column (+I, -U, +U, -D), as Flink's streaming CSV output has.
type Frozen struct {
	cols   []Column
	chunks []*chunk
	n      int
	fmt    Formatter
}

var _ Rows = (*Frozen)(nil)

// Freeze copies view v. It holds the read lock while copying (tens of
// milliseconds for a million rows), so a running query exports its current
// state and the writer is not held up for long.
func (r *Result) Freeze(v View) *Frozen {
	r.mu.RLock()
	defer r.mu.RUnlock()
	f := &Frozen{fmt: r.fmt}
	specs := r.specs
	if v == ChangelogView {
		f.cols = append([]Column{{Name: "op", Type: types.StringType().NotNull()}}, r.cols...)
		specs = append([]colSpec{newColSpec("op", types.StringType())}, r.specs...)
	} else {
		f.cols = r.cols
	}
	var cur *chunk
	r.scan(v, 0, r.lenLocked(v), func(c *chunk, off int) bool {
		if cur == nil || cur.full() {
			capacity := min(chunkRows, r.lenLocked(v)-f.n)
			cur = newChunk(specs, int64(f.n), capacity)
			f.chunks = append(f.chunks, cur)
		}
		cols := cur.cols
		if v == ChangelogView {
			cols[0].(*bytesVec).appendBytes(c.kinds[off].ShortString())
			cols = cols[1:]
		}
		for k, col := range cols {
			col.appendFrom(c.cols[k], off)
		}
		f.n++
		return true
	})
	return f
}

// Columns returns the columns (with "op" first for the changelog view).
func (f *Frozen) Columns() []Column { return f.cols }

// Len returns the number of rows.
func (f *Frozen) Len() int { return f.n }

func (f *Frozen) cell(row, col int) (vec, int) {
	return f.chunks[row/chunkRows].cols[col], row % chunkRows
}

// IsNull reports whether a cell is SQL NULL.
func (f *Frozen) IsNull(row, col int) bool {
	v, i := f.cell(row, col)
	return v.isNull(i)
}

// Value returns a cell as a Go value (engine/types conventions; nil = NULL).
func (f *Frozen) Value(row, col int) any {
	v, i := f.cell(row, col)
	return v.value(i)
}

// AppendText implements Rows.
func (f *Frozen) AppendText(dst []byte, row, col int) ([]byte, bool) {
	v, i := f.cell(row, col)
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
