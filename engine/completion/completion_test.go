package completion_test

import (
	. "github.com/riffle-sql/riffle/engine/completion"
	"slices"
	"strings"
	"testing"

	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/table"
)

func testEnv(t *testing.T) Catalog {
	t.Helper()
	env := table.MustCreate(table.InStreamingMode())
	for _, s := range []string{
		"CREATE TABLE flights (`date` TIMESTAMP(3), delay INT, distance INT, origin STRING, destination STRING, WATERMARK FOR `date` AS `date` - INTERVAL '5' SECOND) WITH ('connector' = 'filesystem', 'path' = '/tmp/f.csv', 'format' = 'csv')",
		"CREATE TABLE airports (iata STRING, name STRING, state STRING, latitude DOUBLE) WITH ('connector' = 'filesystem', 'path' = '/tmp/a.csv', 'format' = 'csv')",
		"CREATE VIEW delayed AS SELECT origin, delay FROM flights WHERE delay > 60",
		"CREATE DATABASE archive",
		"CREATE TABLE archive.`old flights` (id BIGINT, `value` DOUBLE) WITH ('connector' = 'blackhole')",
		"CREATE CATALOG other WITH ('type' = 'generic_in_memory')",
	} {
		if _, err := env.ExecuteSQL(s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
	return table.CompletionCatalog(env)
}

// at completes at the "|" in text.
func at(t *testing.T, cat Catalog, text string) Result {
	t.Helper()
	i := strings.Index(text, "|")
	if i < 0 {
		t.Fatal("no cursor")
	}
	return Complete(text[:i]+text[i+1:], i, cat)
}

func labels(items []Item) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.Label
	}
	return out
}

func find(items []Item, label string) (Item, bool) {
	for _, it := range items {
		if it.Label == label {
			return it, true
		}
	}
	return Item{}, false
}

// mustHave checks that every label is offered (with kind k) and returns
// the labels for further checks.
func mustHave(t *testing.T, r Result, k Kind, want ...string) {
	t.Helper()
	for _, w := range want {
		it, ok := find(r.Items, w)
		if !ok {
			t.Errorf("%q (%s) not offered; got %v", w, r.Context, labels(r.Items))
			continue
		}
		if it.Kind != k {
			t.Errorf("%q is a %s, want %s", w, it.Kind, k)
		}
	}
}

func mustNotHave(t *testing.T, r Result, labelsNot ...string) {
	t.Helper()
	for _, w := range labelsNot {
		if _, ok := find(r.Items, w); ok {
			t.Errorf("%q offered in context %s", w, r.Context)
		}
	}
}

func TestStatementStart(t *testing.T) {
	cat := testEnv(t)
	r := at(t, cat, "SELECT 1;\nsel|")
	if r.Context != "statement" || r.Prefix != "sel" {
		t.Fatalf("context %s prefix %q", r.Context, r.Prefix)
	}
	if got := labels(r.Items); !slices.Equal(got, []string{"SELECT"}) {
		t.Errorf("got %v", got)
	}
	if r.Start != 10 || r.End != 13 {
		t.Errorf("range %d-%d", r.Start, r.End)
	}
	r = at(t, cat, "|")
	mustHave(t, r, KindKeyword, "SELECT", "CREATE TABLE", "INSERT INTO", "SHOW TABLES")
	r = at(t, cat, "SELECT 1; |")
	if r.Context != "statement" {
		t.Errorf("after ';': %s", r.Context)
	}
}

func TestTablesAfterFromAndJoin(t *testing.T) {
	cat := testEnv(t)
	r := at(t, cat, "SELECT * FROM |")
	if r.Context != "table" {
		t.Fatalf("context %s", r.Context)
	}
	mustHave(t, r, KindTable, "flights", "airports")
	mustHave(t, r, KindView, "delayed")
	mustHave(t, r, KindDatabase, "archive", "default_database")
	mustHave(t, r, KindCatalog, "default_catalog", "other")
	mustNotHave(t, r, "SELECT", "origin")
	r = at(t, cat, "SELECT * FROM flights f JOIN ai|")
	if got := labels(r.Items); !slices.Equal(got, []string{"airports"}) {
		t.Errorf("join: %v", got)
	}
	r = at(t, cat, "SELECT * FROM flights, a|")
	mustHave(t, r, KindTable, "airports")
	r = at(t, cat, "INSERT INTO |")
	mustHave(t, r, KindTable, "flights")
	r = at(t, cat, "DROP TABLE IF EXISTS |")
	mustHave(t, r, KindTable, "flights")
	r = at(t, cat, "DESCRIBE d|")
	mustHave(t, r, KindView, "delayed")
	r = at(t, cat, "CREATE TABLE |")
	if r.Context != "new name" {
		t.Errorf("CREATE TABLE name: %s %v", r.Context, labels(r.Items))
	}
	r = at(t, cat, "SELECT * FROM TABLE(TUMBLE(TABLE f|")
	mustHave(t, r, KindTable, "flights")
}

