package authoring

import (
	"errors"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/sql"
)

// flightsHourly builds the "done when" query by builder actions only.
func flightsHourly() *Query {
	q := NewQuery("flights")
	q.ToggleColumn(ColumnRef{Name: "origin"})
	q.ToggleColumn(ColumnRef{Name: "delay"})
	q.SetAggregate(1, AggAvg)
	q.SetWindow(&Window{Kind: Tumble, TimeColumn: "date", Size: Interval{1, "HOUR"}})
	return q
}

func TestBuilderWindowedAggregate(t *testing.T) {
	got, err := flightsHourly().SQL()
	if err != nil {
		t.Fatal(err)
	}
	want := "SELECT\n" +
		"  window_start,\n" +
		"  window_end,\n" +
		"  origin,\n" +
		"  AVG(delay) AS avg_delay\n" +
		"FROM TABLE(TUMBLE(TABLE flights, DESCRIPTOR(`date`), INTERVAL '1' HOUR))\n" +
		"GROUP BY window_start, window_end, origin"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if _, err := sql.Parse(got); err != nil {
		t.Fatalf("generated SQL does not parse: %v", err)
	}
}

func TestBuilderActions(t *testing.T) {
	cases := []struct {
		name  string
		build func() *Query
		want  string
	}{
		{"select star", func() *Query { return NewQuery("flights") }, "SELECT *\nFROM flights"},
		{"qualified path and reserved names", func() *Query {
			q := NewQuery("default_catalog", "default_database", "flights")
			q.ToggleColumn(ColumnRef{Name: "date"})
			q.ToggleColumn(ColumnRef{Name: "Cost Total $"})
			return q
		}, "SELECT\n  `date`,\n  `Cost Total $`\nFROM default_catalog.default_database.flights"},
		{"toggle twice removes", func() *Query {
			q := NewQuery("t")
			q.ToggleColumn(ColumnRef{Name: "a"})
			q.ToggleColumn(ColumnRef{Name: "b"})
			q.ToggleColumn(ColumnRef{Name: "a"})
			return q
		}, "SELECT b\nFROM t"},
		{"filters of every kind", func() *Query {
			q := NewQuery("flights")
			q.AddFilter(Filter{Column: ColumnRef{Name: "delay"}, Op: OpGt, Values: []Value{{ValueNumber, "60"}}})
			q.AddFilter(Filter{Column: ColumnRef{Name: "delay"}, Op: OpLe, Values: []Value{{ValueNumber, "-5.5"}}})
			q.AddFilter(Filter{Column: ColumnRef{Name: "origin"}, Op: OpIn, Values: []Value{{ValueString, "ORD"}, {ValueString, "O'Hare"}}})
			q.AddFilter(Filter{Column: ColumnRef{Name: "destination"}, Op: OpNotLike, Values: []Value{{ValueString, "L%"}}})
			q.AddFilter(Filter{Column: ColumnRef{Name: "state"}, Op: OpIsNull})
			q.AddFilter(Filter{Column: ColumnRef{Name: "city"}, Op: OpIsNotNull})
			q.AddFilter(Filter{Column: ColumnRef{Name: "date"}, Op: OpBetween, Values: []Value{{ValueTimestamp, "2001-01-01 00:00:00"}, {ValueTimestamp, "2001-01-02T06:30:00"}}})
			q.AddFilter(Filter{Column: ColumnRef{Name: "day"}, Op: OpNe, Values: []Value{{ValueDate, "2001-1-5"}}})
			q.AddFilter(Filter{Column: ColumnRef{Name: "ok"}, Op: OpEq, Values: []Value{{ValueBool, "TRUE"}}})
			q.AddFilter(Filter{Column: ColumnRef{Name: "at"}, Op: OpLt, Values: []Value{{ValueTime, "12:30:00"}}})
			q.AddFilter(Filter{Column: ColumnRef{Name: "distance"}, Op: OpNotIn, Values: []Value{{ValueNumber, "1e3"}}})
			return q
		}, "SELECT *\nFROM flights\nWHERE delay > 60 AND delay <= -5.5 AND origin IN ('ORD', 'O''Hare') AND destination NOT LIKE 'L%' AND state IS NULL AND city IS NOT NULL AND `date` BETWEEN TIMESTAMP '2001-01-01 00:00:00' AND TIMESTAMP '2001-01-02 06:30:00' AND `day` <> DATE '2001-01-05' AND ok = TRUE AND `at` < TIME '12:30:00' AND distance NOT IN (1e3)"},
		{"group by with every aggregate, order and limit", func() *Query {
			q := NewQuery("flights")
			for _, c := range []string{"origin", "delay", "delay", "distance", "distance", "destination"} {
				q.Items = append(q.Items, Item{Column: ColumnRef{Name: c}})
			}
			q.SetAggregate(1, AggSum)
			q.SetAggregate(2, AggMax)
			q.SetAggregate(3, AggMin)
			q.SetAggregate(4, AggAvg)
			q.SetAggregate(5, AggCountDistinct)
			q.AddCountStar()
			q.SetOrder(ColumnRef{Name: "cnt"}, true, false)
			q.SetOrder(ColumnRef{Name: "origin"}, false, true)
			q.Limit = 10
			return q
		}, "SELECT\n  origin,\n  SUM(delay) AS sum_delay,\n  MAX(delay) AS max_delay,\n  MIN(distance) AS min_distance,\n  AVG(distance) AS avg_distance,\n  COUNT(DISTINCT destination) AS count_distinct_destination,\n  COUNT(*) AS cnt\nFROM flights\nGROUP BY origin\nORDER BY origin, cnt DESC\nLIMIT 10"},
		{"join qualifies columns", func() *Query {
			q := NewQuery("flights")
			q.ToggleColumn(ColumnRef{Name: "origin"})
			q.AddFilter(Filter{Column: ColumnRef{Name: "delay"}, Op: OpGt, Values: []Value{{ValueNumber, "15"}}})
			q.AddJoin(JoinLeft, TableRef{Path: []string{"airports"}}, []JoinKey{{Left: ColumnRef{Table: "f", Name: "origin"}, Right: "iata"}})
			q.ToggleColumn(ColumnRef{Table: "a", Name: "state"})
			return q
		}, "SELECT\n  f.origin,\n  a.state\nFROM flights AS f\nLEFT JOIN airports AS a\n  ON f.origin = a.iata\nWHERE f.delay > 15"},
		{"hop window", func() *Query {
			q := NewQuery("flights")
			q.AddCountStar()
			q.SetWindow(&Window{Kind: Hop, TimeColumn: "date", Size: Interval{1, "HOUR"}, Slide: Interval{15, "MINUTE"}})
			return q
		}, "SELECT\n  window_start,\n  window_end,\n  COUNT(*) AS cnt\nFROM TABLE(HOP(TABLE flights, DESCRIPTOR(`date`), INTERVAL '15' MINUTE, INTERVAL '1' HOUR))\nGROUP BY window_start, window_end"},
		{"cumulate window", func() *Query {
			q := NewQuery("flights")
			q.ToggleColumn(ColumnRef{Name: "delay"})
			q.SetAggregate(0, AggMax)
			q.SetWindow(&Window{Kind: Cumulate, TimeColumn: "date", Size: Interval{1, "DAY"}, Slide: Interval{1, "HOUR"}})
			return q
		}, "SELECT\n  window_start,\n  window_end,\n  MAX(delay) AS max_delay\nFROM TABLE(CUMULATE(TABLE flights, DESCRIPTOR(`date`), INTERVAL '1' HOUR, INTERVAL '1' DAY))\nGROUP BY window_start, window_end"},
		{"session window with partition", func() *Query {
			q := NewQuery("flights")
			q.ToggleColumn(ColumnRef{Name: "origin"})
			q.AddCountStar()
			q.SetWindow(&Window{Kind: Session, TimeColumn: "date", Size: Interval{30, "MINUTE"}, PartitionBy: []string{"origin"}})
			return q
		}, "SELECT\n  window_start,\n  window_end,\n  origin,\n  COUNT(*) AS cnt\nFROM TABLE(SESSION(TABLE flights PARTITION BY origin, DESCRIPTOR(`date`), INTERVAL '30' MINUTE))\nGROUP BY window_start, window_end, origin"},
		{"window removed again", func() *Query {
			q := flightsHourly()
			q.SetWindow(nil)
			return q
		}, "SELECT\n  origin,\n  AVG(delay) AS avg_delay\nFROM flights\nGROUP BY origin"},
		{"aggregate reset to none drops grouping", func() *Query {
			q := NewQuery("t")
			q.ToggleColumn(ColumnRef{Name: "a"})
			q.ToggleColumn(ColumnRef{Name: "b"})
			q.SetAggregate(1, AggSum)
			q.SetAggregate(1, AggNone)
			return q
		}, "SELECT\n  a,\n  b\nFROM t"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.build().SQL()
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got\n%s\nwant\n%s", got, c.want)
			}
			if _, err := sql.Parse(got); err != nil {
				t.Fatalf("generated SQL does not parse: %v", err)
			}
		})
	}
}

