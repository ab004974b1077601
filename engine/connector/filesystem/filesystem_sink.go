package filesystem

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// CreateSink creates a sink writing part files under the table's path.
func (Factory) CreateSink(ctx *connector.Context) (connector.Sink, error) {
	s, err := parse(ctx)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(s.path); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("table %s: path '%s' is a file; the filesystem sink writes a directory of part files there (as Flink does), so point 'path' at a directory", ctx.Table, s.path)
	}
	if _, err := s.format.CreateEncoder(&connector.FormatContext{Table: s.table, Names: s.dataNames, Types: s.dataTypes,
		AllNames: s.dataNames, AllTypes: s.dataTypes, Options: s.fmtOpts, Config: s.config}); err != nil {
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	return &Sink{s: s, uuid: newUUID()}, nil
}

// Sink writes part files; see the package documentation.
type Sink struct {
	s    *settings
	uuid string

	mu        sync.Mutex
	snapshot  []string // visible files before an INSERT OVERWRITE
	snapTaken bool
	cleared   map[string]bool // partition directories already cleared
	parts     map[int]int     // the next part number of each writer index
	// partCommits are the partitions of checkpoints being committed
	partCommits map[int64]*partitionCommit
}

// Parallelism is the sink.parallelism option (0 when unset): the number of
// writers the runtime should open.
func (k *Sink) Parallelism() int { return k.s.sinkPar }

// ChangelogMode is insert-only whatever is requested.
func (k *Sink) ChangelogMode(types.ChangelogMode) types.ChangelogMode { return types.InsertOnlyMode }

// Open starts writer number index. spec.Names must be the table's
// physical columns (partition columns included); spec.StaticPartitions
// are INSERT ... PARTITION (k='v') values.
// CheckOverwrite accepts INSERT OVERWRITE in batch mode only, as Flink's
// FileSystemTableSink does (its streaming writer cannot replace files).
func (k *Sink) CheckOverwrite(batch bool) error {
	if !batch {
		return errors.New("Streaming mode not support overwrite.")
	}
	return nil
}

func (k *Sink) Open(ctx context.Context, spec connector.WriteSpec, index int) (connector.Writer, error) {
	s := k.s
	for key := range spec.StaticPartitions {
		found := false
		for _, pk := range s.partKeys {
			found = found || pk == key
		}
		if !found {
			return nil, fmt.Errorf("table %s: '%s' in PARTITION (...) is not a partition column", s.table, key)
		}
	}
	if err := os.MkdirAll(s.path, 0o755); err != nil {
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	if spec.Overwrite {
		k.mu.Lock()
		if !k.snapTaken {
			k.snapTaken = true
			files, err := listFiles(s.path, nil)
			if err != nil {
				k.mu.Unlock()
				return nil, err
			}
			for _, f := range files {
				k.snapshot = append(k.snapshot, f.Path)
			}
		}
		k.mu.Unlock()
	}
	w := &writer{k: k, index: index, overwrite: spec.Overwrite, now: time.Now, parts: map[string]*partWriter{}, static: spec.StaticPartitions}
	// Map the written columns to stored and partition columns by name.
	w.partCol = make([]int, len(s.partKeys))
	for i := range w.partCol {
		w.partCol[i] = -1
	}
	var dataNames []string
	var dataTypes []*types.DataType
	for c, n := range spec.Names {
		isPart := false
		for i, pk := range s.partKeys {
			if pk == n {
				w.partCol[i], isPart = c, true
			}
		}
		if !isPart {
			w.dataCol = append(w.dataCol, c)
			dataNames = append(dataNames, n)
			dataTypes = append(dataTypes, spec.Types[c])
		}
	}
	for i, c := range w.partCol {
		if c < 0 {
			if _, ok := spec.StaticPartitions[s.partKeys[i]]; !ok {
				return nil, fmt.Errorf("table %s: the written columns lack partition column '%s'", s.table, s.partKeys[i])
			}
		}
	}
	w.types = spec.Types
	enc, err := s.format.CreateEncoder(&connector.FormatContext{Table: s.table, Names: dataNames, Types: dataTypes,
		AllNames: dataNames, AllTypes: dataTypes, Options: s.fmtOpts, Config: s.config})
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", s.table, err)
	}
	w.enc = enc
	w.dataTypes = dataTypes
	if spec.Overwrite && len(s.partKeys) > 0 && len(spec.StaticPartitions) == len(s.partKeys) {
		// A fully static partition is replaced even when no row arrives.
		w.touched = map[string]bool{w.partitionDir(nil, 0): true}
	}
	return w, nil
}

