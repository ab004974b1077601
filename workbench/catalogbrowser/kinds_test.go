package catalogbrowser

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/testwait"
	"github.com/riffle-sql/riffle/engine/types"
)

// remoteCat stands in for a JDBC catalog: every read waits for gate to be
// closed (as a read waits for the server), then fails with fail when set.
type remoteCat struct {
	*catalog.InMemoryCatalog
	gate chan struct{}
	fail error
}

func (r *remoteCat) IsRemote() bool         { return true }
func (r *remoteCat) CatalogKind() string    { return "jdbc" }
func (r *remoteCat) CatalogSummary() string { return "PostgreSQL 127.0.0.1:5432" }

func (r *remoteCat) wait(string) error {
	<-r.gate
	return r.fail
}

func (r *remoteCat) ListDatabases() ([]string, error) {
	if err := r.wait("databases"); err != nil {
		return nil, err
	}
	return r.InMemoryCatalog.ListDatabases()
}

func (r *remoteCat) ListTables(db string) ([]string, error) {
	if err := r.wait("tables"); err != nil {
		return nil, err
	}
	return r.InMemoryCatalog.ListTables(db)
}

func (r *remoteCat) GetTable(p catalog.ObjectPath) (catalog.BaseTable, error) {
	if err := r.wait("table"); err != nil {
		return nil, err
	}
	return r.InMemoryCatalog.GetTable(p)
}

// fileCat stands in for the workspace's persistent catalog.
type fileCat struct{ *catalog.InMemoryCatalog }

func (fileCat) Path() string { return "/home/u/.riffle/workspace.db" }

// The tree tells the kinds of catalogs apart by label and icon, and reads
// a remote (JDBC) catalog off the UI goroutine: "loading…" until the
// answer comes, the answer then, the server's error on the node when the
// read fails — never a blocked UI.
func TestTreeShowsCatalogKindsAndReadsRemoteOnesInBackground(t *testing.T) {
	test.NewTempApp(t)
	env := newEnv(t, ordersDDL)
	mem := catalog.NewInMemoryCatalog("pg", "riffle")
	if err := mem.CreateTable(catalog.NewObjectPath("riffle", "public.orders"), catalog.NewCatalogTable(
		newEnvSchema(t, env), nil, map[string]string{"connector": "jdbc"}, ""), false); err != nil {
		t.Fatal(err)
	}
	remote := &remoteCat{InMemoryCatalog: mem, gate: make(chan struct{})}
	if err := env.RegisterCatalog("pg", remote); err != nil {
		t.Fatal(err)
	}
	if err := env.RegisterCatalog("ws", fileCat{catalog.NewInMemoryCatalog("ws", "default")}); err != nil {
		t.Fatal(err)
	}
	q := &queue{}
	b := New(EnvSource{Env: env})
	b.Do = q.Do
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(500, 600))

	// the catalogs with their kinds, before anything is read
	jcWant(t, b, "default_catalog in-memory", "pg JDBC · PostgreSQL 127.0.0.1:5432", "ws persistent · workspace.db")
	for cat, want := range map[string]fyne.Resource{"default_catalog": memoryIcon, "pg": databaseIcon, "ws": theme.DocumentSaveIcon()} {
		if got := b.icon(nodeID(nodeCatalog, cat)); got.Name() != want.Name() {
			t.Errorf("icon of %s: %s, want %s", cat, got.Name(), want.Name())
		}
	}

	// opening the JDBC catalog does not wait for the server
	b.OpenPath("pg", "riffle", "public.orders")
	jcWant(t, b, "default_catalog in-memory", "pg JDBC · PostgreSQL 127.0.0.1:5432", "  loading…", "ws persistent · workspace.db")
	if b.Reading() != 1 {
		t.Errorf("%d reads under way, want 1", b.Reading())
	}
	close(remote.gate)
	got := strings.Join(settleRemote(t, q, b), "\n")
	want := strings.Join([]string{
		"default_catalog in-memory",
		"pg JDBC · PostgreSQL 127.0.0.1:5432",
		"  riffle",
		"    public.orders",
		"      id BIGINT NOT NULL · PK",
		"      user name STRING",
		"      amount DECIMAL(10, 2)",
		"      ts TIMESTAMP(3) · ROWTIME",
		"      WATERMARK FOR ts AS `ts` - INTERVAL '5' SECOND",
		"ws persistent · workspace.db",
	}, "\n")
	if got != want {
		t.Errorf("after the answers:\n%s\nwant:\n%s", got, want)
	}
	// a reload after a statement shows what was read while it is read
	// again (no flicker), and a table made on the server meanwhile appears
	if err := mem.CreateTable(catalog.NewObjectPath("riffle", "public.refunds"), catalog.NewCatalogTable(
		newEnvSchema(t, env), nil, map[string]string{"connector": "jdbc"}, ""), false); err != nil {
		t.Fatal(err)
	}
	b.Reload()
	if got2 := strings.Join(b.VisibleLabels(), "\n"); got2 != want || b.Reading() == 0 {
		t.Errorf("right after Reload (%d reads):\n%s", b.Reading(), got2)
	}
	got = strings.Join(settleRemote(t, q, b), "\n")
	if !strings.Contains(got, "      WATERMARK FOR ts AS `ts` - INTERVAL '5' SECOND\n    public.refunds\nws persistent") {
		t.Errorf("after the new answers:\n%s", got)
	}

	// Refresh reads again; a server that fails shows its error on the node
	remote.fail = errors.New("Failed connecting to jdbc:postgresql://127.0.0.1:5432/riffle via JDBC: cannot reach 127.0.0.1:5432: connection refused (is the server running?)")
	var reported []string
	b.OnError = func(err error) { reported = append(reported, err.Error()) }
	b.refreshFromSource()
	got = strings.Join(settleRemote(t, q, b), "\n")
	if !strings.Contains(got, "pg JDBC · PostgreSQL 127.0.0.1:5432\n  error Failed connecting to jdbc:postgresql://127.0.0.1:5432/riffle via JDBC: cannot reach") {
		t.Errorf("after the failure:\n%s", got)
	}
	if len(reported) != 1 || !strings.Contains(reported[0], "connection refused") {
		t.Errorf("reported %q", reported)
	}
	// the server is back: Refresh shows the catalog again
	remote.fail = nil
	b.refreshFromSource()
	if got := strings.Join(settleRemote(t, q, b), "\n"); !strings.Contains(got, "  riffle\n    public.orders\n      id BIGINT NOT NULL · PK") {
		t.Errorf("after recovery:\n%s", got)
	}
}

