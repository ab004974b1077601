package table

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/catalog"
)

// 'parallelism.default' beyond what one process runs, or below 1, is
// refused with the key and the bound named: by SET, and when a statement
// runs with it set through the API (before this check a parallelism of
// 100,000 grew memory without end).
func TestParallelismIsBounded(t *testing.T) {
	for _, c := range []struct{ value, want string }{
		{"100000", "at most 512 parallel instances"},
		{"513", "at most 512 parallel instances"},
		{"0", "must be at least 1"},
		{"-5", "must be at least 1"},
	} {
		env := MustCreate(InBatchMode())
		_, err := env.ExecuteSQL("SET 'parallelism.default' = '" + c.value + "'")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "parallelism.default") {
			t.Errorf("SET parallelism %s: %v", c.value, err)
		}
		env.Config().Configuration().SetString("parallelism.default", c.value)
		_, err = env.ExecuteSQL("SELECT COUNT(*) FROM (VALUES (1), (2)) AS t(x)")
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("query at parallelism %s: %v", c.value, err)
		}
	}
	for _, ok := range []string{"512", "-1", "2"} {
		env := MustCreate(InBatchMode())
		if _, err := env.ExecuteSQL("SET 'parallelism.default' = '" + ok + "'"); err != nil {
			t.Fatal(err)
		}
		res, err := env.ExecuteSQL("SELECT COUNT(*) FROM (VALUES (1), (2)) AS t(x)")
		if err != nil {
			t.Fatalf("parallelism %s: %v", ok, err)
		}
		if got := collectResult(t, res); got != "+I[2]" {
			t.Errorf("parallelism %s: %s", ok, got)
		}
	}
}

// A bad 'source.replay-speed' is an error even on a table without a
// watermark (it used to be ignored there).
func TestReplaySpeedCheckedWithoutRowtime(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.csv")
	if err := os.WriteFile(path, []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"-1", "abc", "0"} {
		env := MustCreate(InBatchMode())
		mustExec(t, env, "CREATE TABLE t (x INT) WITH ('connector'='filesystem', 'path'='"+path+"', 'format'='csv', 'source.replay-speed'='"+v+"')")
		if _, err := env.ExecuteSQL("SELECT * FROM t"); err == nil || !strings.Contains(err.Error(), "source.replay-speed") {
			t.Errorf("replay speed %q: %v", v, err)
		}
	}
}

func collectResult(t *testing.T, res *TableResult) string {
	t.Helper()
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var rows []string
	for it.Next() {
		rows = append(rows, it.Row().String())
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(rows, "\n")
}

// pathCatalogFactory is a catalog type with a 'path' option, like the
// persistent catalog, counting the catalogs it creates.
type pathCatalogFactory struct{ created *int }

func (pathCatalogFactory) Identifier() string { return "test_path_catalog" }
func (pathCatalogFactory) Options() []catalog.FactoryOption {
	return []catalog.FactoryOption{{Key: "path", Required: true}}
}
func (f pathCatalogFactory) Create(name string, _ map[string]string) (catalog.Catalog, error) {
	*f.created++
	return catalog.NewInMemoryCatalog(name, "default"), nil
}

// The file access policy covers a catalog's 'path' too (riffle gateway
// --allow-path and CREATE CATALOG … 'type' = 'riffle'), in CREATE and
// ALTER CATALOG.
func TestPathPolicyCoversCatalogFiles(t *testing.T) {
	created := 0
	catalog.RegisterFactory(pathCatalogFactory{created: &created})
	env := MustCreate(InBatchMode())
	env.SetPathPolicy(func(p string) error {
		if strings.HasPrefix(p, "/allowed/") {
			return nil
		}
		return fmt.Errorf("path '%s' is not allowed", p)
	})
	_, err := env.ExecuteSQL("CREATE CATALOG c WITH ('type' = 'test_path_catalog', 'path' = '/etc/c.db')")
	if err == nil || !strings.Contains(err.Error(), "is not allowed") || created != 0 {
		t.Fatalf("catalog outside the policy: %v (created %d)", err, created)
	}
	mustExec(t, env, "CREATE CATALOG c WITH ('type' = 'test_path_catalog', 'path' = '/allowed/c.db')")
	if _, err := env.ExecuteSQL("ALTER CATALOG c SET ('path' = '/etc/other.db')"); err == nil || !strings.Contains(err.Error(), "is not allowed") || created != 1 {
		t.Fatalf("ALTER CATALOG outside the policy: %v (created %d)", err, created)
	}
}
