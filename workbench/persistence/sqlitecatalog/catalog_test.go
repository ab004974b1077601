package sqlitecatalog

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

func init() {
	// a Go UDF the catalogs refer to by its registered name
	if err := table.RegisterGoUDF("sqlitecatalog_test.shout", table.UDF(func(s string) string { return strings.ToUpper(s) + "!" }, table.WithName("shout"))); err != nil {
		panic(err)
	}
}

func newEnv(t *testing.T) *table.TableEnvironment {
	t.Helper()
	env, err := table.Create(table.InBatchMode())
	if err != nil {
		t.Fatal(err)
	}
	return env
}

// exec runs one statement and returns its printed result.
func exec1(t *testing.T, env *table.TableEnvironment, stmt string) string {
	t.Helper()
	res, err := env.ExecuteSQL(stmt)
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	var b bytes.Buffer
	if err := res.PrintTo(&b); err != nil {
		t.Fatalf("%s: print: %v", stmt, err)
	}
	return b.String()
}

func createStmt(path string) string {
	return fmt.Sprintf("CREATE CATALOG p WITH ('type' = 'riffle', 'path' = '%s')", strings.ReplaceAll(path, "'", "''"))
}

// checks are statements whose output must be the same before and after
// the file is closed and opened again.
var checks = []string{
	"SHOW DATABASES",
	"SHOW TABLES IN db1",
	"SHOW VIEWS IN db1",
	"SHOW FUNCTIONS IN db1",
	"SHOW CREATE TABLE db1.orders",
	"DESCRIBE db1.orders",
	"SHOW CREATE VIEW db1.big",
	"SHOW CREATE TABLE `default`.plain",
	"DESCRIBE DATABASE EXTENDED db1",
	"SELECT * FROM db1.big ORDER BY id",
	"SELECT db1.shout(n) FROM db1.big ORDER BY n",
}

func TestEveryObjectSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "cat's.db") // a folder made on open; a quote in the name
	env := newEnv(t)
	exec1(t, env, createStmt(path))
	for _, s := range []string{
		"USE CATALOG p",
		"CREATE DATABASE db1 COMMENT 'first db' WITH ('owner' = 'ann')",
		`CREATE TABLE db1.orders (
		   id BIGINT NOT NULL COMMENT 'the key',
		   name STRING,
		   price DECIMAL(10, 2),
		   tags ARRAY<STRING>,
		   attrs MAP<STRING, INT>,
		   nested ROW<a INT, b TIMESTAMP_LTZ(3)>,
		   ts TIMESTAMP(3),
		   part STRING,
		   total AS price * 2,
		   src STRING METADATA FROM 'filename' VIRTUAL,
		   WATERMARK FOR ts AS ts - INTERVAL '5' SECOND,
		   PRIMARY KEY (id) NOT ENFORCED
		 ) COMMENT 'all orders' PARTITIONED BY (part) WITH ('connector' = 'filesystem', 'path' = '/tmp/nowhere', 'format' = 'json')`,
		"CREATE TABLE `default`.plain (id INT, name STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '3')",
		"CREATE VIEW db1.big COMMENT 'a view' AS SELECT id, UPPER(name) AS n FROM (VALUES (1, 'a'), (2, 'b')) AS v(id, name) WHERE id > 0",
		"CREATE FUNCTION db1.Shout AS 'sqlitecatalog_test.shout' LANGUAGE GO",
	} {
		exec1(t, env, s)
	}
	// partitions and statistics through the catalog API
	c, _ := env.Catalogs().GetCatalog("p")
	orders := catalog.NewObjectPath("db1", "orders")
	spec := catalog.PartitionSpec{"part": "x=1"}
	if err := c.CreatePartition(orders, spec, catalog.NewCatalogPartition(map[string]string{"k": "v"}, "a partition"), false); err != nil {
		t.Fatal(err)
	}
	ndv, nulls := int64(7), int64(1)
	stats := catalog.TableStatistics{RowCount: 10, FileCount: 2, TotalSize: 300, RawDataSize: 400, Properties: map[string]string{"src": "test"}}
	colStats := catalog.ColumnStatistics{Columns: map[string]catalog.ColumnStats{
		"id":   {NDV: &ndv, NullCount: &nulls, Min: int64(1), Max: int64(9)},
		"name": {Min: "a", Max: "z"},
		"ts":   {Min: time.Date(2001, 1, 1, 0, 0, 0, 0, time.UTC)},
	}}
	for _, err := range []error{
		c.AlterTableStatistics(orders, stats, false),
		c.AlterTableColumnStatistics(orders, colStats, false),
		c.AlterPartitionStatistics(orders, spec, stats, false),
		c.AlterPartitionColumnStatistics(orders, spec, colStats, false),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	before := map[string]string{}
	for _, s := range checks {
		before[s] = exec1(t, env, s)
	}
	if !strings.Contains(before["SHOW CREATE TABLE db1.orders"], "WATERMARK FOR `ts`") || !strings.Contains(before["SELECT db1.shout(n) FROM db1.big ORDER BY n"], "!") {
		t.Fatalf("the checks do not show what they should:\n%s\n%s", before["SHOW CREATE TABLE db1.orders"], before["SELECT db1.shout(n) FROM db1.big ORDER BY n"])
	}
	for _, want := range []string{"AS `price` * 2", "METADATA FROM 'filename' VIRTUAL", "PARTITIONED BY (`part`)", "PRIMARY KEY (`id`) NOT ENFORCED", "COMMENT 'all orders'", "COMMENT 'the key'", "MAP<VARCHAR(2147483647), INT>", "TIMESTAMP(3) WITH LOCAL TIME ZONE"} {
		if !strings.Contains(before["SHOW CREATE TABLE db1.orders"], want) {
			t.Errorf("SHOW CREATE TABLE lacks %q:\n%s", want, before["SHOW CREATE TABLE db1.orders"])
		}
	}
	if !strings.Contains(before["DESCRIBE DATABASE EXTENDED db1"], "first db") || !strings.Contains(before["DESCRIBE DATABASE EXTENDED db1"], "owner") {
		t.Errorf("DESCRIBE DATABASE:\n%s", before["DESCRIBE DATABASE EXTENDED db1"])
	}
	// the first environment lets go of the file
	exec1(t, env, "USE CATALOG default_catalog")
	exec1(t, env, "DROP CATALOG p")

	// a second, new environment opens the file again
	env2 := newEnv(t)
	exec1(t, env2, createStmt(path))
	exec1(t, env2, "USE CATALOG p")
	for _, s := range checks {
		if got := exec1(t, env2, s); got != before[s] {
			t.Errorf("%s after reopen:\n%s\nbefore:\n%s", s, got, before[s])
		}
	}
	c2, _ := env2.Catalogs().GetCatalog("p")
	got, err := c2.GetTableStatistics(orders)
	if err != nil || !reflect.DeepEqual(got, stats) {
		t.Errorf("table statistics %+v, %v; want %+v", got, err, stats)
	}
	gotCols, err := c2.GetPartitionColumnStatistics(orders, spec)
	if err != nil || !reflect.DeepEqual(gotCols, colStats) {
		t.Errorf("partition column statistics %+v, %v; want %+v", gotCols, err, colStats)
	}
	part, err := c2.GetPartition(orders, spec)
	if err != nil || part.Comment != "a partition" || part.Properties["k"] != "v" {
		t.Errorf("partition %+v, %v", part, err)
	}
	f, err := c2.GetFunction(catalog.NewObjectPath("db1", "SHOUT"))
	if err != nil || f.ClassName != "sqlitecatalog_test.shout" || f.Language != "GO" {
		t.Errorf("function %+v, %v", f, err)
	}
	bt, err := c2.GetTable(orders)
	if err != nil {
		t.Fatal(err)
	}
	if w := bt.Schema().Watermarks; len(w) != 1 || w[0].RowtimeAttribute != "ts" {
		t.Errorf("watermarks read back as %+v", w)
	}
	// DDL after the reopen changes the file: rename, alter, drop
	for _, s := range []string{
		"ALTER TABLE db1.orders RENAME TO db1.orders2",
		"ALTER TABLE db1.orders2 SET ('format' = 'csv')",
		"DROP VIEW db1.big",
		"DROP FUNCTION db1.shout",
	} {
		exec1(t, env2, s)
	}
	exec1(t, env2, "USE CATALOG default_catalog")
	exec1(t, env2, "DROP CATALOG p")
	env3 := newEnv(t)
	exec1(t, env3, createStmt(path))
	if got := exec1(t, env3, "SHOW TABLES IN p.db1"); !strings.Contains(got, " orders2 |") || strings.Contains(got, " orders |") || strings.Contains(got, " big |") {
		t.Errorf("tables after rename and drop:\n%s", got)
	}
	if got := exec1(t, env3, "SHOW CREATE TABLE p.db1.orders2"); !strings.Contains(got, "'format' = 'csv'") {
		t.Errorf("altered table:\n%s", got)
	}
	if got := exec1(t, env3, "SHOW FUNCTIONS IN p.db1"); strings.Contains(got, "shout") {
		t.Errorf("dropped function still listed:\n%s", got)
	}
	// the partition moved with the renamed table
	c3, _ := env3.Catalogs().GetCatalog("p")
	if !c3.PartitionExists(catalog.NewObjectPath("db1", "orders2"), spec) {
		t.Error("the partition did not follow the renamed table")
	}
	exec1(t, env3, "DROP CATALOG p")
}

