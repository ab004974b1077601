package catalogbrowser

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/testwait"
)

// queue stands in for fyne.Do: reads post their answers, the test runs them.
type queue struct {
	mu  sync.Mutex
	fns []func()
}

func (q *queue) Do(f func()) {
	q.mu.Lock()
	q.fns = append(q.fns, f)
	q.mu.Unlock()
}

func (q *queue) drain() int {
	q.mu.Lock()
	fns := q.fns
	q.fns = nil
	q.mu.Unlock()
	for _, f := range fns {
		f()
	}
	return len(fns)
}

// settle runs posted answers until the tree shows no loading node.
func settle(t *testing.T, q *queue, b *Browser) []string {
	t.Helper()
	var got []string
	if !testwait.Poll(10*time.Second, func() bool {
		q.drain()
		got = b.VisibleLabels()
		return !strings.Contains(strings.Join(got, "\n"), "loading…")
	}) {
		t.Fatalf("still loading: %q", got)
	}
	return got
}

// waitReads runs posted answers until src has no read under way and none
// of its answers waits to be run (answers may start more reads: the
// Browser reloads).
func waitReads(t *testing.T, q *queue, src *EngineSource) {
	t.Helper()
	if !testwait.Poll(10*time.Second, func() bool {
		return src.reading.Load() == 0 && q.drain() == 0 && src.reading.Load() == 0
	}) {
		t.Fatalf("%d reads still under way", src.reading.Load())
	}
}

// gatedEngine answers only when the test lets it.
type gatedEngine struct {
	table.Engine
	gate chan struct{}
	fail error
}

