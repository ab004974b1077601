package filesystem

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
)

// Byte ranges of large CSV and JSON files (a Riffle extension: Flink reads
// such a file as one split). In batch mode at a parallelism.default above
// 1, a file of at least 2 × minRangeBytes becomes up to maxRanges splits
// of equal byte ranges, so that the parallel instances of its scan share
// it. A range [Start, End) reads the lines that start inside it: its
// reader skips to the first line start at or after Start (the line break
// before it included in the previous range) and reads up to the first
// line start at or after End.
//
// That is right only where every line break ends a record. In a CSV file
// the quote character, and the escape character when one is set, can put
// a line break inside a field, so the ranges of a CSV file share a
// rangeGuard that makes the answer the one of a single reader (Flink's):
// before range k's reader gives any row, the bytes of ranges 0 to k are
// searched for those characters. While all of them are clean, range k's
// lines are its rows. When range k is the first that holds one, its
// reader reads on from its first line to the end of the file, quotes and
// all (that line starts a record: no byte before it can open a quoted
// field), and the readers of the ranges after k give no row. So a file
// with a quote is read by one reader from its first range that holds
// one, the ranges before it in parallel; a file without one is read
// entirely in parallel.
//
// A range's own reader usually makes its check as part of its parse,
// holding its rows until the ranges before it are known clean
// (byte_ranges_hold.go). Otherwise, each range's bytes are mapped (or,
// where mmap(2) is missing or fails, read into a buffer) once for the
// check, by the first reader that needs it; when that is the range's own
// reader (the usual case: the readers
// take the ranges in order and each checks its own as it opens it), it
// parses those bytes, so the check costs a search in memory; a later
// range's reader unmaps them, and the range's reader maps them again (see
// rangeData for a file truncated while mapped). Nothing is read before the readers start (the split listing
// only takes the file's size), and nothing is remembered between
// listings: no file metadata tells that a file's bytes are unchanged (a
// write through a shared writable mapping to a page already written
// keeps the size, both times and the inode), and a file split inside a
// quoted field gives wrong rows or errors.
//
// Errors and limits are one reader's too. The ranges' readers run in any
// order, so the first to meet a data error would name the query's error;
// instead a range's reader that meets one reads the ranges before it
// again (earlierRangeError: they are clean, so each reads alone) and
// reports their first error when they hold one, with its line in the
// file (fileLine counts line breaks as the format's reader does). A read
// with a row limit (a LIMIT pushed into the scan) is one reader's from
// the start of the file in range 0, the other ranges giving no row: the
// first lines, and no error from a line that reader would not reach.
//
// JSON needs no guard (one object per line; a JSON string cannot hold a
// raw line break). The formats that can be split say so by implementing
// connector.LineBreakFormat (csv, json); the changelog formats
// (debezium-json and the like) do not, since the changes of one key must
// be read in the file's order.

const (
	minRangeBytes = 1 << 20
	maxRanges     = 64
)

// splitRanges replaces each CSV or JSON file split that is large enough by byte
// ranges (batch mode only: in streaming mode a file stays one split, so
// that its rows keep their order for watermarks; and only at a
// parallelism.default above 1, where more than one reader runs).
func (src *Source) splitRanges(files []connector.Split) []connector.Split {
	s := src.s
	if s.format == nil || s.config == nil ||
		!strings.EqualFold(s.config.GetString(config.RuntimeMode.Key, "streaming"), "batch") {
		return files
	}
	if s.config.Parallelism() <= 1 {
		return files // one reader: ranges would only add their start-up
	}
	lbf, ok := s.format.(connector.LineBreakFormat)
	if !ok {
		return files
	}
	stops, err := lbf.FieldLineBreakBytes(s.fmtOpts)
	if err != nil {
		return files
	}
	var out []connector.Split
	for _, sp := range files {
		fs, ok := sp.(*FileSplit)
		if !ok || fs.Blocks > 0 || fs.End > 0 || fs.Size < 2*minRangeBytes {
			out = append(out, sp)
			continue
		}
		n := min(int64(maxRanges), fs.Size/minRangeBytes)
		var g *rangeGuard
		if len(stops) > 0 {
			g = &rangeGuard{stops: stops, size: fs.Size, ranges: make([]rangeCheck, n)}
		}
		for i := int64(0); i < n; i++ {
			c := *fs
			c.Start, c.End = fs.Size*i/n, fs.Size*(i+1)/n
			c.rangeIndex, c.ranges, c.guard = int(i), int(n), g
			out = append(out, &c)
		}
	}
	return out
}

