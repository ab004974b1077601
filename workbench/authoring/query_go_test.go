package authoring

import (
	"bufio"
	"fmt"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/table"
)

func TestCopyAsGo(t *testing.T) {
	cases := []struct {
		name   string
		q      func() *Query
		native bool
		want   string
	}{
		{"windowed aggregate", flightsHourly, true, `// Query builds the query with Riffle's Table API
// (import "github.com/riffle-sql/riffle/engine/table").
func Query(env *table.TableEnvironment) (*table.Table, error) {
	flights, err := env.FromPath("flights")
	if err != nil {
		return nil, err
	}
	result := flights.
		Window(table.TumbleOver(table.Lit(1).Hours()).On(table.Col("date")).Alias("w")).
		GroupBy(table.Col("w"), table.Col("origin")).
		Select(
			table.Col("w").Start().As("window_start"),
			table.Col("w").End().As("window_end"),
			table.Col("origin"),
			table.Col("delay").Avg().As("avg_delay"),
		)
	return result, result.Err()
}
`},
		{"join", func() *Query {
			q, _ := ParseQuery("SELECT f.origin, a.state FROM flights AS f LEFT JOIN airports AS a ON f.origin = a.iata WHERE f.delay > 60")
			return q
		}, true, `// Query builds the query with Riffle's Table API
// (import "github.com/riffle-sql/riffle/engine/table").
func Query(env *table.TableEnvironment) (*table.Table, error) {
	f, err := env.FromPath("flights")
	if err != nil {
		return nil, err
	}
	a, err := env.FromPath("airports")
	if err != nil {
		return nil, err
	}
	result := f.Select(table.Col("origin"), table.Col("delay")).
		LeftOuterJoin(a.Select(table.Col("state"), table.Col("iata")), table.Col("origin").IsEqual(table.Col("iata"))).
		Where(table.Col("delay").IsGreater(table.Lit(60))).
		Select(
			table.Col("origin"),
			table.Col("state"),
		)
	return result, result.Err()
}
`},
		{"cumulate falls back to SQL", func() *Query {
			q, _ := ParseQuery("SELECT window_start, window_end, COUNT(*) AS cnt FROM TABLE(CUMULATE(TABLE flights, DESCRIPTOR(`date`), INTERVAL '1' HOUR, INTERVAL '1' DAY)) GROUP BY window_start, window_end")
			return q
		}, false, `// Query builds the query with Riffle's Table API
// (import "github.com/riffle-sql/riffle/engine/table").
func Query(env *table.TableEnvironment) (*table.Table, error) {
	// The Table API has no form for CUMULATE windows: the query runs as SQL.
	return env.SQLQuery("SELECT\n  window_start,\n  window_end,\n  COUNT(*) AS cnt\nFROM TABLE(CUMULATE(TABLE flights, DESCRIPTOR(` + "`date`" + `), INTERVAL '1' HOUR, INTERVAL '1' DAY))\nGROUP BY window_start, window_end")
}
`},
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
		})
	}
}

// goCase is a query whose "Copy as Go" code is compiled and run.
type goCase struct {
	sql    string // the builder's query (ParseQuery)
	native bool
	// window queries run only as Go: main's SQL has no window TVFs yet.
	window bool
}

