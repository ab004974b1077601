package runtime

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/types"
)

// Deduplicate keeps one row per key (Flink's deduplication: ROW_NUMBER()
// OVER (PARTITION BY k ORDER BY time_attr ASC|DESC) = 1 without the row
// number). KeepLast keeps the row with the latest time, else the first.
//
// On a proctime attribute (arrival order), keep-first emits each key's
// first row (+I) and ignores the others; keep-last emits +I for a key's
// first row and -U previous / +U new for each later one
// (ProcTimeDeduplicateKeepLastRowFunction). On a rowtime attribute a row
// replaces the kept one when its rowtime is >= (keep last) or < (keep
// first) the kept row's, emitting -U old / +U new
// (RowTimeDeduplicateFunction). In batch mode only the final rows are
// emitted, as inserts, at the end of input.
type Deduplicate struct {
	BaseOperator
	Keys     []int
	KeyTypes []*types.DataType
	Types    []*types.DataType
	KeepLast bool
	Rowtime  bool
	TimeCol  int
	// NoUpdateBefore leaves out -U rows (Flink's generateUpdateBefore =
	// false, when the consumer takes upserts).
	NoUpdateBefore bool

	index groupIndex
	n     int32 // ids numbered
	rows  [][]any
	ts    []int64
	// state TTL (dedup_ttl.go): live keys, ids of expired keys
	ttl  ttlState
	live int64
	free []int32
	// disk keeps the kept rows in the disk state backend, with a cache of
	// them in memory (dedup_disk.go); nil: in memory above
	disk *dedupDisk
}

// Open implements Operator.
func (d *Deduplicate) Open(ctx *OpContext, out Output) error {
	d.BaseOperator.Open(ctx, out)
	d.index = newGroupIndex(d.Keys, d.KeyTypes)
	if !ctx.Batch {
		d.ttl.open(ctx)
	}
	return d.openDisk(ctx)
}

// ProcessBatch implements Operator.
func (d *Deduplicate) ProcessBatch(_ int, b *types.Batch) error {
	if !b.InsertOnly() {
		return fmt.Errorf("Deduplicate doesn't support consuming update and delete changes")
	}
	var ts []int64
	if d.Rowtime {
		ts, _ = timestampsMillis(b.Cols[d.TimeCol])
	}
	var out *types.BatchBuilder
	emit := func(k types.RowKind, vals []any) error {
		if d.Ctx.Batch {
			return nil
		}
		if out == nil {
			out = types.NewBatchBuilder(d.Types)
		}
		return out.Append(k, vals)
	}
	if d.disk != nil {
		if err := d.processDisk(b, ts, emit); err != nil {
			return err
		}
		d.Ctx.ReportState(d.StateSize())
		if out == nil {
			return nil
		}
		return d.Emit(out.Build())
	}
	now := d.ttl.now()
	for i := 0; i < b.Len; i++ {
		g, isNew := d.lookup(b, i)
		var t int64
		if d.Rowtime {
			t = ts[i]
		}
		if isNew || d.ttl.expired(g, now) {
			// a new key, or one whose state expired: the row is its first
			vals := b.Row(i, d.Types).Values
			d.rows[g], d.ts[g] = vals, t
			d.ttl.write(g, now)
			if err := emit(types.Insert, vals); err != nil {
				return err
			}
			continue
		}
		if !d.replaces(t, d.ts[g]) {
			continue
		}
		vals := b.Row(i, d.Types).Values
		if !d.Rowtime && !d.ttl.on() && rowValuesEqual(d.rows[g], vals) {
			// Flink's keep-last on proctime emits nothing for a row equal
			// to the kept one, unless a TTL is set (then the update keeps
			// downstream state from expiring too early)
			continue
		}
		if err := d.emitUpdate(emit, d.rows[g], vals); err != nil {
			return err
		}
		d.rows[g], d.ts[g] = vals, t
		d.ttl.write(g, now)
	}
	d.Ctx.ReportState(d.StateSize())
	if out == nil {
		return nil
	}
	return d.Emit(out.Build())
}

// EndInput emits the kept rows in batch mode.
func (d *Deduplicate) EndInput(int) error {
	if !d.Ctx.Batch || d.n == 0 {
		return nil
	}
	out := types.NewBatchBuilder(d.Types)
	for _, r := range d.rows {
		if r == nil {
			continue
		}
		if err := out.Append(types.Insert, r); err != nil {
			return err
		}
		if out.Len() >= max(d.Ctx.Config.BatchSize, 1) {
			if err := d.Emit(out.Build()); err != nil {
				return err
			}
		}
	}
	return d.Emit(out.Build())
}

// StateSize implements StateReporter.
func (d *Deduplicate) StateSize() (int64, int64) {
	if d.disk != nil {
		// the memory is the cache's; the store's is bounded by its
		// block cache and write buffer
		return d.live, int64(len(d.disk.cache)) * int64(64+24*len(d.Types))
	}
	return d.live, d.index.size() + d.live*int64(len(d.Types))*24
}

// replaces reports whether a row of time t (event time; 0 on processing
// time) replaces the kept row of time kept: always when keeping the last
// row on processing time, when not older keeping the last row on event
// time, and when strictly older keeping the first.
func (d *Deduplicate) replaces(t, kept int64) bool {
	switch {
	case !d.Rowtime:
		return d.KeepLast
	case d.KeepLast:
		return t >= kept
	default:
		return t < kept
	}
}

// emitUpdate emits the replacement of the kept row old by vals: -U old
// (unless NoUpdateBefore), then +U vals.
func (d *Deduplicate) emitUpdate(emit func(types.RowKind, []any) error, old, vals []any) error {
	if !d.NoUpdateBefore {
		if err := emit(types.UpdateBefore, old); err != nil {
			return err
		}
	}
	return emit(types.UpdateAfter, vals)
}
