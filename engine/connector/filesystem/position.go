package filesystem

import (
	"context"
	"encoding/json"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"sort"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
)

// Checkpoints (connector.PositionReader, connector.ResumableSource).
//
// A file split's position says where its reader stands and which file it
// read:
//
//   - Line formats (csv, json, raw, debezium-json, canal-json,
//     maxwell-json: decoders with NewReaderAt) save the byte offset of the
//     next unread line and its line number. A resumed reader seeks there and
//     goes on counting lines from it, so an error after the resume names the
//     same line as it would have without the interruption.
//   - Other formats (avro, parquet: no line boundaries) save the rows read;
//     a resumed reader reads the file (or the row group of its split) from
//     its start again and drops that many rows.
//
// Either way the position also holds the rows read (for a LIMIT pushed into
// the source) and the file's identity when the position was taken: its
// size, its modification time and a CRC-32 of its first 4 KiB. Resuming a
// file that is shorter than the saved offset ("truncated"), or whose size,
// modification time or first bytes differ ("changed since the
// checkpoint"), is an error naming the file: a replaced file is never read
// from a stale offset. A FIFO or device has no position (Position fails).
// The source reads no compressed files, so none has to be resumed.
//
// With source.monitor-interval, the monitoring split's position lists the
// files already read to their end, and the position of the file being
// read; a resumed monitor reads that file on from its position, never reads
// the listed files again, and reads every other file it finds (the files
// found but not yet opened before the checkpoint among them).

// positionVersion is the version of the position encoding (JSON).
const positionVersion = 1

// headSize is the number of a file's first bytes whose checksum the
// position keeps.
const headSize = 4096

// position is a split's saved position: one of File and Monitor is set.
type position struct {
	Version int              `json:"version"`
	File    *filePosition    `json:"file,omitempty"`
	Monitor *monitorPosition `json:"monitor,omitempty"`
}

// filePosition is the position of a file split.
type filePosition struct {
	Path string `json:"path"`
	// Block and Blocks are the split's row group (FileSplit).
	Block  int `json:"block,omitempty"`
	Blocks int `json:"blocks,omitempty"`
	// ByOffset: the reader resumes at Offset (bytes) on Line (1-based);
	// otherwise it skips Rows rows from the start.
	ByOffset bool  `json:"by_offset,omitempty"`
	Offset   int64 `json:"offset,omitempty"`
	Line     int64 `json:"line,omitempty"`
	// Rows is the number of rows the reader returned.
	Rows int64 `json:"rows"`
	// Size, ModTime (Unix nanoseconds), HeadLen and HeadCRC identify the
	// file: its size and modification time when the position was taken,
	// and the CRC-32 (IEEE) of its first HeadLen bytes.
	Size    int64  `json:"size"`
	ModTime int64  `json:"mod_time"`
	HeadLen int    `json:"head_len"`
	HeadCRC uint32 `json:"head_crc"`
}

// monitorPosition is the position of a monitoring split.
type monitorPosition struct {
	Path string `json:"path"`
	// Read lists the files read to their end, sorted.
	Read []string `json:"read"`
	// Current is the position of the file being read, if any.
	Current *filePosition `json:"current,omitempty"`
	// RestBlocks are the blocks (row groups) of Current's file still to
	// read after its split, when the file is split by blocks.
	RestBlocks []int `json:"rest_blocks,omitempty"`
}

// resumableDecoder is implemented by a Decoder of a line format (csv,
// json, raw, the cdcjson formats): it starts reading in the middle of a
// file, at a position its reader's Offset returned.
type resumableDecoder interface {
	NewReaderAt(r io.Reader, name string, maxRows int, offset, line int64) connector.BatchReader
}

// offsetReader is implemented by the BatchReader of a resumableDecoder:
// the byte offset and line of the next unread line.
type offsetReader interface {
	Offset() (offset, line int64)
}

// fileHead is the checksum of a file's first bytes.
type fileHead struct {
	n   int
	crc uint32
}

// readHead computes the checksum of f's first headSize bytes (fewer in a
// shorter file). It reads with ReadAt, leaving f's offset alone.
func readHead(f *os.File, size int64) (*fileHead, error) {
	n := int64(headSize)
	if size < n {
		n = size
	}
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, 0); err != nil && err != io.EOF {
		return nil, err
	}
	return &fileHead{n: int(n), crc: crc32.ChecksumIEEE(buf)}, nil
}