func TestQualifiedNames(t *testing.T) {
	cat := testEnv(t)
	r := at(t, cat, "SELECT * FROM archive.|")
	mustHave(t, r, KindTable, "old flights")
	if it, _ := find(r.Items, "old flights"); it.Insert != "`old flights`" {
		t.Errorf("insert %q", it.Insert)
	}
	// a generic_in_memory catalog's database is 'default', as in Flink
	r = at(t, cat, "SELECT * FROM other.|")
	mustHave(t, r, KindDatabase, "default")
	r = at(t, cat, "SELECT * FROM default_catalog.archive.|")
	mustHave(t, r, KindTable, "old flights")
	r = at(t, cat, "USE |")
	mustHave(t, r, KindDatabase, "archive")
	mustHave(t, r, KindCatalog, "other")
	r = at(t, cat, "USE CATALOG o|")
	if got := labels(r.Items); !slices.Equal(got, []string{"other"}) {
		t.Errorf("use catalog: %v", got)
	}
}

func TestColumns(t *testing.T) {
	cat := testEnv(t)
	// the cursor in the select list sees the tables of the FROM after it
	r := at(t, cat, "SELECT de| FROM flights")
	if r.Context != "column" {
		t.Fatalf("context %s", r.Context)
	}
	mustHave(t, r, KindColumn, "delay", "destination")
	mustHave(t, r, KindKeyword, "DESC")
	if it, _ := find(r.Items, "delay"); it.Detail != "INT · flights" {
		t.Errorf("detail %q", it.Detail)
	}
	mustNotHave(t, r, "destinations")
	// reserved names are inserted quoted
	r = at(t, cat, "SELECT d| FROM flights")
	if it, ok := find(r.Items, "date"); !ok || it.Insert != "`date`" {
		t.Errorf("date: %+v", it)
	}
	// after an alias and a dot: that table's columns only
	r = at(t, cat, "SELECT a.| FROM flights AS f JOIN airports a ON f.origin = a.iata")
	if got := labels(r.Items); !slices.Equal(got, []string{"iata", "name", "state", "latitude"}) {
		t.Errorf("a.: %v", got)
	}
	r = at(t, cat, "SELECT * FROM flights f WHERE f.del|")
	if got := labels(r.Items); !slices.Equal(got, []string{"delay"}) {
		t.Errorf("f.del: %v", got)
	}
	// a table name as qualifier
	r = at(t, cat, "SELECT flights.| FROM flights")
	mustHave(t, r, KindColumn, "origin")
	// several tables: plain and qualified
	r = at(t, cat, "SELECT * FROM flights f JOIN airports a ON |")
	mustHave(t, r, KindColumn, "f.origin", "a.iata", "origin", "iata")
	// WHERE, GROUP BY, ORDER BY
	for _, s := range []string{"SELECT * FROM flights WHERE |", "SELECT origin FROM flights GROUP BY |", "SELECT * FROM flights ORDER BY |",
		"SELECT * FROM flights WHERE delay > 5 AND |", "SELECT origin, | FROM flights"} {
		r = at(t, cat, s)
		mustHave(t, r, KindColumn, "origin", "delay")
	}
	// window TVF columns
	r = at(t, cat, "SELECT window_| FROM TABLE(TUMBLE(TABLE flights, DESCRIPTOR(`date`), INTERVAL '1' HOUR))")
	mustHave(t, r, KindColumn, "window_start", "window_end", "window_time")
	// DESCRIPTOR( offers the columns
	r = at(t, cat, "SELECT * FROM TABLE(TUMBLE(TABLE flights, DESCRIPTOR(|")
	mustHave(t, r, KindColumn, "date")
	// a quoted prefix
	r = at(t, cat, "SELECT `da| FROM flights")
	if it, ok := find(r.Items, "date"); !ok || it.Insert != "`date`" || r.Start != 7 {
		t.Errorf("quoted: %+v start %d", it, r.Start)
	}
	// columns of a table in another database
	r = at(t, cat, "SELECT | FROM archive.`old flights`")
	mustHave(t, r, KindColumn, "id", "value")
}

