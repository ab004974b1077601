package runtime

import "github.com/riffle-sql/riffle/engine/types"

// State time-to-live of deduplication (table.exec.state.ttl), as Flink's
// deduplicate functions apply it: the kept row of a key is state with a
// TTL refreshed on every write (StateTtlConfig OnCreateAndWrite,
// NeverReturnExpired, processing time). A write is what Flink writes:
//
//   - keep-first on proctime writes once, on the key's first row: the key
//     expires TTL after it whatever follows, and its next row is emitted
//     (+I) as a first row again;
//   - keep-last on proctime writes every row;
//   - on rowtime, a row writes when it replaces the kept one (a later, or
//     for keep-first an earlier, rowtime); rows that lose write nothing.
//
// A row of an expired key is that key's first (+I, no -U of the expired
// row). A cleanup timer drops expired keys that see no more rows, emitting
// nothing; their ids go to a free list that new keys take, so the per-key
// slices are as long as the most keys alive at once.
//
// Without a TTL, keep-last on proctime emits nothing for a row equal to
// the kept one (Flink's ProcTimeDeduplicateKeepLastRowFunction); with a
// TTL it emits -U/+U all the same, so that downstream state is refreshed.

// lookup returns the id of row i's key, creating it (with a freed id when
// there is one) when it is new.
func (d *Deduplicate) lookup(b *types.Batch, i int) (int32, bool) {
	next, free := d.n, len(d.free)
	if free > 0 {
		next = d.free[free-1]
	}
	g, isNew := d.index.lookup(b, i, next)
	if !isNew {
		return g, false
	}
	if free > 0 {
		d.free = d.free[:free-1]
	} else {
		d.n++
		d.rows = append(d.rows, nil)
		d.ts = append(d.ts, 0)
	}
	d.live++
	return g, true
}

// NextProcessingTime implements ProcessingTimeOperator: the TTL cleanup
// timer.
func (d *Deduplicate) NextProcessingTime() (int64, bool) {
	return d.ttl.next, d.ttl.on() && d.ttl.next > 0
}

// OnProcessingTime drops the keys whose state expired, emitting nothing.
func (d *Deduplicate) OnProcessingTime(now int64) error {
	if !d.ttl.on() || d.ttl.next == 0 || now < d.ttl.next {
		return nil
	}
	next := int64(0)
	d.index.evict(func(g int32) bool {
		if d.ttl.expired(g, now) {
			d.rows[g] = nil
			d.live--
			d.free = append(d.free, g)
			return true
		}
		if due := d.ttl.last[g] + d.ttl.ttl; next == 0 || due < next {
			next = due
		}
		return false
	})
	d.ttl.next = next
	d.Ctx.ReportState(d.StateSize())
	return nil
}
