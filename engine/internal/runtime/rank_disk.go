package runtime

import (
	"errors"
	"fmt"

	"github.com/riffle-sql/riffle/engine/internal/kvstate"
	"github.com/riffle-sql/riffle/engine/internal/state"
)

// A streaming Rank (Top-N) with the disk state backend (JobConfig.
// DiskState) keeps each partition in its store under the key version
// byte + the partition key (AppendRowKey): its kept rows in rank order
// (arrival number and values) and the positions of the emitted ones. The
// operator's partitions map becomes a cache of at most
// OpContext.diskCacheEntries partitions: one not in it is read from the
// store; partitions changed since read are dirty; when the cache is full
// at the start of a batch every dirty partition is written and the cache
// emptied, and before a checkpoint every dirty partition is written. A
// partition emptied by retractions is deleted from the store. State TTL
// is not supported with the disk backend yet.

// rankDisk is a Rank's store and the bookkeeping of its cache.
type rankDisk struct {
	ctx      *OpContext
	store    *kvstate.Store
	capacity int
	stored   int64 // partitions in the store
	keyBuf   []byte
	w        *state.Writer
}

// openDisk opens the operator's store when the job keeps state on disk.
func (r *Rank) openDisk(ctx *OpContext) error {
	s, ok, err := ctx.OpenKeyedStore()
	if err != nil || !ok {
		return err
	}
	if r.ttl.on() {
		_ = s.Close()
		return errors.New("Rank: state TTL (table.exec.state.ttl) is not supported with state.backend.type 'rocksdb' yet; use 'hashmap'")
	}
	r.disk = &rankDisk{ctx: ctx, store: s, capacity: ctx.diskCacheEntries(), w: state.NewWriter(256)}
	return nil
}

// UsesDisk implements DiskStateOperator.
func (r *Rank) UsesDisk() bool { return r.disk != nil }

// Close implements Operator: the store is closed (its working copy
// removed).
func (r *Rank) Close() error {
	if r.disk == nil {
		return nil
	}
	return r.disk.store.Close()
}

// diskKey is the store key of a partition key (AppendRowKey bytes).
func (r *Rank) diskKey(part string) []byte {
	d := r.disk
	d.keyBuf = append(append(d.keyBuf[:0], 1), part...)
	return d.keyBuf
}

// diskPartition reads partition part from the store into the cache (nil
// when the store has none).
func (r *Rank) diskPartition(part string) (*rankPartition, error) {
	val, found, err := r.disk.store.Get(r.diskKey(part))
	if err != nil || !found {
		return nil, err
	}
	p, err := r.decodePartition(val)
	if err != nil {
		return nil, err
	}
	p.inStore = true
	r.parts[part] = p
	return p, nil
}

func (r *Rank) encodePartition(p *rankPartition) []byte {
	w := r.disk.w
	w.Reset()
	r.writePartitionRows(w, p)
	return w.Data()
}

func (r *Rank) decodePartition(val []byte) (*rankPartition, error) {
	rd := state.NewReader(val)
	p := &rankPartition{}
	r.readPartitionRows(rd, p)
	if err := rd.Done(); err != nil {
		return nil, fmt.Errorf("Rank: a partition in the state backend does not decode: %w", err)
	}
	return p, nil
}

// diskDrop deletes emptied partition part from the store.
func (r *Rank) diskDrop(part string, p *rankPartition) error {
	if !p.inStore {
		return nil
	}
	if err := r.disk.store.Delete(r.diskKey(part)); err != nil {
		return fmt.Errorf("Rank: %w", err)
	}
	r.disk.stored--
	return nil
}

// flushDisk writes every dirty partition to the store.
func (r *Rank) flushDisk() error {
	d := r.disk
	bt := d.store.NewBatch()
	for part, p := range r.parts {
		if !p.dirty {
			continue
		}
		val := r.encodePartition(p)
		if err := d.w.Err(); err != nil {
			bt.Close()
			return fmt.Errorf("Rank: %w", err)
		}
		if err := bt.Put(r.diskKey(part), val); err != nil {
			bt.Close()
			return fmt.Errorf("Rank: %w", err)
		}
		if !p.inStore {
			d.stored++
		}
		p.dirty, p.inStore = false, true
	}
	if err := bt.Commit(); err != nil {
		return fmt.Errorf("Rank: %w", err)
	}
	return nil
}

// maybeEvict empties the cache, its dirty partitions written, when it
// holds its capacity of partitions (called before a batch).
func (r *Rank) maybeEvict() error {
	if len(r.parts) < r.disk.capacity {
		return nil
	}
	if err := r.flushDisk(); err != nil {
		return err
	}
	r.parts = map[string]*rankPartition{}
	return nil
}

// diskCount is the number of partitions: those in the store and those in
// the cache not written yet.
func (r *Rank) diskCount() int64 {
	n := r.disk.stored
	for _, p := range r.parts {
		if !p.inStore {
			n++
		}
	}
	return n
}

// SnapshotDisk implements DiskStateOperator.
func (r *Rank) SnapshotDisk(dir string) error {
	if err := r.flushDisk(); err != nil {
		return err
	}
	return r.disk.store.Checkpoint(dir)
}

// RestoreDisk implements DiskStateOperator.
func (r *Rank) RestoreDisk(dir string) error {
	s, err := r.disk.ctx.restoreKeyedStore(dir)
	if err != nil {
		return err
	}
	_ = r.disk.store.Close()
	r.disk.store = s
	r.parts = map[string]*rankPartition{}
	return nil
}

// rankDiskStateVersion is the format of a disk-backed Rank's snapshot
// bytes: its shape, the arrival counter, the number of kept rows and the
// number of partitions in the store.
const rankDiskStateVersion = 1

func (r *Rank) snapshotDiskState() ([]byte, error) {
	if err := r.flushDisk(); err != nil {
		return nil, err
	}
	w := state.NewWriter(128)
	w.Header("RankOnDisk", rankDiskStateVersion)
	w.String(r.stateShape())
	w.Varint(r.seq)
	w.Varint(r.nRows)
	w.Varint(r.disk.stored)
	return w.Data(), w.Err()
}

func (r *Rank) restoreDiskState(snapshot []byte) error {
	rd := state.NewReader(snapshot)
	rd.Header("RankOnDisk", rankDiskStateVersion)
	checkShape(rd, "Rank", r.stateShape())
	seq := rd.Varint()
	nRows := rd.Varint()
	stored := rd.Varint()
	if err := rd.Done(); err != nil {
		return fmt.Errorf("Rank: restoring state: %w", err)
	}
	r.seq, r.nRows, r.disk.stored = seq, nRows, stored
	r.parts = map[string]*rankPartition{}
	r.Ctx.ReportState(r.StateSize())
	return nil
}
