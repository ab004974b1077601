package json

import (
	"io"

	"github.com/riffle-sql/riffle/engine/connector"
)

// Resuming a stream at a checkpoint's position (the filesystem source's
// checkpoints): Offset says where the reader stands after a batch, and
// NewReaderAt starts a reader there.

// NewReaderAt starts reading a JSON Lines stream whose reading resumes at
// byte offset of the file, r being positioned there; line is the 1-based
// line starting at that byte. Both are what Offset of a reader of the same
// file returned; errors name lines counted from line. Offset 0 is the
// start of the file, as NewReader.
func (d *Decoder) NewReaderAt(r io.Reader, name string, maxRows int, offset, line int64) connector.BatchReader {
	rd := d.newReader(r, name, maxRows)
	if offset > 0 {
		rd.base, rd.lineNo = offset, line-1
	}
	return rd
}

// Offset returns the byte offset in the stream of the line after the last
// one Next decoded, and its 1-based line number.
func (r *Reader) Offset() (offset, line int64) { return r.base + int64(r.pos), r.lineNo + 1 }