func TestBuilderRoundTrip(t *testing.T) {
	var texts []string
	texts = append(texts, mustSQL(t, flightsHourly()))
	for _, s := range []string{
		"SELECT *\nFROM flights",
		"SELECT\n  f.origin,\n  a.state,\n  COUNT(*) AS cnt\nFROM flights AS f\nJOIN airports AS a\n  ON f.origin = a.iata AND f.destination = a.iata\nRIGHT JOIN other AS o\n  ON a.state = o.state\nWHERE f.delay > 60 AND a.state IN ('CA', 'NY')\nGROUP BY f.origin, a.state\nORDER BY cnt DESC\nLIMIT 5",
		"SELECT\n  window_start,\n  window_end,\n  COUNT(*) AS cnt\nFROM TABLE(HOP(TABLE flights, DESCRIPTOR(`date`), INTERVAL '15' MINUTE, INTERVAL '1' HOUR))\nWHERE origin LIKE 'O%' AND `date` >= TIMESTAMP '2001-01-01 00:00:00'\nGROUP BY window_start, window_end",
		"SELECT\n  window_start,\n  window_end,\n  origin,\n  COUNT(*) AS cnt\nFROM TABLE(SESSION(TABLE flights PARTITION BY origin, DESCRIPTOR(`date`), INTERVAL '30' MINUTE))\nGROUP BY window_start, window_end, origin",
		"SELECT\n  origin,\n  MIN(delay) AS min_delay\nFROM flights\nWHERE delay NOT BETWEEN -10 AND 10 AND ok = FALSE AND d = DATE '2001-01-01'\nGROUP BY origin\nORDER BY origin DESC",
	} {
		texts = append(texts, s)
	}
	for _, text := range texts {
		q, err := ParseQuery(text)
		if err != nil {
			t.Fatalf("%s\n: %v", text, err)
		}
		back, err := q.SQL()
		if err != nil {
			t.Fatalf("%s\n: %v", text, err)
		}
		if back != text {
			t.Errorf("round trip changed the SQL:\n%s\n---\n%s", text, back)
		}
	}
}

