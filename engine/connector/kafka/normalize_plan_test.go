package kafka_test

import (
	"fmt"
	"strings"
	"testing"
)

// The plans of upsert-kafka tables (EXPLAIN CHANGELOG_MODE, the Optimized
// Physical Plan section), each exactly as Flink 2.3.0 with
// flink-sql-connector-kafka 5.0.0-2.2 prints it: the [UA,D] source gets
// Exchange and ChangelogNormalize where the consumer needs -U rows or a
// filter, and none where it takes upserts on the key (an upsert sink, an
// explained query).
func TestUpsertKafkaNormalizePlans(t *testing.T) {
	bootstrap := broker(t, map[string]int32{"t": 1, "t2": 1})
	e := env(t, true)
	for _, ddl := range []string{
		"CREATE TABLE up (id INT, name STRING, weight DOUBLE, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector'='upsert-kafka','topic'='t','properties.bootstrap.servers'='%s','key.format'='json','value.format'='json')",
		"CREATE TABLE upk (id INT, name STRING, weight DOUBLE, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector'='upsert-kafka','topic'='t2','properties.bootstrap.servers'='%s','key.format'='json','value.format'='json')",
		"CREATE TABLE hole_pk (id INT, name STRING, weight DOUBLE, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector'='blackhole')",
		"CREATE TABLE pr (id INT, name STRING, weight DOUBLE) WITH ('connector'='print')",
	} {
		if strings.Contains(ddl, "%s") {
			ddl = fmt.Sprintf(ddl, bootstrap)
		}
		exec(t, e, ddl)
	}
	scan := "TableSourceScan(table=[[default_catalog, default_database, up]], fields=[id, name, weight], changelogMode=[UA,D])"
	for _, c := range []struct{ stmt, want string }{
		{"SELECT * FROM up", scan},
		{"INSERT INTO hole_pk SELECT * FROM up", "Sink(table=[default_catalog.default_database.hole_pk], fields=[id, name, weight], changelogMode=[NONE])\n+- " + scan},
		{"INSERT INTO upk SELECT * FROM up", "Sink(table=[default_catalog.default_database.upk], fields=[id, name, weight], changelogMode=[NONE])\n+- " + scan},
		{"INSERT INTO pr SELECT * FROM up", `Sink(table=[default_catalog.default_database.pr], fields=[id, name, weight], changelogMode=[NONE])
+- ChangelogNormalize(key=[id], changelogMode=[I,UB,UA,D])
   +- Exchange(distribution=[hash[id]], changelogMode=[UA,D])
      +- ` + scan},
		// Riffle prints the literal with the type it is cast to (2.0; Flink: 2)
		{"INSERT INTO upk SELECT * FROM up WHERE weight > 2", `Sink(table=[default_catalog.default_database.upk], fields=[id, name, weight], changelogMode=[NONE])
+- ChangelogNormalize(key=[id], condition=[>(weight, 2.0)], changelogMode=[I,UA,D])
   +- Exchange(distribution=[hash[id]], changelogMode=[UA,D])
      +- ` + scan},
		{"SELECT * FROM up WHERE weight > 2", `ChangelogNormalize(key=[id], condition=[>(weight, 2.0)], changelogMode=[I,UA,D])
+- Exchange(distribution=[hash[id]], changelogMode=[UA,D])
   +- ` + scan},
	} {
		res, err := e.ExecuteSQL("EXPLAIN CHANGELOG_MODE " + c.stmt)
		if err != nil {
			t.Fatalf("%s: %v", c.stmt, err)
		}
		var b strings.Builder
		it, err := res.Collect()
		if err != nil {
			t.Fatal(err)
		}
		for it.Next() {
			b.WriteString(fmt.Sprint(it.Row().Values[0]))
		}
		it.Close()
		_, after, _ := strings.Cut(b.String(), "== Optimized Physical Plan ==\n")
		got, _, _ := strings.Cut(after, "\n\n== Optimized Execution Plan ==")
		if got != c.want {
			t.Errorf("%s:\n%s\nwant:\n%s", c.stmt, got, c.want)
		}
	}
}

// TestInsertOnlyQueryIntoUpsertKafka: Flink 2.3.0 refuses an insert-only
// query written to upsert-kafka under table.exec.sink.upsert-materialize
// AUTO (rows of one key would overwrite each other: it asks for ON
// CONFLICT, naming upsert key "none"), adds the SinkUpsertMaterializer
// under FORCE, and writes the rows as they are under NONE; an appending
// sink with a primary key (blackhole) takes the same query under AUTO.
func TestInsertOnlyQueryIntoUpsertKafka(t *testing.T) {
	bootstrap := broker(t, map[string]int32{"plain": 1, "ups": 1})
	e := env(t, true)
	exec(t, e, fmt.Sprintf("CREATE TABLE plain (k STRING, v INT) WITH ('connector'='kafka','topic'='plain','properties.bootstrap.servers'='%s','format'='json')", bootstrap))
	exec(t, e, fmt.Sprintf("CREATE TABLE ups (k STRING, v INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector'='upsert-kafka','topic'='ups','properties.bootstrap.servers'='%s','key.format'='json','value.format'='json')", bootstrap))
	exec(t, e, "CREATE TABLE hole_k (k STRING, v INT, PRIMARY KEY (k) NOT ENFORCED) WITH ('connector'='blackhole')")
	sinkLine := func(stmt string) (string, error) {
		text, err := e.ExplainSQL(stmt)
		if err != nil {
			return "", err
		}
		_, after, _ := strings.Cut(text, "== Optimized Execution Plan ==\n")
		line, _, _ := strings.Cut(after, "\n")
		return line, nil
	}
	const toUps = "INSERT INTO ups SELECT k, v FROM plain"
	if _, err := sinkLine(toUps); err == nil || !strings.Contains(err.Error(), "Primary key: [k], upsert key: none.") {
		t.Errorf("AUTO: %v, want the ON CONFLICT error", err)
	}
	if got, err := sinkLine("INSERT INTO hole_k SELECT k, v FROM plain"); err != nil || got != "Sink(table=[default_catalog.default_database.hole_k], fields=[k, v])" {
		t.Errorf("AUTO into blackhole: %q, %v", got, err)
	}
	exec(t, e, "SET 'table.exec.sink.upsert-materialize' = 'FORCE'")
	for _, sink := range []string{"ups", "hole_k"} {
		want := "Sink(table=[default_catalog.default_database." + sink + "], fields=[k, v], upsertMaterialize=[true])"
		if got, err := sinkLine("INSERT INTO " + sink + " SELECT k, v FROM plain"); err != nil || got != want {
			t.Errorf("FORCE into %s: %q, %v; want %q", sink, got, err, want)
		}
	}
	exec(t, e, "SET 'table.exec.sink.upsert-materialize' = 'NONE'")
	if got, err := sinkLine(toUps); err != nil || got != "Sink(table=[default_catalog.default_database.ups], fields=[k, v])" {
		t.Errorf("NONE: %q, %v", got, err)
	}
}
