package table

import (
	"strings"
	"sync/atomic"
	"testing"

	"github.com/riffle-sql/riffle/engine/catalog"
)

// countingFactory is a real catalog type for the test: in-memory catalogs
// whose default database comes from a required option 'db', counting the
// catalogs it made and closed.
type countingFactory struct{ created, closed atomic.Int32 }

func (f *countingFactory) Identifier() string { return "test_counting" }
func (f *countingFactory) Options() []catalog.FactoryOption {
	return []catalog.FactoryOption{{Key: "db", Required: true}, {Key: "note"}}
}
func (f *countingFactory) Create(name string, opts map[string]string) (catalog.Catalog, error) {
	f.created.Add(1)
	return &closeCounting{InMemoryCatalog: catalog.NewInMemoryCatalog(name, opts["db"]), closed: &f.closed}, nil
}

type closeCounting struct {
	*catalog.InMemoryCatalog
	closed *atomic.Int32
}

func (c *closeCounting) Close() error { c.closed.Add(1); return nil }

func TestCreateCatalogDispatchesToFactories(t *testing.T) {
	f := &countingFactory{}
	catalog.RegisterFactory(f)
	env := MustCreate(InBatchMode())
	exec := func(stmt string) error { _, err := env.ExecuteSQL(stmt); return err }

	// an unknown type lists every registered type, in Flink's words
	err := exec("CREATE CATALOG x WITH ('type' = 'nope')")
	if err == nil || !strings.Contains(err.Error(), "Could not find any factory for identifier 'nope' that implements 'org.apache.flink.table.factories.CatalogFactory'. Available factory identifiers are:\n\n") ||
		!strings.Contains(err.Error(), "\ngeneric_in_memory") || !strings.Contains(err.Error(), "\ntest_counting") {
		t.Fatalf("unknown type: %v", err)
	}
	// a required option is checked before anything is created
	err = exec("CREATE CATALOG c1 WITH ('type' = 'test_counting')")
	if err == nil || err.Error() != "One or more required options are missing.\n\nMissing required options are:\n\ndb" {
		t.Fatalf("missing option: %v", err)
	}
	err = exec("CREATE CATALOG c1 WITH ('type' = 'test_counting', 'db' = 'd', 'zz' = '1')")
	if err == nil || err.Error() != "Unsupported options found for 'test_counting'.\n\nUnsupported options:\n\nzz\n\nSupported options:\n\ndb\nnote\nproperty-version" {
		t.Fatalf("unknown option: %v", err)
	}
	if n := f.created.Load(); n != 0 {
		t.Fatalf("%d catalogs created by failed statements", n)
	}
	if err := exec("CREATE CATALOG c1 COMMENT 'counted' WITH ('type' = 'test_counting', 'db' = 'd1')"); err != nil {
		t.Fatal(err)
	}
	if got := run(t, env, "SHOW DATABASES IN c1"); !strings.Contains(got, " d1 |") {
		t.Fatalf("databases of c1:\n%s", got)
	}
	if got := run(t, env, "SHOW CREATE CATALOG c1"); !strings.Contains(got, "'db' = 'd1',") || !strings.Contains(got, "'type' = 'test_counting'") || !strings.Contains(got, "COMMENT 'counted'") {
		t.Fatalf("show create:\n%s", got)
	}
	if got := run(t, env, "DESCRIBE CATALOG EXTENDED c1"); !strings.Contains(got, "test_counting") || !strings.Contains(got, "option:db") {
		t.Fatalf("describe:\n%s", got)
	}
	// ALTER CATALOG SET re-creates a non-in-memory catalog from its new
	// options and closes the old one
	if err := exec("ALTER CATALOG c1 SET ('db' = 'd2')"); err != nil {
		t.Fatal(err)
	}
	if f.created.Load() != 2 || f.closed.Load() != 1 {
		t.Fatalf("after ALTER: created %d closed %d", f.created.Load(), f.closed.Load())
	}
	if got := run(t, env, "SHOW DATABASES IN c1"); !strings.Contains(got, " d2 |") {
		t.Fatalf("databases of c1 after ALTER:\n%s", got)
	}
	// a comment change does not re-create
	if err := exec("ALTER CATALOG c1 COMMENT 'again'"); err != nil {
		t.Fatal(err)
	}
	if f.created.Load() != 2 {
		t.Fatalf("COMMENT re-created the catalog")
	}
	// RESET of a required key fails on re-creation; as in Flink the
	// descriptor keeps the change (and the open catalog stays)
	err = exec("ALTER CATALOG c1 RESET ('db')")
	if err == nil || !strings.Contains(err.Error(), "Missing required options are:\n\ndb") {
		t.Fatalf("reset required: %v", err)
	}
	if got := run(t, env, "SHOW DATABASES IN c1"); !strings.Contains(got, " d2 |") {
		t.Fatalf("databases of c1 after a failed ALTER:\n%s", got)
	}
	if err := exec("ALTER CATALOG c1 SET ('db' = 'd3')"); err != nil {
		t.Fatal(err)
	}
	if f.created.Load() != 3 || f.closed.Load() != 2 {
		t.Fatalf("after the second ALTER: created %d closed %d", f.created.Load(), f.closed.Load())
	}
	if err := exec("DROP CATALOG c1"); err != nil {
		t.Fatal(err)
	}
	if f.closed.Load() != 3 {
		t.Fatalf("DROP CATALOG closed %d catalogs", f.closed.Load())
	}
	// generic_in_memory: still 'default' unless told, and keeps its
	// objects over ALTER CATALOG
	if err := exec("CREATE CATALOG m WITH ('type' = 'generic_in_memory')"); err != nil {
		t.Fatal(err)
	}
	if err := exec("CREATE TABLE m.`default`.t (a INT) WITH ('connector' = 'datagen')"); err != nil {
		t.Fatal(err)
	}
	if err := exec("ALTER CATALOG m SET ('default-database' = 'default')"); err != nil {
		t.Fatal(err)
	}
	if got := run(t, env, "SHOW TABLES IN m.`default`"); !strings.Contains(got, " t |") {
		t.Fatalf("tables of m:\n%s", got)
	}
}