var goCases = []goCase{
	{sql: "SELECT * FROM flights", native: true},
	{sql: "SELECT origin, destination, delay FROM flights WHERE delay > 60 AND origin IN ('ORD', 'ATL') AND destination NOT LIKE 'L%' ORDER BY delay DESC, origin LIMIT 7", native: true},
	{sql: "SELECT origin, COUNT(*) AS cnt, COUNT(DISTINCT destination) AS d, AVG(delay) AS avg_delay, MIN(distance) AS mn, MAX(distance) AS mx, SUM(distance) AS s FROM default_catalog.default_database.flights WHERE `date` >= TIMESTAMP '2001-01-01 06:00:00' AND distance BETWEEN .5 AND 1e3 AND destination IS NOT NULL GROUP BY origin ORDER BY cnt DESC LIMIT 3", native: true},
	{sql: "SELECT origin, destination FROM flights WHERE delay NOT BETWEEN -10 AND 10 AND origin NOT IN ('ORD') AND destination LIKE 'S%' AND delay <> 0 AND delay <= 300 AND delay >= -300 AND delay < 301 AND origin <> 'SFO' AND destination IS NOT NULL", native: true},
	{sql: "SELECT f.origin, a.state, a.city FROM flights AS f LEFT JOIN airports AS a ON f.origin = a.iata WHERE f.delay > 60 ORDER BY state LIMIT 20", native: true},
	{sql: "SELECT a.state, COUNT(*) AS cnt FROM flights AS f JOIN airports AS a ON f.origin = a.iata GROUP BY a.state ORDER BY cnt DESC LIMIT 5", native: true},
	{sql: "SELECT f.destination, a.name FROM flights AS f FULL JOIN airports AS a ON f.destination = a.iata WHERE a.state = 'HI'", native: true},
	{sql: "SELECT window_start, window_end, origin, AVG(delay) AS avg_delay FROM TABLE(TUMBLE(TABLE flights, DESCRIPTOR(`date`), INTERVAL '1' HOUR)) GROUP BY window_start, window_end, origin", native: true, window: true},
	{sql: "SELECT window_start, window_end, COUNT(*) AS cnt FROM TABLE(HOP(TABLE flights, DESCRIPTOR(`date`), INTERVAL '30' MINUTE, INTERVAL '2' HOUR)) WHERE delay > 0 GROUP BY window_start, window_end ORDER BY window_start", native: true, window: true},
	{sql: "SELECT window_start, window_end, origin, MAX(delay) AS max_delay FROM TABLE(SESSION(TABLE flights PARTITION BY origin, DESCRIPTOR(`date`), INTERVAL '30' MINUTE)) GROUP BY window_start, window_end, origin", native: true, window: true},
	// fallbacks to SQL
	{sql: "SELECT * FROM flights AS f JOIN airports AS a ON f.origin = a.iata LIMIT 5"},
	{sql: "SELECT origin FROM flights ORDER BY delay LIMIT 5"},
	{sql: "SELECT f.origin FROM flights AS f JOIN flights AS g ON f.origin = g.origin LIMIT 5"},
	{sql: "SELECT window_start, window_end, COUNT(*) AS cnt FROM TABLE(CUMULATE(TABLE flights, DESCRIPTOR(`date`), INTERVAL '1' HOUR, INTERVAL '1' DAY)) GROUP BY window_start, window_end", window: true},
}

