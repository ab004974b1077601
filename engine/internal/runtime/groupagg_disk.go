package runtime

import (
	"errors"
	"fmt"

	"github.com/riffle-sql/riffle/engine/internal/kvstate"
	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
)

// A streaming GroupAgg with the disk state backend (JobConfig.DiskState)
// keeps each group in its store under the group's key bytes
// (diskKey: AppendRowKey of the key columns): the group's row count, its last
// emitted result and each accumulator's state (accum_group_state.go).
// The operator's in-memory groups (index, accumulators) become a cache of
// at most OpContext.diskCacheEntries decoded groups: a group not in it is
// read from the store; groups changed since they were read are dirty;
// when the cache is full at the start of a batch every dirty group is
// written and the cache emptied, and before a checkpoint every dirty
// group is written. A group whose row count drops to zero is deleted from
// the store. State TTL is not supported with the disk backend yet.

// aggDisk is a GroupAgg's store and the bookkeeping of its cache.
type aggDisk struct {
	ctx      *OpContext
	store    *kvstate.Store
	capacity int
	keys     [][]byte // group id -> its key (nil: free)
	dirty    []bool   // changed since read or written
	inStore  []bool   // the store holds a (possibly older) value
	stored   int64    // keys in the store
	keyBuf   []byte
	w        *state.Writer
}

// openDisk opens the operator's store when the job keeps state on disk.
func (a *GroupAgg) openDisk(ctx *OpContext) error {
	if a.Final {
		return nil
	}
	s, ok, err := ctx.OpenKeyedStore()
	if err != nil || !ok {
		return err
	}
	names := make([]string, len(a.Aggs))
	for k, sp := range a.Aggs {
		names[k] = sp.String()
	}
	err = diskAccSupported(a.accs, names)
	if err == nil && a.ttl.on() {
		err = errors.New("GroupAgg: state TTL (table.exec.state.ttl) is not supported with state.backend.type 'rocksdb' yet; use 'hashmap'")
	}
	if err != nil {
		_ = s.Close()
		return err
	}
	a.disk = &aggDisk{ctx: ctx, store: s, capacity: ctx.diskCacheEntries(), w: state.NewWriter(64)}
	return nil
}

// UsesDisk implements DiskStateOperator.
func (a *GroupAgg) UsesDisk() bool { return a.disk != nil }

// closeDisk closes the store (its working copy is removed).
func (a *GroupAgg) closeDisk() error {
	if a.disk == nil {
		return nil
	}
	return a.disk.store.Close()
}

// findGroup is index.find, then with the disk backend a read of the
// store: a group found there is decoded into a new in-memory group.
func (a *GroupAgg) findGroup(b *types.Batch, i int) (int32, bool, error) {
	g, ok := a.index.find(b, i)
	if a.disk == nil {
		return g, ok, nil
	}
	if ok {
		a.disk.dirty[g] = true
		return g, true, nil
	}
	d := a.disk
	d.keyBuf = a.diskKey(d.keyBuf[:0], b, i)
	val, found, err := d.store.Get(d.keyBuf)
	if err != nil || !found {
		return -1, false, err
	}
	g = a.newGroup(b, i) // records the key, dirty
	d.inStore[g] = true
	if err := a.decodeGroup(g, val); err != nil {
		return -1, false, err
	}
	return g, true, nil
}

// diskKey appends the store key of row i's group: a version byte, then
// its key columns (AppendRowKey), so that a global aggregate's one group
// has a key too.
func (a *GroupAgg) diskKey(buf []byte, b *types.Batch, i int) []byte {
	return AppendRowKey(append(buf, 1), b, a.Keys, i)
}

// diskNewGroup records the key of a new in-memory group g.
func (a *GroupAgg) diskNewGroup(g int32, b *types.Batch, i int) {
	d := a.disk
	for int(g) >= len(d.keys) {
		d.keys = append(d.keys, nil)
		d.dirty = append(d.dirty, false)
		d.inStore = append(d.inStore, false)
	}
	d.keys[g] = a.diskKey(nil, b, i)
	d.dirty[g] = true
	d.inStore[g] = false
}

// diskDrop deletes emptied group g from the store.
func (a *GroupAgg) diskDrop(g int32) error {
	d := a.disk
	if d.inStore[g] {
		if err := d.store.Delete(d.keys[g]); err != nil {
			return err
		}
		d.stored--
	}
	d.keys[g], d.dirty[g], d.inStore[g] = nil, false, false
	return nil
}

