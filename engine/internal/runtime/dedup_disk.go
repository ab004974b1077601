package runtime

import (
	"errors"
	"fmt"

	"github.com/riffle-sql/riffle/engine/internal/kvstate"
	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
)

// A streaming Deduplicate with the disk state backend (JobConfig.
// DiskState) keeps each key's kept row and its rowtime in its store under
// the key version byte + the key columns (AppendRowKey). In memory stays
// a cache of at most OpContext.diskCacheEntries keys: one not in it is
// read from the store; when the cache is full at the start of a batch
// its changed keys are written and it is emptied, and before a
// checkpoint its changed keys are written. State TTL is not supported
// with the disk backend yet.

// dedupDisk is a Deduplicate's store and its cache.
type dedupDisk struct {
	ctx      *OpContext
	store    *kvstate.Store
	capacity int
	cache    map[string]*dedupEntry
	stored   int64 // keys in the store
	keyBuf   []byte
	w        *state.Writer
}

// dedupEntry is a cached key's kept row.
type dedupEntry struct {
	vals           []any
	ts             int64
	dirty, inStore bool
}

// openDisk opens the operator's store when the job keeps state on disk.
func (d *Deduplicate) openDisk(ctx *OpContext) error {
	s, ok, err := ctx.OpenKeyedStore()
	if err != nil || !ok {
		return err
	}
	if d.ttl.on() {
		_ = s.Close()
		return errors.New("Deduplicate: state TTL (table.exec.state.ttl) is not supported with state.backend.type 'rocksdb' yet; use 'hashmap'")
	}
	d.disk = &dedupDisk{ctx: ctx, store: s, capacity: ctx.diskCacheEntries(), cache: map[string]*dedupEntry{}, w: state.NewWriter(128)}
	return nil
}

// UsesDisk implements DiskStateOperator.
func (d *Deduplicate) UsesDisk() bool { return d.disk != nil }

// Close implements Operator: the store is closed (its working copy
// removed).
func (d *Deduplicate) Close() error {
	if d.disk == nil {
		return nil
	}
	return d.disk.store.Close()
}

// diskEntry returns the cached entry of row i's key, read from the store
// when not cached; nil when the key has no kept row. key is the entry's
// cache key.
func (d *Deduplicate) diskEntry(b *types.Batch, i int) (e *dedupEntry, key string, err error) {
	dd := d.disk
	dd.keyBuf = AppendRowKey(append(dd.keyBuf[:0], 1), b, d.Keys, i)
	if e := dd.cache[string(dd.keyBuf[1:])]; e != nil {
		return e, string(dd.keyBuf[1:]), nil
	}
	key = string(dd.keyBuf[1:])
	val, found, err := dd.store.Get(dd.keyBuf)
	if err != nil || !found {
		return nil, key, err
	}
	r := state.NewReader(val)
	e = &dedupEntry{ts: r.Varint(), vals: make([]any, len(d.Types)), inStore: true}
	for c, t := range d.Types {
		e.vals[c] = r.Value(t)
	}
	if err := r.Done(); err != nil {
		return nil, key, fmt.Errorf("Deduplicate: a key in the state backend does not decode: %w", err)
	}
	dd.cache[key] = e
	return e, key, nil
}

// processDisk is ProcessBatch with the kept rows in the store.
func (d *Deduplicate) processDisk(b *types.Batch, ts []int64, emit func(types.RowKind, []any) error) error {
	if len(d.disk.cache) >= d.disk.capacity {
		if err := d.flushDisk(); err != nil {
			return err
		}
		d.disk.cache = map[string]*dedupEntry{}
	}
	for i := 0; i < b.Len; i++ {
		e, key, err := d.diskEntry(b, i)
		if err != nil {
			return err
		}
		var t int64
		if d.Rowtime {
			t = ts[i]
		}
		if e == nil {
			vals := b.Row(i, d.Types).Values
			d.disk.cache[key] = &dedupEntry{vals: vals, ts: t, dirty: true}
			d.live++
			if err := emit(types.Insert, vals); err != nil {
				return err
			}
			continue
		}
		if !d.replaces(t, e.ts) {
			continue
		}
		vals := b.Row(i, d.Types).Values
		if !d.Rowtime && rowValuesEqual(e.vals, vals) {
			continue // as in memory: Flink emits nothing for an equal row
		}
		if err := d.emitUpdate(emit, e.vals, vals); err != nil {
			return err
		}
		e.vals, e.ts, e.dirty = vals, t, true
	}
	return nil
}

// flushDisk writes every changed cached key to the store.
func (d *Deduplicate) flushDisk() error {
	dd := d.disk
	bt := dd.store.NewBatch()
	for key, e := range dd.cache {
		if !e.dirty {
			continue
		}
		dd.w.Reset()
		dd.w.Varint(e.ts)
		for c, t := range d.Types {
			dd.w.Value(e.vals[c], t)
		}
		if err := dd.w.Err(); err != nil {
			bt.Close()
			return fmt.Errorf("Deduplicate: %w", err)
		}
		dd.keyBuf = append(append(dd.keyBuf[:0], 1), key...)
		if err := bt.Put(dd.keyBuf, dd.w.Data()); err != nil {
			bt.Close()
			return fmt.Errorf("Deduplicate: %w", err)
		}
		if !e.inStore {
			dd.stored++
		}
		e.dirty, e.inStore = false, true
	}
	if err := bt.Commit(); err != nil {
		return fmt.Errorf("Deduplicate: %w", err)
	}
	return nil
}

// SnapshotDisk implements DiskStateOperator.
func (d *Deduplicate) SnapshotDisk(dir string) error {
	if err := d.flushDisk(); err != nil {
		return err
	}
	return d.disk.store.Checkpoint(dir)
}

// RestoreDisk implements DiskStateOperator.
func (d *Deduplicate) RestoreDisk(dir string) error {
	s, err := d.disk.ctx.restoreKeyedStore(dir)
	if err != nil {
		return err
	}
	_ = d.disk.store.Close()
	d.disk.store = s
	d.disk.cache = map[string]*dedupEntry{}
	return nil
}

// dedupDiskStateVersion is the format of a disk-backed Deduplicate's
// snapshot bytes: its shape and the number of keys in the store.
const dedupDiskStateVersion = 1

func (d *Deduplicate) snapshotDiskState() ([]byte, error) {
	if err := d.flushDisk(); err != nil {
		return nil, err
	}
	w := state.NewWriter(128)
	w.Header("DeduplicateOnDisk", dedupDiskStateVersion)
	w.String(d.stateShape())
	w.Varint(d.disk.stored)
	return w.Data(), w.Err()
}

func (d *Deduplicate) restoreDiskState(snapshot []byte) error {
	r := state.NewReader(snapshot)
	r.Header("DeduplicateOnDisk", dedupDiskStateVersion)
	checkShape(r, "Deduplicate", d.stateShape())
	stored := r.Varint()
	if err := r.Done(); err != nil {
		return fmt.Errorf("Deduplicate: restoring state: %w", err)
	}
	d.disk.stored, d.live = stored, stored
	d.disk.cache = map[string]*dedupEntry{}
	d.Ctx.ReportState(d.StateSize())
	return nil
}