// filePosition returns the reader's position.
func (r *fileReader) filePosition() (*filePosition, error) {
	if r.closed {
		return nil, fmt.Errorf("file %s: the reader is closed; its position is gone", r.split.Path)
	}
	st, err := r.f.Stat()
	if err != nil {
		return nil, fmt.Errorf("file %s: %w", r.split.Path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, fmt.Errorf("file %s is not a regular file (a FIFO or a device): its position cannot be saved in a checkpoint", r.split.Path)
	}
	if r.head == nil {
		if r.head, err = readHead(r.f, st.Size()); err != nil {
			return nil, fmt.Errorf("file %s: %w", r.split.Path, err)
		}
	}
	p := &filePosition{Path: r.split.Path, Block: r.split.Block, Blocks: r.split.Blocks, Rows: r.read,
		Size: st.Size(), ModTime: st.ModTime().UnixNano(), HeadLen: r.head.n, HeadCRC: r.head.crc}
	if or, ok := r.br.(offsetReader); ok {
		p.ByOffset = true
		p.Offset, p.Line = or.Offset()
	}
	return p, nil
}

// Position returns the file's position after the last batch Next
// returned (JSON; see the top of position.go).
func (r *fileReader) Position() ([]byte, error) {
	p, err := r.filePosition()
	if err != nil {
		return nil, err
	}
	return json.Marshal(position{Version: positionVersion, File: p})
}

// Position returns the monitoring split's position: the files read and
// the position of the file being read.
func (r *monitorReader) Position() ([]byte, error) {
	m := &monitorPosition{Path: r.split.Path, Read: []string{}}
	skip := map[string]bool{}
	for _, sp := range r.pending {
		skip[sp.(*FileSplit).Path] = true
	}
	if r.cur != nil {
		fr, ok := r.cur.(*fileReader)
		if !ok {
			return nil, fmt.Errorf("monitoring %s: the reader of the current file has no position", r.split.Path)
		}
		p, err := fr.filePosition()
		if err != nil {
			return nil, fmt.Errorf("monitoring %s: %w", r.split.Path, err)
		}
		m.Current = p
		skip[p.Path] = true
		for _, sp := range r.pending {
			if fs := sp.(*FileSplit); fs.Path == p.Path {
				m.RestBlocks = append(m.RestBlocks, fs.Block)
			}
		}
	}
	for p := range r.seen {
		if !skip[p] {
			m.Read = append(m.Read, p)
		}
	}
	sort.Strings(m.Read)
	return json.Marshal(position{Version: positionVersion, Monitor: m})
}

// resumeAt is how a checked position is resumed: dec is the decoder to
// resume at the offset (nil: skip rows), head the file's checksum.
type resumeAt struct {
	dec  resumableDecoder
	head *fileHead
}

// positionError is an error about a position that does not fit its split.
func (src *Source) positionError(split connector.Split, format string, args ...any) error {
	return fmt.Errorf("table %s: split %s: cannot resume at the checkpoint's position: %s", src.s.table, split, fmt.Sprintf(format, args...))
}

// checkPosition checks that f, opened for fsplit, is the file pos was
// taken of, and says how to resume it.
func (src *Source) checkPosition(f *os.File, fsplit *FileSplit, dec connector.Decoder, pos *filePosition) (*resumeAt, error) {
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", src.s.table, err)
	}
	if !st.Mode().IsRegular() {
		return nil, src.positionError(fsplit, "file %s is not a regular file", fsplit.Path)
	}
	if pos.Offset < 0 || pos.Rows < 0 || pos.Line < 0 || (pos.ByOffset && pos.Offset > 0 && pos.Line < 1) {
		return nil, src.positionError(fsplit, "the position is corrupt (offset %d, line %d, rows %d)", pos.Offset, pos.Line, pos.Rows)
	}
	if pos.ByOffset && st.Size() < pos.Offset {
		return nil, src.positionError(fsplit, "file %s is %d bytes, shorter than the checkpoint's offset %d (line %d): it was truncated or replaced since the checkpoint",
			fsplit.Path, st.Size(), pos.Offset, pos.Line)
	}
	if st.Size() != pos.Size || st.ModTime().UnixNano() != pos.ModTime {
		return nil, src.positionError(fsplit, "file %s changed since the checkpoint (size %d → %d bytes, modified %s → %s)",
			fsplit.Path, pos.Size, st.Size(), stamp(pos.ModTime), stamp(st.ModTime().UnixNano()))
	}
	head, err := readHead(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("table %s: file %s: %w", src.s.table, fsplit.Path, err)
	}
	if head.n != pos.HeadLen || head.crc != pos.HeadCRC {
		return nil, src.positionError(fsplit, "file %s changed since the checkpoint (its first %d bytes differ)", fsplit.Path, head.n)
	}
	res := &resumeAt{head: head}
	if pos.ByOffset {
		rd, ok := dec.(resumableDecoder)
		if !ok {
			return nil, src.positionError(fsplit, "the position is a byte offset, but format '%s' cannot resume at one", src.s.formatID)
		}
		if _, err := f.Seek(pos.Offset, io.SeekStart); err != nil {
			return nil, fmt.Errorf("table %s: file %s: %w", src.s.table, fsplit.Path, err)
		}
		res.dec = rd
	}
	return res, nil
}