func (g *gatedEngine) wait(ctx context.Context) error {
	if g.gate != nil {
		select {
		case <-g.gate:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return g.fail
}

func (g *gatedEngine) ListCatalogs(ctx context.Context) ([]string, error) {
	if err := g.wait(ctx); err != nil {
		return nil, err
	}
	return g.Engine.ListCatalogs(ctx)
}

func TestEngineSourceShowsWhatEnvSourceShows(t *testing.T) {
	test.NewTempApp(t)
	env := newEnv(t, ordersDDL, "CREATE VIEW big AS SELECT id FROM orders WHERE amount > 10",
		"CREATE TABLE c2 (a INT NOT NULL, b AS a * 2) WITH ('connector' = 'datagen')")
	local := New(EnvSource{Env: env})
	test.NewTempWindow(t, local)
	local.OpenPath("default_catalog", "default_database", "orders")
	local.OpenPath("default_catalog", "default_database", "c2")

	q := &queue{}
	eng := table.NewEmbeddedEngine(env)
	var b *Browser
	src := NewEngineSource(func(context.Context) (table.Engine, error) { return eng, nil }, q.Do, func() { b.Reload() })
	b = New(src)
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(400, 600))
	b.OpenPath("default_catalog", "default_database", "orders")
	b.OpenPath("default_catalog", "default_database", "c2")
	if got := b.VisibleLabels(); len(got) != 1 || got[0] != "loading…" {
		t.Fatalf("before the answers: %q", got)
	}
	got := strings.Join(settle(t, q, b), "\n")
	// (a remote engine's catalogs have no kind: the embedded tree says
	// "in-memory" after the catalog's name)
	if want := strings.Replace(strings.Join(local.VisibleLabels(), "\n"), "default_catalog in-memory", "default_catalog", 1); got != want {
		t.Errorf("over the engine:\n%s\nembedded:\n%s", got, want)
	}
	if !strings.Contains(got, "default_database (current)") || !strings.Contains(got, "b INT NOT NULL · AS `a` * 2") {
		t.Errorf("tree:\n%s", got)
	}
}

func TestEngineSourceKeepsStaleAnswersWhileRereading(t *testing.T) {
	test.NewTempApp(t)
	env := newEnv(t, ordersDDL)
	q := &queue{}
	eng := table.NewEmbeddedEngine(env)
	var b *Browser
	changes := 0
	src := NewEngineSource(func(context.Context) (table.Engine, error) { return eng, nil }, q.Do, func() { changes++; b.Reload() })
	b = New(src)
	test.NewTempWindow(t, b)
	b.OpenPath("default_catalog", "default_database")
	settle(t, q, b)
	before := changes

	// nothing changed: re-reading shows the same tree and calls no OnChange
	src.Invalidate()
	b.Reload()
	if got := strings.Join(b.VisibleLabels(), "|"); got != "default_catalog|  default_database (current)|    orders" {
		t.Fatalf("while re-reading: %q", got)
	}
	waitReads(t, q, src) // every stale answer read again
	settle(t, q, b)
	if changes != before {
		t.Errorf("%d changes for nothing new", changes-before)
	}

	// a new table appears once read
	if _, err := env.ExecuteSQL("CREATE TABLE added (a INT) WITH ('connector' = 'datagen')"); err != nil {
		t.Fatal(err)
	}
	src.Invalidate()
	b.Reload()
	if !testwait.Poll(10*time.Second, func() bool {
		q.drain()
		return strings.Contains(strings.Join(b.VisibleLabels(), "|"), "added")
	}) {
		t.Fatalf("the new table never showed: %q", b.VisibleLabels())
	}
}

func TestEngineSourceErrorsAndReset(t *testing.T) {
	test.NewTempApp(t)
	env := newEnv(t)
	q := &queue{}
	g := &gatedEngine{Engine: table.NewEmbeddedEngine(env), gate: make(chan struct{}), fail: errors.New("gateway: connection refused")}
	var b *Browser
	src := NewEngineSource(func(context.Context) (table.Engine, error) { return g, nil }, q.Do, func() { b.Reload() })
	b = New(src)
	test.NewTempWindow(t, b)
	var reported []string
	b.OnError = func(err error) { reported = append(reported, err.Error()) }
	if got := b.VisibleLabels(); len(got) != 1 || got[0] != "loading…" || len(reported) != 0 {
		t.Fatalf("pending: %q, reported %q", got, reported)
	}
	close(g.gate)
	if got := settle(t, q, b); len(got) != 1 || got[0] != "error gateway: connection refused" {
		t.Fatalf("failed: %q", got)
	}
	if len(reported) != 1 {
		t.Errorf("reported %q", reported)
	}
	// the engine works again: an error is read again after Invalidate
	g.fail = nil
	src.Invalidate()
	b.Reload()
	if got := settle(t, q, b); len(got) != 1 || got[0] != "default_catalog" {
		t.Fatalf("after recovering: %q", got)
	}
	// Reset drops answers under way
	src.Reset()
	b.Reload()
	src.Reset()
	b.Reload()
	waitReads(t, q, src) // the dropped reads' answers arrived and were ignored
	if got := settle(t, q, b); len(got) != 1 || got[0] != "default_catalog" {
		t.Fatalf("after Reset: %q", got)
	}
}

func TestDetailsFromDescribe(t *testing.T) {
	d := DetailsFromDescribe([]table.ColumnInfo{
		{Name: "id", Type: "BIGINT", Key: "PRI(id, `x y`)"},
		{Name: "x y", Type: "STRING", Key: "PRI(id, `x y`)"},
		{Name: "ts", Type: "TIMESTAMP(3) *ROWTIME*", Nullable: true, Watermark: "`ts` - INTERVAL '1' SECOND"},
		{Name: "m", Type: "STRING", Nullable: true, Extras: "METADATA FROM 'k' VIRTUAL"},
	})
	if len(d.Columns) != 4 || !d.Columns[0].PrimaryKey || !d.Columns[1].PrimaryKey || d.Columns[0].Type != "BIGINT NOT NULL" ||
		!d.Columns[2].Rowtime || d.Columns[2].Type != "TIMESTAMP(3)" || !d.Columns[3].Metadata || d.Columns[3].PrimaryKey {
		t.Errorf("%+v", d.Columns)
	}
	if d.Watermark != "ts AS `ts` - INTERVAL '1' SECOND" {
		t.Errorf("watermark %q", d.Watermark)
	}
}
