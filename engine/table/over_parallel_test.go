package table

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Batch OVER queries at parallelism 2 and 3 (their hash exchanges
// balanced by key groups: runtime.Edge.KeyGroups) give the rows of
// parallelism 1, over a FromArrow table of several records whose
// partition keys are uneven (one key holds a third of the rows, NULL keys
// included): ROW_NUMBER on a unique order, RANK and DENSE_RANK on ties,
// framed aggregates, two partition keys, two OVER groups with different
// partition keys, a global OVER (one instance), and columns of every
// kind the exchange gathers (NULL INTs, BOOLEAN, DECIMAL).
func TestBatchOverParallelAnswers(t *testing.T) {
	var vals []string
	for i := 0; i < 300; i++ {
		k := fmt.Sprintf("'k%d'", i%17)
		switch {
		case i%3 == 0:
			k = "'big'"
		case i%29 == 0:
			k = "CAST(NULL AS STRING)"
		}
		y := fmt.Sprint(i % 13)
		if i%7 == 0 {
			y = "CAST(NULL AS INT)"
		}
		vals = append(vals, fmt.Sprintf("(%s, %d, %d, 'w%d', %s, %v, CAST(%d.5 AS DECIMAL(10, 2)))", k, i, (i*7)%11, i%4, y, i%5 == 0, i))
	}
	recs := valuesRecords(t, vals, "k, seq, x, w, y, b, d", 16)
	run := func(par, query string) []string {
		env := MustCreate(InBatchMode())
		env.Config().Set("parallelism.default", par)
		tbl, err := env.FromArrow(recs, nil)
		if err != nil {
			t.Fatal(err)
		}
		env.CreateTemporaryView("mem", tbl)
		res, err := env.SQLQuery(query)
		if err != nil {
			t.Fatal(err)
		}
		rows := collectStrings(t, res)
		slices.Sort(rows)
		return rows
	}
	for _, query := range []string{
		"SELECT k, seq, ROW_NUMBER() OVER (PARTITION BY k ORDER BY seq DESC) FROM mem",
		"SELECT k, x, RANK() OVER (PARTITION BY k ORDER BY x), DENSE_RANK() OVER (PARTITION BY k ORDER BY x DESC) FROM mem",
		"SELECT k, seq, SUM(x) OVER (PARTITION BY k ORDER BY seq ROWS BETWEEN 2 PRECEDING AND CURRENT ROW), COUNT(*) OVER (PARTITION BY k) FROM mem",
		"SELECT k, w, seq, ROW_NUMBER() OVER (PARTITION BY k, w ORDER BY seq), MAX(x) OVER (PARTITION BY k, w) FROM mem",
		"SELECT k, w, seq, ROW_NUMBER() OVER (PARTITION BY k ORDER BY seq), SUM(x) OVER (PARTITION BY w ORDER BY seq) FROM mem",
		"SELECT seq, ROW_NUMBER() OVER (ORDER BY seq) FROM mem",
		"SELECT k, y, b, d, seq, ROW_NUMBER() OVER (PARTITION BY k ORDER BY seq), SUM(y) OVER (PARTITION BY k ORDER BY seq) FROM mem",
		"SELECT y, b, d, seq, RANK() OVER (PARTITION BY y ORDER BY d DESC) FROM mem",
	} {
		want := run("1", query)
		if len(want) != 300 {
			t.Fatalf("%s: %d rows at parallelism 1, want 300", query, len(want))
		}
		for _, par := range []string{"2", "3"} {
			if got := run(par, query); !slices.Equal(got, want) {
				t.Errorf("%s at parallelism %s: got\n%s\nwant\n%s", query, par, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		}
	}
}
