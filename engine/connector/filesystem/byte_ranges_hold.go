package filesystem

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// The check of a CSV range made by its own parse (see the top of
// byte_ranges.go for the check). Searching each range's bytes for the
// quote and escape characters before parsing them is a second pass over
// the file that one reader does not make (~10 ms of CPU a run over the
// 106 MB flights file). Instead a range's reader parses its range at once
// while its reader notes whether it met a stop byte (the csv reader's
// word-at-a-time scanner leaves a record that holds one to the byte-wise
// scanner, which searches that record: stopTracker), holds the batches,
// and publishes the range's check: clean when the parse ended at the
// range's end knowing no stop byte, else by a search of the bytes (a
// stop byte met, a data error, a skipped record). Then it takes the
// checks of the ranges before it: one that another reader is making is
// waited for (that reader publishes before it waits itself, so waits
// only point to earlier ranges and end), one that nobody has claimed is
// made by a search (rangeGuard.check). When they and its own are clean
// it gives the held batches; otherwise it drops them and reads as
// rangeSection would have: from its first line to the end of the file
// when its own range is the first dirty one, nothing when an earlier one
// is.
//
// A range over holdRangeBytes (a file over 64 × that) is checked by a
// search as before, so that the held batches stay small (a variable:
// tests lower it to mix both kinds of range in one table).
var holdRangeBytes int64 = 16 << 20

// stopTracker is implemented by a BatchReader that notes, as it parses,
// whether its bytes hold given stop bytes (csv).
type stopTracker interface {
	TrackStopBytes(stops []byte) bool
	StopFree() bool
}

// rangeHold is a range whose check waits for its reader's first Next.
type rangeHold struct {
	from, to int64 // the range's lines
	size     int64 // the file's size at Open
	data     *rangeData
	track    bool // the reader notes stop bytes as it parses
}

// holdSection returns the lines of range split fs and its hold when its
// check can be made by its parse: a CSV range of at most holdRangeBytes
// whose check nobody has claimed, no range before it known to be dirty.
// It returns nils otherwise (rangeSection reads it).
func holdSection(f *os.File, fs *FileSplit) (*rangeLines, *rangeHold, error) {
	g := fs.guard
	if g == nil || fs.End-fs.Start > holdRangeBytes || g.ranges[fs.rangeIndex].published() {
		return nil, nil, nil
	}
	for i := 0; i < fs.rangeIndex; i++ {
		c := &g.ranges[i]
		if c.published() && (c.err != nil || c.dirty) {
			return nil, nil, nil
		}
	}
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	h := &rangeHold{size: st.Size()}
	n := int64(len(g.ranges))
	if h.from, err = lineStart(f, g.size*int64(fs.rangeIndex)/n, h.size); err != nil {
		return nil, nil, err
	}
	h.to = h.size
	if fs.rangeIndex < len(g.ranges)-1 {
		if h.to, err = lineStart(f, g.size*int64(fs.rangeIndex+1)/n, h.size); err != nil {
			return nil, nil, err
		}
	}
	if h.data, err = loadRange(f, h.from, h.to); err != nil {
		return nil, nil, err
	}
	return &rangeLines{data: h.data.b, from: h.from, release: h.data.free, mapping: h.data.mapping}, h, nil
}

// hasStop reports whether b holds one of stops.
func hasStop(b, stops []byte) bool {
	for _, c := range stops {
		if bytes.IndexByte(b, c) >= 0 {
			return true
		}
	}
	return false
}

