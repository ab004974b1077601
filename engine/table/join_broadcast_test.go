package table

import (
	"sort"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// joinFixture registers FromArrow views f (probe: origin, distance; two
// records, so that two source splits feed a join at parallelism 2), a
// (build with a duplicate key, a NULL key and an unmatched key) and u (a
// build side whose keys are unique), whose sizes are known, in an
// environment at the given parallelism and broadcast threshold.
func joinFixture(t *testing.T, par, threshold string) *TableEnvironment {
	t.Helper()
	env := MustCreate(InBatchMode())
	for _, s := range []string{
		"SET 'parallelism.default' = '" + par + "'",
		"SET 'table.optimizer.join.broadcast-threshold' = '" + threshold + "'",
	} {
		if _, err := env.ExecuteSQL(s); err != nil {
			t.Fatal(err)
		}
	}
	arrowOf := func(q string) arrow.RecordBatch {
		tbl, err := env.SQLQuery(q)
		if err != nil {
			t.Fatal(err)
		}
		rec, err := tbl.ToArrow()
		if err != nil {
			t.Fatal(err)
		}
		return rec
	}
	view := func(name string, recs ...arrow.RecordBatch) {
		tbl, err := env.FromArrow(recs, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := env.CreateTemporaryView(name, tbl); err != nil {
			t.Fatal(err)
		}
	}
	// the probe rows in two records of three rows, each starting at
	// offset 0 (copied)
	f := arrowOf("SELECT * FROM (VALUES (CAST('A' AS STRING), CAST(10 AS BIGINT)), ('B', 20), ('A', 30), (NULL, 40), ('C', 50), ('D', 60)) AS t(origin, distance)")
	var parts []arrow.RecordBatch
	for off := int64(0); off < f.NumRows(); off += 3 {
		part := f.NewSlice(off, off+3)
		cols := make([]arrow.Array, part.NumCols())
		for i := range cols {
			var err error
			if cols[i], err = array.Concatenate([]arrow.Array{part.Column(i)}, memory.DefaultAllocator); err != nil {
				t.Fatal(err)
			}
		}
		parts = append(parts, array.NewRecordBatch(part.Schema(), cols, part.NumRows()))
	}
	view("f", parts...)
	view("a", arrowOf("SELECT * FROM (VALUES (CAST('A' AS STRING), CAST('s1' AS STRING)), ('B', 's2'), ('B', 's2b'), (NULL, 'sn'), ('E', 's5')) AS t(iata, state)"))
	view("u", arrowOf("SELECT * FROM (VALUES (CAST('A' AS STRING), CAST('s1' AS STRING)), ('B', 's2'), (NULL, 'sn')) AS t(iata, state)"))
	return env
}

// The batch hash join gives the same rows whether its build side is
// broadcast (a small side of known size) or both sides are shuffled by
// key, at parallelism 1 and 2: inner, outer, semi and anti joins, NULL
// keys, duplicate and unique build keys, and a Calc above the join that
// keeps some of its columns.
func TestBatchHashJoinBroadcastSameRows(t *testing.T) {
	cases := []struct{ q, want string }{
		{"SELECT a.state, COUNT(*), SUM(f.distance) FROM f JOIN a ON f.origin = a.iata GROUP BY a.state",
			"s1 2 40 | s2 1 20 | s2b 1 20"},
		{"SELECT u.state, COUNT(*), SUM(f.distance) FROM f JOIN u ON f.origin = u.iata GROUP BY u.state",
			"s1 2 40 | s2 1 20"},
		{"SELECT f.distance, a.state FROM f LEFT JOIN a ON f.origin = a.iata",
			"10 s1 | 20 s2 | 20 s2b | 30 s1 | 40 <nil> | 50 <nil> | 60 <nil>"},
		{"SELECT f.distance, u.state, u.iata FROM f LEFT JOIN u ON f.origin = u.iata",
			"10 s1 A | 20 s2 B | 30 s1 A | 40 <nil> <nil> | 50 <nil> <nil> | 60 <nil> <nil>"},
		{"SELECT f.distance, a.state FROM f RIGHT JOIN a ON f.origin = a.iata",
			"10 s1 | 20 s2 | 20 s2b | 30 s1 | <nil> s5 | <nil> sn"},
		{"SELECT f.distance, a.state FROM f FULL JOIN a ON f.origin = a.iata",
			"10 s1 | 20 s2 | 20 s2b | 30 s1 | 40 <nil> | 50 <nil> | 60 <nil> | <nil> s5 | <nil> sn"},
		{"SELECT distance FROM f WHERE origin IN (SELECT iata FROM a)", "10 | 20 | 30"},
		{"SELECT distance FROM f WHERE NOT EXISTS (SELECT 1 FROM a WHERE a.iata = f.origin)", "40 | 50 | 60"},
		{"SELECT f.distance, a.state FROM f JOIN a ON f.origin = a.iata AND f.distance > 15", "20 s2 | 20 s2b | 30 s1"},
		// a probe side of one split (VALUES) feeding a join at parallelism 2
		{"SELECT v.d, u.state FROM (VALUES (CAST('A' AS STRING), 1), ('B', 2), ('Z', 3), ('A', 4), ('B', 5), ('A', 6), ('C', 7), ('A', 8)) AS v(o, d) JOIN u ON v.o = u.iata",
			"1 s1 | 2 s2 | 4 s1 | 5 s2 | 6 s1 | 8 s1"},
	}
	for _, par := range []string{"1", "2"} {
		for _, threshold := range []string{"1048576", "-1"} {
			env := joinFixture(t, par, threshold)
			for _, c := range cases {
				q, err := env.SQLQuery(c.q)
				if err != nil {
					t.Fatal(err)
				}
				got := collectStrings(t, q)
				sort.Strings(got)
				if g := strings.Join(got, " | "); g != c.want {
					t.Errorf("parallelism %s, threshold %s: %s:\ngot  %s\nwant %s", par, threshold, c.q, g, c.want)
				}
			}
		}
	}
}

// A small right input of known size is broadcast (Flink's
// BroadcastHashJoin: isBroadcast=[true], the build side behind
// Exchange(distribution=[broadcast]), the probe side not shuffled);
// with the threshold at -1 or below the build side's estimated size, or
// for a RIGHT or FULL join, both sides are shuffled by key.
func TestBatchHashJoinBroadcastPlan(t *testing.T) {
	explain := func(env *TableEnvironment, q string) string {
		t.Helper()
		s, err := env.ExplainSQL(q)
		if err != nil {
			t.Fatal(err)
		}
		return s[strings.Index(s, "== Optimized Physical Plan =="):]
	}
	// u (3 rows of two strings) is smaller than f's two columns (6 rows)
	q := "SELECT u.state, SUM(f.distance) FROM f JOIN u ON f.origin = u.iata GROUP BY u.state"
	got := explain(joinFixture(t, "2", "1048576"), q)
	for _, want := range []string{"isBroadcast=[true], build=[right]", "Exchange(distribution=[broadcast])"} {
		if !strings.Contains(got, want) {
			t.Errorf("broadcast plan lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "hash[origin]") || strings.Contains(got, "hash[iata]") {
		t.Errorf("broadcast plan shuffles the probe side:\n%s", got)
	}
	// the threshold is the largest size broadcast: u's estimate is 3 rows
	// × 48 bytes (Flink's binary row: 8 bytes of null bits, 8 per field,
	// 12 per STRING value) = 144 bytes
	if got := explain(joinFixture(t, "2", "144"), q); !strings.Contains(got, "isBroadcast=[true]") {
		t.Errorf("threshold 144: u (144 bytes) is not broadcast:\n%s", got)
	}
	for _, c := range []struct{ threshold, q string }{
		{"-1", q},
		{"143", q},
		{"1048576", "SELECT f.distance, a.state FROM f FULL JOIN a ON f.origin = a.iata"},
		// the preserved side of an outer join is never broadcast: a RIGHT
		// join's unmatched build rows are emitted by one instance
		{"1048576", "SELECT f.distance, u.state FROM f RIGHT JOIN u ON f.origin = u.iata"},
		// the build side is larger than the probe side: Flink would
		// broadcast and build the left side; Riffle shuffles both
		{"1048576", "SELECT a.state FROM (SELECT * FROM f WHERE origin = 'A') g JOIN a ON g.origin = a.iata"},
	} {
		got := explain(joinFixture(t, "2", c.threshold), c.q)
		if strings.Contains(got, "broadcast") || !strings.Contains(got, "Exchange(distribution=[hash[") {
			t.Errorf("threshold %s: %s: want a shuffled hash join:\n%s", c.threshold, c.q, got)
		}
	}
}
