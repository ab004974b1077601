// Package pending holds the rows a message decoder has decoded but not yet
// flushed: typed column accumulators (internal/columns), the row kinds, and
// a rollback that drops the values of a message that failed half-way, so
// a MessageDecoder appends nothing for a message it rejects.
package pending

import (
	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/connector/internal/columns"
	"github.com/riffle-sql/riffle/engine/types"
)

// Rows accumulates committed rows. Cols may be appended to directly; a row
// counts once Commit is called, and Rollback drops whatever was appended
// after the last Commit.
type Rows struct {
	Cols  []columns.Column
	n     int
	kinds []types.RowKind // nil while every row is an INSERT
	// carry holds rows built early by a Rollback, prepended at Flush.
	carry      [][]arrow.Array
	carryN     int
	carryKinds []types.RowKind
}

// New creates the columns of ts with capacity rows each.
func New(ts []*types.DataType, capacity int) (*Rows, error) {
	r := &Rows{}
	for _, t := range ts {
		c, err := columns.New(t, capacity)
		if err != nil {
			return nil, err
		}
		r.Cols = append(r.Cols, c)
	}
	return r, nil
}

// Len is the number of committed rows not yet flushed.
func (r *Rows) Len() int { return r.carryN + r.n }

// Commit counts one row of kind k (every column must hold one more value).
func (r *Rows) Commit(k types.RowKind) {
	if k != types.Insert && r.kinds == nil {
		r.kinds = make([]types.RowKind, r.n, r.n+64)
	}
	if r.kinds != nil {
		r.kinds = append(r.kinds, k)
	}
	r.n++
}

// Mark returns a position to roll back to with RollbackTo: a decoder of
// messages holding several rows marks the start of each message.
func (r *Rows) Mark() int { return r.n }

// RollbackTo drops the rows committed since mark (from Mark, with no
// Rollback in between) and any uncommitted values.
func (r *Rows) RollbackTo(mark int) {
	if mark < r.n {
		r.n = mark
		if r.kinds != nil {
			r.kinds = r.kinds[:mark]
		}
	}
	r.Rollback()
}

// Rollback drops the values appended since the last Commit (also those
// in nested columns): the committed rows are built into arrays, kept until
// Flush, and the columns start empty. Call it only after a failure that may
// have appended values; it costs one array build.
func (r *Rows) Rollback() {
	arrs := make([]arrow.Array, len(r.Cols))
	for i, c := range r.Cols {
		a := c.Build()
		arrs[i] = array.NewSlice(a, 0, int64(r.n))
		a.Release()
	}
	if r.n == 0 {
		for _, a := range arrs {
			a.Release()
		}
		r.kinds = nil
		return
	}
	r.carry = append(r.carry, arrs)
	r.carryKinds = append(r.carryKinds, r.kindsOrInserts()...)
	r.carryN += r.n
	r.n, r.kinds = 0, nil
}

func (r *Rows) kindsOrInserts() []types.RowKind {
	if r.kinds != nil {
		return r.kinds
	}
	return make([]types.RowKind, r.n)
}

// Flush returns the committed rows as one batch and starts a new one.
func (r *Rows) Flush() *types.Batch {
	cols := make([]arrow.Array, len(r.Cols))
	for i, c := range r.Cols {
		cols[i] = c.Build()
	}
	kinds, n := r.kinds, r.n
	if len(r.carry) > 0 {
		all := append(r.carry, cols)
		for i := range cols {
			parts := make([]arrow.Array, len(all))
			for j, p := range all {
				parts[j] = p[i]
			}
			merged, err := array.Concatenate(parts, memory.DefaultAllocator)
			if err != nil {
				panic(err) // same types throughout: cannot happen
			}
			for _, p := range parts {
				p.Release()
			}
			cols[i] = merged
		}
		kinds = append(r.carryKinds, r.kindsOrInserts()...)
		n += r.carryN
		r.carry, r.carryKinds, r.carryN = nil, nil, 0
	}
	if kinds != nil {
		allInsert := true
		for _, k := range kinds {
			if k != types.Insert {
				allInsert = false
				break
			}
		}
		if allInsert {
			kinds = nil
		}
	}
	r.n, r.kinds = 0, nil
	return types.NewBatch(cols, kinds, n)
}
