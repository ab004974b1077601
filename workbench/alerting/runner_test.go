package alerting

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/table"
)

func streamingEnv(t *testing.T) *table.TableEnvironment {
	t.Helper()
	env, err := table.Create(table.InStreamingMode())
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// waitEvent waits for the next event (the timeout only guards a hung test).
func waitEvent(t *testing.T, events <-chan Event) Event {
	t.Helper()
	select {
	case e := <-events:
		return e
	case <-time.After(60 * time.Second):
		t.Fatal("no alert within 60 s")
	}
	return Event{}
}

// A rule on a real streaming query (datagen, unbounded) fires on a row
// that matches, and its sink statement runs with that row's values: the
// filesystem sink's file holds them.
func TestRunnerFiresOnARealStreamAndRunsTheSink(t *testing.T) {
	env := streamingEnv(t)
	out := t.TempDir()
	stmt := `CREATE TEMPORARY TABLE gen (k INT, v INT) WITH ('connector' = 'datagen', 'rows-per-second' = '200',
	  'fields.k.kind' = 'sequence', 'fields.k.start' = '1', 'fields.k.end' = '1000000',
	  'fields.v.min' = '0', 'fields.v.max' = '100');
	CREATE TEMPORARY TABLE alerts_out (k INT, v INT, note STRING) WITH ('connector' = 'filesystem', 'path' = '` + out + `', 'format' = 'csv');
	SELECT k, v FROM gen WHERE k % 2 = 0`
	cond, err := ParseCondition("v >= 95")
	if err != nil {
		t.Fatal(err)
	}
	events := make(chan Event, 16)
	sinks := make(chan error, 16)
	r, err := Start(context.Background(), env, Rule{ID: 1, Name: "high v", Statement: stmt, Condition: cond,
		Sink: "INSERT INTO alerts_out VALUES (:k, :v, 'v was ' || CAST(:v AS STRING))", Cooldown: time.Hour},
		Options{OnEvent: func(e Event) { events <- e }, OnSink: func(_ string, err error) { sinks <- err }})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	if st, _ := r.State(); st != Running || r.Job() == nil {
		t.Fatalf("state %v, job %v", st, r.Job())
	}
	e := waitEvent(t, events)
	if e.Kind != Fired || e.Rule != "high v" || e.RuleID != 1 {
		t.Fatalf("event %+v", e)
	}
	var row map[string]int
	if err := json.Unmarshal([]byte(e.RowJSON()), &row); err != nil {
		t.Fatalf("row JSON %q: %v", e.RowJSON(), err)
	}
	if row["v"] < 95 || row["k"]%2 != 0 || row["k"] == 0 {
		t.Fatalf("triggering row %v", row)
	}
	if !strings.HasPrefix(e.Message, "v >= 95: v = ") {
		t.Errorf("message %q", e.Message)
	}
	if n, last := r.Fired(); n != 1 || !last.Equal(e.At) {
		t.Errorf("fired %d, last %v", n, last)
	}
	select {
	case err := <-sinks:
		if err != nil {
			t.Fatalf("sink: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the sink statement did not run")
	}
	files, _ := filepath.Glob(filepath.Join(out, "*"))
	var written strings.Builder
	for _, f := range files {
		b, _ := os.ReadFile(f)
		written.Write(b)
	}
	want := strings.TrimSuffix(strings.TrimPrefix(e.RowJSON(), `{"k":`), "}")
	want = strings.Replace(want, `,"v":`, ",", 1)
	if !strings.Contains(written.String(), want+",v was ") {
		t.Errorf("the sink wrote %q, want the row %s", written.String(), want)
	}
	// the cool-down (an hour) holds back the next matches
	r.Stop()
	if st, err := r.State(); st != Stopped || err != nil {
		t.Errorf("after Stop: %v %v", st, err)
	}
	if n, _ := r.Fired(); n != 1 {
		t.Errorf("%d alerts within the cool-down", n)
	}
}

// fakeClock ticks when the test says.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
	ch  chan time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Every(time.Duration) (<-chan time.Time, func()) { return c.ch, func() {} }

func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	now := c.now
	c.mu.Unlock()
	c.ch <- now
}

// A no-row rule on a real query that emits nothing fires once the clock
// has moved past its threshold, not before.
func TestRunnerNoRowWithAnInjectedClock(t *testing.T) {
	env := streamingEnv(t)
	stmt := `CREATE TEMPORARY TABLE gen (v INT) WITH ('connector' = 'datagen', 'rows-per-second' = '50', 'fields.v.min' = '0', 'fields.v.max' = '10');
	SELECT v FROM gen WHERE v > 1000`
	cond, _ := ParseCondition("no row for 30 s")
	clock := &fakeClock{now: t0, ch: make(chan time.Time)}
	events := make(chan Event, 4)
	r, err := Start(context.Background(), env, Rule{Name: "quiet", Statement: stmt, Condition: cond},
		Options{Clock: clock, OnEvent: func(e Event) { events <- e }})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	clock.advance(29 * time.Second) // received by the runner: it is evaluated before the next tick is taken
	clock.advance(0)
	select {
	case e := <-events:
		t.Fatalf("fired after 29 s: %+v", e)
	default:
	}
	clock.advance(time.Second)
	e := waitEvent(t, events)
	if e.Kind != Fired || e.Message != "no row for 30 s (since 10:00:00)" {
		t.Fatalf("event %+v", e)
	}
}

func TestStartRejectsBadRules(t *testing.T) {
	env := streamingEnv(t)
	gen := `CREATE TEMPORARY TABLE gen (v INT) WITH ('connector' = 'datagen', 'rows-per-second' = '5');`
	any, _ := ParseCondition("any row")
	cases := []struct {
		stmt, cond, sink, want string
	}{
		{"", "any row", "", "no statement"},
		{gen + " SHOW TABLES", "any row", "", "must be a query"},
		{gen + " SELECT v FROM gen", "w > 3", "", "no column w"},
		{gen + " SELECT v FROM gen", "any row", "INSERT INTO x VALUES (:w)", `no column "w"`},
		{gen + " SELECT v FROM nowhere", "any row", "", "nowhere"},
	}
	for _, c := range cases {
		cond := any
		if c.cond != "" {
			cond, _ = ParseCondition(c.cond)
		}
		_, err := Start(context.Background(), env, Rule{Name: "bad", Statement: c.stmt, Condition: cond, Sink: c.sink}, Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q / %q / %q: %v, want %q", c.stmt, c.cond, c.sink, err, c.want)
		}
		env = streamingEnv(t) // each rule has its session
	}
}

// A sink statement that fails when it runs (its table is gone) is
// reported as a SinkFailed event with the engine's error, after the alert
// itself; the rule keeps running.
func TestRunnerReportsAFailingSink(t *testing.T) {
	env := streamingEnv(t)
	stmt := `CREATE TEMPORARY TABLE gen (v INT) WITH ('connector' = 'datagen', 'rows-per-second' = '20');
	SELECT v FROM gen`
	events := make(chan Event, 16)
	r, err := Start(context.Background(), env, Rule{ID: 3, Name: "to nowhere", Statement: stmt, Condition: Condition{Kind: AnyRow},
		Sink: "INSERT INTO missing_table VALUES (:v)", Cooldown: time.Hour}, Options{OnEvent: func(e Event) { events <- e }})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	if e := waitEvent(t, events); e.Kind != Fired {
		t.Fatalf("first event %+v", e)
	}
	e := waitEvent(t, events)
	if e.Kind != SinkFailed || e.RuleID != 3 || !strings.Contains(e.Message, "missing_table") || e.RowJSON() == "" {
		t.Fatalf("sink event %+v", e)
	}
	if st, _ := r.State(); st != Running {
		t.Errorf("state after the sink failed: %v", st)
	}
}

// A watermark-lag rule on a real query whose watermark trails the clock
// by 30 s (event time = the row's processing time, watermark 30 s behind)
// fires once the job reports its watermark.
func TestRunnerWatermarkLagOnARealJob(t *testing.T) {
	env := streamingEnv(t)
	stmt := `CREATE TEMPORARY TABLE gen (v INT, ts AS LOCALTIMESTAMP, WATERMARK FOR ts AS ts - INTERVAL '30' SECOND)
	  WITH ('connector' = 'datagen', 'rows-per-second' = '50');
	SELECT v, ts FROM gen`
	cond, _ := ParseCondition("watermark lag > 10 s")
	events := make(chan Event, 4)
	r, err := Start(context.Background(), env, Rule{Name: "behind", Statement: stmt, Condition: cond},
		Options{Tick: 100 * time.Millisecond, OnEvent: func(e Event) { events <- e }})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Stop()
	e := waitEvent(t, events)
	if e.Kind != Fired || !strings.HasPrefix(e.Message, "watermark lag ") || !strings.HasSuffix(e.Message, " s > 10 s") || e.Columns != nil {
		t.Fatalf("event %+v", e)
	}
	var lag float64
	if _, err := fmt.Sscanf(e.Message, "watermark lag %g s", &lag); err != nil || lag < 29 || lag > 90 {
		t.Errorf("lag %v s (%v), want about 30 s", lag, err)
	}
}
