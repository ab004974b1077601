package ui

import (
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/workbench/authoring"
)

// TestGridFilterKeepsTheUsersText: a grid filter edits the user's query
// in place (issue 21): the text around the condition stays as written,
// line breaks and alignment included; a query that has to be wrapped
// keeps its text inside the parentheses.
func TestGridFilterKeepsTheUsersText(t *testing.T) {
	const multi = "SELECT a.state,\n" +
		"       COUNT(*)   AS departures\n" +
		"FROM flights AS f\n" +
		"JOIN airports AS a ON f.origin = a.iata\n" +
		"GROUP BY a.state\n" +
		"ORDER BY departures DESC\n" +
		"LIMIT 20"
	str, big := types.StringType(), types.BigIntType()
	for _, c := range []struct {
		name, query, column string
		op                  authoring.Op
		value               any
		typ                 *types.DataType
		want                string
	}{
		{"multi-line: a new WHERE on its own line", multi, "state", authoring.OpEq, "FL", str,
			"SELECT a.state,\n       COUNT(*)   AS departures\nFROM flights AS f\nJOIN airports AS a ON f.origin = a.iata\n" +
				"WHERE a.state = 'FL'\nGROUP BY a.state\nORDER BY departures DESC\nLIMIT 20"},
		{"multi-line: an aggregate goes into a new HAVING", multi, "departures", authoring.OpGt, int64(100), big,
			"SELECT a.state,\n       COUNT(*)   AS departures\nFROM flights AS f\nJOIN airports AS a ON f.origin = a.iata\n" +
				"GROUP BY a.state\nHAVING COUNT(*) > 100\nORDER BY departures DESC\nLIMIT 20"},
		{"indented clauses keep their indentation", "SELECT origin\n  FROM flights\n  LIMIT 5", "origin", authoring.OpNe, "SFO", str,
			"SELECT origin\n  FROM flights\n  WHERE origin <> 'SFO'\n  LIMIT 5"},
		{"one line: the WHERE is added in place", "select origin, delay from flights order by delay desc", "origin", authoring.OpEq, "SFO", str,
			"select origin, delay from flights WHERE origin = 'SFO' order by delay desc"},
		{"an existing condition is kept as written", "SELECT origin\nFROM flights\nWHERE delay>300  -- late\nLIMIT 5", "origin", authoring.OpEq, "SFO", str,
			"SELECT origin\nFROM flights\nWHERE delay>300 AND origin = 'SFO'  -- late\nLIMIT 5"},
		{"an OR condition is parenthesised", "SELECT origin FROM flights WHERE delay > 300 or delay < 0", "origin", authoring.OpEq, "SFO", str,
			"SELECT origin FROM flights WHERE (delay > 300 or delay < 0) AND origin = 'SFO'"},
		{"a filter of the same kind is replaced", "SELECT origin, delay\nFROM flights\nWHERE delay > 300", "delay", authoring.OpGt, int64(10), big,
			"SELECT origin, delay\nFROM flights\nWHERE delay > 10"},
		{"a UNION is wrapped around the user's text", "SELECT origin FROM flights\nUNION ALL\nSELECT iata FROM airports", "origin", authoring.OpEq, "SFO", str,
			"SELECT * FROM (\nSELECT origin FROM flights\nUNION ALL\nSELECT iata FROM airports\n) WHERE origin = 'SFO'"},
		{"a one-line UNION stays on one line", "SELECT origin FROM flights UNION ALL SELECT iata FROM airports", "origin", authoring.OpEq, "SFO", str,
			"SELECT * FROM (SELECT origin FROM flights UNION ALL SELECT iata FROM airports) WHERE origin = 'SFO'"},
	} {
		out, err := authoring.FilterByValue(c.query, c.column, c.op, c.value, c.typ)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if got := keepShape(c.query, out); got != c.want {
			t.Errorf("%s:\n%s\nwant\n%s", c.name, got, c.want)
		}
	}
	// Sort: the ORDER BY list is rewritten in place, or added before LIMIT
	for _, c := range []struct{ query, column, want string }{
		{multi, "state", "SELECT a.state,\n       COUNT(*)   AS departures\nFROM flights AS f\nJOIN airports AS a ON f.origin = a.iata\n" +
			"GROUP BY a.state\nORDER BY state, departures DESC\nLIMIT 20"},
		{"SELECT origin\nFROM flights\nLIMIT 5", "origin", "SELECT origin\nFROM flights\nORDER BY origin\nLIMIT 5"},
		{"select origin from flights limit 5", "origin", "select origin from flights ORDER BY origin limit 5"},
	} {
		out, err := authoring.SortBy(c.query, c.column, false)
		if err != nil {
			t.Fatal(err)
		}
		if got := keepShape(c.query, out); got != c.want {
			t.Errorf("sort %q by %s:\n%s\nwant\n%s", c.query, c.column, got, c.want)
		}
	}
	// other grid actions: a one-line query stays on one line
	out, err := authoring.GroupByColumn("SELECT origin, delay FROM flights", "origin")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := keepShape("SELECT origin, delay FROM flights", out), "SELECT origin, COUNT(*) AS cnt FROM flights GROUP BY origin"; got != want {
		t.Errorf("group by: %q, want %q", got, want)
	}
}
