package runtime

// State time-to-live of streaming Top-N (table.exec.state.ttl), as Flink's
// Top-N functions apply it (AbstractTopNFunction's StateTtlConfig:
// OnCreateAndWrite, NeverReturnExpired, processing time): a partition's
// state is refreshed by every write, that is a row that enters its kept
// rows or a retraction that removes one. A row that never enters the
// Top-N of an insert-only input writes nothing, as Flink's
// AppendOnlyTopNFunction returns before touching its state.
//
// A partition whose state was last written TTL or more milliseconds ago
// is gone: its next row starts an empty Top-N (rank 1 is +I, no -D or -U
// for the rows emitted before), and a retraction for it is ignored, as
// Flink's RetractableTopNFunction ignores a retraction its state no longer
// holds when a TTL is set. A cleanup timer drops expired partitions that
// see no more rows, emitting nothing.
//
// Partitions leave memory: expired ones when the timer fires or their key
// comes back, and (with or without a TTL) those emptied by retractions at
// once; a retraction for an unknown partition no longer creates one.

// expired reports whether partition p's state expired at now.
func (r *Rank) expired(p *rankPartition, now int64) bool {
	return r.ttl.on() && p.last+r.ttl.ttl <= now
}

// written records a write of partition p at now.
func (r *Rank) written(p *rankPartition, now int64) {
	if !r.ttl.on() {
		return
	}
	p.last = now
	if r.ttl.next == 0 {
		r.ttl.next = now + r.ttl.ttl
	}
}

// drop forgets partition p (key k) and its rows.
func (r *Rank) drop(k string, p *rankPartition) {
	r.nRows -= int64(len(p.rows))
	delete(r.parts, k)
}

// NextProcessingTime implements ProcessingTimeOperator: the TTL cleanup
// timer.
func (r *Rank) NextProcessingTime() (int64, bool) {
	return r.ttl.next, r.ttl.on() && r.ttl.next > 0
}

// OnProcessingTime drops the partitions whose state expired, emitting
// nothing.
func (r *Rank) OnProcessingTime(now int64) error {
	if !r.ttl.on() || r.ttl.next == 0 || now < r.ttl.next {
		return nil
	}
	next := int64(0)
	for k, p := range r.parts {
		if r.expired(p, now) {
			r.drop(k, p)
			continue
		}
		if due := p.last + r.ttl.ttl; next == 0 || due < next {
			next = due
		}
	}
	r.ttl.next = next
	r.Ctx.ReportState(r.StateSize())
	return nil
}
