package runtime

import (
	"context"
	"fmt"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// LookupJoin is the processing-time temporal join against a bounded
// table (Flink's LookupJoin over a source whose rows are read into
// memory, as its filesystem connector does): Load reads the whole right
// table when the operator starts; each left row then looks up the rows of
// its key, keeps those satisfying the residual condition, and is emitted
// once per match (+I), or NULL-padded for a left join without match.
//
// The input is the left side's columns followed by the key columns
// (computed and cast to the right key types); the output is the left
// side's columns (without the key columns) and the right table's columns.
type LookupJoin struct {
	BaseOperator
	Kind opspec.JoinKind
	// NumLeft is the number of left columns in the input (before the keys).
	NumLeft int
	// KeyCols are the input's key columns; RightKeys the right table's.
	KeyCols, RightKeys []int
	RightTypes         []*types.DataType
	Residual           expr.Expr
	// Load reads the right table (ctx, the job's settings and expression
	// context of the operator).
	Load func(ctx context.Context, cfg JobConfig, ev *expr.Ctx) ([]*types.Batch, error)

	residual expr.Evaluator
	store    *RowStore
	keys     *joinKeyIndex
	rows     [][]int32 // key id -> right rows
}

// Open implements Operator: it reads the right table.
func (j *LookupJoin) Open(ctx *OpContext, out Output) error {
	j.BaseOperator.Open(ctx, out)
	if j.Residual != nil {
		ev, err := expr.Compile(j.Residual)
		if err != nil {
			return err
		}
		j.residual = ev
	}
	j.store = NewRowStore(j.RightTypes)
	spec := opspec.JoinSpec{LeftKeys: j.RightKeys, LeftTypes: j.RightTypes}
	j.keys = newJoinKeyIndex(spec)
	batches, err := j.Load(ctx.Ctx, ctx.Config, ctx.Eval)
	if err != nil {
		return fmt.Errorf("lookup join: reading the right table: %w", err)
	}
	for _, b := range batches {
		if b.Len == 0 {
			continue
		}
		ids := j.keys.ids(b, j.RightKeys, nil, true)
		base := j.store.Len()
		j.store.Append(b, nil)
		for i, k := range ids {
			if k < 0 {
				continue
			}
			for int(k) >= len(j.rows) {
				j.rows = append(j.rows, nil)
			}
			j.rows[k] = append(j.rows[k], base+int32(i))
		}
	}
	ctx.ReportState(int64(j.keys.n), j.store.Bytes())
	return nil
}

// ProcessBatch implements Operator.
func (j *LookupJoin) ProcessBatch(_ int, b *types.Batch) error {
	keyIDs := j.keys.ids(b, j.KeyCols, nil, false)
	var pRow, pEntry []int32
	for i, k := range keyIDs {
		if k < 0 || int(k) >= len(j.rows) {
			continue
		}
		for _, e := range j.rows[k] {
			pRow = append(pRow, int32(i))
			pEntry = append(pEntry, e)
		}
	}
	left := &types.Batch{Cols: b.Cols[:j.NumLeft], Kinds: b.Kinds, Len: b.Len}
	if j.residual != nil && len(pRow) > 0 {
		var err error
		if pRow, pEntry, err = keepResidualPairs(j.residual, j.Ctx.Eval, pairBatchOf(left, 0, j.store, pRow, pEntry), pRow, pEntry); err != nil {
			return err
		}
	}
	if j.Kind == opspec.LeftJoin {
		// NULL-pad left rows without a match, keeping input order
		var r2, e2 []int32
		p := 0
		for i := 0; i < b.Len; i++ {
			found := false
			for p < len(pRow) && int(pRow[p]) == i {
				r2 = append(r2, pRow[p])
				e2 = append(e2, pEntry[p])
				p++
				found = true
			}
			if !found {
				r2 = append(r2, int32(i))
				e2 = append(e2, -1)
			}
		}
		pRow, pEntry = r2, e2
	}
	if len(pRow) == 0 {
		return nil
	}
	cols := make([]arrow.Array, 0, j.NumLeft+len(j.RightTypes))
	for _, c := range left.Cols {
		cols = append(cols, vector.Take(c, pRow))
	}
	cols = append(cols, j.store.Gather(pEntry)...)
	var kinds []types.RowKind
	if b.Kinds != nil {
		kinds = make([]types.RowKind, len(pRow))
		for k, r := range pRow {
			kinds[k] = b.Kinds[r]
		}
	}
	return j.Emit(&types.Batch{Cols: cols, Kinds: kinds, Len: len(pRow)})
}

// StateSize implements StateReporter.
func (j *LookupJoin) StateSize() (int64, int64) { return int64(j.keys.n), j.store.Bytes() }

// TemporalJoin is the event-time temporal join (Flink's
// TemporalRowTimeJoinOperator): the right input is a versioned table
// (rows keyed by its primary key, versions ordered by its rowtime); left
// rows wait until the watermark passes their time and are then joined
// with the right version valid at that time — the latest version not
// after it, unless that version is a deletion. Output is insert-only
// (+I), NULL-padded for a left join without a valid version.
type TemporalJoin struct {
	BaseOperator
	Spec opspec.JoinSpec
	// LeftTime and RightTime are the rowtime columns of each side.
	LeftTime, RightTime int
	// NumLeft is the number of left columns output (the left input may
	// carry extra key columns after them).
	NumLeft int

	residual expr.Evaluator
	keys     *joinKeyIndex
	left     *RowStore
	right    *RowStore
	pending  map[int32][]temporalRow // left rows by key
	versions map[int32][]temporalVersion
	wms      *WatermarkTracker
	nPending int64
	// state retention (join_temporal_ttl.go): per key, the cleanup time
	// and the event-time timer
	ttl       ttlState // ttl.last is unused
	cleanupAt map[int32]int64
	evTimer   map[int32]int64
	// nVersions counts the versions held; multi holds the keys with more
	// than one (the only ones the watermark can prune); nextKeyScan is the
	// key count at which compactKeys looks again
	nVersions   int64
	multi       map[int32]struct{}
	nextKeyScan int32
}

type temporalRow struct {
	t   int64
	row int32 // left store row
}

type temporalVersion struct {
	t       int64
	row     int32 // right store row
	deleted bool
}

// Open implements Operator.
func (j *TemporalJoin) Open(ctx *OpContext, out Output) error {
	j.BaseOperator.Open(ctx, out)
	j.keys = newJoinKeyIndex(j.Spec)
	j.left = NewRowStore(j.Spec.LeftTypes)
	j.right = NewRowStore(j.Spec.RightTypes)
	j.pending = map[int32][]temporalRow{}
	j.versions = map[int32][]temporalVersion{}
	j.cleanupAt = map[int32]int64{}
	j.evTimer = map[int32]int64{}
	j.multi = map[int32]struct{}{}
	if !ctx.Batch {
		j.ttl.open(ctx)
	}
	j.wms = NewWatermarkTracker(2)
	if j.Spec.Residual != nil {
		ev, err := expr.Compile(j.Spec.Residual)
		if err != nil {
			return err
		}
		j.residual = ev
	}
	return nil
}

// ProcessBatch implements Operator: left rows are buffered, right rows
// become versions.
func (j *TemporalJoin) ProcessBatch(side int, b *types.Batch) error {
	keys, timeCol, store := j.Spec.LeftKeys, j.LeftTime, j.left
	if side == 1 {
		keys, timeCol, store = j.Spec.RightKeys, j.RightTime, j.right
	}
	ids := j.keys.ids(b, keys, j.Spec.NullSafe, true)
	ts, _ := timestampsMillis(b.Cols[timeCol])
	base := store.Len()
	store.Append(b, nil)
	now := j.ttl.now()
	for i, k := range ids {
		row := base + int32(i)
		j.arrive(k, ts[i], now)
		if side == 0 {
			if !b.Kind(i).IsAccumulate() {
				return fmt.Errorf("TemporalJoin doesn't support consuming update and delete changes on its left input")
			}
			j.pending[k] = append(j.pending[k], temporalRow{t: ts[i], row: row})
			j.nPending++
			continue
		}
		if k < 0 {
			continue
		}
		v := temporalVersion{t: ts[i], row: row, deleted: b.Kind(i).IsRetract()}
		vs := j.versions[k]
		pos := sort.Search(len(vs), func(x int) bool { return vs[x].t > v.t })
		vs = append(vs, temporalVersion{})
		copy(vs[pos+1:], vs[pos:])
		vs[pos] = v
		j.versions[k] = vs
		j.nVersions++
		if len(vs) > 1 {
			j.multi[k] = struct{}{}
		}
	}
	return nil
}

// ProcessWatermark joins the left rows the watermark completes.
func (j *TemporalJoin) ProcessWatermark(in int, wm int64) error {
	m, ok := j.wms.Update(in, wm)
	if !ok {
		return nil
	}
	if err := j.fire(m); err != nil {
		return err
	}
	return j.Out.EmitWatermark(m)
}

// SetInputIdle implements InputIdler.
func (j *TemporalJoin) SetInputIdle(in int, idle bool) error {
	if m, ok := j.wms.SetIdle(in, idle); ok {
		if err := j.fire(m); err != nil {
			return err
		}
		return j.Out.EmitWatermark(m)
	}
	return nil
}

func (j *TemporalJoin) fire(wm int64) error {
	j.compact()
	keys := make([]int32, 0, len(j.pending))
	for k := range j.pending {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool { return keys[a] < keys[b] })
	var lRows, rRows []int32
	for _, k := range keys {
		rows := j.pending[k]
		sort.SliceStable(rows, func(a, b int) bool { return rows[a].t < rows[b].t })
		n := 0
		for n < len(rows) && rows[n].t <= wm {
			n++
		}
		if n == 0 {
			continue
		}
		vs := j.versions[k]
		for _, r := range rows[:n] {
			match := int32(-1)
			if k >= 0 {
				// the latest version not after the row's time
				pos := sort.Search(len(vs), func(x int) bool { return vs[x].t > r.t }) - 1
				if pos >= 0 && !vs[pos].deleted {
					match = vs[pos].row
				}
			}
			lRows = append(lRows, r.row)
			rRows = append(rRows, match)
		}
		j.nPending -= int64(n)
		if n == len(rows) {
			delete(j.pending, k)
		} else {
			j.pending[k] = append([]temporalRow(nil), rows[n:]...)
		}
	}
	// versions older than the one valid at the watermark are not needed
	for k := range j.multi {
		vs := j.versions[k]
		pos := sort.Search(len(vs), func(x int) bool { return vs[x].t > wm }) - 1
		if pos > 0 {
			vs = append([]temporalVersion(nil), vs[pos:]...)
			j.versions[k] = vs
			j.nVersions -= int64(pos)
		}
		if len(vs) <= 1 {
			delete(j.multi, k)
		}
	}
	j.onEventTime(wm)
	j.Ctx.ReportState(j.StateSize())
	if len(lRows) == 0 {
		return nil
	}
	cols := append(j.left.Gather(lRows)[:j.NumLeft], j.right.Gather(rRows)...)
	out := &types.Batch{Cols: cols, Len: len(lRows)}
	keep := make([]int32, 0, out.Len)
	var pred []bool
	if j.residual != nil {
		v, err := j.residual(j.Ctx.Eval, out)
		if err != nil {
			return err
		}
		arr := v.Materialize(out.Len)
		pred = make([]bool, out.Len)
		sel, _ := vector.SelectionFromBools(arr)
		for _, s := range sel {
			pred[s] = true
		}
	}
	for i := range lRows {
		matched := rRows[i] >= 0 && (pred == nil || pred[i])
		switch {
		case matched:
			keep = append(keep, int32(i))
		case j.Spec.Kind == opspec.LeftJoin:
			rRows[i] = -1
			keep = append(keep, int32(i))
		}
	}
	if j.Spec.Kind == opspec.LeftJoin {
		// rebuild with NULLs where the residual failed
		cols = append(j.left.Gather(lRows)[:j.NumLeft], j.right.Gather(rRows)...)
		out = &types.Batch{Cols: cols, Len: len(lRows)}
	}
	if len(keep) != out.Len {
		out = TakeRows(out, keep)
	}
	return j.Emit(out)
}

// StateSize implements StateReporter.
func (j *TemporalJoin) StateSize() (int64, int64) {
	return int64(len(j.versions)), j.left.Bytes() + j.right.Bytes()
}

// compact rebuilds the row stores with the rows still referenced (left
// rows waiting for the watermark, right rows of kept versions) once the
// others are the majority: emitted left rows and outdated versions are
// never read again.
func (j *TemporalJoin) compact() {
	liveLeft := j.nPending
	liveRight := j.nVersions
	if dead := int64(j.left.Len()) - liveLeft; dead >= 4096 && dead >= liveLeft {
		var keep []int32
		for k, rows := range j.pending {
			for x := range rows {
				keep = append(keep, rows[x].row)
				rows[x].row = int32(len(keep) - 1)
			}
			j.pending[k] = rows
		}
		j.left = rebuildStore(j.left, keep)
	}
	if dead := int64(j.right.Len()) - liveRight; dead >= 4096 && dead >= liveRight {
		var keep []int32
		for k, vs := range j.versions {
			for x := range vs {
				keep = append(keep, vs[x].row)
				vs[x].row = int32(len(keep) - 1)
			}
			j.versions[k] = vs
		}
		j.right = rebuildStore(j.right, keep)
	}
	j.compactKeys()
}

// rebuildStore returns a store holding rows keep of s, in that order.
func rebuildStore(s *RowStore, keep []int32) *RowStore {
	out := NewRowStore(s.types)
	if len(keep) > 0 {
		out.Append(&types.Batch{Cols: s.Gather(keep), Len: len(keep)}, nil)
	}
	return out
}
