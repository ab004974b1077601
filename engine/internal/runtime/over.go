package runtime

import (
	"fmt"
	"math"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// OverAggregate is the batch OVER operator (Flink's BatchExecOverAggregate
// after a sort): it reads its whole input, orders each group's rows by
// partition and order keys, and appends one column per call; the output
// rows come in the order of the last group's sort. Frames follow the SQL
// standard: ROWS counts rows, RANGE compares order key values (peers,
// rows with equal keys, share results under CURRENT ROW).
type OverAggregate struct {
	BaseOperator
	Groups  []opspec.OverGroup
	InTypes []*types.DataType
	// parts are the input rows in order: batches read whole, or the rows
	// a balanced exchange selects of its producers' batches
	parts []selectedRows
	total int
}

// errOverUpdates is the error of an OVER over an input with updates.
var errOverUpdates = fmt.Errorf("OverAggregate doesn't support consuming update and delete changes")

// ProcessBatch implements Operator.
func (o *OverAggregate) ProcessBatch(_ int, b *types.Batch) error {
	if !b.InsertOnly() {
		return errOverUpdates
	}
	if b.Len > 0 {
		o.parts = append(o.parts, selectedRows{b: b})
		o.total += b.Len
	}
	return nil
}

// processSelected implements selectedRowsConsumer: a balanced exchange's
// rows are kept where they are, not gathered into one batch.
func (o *OverAggregate) processSelected(_ int, parts []selectedRows, total int) error {
	for _, p := range parts {
		if !p.b.InsertOnly() {
			return errOverUpdates
		}
	}
	o.parts = append(o.parts, parts...)
	o.total += total
	return nil
}

// ProcessWatermark implements Operator: nothing happens before the end.
func (o *OverAggregate) ProcessWatermark(int, int64) error { return nil }

// EndInput computes and emits the result.
func (o *OverAggregate) EndInput(int) error {
	parts, total := o.parts, o.total
	o.parts, o.total = nil, 0
	if total == 0 {
		return o.Out.EmitWatermark(MaxWatermark)
	}
	out := o.rankParts(parts, total)
	if out == nil {
		var err error
		if out, err = o.evaluate(gatherParts(parts, total)); err != nil {
			return err
		}
	}
	size := max(o.Ctx.Config.BatchSize, 1)
	for i := 0; i < out.Len; i += size {
		if err := o.Emit(out.Slice(i, min(i+size, out.Len))); err != nil {
			return err
		}
	}
	return o.Out.EmitWatermark(MaxWatermark)
}

// gatherParts returns the selected rows of parts, total of them, as one
// batch: concatenated when the parts are whole batches, else gathered.
func gatherParts(parts []selectedRows, total int) *types.Batch {
	whole := true
	for _, p := range parts {
		whole = whole && p.sel == nil
	}
	if whole {
		bs := make([]*types.Batch, len(parts))
		for i, p := range parts {
			bs[i] = p.b
		}
		return ConcatBatches(bs, len(parts[0].b.Cols))
	}
	return gatherRows(parts, total)
}

// evaluate computes the groups' calls over all and returns all's rows in
// the order of the last group's sort with one column per call appended.
func (o *OverAggregate) evaluate(all *types.Batch) (*types.Batch, error) {
	var results []overResult
	var resTypes []*types.DataType
	var perm []int32
	var sorted *radixSorted
	var keys []opspec.SortKey
	for _, g := range o.Groups {
		keys = overSortKeys(g.PartitionKeys, g.Order)
		sorted = radixSort(all, keys)
		if sorted != nil {
			perm = sorted.perm()
		} else {
			perm = sortIndex(all, keys, o.InTypes)
		}
		res, err := evalOverGroup(all, perm, sorted, g, o.InTypes)
		if err != nil {
			return nil, err
		}
		results = append(results, res...)
		for _, c := range g.Calls {
			resTypes = append(resTypes, c.Type)
		}
	}
	var out *types.Batch
	if sorted != nil {
		out = sorted.rows(all, keys, perm)
	} else {
		out = TakeRows(all, perm)
	}
	for k, res := range results {
		out.Cols = append(out.Cols, res.column(perm, resTypes[k]))
	}
	return out, nil
}

// rankParts is evaluate for calls that read no column, only the rows'
// order and peers (ROW_NUMBER, RANK, DENSE_RANK, PERCENT_RANK, CUME_DIST,
// NTILE), over the selected rows of parts without gathering them first:
// every group's keys are coded for the radix sort straight from the parts
// (radixSortParts), and the output's key columns are decoded from the
// sorted codes, so only the other columns are gathered. It returns nil
// when the calls read columns or a group's keys cannot be radix sorted
// (evaluate then runs over the gathered rows).
func (o *OverAggregate) rankParts(parts []selectedRows, total int) *types.Batch {
	for _, g := range o.Groups {
		for _, c := range g.Calls {
			if !readsNoColumn(c.Func) {
				return nil
			}
		}
	}
	// one call's results, by position in its group's sort (perm; nil
	// for the last group's, whose sort is the output's order)
	type callResult struct {
		res  overResult
		perm []int32
		t    *types.DataType
	}
	var results []callResult
	var sorted *radixSorted
	var keys []opspec.SortKey
	// the calls read no column: evalOverGroup sees the rows' count only,
	// and with positions for rows it writes each result at its row's
	// position in the sort (the output's order for the last group)
	rowsOnly := &types.Batch{Len: total}
	positions := make([]int32, total)
	for i := range positions {
		positions[i] = int32(i)
	}
	for gi, g := range o.Groups {
		keys = overSortKeys(g.PartitionKeys, g.Order)
		if sorted = radixSortParts(parts, total, keys); sorted == nil {
			return nil
		}
		res, err := evalOverGroup(rowsOnly, positions, sorted, g, o.InTypes)
		if err != nil {
			// NTILE's bad argument: evaluate reports it
			return nil
		}
		var perm []int32
		if gi < len(o.Groups)-1 {
			perm = sorted.perm()
		}
		for k, c := range g.Calls {
			results = append(results, callResult{res[k], perm, c.Type})
		}
	}
	// the output's order as row positions, needed only to gather columns
	// that are no key of the last group and to put the earlier groups'
	// results in that order
	var perm []int32
	lastPerm := func() []int32 {
		if perm == nil {
			perm = sorted.perm()
		}
		return perm
	}
	ncols := len(parts[0].b.Cols)
	cols := sorted.columns(ncols, keys, lastPerm, func(c int) arrow.Array {
		if parts[0].b.Cols[c] == nil {
			return nil
		}
		return gatherColumn(parts, c, total)
	})
	for _, r := range results {
		if r.perm == nil {
			// the last group's: already in the output's order
			cols = append(cols, r.res.column(nil, r.t))
			continue
		}
		cols = append(cols, r.res.byRow(r.perm).column(lastPerm(), r.t))
	}
	return &types.Batch{Cols: cols, Len: total}
}

// readsNoColumn reports the OVER functions computed from the rows' order
// and peers alone.
func readsNoColumn(fn string) bool {
	switch fn {
	case "ROW_NUMBER", "RANK", "DENSE_RANK", "PERCENT_RANK", "CUME_DIST", "NTILE":
		return true
	}
	return false
}

// overSortKeys returns the keys a group's rows are sorted by: partition
// keys (ascending) then order keys.
func overSortKeys(part []int, order []opspec.SortKey) []opspec.SortKey {
	keys := make([]opspec.SortKey, 0, len(part)+len(order))
	for _, p := range part {
		keys = append(keys, opspec.SortKey{Col: p, NullsFirst: true})
	}
	return append(keys, order...)
}

// overResult is one call's value for every input row: ints for the
// ranking functions that yield a non-NULL BIGINT (ROW_NUMBER, RANK,
// DENSE_RANK, NTILE), vals (Go values, nil = NULL) for the others.
type overResult struct {
	ints []int64
	vals []any
}

// column returns the results in the order of perm as an Arrow array of
// type t; in their own order when perm is nil (a BIGINT column then
// takes over r.ints without a copy).
func (r overResult) column(perm []int32, t *types.DataType) arrow.Array {
	at := types.ToArrow(t)
	if r.ints != nil && at.ID() == arrow.INT64 {
		if perm == nil {
			return vector.FromValues(at, r.ints, nil, -1)
		}
		out := make([]int64, len(perm))
		for p, row := range perm {
			out[p] = r.ints[row]
		}
		return vector.FromValues(at, out, nil, -1)
	}
	bld := array.NewBuilder(memory.DefaultAllocator, at)
	n := len(perm)
	if perm == nil {
		n = max(len(r.ints), len(r.vals))
	}
	for p := range n {
		row := p
		if perm != nil {
			row = int(perm[p])
		}
		if r.ints != nil {
			types.AppendValue(bld, r.ints[row], t)
		} else {
			types.AppendValue(bld, r.vals[row], t)
		}
	}
	return bld.NewArray()
}

// byRow returns results held by sorted position (result q is row
// perm[q]'s) by row.
func (r overResult) byRow(perm []int32) overResult {
	var out overResult
	if r.ints != nil {
		out.ints = make([]int64, len(r.ints))
		for q, row := range perm {
			out.ints[row] = r.ints[q]
		}
	}
	if r.vals != nil {
		out.vals = make([]any, len(r.vals))
		for q, row := range perm {
			out.vals[row] = r.vals[q]
		}
	}
	return out
}

// intRanking reports the functions whose results are overResult.ints.
func intRanking(fn string) bool {
	switch fn {
	case "ROW_NUMBER", "RANK", "DENSE_RANK", "NTILE":
		return true
	}
	return false
}

// evalOverGroup computes a group's calls over the rows in sorted order
// perm (sorted, when not nil, holds the radix sort's packed codes in that
// order: partitions and peers are then runs of equal codes); results[k]
// holds call k's value for every input row.
func evalOverGroup(b *types.Batch, perm []int32, sorted *radixSorted, g opspec.OverGroup, ts []*types.DataType) ([]overResult, error) {
	results := make([]overResult, len(g.Calls))
	for k, c := range g.Calls {
		if intRanking(c.Func) {
			results[k].ints = make([]int64, b.Len)
		} else {
			results[k].vals = make([]any, b.Len)
		}
	}
	// samePart and samePeer report whether sorted positions p and q (of
	// the same partition, for samePeer) are in the same partition and have
	// equal order keys
	var samePart, samePeer func(p, q int) bool
	switch {
	case sorted != nil:
		packed := sorted.packed
		partShift := sorted.leadingShift(len(g.PartitionKeys))
		peerShift := sorted.posBits
		samePart = func(p, q int) bool { return packed[p]>>partShift == packed[q]>>partShift }
		samePeer = func(p, q int) bool { return packed[p]>>peerShift == packed[q]>>peerShift }
	default:
		if len(g.PartitionKeys) > 0 {
			eq := newRowEqual(b, g.PartitionKeys, ts)
			samePart = func(p, q int) bool { return eq(int(perm[p]), int(perm[q])) }
		} else {
			samePart = func(p, q int) bool { return true }
		}
		if len(g.Order) > 0 {
			cmp := newRowComparator(b, g.Order, ts)
			samePeer = func(p, q int) bool { return cmp(int(perm[p]), int(perm[q])) == 0 }
		} else {
			samePeer = func(p, q int) bool { return true }
		}
	}
	// the partitions' ends, when the sort knows them (its buckets by the
	// one partition key): no row read to find them
	var partEnds []int
	if sorted != nil && len(g.PartitionKeys) == 1 && sorted.leadEnds != nil {
		partEnds = sorted.leadEnds
	}
	for start := 0; start < len(perm); {
		end := start + 1
		if partEnds != nil {
			for partEnds[0] <= start {
				partEnds = partEnds[1:]
			}
			end = partEnds[0]
		} else if sorted != nil {
			// runs of equal codes: read in place, no call per row
			packed, partShift := sorted.packed, sorted.leadingShift(len(g.PartitionKeys))
			key := packed[start] >> partShift
			for end < len(packed) && packed[end]>>partShift == key {
				end++
			}
		} else {
			for end < len(perm) && samePart(start, end) {
				end++
			}
		}
		part := perm[start:end]
		peer := func(p, q int) bool { return samePeer(start+p, start+q) }
		if err := evalPartition(b, part, g, peer, results); err != nil {
			return nil, err
		}
		start = end
	}
	return results, nil
}

// evalPartition computes the calls over one partition (rows in order;
// samePeer reports whether positions p and q of rows have equal order
// keys).
func evalPartition(b *types.Batch, rows []int32, g opspec.OverGroup, samePeer func(p, q int) bool, results []overResult) error {
	n := len(rows)
	// peer groups: [peerStart[p], peerEnd[p]) rows with equal order keys;
	// ROW_NUMBER, NTILE, LEAD and LAG do not look at them
	var peerStart, peerEnd []int
	for _, c := range g.Calls {
		switch c.Func {
		case "ROW_NUMBER", "NTILE", "LEAD", "LAG":
			continue
		}
		peerStart, peerEnd = peerGroups(len(rows), samePeer)
		break
	}
	for k, c := range g.Calls {
		res, ints := results[k].vals, results[k].ints
		switch c.Func {
		case "ROW_NUMBER":
			for p, r := range rows {
				ints[r] = int64(p + 1)
			}
			continue
		case "RANK":
			for p, r := range rows {
				ints[r] = int64(peerStart[p] + 1)
			}
			continue
		case "DENSE_RANK":
			rank := int64(0)
			for p, r := range rows {
				if p == peerStart[p] {
					rank++
				}
				ints[r] = rank
			}
			continue
		case "PERCENT_RANK":
			for p, r := range rows {
				if n <= 1 {
					res[r] = 0.0
				} else {
					res[r] = float64(peerStart[p]) / float64(n-1)
				}
			}
			continue
		case "CUME_DIST":
			for p, r := range rows {
				res[r] = float64(peerEnd[p]) / float64(n)
			}
			continue
		case "NTILE":
			buckets := c.Offset
			if buckets <= 0 {
				return fmt.Errorf("Argument of NTILE must be greater than zero")
			}
			size, extra := int64(n)/buckets, int64(n)%buckets
			for p, r := range rows {
				// the first `extra` buckets hold size+1 rows
				pp := int64(p)
				var bucket int64
				if pp < extra*(size+1) {
					bucket = pp/(size+1) + 1
				} else {
					bucket = extra + (pp-extra*(size+1))/max(size, 1) + 1
				}
				ints[r] = bucket
			}
			continue
		case "LEAD", "LAG":
			evalLeadLag(b, rows, c, res)
			continue
		}
		if err := evalFramed(b, rows, g.Frame, g.Order, c, peerStart, peerEnd, res); err != nil {
			return err
		}
	}
	return nil
}

// peerGroups returns, for each of a partition's n positions, the bounds
// [start, end) of its peers: the positions with equal order keys.
func peerGroups(n int, samePeer func(p, q int) bool) (peerStart, peerEnd []int) {
	peerStart = make([]int, n)
	peerEnd = make([]int, n)
	for p := 0; p < n; {
		q := p + 1
		for q < n && samePeer(p, q) {
			q++
		}
		for r := p; r < q; r++ {
			peerStart[r], peerEnd[r] = p, q
		}
		p = q
	}
	return peerStart, peerEnd
}

func evalLeadLag(b *types.Batch, rows []int32, c opspec.OverCall, res []any) {
	col := b.Cols[c.Args[0]]
	t := c.ArgTypes[0]
	off := c.Offset
	if c.Func == "LAG" {
		off = -off
	}
	for p, r := range rows {
		q := int64(p)
		var v any = c.Default
		if c.IgnoreNulls {
			steps := off
			dir := int64(1)
			if steps < 0 {
				steps, dir = -steps, -1
			}
			found := false
			for q+dir >= 0 && q+dir < int64(len(rows)) {
				q += dir
				if !col.IsNull(int(rows[q])) {
					steps--
					if steps == 0 {
						found = true
						break
					}
				}
			}
			if found {
				v = types.ValueAt(col, int(rows[q]), t)
			}
		} else if q+off >= 0 && q+off < int64(len(rows)) {
			v = types.ValueAt(col, int(rows[q+off]), t)
		}
		res[r] = v
	}
}

// frameBounds returns the frame [lo, hi] (positions, hi inclusive; lo > hi
// is empty) of every position.
func frameBounds(b *types.Batch, rows []int32, f opspec.OverFrame, order []opspec.SortKey, peerStart, peerEnd []int) ([]int, []int, error) {
	n := len(rows)
	lo := make([]int, n)
	hi := make([]int, n)
	var keyVals []float64
	var keyNull []bool
	if !f.Rows && (f.Lower.Kind == opspec.Preceding || f.Lower.Kind == opspec.Following || f.Upper.Kind == opspec.Preceding || f.Upper.Kind == opspec.Following) {
		if len(order) != 1 {
			return nil, nil, fmt.Errorf("RANGE with an offset requires exactly one ORDER BY key")
		}
		col := b.Cols[order[0].Col]
		keyVals = make([]float64, n)
		keyNull = make([]bool, n)
		for p, r := range rows {
			if col.IsNull(int(r)) {
				keyNull[p] = true
				continue
			}
			keyVals[p] = orderKeyNumber(col, int(r))
		}
	}
	desc := len(order) > 0 && order[0].Desc
	// rangeBound finds, for position p, the frame edge at distance off
	// (negative = preceding) on the key.
	rangeLo := func(p int, off float64) int {
		if keyNull[p] {
			return peerStart[p]
		}
		target := keyVals[p] + off
		if desc {
			target = keyVals[p] - off
		}
		q := p
		for q > 0 && !keyNull[q-1] && inRange(keyVals[q-1], target, desc, true) {
			q--
		}
		for q < n && (keyNull[q] || !inRange(keyVals[q], target, desc, true)) {
			q++
		}
		return q
	}
	rangeHi := func(p int, off float64) int {
		if keyNull[p] {
			return peerEnd[p] - 1
		}
		target := keyVals[p] + off
		if desc {
			target = keyVals[p] - off
		}
		q := p
		for q+1 < n && !keyNull[q+1] && inRange(keyVals[q+1], target, desc, false) {
			q++
		}
		for q >= 0 && (keyNull[q] || !inRange(keyVals[q], target, desc, false)) {
			q--
		}
		return q
	}
	for p := 0; p < n; p++ {
		switch f.Lower.Kind {
		case opspec.UnboundedPreceding:
			lo[p] = 0
		case opspec.CurrentRow:
			lo[p] = p
			if !f.Rows {
				lo[p] = peerStart[p]
			}
		case opspec.Preceding:
			if f.Rows {
				lo[p] = p - int(f.Lower.Offset)
			} else {
				lo[p] = rangeLo(p, -f.Lower.Offset)
			}
		case opspec.Following:
			if f.Rows {
				lo[p] = p + int(f.Lower.Offset)
			} else {
				lo[p] = rangeLo(p, f.Lower.Offset)
			}
		case opspec.UnboundedFollowing:
			lo[p] = n
		}
		switch f.Upper.Kind {
		case opspec.UnboundedFollowing:
			hi[p] = n - 1
		case opspec.CurrentRow:
			hi[p] = p
			if !f.Rows {
				hi[p] = peerEnd[p] - 1
			}
		case opspec.Preceding:
			if f.Rows {
				hi[p] = p - int(f.Upper.Offset)
			} else {
				hi[p] = rangeHi(p, -f.Upper.Offset)
			}
		case opspec.Following:
			if f.Rows {
				hi[p] = p + int(f.Upper.Offset)
			} else {
				hi[p] = rangeHi(p, f.Upper.Offset)
			}
		case opspec.UnboundedPreceding:
			hi[p] = -1
		}
		lo[p] = max(lo[p], 0)
		hi[p] = min(hi[p], n-1)
	}
	return lo, hi, nil
}

// inRange reports whether v is within the bound target: for a lower bound
// v >= target (ascending), for an upper bound v <= target; reversed for
// descending order.
func inRange(v, target float64, desc, lower bool) bool {
	if desc {
		lower = !lower
	}
	if lower {
		return v >= target
	}
	return v <= target
}

// orderKeyNumber reads an order key as a number for RANGE offsets:
// milliseconds for dates and times.
func orderKeyNumber(col arrow.Array, i int) float64 {
	switch a := col.(type) {
	case *array.Timestamp:
		unit := a.DataType().(*arrow.TimestampType).Unit
		per := float64(types.UnitsPerSecond(unit)) / 1000
		return float64(a.Value(i)) / per
	case *array.Date32:
		return float64(a.Value(i)) * 86_400_000
	case *array.Time32:
		return float64(a.Value(i))
	case *array.Time64:
		return float64(a.Value(i)) / 1e6
	case *array.Decimal128:
		s := a.DataType().(*arrow.Decimal128Type).Scale
		f, _ := a.Value(i).BigInt().Float64()
		return f / math.Pow10(int(s))
	}
	return float64Of(col, i)
}

// evalFramed computes an aggregate or FIRST_VALUE/LAST_VALUE over frames
// with a sliding accumulator (rows enter at the top and are retracted at
// the bottom: frames only move forward).
func evalFramed(b *types.Batch, rows []int32, f opspec.OverFrame, order []opspec.SortKey, c opspec.OverCall, peerStart, peerEnd []int, res []any) error {
	lo, hi, err := frameBounds(b, rows, f, order, peerStart, peerEnd)
	if err != nil {
		return err
	}
	if c.IsValue() {
		col := b.Cols[c.Args[0]]
		t := c.ArgTypes[0]
		for p, r := range rows {
			res[r] = nil
			if lo[p] > hi[p] {
				continue
			}
			if c.Func == "FIRST_VALUE" {
				for q := lo[p]; q <= hi[p]; q++ {
					if !c.IgnoreNulls || !col.IsNull(int(rows[q])) {
						res[r] = types.ValueAt(col, int(rows[q]), t)
						break
					}
				}
			} else {
				for q := hi[p]; q >= lo[p]; q-- {
					if !c.IgnoreNulls || !col.IsNull(int(rows[q])) {
						res[r] = types.ValueAt(col, int(rows[q]), t)
						break
					}
				}
			}
		}
		return nil
	}
	acc, err := newAccumulator(overAggSpec(c), true)
	if err != nil {
		return err
	}
	acc.resize(1)
	var args []arrow.Array
	for _, a := range c.Args {
		args = append(args, b.Cols[a])
	}
	var filter *array.Boolean
	if c.Filter >= 0 {
		filter = b.Cols[c.Filter].(*array.Boolean)
	}
	update := func(q int, retract bool) {
		r := int(rows[q])
		if filter != nil && (!filter.IsValid(r) || !filter.Value(r)) {
			return
		}
		acc.update(0, args, r, retract)
	}
	curLo, curHi := 0, -1 // current frame [curLo, curHi]
	for p, r := range rows {
		l, h := lo[p], hi[p]
		if l > h {
			// empty frame: a fresh accumulator
			if curLo <= curHi {
				for q := curLo; q <= curHi; q++ {
					update(q, true)
				}
			}
			curLo, curHi = l, l-1
			res[r] = acc.result(0)
			continue
		}
		if l > curHi || curLo > curHi {
			for q := curLo; q <= curHi; q++ {
				update(q, true)
			}
			for q := l; q <= h; q++ {
				update(q, false)
			}
		} else {
			for q := curHi + 1; q <= h; q++ {
				update(q, false)
			}
			for q := curLo; q < l; q++ {
				update(q, true)
			}
		}
		curLo, curHi = l, h
		res[r] = acc.result(0)
	}
	return nil
}

// durationMillis converts an interval literal value to milliseconds.
func durationMillis(v any) (float64, bool) {
	switch d := v.(type) {
	case time.Duration:
		return float64(d / time.Millisecond), true
	}
	return 0, false
}

// overAggSpec is the aggregate call an OVER aggregate computes.
func overAggSpec(c opspec.OverCall) opspec.AggSpec {
	return opspec.AggSpec{Func: c.Func, Args: c.Args, ArgTypes: c.ArgTypes, Distinct: c.Distinct, Filter: c.Filter, Type: c.Type}
}