func TestFunctions(t *testing.T) {
	cat := testEnv(t)
	r := at(t, cat, "SELECT up| FROM flights")
	it, ok := find(r.Items, "UPPER")
	if !ok || it.Kind != KindFunction || it.Insert != "UPPER(" || !strings.Contains(it.Detail, "UPPER(") {
		t.Errorf("UPPER: %+v", it)
	}
	r = at(t, cat, "SELECT origin, AV| FROM flights GROUP BY origin")
	mustHave(t, r, KindFunction, "AVG")
	// operators are not offered as functions
	r = at(t, cat, "SELECT | FROM flights")
	for _, it := range r.Items {
		if it.Kind == KindFunction && (it.Label == "EQUALS" || it.Label == "PLUS" || it.Label == "GET_FIELD" || it.Label == "NEGATE") {
			t.Errorf("operator %s offered as a function", it.Label)
		}
	}
	mustHave(t, r, KindFunction, "COUNT", "COALESCE", "ROUND")
}

func TestOptions(t *testing.T) {
	cat := testEnv(t)
	r := at(t, cat, "CREATE TABLE t (a INT) WITH (|")
	if r.Context != "option key" {
		t.Fatalf("context %s", r.Context)
	}
	if got := labels(r.Items); !slices.Equal(got, []string{"connector"}) {
		t.Errorf("before connector: %v", got)
	}
	r = at(t, cat, "CREATE TABLE t (a INT) WITH ('connector' = |")
	mustHave(t, r, KindOptionValue, "filesystem", "datagen", "print", "blackhole")
	if it, _ := find(r.Items, "datagen"); it.Insert != "'datagen'" {
		t.Errorf("insert %q", it.Insert)
	}
	r = at(t, cat, "CREATE TABLE t (a INT) WITH ('connector' = 'f|")
	if got := labels(r.Items); !slices.Equal(got, []string{"filesystem"}) || r.Prefix != "f" {
		t.Errorf("typed value: %v prefix %q", got, r.Prefix)
	}
	r = at(t, cat, "CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', |)")
	mustHave(t, r, KindOptionKey, "path", "format", "source.path.regex-pattern")
	mustNotHave(t, r, "connector", "csv.field-delimiter")
	if it, _ := find(r.Items, "path"); !strings.HasPrefix(it.Detail, "required") {
		t.Errorf("path detail %q", it.Detail)
	}
	r = at(t, cat, "CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'format' = |")
	mustHave(t, r, KindOptionValue, "csv", "json")
	r = at(t, cat, "CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'format' = 'csv', 'csv.|')")
	mustHave(t, r, KindOptionKey, "csv.field-delimiter", "csv.ignore-first-line", "csv.invalid-utf8")
	mustNotHave(t, r, "path")
	r = at(t, cat, "CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'format' = 'csv', 'csv.invalid-utf8' = |)")
	if got := labels(r.Items); !slices.Equal(got, []string{"fail", "replace"}) {
		t.Errorf("enum values %v", got)
	}
	if it, _ := find(r.Items, "fail"); it.Detail != "default" {
		t.Errorf("default not marked: %+v", it)
	}
	r = at(t, cat, "CREATE TABLE t (a INT) WITH ('connector' = 'filesystem', 'format' = 'csv', 'csv.ignore-first-line' = |)")
	if got := labels(r.Items); !slices.Equal(got, []string{"true", "false"}) {
		t.Errorf("bool values %v", got)
	}
	// datagen's per-field options are expanded for the table's columns
	r = at(t, cat, "CREATE TABLE t (id BIGINT, `name` STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('connector' = 'datagen', 'fields.|')")
	mustHave(t, r, KindOptionKey, "fields.id.kind", "fields.name.min")
	mustNotHave(t, r, "fields.PRIMARY.kind", "fields.#.kind")
	// the connector's options after the cursor count as set
	r = at(t, cat, "CREATE TABLE t (a INT) WITH (|, 'connector' = 'filesystem', 'path' = '/x')")
	mustHave(t, r, KindOptionKey, "format")
	mustNotHave(t, r, "path", "connector")
	// ALTER TABLE SET reads the table's connector
	r = at(t, cat, "ALTER TABLE flights SET (|)")
	mustHave(t, r, KindOptionKey, "csv.field-delimiter", "source.path.regex-pattern")
	// hints
	r = at(t, cat, "SELECT * FROM airports /*+ OPTIONS(|) */")
	mustHave(t, r, KindOptionKey, "csv.ignore-parse-errors")
	// a CTE's parenthesis is not an option list
	r = at(t, cat, "WITH x AS (SELECT | FROM flights) SELECT * FROM x")
	if r.Context != "column" {
		t.Errorf("CTE: %s", r.Context)
	}
}

