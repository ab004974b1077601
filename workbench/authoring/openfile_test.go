package authoring

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/table"
)

func TestUniqueTableName(t *testing.T) {
	env := table.MustCreate(table.InBatchMode())
	exec(t, env, "CREATE TABLE flights (a INT) WITH ('connector' = 'blackhole')")
	exec(t, env, "CREATE VIEW flights_2 AS SELECT 1")
	cat := EnvCatalog(env)
	if got := UniqueTableName(cat, "flights"); got != "flights_3" {
		t.Errorf("got %s", got)
	}
	if got := UniqueTableName(cat, "airports"); got != "airports" {
		t.Errorf("got %s", got)
	}
}

func TestAddToInitScript(t *testing.T) {
	script := "-- my setup\nSET 'execution.runtime-mode' = 'batch';\n\nCREATE TABLE flights (a INT) WITH ('connector' = 'blackhole');\nCREATE VIEW v AS SELECT 1;\n"
	got, err := AddToInitScript(script, "CREATE TABLE airports (iata STRING) WITH ('connector' = 'blackhole')")
	if err != nil {
		t.Fatal(err)
	}
	want := script[:len(script)-1] + "\n\nCREATE TABLE airports (iata STRING) WITH ('connector' = 'blackhole');\n"
	if got != want {
		t.Fatalf("append:\n%s", got)
	}
	// the same table again replaces its definition in place
	got, err = AddToInitScript(got, "CREATE TABLE `flights` (a INT, b STRING) WITH ('connector' = 'blackhole');")
	if err != nil {
		t.Fatal(err)
	}
	want = "-- my setup\nSET 'execution.runtime-mode' = 'batch';\n\nCREATE TABLE `flights` (a INT, b STRING) WITH ('connector' = 'blackhole');\nCREATE VIEW v AS SELECT 1;\n\nCREATE TABLE airports (iata STRING) WITH ('connector' = 'blackhole');\n"
	if got != want {
		t.Fatalf("replace:\n%s", got)
	}
	if got, _ := AddToInitScript("", "CREATE TABLE x (a INT) WITH ('connector' = 'blackhole')"); got != "CREATE TABLE x (a INT) WITH ('connector' = 'blackhole');\n" {
		t.Errorf("empty script: %q", got)
	}
	if got, _ := AddToInitScript("SELECT 1", "CREATE TABLE x (a INT) WITH ('connector' = 'blackhole')"); got != "SELECT 1;\n\nCREATE TABLE x (a INT) WITH ('connector' = 'blackhole');\n" {
		t.Errorf("unterminated script: %q", got)
	}
	if _, err := AddToInitScript("", "CREATE TABLE ("); err == nil {
		t.Error("bad statement accepted")
	}
}

func TestJoinAliases(t *testing.T) {
	q := NewQuery("flights")
	q.ToggleColumn(ColumnRef{Name: "origin"})
	q.AddJoin(JoinInner, TableRef{Path: []string{"flights_archive"}}, []JoinKey{{Left: ColumnRef{Table: "f", Name: "origin"}, Right: "origin"}})
	q.AddJoin(JoinInner, TableRef{Path: []string{"fares"}}, []JoinKey{{Left: ColumnRef{Table: "f", Name: "origin"}, Right: "airport"}})
	got := mustSQL(t, q)
	want := "SELECT f.origin\nFROM flights AS f\nJOIN flights_archive AS flights_archive\n  ON f.origin = flights_archive.origin\nJOIN fares AS fares\n  ON f.origin = fares.airport"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
