package runtime

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/internal/kvstate"
	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
)

// A WindowAgg with the disk state backend (JobConfig.DiskState) keeps
// each group of each bucket (a slice, or a whole window when rows are not
// sliced or windows attached) in its store under the key
// windowDiskPrefix(bucket end) + the group's key columns (AppendRowKey),
// so that a bucket's groups are one key range, in key order. The value is
// the group's key values then each accumulator's state
// (accum_group_state.go).
//
// The operator's in-memory buckets become a cache of at most
// OpContext.diskCacheEntries groups: a group new to the cache reads its
// state from the store before the batch is accumulated; when the cache is
// full at the start of a batch and before windows fire, every cached
// group is written and the cache emptied; before a checkpoint every
// cached group is written and the cache kept. A window
// fires from the store: the iterators of its slices' key ranges are
// merged by group key, and its rows are emitted a batch of groups at a
// time, so the memory of firing is one output batch. A bucket no later
// window needs is removed with one range deletion.
//
// In memory besides the cache stay, per bucket, its end, its start
// (attached windows) and the number of its groups in the store: the
// snapshot bytes, with the watermark and the time up to which windows
// fired.

// windowDisk is a WindowAgg's store and the bookkeeping of its cache.
type windowDisk struct {
	ctx      *OpContext
	store    *kvstate.Store
	capacity int
	buckets  map[int64]*windowDiskBucket
	keyIdx   []int // 0..len(Keys)-1: the key columns of a batch of keys
	keyBuf   []byte
	w        *state.Writer
	err      error // the first failure of a read during accumulation
}

// windowDiskBucket is what stays in memory of a bucket on disk.
type windowDiskBucket struct {
	start  int64
	stored int64  // its groups in the store
	loaded []bool // cached group g was read from the store
}

// openDisk opens the operator's store when the job keeps state on disk.
func (w *WindowAgg) openDisk(ctx *OpContext) error {
	s, ok, err := ctx.OpenKeyedStore()
	if err != nil || !ok {
		return err
	}
	probe, err := newAggBucket(w.Keys, w.KeyTypes, w.Aggs)
	if err != nil {
		_ = s.Close()
		return err
	}
	names := make([]string, len(w.Aggs))
	for k, sp := range w.Aggs {
		names[k] = sp.String()
	}
	if diskAccSupported(probe.accs, names) != nil {
		// an aggregate kept whole (DISTINCT, LISTAGG, COLLECT, …): the
		// buckets stay in memory, as before the disk backend kept windows
		return s.Close()
	}
	d := &windowDisk{ctx: ctx, store: s, capacity: ctx.diskCacheEntries(), buckets: map[int64]*windowDiskBucket{}, w: state.NewWriter(64)}
	d.keyIdx = make([]int, len(w.Keys))
	for i := range d.keyIdx {
		d.keyIdx[i] = i
	}
	w.disk = d
	return nil
}

// UsesDisk implements DiskStateOperator.
func (w *WindowAgg) UsesDisk() bool { return w.disk != nil }

// closeDisk closes the store (its working copy is removed).
func (w *WindowAgg) closeDisk() error {
	if w.disk == nil {
		return nil
	}
	return w.disk.store.Close()
}

// windowDiskPrefix appends the key prefix of the bucket ending at end: a
// version byte, then end as big-endian bits with the sign flipped (so
// buckets sort by end).
func windowDiskPrefix(buf []byte, end int64) []byte {
	buf = append(buf, 1)
	return binary.BigEndian.AppendUint64(buf, uint64(end)^(1<<63))
}

const windowDiskPrefixLen = 9

// diskBucket registers new cached bucket bk ending at e: its groups read
// their state from the store.
func (w *WindowAgg) diskBucket(e int64, bk *aggBucket) {
	d := w.disk
	if d == nil {
		return
	}
	info := d.buckets[e]
	if info == nil {
		info = &windowDiskBucket{start: bk.start}
		d.buckets[e] = info
	} else {
		bk.start = info.start
	}
	bk.load = func(g int32, in *types.Batch, row int) {
		for int(g) >= len(info.loaded) {
			info.loaded = append(info.loaded, false)
		}
		if info.stored == 0 || d.err != nil {
			return
		}
		d.keyBuf = AppendRowKey(windowDiskPrefix(d.keyBuf[:0], e), in, w.Keys, row)
		val, found, err := d.store.Get(d.keyBuf)
		if err != nil {
			d.err = fmt.Errorf("WindowAgg: %w", err)
			return
		}
		if !found {
			return
		}
		if err := w.decodeDiskGroup(val, nil, bk, g); err != nil {
			d.err = err
			return
		}
		info.loaded[g] = true
	}
}