func openCatalog(t *testing.T, path string, timeout time.Duration) *Catalog {
	t.Helper()
	c := New("c", path, "", timeout)
	if err := c.Open(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func plainTable() *catalog.Table {
	return catalog.NewCatalogTable(types.NewPhysicalSchema([]string{"a"}, []*types.DataType{types.IntType()}), nil, map[string]string{"connector": "datagen"}, "")
}

func TestTwoCatalogsOnOneFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "shared.db")
	a := openCatalog(t, path, 0)
	if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("a new catalog file's mode: %v, %v (want 0600: options may hold passwords)", st.Mode(), err)
	}
	b := openCatalog(t, path, 0)
	p := catalog.NewObjectPath("default", "t")
	if err := a.CreateTable(p, plainTable(), false); err != nil {
		t.Fatal(err)
	}
	if !b.TableExists(p) {
		t.Fatal("b does not see a's table")
	}
	var exists *catalog.TableAlreadyExistError
	if err := b.CreateTable(p, plainTable(), false); !errors.As(err, &exists) || err.Error() != "Table (or view) default.t already exists in Catalog c." {
		t.Fatalf("b creating a's table: %v", err)
	}
	if err := b.DropTable(p, false); err != nil {
		t.Fatal(err)
	}
	if a.TableExists(p) {
		t.Fatal("a still sees the table b dropped")
	}
	// both create tables at the same time: none is lost
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i, c := range []*Catalog{a, b, a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 10; j++ {
				errs <- c.CreateTable(catalog.NewObjectPath("default", fmt.Sprintf("t%d_%d", i, j)), plainTable(), false)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []*Catalog{a, b} {
		names, err := c.ListTables("default")
		if err != nil || len(names) != 40 {
			t.Fatalf("%d tables (%v), want 40", len(names), err)
		}
	}
}

func TestLockedFileIsAClearError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "locked.db")
	c := openCatalog(t, path, 200*time.Millisecond)
	// another connection holds the write lock
	other, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	err = c.CreateDatabase("d", nil, false)
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "locked by another process") {
		t.Fatalf("a change while the file is locked: %v", err)
	}
	// reads still work (a reader waits only for the writer's commit)
	if !c.DatabaseExists("default") {
		t.Fatal("the default database is not readable while another process writes")
	}
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
	conn.Close()
	if err := c.CreateDatabase("d", nil, false); err != nil {
		t.Fatalf("once the lock is gone: %v", err)
	}
}

