package runtime

import (
	"sort"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// Rank is the streaming Top-N operator (Flink's Rank with ROW_NUMBER):
// per partition it keeps the rows ordered by the sort keys and emits the
// changes of the visible range [RankStart, RankEnd] (1-based), in one of
// two ways, as Flink's Top-N functions do:
//
//   - by position (Flink's "with row number" algorithm, and its
//     FastTop1Function): each rank whose row changes gets -U of the old
//     row and +U of the new one, in rank order; a rank that fills is +I,
//     one that empties -D. Used with a rank number (appended as a BIGINT
//     column), with an offset (RankStart > 1; the rows then carry no
//     number), and for a Top-1 (RankStart = RankEnd = 1) over insert-only
//     input (AppendFastStrategy picks FastTop1Function, whose partition
//     key is the unique key of its output).
//   - by membership (AppendOnlyTopNFunction and RetractableTopNFunction
//     without a row number): a row leaving the range is -D and a row
//     entering it +I. Used otherwise: a Top-N from rank 1 without the
//     number over insert-only input with N > 1, or over updating input
//     (RetractStrategy) for any N.
//
// Retracting input is supported. ORDER BY ... LIMIT n in streaming mode
// is a Rank without partition keys (Flink's SortLimit, the same
// functions).
type Rank struct {
	BaseOperator
	PartitionKeys []int
	Keys          []opspec.SortKey
	Types         []*types.DataType
	RankStart     int64
	RankEnd       int64 // -1: unbounded
	WithRankNum   bool
	// RankType is ROW_NUMBER (streaming), or RANK / DENSE_RANK (batch).
	RankType string
	// AppendOnly input lets a partition keep only its first RankEnd rows
	// (Flink's AppendOnlyTopNFunction); retracting input needs them all.
	AppendOnly bool
	// NoUpdateBefore leaves out -U rows (Flink's generateUpdateBefore =
	// false, when the consumer takes upserts).
	NoUpdateBefore bool

	parts  map[string]*rankPartition
	order  []*rankPartition // batch mode: partitions in first-seen order
	nRows  int64
	keyBuf []byte
	seq    int64
	ttl    ttlState // table.exec.state.ttl (rank_ttl.go); last is unused
	// disk keeps the partitions in the disk state backend, parts being a
	// cache of them (rank_disk.go); nil: all in memory
	disk *rankDisk
}

type rankRow struct {
	vals []any
	seq  int64 // arrival order, for stable ordering of ties
}

type rankPartition struct {
	rows    []*rankRow
	visible []*rankRow // rows currently emitted, in rank order
	last    int64      // epoch ms of the last write (with a state TTL)
	// with the disk state backend: changed since read or written, and
	// the store holds a (possibly older) value
	dirty, inStore bool
}

// Open implements Operator.
func (r *Rank) Open(ctx *OpContext, out Output) error {
	r.BaseOperator.Open(ctx, out)
	r.parts = map[string]*rankPartition{}
	if r.RankType == "" {
		r.RankType = "ROW_NUMBER"
	}
	if ctx.Batch && r.RankType != "ROW_NUMBER" {
		r.AppendOnly = false // ties may extend the range: keep every row
	}
	if !ctx.Batch {
		r.ttl.open(ctx)
	}
	return r.openDisk(ctx)
}

// EndInput emits the final Top-N of every partition in batch mode (rank
// numbers by ROW_NUMBER, RANK or DENSE_RANK).
func (r *Rank) EndInput(int) error {
	if !r.Ctx.Batch {
		return nil
	}
	var kinds []types.RowKind
	var rows [][]any
	for _, p := range r.order {
		rank, dense := int64(0), int64(0)
		for k, row := range p.rows {
			tie := k > 0 && r.sameKeys(p.rows[k-1], row)
			switch r.RankType {
			case "RANK":
				if !tie {
					rank = int64(k + 1)
				}
			case "DENSE_RANK":
				if !tie {
					dense++
				}
				rank = dense
			default:
				rank = int64(k + 1)
			}
			if rank < r.RankStart || (r.RankEnd >= 0 && rank > r.RankEnd) {
				continue
			}
			vals := row.vals
			if r.WithRankNum {
				vals = append(append([]any(nil), vals...), rank)
			}
			kinds = append(kinds, types.Insert)
			rows = append(rows, vals)
		}
	}
	if len(rows) == 0 {
		return nil
	}
	out := r.build(kinds, rows)
	out.Kinds = nil
	return r.Emit(out)
}

// sameKeys reports equal sort keys (ties).
func (r *Rank) sameKeys(a, b *rankRow) bool {
	for _, k := range r.Keys {
		if CompareValues(a.vals[k.Col], b.vals[k.Col]) != 0 {
			return false
		}
	}
	return true
}

func (r *Rank) less(a, b *rankRow) bool {
	for _, k := range r.Keys {
		x, y := a.vals[k.Col], b.vals[k.Col]
		var c int
		switch {
		case x == nil && y == nil:
			c = 0
		case x == nil || y == nil:
			if (x == nil) == k.NullsFirst {
				return true
			}
			return false
		default:
			c = CompareValues(x, y)
			if k.Desc {
				c = -c
			}
		}
		if c != 0 {
			return c < 0
		}
	}
	return a.seq < b.seq
}

// ProcessBatch implements Operator.
func (r *Rank) ProcessBatch(_ int, b *types.Batch) error {
	var kinds []types.RowKind
	var rows [][]any
	emit := func(k types.RowKind, row *rankRow, rank int64) {
		vals := row.vals
		if r.WithRankNum {
			vals = append(append([]any(nil), vals...), rank)
		}
		kinds = append(kinds, k)
		rows = append(rows, vals)
	}
	now := r.ttl.now()
	if r.disk != nil {
		if err := r.maybeEvict(); err != nil {
			return err
		}
	}
	for i := 0; i < b.Len; i++ {
		r.keyBuf = AppendRowKey(r.keyBuf[:0], b, r.PartitionKeys, i)
		p := r.parts[string(r.keyBuf)]
		if p == nil && r.disk != nil {
			var err error
			if p, err = r.diskPartition(string(r.keyBuf)); err != nil {
				return err
			}
		}
		if p != nil && r.expired(p, now) {
			// its state expired: the partition starts afresh, silently
			r.drop(string(r.keyBuf), p)
			p = nil
		}
		retract := b.Kind(i).IsRetract()
		if p == nil {
			if retract && !r.Ctx.Batch {
				continue // nothing to retract from (or its state expired)
			}
			p = &rankPartition{}
			r.parts[string(r.keyBuf)] = p
			if r.Ctx.Batch {
				r.order = append(r.order, p)
			}
		}
		p.dirty = true
		vals := b.Row(i, r.Types).Values
		if retract {
			found := false
			for k, row := range p.rows {
				if rowValuesEqual(row.vals, vals) {
					p.rows = append(p.rows[:k], p.rows[k+1:]...)
					r.nRows--
					found = true
					break
				}
			}
			if !found {
				continue // the row was not kept (or its state expired)
			}
			r.written(p, now)
		} else {
			r.seq++
			nr := &rankRow{vals: vals, seq: r.seq}
			pos := sort.Search(len(p.rows), func(k int) bool { return r.less(nr, p.rows[k]) })
			if r.AppendOnly && r.RankEnd >= 0 && r.RankType == "ROW_NUMBER" && pos >= int(r.RankEnd) {
				continue // never enters the Top-N
			}
			p.rows = append(p.rows, nil)
			copy(p.rows[pos+1:], p.rows[pos:])
			p.rows[pos] = nr
			r.nRows++
			if r.AppendOnly && r.RankEnd >= 0 && r.RankType == "ROW_NUMBER" && len(p.rows) > int(r.RankEnd) {
				p.rows[len(p.rows)-1] = nil
				p.rows = p.rows[:r.RankEnd]
				r.nRows--
			}
			r.written(p, now)
		}
		if r.Ctx.Batch {
			continue
		}
		// new visible range
		from := int(r.RankStart - 1)
		to := len(p.rows)
		if r.RankEnd >= 0 && int(r.RankEnd) < to {
			to = int(r.RankEnd)
		}
		var next []*rankRow
		if from < to {
			next = append(next, p.rows[from:to]...)
		}
		r.diff(p.visible, next, emit)
		p.visible = next
		if len(p.rows) == 0 && !r.Ctx.Batch {
			delete(r.parts, string(r.keyBuf)) // emptied by retractions
			if r.disk != nil {
				if err := r.diskDrop(string(r.keyBuf), p); err != nil {
					return err
				}
			}
		}
	}
	r.Ctx.ReportState(r.StateSize())
	if len(rows) == 0 {
		return nil
	}
	return r.Emit(r.build(kinds, rows))
}

// ByPosition reports whether r emits its changes rank by rank (-U/+U)
// rather than as rows leaving (-D) and entering (+I) the range; see Rank.
func (r *Rank) ByPosition() bool {
	return r.WithRankNum || r.RankStart > 1 || (r.AppendOnly && r.RankStart == 1 && r.RankEnd == 1)
}

func (r *Rank) diff(old, next []*rankRow, emit func(types.RowKind, *rankRow, int64)) {
	if !r.ByPosition() {
		inNext := map[*rankRow]bool{}
		for _, x := range next {
			inNext[x] = true
		}
		inOld := map[*rankRow]bool{}
		for _, x := range old {
			inOld[x] = true
			if !inNext[x] {
				emit(types.Delete, x, 0)
			}
		}
		for _, x := range next {
			if !inOld[x] {
				emit(types.Insert, x, 0)
			}
		}
		return
	}
	for k := 0; k < max(len(old), len(next)); k++ {
		rank := r.RankStart + int64(k)
		switch {
		case k >= len(next):
			emit(types.Delete, old[k], rank)
		case k >= len(old):
			emit(types.Insert, next[k], rank)
		case old[k] != next[k]:
			if !r.NoUpdateBefore {
				emit(types.UpdateBefore, old[k], rank)
			}
			emit(types.UpdateAfter, next[k], rank)
		}
	}
}

func (r *Rank) build(kinds []types.RowKind, rows [][]any) *types.Batch {
	ts := r.Types
	if r.WithRankNum {
		ts = append(append([]*types.DataType(nil), ts...), types.BigIntType().NotNull())
	}
	bs := make([]array.Builder, len(ts))
	for c, t := range ts {
		bs[c] = array.NewBuilder(memory.DefaultAllocator, types.ToArrow(t))
		bs[c].Reserve(len(rows))
		if sb, ok := bs[c].(*array.StringBuilder); ok {
			total := 0
			for _, row := range rows {
				if s, ok := row[c].(string); ok {
					total += len(s)
				}
			}
			sb.ReserveData(total)
		}
	}
	for _, row := range rows {
		for c, v := range row {
			types.AppendValue(bs[c], v, ts[c])
		}
	}
	cols := make([]arrow.Array, len(ts))
	for c, bld := range bs {
		cols[c] = bld.NewArray()
	}
	return &types.Batch{Cols: cols, Kinds: kinds, Len: len(rows)}
}

// StateSize implements StateReporter.
func (r *Rank) StateSize() (int64, int64) {
	if r.disk != nil {
		// the memory is the cache's; the store's is bounded by its
		// block cache and write buffer
		return r.diskCount(), int64(len(r.parts)) * int64(64+2*(32+24*len(r.Types)))
	}
	return int64(len(r.parts)), r.nRows*int64(32+24*len(r.Types)) + int64(len(r.parts))*64
}