// rangeGuard is shared by the byte ranges of one CSV file made by one
// listing: which of them hold a byte that could put a line break inside
// a field (see the top of this file).
type rangeGuard struct {
	stops []byte // the quote and escape characters
	size  int64  // the file's size when listed: Start and End of the ranges
	// ranges[i] is the check of the range with rangeIndex i
	ranges []rangeCheck
}

// rangeCheck is one range's check, made once by the first reader that
// claims it: the range's own reader as part of its parse (rangeHold), or
// a reader that needs it first with a search of its bytes (check).
type rangeCheck struct {
	// done is closed when the fields below are set (made by the claim)
	done     chan struct{}
	from, to int64 // the range's lines: bytes [from, to) of the file
	dirty    bool  // they hold a stop byte
	err      error
	mu       sync.Mutex
	data     *rangeData // bytes [from, to), until the range's reader takes them
}

// claim returns true when the caller is the first to claim the check:
// it sets the fields and then calls publish. Otherwise it returns the
// channel closed when they are set.
func (c *rangeCheck) claim() (bool, chan struct{}) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done == nil {
		c.done = make(chan struct{})
		return true, c.done
	}
	return false, c.done
}

// published returns true when the check is made (without waiting).
func (c *rangeCheck) published() bool {
	c.mu.Lock()
	d := c.done
	c.mu.Unlock()
	if d == nil {
		return false
	}
	select {
	case <-d:
		return true
	default:
		return false
	}
}

