package runtime

import (
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// aggBucket is the aggregation state of one slice or window: a hash table
// from group keys to dense ids and one accumulator per aggregate.
type aggBucket struct {
	index     groupIndex
	accs      []accumulator
	n         int32
	keyChunks [][]arrow.Array
	// start is the window start (session and attached windows).
	start int64
	gids  []int32
	// load, when set (the disk state backend), gives a new group g, of
	// row row of the batch being added, its state kept in the store
	// before the batch is accumulated (windowagg_disk.go)
	load func(g int32, in *types.Batch, row int)
}

func newAggBucket(keys []int, keyTypes []*types.DataType, aggs []opspec.AggSpec) (*aggBucket, error) {
	b := &aggBucket{index: newGroupIndex(keys, keyTypes)}
	for _, s := range aggs {
		acc, err := newAccumulator(s, false)
		if err != nil {
			return nil, err
		}
		b.accs = append(b.accs, acc)
	}
	return b, nil
}

// add accumulates the insert-only rows of in (key columns keys).
func (bk *aggBucket) add(in *types.Batch, keys []int, aggs []opspec.AggSpec) {
	if cap(bk.gids) < in.Len {
		bk.gids = make([]int32, in.Len)
	}
	gids := bk.gids[:in.Len]
	var newRows []int32
	for i := 0; i < in.Len; i++ {
		g, isNew := bk.index.lookup(in, i, bk.n)
		if isNew {
			bk.n++
			newRows = append(newRows, int32(i))
		}
		gids[i] = g
	}
	if len(newRows) > 0 {
		chunk := make([]arrow.Array, len(keys))
		for k, c := range keys {
			chunk[k] = vector.Take(in.Cols[c], newRows)
		}
		bk.keyChunks = append(bk.keyChunks, chunk)
		for _, acc := range bk.accs {
			acc.resize(int(bk.n))
		}
		if bk.load != nil {
			for _, i := range newRows {
				bk.load(gids[i], in, int(i))
			}
		}
	}
	accumulateAggs(bk.accs, aggs, in, gids)
}

// accumulateAggs adds the rows of in (group ids gids) to the accumulators,
// honouring FILTER columns.
func accumulateAggs(accs []accumulator, aggs []opspec.AggSpec, in *types.Batch, gids []int32) {
	var filtered []int32
	for k, s := range aggs {
		var args []arrow.Array
		if len(s.Args) > 0 {
			args = make([]arrow.Array, len(s.Args))
			for i, c := range s.Args {
				args[i] = in.Cols[c]
			}
		}
		if s.Filter >= 0 {
			if filtered == nil {
				filtered = make([]int32, len(gids))
			}
			f := in.Cols[s.Filter].(*array.Boolean)
			for i, g := range gids {
				if f.IsValid(i) && f.Value(i) {
					filtered[i] = g
				} else {
					filtered[i] = -1
				}
			}
			accs[k].accumulateBatch(filtered, args)
			continue
		}
		accs[k].accumulateBatch(gids, args)
	}
}

// keyColumns concatenates the key chunks.
func (bk *aggBucket) keyColumns(nKeys int) []arrow.Array {
	cols := make([]arrow.Array, nKeys)
	for k := 0; k < nKeys; k++ {
		parts := make([]arrow.Array, len(bk.keyChunks))
		for c, chunk := range bk.keyChunks {
			parts[c] = chunk[k]
		}
		if len(parts) == 1 {
			cols[k] = parts[0]
		} else {
			cols[k] = vector.Concat(parts)
		}
	}
	return cols
}

func (bk *aggBucket) size() int64 {
	bytes := bk.index.size()
	for _, acc := range bk.accs {
		bytes += acc.size()
	}
	return bytes
}

// mergeBuckets combines the groups of several buckets (the slices of one
// window) into a new bucket. Every accumulator must be mergeable.
func mergeBuckets(bs []*aggBucket, keyTypes []*types.DataType, aggs []opspec.AggSpec) (*aggBucket, error) {
	if len(bs) == 1 {
		return bs[0], nil
	}
	nKeys := len(keyTypes)
	keyIdx := make([]int, nKeys)
	for i := range keyIdx {
		keyIdx[i] = i
	}
	out, err := newAggBucket(keyIdx, keyTypes, aggs)
	if err != nil {
		return nil, err
	}
	for _, b := range bs {
		if b.n == 0 {
			continue
		}
		kb := &types.Batch{Cols: b.keyColumns(nKeys), Len: int(b.n)}
		var newRows []int32
		for g := int32(0); g < b.n; g++ {
			dg, isNew := out.index.lookup(kb, int(g), out.n)
			if isNew {
				out.n++
				newRows = append(newRows, g)
				for _, acc := range out.accs {
					acc.resize(int(out.n))
				}
			}
			for k, acc := range out.accs {
				acc.(mergeableAcc).mergeFrom(dg, b.accs[k], g)
			}
		}
		if len(newRows) > 0 {
			chunk := make([]arrow.Array, nKeys)
			for k := range chunk {
				chunk[k] = vector.Take(kb.Cols[k], newRows)
			}
			out.keyChunks = append(out.keyChunks, chunk)
		}
	}
	return out, nil
}

// WindowAgg is the window aggregation of aligned windows (TUMBLE, HOP,
// CUMULATE) over insert-only input, following Flink's slicing window
// aggregate (SlicingWindowOperator): each row is accumulated once, into
// the slice its timestamp falls in; when the watermark passes a window's
// end the window's slices are merged and one row per group is emitted
// (insert-only), then slices no later window needs are dropped. A row
// whose slice and every window containing it already fired is late: it is
// dropped and counted in OperatorMetrics.LateDropped. Rows with a NULL
// time attribute are dropped.
//
// With Attached set, the input already carries window_start and
// window_end (a window aggregation over the output of another window
// operator, Flink's WindowAttachedWindowingStrategy): rows are grouped by
// those columns and each window fires when the watermark passes its end.
//
// Output columns: the key columns, one column per aggregate, then the
// requested window properties.
type WindowAgg struct {
	BaseOperator
	Keys     []int
	KeyTypes []*types.DataType
	Aggs     []opspec.AggSpec
	OutTypes []*types.DataType
	Window   opspec.WindowSpec
	// TimeCol is the time attribute column (unattached windows).
	TimeCol int
	// Attached windows: columns holding window_start and window_end.
	Attached         bool
	StartCol, EndCol int
	Props            []opspec.WindowProp

	slices   map[int64]*aggBucket
	wm       int64
	progress int64 // the time up to which windows fired
	mergeOK  bool
	windowOf []int64
	clock    Clock
	// disk keeps the buckets' groups in the disk state backend, the
	// buckets above being a cache of them (windowagg_disk.go); nil: all
	// in memory
	disk *windowDisk
}

// Open implements Operator.
func (w *WindowAgg) Open(ctx *OpContext, out Output) error {
	w.BaseOperator.Open(ctx, out)
	w.slices = map[int64]*aggBucket{}
	w.wm, w.progress = MinWatermark, MinWatermark
	w.clock = ctx.Config.clock()
	probe, err := newAggBucket(w.Keys, w.KeyTypes, w.Aggs)
	if err != nil {
		return err
	}
	w.mergeOK = canMerge(probe.accs)
	if err := w.Window.Validate(); err != nil {
		return err
	}
	return w.openDisk(ctx)
}

// Close implements Operator.
func (w *WindowAgg) Close() error { return w.closeDisk() }

// sliced reports whether rows go to slices shared by windows (else each
// row is accumulated into every window containing it, for aggregates that
// cannot merge).
func (w *WindowAgg) sliced() bool {
	return w.Attached || w.Window.Kind == opspec.TumbleWindow || w.mergeOK
}

// ProcessBatch implements Operator.
func (w *WindowAgg) ProcessBatch(_ int, b *types.Batch) error {
	if !b.InsertOnly() {
		return fmt.Errorf("window aggregate doesn't support consuming update and delete changes")
	}
	if w.disk != nil {
		if err := w.maybeEvict(); err != nil {
			return err
		}
	}
	if w.Attached {
		return w.processAttached(b)
	}
	var ts []int64
	var valid []byte
	if w.Window.Proctime {
		now := w.Window.ToLocal(w.clock.Now().UnixMilli())
		ts = make([]int64, b.Len)
		for i := range ts {
			ts[i] = now
		}
	} else {
		ts, valid = timestampsMillis(b.Cols[w.TimeCol])
		if w.Window.Zone != nil {
			local := make([]int64, len(ts))
			for i, t := range ts {
				local[i] = w.Window.ToLocal(t)
			}
			ts = local
		}
	}
	// target bucket per row: the slice end (sliced) or each window end
	groups := map[int64][]int32{}
	var order []int64
	late := int64(0)
	for i := 0; i < b.Len; i++ {
		if valid != nil && !vector.BitIsSet(valid, i) {
			continue
		}
		if w.sliced() {
			e := w.Window.SliceEnd(ts[i])
			if w.Window.Kind == opspec.HopWindow && !w.Attached && w.Window.LastWindowEnd(e) < e {
				continue // in a gap between windows (slide > size): no window
			}
			if !w.Window.Proctime && windowFired(w.Window, e, w.wm) && windowFired(w.Window, w.Window.LastWindowEnd(e), w.wm) {
				late++
				continue
			}
			if _, ok := groups[e]; !ok {
				order = append(order, e)
			}
			groups[e] = append(groups[e], int32(i))
			continue
		}
		var ws [][2]int64
		ws = w.Window.WindowsOf(ts[i], ws)
		kept := false
		for _, win := range ws {
			if !w.Window.Proctime && windowFired(w.Window, win[1], w.wm) {
				continue
			}
			kept = true
			if _, ok := groups[win[1]]; !ok {
				order = append(order, win[1])
			}
			groups[win[1]] = append(groups[win[1]], int32(i))
		}
		if !kept {
			late++
		}
	}
	if late > 0 {
		w.Ctx.Metrics.LateDropped.Add(late)
	}
	for _, e := range order {
		sel := groups[e]
		sub := b
		if len(sel) != b.Len {
			sub = TakeRows(b, sel)
		}
		bk := w.slices[e]
		if bk == nil {
			var err error
			if bk, err = newAggBucket(w.Keys, w.KeyTypes, w.Aggs); err != nil {
				return err
			}
			w.slices[e] = bk
			w.diskBucket(e, bk)
		}
		bk.add(sub, w.Keys, w.Aggs)
	}
	if err := w.diskErr(); err != nil {
		return err
	}
	w.reportState()
	return nil
}

func (w *WindowAgg) processAttached(b *types.Batch) error {
	starts, _ := timestampsMillis(b.Cols[w.StartCol])
	ends, valid := timestampsMillis(b.Cols[w.EndCol])
	groups := map[int64][]int32{}
	var order []int64
	late := int64(0)
	for i := 0; i < b.Len; i++ {
		if valid != nil && !vector.BitIsSet(valid, i) {
			continue
		}
		e := ends[i]
		if windowFired(w.Window, e, w.wm) {
			late++
			continue
		}
		if _, ok := groups[e]; !ok {
			order = append(order, e)
		}
		groups[e] = append(groups[e], int32(i))
	}
	if late > 0 {
		w.Ctx.Metrics.LateDropped.Add(late)
	}
	for _, e := range order {
		sel := groups[e]
		sub := b
		if len(sel) != b.Len {
			sub = TakeRows(b, sel)
		}
		bk := w.slices[e]
		if bk == nil {
			var err error
			if bk, err = newAggBucket(w.Keys, w.KeyTypes, w.Aggs); err != nil {
				return err
			}
			bk.start = starts[sel[0]]
			w.slices[e] = bk
			w.diskBucket(e, bk)
		}
		bk.add(sub, w.Keys, w.Aggs)
	}
	if err := w.diskErr(); err != nil {
		return err
	}
	w.reportState()
	return nil
}

// ProcessWatermark fires the windows the watermark completes, in order of
// their end, then forwards the watermark.
func (w *WindowAgg) ProcessWatermark(_ int, wm int64) error {
	if wm <= w.wm {
		return nil
	}
	if !w.Window.Proctime || wm == MaxWatermark {
		if err := w.fire(wm); err != nil {
			return err
		}
	}
	w.wm = wm
	return w.Out.EmitWatermark(wm)
}

// OnProcessingTime fires processing-time windows that ended by now.
func (w *WindowAgg) OnProcessingTime(now int64) error {
	if !w.Window.Proctime {
		return nil
	}
	return w.fire(now)
}

// NextProcessingTime returns the earliest processing time (epoch ms) at
// which a window fires, for processing-time windows.
func (w *WindowAgg) NextProcessingTime() (int64, bool) {
	if w.disk != nil {
		return w.diskNextProcessingTime()
	}
	if !w.Window.Proctime || len(w.slices) == 0 {
		return 0, false
	}
	next := int64(MaxWatermark)
	for e := range w.slices {
		ends := w.windowEndsOf(e)
		if len(ends) > 0 && ends[0] < next {
			next = ends[0]
		}
	}
	return w.Window.ToUTC(next) - 1, true
}

// windowEndsOf lists the windows fed by a bucket.
func (w *WindowAgg) windowEndsOf(e int64) []int64 {
	if w.Attached || !w.sliced() {
		return []int64{e}
	}
	w.windowOf = w.Window.WindowEndsOfSlice(e, w.windowOf)
	return w.windowOf
}

// fire emits every window with data whose end is complete at wm and not
// already fired.
func (w *WindowAgg) fire(wm int64) error {
	if w.disk != nil {
		return w.fireDisk(wm)
	}
	if len(w.slices) == 0 {
		w.progress = max(w.progress, wm)
		return nil
	}
	seen := map[int64]bool{}
	var ends []int64
	for e := range w.slices {
		for _, we := range w.windowEndsOf(e) {
			if windowFired(w.Window, we, wm) && !windowFired(w.Window, we, w.progress) && !seen[we] {
				seen[we] = true
				ends = append(ends, we)
			}
		}
	}
	sort.Slice(ends, func(i, j int) bool { return ends[i] < ends[j] })
	var parts []int64
	for _, we := range ends {
		var bk *aggBucket
		start := w.Window.WindowStart(we)
		if w.Attached || !w.sliced() {
			bk = w.slices[we]
			if w.Attached {
				start = bk.start
			}
		} else {
			parts = w.Window.SlicesOfWindow(we, parts)
			var bs []*aggBucket
			for _, p := range parts {
				if s := w.slices[p]; s != nil && s.n > 0 {
					bs = append(bs, s)
				}
			}
			if len(bs) == 0 {
				continue
			}
			var err error
			if bk, err = mergeBuckets(bs, w.KeyTypes, w.Aggs); err != nil {
				return err
			}
		}
		if bk == nil || bk.n == 0 {
			continue
		}
		if err := w.emitWindow(bk, start, we); err != nil {
			return err
		}
		// drop buckets no later window needs
		if w.Attached || !w.sliced() {
			delete(w.slices, we)
		} else {
			for _, p := range parts {
				if s, ok := w.slices[p]; ok && w.Window.LastWindowEnd(p) <= we {
					_ = s
					delete(w.slices, p)
				}
			}
		}
	}
	w.progress = wm
	if w.sliced() && !w.Attached {
		// slices whose windows all fired (possible when a window had no data)
		for e := range w.slices {
			if windowFired(w.Window, w.Window.LastWindowEnd(e), wm) {
				delete(w.slices, e)
			}
		}
	}
	w.reportState()
	return nil
}

func (w *WindowAgg) emitWindow(bk *aggBucket, start, end int64) error {
	n := int(bk.n)
	nk := len(w.Keys)
	cols := make([]arrow.Array, 0, len(w.OutTypes))
	cols = append(cols, bk.keyColumns(nk)...)
	for k, acc := range bk.accs {
		cols = append(cols, resultArray(acc, n, w.OutTypes[nk+k]))
	}
	for i, p := range w.Props {
		t := w.OutTypes[nk+len(w.Aggs)+i]
		cols = append(cols, windowPropColumn(p, t, start, end, w.Window, w.clock, n))
	}
	size := w.Ctx.Config.BatchSize
	if size <= 0 {
		size = 4096
	}
	out := &types.Batch{Cols: cols, Len: n}
	for from := 0; from < n; from += size {
		if err := w.Emit(out.Slice(from, min(from+size, n))); err != nil {
			return err
		}
	}
	return nil
}

// windowPropColumn builds n copies of a window property of type t.
func windowPropColumn(p opspec.WindowProp, t *types.DataType, start, end int64, spec opspec.WindowSpec, clock Clock, n int) arrow.Array {
	var v int64
	switch p {
	case opspec.PropStart:
		v = start
	case opspec.PropEnd:
		v = end
	case opspec.PropTime:
		v = end - 1
		if t.Root == types.TimestampLTZRoot {
			v = spec.ToUTC(end) - 1
		}
	case opspec.PropProctime:
		v = clock.Now().UnixMilli()
	}
	vals := make([]int64, n)
	for i := range vals {
		vals[i] = v
	}
	return vector.FromValues(types.ToArrow(t), vals, nil, 0)
}

func (w *WindowAgg) reportState() {
	keys, bytes := w.StateSize()
	w.Ctx.ReportState(keys, bytes)
}

// StateSize implements StateReporter.
func (w *WindowAgg) StateSize() (int64, int64) {
	var keys, bytes int64
	for _, bk := range w.slices {
		keys += int64(bk.n)
		bytes += bk.size()
	}
	if w.disk != nil {
		// the memory is the cache's; the store's is bounded by its
		// block cache and write buffer
		return w.diskCount(), bytes
	}
	return keys, bytes
}