// TestCopyAsGoCompilesAndRuns writes the generated code of each case into
// a temporary main package inside the module, vets it, runs it against the
// flights extract and compares its rows with the query's SQL.
func TestCopyAsGoCompilesAndRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	goTool, err := osexec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	var src strings.Builder
	src.WriteString("package main\n\nimport (\n\t\"fmt\"\n\t\"os\"\n\n\t_ \"github.com/riffle-sql/riffle/engine/connector/all\"\n\t\"github.com/riffle-sql/riffle/engine/table\"\n)\n\n")
	for i, c := range goCases {
		q, err := ParseQuery(c.sql)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		code, native, err := q.Go()
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if native != c.native {
			t.Errorf("case %d %q: native %v, want %v:\n%s", i, c.sql, native, c.native, code)
		}
		if !strings.Contains(code, "func "+GoFunc+"(env *table.TableEnvironment) (*table.Table, error) {") {
			t.Fatalf("case %d: no function:\n%s", i, code)
		}
		src.WriteString(strings.Replace(code, "func "+GoFunc+"(", fmt.Sprintf("func %s%d(", GoFunc, i), 1) + "\n")
	}
	abs := func(name string) string {
		p, err := filepath.Abs(filepath.Join(connectorData, name))
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	ddl := []string{
		"CREATE TABLE flights (`date` TIMESTAMP(0), delay INT, distance INT, origin STRING, destination STRING) WITH (" +
			"'connector' = 'filesystem', 'path' = '" + abs("flights-head2000.csv") + "', 'format' = 'csv', 'csv.ignore-first-line' = 'true')",
		"CREATE TABLE airports (iata STRING, name STRING, city STRING, state STRING, country STRING, latitude DOUBLE, longitude DOUBLE) WITH (" +
			"'connector' = 'filesystem', 'path' = '" + abs("airports.csv") + "', 'format' = 'csv', 'csv.ignore-first-line' = 'true')",
	}
	// both the program and the SQL below at parallelism 1: a LIMIT
	// without ORDER BY keeps the first rows one task gives
	src.WriteString("func main() {\n\tenv := table.MustCreate(table.InBatchMode())\n\tenv.Config().Set(\"parallelism.default\", \"1\")\n")
	for _, d := range ddl {
		fmt.Fprintf(&src, "\tif _, err := env.ExecuteSQL(%q); err != nil {\n\t\tpanic(err)\n\t}\n", d)
	}
	src.WriteString("\tqueries := []func(*table.TableEnvironment) (*table.Table, error){")
	for i := range goCases {
		fmt.Fprintf(&src, "%s%d, ", GoFunc, i)
	}
	src.WriteString(`}
	for i, q := range queries {
		t, err := q(env)
		if err != nil {
			fmt.Printf("%d\tERROR %v\n", i, err)
			continue
		}
		res, err := t.Execute()
		if err != nil {
			fmt.Printf("%d\tERROR %v\n", i, err)
			continue
		}
		it, err := res.Collect()
		if err != nil {
			fmt.Printf("%d\tERROR %v\n", i, err)
			continue
		}
		for it.Next() {
			fmt.Printf("%d\t%v\n", i, it.Row().Values)
		}
		if err := it.Err(); err != nil {
			fmt.Printf("%d\tERROR %v\n", i, err)
		}
		it.Close()
	}
	os.Stdout.Sync()
}
`)
	// A directory starting with "_" is inside the module (so it imports
	// engine/table) but invisible to ./... patterns.
	dir, err := os.MkdirTemp(".", "_gocheck")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(src.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	pkg := "./" + filepath.Base(dir)
	if out, err := osexec.Command(goTool, "vet", pkg).CombinedOutput(); err != nil {
		t.Fatalf("go vet of the generated code: %v\n%s\n%s", err, out, numbered(src.String()))
	}
	out, err := osexec.Command(goTool, "run", pkg).Output()
	if err != nil {
		t.Fatalf("running the generated code: %v\n%s", err, out)
	}
	got := map[int][]string{}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var n int
		num, rest, _ := strings.Cut(sc.Text(), "\t")
		fmt.Sscan(num, &n)
		got[n] = append(got[n], rest)
	}
	env := batchEnv(t)
	env.Config().Set("parallelism.default", "1")
	for i, c := range goCases {
		g := got[i]
		goErr := ""
		if len(g) > 0 && strings.HasPrefix(g[0], "ERROR") {
			goErr = g[0]
		}
		want, sqlErr := sqlRows(env, c.sql)
		if sqlErr != nil && c.window {
			// Window TVFs and group windows come with the streaming work:
			// until then the code must compile, and may fail the same way.
			t.Logf("case %d: the engine cannot run it yet (SQL: %v; Go: %s)", i, sqlErr, goErr)
			continue
		}
		if sqlErr != nil {
			t.Fatalf("case %d %q: %v", i, c.sql, sqlErr)
		}
		if goErr != "" {
			t.Errorf("case %d %q: the Go code fails: %s", i, c.sql, goErr)
			continue
		}
		if !strings.Contains(c.sql, "ORDER BY") {
			slices.Sort(want)
			slices.Sort(g)
		}
		if len(want) == 0 {
			t.Errorf("case %d %q: the SQL returns no rows (a weak test)", i, c.sql)
		}
		if !slices.Equal(g, want) {
			t.Errorf("case %d %q: Go rows differ from SQL rows\n go: %q\nsql: %q", i, c.sql, head(g), head(want))
		}
	}
}

// sqlRows runs a query and formats its rows as the generated program does.
func sqlRows(env *table.TableEnvironment, query string) ([]string, error) {
	res, err := env.ExecuteSQL(query)
	if err != nil {
		return nil, err
	}
	it, err := res.Collect()
	if err != nil {
		return nil, err
	}
	defer it.Close()
	var out []string
	for it.Next() {
		out = append(out, fmt.Sprint(it.Row().Values))
	}
	return out, it.Err()
}

func head(s []string) []string { return s[:min(len(s), 5)] }

func numbered(src string) string {
	lines := strings.Split(src, "\n")
	for i := range lines {
		lines[i] = fmt.Sprintf("%4d %s", i+1, lines[i])
	}
	return strings.Join(lines, "\n")
}
