package table

import (
	"strings"
	"testing"
)

// An INSERT casting an aggregate's INT group key to the sink's BIGINT
// primary key keeps the key as the query's upsert key (the cast is
// injective, as Flink's FlinkRelMdUniqueKeys sees it): no ON CONFLICT is
// asked for, and the plan has no upsert materializer. A narrowing cast
// loses the key, and Flink's conflict error names none.
func TestUpsertKeyThroughWideningCast(t *testing.T) {
	env := MustCreate(InStreamingMode())
	mustExec(t, env,
		"SET 'parallelism.default' = '1'",
		`CREATE TABLE gen (v BIGINT) WITH ('connector' = 'datagen', 'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '100')`,
		"CREATE VIEW keyed AS SELECT CAST(v % 3 AS INT) AS k FROM gen",
		`CREATE TABLE wide (k BIGINT, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'blackhole')`,
		`CREATE TABLE narrow (k TINYINT, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector' = 'blackhole')`)
	plan, err := env.ExplainSQL("INSERT INTO wide SELECT k, COUNT(*) FROM keyed GROUP BY k")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(plan, "upsertMaterialize=[true]") {
		t.Fatalf("a materializer for a key kept through a widening cast:\n%s", plan)
	}
	_, err = env.ExplainSQL("INSERT INTO narrow SELECT k, COUNT(*) FROM keyed GROUP BY k")
	if err == nil || !strings.Contains(err.Error(), "upsert key: .") {
		t.Fatalf("narrowing the key to TINYINT: %v, want the upsert key conflict naming no key", err)
	}
}
