package filesystem

import (
	"bytes"
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
)

// Byte ranges of large CSV and JSON files (a Riffle extension: Flink reads
// such a file as one split). In batch mode a file of at least
// 2 × minRangeBytes becomes up to maxRanges splits of equal byte ranges,
// so that the parallel instances of its scan share it. A range [Start,
// End) reads the lines that start inside it: its reader skips to the
// first line start at or after Start (the line break before it included
// in the previous range) and reads up to the first line start at or after
// End. That is right only when every line break ends a record: a file is
// split only when it holds none of the bytes (the quote and escape
// characters) that could put a line break inside a field; one that does
// is read whole, by one reader, as Flink reads every CSV file. The formats
// that can be split say so by implementing connector.LineBreakFormat (csv,
// json); the changelog formats (debezium-json and the like) do not, since
// the changes of one key must be read in the file's order.

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
		return files // one reader: ranges would only add the check below
	}
	lbf, ok := s.format.(connector.LineBreakFormat)
	if !ok {
		return files
	}
	stops, err := lbf.FieldLineBreakBytes(s.fmtOpts)
	if err != nil {
		return files
	}
	// the check runs on as many goroutines as readers will read the ranges
	workers := min(s.config.Parallelism(), runtime.GOMAXPROCS(0))
	var out []connector.Split
	for _, sp := range files {
		fs, ok := sp.(*FileSplit)
		if !ok || fs.Blocks > 0 || fs.End > 0 || fs.Size < 2*minRangeBytes || !holdsNoneOf(fs.Path, fs.Size, stops, workers) {
			out = append(out, sp)
			continue
		}
		n := min(int64(maxRanges), fs.Size/minRangeBytes)
		for i := int64(0); i < n; i++ {
			c := *fs
			c.Start, c.End = fs.Size*i/n, fs.Size*(i+1)/n
			out = append(out, &c)
		}
	}
	return out
}

// holdsNoneOf reports whether the first size bytes of the file at path
// hold none of the bytes in stops (false when it cannot be read). It reads
// the file once, a MiB at a time, with the assembly byte search, on
// workers goroutines that each take an equal share of the file (about
// 20 ms of CPU for 100 MB in the page cache, mostly copying it: split
// between the cores, since no reader starts before the check ends), and
// stops every worker at the first stop byte found.
//
// The answer is not remembered between queries: no file metadata tells
// that a file's bytes are unchanged (a write through a shared writable
// mapping to a page already written keeps the size, both times and the
// inode), and a file split inside a quoted field gives wrong rows or
// errors.
func holdsNoneOf(path string, size int64, stops []byte, workers int) bool {
	if len(stops) == 0 {
		return true
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	return scanHoldsNoneOf(f, size, stops, workers)
}

// scanHoldsNoneOf reads the first size bytes of f, a share on each of
// workers goroutines, and reports whether they hold none of stops.
func scanHoldsNoneOf(f *os.File, size int64, stops []byte, workers int) bool {
	workers = max(1, min(workers, int(size/minRangeBytes)))
	var found atomic.Bool // a stop byte or a read error: the answer is false
	check := func(from, to int64) {
		buf := make([]byte, min(1<<20, to-from))
		for pos := from; pos < to && !found.Load(); {
			n, err := f.ReadAt(buf[:min(int64(len(buf)), to-pos)], pos)
			for _, c := range stops {
				if bytes.IndexByte(buf[:n], c) >= 0 {
					found.Store(true)
					return
				}
			}
			pos += int64(n)
			if n == 0 || (err != nil && !errors.Is(err, io.EOF)) {
				found.Store(true)
				return
			}
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			check(size*int64(w)/int64(workers), size*int64(w+1)/int64(workers))
		}()
	}
	check(0, size/int64(workers))
	wg.Wait()
	return !found.Load()
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
	buf := make([]byte, 64<<10)
	for pos := off - 1; pos < size; {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-pos)], pos)
		if i := bytes.IndexByte(buf[:n], '\n'); i >= 0 {
			return pos + int64(i) + 1, nil
		}
		pos += int64(n)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		if n == 0 {
			break
		}
	}
	return size, nil
}

// rangeSection returns the bytes of a range split's lines: the reader of
// f's section and the offset of its first byte.
func rangeSection(f *os.File, fs *FileSplit) (io.Reader, int64, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	from, err := lineStart(f, fs.Start, st.Size())
	if err != nil {
		return nil, 0, err
	}
	to := st.Size()
	if fs.End < fs.Size {
		if to, err = lineStart(f, fs.End, st.Size()); err != nil {
			return nil, 0, err
		}
	}
	return io.NewSectionReader(f, from, max(to-from, 0)), from, nil
}

// fileLine corrects the line of a data error in a range that does not
// start the file: the reader counted lines from the range's first line.
func fileLine(err error, f io.ReaderAt, from int64) error {
	var de *connector.DataError
	if from <= 0 || !errors.As(err, &de) || de.Line <= 0 {
		return err
	}
	buf := make([]byte, 64<<10)
	var lines int64
	for pos := int64(0); pos < from; {
		n, rerr := f.ReadAt(buf[:min(int64(len(buf)), from-pos)], pos)
		lines += int64(bytes.Count(buf[:n], []byte{'\n'}))
		pos += int64(n)
		if rerr != nil || n == 0 {
			break
		}
	}
	de.Line += lines
	return err
}
