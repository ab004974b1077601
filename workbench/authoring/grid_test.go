package authoring

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

func TestLiteral(t *testing.T) {
	ts := time.Date(2001, 1, 1, 6, 30, 0, 120_000_000, time.UTC)
	cases := []struct {
		v    any
		t    *types.DataType
		want string
	}{
		{"O'Hare", types.StringType(), "'O''Hare'"},
		{"", types.StringType(), "''"},
		{int32(-80), types.IntType(), "-80"},
		{int64(941745478131617792), types.BigIntType(), "941745478131617792"},
		{int64(math.MinInt64), types.BigIntType(), "-9223372036854775808"},
		{int8(7), types.TinyIntType(), "7"},
		{types.MustDecimal("-12345678901234567890.123456789"), types.DecimalType(38, 9), "-12345678901234567890.123456789"},
		{types.MustDecimal("1.50"), types.DecimalType(3, 2), "1.50"},
		{0.1, types.DoubleType(), "0.1"},
		{1e21, types.DoubleType(), "1E21"},
		{-2.5e-7, types.DoubleType(), "-2.5E-07"},
		{float32(0.1), types.FloatType(), "CAST(0.1 AS FLOAT)"},
		{math.NaN(), types.DoubleType(), "CAST('NaN' AS DOUBLE)"},
		{math.Inf(-1), types.DoubleType(), "CAST('-Infinity' AS DOUBLE)"},
		{true, types.BooleanType(), "TRUE"},
		{types.DateOf(2001, 1, 14), types.DateType(), "DATE '2001-01-14'"},
		{types.TimeOf(12, 30, 5, 0), types.TimeType(0), "TIME '12:30:05'"},
		{ts, types.TimestampType(0), "TIMESTAMP '2001-01-01 06:30:00'"},
		{ts, types.TimestampType(3), "TIMESTAMP '2001-01-01 06:30:00.120'"},
		{ts, types.TimestampLTZType(3), "TO_TIMESTAMP_LTZ(978330600120, 3)"},
		{[]byte{0x0a, 0xff}, types.BytesType(), "X'0AFF'"},
		{types.Months(-14), nil, "INTERVAL - '1-2' YEAR TO MONTH"},
		{90*time.Minute + 5*time.Millisecond, nil, "INTERVAL '0 01:30:00.005' DAY TO SECOND(3)"},
	}
	for _, c := range cases {
		got, err := LiteralSQL(c.v, c.t)
		if err != nil {
			t.Errorf("%v: %v", c.v, err)
			continue
		}
		if got != c.want {
			t.Errorf("%v (%s): got %s, want %s", c.v, c.t, got, c.want)
		}
		if _, err := sql.ParseExpr(got); err != nil {
			t.Errorf("%s does not parse: %v", got, err)
		}
	}
	if _, err := Literal(nil, types.IntType()); err == nil {
		t.Error("NULL literal accepted")
	}
	if _, err := Literal([]any{1}, types.ArrayType(types.IntType())); err == nil || !strings.Contains(err.Error(), "ARRAY<INT>") {
		t.Errorf("array literal: %v", err)
	}
}

