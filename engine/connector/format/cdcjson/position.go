package cdcjson

import (
	"io"

	"github.com/riffle-sql/riffle/engine/connector"
)

// Resuming a file at a checkpoint's position (the filesystem source's
// checkpoints): Offset says where the reader stands after a batch, and
// NewReaderAt starts a reader there. A line's change rows (an update's
// -U and +U) are never split between batches, so a position is always at
// a line's start.

// NewReaderAt starts reading a file of one envelope per line whose
// reading resumes at byte offset, r being positioned there; line is the
// 1-based line starting at that byte. Both are what Offset of a reader of
// the same file returned; errors name lines counted from line. Offset 0
// is the start of the file, as NewReader.
func (l lineDecoder) NewReaderAt(r io.Reader, name string, maxRows int, offset, line int64) connector.BatchReader {
	rd := l.NewReader(r, name, maxRows).(*lineReader)
	if offset > 0 {
		rd.off, rd.line = offset, line-1
	}
	return rd
}

// Offset returns the byte offset of the line after the last one whose
// rows Next returned (the bad line, when Next returned the rows before
// it), and its 1-based line number.
func (r *lineReader) Offset() (offset, line int64) { return r.off, r.line + 1 }