// clearOld deletes the files an INSERT OVERWRITE replaces: all of them for
// an unpartitioned table, else those in the given partition directories.
func (k *Sink) clearOld(dirs map[string]bool) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.cleared == nil {
		k.cleared = map[string]bool{}
	}
	partitioned := len(k.s.partKeys) > 0
	if !partitioned {
		if k.cleared[""] {
			return nil
		}
		k.cleared[""] = true
	}
	for _, p := range k.snapshot {
		dir := filepath.Dir(p)
		if partitioned && (!dirs[dir] || k.cleared[dir]) {
			continue
		}
		if err := os.Remove(p); err != nil && !os.IsNotExist(err) {
			return err
		}
	}
	for d := range dirs {
		k.cleared[d] = true
	}
	return nil
}

// part is one file written by a writer.
type part struct {
	tmp, final string
	prepared   bool // in a checkpoint's committable: kept by Abort
}

// countingWriter counts the bytes written to a file.
type countingWriter struct {
	f *os.File
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.f.Write(p)
	c.n += int64(n)
	return n, err
}

// partWriter is the open part file of one partition directory.
type partWriter struct {
	dir    string
	cur    *countingWriter
	bw     connector.BatchWriter
	opened time.Time
	// written is the time of the last write (inactivity-interval)
	written time.Time
}

type writer struct {
	k         *Sink
	enc       connector.Encoder
	index     int
	overwrite bool
	now       func() time.Time
	static    map[string]string

	types     []*types.DataType
	partCol   []int // written column of each partition key, -1 if static
	dataCol   []int // written columns stored in the files
	dataTypes []*types.DataType

	parts   map[string]*partWriter
	files   []part
	touched map[string]bool
	done    bool
	ckpt    commitState // filesystem_sink_commit.go
}

// partitionDir is the directory of row i ("" columns: static only).
func (w *writer) partitionDir(b *types.Batch, i int) string {
	s := w.k.s
	if len(s.partKeys) == 0 {
		return s.path
	}
	segs := make([]string, len(s.partKeys))
	for j, key := range s.partKeys {
		var v string
		if sv, ok := w.static[key]; ok {
			v = sv
			if v == "" {
				v = s.defaultPart
			}
		} else {
			c := w.partCol[j]
			t := w.types[c]
			v = partitionString(types.ValueAt(b.Cols[c], i, t), t, s.defaultPart)
		}
		segs[j] = escapePathName(key) + "=" + escapePathName(v)
	}
	return filepath.Join(append([]string{s.path}, segs...)...)
}

