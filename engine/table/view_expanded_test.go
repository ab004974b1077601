package table

import (
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/catalog"
)

// expandedQuery runs the DDL and returns the expanded query the view kept.
func expandedQuery(t *testing.T, env *TableEnvironment, ddl, view string) string {
	t.Helper()
	if _, err := env.ExecuteSQL(ddl); err != nil {
		t.Fatalf("%s: %v", ddl, err)
	}
	id, err := env.qualifyPath(view)
	if err != nil {
		t.Fatal(err)
	}
	rt, ok, err := env.catalogs.GetTable(id)
	if err != nil || !ok {
		t.Fatalf("view %s: %v %v", view, ok, err)
	}
	return rt.Table.(*catalog.View).GetExpandedQuery()
}

// A view's expanded query names its tables in full from the catalog and
// database current when it was made, and a query the expansion does not
// reach keeps its text as written (on one line) rather than a half
// qualified one.
func TestViewExpandedQuery(t *testing.T) {
	env := MustCreate(InBatchMode())
	for _, s := range []string{
		"CREATE TABLE t (a INT, b STRING) WITH ('connector' = 'datagen')",
		"CREATE DATABASE other",
		"CREATE TABLE other.o (a INT, x INT) WITH ('connector' = 'datagen')",
	} {
		if _, err := env.ExecuteSQL(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	if err := env.CreateTemporarySystemFunction("twice", UDF(func(x int32) int32 { return 2 * x }, WithName("twice"))); err != nil {
		t.Fatal(err)
	}

	got := expandedQuery(t, env, "CREATE VIEW v_join AS SELECT * FROM t JOIN other.o AS p ON t.a = p.a", "v_join")
	want := "SELECT `t`.`a`, `t`.`b`, `p`.`a`, `p`.`x`\n" +
		"FROM `default_catalog`.`default_database`.`t` AS `t`\n" +
		"INNER JOIN `default_catalog`.`other`.`o` AS `p` ON `t`.`a` = `p`.`a`"
	if got != want {
		t.Errorf("join view:\n got %q\nwant %q", got, want)
	}

	if _, err := env.ExecuteSQL("USE other"); err != nil {
		t.Fatal(err)
	}
	got = expandedQuery(t, env, "CREATE VIEW v_other AS SELECT x FROM o WHERE a > 0", "v_other")
	want = "SELECT `o`.`x`\nFROM `default_catalog`.`other`.`o` AS `o`\nWHERE `o`.`a` > 0"
	if got != want {
		t.Errorf("view in another database:\n got %q\nwant %q", got, want)
	}

	for name, ddl := range map[string]string{
		"v_udf":     "CREATE VIEW v_udf AS SELECT twice(a) AS d FROM o",
		"v_natural": "CREATE VIEW v_natural AS SELECT * FROM o NATURAL JOIN default_database.t",
		"v_window":  "CREATE VIEW v_window AS SELECT a, SUM(x) OVER w AS s FROM o WINDOW w AS (ORDER BY a)",
	} {
		got := expandedQuery(t, env, ddl, name)
		if strings.Contains(got, "\n") || !strings.HasPrefix(got, "SELECT ") || strings.Contains(got, "`default_catalog`") {
			t.Errorf("%s: want the query as written on one line, got %q", name, got)
		}
	}
}