// diskErr is the first failure of a store read while rows accumulated.
func (w *WindowAgg) diskErr() error {
	if w.disk == nil {
		return nil
	}
	return w.disk.err
}

// decodeDiskGroup decodes a stored group into group g of bk, its key
// values appended to keys when keys is not nil.
func (w *WindowAgg) decodeDiskGroup(val []byte, keys *[]any, bk *aggBucket, g int32) error {
	r := state.NewReader(val)
	for _, t := range w.KeyTypes {
		v := r.Value(t)
		if keys != nil {
			*keys = append(*keys, v)
		}
	}
	for _, acc := range bk.accs {
		readAccGroup(r, acc, g)
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("WindowAgg: a group in the state backend does not decode: %w", err)
	}
	return nil
}

// cachedGroups is the number of groups in the cache.
func (w *WindowAgg) cachedGroups() int {
	n := 0
	for _, bk := range w.slices {
		n += int(bk.n)
	}
	return n
}

// maybeEvict writes and forgets the cached groups when the cache holds its
// capacity of them (called before a batch).
func (w *WindowAgg) maybeEvict() error {
	if w.cachedGroups() < w.disk.capacity {
		return nil
	}
	return w.flushDisk()
}

// flushDisk writes every cached group to the store and empties the cache.
func (w *WindowAgg) flushDisk() error {
	if err := w.writeCachedGroups(); err != nil {
		return err
	}
	for e := range w.slices {
		w.disk.buckets[e].loaded = w.disk.buckets[e].loaded[:0]
	}
	w.slices = map[int64]*aggBucket{}
	return nil
}

// flushDiskKeepingCache writes every cached group to the store and keeps
// the cache, its groups now marked as stored (before a checkpoint: the
// groups the next batches touch are still decoded, not read back).
func (w *WindowAgg) flushDiskKeepingCache() error {
	if err := w.writeCachedGroups(); err != nil {
		return err
	}
	for e, bk := range w.slices {
		info := w.disk.buckets[e]
		for len(info.loaded) < int(bk.n) {
			info.loaded = append(info.loaded, false)
		}
		for g := range info.loaded[:bk.n] {
			info.loaded[g] = true
		}
	}
	return nil
}

// writeCachedGroups writes every cached group to the store, counting the
// ones new to it.
func (w *WindowAgg) writeCachedGroups() error {
	d := w.disk
	if len(w.slices) == 0 {
		return nil
	}
	nk := len(w.Keys)
	bt := d.store.NewBatch()
	for e, bk := range w.slices {
		info := d.buckets[e]
		n := int(bk.n)
		if n == 0 {
			continue
		}
		keyCols := bk.keyColumns(nk)
		kb := &types.Batch{Cols: keyCols, Len: n}
		prefix := windowDiskPrefix(nil, e)
		for g := 0; g < n; g++ {
			key := AppendRowKey(append(d.keyBuf[:0], prefix...), kb, d.keyIdx, g)
			d.keyBuf = key
			d.w.Reset()
			for k, t := range w.KeyTypes {
				d.w.Value(types.ValueAt(keyCols[k], g, t), t)
			}
			for _, acc := range bk.accs {
				writeAccGroup(d.w, acc, int32(g))
			}
			if err := d.w.Err(); err != nil {
				bt.Close()
				return fmt.Errorf("WindowAgg: %w", err)
			}
			if err := bt.Put(key, d.w.Data()); err != nil {
				bt.Close()
				return fmt.Errorf("WindowAgg: %w", err)
			}
			if g >= len(info.loaded) || !info.loaded[g] {
				info.stored++
			}
		}
	}
	if err := bt.Commit(); err != nil {
		return fmt.Errorf("WindowAgg: %w", err)
	}
	return nil
}

// diskCount is the number of groups: those in the store and those cached
// not written yet.
func (w *WindowAgg) diskCount() int64 {
	var n int64
	for e, info := range w.disk.buckets {
		n += info.stored
		if bk := w.slices[e]; bk != nil {
			for g := 0; g < int(bk.n); g++ {
				if g >= len(info.loaded) || !info.loaded[g] {
					n++
				}
			}
		}
	}
	return n
}