// wait waits for the check claimed by another reader: that reader is
// searching the range's bytes or parsing them (and publishes its verdict
// before it waits for anything), so the wait ends.
func (c *rangeCheck) wait(ctx context.Context, done chan struct{}) error {
	select {
	case <-done:
		return nil
	default:
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// rangeData is bytes [from, to) of a file: mapped (mmap(2), read-only,
// where the system has it) or read into a buffer from rangeBufs; free
// unmaps them or gives the buffer back, once.
//
// Mapped, the bytes are the page cache's own: no copy into the process
// (reading a 1.6 MB range took ~0.3 ms of system time, a fifth of a
// core's time over the 106 MB flights file at two threads). A file that
// another process truncates while it is mapped makes a read of a page past
// its new end fault (SIGBUS): the reader's goroutine turns that fault into
// a panic (debug.SetPanicOnFault) that mappedRead recovers as an error
// naming the file, where a read(2) would have given fewer bytes.
type rangeData struct {
	b    []byte
	free func()
	// mapping is the whole mapping b is in (from the page that holds its
	// first byte); nil when b was read
	mapping []byte
}

// rangeBufs holds the buffers of ranges whose readers are done
// (*[]byte), for the next ranges' checks (where ranges are read, not
// mapped).
var rangeBufs sync.Pool

// rangeBuf returns a buffer of n bytes.
func rangeBuf(n int64) *[]byte {
	if p, ok := rangeBufs.Get().(*[]byte); ok && int64(cap(*p)) >= n {
		*p = (*p)[:n]
		return p
	}
	b := make([]byte, n, n+n/8) // later ranges end a few bytes further
	return &b
}

// loadRange returns bytes [from, to) of f, mapped when it can be, else
// read (a file system or file that cannot be mapped, an empty range).
func loadRange(f *os.File, from, to int64) (*rangeData, error) {
	if to > from && !noRangeMap {
		if d, err := mapRange(f, from, to); err == nil {
			return d, nil
		}
	}
	return readRange(f, from, to)
}

// noRangeMap turns mapping off (tests compare both ways).
var noRangeMap bool

// testCheckWait, when set, is called by a reader about to take range i's
// check from the reader making it; testHoldParsed by range i's reader
// after its parse, before it publishes its check (tests order readers).
var testCheckWait, testHoldParsed func(i int)

// mappedRead runs read, which reads the mapped bytes mapping, and returns
// the fault of a page of mapping that the file no longer has (another
// process truncated it) as an error naming path; any other panic goes on.
func mappedRead(path string, mapping []byte, read func() error) (err error) {
	return mappedReadOf(path, &mapping, read)
}

// mappedReadOf is mappedRead of the bytes *mapping holds when read
// faults: read may map them anew (a held range's reader that maps its
// range again, byte_ranges_hold.go).
func mappedReadOf(path string, mappingOf *[]byte, read func() error) (err error) {
	old := debug.SetPanicOnFault(true)
	defer func() {
		debug.SetPanicOnFault(old)
		if r := recover(); r != nil {
			mapping := *mappingOf
			if a, ok := r.(interface{ Addr() uintptr }); ok && len(mapping) > 0 {
				base := uintptr(unsafe.Pointer(unsafe.SliceData(mapping)))
				if at := a.Addr(); at >= base && at-base < uintptr(len(mapping)) {
					err = fmt.Errorf("file %s changed while it was read: it no longer has byte %d of the part being read", path, at-base)
					return
				}
			}
			panic(r)
		}
	}()
	return read()
}

// check returns range i's check, reading and searching its bytes with f
// (the file, size bytes long now) when no reader has yet. With own set
// (range i's own reader) the bytes are kept for take; the reader of a
// later range gives them back at once: without a shared split list (a
// checkpointed batch job) each instance lists the splits itself, and the
// ranges of another instance would hold their bytes to the end.
func (g *rangeGuard) check(ctx context.Context, i int, f *os.File, size int64, own bool) (*rangeCheck, error) {
	c := &g.ranges[i]
	mine, done := c.claim()
	if !mine {
		if testCheckWait != nil {
			testCheckWait(i)
		}
		return c, c.wait(ctx, done)
	}
	defer close(done)
	func() {
		n := int64(len(g.ranges))
		if c.from, c.err = lineStart(f, g.size*int64(i)/n, size); c.err != nil {
			return
		}
		c.to = size
		if i < len(g.ranges)-1 {
			if c.to, c.err = lineStart(f, g.size*int64(i+1)/n, size); c.err != nil {
				return
			}
		}
		if c.data, c.err = loadRange(f, c.from, c.to); c.err != nil {
			return
		}
		c.err = mappedRead(f.Name(), c.data.mapping, func() error {
			c.dirty = hasStop(c.data.b, g.stops)
			return nil
		})
		if !own || c.err != nil {
			c.data.free()
			c.data = nil
		}
	}()
	return c, nil
}

// take hands the range's bytes to its reader: nil when it had them
// already (a split opened again reads them again).
func (c *rangeCheck) take() *rangeData {
	c.mu.Lock()
	defer c.mu.Unlock()
	d := c.data
	c.data = nil
	return d
}

// readRange reads bytes [from, to) of f into a buffer from rangeBufs
// (fewer when the file has become shorter).
func readRange(f *os.File, from, to int64) (*rangeData, error) {
	p := rangeBuf(max(to-from, 0))
	n, err := f.ReadAt(*p, from)
	if err != nil && !errors.Is(err, io.EOF) {
		rangeBufs.Put(p)
		return nil, err
	}
	*p = (*p)[:n]
	return &rangeData{b: *p, free: func() { rangeBufs.Put(p) }}, nil
}

// lineStart returns the offset of the first line that starts at or after
// off: off itself at 0 or after a line break, else the byte after the
// next line break (size when there is none).
func lineStart(f io.ReaderAt, off, size int64) (int64, error) {
	if off <= 0 {
		return 0, nil
	}
	if off >= size {
		return size, nil
	}
	buf := make([]byte, 512) // a few lines; doubled up to 64 KiB for long ones
	for pos := off - 1; pos < size; {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-pos)], pos)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return pos + int64(i) + 1, nil
		}
		pos += int64(n)
		if len(buf) < 64<<10 {
			buf = make([]byte, 2*len(buf))
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if n == 0 {
			break
		}
	}
	return size, nil
}

// rangeLines is what a range split's reader reads: its lines, from
// offset from of the file, either held in data (a CSV range read whole by
// its check) or read from r; release, when set, gives data's buffer back
// once the reader is done.
type rangeLines struct {
	data    []byte
	r       io.Reader
	from    int64
	release func()
	mapping []byte // data's mapping (nil when read): read it through mappedRead
}

// bytesDecoder is implemented by a Decoder that parses bytes held in
// memory where they are (csv): NewReaderAt over bytes.NewReader(data)
// without the copy into a read buffer.
type bytesDecoder interface {
	NewBytesReaderAt(data []byte, name string, maxRows int, offset, line int64) connector.BatchReader
}

