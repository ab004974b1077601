package authoring

import (
	"go/parser"
	"go/token"
	"strings"
	"testing"
)

// parseGo checks that generated code is a valid Go statement list.
func parseGo(t *testing.T, code string) {
	t.Helper()
	use := "_ = result"
	if strings.Contains(code, "err :=") {
		use = "_, _ = result, err"
	}
	src := "package p\n\nfunc f() {\n" + code + use + "\n}\n"
	if _, err := parser.ParseFile(token.NewFileSet(), "gen.go", src, parser.AllErrors); err != nil {
		t.Fatalf("generated code does not parse: %v\n%s", err, src)
	}
}

func TestCopyAsGo(t *testing.T) {
	cases := []struct {
		name   string
		q      func() *Query
		native bool
		want   string
	}{
		{"windowed aggregate", flightsHourly, true,
			"result := env.FromPath(\"flights\").\n" +
				"\tWindow(table.Tumble().Over(table.Lit(1).Hours()).On(table.Col(\"date\")).As(\"w\")).\n" +
				"\tGroupBy(table.Col(\"w\"), table.Col(\"origin\")).\n" +
				"\tSelect(\n" +
				"\t\ttable.Col(\"w\").Start().As(\"window_start\"),\n" +
				"\t\ttable.Col(\"w\").End().As(\"window_end\"),\n" +
				"\t\ttable.Col(\"origin\"),\n" +
				"\t\ttable.Col(\"delay\").Avg().As(\"avg_delay\"),\n" +
				"\t)\n"},
		{"filters, group, order, limit", func() *Query {
			q, err := ParseQuery("SELECT origin, COUNT(*) AS cnt, COUNT(DISTINCT destination) AS d FROM default_catalog.default_database.flights WHERE delay > 60 AND origin IN ('ORD', 'ATL') AND destination NOT LIKE 'L%' AND `date` >= TIMESTAMP '2001-01-02 00:00:00' AND distance BETWEEN .5 AND 1e3 AND state IS NULL GROUP BY origin ORDER BY cnt DESC LIMIT 3")
			if err != nil {
				panic(err)
			}
			return q
		}, true,
			"result := env.FromPath(\"default_catalog.default_database.flights\").\n" +
				"\tWhere(table.Col(\"delay\").GreaterThan(table.Lit(60))).\n" +
				"\tWhere(table.Col(\"origin\").In(table.Lit(\"ORD\"), table.Lit(\"ATL\"))).\n" +
				"\tWhere(table.Col(\"destination\").Like(table.Lit(\"L%\")).Not()).\n" +
				"\tWhere(table.Col(\"date\").GreaterThanOrEqual(table.Lit(\"2001-01-02 00:00:00\").ToTimestamp())).\n" +
				"\tWhere(table.Col(\"distance\").Between(table.Lit(0.5), table.Lit(1e3))).\n" +
				"\tWhere(table.Col(\"state\").IsNull()).\n" +
				"\tGroupBy(table.Col(\"origin\")).\n" +
				"\tSelect(\n" +
				"\t\ttable.Col(\"origin\"),\n" +
				"\t\ttable.Lit(1).Count().As(\"cnt\"),\n" +
				"\t\ttable.Col(\"destination\").Count().Distinct().As(\"d\"),\n" +
				"\t).\n" +
				"\tOrderBy(table.Col(\"cnt\").Desc()).\n" +
				"\tLimit(3)\n"},
		{"join", func() *Query {
			q, _ := ParseQuery("SELECT f.origin, a.state FROM flights AS f LEFT JOIN airports AS a ON f.origin = a.iata")
			return q
		}, true,
			"result := env.FromPath(\"flights\").\n" +
				"\tLeftOuterJoin(env.FromPath(\"airports\"), table.Col(\"origin\").IsEqual(table.Col(\"iata\"))).\n" +
				"\tSelect(\n\t\ttable.Col(\"origin\"),\n\t\ttable.Col(\"state\"),\n\t)\n"},
		{"hop and session windows", func() *Query {
			q, _ := ParseQuery("SELECT window_start, window_end, origin, COUNT(*) AS cnt FROM TABLE(SESSION(TABLE flights PARTITION BY origin, DESCRIPTOR(`date`), INTERVAL '30' MINUTE)) GROUP BY window_start, window_end, origin")
			return q
		}, true,
			"result := env.FromPath(\"flights\").\n" +
				"\tWindow(table.Session().WithGap(table.Lit(30).Minutes()).On(table.Col(\"date\")).As(\"w\")).\n" +
				"\tGroupBy(table.Col(\"w\"), table.Col(\"origin\")).\n" +
				"\tSelect(\n" +
				"\t\ttable.Col(\"w\").Start().As(\"window_start\"),\n" +
				"\t\ttable.Col(\"w\").End().As(\"window_end\"),\n" +
				"\t\ttable.Col(\"origin\"),\n" +
				"\t\ttable.Lit(1).Count().As(\"cnt\"),\n" +
				"\t)\n"},
		{"cumulate falls back to SQL", func() *Query {
			q, _ := ParseQuery("SELECT window_start, window_end, COUNT(*) AS cnt FROM TABLE(CUMULATE(TABLE flights, DESCRIPTOR(`date`), INTERVAL '1' HOUR, INTERVAL '1' DAY)) GROUP BY window_start, window_end")
			return q
		}, false,
			"// The Table API has no form for CUMULATE windows: the query runs as SQL.\n" +
				"result, err := env.SQLQuery(\"SELECT\\n  window_start,\\n  window_end,\\n  COUNT(*) AS cnt\\nFROM TABLE(CUMULATE(TABLE flights, DESCRIPTOR(`date`), INTERVAL '1' HOUR, INTERVAL '1' DAY))\\nGROUP BY window_start, window_end\")\n"},
		{"clashing join columns fall back to SQL", func() *Query {
			q, _ := ParseQuery("SELECT f.origin FROM flights AS f JOIN flights2 AS g ON f.origin = g.origin")
			return q
		}, false,
			"// The Table API has no form for column origin taken from two joined tables: the query runs as SQL.\n" +
				"result, err := env.SQLQuery(`SELECT f.origin\nFROM flights AS f\nJOIN flights2 AS g\n  ON f.origin = g.origin`)\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, native, err := c.q().Go()
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want || native != c.native {
				t.Fatalf("got (native %v)\n%s\nwant (native %v)\n%s", native, got, c.native, c.want)
			}
			parseGo(t, got)
		})
	}
}