func TestBadFilesAreClearErrors(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.db")
	if err := os.WriteFile(garbage, bytes.Repeat([]byte("not a database "), 400), 0o644); err != nil {
		t.Fatal(err)
	}
	err := New("g", garbage, "", 0).Open()
	if err == nil || !strings.Contains(err.Error(), garbage) || !strings.Contains(err.Error(), "catalog 'g'") {
		t.Fatalf("garbage file: %v", err)
	}
	// a SQLite database of something else (a workspace, say) is left alone
	other := filepath.Join(dir, "other.db")
	db, err := sql.Open("sqlite3", "file:"+other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE tabs (id INTEGER)"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	err = New("o", other, "", 0).Open()
	if err == nil || !strings.Contains(err.Error(), "not a Riffle catalog file") || !strings.Contains(err.Error(), other) {
		t.Fatalf("other SQLite file: %v", err)
	}
	// a newer format is refused
	newer := filepath.Join(dir, "newer.db")
	openCatalog(t, newer, 0).Close()
	db, _ = sql.Open("sqlite3", "file:"+newer)
	if _, err := db.Exec("UPDATE schema_version SET version = ?", FormatVersion+1); err != nil {
		t.Fatal(err)
	}
	db.Close()
	err = New("n", newer, "", 0).Open()
	if !errors.Is(err, ErrNewerFormat) || !strings.Contains(err.Error(), newer) {
		t.Fatalf("newer file: %v", err)
	}
	// a damaged definition names the object
	broken := filepath.Join(dir, "broken.db")
	c := openCatalog(t, broken, 0)
	if err := c.CreateTable(catalog.NewObjectPath("default", "t"), plainTable(), false); err != nil {
		t.Fatal(err)
	}
	c.Close()
	db, _ = sql.Open("sqlite3", "file:"+broken)
	if _, err := db.Exec("UPDATE tables SET definition = '{not json'"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	c = openCatalog(t, broken, 0)
	_, err = c.ListTables("default")
	if err == nil || !strings.Contains(err.Error(), "table default.t") || !strings.Contains(err.Error(), broken) {
		t.Fatalf("damaged definition: %v", err)
	}
	// a directory, a missing path
	if err := New("d", dir, "", 0).Open(); err == nil || !strings.Contains(err.Error(), "is a folder") {
		t.Fatalf("folder: %v", err)
	}
	env := newEnv(t)
	if _, err := env.ExecuteSQL("CREATE CATALOG x WITH ('type' = 'riffle')"); err == nil || err.Error() != "One or more required options are missing.\n\nMissing required options are:\n\npath" {
		t.Fatalf("no path: %v", err)
	}
	if _, err := env.ExecuteSQL("CREATE CATALOG x WITH ('type' = 'riffle', 'path' = '" + filepath.Join(dir, "x.db") + "', 'lock-timeout' = 'soon')"); err == nil || !strings.Contains(err.Error(), "'lock-timeout' = 'soon'") {
		t.Fatalf("bad lock-timeout: %v", err)
	}
}

func TestInProcessObjectsAreRefusedClearly(t *testing.T) {
	c := openCatalog(t, filepath.Join(t.TempDir(), "api.db"), 0)
	v := &catalog.View{ViewSchema: types.NewPhysicalSchema([]string{"x"}, []*types.DataType{types.IntType()}), Plan: struct{}{}}
	err := c.CreateTable(catalog.NewObjectPath("default", "v"), v, false)
	if err == nil || !strings.Contains(err.Error(), "has no SQL text") {
		t.Fatalf("a Table API view: %v", err)
	}
	err = c.CreateFunction(catalog.NewObjectPath("default", "f"), &catalog.Function{Impl: struct{}{}, Language: "GO"}, false)
	if err == nil || !strings.Contains(err.Error(), "has no registered name") {
		t.Fatalf("an in-process function: %v", err)
	}
	// the failed changes left nothing behind, in the file or the image
	if c.TableExists(catalog.NewObjectPath("default", "v")) || c.FunctionExists(catalog.NewObjectPath("default", "f")) {
		t.Fatal("a refused object is visible")
	}
	if names, err := c.ListTables("default"); err != nil || len(names) != 0 {
		t.Fatalf("tables %v, %v", names, err)
	}
}

// TestHelperProcess is the second process of TestTwoProcesses: it creates
// tables in the file named by RIFFLE_CATALOG_CHILD_PATH.
func TestHelperProcess(t *testing.T) {
	path := os.Getenv("RIFFLE_CATALOG_CHILD_PATH")
	if path == "" {
		t.Skip("run by TestTwoProcesses")
	}
	c := New("c", path, "", 30*time.Second)
	if err := c.Open(); err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	for j := 0; j < 25; j++ {
		if err := c.CreateTable(catalog.NewObjectPath("default", fmt.Sprintf("child_%d", j)), plainTable(), false); err != nil {
			t.Fatal(err)
		}
	}
}

func TestTwoProcesses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "procs.db")
	c := openCatalog(t, path, 30*time.Second)
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), "RIFFLE_CATALOG_CHILD_PATH="+path)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for j := 0; j < 25; j++ {
		if err := c.CreateTable(catalog.NewObjectPath("default", fmt.Sprintf("parent_%d", j)), plainTable(), false); err != nil {
			t.Fatal(err)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v\n%s", err, out.String())
	}
	names, err := c.ListTables("default")
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(names)
	if len(names) != 50 || names[0] != "child_0" || names[49] != "parent_9" {
		t.Fatalf("%d tables after both processes: %v", len(names), names)
	}
}