// diskNextProcessingTime is NextProcessingTime over the buckets on disk.
func (w *WindowAgg) diskNextProcessingTime() (int64, bool) {
	if !w.Window.Proctime || len(w.disk.buckets) == 0 {
		return 0, false
	}
	next := int64(MaxWatermark)
	for e := range w.disk.buckets {
		ends := w.windowEndsOf(e)
		if len(ends) > 0 && ends[0] < next {
			next = ends[0]
		}
	}
	return w.Window.ToUTC(next) - 1, true
}

// fireDisk is fire with the buckets in the store.
func (w *WindowAgg) fireDisk(wm int64) error {
	d := w.disk
	if len(d.buckets) == 0 {
		w.progress = max(w.progress, wm)
		return nil
	}
	if err := w.flushDisk(); err != nil {
		return err
	}
	seen := map[int64]bool{}
	var ends []int64
	for e := range d.buckets {
		for _, we := range w.windowEndsOf(e) {
			if windowFired(w.Window, we, wm) && !windowFired(w.Window, we, w.progress) && !seen[we] {
				seen[we] = true
				ends = append(ends, we)
			}
		}
	}
	slices.Sort(ends)
	single := w.Attached || !w.sliced()
	var parts []int64
	for _, we := range ends {
		start := w.Window.WindowStart(we)
		var have []int64
		if single {
			info := d.buckets[we]
			if info == nil {
				continue
			}
			if w.Attached {
				start = info.start
			}
			have = []int64{we}
		} else {
			parts = w.Window.SlicesOfWindow(we, parts)
			for _, p := range parts {
				if info := d.buckets[p]; info != nil && info.stored > 0 {
					have = append(have, p)
				}
			}
		}
		if len(have) > 0 {
			if err := w.emitFromDisk(have, start, we); err != nil {
				return err
			}
		}
		// drop buckets no later window needs
		if single {
			if err := w.dropDiskBucket(we); err != nil {
				return err
			}
			continue
		}
		for _, p := range parts {
			if _, ok := d.buckets[p]; ok && w.Window.LastWindowEnd(p) <= we {
				if err := w.dropDiskBucket(p); err != nil {
					return err
				}
			}
		}
	}
	w.progress = wm
	if !single {
		// slices whose windows all fired (possible when a window had no data)
		for e := range d.buckets {
			if windowFired(w.Window, w.Window.LastWindowEnd(e), wm) {
				if err := w.dropDiskBucket(e); err != nil {
					return err
				}
			}
		}
	}
	w.reportState()
	return nil
}

// dropDiskBucket removes the bucket ending at e from the store.
func (w *WindowAgg) dropDiskBucket(e int64) error {
	d := w.disk
	info := d.buckets[e]
	delete(d.buckets, e)
	if info == nil || info.stored == 0 {
		return nil
	}
	if err := d.store.DeletePrefix(windowDiskPrefix(nil, e)); err != nil {
		return fmt.Errorf("WindowAgg: %w", err)
	}
	return nil
}

