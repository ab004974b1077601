package table

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// A streaming statement set's INSERTs into one table become one sink over
// a UNION ALL (Flink's plan for statement_set.q), which writes every row
// of both; INSERTs into other tables, and batch plans, keep their sinks.
func TestStatementSetMergesSinksOfOneTable(t *testing.T) {
	env := MustCreate(InStreamingMode())
	dir := t.TempDir()
	mustExec(t, env, "CREATE TABLE a (id INT, s STRING) WITH ('connector'='filesystem', 'path'='"+filepath.Join(dir, "a")+"', 'format'='csv')")
	mustExec(t, env, "CREATE TABLE b (id INT, s STRING) WITH ('connector'='filesystem', 'path'='"+filepath.Join(dir, "b")+"', 'format'='csv')")
	set := "STATEMENT SET BEGIN " +
		"INSERT INTO a SELECT * FROM (VALUES (1, 'x')); " +
		"INSERT INTO b SELECT * FROM (VALUES (2, 'y')); " +
		"INSERT INTO a SELECT * FROM (VALUES (3, 'z')); END"
	text, err := env.ExplainSQL(set)
	if err != nil {
		t.Fatal(err)
	}
	exec := text[strings.Index(text, "== Optimized Execution Plan =="):]
	want := "Sink(table=[default_catalog.default_database.a], fields=[EXPR$0, EXPR$1])\n+- Union(all=[true], union=[EXPR$0, EXPR$1])\n"
	if !strings.Contains(exec, want) || strings.Count(exec, "Sink(table=[default_catalog.default_database.a]") != 1 ||
		strings.Count(exec, "Sink(table=[default_catalog.default_database.b]") != 1 {
		t.Fatalf("execution plan:\n%s", exec)
	}
	res, err := env.ExecuteSQL("EXECUTE " + set)
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Wait(0); err != nil {
		t.Fatal(err)
	}
	res, err = env.ExecuteSQL("SELECT id, s FROM a")
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(collectResult(t, res), "\n")
	sort.Strings(rows)
	if got := strings.Join(rows, " "); got != "+I[1, x] +I[3, z]" {
		t.Errorf("table a: %s", got)
	}
	batch := MustCreate(InBatchMode())
	mustExec(t, batch, "CREATE TABLE a (id INT, s STRING) WITH ('connector'='filesystem', 'path'='"+filepath.Join(dir, "a2")+"', 'format'='csv')")
	text, err = batch.ExplainSQL("STATEMENT SET BEGIN INSERT INTO a VALUES (1, 'x'); INSERT INTO a VALUES (3, 'z'); END")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text, "Union") {
		t.Errorf("batch plan merged the sinks:\n%s", text)
	}
}
