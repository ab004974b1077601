//go:build interop

package nexflink

import (
	"context"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/interop"
	"github.com/riffle-sql/riffle/nexmark"
)

// TestNexmarkAgainstFlink: 20,000 of Riffle's Nexmark events written once
// to a two-partition topic are read by real Flink at parallelism 2 and by
// Riffle at parallelism 1 and 2, for q0 (stateless) and q5 (hopping
// windows, their maximum and a join); every job reads all the events and
// both engines put the same number of rows into the blackhole sink. Flink
// runs with operator chaining off, so its job's vertices count the rows.
func TestNexmarkAgainstFlink(t *testing.T) {
	k, err := interop.KafkaFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	f, err := interop.FlinkFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	const events = 20_000
	topic, _, err := EnsureEvents(ctx, k, events, 2)
	if err != nil {
		t.Fatal(err)
	}
	fl, err := NewFlink(f)
	if err != nil {
		t.Fatal(err)
	}
	defer fl.Close()
	fl.Chaining = false
	for _, name := range []string{"q0", "q5"} {
		q, _ := nexmark.Find(name)
		runs := []Measure{
			fl.Run(ctx, q, k.Bootstrap, topic, events, 2),
			RunRiffle(ctx, q, k.Bootstrap, topic, events, 1),
			RunRiffle(ctx, q, k.Bootstrap, topic, events, 2),
		}
		for _, m := range runs {
			if m.Err != nil {
				t.Fatalf("%s on %s p%d: %v", name, m.Engine, m.Parallelism, m.Err)
			}
			t.Logf("%s %s p%d: read %d, sink %d rows, CPU %v", name, m.Engine, m.Parallelism, m.SourceRows, m.SinkRows, m.CPU)
			if m.SourceRows != events {
				t.Errorf("%s on %s p%d read %d events, want %d", name, m.Engine, m.Parallelism, m.SourceRows, events)
			}
			if m.SinkRows != runs[0].SinkRows {
				t.Errorf("%s on %s p%d: %d sink rows, Flink %d", name, m.Engine, m.Parallelism, m.SinkRows, runs[0].SinkRows)
			}
		}
		if runs[0].SinkRows <= 0 {
			t.Errorf("%s: Flink's sink got %d rows", name, runs[0].SinkRows)
		}
	}
}