// reader returns l's lines' reader from dec (a resumableDecoder).
func (l *rangeLines) reader(dec resumableDecoder, name string, maxRows int) connector.BatchReader {
	if l.r == nil {
		if bd, ok := dec.(bytesDecoder); ok {
			return bd.NewBytesReaderAt(l.data, name, maxRows, l.from, 1)
		}
		l.r = bytes.NewReader(l.data)
	}
	return dec.NewReaderAt(l.r, name, maxRows, l.from, 1)
}

// rangeSection returns the lines of a range split. For a range of a CSV
// file (fs.guard set) they are the rows a single reader gives (see the
// top of this file): the range's lines while it and every range before it
// are clean; from its first line to the end of the file when it is the
// first that is not; no line after that.
func rangeSection(ctx context.Context, f *os.File, fs *FileSplit) (*rangeLines, error) {
	b, err := rangeBoundsOf(ctx, f, fs, true)
	if err != nil {
		return nil, err
	}
	switch {
	case b.none:
		// an earlier range's reader reads this range's lines
		return &rangeLines{from: b.from}, nil
	case b.check == nil:
		return &rangeLines{r: io.NewSectionReader(f, b.from, max(b.to-b.from, 0)), from: b.from}, nil
	}
	c := b.check
	data := c.take()
	if data == nil {
		if data, err = loadRange(f, c.from, c.to); err != nil {
			return nil, err
		}
	}
	l := &rangeLines{data: data.b, from: c.from, release: data.free, mapping: data.mapping}
	if c.dirty {
		l.r = io.MultiReader(bytes.NewReader(l.data), io.NewSectionReader(f, c.to, max(b.size-c.to, 0)))
	}
	return l, nil
}

// sameFileAsListed returns an error when f, opened for byte range split
// fs, is not the file its listing saw at fs.Path (another file renamed
// over the path since): the ranges of one file each open its path, and
// would otherwise read some lines of one file and the rest of another.
// Splits that are not ranges, and ranges made from a checkpoint, pass.
func sameFileAsListed(f *os.File, fs *FileSplit) error {
	if fs.End <= 0 || fs.listed == nil {
		return nil
	}
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if !os.SameFile(fs.listed, st) {
		return fmt.Errorf("file %s: another file was put at its path while the query read it in byte ranges (listed %d bytes, modified %s; now %d bytes, modified %s); run the query again",
			fs.Path, fs.listed.Size(), fs.listed.ModTime().Format(time.RFC3339Nano), st.Size(), st.ModTime().Format(time.RFC3339Nano))
	}
	return nil
}

// rangeBounds are the lines of a range split that its reader reads
// (rangeBoundsOf).
type rangeBounds struct {
	from, to int64 // the range's lines [from, to): its first line is line 1 of its reader
	size     int64 // the file's size now
	// check is the range's own check (nil for a file without a guard);
	// when it is dirty, to is the file's end
	check *rangeCheck
	// none: an earlier range holds a quote or escape byte, and its
	// reader reads this range's lines
	none bool
}

// rangeBoundsOf finds the lines of range split fs of f: for a range of a
// CSV file (fs.guard set) the ranges before it are checked first, and
// its own check is made with own as in rangeGuard.check.
func rangeBoundsOf(ctx context.Context, f *os.File, fs *FileSplit, own bool) (rangeBounds, error) {
	st, err := f.Stat()
	if err != nil {
		return rangeBounds{}, err
	}
	b := rangeBounds{size: st.Size()}
	g := fs.guard
	if g == nil {
		if b.from, err = lineStart(f, fs.Start, b.size); err != nil {
			return b, err
		}
		b.to = b.size
		if fs.End < fs.Size {
			if b.to, err = lineStart(f, fs.End, b.size); err != nil {
				return b, err
			}
		}
		return b, nil
	}
	for i := 0; i < fs.rangeIndex; i++ {
		c, err := g.check(ctx, i, f, b.size, false)
		if err != nil {
			return b, err
		}
		if c.err != nil {
			return b, c.err
		}
		if c.dirty {
			b.from, b.none = max(fs.Start, 1), true
			return b, nil
		}
	}
	c, err := g.check(ctx, fs.rangeIndex, f, b.size, own)
	if err != nil {
		return b, err
	}
	if c.err != nil {
		return b, c.err
	}
	b.check, b.from, b.to = c, c.from, c.to
	if c.dirty {
		b.to = b.size
	}
	return b, nil
}

