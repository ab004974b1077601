package catalogbrowser

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/table"
)

func newEnv(t *testing.T, stmts ...string) *table.TableEnvironment {
	t.Helper()
	env, err := table.Create(table.InStreamingMode())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range stmts {
		if _, err := env.ExecuteSQL(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return env
}

const ordersDDL = "CREATE TABLE orders (id BIGINT, `user name` STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3), " +
	"PRIMARY KEY (id) NOT ENFORCED, WATERMARK FOR ts AS ts - INTERVAL '5' SECOND) WITH ('connector' = 'datagen')"

func TestTreeShowsColumnsTypesAndMarkers(t *testing.T) {
	test.NewTempApp(t)
	env := newEnv(t, ordersDDL, "CREATE VIEW big AS SELECT id FROM orders WHERE amount > 10")
	b := New(EnvSource{Env: env})
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(400, 600))
	b.OpenPath("default_catalog", "default_database", "orders")
	got := strings.Join(b.VisibleLabels(), "\n")
	want := strings.Join([]string{
		"default_catalog in-memory",
		"  default_database (current)",
		"    big view",
		"    orders",
		"      id BIGINT NOT NULL · PK",
		"      user name STRING",
		"      amount DECIMAL(10, 2)",
		"      ts TIMESTAMP(3) · ROWTIME",
		"      WATERMARK FOR ts AS `ts` - INTERVAL '5' SECOND",
	}, "\n")
	if got != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got, want)
	}
}

func TestTreeShowsTableCreatedByDDLAfterReload(t *testing.T) {
	test.NewTempApp(t)
	env := newEnv(t)
	b := New(EnvSource{Env: env})
	test.NewTempWindow(t, b)
	b.OpenPath("default_catalog", "default_database")
	if got := strings.Join(b.VisibleLabels(), "|"); !strings.Contains(got, "no tables") {
		t.Fatalf("empty database shows %q", got)
	}
	if _, err := env.ExecuteSQL("CREATE TEMPORARY TABLE clicks (url STRING) WITH ('connector' = 'datagen')"); err != nil {
		t.Fatal(err)
	}
	b.Reload()
	got := b.VisibleLabels()
	if len(got) != 3 || got[2] != "    clicks temp" {
		t.Fatalf("after DDL: %q", got)
	}
	if _, err := env.ExecuteSQL("DROP TEMPORARY TABLE clicks"); err != nil {
		t.Fatal(err)
	}
	b.Reload()
	if got := strings.Join(b.VisibleLabels(), "|"); strings.Contains(got, "clicks") {
		t.Fatalf("after DROP: %q", got)
	}
}

func TestDoubleTapInsertsQuotedName(t *testing.T) {
	test.NewTempApp(t)
	env := newEnv(t, ordersDDL, "CREATE DATABASE other", "CREATE TABLE other.`select` (a INT) WITH ('connector' = 'datagen')")
	b := New(EnvSource{Env: env})
	test.NewTempWindow(t, b)
	var inserted []string
	b.OnInsert = func(s string) { inserted = append(inserted, s) }
	b.OpenPath("default_catalog", "other")
	b.OpenPath("default_catalog", "default_database", "orders")
	b.DoubleTapNode(nodeID(nodeObject, "default_catalog", "default_database", "orders"))
	b.DoubleTapNode(nodeID(nodeColumn, "default_catalog", "default_database", "orders", "user name"))
	b.DoubleTapNode(nodeID(nodeObject, "default_catalog", "other", "select"))
	want := []string{"orders", "`user name`", "default_catalog.other.`select`"}
	if fmt.Sprint(inserted) != fmt.Sprint(want) {
		t.Errorf("inserted %q, want %q", inserted, want)
	}
}

func TestContextMenuActions(t *testing.T) {
	test.NewTempApp(t)
	env := newEnv(t, ordersDDL)
	b := New(EnvSource{Env: env})
	test.NewTempWindow(t, b)
	b.OpenPath("default_catalog", "default_database")
	var got []string
	b.OnPreview = func(r Ref) { got = append(got, "preview "+r.QualifiedName()) }
	b.OnShowDDL = func(r Ref) { got = append(got, "ddl "+r.QualifiedName()) }
	b.OnInsert = func(s string) { got = append(got, "insert "+s) }
	m := b.MenuFor(nodeID(nodeObject, "default_catalog", "default_database", "orders"))
	var labels []string
	for _, it := range m.Items {
		labels = append(labels, it.Label)
		if it.Action != nil && it.Label != "Refresh" {
			it.Action()
		}
	}
	if want := "Preview|Show DDL|Insert name into editor||Refresh"; strings.Join(labels, "|") != want {
		t.Errorf("menu %q, want %q", strings.Join(labels, "|"), want)
	}
	want := "preview default_catalog.default_database.orders|ddl default_catalog.default_database.orders|insert orders"
	if strings.Join(got, "|") != want {
		t.Errorf("actions %q, want %q", strings.Join(got, "|"), want)
	}
}

func TestFilter(t *testing.T) {
	test.NewTempApp(t)
	env := newEnv(t, ordersDDL, "CREATE TABLE customers (id INT) WITH ('connector' = 'datagen')")
	b := New(EnvSource{Env: env})
	test.NewTempWindow(t, b)
	b.OpenPath("default_catalog", "default_database")
	b.SetFilter("CUST")
	got := b.VisibleLabels()
	if len(got) != 3 || got[2] != "    customers" {
		t.Fatalf("filtered: %q", got)
	}
}

// bigSource is a catalog with many tables, as a remote catalog may have.
type bigSource struct{ n int }

func (s bigSource) Catalogs() []string                 { return []string{"hive"} }
func (s bigSource) Databases(string) ([]string, error) { return []string{"db"}, nil }
func (s bigSource) Objects(string, string) ([]Object, error) {
	out := make([]Object, s.n)
	for i := range out {
		out[i] = Object{Name: fmt.Sprintf("t%05d", i)}
	}
	return out, nil
}
func (s bigSource) Details(string, string, string) (Details, error) {
	return Details{Columns: []Column{{Name: "a", Type: "INT"}}}, nil
}
func (s bigSource) Current() (string, string) { return "hive", "db" }

// counting wraps a source and counts Details calls: opening a database
// must not read every table's columns (beekeeper #1164).
type counting struct {
	bigSource
	details int
}

func (c *counting) Details(cat, db, o string) (Details, error) {
	c.details++
	return c.bigSource.Details(cat, db, o)
}

func TestOpeningADatabaseWithManyTablesReadsNoColumns(t *testing.T) {
	test.NewTempApp(t)
	src := &counting{bigSource: bigSource{n: 20000}}
	b := New(src)
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(300, 500))
	b.OpenPath("hive", "db")
	if n := len(b.childUIDs(nodeID(nodeDatabase, "hive", "db"))); n != 20000 {
		t.Fatalf("%d tables listed", n)
	}
	if src.details != 0 {
		t.Errorf("%d tables' columns read when opening the database", src.details)
	}
	b.OpenPath("hive", "db", "t00007")
	if src.details != 1 {
		t.Errorf("%d Details calls after opening one table", src.details)
	}
}

func BenchmarkOpenDatabase20kTables(b *testing.B) {
	a := test.NewApp()
	defer a.Quit()
	for b.Loop() {
		br := New(bigSource{n: 20000})
		w := test.NewWindow(br)
		w.Resize(fyne.NewSize(300, 600))
		br.OpenPath("hive", "db")
		w.Close()
	}
}
