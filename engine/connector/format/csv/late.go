package csv

import (
	"errors"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Late materialization under a row filter (connector.RowFilter, the WHERE
// of the batch Calc reading the scan): the string columns the filter does
// not read are deferred. A batch's records are tokenized and its other
// columns parsed as usual (so every parse error and skipped row is the
// same as without the filter); the filter then runs on those columns, and
// the deferred columns are built only for the rows it keeps, by
// re-tokenizing those records, which the read buffer still holds. Only
// string columns are deferred: their values cannot fail to parse, so a
// dropped row never hides an error (invalid UTF-8 is checked on the whole
// record before any field is parsed).

// errBatchFull ends a batch early: its held records fill half the read
// buffer and more input is needed (the buffer does not grow for them).
var errBatchFull = errors.New("batch full")

// lateState is the row filter and the records of the current batch that
// wait for it.
type lateState struct {
	filter   connector.RowFilter
	deferred []int // output columns built after the filter
	// fields are the file fields only deferred columns read: the first
	// tokenization does not record where they are
	fields []int
	// off and line: per row of the batch, the stream offset and physical
	// line of its record
	off  []int64
	line []int64
	// hold is the stream offset of the batch's first record, which the
	// read buffer keeps until the batch is built (-1: none)
	hold int64
	// batches counts the batches built under the filter; dense the
	// consecutive ones since the first in which it kept more than
	// denseShare of the rows
	batches, dense int
}

// After denseBatches consecutive batches (not counting the first, read
// before a Top-N has a bound) in which the filter kept more than 3/4 of
// the rows, the reader stops deferring: tokenizing the kept records twice
// costs more than building the strings of the few dropped ones.
const denseBatches = 3

func (l *lateState) start() {
	l.off, l.line, l.hold = l.off[:0], l.line[:0], -1
}

func (l *lateState) add(off, line int64) {
	if len(l.off) == 0 {
		l.hold = off
	}
	l.off = append(l.off, off)
	l.line = append(l.line, line)
}

// SetRowFilter implements connector.RowFilterReader: the reader defers the
// string columns f does not read. It declines (false) when there is no
// such column, or under csv.invalid-utf8 = 'replace' (whose count of
// replaced fields covers every row). Call it before the first Next.
func (r *Reader) SetRowFilter(f connector.RowFilter) bool {
	if f == nil || r.err != nil || r.d.opts.ReplaceBadUTF8 || r.records > 0 {
		return false
	}
	reads := f.Columns()
	var deferred, eager []int
	for j := range r.cols {
		if r.text[j] && (j >= len(reads) || !reads[j]) {
			deferred = append(deferred, j)
		} else {
			eager = append(eager, j)
		}
	}
	if len(deferred) == 0 {
		return false
	}
	r.late = lateState{filter: f, deferred: deferred, hold: -1}
	r.eager = eager
	eagerField := map[int]bool{}
	for _, j := range eager {
		eagerField[r.d.proj[j]] = true
	}
	for _, j := range deferred {
		if fi := r.d.proj[j]; !eagerField[fi] && r.wanted[fi] {
			r.late.fields = append(r.late.fields, fi)
			r.wanted[fi] = false
		}
	}
	return true
}

// markLateFields makes the tokenizer record the deferred fields (on) or
// not.
func (r *Reader) markLateFields(on bool) {
	for _, fi := range r.late.fields {
		r.wanted[fi] = on
	}
}

// filterBatch builds the batch of the n rows just read under the row
// filter: nil when the filter keeps none of them.
func (r *Reader) filterBatch(n int) (*types.Batch, error) {
	l := &r.late
	defer func() { l.hold = -1 }()
	cols := make([]arrow.Array, len(r.cols))
	for _, j := range r.eager {
		cols[j] = r.cols[j].Build()
	}
	sel, all, err := l.filter.Keep(types.NewBatch(cols, nil, n))
	if err != nil || all {
		sel, all = nil, true
	} else if len(sel) == 0 {
		l.batches++
		l.dense = 0
		return nil, nil
	}
	if !all {
		for _, j := range r.eager {
			cols[j] = vector.Take(cols[j], sel)
		}
	}
	kept := n
	if !all {
		kept = len(sel)
	}
	if err := r.buildDeferred(sel, kept); err != nil {
		return nil, err
	}
	for _, j := range l.deferred {
		cols[j] = r.cols[j].Build()
	}
	l.batches++
	if l.batches > 1 && kept*4 > n*3 {
		l.dense++
	} else {
		l.dense = 0
	}
	if l.dense >= denseBatches {
		r.stopDeferring()
	}
	return types.NewBatch(cols, nil, kept), nil
}

// stopDeferring goes back to building every column as records are read
// (the row filter kept most rows; the Calc above filters them).
func (r *Reader) stopDeferring() {
	r.markLateFields(true)
	r.late = lateState{hold: -1}
	r.eager = r.eager[:0]
	for j := range r.cols {
		r.eager = append(r.eager, j)
	}
}

// buildDeferred appends the deferred columns' values of the batch's rows
// sel (nil: all n) by tokenizing their records again.
func (r *Reader) buildDeferred(sel []int32, n int) error {
	l := &r.late
	o := &r.d.opts
	pos, line := r.pos, r.line
	r.markLateFields(true)
	defer func() {
		r.pos, r.line = pos, line
		r.markLateFields(false)
	}()
	for k := 0; k < n; k++ {
		row := k
		if sel != nil {
			row = int(sel[k])
		}
		r.pos, r.line = int(l.off[row]-r.base), l.line[row]
		if err := r.scan(); err != nil {
			return fmt.Errorf("csv: internal error: re-reading the record at line %d of %s: %v", l.line[row], r.name, err)
		}
		for _, j := range l.deferred {
			p := r.parsers[j]
			fi := r.d.proj[j]
			if fi >= r.nfields {
				p.appendNull()
				continue
			}
			ref := &r.refs[fi]
			b := r.bytesOf(*ref)
			if len(b) > 0 && !o.HasNullLiteral {
				if err := p.parse(b); err == nil {
					continue
				}
			}
			if err := r.ctx.value(p, r.d.outTypes[j], b, ref.quoted); err != nil {
				return r.dataError(ref.line, fi+1, err.Error())
			}
		}
	}
	return nil
}