// A view's unqualified names resolve in the catalog that stores it, under
// whatever name the file is opened (the workbench's `workspace` is another
// name in a riffle sql session).
func TestViewsResolveUnderAnotherCatalogName(t *testing.T) {
	path := filepath.Join(t.TempDir(), "views.db")
	env := newEnv(t)
	exec1(t, env, createStmt(path))
	exec1(t, env, "USE CATALOG p")
	exec1(t, env, "CREATE VIEW base AS SELECT * FROM (VALUES (1), (2), (3)) AS t(x)")
	exec1(t, env, "CREATE VIEW counted AS SELECT count(*) AS n FROM base")
	exec1(t, env, "USE CATALOG default_catalog")
	exec1(t, env, "DROP CATALOG p")
	env2 := newEnv(t)
	exec1(t, env2, fmt.Sprintf("CREATE CATALOG other WITH ('type' = 'riffle', 'path' = '%s')", path))
	if got := exec1(t, env2, "SELECT * FROM other.`default`.counted"); !strings.Contains(got, "| 3 |") && !strings.Contains(got, " 3 |") {
		t.Fatalf("the view under another catalog name:\n%s", got)
	}
	exec1(t, env2, "DROP CATALOG other")
}

// While a catalog is open (a riffle sql run that never closes it, a killed
// window), its file alone holds every committed change: a copy of just
// that file opens with the tables in it, and no -wal or -shm file lies
// beside it. Opening an up-to-date file does not wait for another
// process's write transaction.
func TestTheFileAloneHoldsTheCatalog(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "c.db")
	c := openCatalog(t, path, 0)
	if err := c.CreateDatabase("keep", catalog.NewCatalogDatabase(nil, ""), false); err != nil {
		t.Fatal(err)
	}
	if err := c.CreateTable(catalog.NewObjectPath("keep", "t"), plainTable(), false); err != nil {
		t.Fatal(err)
	}
	for _, side := range []string{path + "-wal", path + "-shm"} {
		if _, err := os.Stat(side); !os.IsNotExist(err) {
			t.Errorf("%s beside the catalog file: %v", filepath.Base(side), err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cp := filepath.Join(t.TempDir(), "copy.db")
	if err := os.WriteFile(cp, b, 0o600); err != nil {
		t.Fatal(err)
	}
	copied := openCatalog(t, cp, 0)
	if !copied.TableExists(catalog.NewObjectPath("keep", "t")) {
		t.Fatal("a copy of the catalog file alone lost the table")
	}

	other, err := sql.Open("sqlite3", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(context.Background(), "BEGIN IMMEDIATE"); err != nil {
		t.Fatal(err)
	}
	reader := New("r", path, "", 100*time.Millisecond)
	if err := reader.Open(); err != nil {
		t.Fatalf("opening while another process writes: %v", err)
	}
	defer reader.Close()
	if !reader.TableExists(catalog.NewObjectPath("keep", "t")) {
		t.Error("the table is not readable while another process writes")
	}
	if _, err := conn.ExecContext(context.Background(), "ROLLBACK"); err != nil {
		t.Fatal(err)
	}
}
