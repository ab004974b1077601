// Package kvstate is Riffle's disk-backed keyed state backend
// (state.backend.type 'rocksdb' or 'forst'): the state of an operator
// instance lives in an embedded LSM store, github.com/cockroachdb/pebble/v2
// (the Go peer of the RocksDB library Flink's backend is built on), in a
// local working directory, so it may grow far past the memory the job is
// given while the memory the store itself uses stays bounded by a block
// cache shared by the job's stores and by their write buffers.
//
// A Backend is one job's: a directory of its own under the configured
// local directory, removed when the job ends (Close). Each operator
// instance opens one Store in it (its namespace: keys of two stores never
// meet). A Store is a sorted map of byte keys to byte values with Get, Put,
// Delete and ordered prefix scans; it is used from one goroutine (the
// operator's task). Its write-ahead log is off, as in Flink: the store is
// a working copy, and durability comes from checkpoints (Checkpoint:
// the memtable is flushed, then the store's immutable SST files are hard
// linked into a new directory, which OpenFrom later opens as a copy).
package kvstate

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/cockroachdb/pebble/v2"
	"github.com/cockroachdb/pebble/v2/bloom"
)

// Defaults of Options.
const (
	// DefaultBlockCache is the block cache a job's stores share when
	// Options.BlockCache is 0 (Flink's state.backend.rocksdb.block.cache-size
	// is per column family; Riffle's cache is per job).
	DefaultBlockCache = 64 << 20
	// DefaultWriteBuffer is one store's memtable size when
	// Options.WriteBuffer is 0 (state.backend.rocksdb.writebuffer.size).
	DefaultWriteBuffer = 16 << 20
)

// Options configure a job's Backend.
type Options struct {
	// Dir is the local directory the job's stores go under, in a folder of
	// their own (state.backend.rocksdb.localdir, else
	// process.taskmanager.working-dir, else the temporary directory).
	Dir string
	// BlockCache is the bytes of the block cache the job's stores share
	// (state.backend.rocksdb.block.cache-size); 0 means DefaultBlockCache.
	BlockCache int64
	// WriteBuffer is the bytes of one store's memtable
	// (state.backend.rocksdb.writebuffer.size); 0 means DefaultWriteBuffer.
	WriteBuffer int64
}

// Backend is one job's disk state: its working directory and the block
// cache its stores share. Its methods are safe for concurrent use.
type Backend struct {
	dir   string
	opts  Options
	cache *pebble.Cache

	mu     sync.Mutex
	seq    int
	stores map[*Store]bool
	closed bool
}

// NewBackend makes the job's working directory, <Options.Dir>/riffle-
// state-<name>-<random>, and the block cache. name is a label (the job
// id); the directory is new, so two jobs never share one.
func NewBackend(name string, o Options) (*Backend, error) {
	if o.Dir == "" {
		o.Dir = os.TempDir()
	}
	if o.BlockCache <= 0 {
		o.BlockCache = DefaultBlockCache
	}
	if o.WriteBuffer <= 0 {
		o.WriteBuffer = DefaultWriteBuffer
	}
	var r [4]byte
	_, _ = rand.Read(r[:])
	dir := filepath.Join(o.Dir, "riffle-state-"+sanitize(name)+"-"+hex.EncodeToString(r[:]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("state backend working directory %s: %w", o.Dir, err)
	}
	return &Backend{dir: dir, opts: o, cache: pebble.NewCache(o.BlockCache), stores: map[*Store]bool{}}, nil
}

// Dir is the backend's working directory.
func (b *Backend) Dir() string { return b.dir }

// Options returns the backend's options, defaults filled in.
func (b *Backend) Options() Options { return b.opts }

// Open creates an empty store for one operator instance; label names its
// directory (made unique).
func (b *Backend) Open(label string) (*Store, error) {
	dir, err := b.newStoreDir(label)
	if err != nil {
		return nil, err
	}
	return b.open(dir)
}

// OpenFrom creates a store holding the state of the checkpoint directory
// src (one Store.Checkpoint wrote, possibly moved into a checkpoint since):
// its SST files are hard linked (copied when src is on another file
// system), its other files copied, so the checkpoint is never written to.
func (b *Backend) OpenFrom(label, src string) (*Store, error) {
	entries, err := os.ReadDir(src)
	if err != nil {
		return nil, fmt.Errorf("restoring state from %s: %w", src, err)
	}
	dir, err := b.newStoreDir(label)
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		from, to := filepath.Join(src, e.Name()), filepath.Join(dir, e.Name())
		if strings.HasSuffix(e.Name(), ".sst") {
			err = LinkOrCopy(from, to)
		} else {
			err = CopyFile(from, to)
		}
		if err != nil {
			_ = os.RemoveAll(dir)
			return nil, fmt.Errorf("restoring state from %s: %w", src, err)
		}
	}
	if err := b.verify(dir); err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("restoring state from %s: %s", src, storeDamage(err, dir, src))
	}
	s, err := b.open(dir)
	if err != nil {
		return nil, fmt.Errorf("restoring state from %s: %w", src, err)
	}
	return s, nil
}