// resumedRange returns the reader of byte range split fs resumed at a
// checkpoint's offset and line (what its reader's Offset returned): the
// rows its reader would have given after that offset (rangeSection),
// that is the rest of the range's lines, to the end of the file when the
// range is the first that holds a quote or escape byte, none when an
// earlier range is; and from, the offset of the range's first line,
// where its lines are counted from 1 (fileLine).
func resumedRange(ctx context.Context, f *os.File, fs *FileSplit, dec resumableDecoder, maxRows int, offset, line int64) (br connector.BatchReader, from int64, err error) {
	b, err := rangeBoundsOf(ctx, f, fs, false)
	if err != nil {
		return nil, 0, err
	}
	if b.none {
		// an earlier range's reader reads this range's lines
		return (&rangeLines{from: b.from}).reader(dec, fs.Path, maxRows), b.from, nil
	}
	if offset < b.from || offset > b.to {
		return nil, 0, fmt.Errorf("file %s: the checkpoint's offset %d is outside its range's lines [%d, %d)", fs.Path, offset, b.from, b.to)
	}
	return dec.NewReaderAt(io.NewSectionReader(f, offset, b.to-offset), fs.Path, maxRows, offset, line), b.from, nil
}

// fileLine corrects the line of a data error in a range that does not
// start the file: the reader counted lines from the range's first line.
// loneCR says that the format's lines also end at a CR not followed by
// LF (csv: LF, CRLF and a lone CR each end a line), as its reader counts
// them; else only LF ends a line (json).
func fileLine(err error, f io.ReaderAt, from int64, loneCR bool) error {
	var de *connector.DataError
	if from <= 0 || !errors.As(err, &de) || de.Line <= 0 {
		return err
	}
	lines, lerr := linesBefore(f, from, loneCR)
	if lerr != nil {
		return err
	}
	de.Line += lines
	return err
}

// linesBefore counts the line breaks in bytes [0, from) of f (see
// fileLine for loneCR). A CRLF split between two reads is one break.
func linesBefore(f io.ReaderAt, from int64, loneCR bool) (int64, error) {
	buf := make([]byte, 64<<10)
	var lines int64
	prevCR := false
	for pos := int64(0); pos < from; {
		n, rerr := f.ReadAt(buf[:min(int64(len(buf)), from-pos)], pos)
		b := buf[:n]
		lines += int64(bytes.Count(b, []byte{'\n'}))
		if loneCR && n > 0 {
			// every CR is a break, less those followed by LF (counted as LF)
			lines += int64(bytes.Count(b, []byte{'\r'})) - int64(bytes.Count(b, []byte("\r\n")))
			if prevCR && b[0] == '\n' {
				lines--
			}
			prevCR = b[n-1] == '\r'
		}
		pos += int64(n)
		if n == 0 || (rerr != nil && !errors.Is(rerr, io.EOF)) {
			return lines, rerr
		}
		if rerr != nil {
			break
		}
	}
	return lines, nil
}

// loneCRDecoder is implemented by a decoder whose reader also ends a line
// at a lone CR (csv), for fileLine.
type loneCRDecoder interface {
	LoneCREndsLine() bool
}

// earlierRangeError returns the first data error of the ranges before
// range fs.rangeIndex of its file, nil when they read without one: the
// error a single reader reports first, which a later range's reader
// reports instead of its own (the ranges' readers run in any order, and
// the first to fail would otherwise name the query's error). Ranges
// before a range that gives rows are clean (their lines are records), so
// each is read alone by open(from, to) (a reader of bytes [from, to) of
// f, counting lines from 1 at from).
func earlierRangeError(ctx context.Context, f *os.File, fs *FileSplit, open func(from, to int64) connector.BatchReader, loneCR bool) error {
	st, err := f.Stat()
	if err != nil || fs.ranges <= 0 {
		return nil
	}
	size, n := st.Size(), int64(fs.ranges)
	for j := int64(0); j < int64(fs.rangeIndex); j++ {
		from, err := lineStart(f, fs.Size*j/n, size)
		if err != nil {
			return nil
		}
		to, err := lineStart(f, fs.Size*(j+1)/n, size)
		if err != nil {
			return nil
		}
		br := open(from, to)
		for ctx.Err() == nil {
			_, err = br.Next()
			if err != nil {
				break
			}
		}
		if c, ok := br.(io.Closer); ok {
			c.Close()
		}
		var de *connector.DataError
		if errors.As(err, &de) {
			return fileLine(err, f, from, loneCR)
		}
		if ctx.Err() != nil {
			return nil
		}
	}
	return nil
}
