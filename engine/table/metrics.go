package table

import (
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/internal/runtime"
)

// OperatorMetrics is a snapshot of one operator's counters, summed over
// its parallel instances, as JobClient.Metrics and JobClient.NodeMetrics
// read them from a running (or ended) job. Counts are totals since the
// job started.
type OperatorMetrics struct {
	// ID is the operator's index in the job's dataflow; Name is its
	// description ("Calc(select=[...])").
	ID   int
	Name string
	// RecordsIn and RecordsOut count rows received and emitted; BatchesIn
	// counts the batches the rows came in.
	RecordsIn, RecordsOut, BatchesIn int64
	// Watermark is the operator's current output watermark in event-time
	// epoch milliseconds, when HasWatermark is set (none has been emitted
	// otherwise). WatermarkAtEnd marks the final watermark of an input that
	// ended, which fires whatever was left waiting (Watermark is then
	// math.MaxInt64).
	Watermark      int64
	HasWatermark   bool
	WatermarkAtEnd bool
	// LateDropped counts rows dropped for arriving behind the watermark.
	LateDropped int64
	// StateKeys and StateBytes are the operator's state size (keys, and an
	// estimate in bytes); StatePeakBytes is the largest StateBytes seen.
	StateKeys, StateBytes, StatePeakBytes int64
	// Backpressure counts emits that found the downstream channel full.
	Backpressure int64
	// Busy is the time spent processing, summed over the instances.
	Busy time.Duration
	// LookupHits, LookupMisses and LookupLoads count a lookup join's cache
	// hits, misses and lookups into the source (Flink's hitCount,
	// missCount and loadCount).
	LookupHits, LookupMisses, LookupLoads int64
	// Splits is where each split of a source of a partitioned log stands
	// (a Kafka source's partitions: offset, log end, watermark, idleness),
	// sorted by split name; none for other operators.
	Splits []connector.SplitProgress
}

// metricsOf snapshots live metrics.
func metricsOf(m *runtime.OperatorMetrics) OperatorMetrics {
	out := OperatorMetrics{
		ID:             m.ID,
		Name:           m.Name,
		RecordsIn:      m.RecordsIn.Load(),
		RecordsOut:     m.RecordsOut.Load(),
		BatchesIn:      m.BatchesIn.Load(),
		LateDropped:    m.LateDropped.Load(),
		StateKeys:      m.StateKeys.Load(),
		StateBytes:     m.StateBytes.Load(),
		StatePeakBytes: m.StatePeakBytes.Load(),
		Backpressure:   m.Backpressure.Load(),
		Busy:           time.Duration(m.BusyNanos.Load()),
		LookupHits:     m.LookupHits.Load(),
		LookupMisses:   m.LookupMisses.Load(),
		LookupLoads:    m.LookupLoads.Load(),
		Splits:         m.SplitProgress(),
	}
	switch wm := m.Watermark.Load(); wm {
	case runtime.MinWatermark:
	case runtime.MaxWatermark:
		out.Watermark, out.HasWatermark, out.WatermarkAtEnd = wm, true, true
	default:
		out.Watermark, out.HasWatermark = wm, true
	}
	return out
}
