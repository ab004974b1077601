package table

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// COMPILE PLAN writes the plan file and refuses to overwrite it (unless
// 'table.plan.force-recompile'); IF NOT EXISTS keeps it; EXECUTE PLAN (by
// absolute, file:// and relative path) and COMPILE AND EXECUTE PLAN of an
// existing file run the compiled INSERT, as Flink's insert.q does.
func TestCompileAndExecutePlan(t *testing.T) {
	env := MustCreate(InBatchMode())
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	planFile := filepath.Join(dir, "plans", "p.json")
	mustExec(t, env, "CREATE TABLE t (id INT, str STRING) WITH ('connector'='filesystem', 'path'='"+data+"', 'format'='csv')")
	insert := "INSERT INTO t SELECT * FROM (VALUES (1, 'Hello'))"
	mustExec(t, env, "COMPILE PLAN '"+planFile+"' FOR "+insert)
	var cp compiledPlan
	b, err := os.ReadFile(planFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &cp); err != nil {
		t.Fatal(err)
	}
	if cp.Statement != insert || cp.Catalog != "default_catalog" || cp.Database != "default_database" || len(cp.ExecutionPlan) == 0 ||
		!strings.HasPrefix(cp.ExecutionPlan[0], "Sink(table=[default_catalog.default_database.t]") {
		t.Fatalf("plan file: %+v", cp)
	}
	if _, err := env.ExecuteSQL("COMPILE PLAN '" + planFile + "' FOR " + insert); err == nil ||
		!strings.Contains(err.Error(), "Cannot overwrite the plan file") || !strings.Contains(err.Error(), "'table.plan.force-recompile'") {
		t.Fatalf("overwriting: %v", err)
	}
	mustExec(t, env, "COMPILE PLAN '"+planFile+"' IF NOT EXISTS FOR "+insert)
	run := func(stmt string) {
		t.Helper()
		res, err := env.ExecuteSQL(stmt)
		if err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
		if err := res.Wait(0); err != nil {
			t.Fatal(err)
		}
	}
	run("EXECUTE PLAN '" + planFile + "'")
	run("EXECUTE PLAN 'file://" + filepath.ToSlash(planFile) + "'")
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(wd, planFile)
	if err != nil {
		t.Fatal(err)
	}
	run("EXECUTE PLAN '" + rel + "'")
	// the file exists: COMPILE AND EXECUTE runs it as it is
	run("COMPILE AND EXECUTE PLAN '" + planFile + "' FOR INSERT INTO t SELECT * FROM (VALUES (2, 'other'))")
	res, err := env.ExecuteSQL("SELECT id, str FROM t")
	if err != nil {
		t.Fatal(err)
	}
	if got := collectResult(t, res); got != "+I[1, Hello]\n+I[1, Hello]\n+I[1, Hello]\n+I[1, Hello]" {
		t.Errorf("read back:\n%s", got)
	}
	if _, err := env.ExecuteSQL("EXECUTE PLAN '" + filepath.Join(dir, "none.json") + "'"); err == nil || !strings.Contains(err.Error(), "Cannot load the plan file") {
		t.Errorf("missing file: %v", err)
	}
	if _, err := env.ExecuteSQL("EXECUTE PLAN 's3://bucket/p.json'"); err == nil || !strings.Contains(err.Error(), "scheme 's3'") {
		t.Errorf("another scheme: %v", err)
	}
}