// emitFromDisk emits the window [start, end) whose groups are those of
// the stored buckets ends: their key ranges are walked together in key
// order, a group in several buckets merged, one batch of groups at a time.
func (w *WindowAgg) emitFromDisk(ends []int64, start, end int64) (err error) {
	d := w.disk
	its := make([]*kvstate.Iter, 0, len(ends))
	defer func() {
		for _, it := range its {
			if cerr := it.Close(); err == nil && cerr != nil {
				err = fmt.Errorf("WindowAgg: %w", cerr)
			}
		}
	}()
	for _, e := range ends {
		it, err := d.store.NewIter(windowDiskPrefix(nil, e))
		if err != nil {
			return fmt.Errorf("WindowAgg: %w", err)
		}
		its = append(its, it)
	}
	size := w.Ctx.Config.BatchSize
	if size <= 0 {
		size = 4096
	}
	var chunk, scratch *aggBucket
	var keyVals []any
	kb := types.NewBatchBuilder(w.KeyTypes)
	newChunk := func() error {
		var err error
		if chunk, err = newAggBucket(d.keyIdx, w.KeyTypes, w.Aggs); err != nil {
			return err
		}
		scratch, err = newAggBucket(d.keyIdx, w.KeyTypes, w.Aggs)
		return err
	}
	emit := func() error {
		if chunk.n == 0 {
			return nil
		}
		chunk.keyChunks = [][]arrow.Array{kb.Build().Cols}
		return w.emitWindow(chunk, start, end)
	}
	if err := newChunk(); err != nil {
		return err
	}
	var same []int
	for {
		// the least group key among the iterators, and those at it
		var least []byte
		same = same[:0]
		for i, it := range its {
			if !it.Valid() {
				continue
			}
			k := it.Key()[windowDiskPrefixLen:]
			switch c := bytes.Compare(k, least); {
			case least == nil || c < 0:
				least = k
				same = append(same[:0], i)
			case c == 0:
				same = append(same, i)
			}
		}
		if len(same) == 0 {
			break
		}
		g := chunk.n
		chunk.n++
		for _, acc := range chunk.accs {
			acc.resize(int(chunk.n))
		}
		for j, i := range same {
			val, err := its[i].Value()
			if err != nil {
				return fmt.Errorf("WindowAgg: %w", err)
			}
			if j == 0 {
				keyVals = keyVals[:0]
				if err := w.decodeDiskGroup(val, &keyVals, chunk, g); err != nil {
					return err
				}
				if err := kb.Append(types.Insert, keyVals); err != nil {
					return fmt.Errorf("WindowAgg: a group key in the state backend: %w", err)
				}
				continue
			}
			sg := scratch.n
			scratch.n++
			for _, acc := range scratch.accs {
				acc.resize(int(scratch.n))
			}
			if err := w.decodeDiskGroup(val, nil, scratch, sg); err != nil {
				return err
			}
			for k, acc := range chunk.accs {
				acc.(mergeableAcc).mergeFrom(g, scratch.accs[k], sg)
			}
		}
		for _, i := range same {
			its[i].Next()
		}
		if int(chunk.n) >= size {
			if err := emit(); err != nil {
				return err
			}
			if err := newChunk(); err != nil {
				return err
			}
		}
	}
	return emit()
}

// SnapshotDisk implements DiskStateOperator.
func (w *WindowAgg) SnapshotDisk(dir string) error {
	if err := w.flushDiskKeepingCache(); err != nil {
		return err
	}
	return w.disk.store.Checkpoint(dir)
}

// RestoreDisk implements DiskStateOperator.
func (w *WindowAgg) RestoreDisk(dir string) error {
	s, err := w.disk.ctx.restoreKeyedStore(dir)
	if err != nil {
		return err
	}
	_ = w.disk.store.Close()
	w.disk.store = s
	w.slices = map[int64]*aggBucket{}
	return nil
}

// windowAggDiskStateVersion is the format of a disk-backed WindowAgg's
// snapshot bytes: its shape, the watermark, the time up to which windows
// fired, then each bucket in order of its end: end, start and its number
// of groups in the store.
const windowAggDiskStateVersion = 1

func (w *WindowAgg) snapshotDiskState() ([]byte, error) {
	if err := w.flushDiskKeepingCache(); err != nil {
		return nil, err
	}
	d := w.disk
	wr := state.NewWriter(128)
	wr.Header("WindowAggOnDisk", windowAggDiskStateVersion)
	wr.String(w.stateShape())
	wr.Varint(w.wm)
	wr.Varint(w.progress)
	ends := make([]int64, 0, len(d.buckets))
	for e := range d.buckets {
		ends = append(ends, e)
	}
	slices.Sort(ends)
	wr.Count(len(ends))
	for _, e := range ends {
		wr.Varint(e)
		wr.Varint(d.buckets[e].start)
		wr.Varint(d.buckets[e].stored)
	}
	if err := wr.Err(); err != nil {
		return nil, fmt.Errorf("WindowAgg: %w", err)
	}
	return wr.Data(), nil
}

func (w *WindowAgg) restoreDiskState(snapshot []byte) error {
	r := state.NewReader(snapshot)
	r.Header("WindowAggOnDisk", windowAggDiskStateVersion)
	checkShape(r, "WindowAgg", w.stateShape())
	wm := r.Varint()
	progress := r.Varint()
	nb := r.Count(3)
	buckets := make(map[int64]*windowDiskBucket, nb)
	for i := 0; i < nb && r.Err() == nil; i++ {
		e := r.Varint()
		info := &windowDiskBucket{start: r.Varint(), stored: r.Varint()}
		if _, dup := buckets[e]; r.Err() == nil && dup {
			r.Failf("want the buckets in order of their end, found end %d twice", e)
		}
		buckets[e] = info
	}
	if err := r.Done(); err != nil {
		return fmt.Errorf("WindowAgg: restoring state: %w", err)
	}
	w.disk.buckets, w.wm, w.progress = buckets, wm, progress
	w.slices = map[int64]*aggBucket{}
	w.reportState()
	return nil
}