func stamp(unixNanos int64) string {
	return time.Unix(0, unixNanos).UTC().Format("2006-01-02 15:04:05.000000000Z")
}

// decodePosition decodes a position and checks its version.
func (src *Source) decodePosition(split connector.Split, pos []byte) (*position, error) {
	var p position
	if err := json.Unmarshal(pos, &p); err != nil {
		return nil, src.positionError(split, "the position is corrupt (%v)", err)
	}
	if p.Version != positionVersion {
		return nil, src.positionError(split, "the position has version %d; this program reads version %d", p.Version, positionVersion)
	}
	return &p, nil
}

// OpenAt opens split at pos, a position its reader's Position returned
// (see the top of position.go). A position that does not decode, is of
// another split, or whose file changed since (shorter than the offset, or
// another size, modification time or first bytes) is an error naming the
// split and the file.
func (src *Source) OpenAt(ctx context.Context, split connector.Split, spec connector.ReadSpec, pos []byte) (connector.Reader, error) {
	p, err := src.decodePosition(split, pos)
	if err != nil {
		return nil, err
	}
	switch sp := split.(type) {
	case *FileSplit:
		fp := p.File
		if fp == nil {
			return nil, src.positionError(split, "the position is not a file's")
		}
		if fp.Path != sp.Path || fp.Block != sp.Block || fp.Blocks != sp.Blocks {
			return nil, src.positionError(split, "the position is of split %s", (&FileSplit{Path: fp.Path, Block: fp.Block, Blocks: fp.Blocks}).String())
		}
		return src.openFile(ctx, sp, spec, fp)
	case *MonitorSplit:
		mp := p.Monitor
		if mp == nil {
			return nil, src.positionError(split, "the position is not a monitored path's")
		}
		if mp.Path != sp.Path {
			return nil, src.positionError(split, "the position is of the monitored path %s", mp.Path)
		}
		return src.openMonitorAt(ctx, sp, spec, mp)
	}
	return nil, fmt.Errorf("filesystem: unexpected split %T", split)
}

// openMonitorAt resumes a monitoring split: the listed files are read
// already, the current one goes on at its position.
func (src *Source) openMonitorAt(ctx context.Context, m *MonitorSplit, spec connector.ReadSpec, mp *monitorPosition) (connector.Reader, error) {
	r := src.openMonitor(m, spec).(*monitorReader)
	for _, p := range mp.Read {
		r.seen[p] = true
	}
	if c := mp.Current; c != nil {
		st, err := os.Stat(c.Path)
		if err != nil {
			return nil, src.positionError(m, "file %s of the checkpoint: %v", c.Path, err)
		}
		fs := &FileSplit{Path: c.Path, Size: st.Size(), ModTime: st.ModTime(), Block: c.Block, Blocks: c.Blocks}
		if len(src.s.partKeys) > 0 {
			spec, ok := partitionSpec(src.s.path, c.Path, src.s.partKeys)
			if !ok {
				return nil, src.positionError(m, "file %s of the checkpoint is not in a partition directory", c.Path)
			}
			fs.Partition = spec
		}
		rd, err := src.openFile(ctx, fs, spec, c)
		if err != nil {
			return nil, err
		}
		r.cur = rd
		r.seen[c.Path] = true
		for _, b := range mp.RestBlocks {
			rest := *fs
			rest.Block = b
			r.pending = append(r.pending, &rest)
		}
	}
	return r, nil
}

var (
	_ connector.PositionReader  = (*fileReader)(nil)
	_ connector.PositionReader  = (*monitorReader)(nil)
	_ connector.ResumableSource = (*Source)(nil)
	_ connector.ResumableSource = (*FilteringSource)(nil)
)