// resolveHold makes the check of the reader's range (by parsing it when
// the check is the reader's to make) and of the ranges before it, and
// sets r.br to what the range gives (see the top of this file).
func (r *fileReader) resolveHold(ctx context.Context) error {
	h := r.hold
	r.hold = nil
	fs := r.split
	g := fs.guard
	c := &g.ranges[fs.rangeIndex]
	mine, done := c.claim()
	if !mine {
		// another reader searched the range first: read it as rangeSection
		// does, with that check
		if err := c.wait(ctx, done); err != nil {
			return err
		}
		r.replaceReader(nil)
		if r.releaseRange != nil {
			r.releaseRange()
			r.releaseRange, r.mapping = nil, nil
		}
		lines, err := rangeSection(ctx, r.f, fs)
		if err != nil {
			return err
		}
		r.replaceReader(r.filtered(lines.reader(r.rangeDec, fs.Path, BatchRows)))
		r.rangeFrom, r.releaseRange, r.mapping = lines.from, lines.release, lines.mapping
		return nil
	}
	published := false
	defer func() {
		if !published {
			// a fault of the mapping (the file truncated) or a panic: the
			// readers waiting for this check fail too
			c.err = fmt.Errorf("file %s changed while it was read (byte range %d)", fs.Path, fs.rangeIndex)
			close(done)
		}
	}()
	c.from, c.to = h.from, h.to
	var held *heldBatches
	if h.track {
		held = holdBatches(ctx, r.br)
		c.dirty = held.err != io.EOF || !r.br.(stopTracker).StopFree()
	} else {
		c.dirty = true
	}
	if c.dirty {
		c.dirty = hasStop(h.data.b, g.stops)
	}
	if testHoldParsed != nil {
		testHoldParsed(fs.rangeIndex)
	}
	published = true
	close(done)

	for j := 0; j < fs.rangeIndex; j++ {
		cj, err := g.check(ctx, j, r.f, h.size, false)
		if err != nil {
			return err
		}
		if cj.err != nil {
			return cj.err
		}
		if cj.dirty {
			// an earlier range's reader reads this range's lines
			r.rangeFrom = max(fs.Start, 1)
			r.replaceReader((&rangeLines{from: r.rangeFrom}).reader(r.rangeDec, fs.Path, BatchRows))
			return nil
		}
	}
	switch {
	case c.dirty:
		// the first range with a stop byte: its first line to the end of
		// the file, read again
		l := &rangeLines{data: h.data.b, from: c.from}
		l.r = io.MultiReader(bytes.NewReader(l.data), io.NewSectionReader(r.f, c.to, max(h.size-c.to, 0)))
		r.replaceReader(r.filtered(l.reader(r.rangeDec, fs.Path, BatchRows)))
	case held != nil:
		r.br = held
	}
	return nil
}

// replaceReader closes r.br and makes br the reader.
func (r *fileReader) replaceReader(br connector.BatchReader) {
	if c, ok := r.br.(io.Closer); ok {
		c.Close()
	}
	r.br = br
}

// filtered gives br the row filter r's first reader took.
func (r *fileReader) filtered(br connector.BatchReader) connector.BatchReader {
	if r.rowFilter != nil {
		if fr, ok := br.(connector.RowFilterReader); ok {
			fr.SetRowFilter(r.rowFilter)
		}
	}
	return br
}

// errReader gives err.
type errReader struct{ err error }

func (e errReader) Next() (*types.Batch, error) { return nil, e.err }
func (e errReader) SkippedRows() int64          { return 0 }

// heldBatches gives the batches read from inner in advance, then the
// error that ended them, with inner's offset and skipped rows as they
// were after each batch (for checkpoints).
type heldBatches struct {
	inner   connector.BatchReader
	batches []*types.Batch
	offs    [][2]int64 // offset and line after each batch
	skipped []int64
	off0    [2]int64
	i       int
	err     error
}

// holdBatches reads br to its end (or error).
func holdBatches(ctx context.Context, br connector.BatchReader) *heldBatches {
	h := &heldBatches{inner: br}
	or, _ := br.(offsetReader)
	if or != nil {
		h.off0[0], h.off0[1] = or.Offset()
	}
	for {
		if err := ctx.Err(); err != nil {
			h.err = err
			break
		}
		b, err := br.Next()
		if err != nil {
			h.err = err
			break
		}
		h.batches = append(h.batches, b)
		var o [2]int64
		if or != nil {
			o[0], o[1] = or.Offset()
		}
		h.offs = append(h.offs, o)
		h.skipped = append(h.skipped, br.SkippedRows())
	}
	return h
}

func (h *heldBatches) Next() (*types.Batch, error) {
	if h.i < len(h.batches) {
		b := h.batches[h.i]
		h.batches[h.i] = nil
		h.i++
		return b, nil
	}
	return nil, h.err
}

func (h *heldBatches) SkippedRows() int64 {
	if h.i == 0 {
		return 0
	}
	if h.i < len(h.batches) {
		return h.skipped[h.i-1]
	}
	return h.inner.SkippedRows()
}

// Offset implements offsetReader: the position after the last batch
// given.
func (h *heldBatches) Offset() (offset, line int64) {
	if h.i == 0 {
		return h.off0[0], h.off0[1]
	}
	if h.i < len(h.batches) {
		return h.offs[h.i-1][0], h.offs[h.i-1][1]
	}
	if or, ok := h.inner.(offsetReader); ok {
		return or.Offset()
	}
	return h.offs[h.i-1][0], h.offs[h.i-1][1]
}

func (h *heldBatches) Close() error {
	if c, ok := h.inner.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