// verify reads every entry of the store in dir, opened read-only, so that
// a damaged SST file is found now, as an error naming it, and not later by
// a compaction in the background, where pebble can only give up on the
// whole process. Its cost is one scan of the restored state.
func (b *Backend) verify(dir string) error {
	cache := pebble.NewCache(8 << 20) // its own: a failed read may leave references behind
	defer cache.Unref()
	db, err := pebble.Open(dir, &pebble.Options{Cache: cache, ReadOnly: true, Logger: quietLogger{}})
	if err != nil {
		return err
	}
	func() {
		defer func() {
			if r := recover(); r != nil && err == nil {
				err = fmt.Errorf("%v", r) // quietLogger.Fatalf while reading
			}
		}()
		it, ierr := db.NewIter(nil)
		if ierr != nil {
			err = ierr
			return
		}
		for it.First(); it.Valid(); it.Next() {
			_ = it.Value()
		}
		err = it.Error()
		if cerr := it.Close(); err == nil {
			err = cerr
		}
	}()
	func() {
		defer func() { _ = recover() }() // Close after a corrupt read may complain of references
		_ = db.Close()
	}()
	return err
}

// storeDamage is the one-line message of verify's error: pebble reports
// a damaged file with its key bounds and a chain of causes with stack
// traces after the first line, and names the working copy in dir, which
// is gone by then; the message names the file of the checkpoint src.
func storeDamage(err error, dir, src string) string {
	msg, _, _ := strings.Cut(err.Error(), "\n")
	msg = strings.TrimPrefix(msg, "state backend: ")
	if i := strings.Index(msg, "; bounds: ["); i >= 0 {
		if j := strings.Index(msg[i:], "]"); j >= 0 {
			msg = msg[:i] + msg[i+j+1:]
		}
	}
	return strings.ReplaceAll(msg, dir, src)
}

func (b *Backend) newStoreDir(label string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return "", errors.New("the job's state backend is closed")
	}
	b.seq++
	dir := filepath.Join(b.dir, sanitize(label)+"-"+strconv.Itoa(b.seq))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("state backend: %w", err)
	}
	return dir, nil
}

func (b *Backend) open(dir string) (*Store, error) {
	o := &pebble.Options{
		Cache:        b.cache,
		MemTableSize: uint64(b.opts.WriteBuffer),
		DisableWAL:   true,
		Logger:       quietLogger{},
	}
	// A Bloom filter of every SST file's keys (10 bits a key, about 1 %
	// false positives), on every level as Flink's RocksDB backend can
	// configure (state.backend.rocksdb.use-bloom-filter): the operators
	// look up rows that are mostly not stored yet (a join's multiplicity of
	// a new row, a group not seen before), and without a filter each such
	// Get reads a data block of every L0 file and of every level the key
	// range overlaps, a cost that grows with the state.
	for i := range o.Levels {
		o.Levels[i].FilterPolicy = bloom.FilterPolicy(10)
	}
	db, err := pebble.Open(dir, o)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("state backend: opening %s: %w", dir, err)
	}
	s := &Store{b: b, db: db, dir: dir}
	b.mu.Lock()
	b.stores[s] = true
	b.mu.Unlock()
	return s, nil
}

// Close closes every store still open and removes the working directory.
func (b *Backend) Close() error {
	b.mu.Lock()
	b.closed = true
	var open []*Store
	for s := range b.stores {
		open = append(open, s)
	}
	b.mu.Unlock()
	var errs []error
	for _, s := range open {
		errs = append(errs, s.Close())
	}
	b.cache.Unref()
	errs = append(errs, os.RemoveAll(b.dir))
	return errors.Join(errs...)
}

// Store is one operator instance's keyed state: a sorted map of byte keys
// to byte values on disk. Use it from one goroutine.
type Store struct {
	b   *Backend
	db  *pebble.DB
	dir string
}

// Dir is the store's working directory.
func (s *Store) Dir() string { return s.dir }

// Get returns a copy of the value of key; ok is false when key has none.
//
// It seeks an iterator that consults the Bloom filters of every level,
// the bottom one included (pebble's DB.Get skips L6's, where most of the
// state lies), so that a key the store does not hold, the common case of
// an operator's lookup, costs no data block read however large the state.
func (s *Store) Get(key []byte) (val []byte, ok bool, err error) {
	it, err := s.db.NewIter(&getIterOptions)
	if err != nil {
		return nil, false, fmt.Errorf("state backend: %w", err)
	}
	if it.SeekPrefixGE(key) && bytes.Equal(it.Key(), key) {
		var v []byte
		if v, err = it.ValueAndErr(); err == nil {
			val, ok = append([]byte(nil), v...), true
		}
	}
	if cerr := it.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, false, fmt.Errorf("state backend: %w", err)
	}
	return val, ok, nil
}