func mustSQL(t *testing.T, q *Query) string {
	t.Helper()
	s, err := q.SQL()
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParseQueryNormalises(t *testing.T) {
	// Lower-case keywords, a flipped comparison and a trailing ";" read
	// into the same model as the builder's own text.
	q, err := ParseQuery("select origin, avg(delay) as avg_delay from flights where 60 < delay group by origin;")
	if err != nil {
		t.Fatal(err)
	}
	want := "SELECT\n  origin,\n  AVG(delay) AS avg_delay\nFROM flights\nWHERE delay > 60\nGROUP BY origin"
	if got := mustSQL(t, q); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if q.Items[1].Agg != AggAvg || q.Filters[0].Op != OpGt || q.Filters[0].Values[0] != (Value{ValueNumber, "60"}) {
		t.Fatalf("model: %+v", q)
	}
}

func TestParseQueryUnsupported(t *testing.T) {
	cases := []struct{ sql, part string }{
		{"SELECT a FROM t GROUP BY a HAVING COUNT(*) > 1", "the HAVING clause"},
		{"SELECT a FROM t WHERE a = 1 OR b = 2", "OR in WHERE"},
		{"SELECT a + 1 FROM t", "the expression a + 1 in the select list"},
		{"SELECT a FROM t UNION SELECT a FROM u", "UNION"},
		{"WITH x AS (SELECT 1) SELECT * FROM x", "a WITH clause"},
		{"SELECT * FROM (SELECT a FROM t)", "a subquery in FROM"},
		{"SELECT DISTINCT a FROM t", "SELECT DISTINCT"},
		{"SELECT a FROM t WHERE a = b", "the value b in WHERE (only literals)"},
		{"SELECT UPPER(a) FROM t", "the function UPPER"},
		{"SELECT a FROM t CROSS JOIN u", "CROSS JOIN"},
		{"SELECT a FROM t JOIN u ON t.x > u.y", "a join condition other than column = column"},
		{"SELECT a FROM t JOIN u ON x = y", "unqualified columns in a join condition"},
		{"SELECT a FROM t ORDER BY a NULLS FIRST", "NULLS FIRST"},
		{"SELECT a FROM t LIMIT 10 OFFSET 5", "OFFSET"},
		{"INSERT INTO s SELECT * FROM t", "statements other than SELECT"},
		{"SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' HOUR, INTERVAL '5' MINUTE))", "TUMBLE with 4 arguments (a window offset or named arguments)"},
		{"SELECT * FROM TABLE(TUMBLE(TABLE t, DESCRIPTOR(ts), INTERVAL '1' MONTH))", "window sizes in MONTH"},
		{"SELECT a FROM t; SELECT b FROM t", "more than one statement"},
		{"SELECT SUM(DISTINCT a) FROM t", "SUM(DISTINCT ...)"},
		{"SELECT a FROM t WHERE NOT a = 1", "NOT in WHERE"},
	}
	for _, c := range cases {
		_, err := ParseQuery(c.sql)
		var ue *UnsupportedError
		if !errors.As(err, &ue) {
			t.Errorf("%s: got %v, want an UnsupportedError", c.sql, err)
			continue
		}
		if ue.Part != c.part {
			t.Errorf("%s: part %q, want %q", c.sql, ue.Part, c.part)
		}
		if !strings.Contains(ue.Error(), "line 1") {
			t.Errorf("%s: message without position: %s", c.sql, ue.Error())
		}
	}
	if _, err := ParseQuery("SELEC a FROM t"); err == nil {
		t.Error("syntax error not reported")
	} else if _, ok := err.(*sql.Error); !ok {
		t.Errorf("syntax error is %T, want *sql.Error", err)
	}
}

func TestCheckRejects(t *testing.T) {
	cases := []struct {
		q    *Query
		want string
	}{
		{&Query{}, "choose a table"},
		{func() *Query {
			q := NewQuery("t")
			q.Items = []Item{{Column: ColumnRef{Name: "a"}}, {Column: ColumnRef{Name: "b"}, Agg: AggSum}}
			return q
		}(), "column a must be grouped or aggregated"},
		{func() *Query {
			q := NewQuery("t")
			q.SetWindow(&Window{Kind: Hop, TimeColumn: "ts", Size: Interval{1, "HOUR"}, Slide: Interval{7, "MINUTE"}})
			return q
		}(), "HOP window size INTERVAL '1' HOUR must be an integral multiple of the slide INTERVAL '7' MINUTE"},
		{func() *Query {
			q := NewQuery("t")
			q.SetWindow(&Window{Kind: Tumble, Size: Interval{1, "HOUR"}})
			return q
		}(), "choose the time column of the TUMBLE window"},
		{func() *Query {
			q := NewQuery("t")
			q.AddFilter(Filter{Column: ColumnRef{Name: "a"}, Op: OpGt, Values: []Value{{ValueNumber, "12abc"}}})
			return q
		}(), "filter on a: '12abc' is not a number"},
		{func() *Query {
			q := NewQuery("t")
			q.AddFilter(Filter{Column: ColumnRef{Name: "a"}, Op: OpBetween, Values: []Value{{ValueNumber, "1"}}})
			return q
		}(), "filter a BETWEEN needs 2 value(s), has 1"},
		{func() *Query {
			q := NewQuery("t")
			q.AddFilter(Filter{Column: ColumnRef{Name: "d"}, Op: OpEq, Values: []Value{{ValueDate, "2001-02-30"}}})
			return q
		}(), "filter on d: '2001-02-30' is not a date (yyyy-MM-dd)"},
		{func() *Query {
			q := NewQuery("t")
			q.AddJoin(JoinInner, TableRef{Path: []string{"u"}}, nil)
			return q
		}(), "join 1 (u) needs at least one key column pair"},
	}
	for _, c := range cases {
		err := c.q.Check()
		if err == nil || err.Error() != c.want {
			t.Errorf("got %v, want %q", err, c.want)
		}
		if _, err := c.q.SQL(); err == nil {
			t.Errorf("SQL succeeded for an invalid query (%s)", c.want)
		}
	}
}

func TestRemoveJoinDropsReferences(t *testing.T) {
	q, err := ParseQuery("SELECT f.origin, a.state FROM flights AS f JOIN airports AS a ON f.origin = a.iata WHERE a.state = 'CA' ORDER BY a.state")
	if err != nil {
		t.Fatal(err)
	}
	q.RemoveJoin(0)
	if got, want := mustSQL(t, q), "SELECT f.origin\nFROM flights AS f"; got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestCloneIsDeep(t *testing.T) {
	q := flightsHourly()
	q.AddFilter(Filter{Column: ColumnRef{Name: "origin"}, Op: OpIn, Values: []Value{{ValueString, "ORD"}}})
	c := q.Clone()
	c.Filters[0].Values[0].Text = "ATL"
	c.Window.Size.Value = 2
	c.Items[0].Alias = "x"
	if q.Filters[0].Values[0].Text != "ORD" || q.Window.Size.Value != 1 || q.Items[0].Alias != "" {
		t.Fatal("Clone shares memory with the original")
	}
}
