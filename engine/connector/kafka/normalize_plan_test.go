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