// getIterOptions are the options of Get's iterators.
var getIterOptions = pebble.IterOptions{UseL6Filters: true}

// Put sets the value of key.
func (s *Store) Put(key, val []byte) error {
	if err := s.db.Set(key, val, pebble.NoSync); err != nil {
		return fmt.Errorf("state backend: %w", err)
	}
	return nil
}

// Delete removes key (nothing when it has no value).
func (s *Store) Delete(key []byte) error {
	if err := s.db.Delete(key, pebble.NoSync); err != nil {
		return fmt.Errorf("state backend: %w", err)
	}
	return nil
}

// Batch groups writes applied at once by Commit.
type Batch struct {
	s *Store
	b *pebble.Batch
}

// NewBatch starts a batch of writes.
func (s *Store) NewBatch() *Batch { return &Batch{s: s, b: s.db.NewBatch()} }

// Put adds the setting of key to the batch (key and val are copied).
func (b *Batch) Put(key, val []byte) error { return b.b.Set(key, val, nil) }

// Delete adds the removal of key to the batch.
func (b *Batch) Delete(key []byte) error { return b.b.Delete(key, nil) }

// Len is the number of writes in the batch.
func (b *Batch) Len() int { return int(b.b.Count()) }

// Commit applies the batch and releases it.
func (b *Batch) Commit() error {
	defer b.b.Close()
	if err := b.b.Commit(pebble.NoSync); err != nil {
		return fmt.Errorf("state backend: %w", err)
	}
	return nil
}

// Scan calls fn with each key starting with prefix and its value, in key
// order, until fn returns false. key and val are valid only during the
// call. The store must not be written to during the scan.
func (s *Store) Scan(prefix []byte, fn func(key, val []byte) bool) error {
	o := &pebble.IterOptions{LowerBound: prefix, UpperBound: prefixEnd(prefix)}
	it, err := s.db.NewIter(o)
	if err != nil {
		return fmt.Errorf("state backend: %w", err)
	}
	for ok := it.First(); ok; ok = it.Next() {
		v, err := it.ValueAndErr()
		if err != nil {
			it.Close()
			return fmt.Errorf("state backend: %w", err)
		}
		if !fn(it.Key(), v) {
			break
		}
	}
	if err := it.Close(); err != nil {
		return fmt.Errorf("state backend: %w", err)
	}
	return nil
}

// prefixEnd is the least key greater than every key starting with p (nil:
// none, p is all 0xff).
func prefixEnd(p []byte) []byte {
	end := append([]byte(nil), p...)
	for i := len(end) - 1; i >= 0; i-- {
		end[i]++
		if end[i] != 0 {
			return end[:i+1]
		}
	}
	return nil
}

// Checkpoint writes the store's state as it is now into dest, a directory
// that must not exist: the memtable is flushed to an SST file, then the
// SST files are hard linked and the small MANIFEST and OPTIONS files
// copied. OpenFrom opens a store from it.
func (s *Store) Checkpoint(dest string) error {
	if err := s.db.Flush(); err != nil {
		return fmt.Errorf("state backend: flush: %w", err)
	}
	if err := s.db.Checkpoint(dest); err != nil {
		return fmt.Errorf("state backend: checkpoint into %s: %w", dest, err)
	}
	return nil
}

// DiskBytes is the size of the store's files on disk.
func (s *Store) DiskBytes() int64 {
	m := s.db.Metrics()
	return int64(m.DiskSpaceUsage())
}

// Close closes the store and removes its working directory.
func (s *Store) Close() error {
	s.b.mu.Lock()
	open := s.b.stores[s]
	delete(s.b.stores, s)
	s.b.mu.Unlock()
	if !open {
		return nil
	}
	err := s.db.Close()
	return errors.Join(err, os.RemoveAll(s.dir))
}

// LinkOrCopy makes to a hard link of from, or a copy when the two are on
// different file systems (or links are not supported).
func LinkOrCopy(from, to string) error {
	if err := os.Link(from, to); err == nil {
		return nil
	}
	return CopyFile(from, to)
}

// CopyFile copies from into the new file to and syncs it.
func CopyFile(from, to string) error {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// sanitize keeps a label usable as a file name.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			return r
		}
		return '_'
	}, s)
}

// quietLogger drops pebble's informational messages; errors reach the
// caller as returned errors.
type quietLogger struct{}

func (quietLogger) Infof(string, ...any)  {}
func (quietLogger) Errorf(string, ...any) {}
func (quietLogger) Fatalf(format string, args ...any) {
	panic(fmt.Sprintf("state backend: "+format, args...))
}