func (w *writer) open(dir string) (*partWriter, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	name := fmt.Sprintf("part-%s-%d-%d", w.k.uuid, w.index, w.k.nextPart(w.index))
	p := part{tmp: filepath.Join(dir, "."+name+".inprogress"), final: filepath.Join(dir, name)}
	f, err := os.OpenFile(p.tmp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	w.files = append(w.files, p)
	cw := &countingWriter{f: f}
	now := w.now()
	if w.ckpt.tickStart.IsZero() {
		w.ckpt.tickStart = now // time-based rolling is checked from the first file on
	}
	return &partWriter{dir: dir, cur: cw, bw: w.enc.NewWriter(cw), opened: now, written: now}, nil
}

func (pw *partWriter) close() error {
	if pw.cur == nil {
		return nil
	}
	err := pw.bw.Flush()
	if cbw, ok := pw.bw.(connector.ClosingBatchWriter); ok && err == nil {
		// The format finishes the file (Parquet's footer) before commit.
		err = cbw.Close()
	}
	if cerr := pw.cur.f.Close(); err == nil {
		err = cerr
	}
	pw.cur, pw.bw = nil, nil
	return err
}

// write appends the stored columns of b to the partition directory's part
// file, rolling by size, age and inactivity.
func (w *writer) write(dir string, b *types.Batch) error {
	pw := w.parts[dir]
	if pw != nil && w.timeToRoll(pw, w.now()) {
		if err := pw.close(); err != nil {
			return err
		}
		delete(w.parts, dir)
		pw = nil
	}
	if pw == nil {
		var err error
		if pw, err = w.open(dir); err != nil {
			return err
		}
		w.parts[dir] = pw
	}
	if err := pw.bw.Write(b); err != nil {
		return err
	}
	pw.written = w.now()
	if err := pw.bw.Flush(); err != nil {
		return err
	}
	if pw.cur.n >= w.k.s.rollSize {
		delete(w.parts, dir)
		return pw.close()
	}
	return nil
}

// Write appends a batch, splitting it by partition.
func (w *writer) Write(ctx context.Context, b *types.Batch) error {
	if w.done {
		return fmt.Errorf("filesystem: write after commit or abort")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if !b.InsertOnly() {
		return fmt.Errorf("table %s: the filesystem sink accepts insert-only input, got an update or delete row", w.k.s.table)
	}
	if b.Len == 0 {
		return nil
	}
	data := func(src *types.Batch) *types.Batch {
		cols := make([]arrowArray, len(w.dataCol))
		for i, c := range w.dataCol {
			cols[i] = src.Cols[c]
		}
		return types.NewBatch(cols, nil, src.Len)
	}
	if len(w.k.s.partKeys) == 0 {
		return w.write(w.k.s.path, data(b))
	}
	if w.touched == nil {
		w.touched = map[string]bool{}
	}
	// Group the rows by partition directory, keeping their order.
	dirs := make([]string, b.Len)
	var order []string
	groups := map[string][]int{}
	for i := 0; i < b.Len; i++ {
		d := w.partitionDir(b, i)
		dirs[i] = d
		if _, ok := groups[d]; !ok {
			order = append(order, d)
		}
		groups[d] = append(groups[d], i)
	}
	for _, d := range order {
		w.touched[d] = true
		rows := groups[d]
		if len(rows) == b.Len {
			if err := w.write(d, data(b)); err != nil {
				return err
			}
			continue
		}
		bb := types.NewBatchBuilder(w.dataTypes)
		vals := make([]any, len(w.dataCol))
		for _, i := range rows {
			for j, c := range w.dataCol {
				vals[j] = types.ValueAt(b.Cols[c], i, w.types[c])
			}
			if err := bb.Append(types.Insert, vals); err != nil {
				return err
			}
		}
		if err := w.write(d, bb.Build()); err != nil {
			return err
		}
	}
	return nil
}

// Commit closes the open parts and renames every part into place (after
// deleting what an INSERT OVERWRITE replaces).
func (w *writer) Commit() error {
	if w.done {
		return nil
	}
	w.done = true
	var err error
	for _, pw := range w.parts {
		if cerr := pw.close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		w.removeParts()
		return err
	}
	if w.overwrite {
		if err := w.k.clearOld(w.touched); err != nil {
			w.removeParts()
			return err
		}
	}
	for _, p := range w.files {
		if err := publishPart(p); err != nil {
			return err
		}
	}
	return w.k.commitPartitions(w.touched)
}

// Abort deletes the in-progress files.
func (w *writer) Abort() {
	if w.done {
		return
	}
	w.done = true
	for _, pw := range w.parts {
		_ = pw.close()
	}
	w.removeParts()
}

func (w *writer) removeParts() {
	for _, p := range w.files {
		if !p.prepared {
			_ = os.Remove(p.tmp)
		}
	}
}