func TestGridRewrites(t *testing.T) {
	const flights = "SELECT * FROM flights"
	ts := time.Date(2001, 1, 1, 0, 1, 0, 0, time.UTC)
	cases := []struct {
		name string
		do   func() (string, error)
		want string
	}{
		{"filter = string", func() (string, error) {
			return FilterByValue(flights, "origin", OpEq, "ORD", types.StringType())
		}, "SELECT *\nFROM flights\nWHERE origin = 'ORD'"},
		{"filter = replaces the previous equality", func() (string, error) {
			return FilterByValue("SELECT * FROM flights WHERE origin = 'ORD' AND delay > 5", "origin", OpEq, "ATL", types.StringType())
		}, "SELECT *\nFROM flights\nWHERE delay > 5 AND origin = 'ATL'"},
		{"filter ≠ NULL", func() (string, error) {
			return FilterByValue(flights, "origin", OpNe, nil, types.StringType())
		}, "SELECT *\nFROM flights\nWHERE origin IS NOT NULL"},
		{"filter = NULL replaces IS NOT NULL", func() (string, error) {
			return FilterByValue("SELECT * FROM flights WHERE origin IS NOT NULL", "origin", OpEq, nil, types.StringType())
		}, "SELECT *\nFROM flights\nWHERE origin IS NULL"},
		{"filter > timestamp on a reserved name", func() (string, error) {
			return FilterByValue(flights, "date", OpGt, ts, types.TimestampType(0))
		}, "SELECT *\nFROM flights\nWHERE `date` > TIMESTAMP '2001-01-01 00:01:00'"},
		{"filter < keeps > (a range)", func() (string, error) {
			return FilterByValue("SELECT * FROM flights WHERE delay > 10", "delay", OpLt, int32(60), types.IntType())
		}, "SELECT *\nFROM flights\nWHERE delay > 10 AND delay < 60"},
		{"filter on an alias uses its expression", func() (string, error) {
			return FilterByValue("SELECT origin AS o, delay * 2 AS d2 FROM flights", "d2", OpGt, int32(100), types.IntType())
		}, "SELECT\n  origin AS o,\n  delay * 2 AS d2\nFROM flights\nWHERE delay * 2 > 100"},
		{"filter on an aggregate goes to HAVING", func() (string, error) {
			return FilterByValue("SELECT origin, COUNT(*) AS n FROM flights GROUP BY origin", "n", OpGt, int64(10), types.BigIntType())
		}, "SELECT\n  origin,\n  COUNT(*) AS n\nFROM flights\nGROUP BY origin\nHAVING COUNT(*) > 10"},
		{"filter on a group key goes to WHERE", func() (string, error) {
			return FilterByValue("SELECT origin, COUNT(*) AS n FROM flights GROUP BY origin", "origin", OpNe, "ORD", types.StringType())
		}, "SELECT\n  origin,\n  COUNT(*) AS n\nFROM flights\nWHERE origin <> 'ORD'\nGROUP BY origin"},
		{"filter on a union wraps", func() (string, error) {
			return FilterByValue("SELECT origin FROM flights UNION ALL SELECT destination FROM flights", "origin", OpEq, "ORD", types.StringType())
		}, "SELECT *\nFROM (\n  SELECT origin\n  FROM flights\n  UNION ALL\n  SELECT destination\n  FROM flights\n)\nWHERE origin = 'ORD'"},
		{"filter keeps an OR together", func() (string, error) {
			return FilterByValue("SELECT * FROM flights WHERE delay > 60 OR delay < 0", "origin", OpEq, "ORD", types.StringType())
		}, "SELECT *\nFROM flights\nWHERE (delay > 60 OR delay < 0) AND origin = 'ORD'"},
		{"filter keeps the user's quoting", func() (string, error) {
			return FilterByValue("select `origin`, delay from flights order by delay desc limit 5", "origin", OpEq, "ORD", types.StringType())
		}, "SELECT\n  `origin`,\n  delay\nFROM flights\nWHERE `origin` = 'ORD'\nORDER BY delay DESC\nLIMIT 5"},
		{"group by", func() (string, error) {
			return GroupByColumn("SELECT * FROM flights WHERE delay > 60 ORDER BY `date`", "origin")
		}, "SELECT\n  origin,\n  COUNT(*) AS cnt\nFROM flights\nWHERE delay > 60\nGROUP BY origin"},
		{"group by an aggregate column wraps (a histogram)", func() (string, error) {
			return GroupByColumn("SELECT origin, COUNT(*) AS cnt FROM flights GROUP BY origin", "cnt")
		}, "SELECT\n  cnt,\n  COUNT(*) AS cnt_rows\nFROM (\n  SELECT\n    origin,\n    COUNT(*) AS cnt\n  FROM flights\n  GROUP BY origin\n)\nGROUP BY cnt"},
		{"group by an aliased expression", func() (string, error) {
			return GroupByColumn("SELECT UPPER(origin) AS o FROM flights", "o")
		}, "SELECT\n  UPPER(origin) AS o,\n  COUNT(*) AS cnt\nFROM flights\nGROUP BY UPPER(origin)"},
		{"count distinct", func() (string, error) {
			return CountDistinct("SELECT * FROM flights WHERE delay > 60 ORDER BY delay LIMIT 10", "origin")
		}, "SELECT COUNT(DISTINCT origin) AS count_distinct_origin\nFROM flights\nWHERE delay > 60"},
		{"count distinct of a grouped query wraps", func() (string, error) {
			return CountDistinct("SELECT origin, COUNT(*) AS n FROM flights GROUP BY origin", "n")
		}, "SELECT COUNT(DISTINCT n) AS count_distinct_n\nFROM (\n  SELECT\n    origin,\n    COUNT(*) AS n\n  FROM flights\n  GROUP BY origin\n)"},
		{"sort ascending", func() (string, error) {
			return SortBy(flights, "delay", false)
		}, "SELECT *\nFROM flights\nORDER BY delay"},
		{"sort descending moves the key first", func() (string, error) {
			return SortBy("SELECT * FROM flights ORDER BY origin, delay LIMIT 3", "delay", true)
		}, "SELECT *\nFROM flights\nORDER BY delay DESC, origin\nLIMIT 3"},
		{"sort by an unnamed expression", func() (string, error) {
			return SortBy("SELECT origin, COUNT(*) FROM flights GROUP BY origin", "EXPR$1", true)
		}, "SELECT\n  origin,\n  COUNT(*)\nFROM flights\nGROUP BY origin\nORDER BY COUNT(*) DESC"},
		{"hide a selected column", func() (string, error) {
			return HideColumn("SELECT origin, delay, distance FROM flights", "delay", []string{"origin", "delay", "distance"})
		}, "SELECT\n  origin,\n  distance\nFROM flights"},
		{"hide expands *", func() (string, error) {
			return HideColumn(flights, "distance", []string{"date", "delay", "distance", "origin", "destination"})
		}, "SELECT\n  `date`,\n  delay,\n  origin,\n  destination\nFROM flights"},
		{"hide in a join's t.* wraps", func() (string, error) {
			return HideColumn("SELECT f.*, a.state FROM flights f JOIN airports a ON f.origin = a.iata", "distance", []string{"date", "delay", "distance", "origin", "destination", "state"})
		}, "SELECT\n  `date`,\n  delay,\n  origin,\n  destination,\n  state\nFROM (\n  SELECT\n    f.*,\n    a.state\n  FROM flights AS f\n  JOIN airports AS a\n    ON f.origin = a.iata\n)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.do()
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got\n%s\nwant\n%s", got, c.want)
			}
			if _, err := sql.Parse(got); err != nil {
				t.Fatalf("rewritten query does not parse: %v", err)
			}
		})
	}
}

