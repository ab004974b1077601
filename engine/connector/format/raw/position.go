package raw

import (
	"io"

	"github.com/riffle-sql/riffle/engine/connector"
)

// Resuming a file at a checkpoint's position (the filesystem source's
// checkpoints): Offset says where the reader stands after a batch, and
// NewReaderAt starts a reader there.

// NewReaderAt starts reading a file whose reading resumes at byte offset,
// r being positioned there; line is the 1-based line starting at that
// byte. Both are what Offset of a reader of the same file returned; errors
// name lines counted from line. Offset 0 is the start of the file, as
// NewReader.
func (d *fileDecoder) NewReaderAt(r io.Reader, name string, maxRows int, offset, line int64) connector.BatchReader {
	rd := d.NewReader(r, name, maxRows).(*fileReader)
	if offset > 0 {
		rd.off, rd.line = offset, line-1
	}
	return rd
}

// Offset returns the byte offset of the line after the last one Next
// returned, and its 1-based line number.
func (r *fileReader) Offset() (offset, line int64) { return r.off, r.line + 1 }