// newEnvSchema is the orders table's schema.
func newEnvSchema(t *testing.T, env interface {
	Catalogs() *catalog.Manager
}) *types.Schema {
	t.Helper()
	rt, ok, err := env.Catalogs().GetTable(catalog.ObjectIdentifier{Catalog: "default_catalog", Database: "default_database", Object: "orders"})
	if err != nil || !ok {
		t.Fatalf("orders: %v", err)
	}
	return rt.Table.Schema()
}

func jcWant(t *testing.T, b *Browser, lines ...string) {
	t.Helper()
	if got, want := strings.Join(b.VisibleLabels(), "\n"), strings.Join(lines, "\n"); got != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got, want)
	}
}

// settleRemote runs the posted answers until no remote read is under way
// and the tree shows no loading node.
func settleRemote(t *testing.T, q *queue, b *Browser) []string {
	t.Helper()
	var got []string
	if !testwait.Poll(10*time.Second, func() bool {
		q.drain()
		got = b.VisibleLabels()
		return b.Reading() == 0 && !strings.Contains(strings.Join(got, "\n"), "loading…")
	}) {
		t.Fatalf("still loading (%d reads): %q", b.Reading(), got)
	}
	return got
}

// Over an engine (a gateway) the kinds come from DESCRIBE CATALOG: a
// catalog made by CREATE CATALOG says its type, default_catalog (which
// Flink cannot describe) none.
func TestEngineSourceTellsCatalogKinds(t *testing.T) {
	test.NewTempApp(t)
	env := newEnv(t, "CREATE CATALOG scratch WITH ('type' = 'generic_in_memory')")
	q := &queue{}
	eng := table.NewEmbeddedEngine(env)
	var b *Browser
	src := NewEngineSource(func(context.Context) (table.Engine, error) { return eng, nil }, q.Do, func() { b.Reload() })
	b = New(src)
	test.NewTempWindow(t, b)
	deadline := time.Now().Add(10 * time.Second)
	for {
		settle(t, q, b)
		waitReads(t, q, src)
		if got := strings.Join(b.VisibleLabels(), "\n"); got == "default_catalog\nscratch in-memory" {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("tree:\n%s", got)
		}
	}
	if got := b.icon(nodeID(nodeCatalog, "scratch")).Name(); got != memoryIcon.Name() {
		t.Errorf("icon %s", got)
	}
	for _, c := range []struct {
		typ, url, path string
		want           string
	}{
		{"jdbc", "jdbc:postgresql://db:5432/", "", "JDBC · PostgreSQL db:5432"},
		{"jdbc", "jdbc:mariadb://127.0.0.1:3306?x=1", "", "JDBC · MariaDB 127.0.0.1:3306"},
		{"riffle", "", "/tmp/w/ws.catalog.db", "persistent · ws.catalog.db"},
		{"hive", "", "", "hive"},
	} {
		if got := CatalogInfoFromDescriptor(c.typ, c.url, c.path).Label(); got != c.want {
			t.Errorf("%s %s %s: %q, want %q", c.typ, c.url, c.path, got, c.want)
		}
	}
}
