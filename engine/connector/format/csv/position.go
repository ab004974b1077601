package csv

import (
	"bytes"
	"io"

	"github.com/riffle-sql/riffle/engine/connector"
)

// Resuming a stream at a checkpoint's position (the filesystem source's
// checkpoints): Offset says where the reader stands after a batch, and
// NewReaderAt starts a reader there.

// NewReaderAt starts reading a stream whose reading resumes at byte offset
// of the file, r being positioned there; line is the 1-based line of that
// byte. Both are what Offset of a reader of the same file returned. Errors
// name lines counted from line; at an offset above 0, a byte order mark
// and the header line of csv.ignore-first-line are not looked for (they
// were read before the offset). Offset 0 is the start of the file, as
// NewReader.
func (d *Decoder) NewReaderAt(r io.Reader, name string, maxRows int, offset, line int64) connector.BatchReader {
	rd := d.newReader(r, name, maxRows)
	if offset > 0 {
		rd.base, rd.line, rd.started, rd.records = offset, line, true, 1
	}
	return rd
}

// NewBytesReaderAt is NewReaderAt over the whole rest of a stream held
// in data (bytes.NewReader(data)), parsed where it is rather than copied
// into a read buffer: data must stay unchanged until the reader is done.
// The batches hold copies of the values, never data itself.
func (d *Decoder) NewBytesReaderAt(data []byte, name string, maxRows int, offset, line int64) connector.BatchReader {
	rd := d.newReaderBuf(bytes.NewReader(nil), name, maxRows, data)
	rd.end, rd.eof = len(data), true
	if offset > 0 {
		rd.base, rd.line, rd.started, rd.records = offset, line, true, 1
	}
	return rd
}

// Offset returns the byte offset in the stream of the first byte after
// the last record Next returned (a record boundary: the start of a line)
// and the 1-based line it is on.
func (r *Reader) Offset() (offset, line int64) { return r.base + int64(r.pos), r.line }

// LoneCREndsLine reports that a CR not followed by LF ends a line, as
// LF and CRLF do: the lines the reader counts (the filesystem source
// counts a byte range's earlier lines the same way).
func (d *Decoder) LoneCREndsLine() bool { return true }