func (a *GroupAgg) encodeGroup(g int32) []byte {
	w := a.disk.w
	w.Reset()
	w.Varint(a.rowCount[g])
	prev := a.prev[g]
	w.Bool(prev != nil)
	valTypes := a.OutTypes[len(a.Keys):]
	for k, v := range prev {
		w.Value(v, valTypes[k])
	}
	for _, acc := range a.accs {
		writeAccGroup(w, acc, g)
	}
	return w.Data()
}

func (a *GroupAgg) decodeGroup(g int32, val []byte) error {
	r := state.NewReader(val)
	a.rowCount[g] = r.Varint()
	if r.Bool() {
		valTypes := a.OutTypes[len(a.Keys):]
		prev := make([]any, len(a.accs))
		for k := range prev {
			prev[k] = r.Value(valTypes[k])
		}
		a.prev[g] = prev
	}
	for _, acc := range a.accs {
		readAccGroup(r, acc, g)
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("GroupAgg: a group in the state backend does not decode: %w", err)
	}
	return nil
}

// flushDisk writes every dirty group to the store.
func (a *GroupAgg) flushDisk() error {
	d := a.disk
	bt := d.store.NewBatch()
	for g := range d.keys {
		if d.keys[g] == nil || !d.dirty[g] {
			continue
		}
		val := a.encodeGroup(int32(g))
		if err := d.w.Err(); err != nil {
			return fmt.Errorf("GroupAgg: %w", err)
		}
		if err := bt.Put(d.keys[g], val); err != nil {
			return err
		}
		if !d.inStore[g] {
			d.stored++
		}
		d.dirty[g], d.inStore[g] = false, true
	}
	return bt.Commit()
}

// resetCache forgets every in-memory group (written before, or replaced
// by a restored store).
func (a *GroupAgg) resetCache() error {
	accs, err := freshAccumulators(a.accs, a.Aggs, a.Retractable)
	if err != nil {
		return err
	}
	a.accs = accs
	a.index = newGroupIndex(a.Keys, a.KeyTypes)
	a.nGroups, a.rowCount, a.prev, a.free, a.touchedAt, a.stamp = 0, nil, nil, nil, nil, 0
	d := a.disk
	d.keys, d.dirty, d.inStore = d.keys[:0], d.dirty[:0], d.inStore[:0]
	return nil
}

// maybeEvict empties the cache, its dirty groups written, when it holds
// its capacity of groups (called between batches).
func (a *GroupAgg) maybeEvict() error {
	if int(a.nGroups)-len(a.free) < a.disk.capacity {
		return nil
	}
	if err := a.flushDisk(); err != nil {
		return err
	}
	return a.resetCache()
}

// diskCount is the number of groups: those in the store and those in
// memory not written yet.
func (a *GroupAgg) diskCount() int64 {
	n := a.disk.stored
	for g, k := range a.disk.keys {
		if k != nil && !a.disk.inStore[g] {
			n++
		}
	}
	return n
}

// SnapshotDisk implements DiskStateOperator.
func (a *GroupAgg) SnapshotDisk(dir string) error {
	if err := a.flushDisk(); err != nil {
		return err
	}
	return a.disk.store.Checkpoint(dir)
}

// RestoreDisk implements DiskStateOperator.
func (a *GroupAgg) RestoreDisk(dir string) error {
	s, err := a.disk.ctx.restoreKeyedStore(dir)
	if err != nil {
		return err
	}
	_ = a.disk.store.Close()
	a.disk.store = s
	return a.resetCache()
}

// groupAggDiskStateVersion is the format of a disk-backed GroupAgg's
// snapshot bytes: its shape and the number of groups in the store.
const groupAggDiskStateVersion = 1

func (a *GroupAgg) snapshotDiskState() ([]byte, error) {
	if err := a.flushDisk(); err != nil {
		return nil, err
	}
	w := state.NewWriter(128)
	w.Header("GroupAggOnDisk", groupAggDiskStateVersion)
	w.String(a.stateShape())
	w.Varint(a.disk.stored)
	return w.Data(), w.Err()
}

func (a *GroupAgg) restoreDiskState(snapshot []byte) error {
	r := state.NewReader(snapshot)
	r.Header("GroupAggOnDisk", groupAggDiskStateVersion)
	checkShape(r, "GroupAgg", a.stateShape())
	stored := r.Varint()
	if err := r.Done(); err != nil {
		return fmt.Errorf("GroupAgg: restoring state: %w", err)
	}
	a.disk.stored = stored
	return nil
}