func TestGridErrors(t *testing.T) {
	if _, err := FilterByValue("SELECT * FROM t", "a", OpGt, nil, types.IntType()); err == nil {
		t.Error("NULL > accepted")
	}
	if _, err := FilterByValue("INSERT INTO s SELECT * FROM t", "a", OpEq, int32(1), types.IntType()); err == nil || !strings.Contains(err.Error(), "not on INSERT") {
		t.Errorf("INSERT: %v", err)
	}
	if _, err := HideColumn("SELECT a FROM t", "a", []string{"a"}); err == nil {
		t.Error("hid the only column")
	}
	if _, err := FilterByValue("SELECT * FROM", "a", OpEq, int32(1), types.IntType()); err == nil {
		t.Error("syntax error not reported")
	}
}

// TestGridActionsRun runs rewritten queries on the flights extract and
// checks the counts against the file (computed independently with awk:
// 73 rows with delay > 60, 88 with origin ORD, 179 origins).
func TestGridActionsRun(t *testing.T) {
	env := batchEnv(t)
	q, err := FilterByValue("SELECT * FROM flights", "delay", OpGt, int32(60), types.IntType())
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, env, q); n != 73 {
		t.Errorf("delay > 60: %d rows, want 73", n)
	}
	q, err = FilterByValue("SELECT * FROM flights", "origin", OpEq, "ORD", types.StringType())
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, env, q); n != 88 {
		t.Errorf("origin = ORD: %d rows, want 88", n)
	}
	q, err = CountDistinct("SELECT * FROM flights", "origin")
	if err != nil {
		t.Fatal(err)
	}
	r, names := rows(t, env, q)
	if len(r) != 1 || r[0].Values[0].(int64) != 179 || names[0] != "count_distinct_origin" {
		t.Errorf("count distinct origin: %v %v, want 179", r, names)
	}
	q, err = GroupByColumn("SELECT * FROM flights WHERE origin = 'ORD'", "destination")
	if err != nil {
		t.Fatal(err)
	}
	q, err = SortBy(q, "cnt", true)
	if err != nil {
		t.Fatal(err)
	}
	r, names = rows(t, env, q+"\nLIMIT 1")
	if len(names) != 2 || names[0] != "destination" || names[1] != "cnt" {
		t.Fatalf("group by columns %v", names)
	}
	var sum int64
	all, _ := rows(t, env, q)
	for _, row := range all {
		sum += row.Values[1].(int64)
	}
	if sum != 88 || r[0].Values[1].(int64) < all[len(all)-1].Values[1].(int64) {
		t.Errorf("group by destination for ORD: sum %d (want 88), first %v", sum, r[0])
	}
	// a filter on a timestamp cell finds the row it came from
	first, _ := rows(t, env, "SELECT * FROM flights LIMIT 1")
	q, err = FilterByValue("SELECT * FROM flights", "date", OpEq, first[0].Values[0], types.TimestampType(0))
	if err != nil {
		t.Fatal(err)
	}
	if n := count(t, env, q); n < 1 {
		t.Errorf("%s found no rows", q)
	}
	// hiding a column leaves the others
	q, err = HideColumn("SELECT * FROM flights", "distance", []string{"date", "delay", "distance", "origin", "destination"})
	if err != nil {
		t.Fatal(err)
	}
	if _, names := rows(t, env, q+"\nLIMIT 1"); strings.Join(names, ",") != "date,delay,origin,destination" {
		t.Errorf("hidden: %v", names)
	}
	// the double value of a cell filters exactly
	q, err = FilterByValue("SELECT * FROM airports", "latitude", OpEq, 41.979595, types.DoubleType())
	if err != nil {
		t.Fatal(err)
	}
	r, _ = rows(t, env, q)
	if len(r) != 1 || r[0].Values[0] != "ORD" {
		t.Errorf("%s: %v", q, r)
	}
}
