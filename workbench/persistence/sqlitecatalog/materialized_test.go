package sqlitecatalog

import (
	"path/filepath"
	"strings"
	"testing"
)

// A materialized table keeps its definition, freshness and refresh state
// in the file: after the catalog is opened again by another environment,
// SHOW MATERIALIZED TABLES lists it and SHOW CREATE MATERIALIZED TABLE
// prints the same DDL.
func TestMaterializedTableSurvivesReopen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "mt.db")
	env := newEnv(t)
	exec1(t, env, createStmt(path))
	exec1(t, env, "USE CATALOG p")
	exec1(t, env, "CREATE TABLE src (k INT, v STRING) WITH ('connector' = 'datagen', 'number-of-rows' = '3')")
	exec1(t, env, `CREATE MATERIALIZED TABLE m (PRIMARY KEY (k) NOT ENFORCED) COMMENT 'c' PARTITIONED BY (v)
		WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '2' HOUR REFRESH_MODE = FULL
		AS SELECT COALESCE(k, 0) AS k, v FROM src`)
	exec1(t, env, "ALTER MATERIALIZED TABLE m SUSPEND")
	before := exec1(t, env, "SHOW CREATE MATERIALIZED TABLE m")

	env2 := newEnv(t)
	exec1(t, env2, createStmt(path))
	exec1(t, env2, "USE CATALOG p")
	if got := exec1(t, env2, "SHOW MATERIALIZED TABLES"); !strings.Contains(got, "| m |") && !strings.Contains(got, " m |") {
		t.Fatalf("SHOW MATERIALIZED TABLES after reopening:\n%s", got)
	}
	after := exec1(t, env2, "SHOW CREATE MATERIALIZED TABLE m")
	if after != before {
		t.Fatalf("SHOW CREATE MATERIALIZED TABLE differs after reopening:\n%s\nwant:\n%s", after, before)
	}
	for _, want := range []string{"FRESHNESS = INTERVAL '2' HOUR", "REFRESH_MODE = FULL", "CONSTRAINT `PK_k` PRIMARY KEY (`k`) NOT ENFORCED", "PARTITIONED BY (`v`)"} {
		if !strings.Contains(after, want) {
			t.Errorf("SHOW CREATE MATERIALIZED TABLE lacks %q:\n%s", want, after)
		}
	}
	// the suspended state was kept: SUSPEND again is refused, RESUME starts
	// the schedule in this process
	if _, err := env2.ExecuteSQL("ALTER MATERIALIZED TABLE m SUSPEND"); err == nil || !strings.Contains(err.Error(), "refresh workflow has been suspended") {
		t.Fatalf("SUSPEND of a suspended table after reopening: %v", err)
	}
	exec1(t, env2, "ALTER MATERIALIZED TABLE m RESUME")
	exec1(t, env2, "DROP MATERIALIZED TABLE m")
	if got := exec1(t, env2, "SHOW MATERIALIZED TABLES"); strings.Contains(got, " m ") {
		t.Fatalf("m is still listed after DROP:\n%s", got)
	}
}