func TestTypes(t *testing.T) {
	cat := testEnv(t)
	r := at(t, cat, "CREATE TABLE t (a |")
	if r.Context != "type" {
		t.Fatalf("context %s", r.Context)
	}
	mustHave(t, r, KindType, "INT", "TIMESTAMP_LTZ", "DECIMAL")
	r = at(t, cat, "CREATE TABLE t (a INT, b big|")
	if got := labels(r.Items); !slices.Equal(got, []string{"BIGINT"}) {
		t.Errorf("prefix: %v", got)
	}
	r = at(t, cat, "SELECT CAST(delay AS |) FROM flights")
	mustHave(t, r, KindType, "DOUBLE")
	r = at(t, cat, "ALTER TABLE flights ADD c |")
	mustHave(t, r, KindType, "STRING")
}

func TestIncompleteAndOddInput(t *testing.T) {
	cat := testEnv(t)
	// inside comments and strings nothing is offered
	if r := at(t, cat, "SELECT 1 -- fro|"); r.Context != "comment" || len(r.Items) != 0 {
		t.Errorf("comment: %s %v", r.Context, labels(r.Items))
	}
	if r := at(t, cat, "SELECT * FROM flights WHERE origin = 'OR|"); len(r.Items) != 0 {
		t.Errorf("string: %v", labels(r.Items))
	}
	// garbage does not panic and still yields keywords
	for _, s := range []string{"SELECT ((( |", "))) FROM |", "SELECT `unterminated|", "SELECT 'x|", "CREATE TABLE t (a INT) WITH ('connector' = 'nope', |",
		"/* open comment |", "SELECT * FROM . . |", "SELECT a.b.c.d.| FROM t", "\x00\xff|"} {
		_ = at(t, cat, s)
	}
	// after a complete FROM item: the next clauses first
	r := at(t, cat, "SELECT * FROM flights |")
	if len(r.Items) == 0 || r.Items[0].Label != "WHERE" {
		t.Errorf("next keywords: %v", labels(r.Items)[:5])
	}
	// a nil catalog still completes keywords and options
	r = Complete("SEL", 3, nil)
	if got := labels(r.Items); !slices.Equal(got, []string{"SELECT"}) {
		t.Errorf("nil catalog: %v", got)
	}
	r = Complete("SELECT * FROM ", 14, nil)
	if len(r.Items) != 0 {
		t.Errorf("nil catalog tables: %v", labels(r.Items))
	}
}

func TestAutoTrigger(t *testing.T) {
	cases := map[string]bool{
		"SELECT o|":                      false,
		"SELECT or|":                     true,
		"SELECT f.|":                     true,
		"SELECT 1.|":                     false,
		"SELECT 12|":                     false,
		"SELECT |":                       false,
		"SELECT 'ab|":                    false,
		"-- commen|":                     false,
		"CREATE TABLE t (a INT) WITH (|": true,
		"CREATE TABLE t (a INT) WITH ('connector' = |":  true,
		"CREATE TABLE t (a INT) WITH ('connector' = '|": true,
		"SELECT f(|": false,
		"|":          false,
	}
	for text, want := range cases {
		i := strings.Index(text, "|")
		if got := AutoTrigger(text[:i]+text[i+1:], i); got != want {
			t.Errorf("%q: %v, want %v", text, got, want)
		}
	}
}
