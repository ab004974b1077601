package querygen

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

func TestQueriesAreRepeatableAndAddressable(t *testing.T) {
	a := Generate(7, 50)
	b := Generate(7, 50)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("the same seed generated different queries")
	}
	for i, q := range a {
		if one := QueryAt(7, i); !reflect.DeepEqual(one, q) {
			t.Fatalf("QueryAt(7, %d) = %+v, Generate gave %+v", i, one, q)
		}
		if want := "s7-q" + strconv.Itoa(i); q.ID != want {
			t.Fatalf("query %d has id %q, want %q", i, q.ID, want)
		}
	}
	c := Generate(8, 50)
	same := 0
	for i := range a {
		if a[i].SQL == c[i].SQL {
			same++
		}
	}
	if same > 5 {
		t.Fatalf("seeds 7 and 8 share %d of 50 queries", same)
	}
}

func TestQueriesParseAndCoverTheGrammar(t *testing.T) {
	kinds := map[string]int{}
	modes := map[Mode]int{}
	for _, q := range Generate(1, 600) {
		if _, err := sql.Parse(q.SQL); err != nil {
			t.Fatalf("%s does not parse: %v\n%s", q.ID, err, q.SQL)
		}
		kinds[q.Kind]++
		modes[q.Mode]++
		if q.Kind == "topn" && q.Mode == Streaming && strings.Contains(q.SQL, "rn <= 1") {
			t.Fatalf("%s: streaming Top-1 (FLINK-40368)\n%s", q.ID, q.SQL)
		}
		if strings.Contains(q.SQL, "SUM0(") {
			t.Fatalf("%s: SUM0 is no Flink SQL function\n%s", q.ID, q.SQL)
		}
		if q.Mode == Batch && strings.Contains(q.SQL, "RANGE BETWEEN INTERVAL") {
			t.Fatalf("%s: batch RANGE interval OVER (FLINK-25802)\n%s", q.ID, q.SQL)
		}
		if (q.Kind == "orderby" || q.Kind == "rankfn") && q.Mode != Batch || q.Kind == "orderby" && !q.Ordered {
			t.Fatalf("%s: ORDER BY query in %s mode, ordered=%v", q.ID, q.Mode, q.Ordered)
		}
	}
	for _, k := range []string{"project", "join", "agg", "joinagg", "window", "topn", "dedup", "setop", "orderby",
		"subquery", "over", "groupingsets", "distinct", "windowtopn", "intervaljoin", "aggunion",
		"windowjoin", "windowdedup", "nestedagg", "rankfn", "limit", "aggjoin"} {
		if kinds[k] < 8 {
			t.Errorf("kind %s generated %d times in 600", k, kinds[k])
		}
	}
	if modes[Batch] < 200 || modes[Streaming] < 200 {
		t.Errorf("modes = %v", modes)
	}
	text := ""
	for _, q := range Generate(1, 600) {
		text += q.SQL + "\n"
	}
	for _, w := range []string{"CASE WHEN", "COALESCE(", "CAST(", "UPPER(", "IS NULL", "= CAST(NULL", "LEFT JOIN", "FULL JOIN",
		"COUNT(DISTINCT", "AVG(", "HAVING", "TUMBLE(", "HOP(", "CUMULATE(", "ROW_NUMBER()", "UNION ALL", "INTERSECT", "EXCEPT", "LIMIT"} {
		if !strings.Contains(text, w) {
			t.Errorf("no generated query contains %q", w)
		}
	}
}

func TestTablesHaveNullsDuplicatesAndOrderedTime(t *testing.T) {
	tables := Tables(3)
	if !reflect.DeepEqual(tables, Tables(3)) {
		t.Fatal("Tables is not repeatable")
	}
	for _, tb := range tables {
		nulls := make([]int, len(Columns))
		seen := map[string]int{}
		var maxTS time.Time
		for _, r := range tb.Rows {
			for i, v := range r {
				if v == nil {
					nulls[i]++
				}
			}
			seen[FormatRow(r)]++
			ts := r[len(r)-1].(time.Time)
			if ts.Before(maxTS.Add(-WatermarkDelay)) {
				t.Errorf("%s: row at %v is late after %v", tb.Name, ts, maxTS)
			}
			if ts.After(maxTS) {
				maxTS = ts
			}
		}
		for i, c := range Columns {
			if c.Name == "ts" {
				if nulls[i] != 0 {
					t.Errorf("%s.ts has NULLs", tb.Name)
				}
			} else if nulls[i] == 0 && c.Name != "id" {
				t.Errorf("%s.%s has no NULL", tb.Name, c.Name)
			}
		}
		dups := 0
		for _, n := range seen {
			if n > 1 {
				dups++
			}
		}
		if dups == 0 {
			t.Errorf("%s has no duplicate row", tb.Name)
		}
	}
}

func TestWriteCSVAndDDL(t *testing.T) {
	dir := t.TempDir()
	tables := Tables(3)
	paths, err := WriteCSV(dir, tables)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(paths["t1"], "data.csv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(tables[0].Rows) {
		t.Fatalf("%d records, want %d", len(recs), len(tables[0].Rows))
	}
	for i, rec := range recs {
		for j, v := range tables[0].Rows[i] {
			if v == nil && rec[j] != NullLiteral {
				t.Fatalf("row %d column %s: NULL written as %q", i, Columns[j].Name, rec[j])
			}
		}
		if _, err := time.Parse("2006-01-02 15:04:05.000", rec[8]); err != nil {
			t.Fatalf("row %d: ts %q: %v", i, rec[8], err)
		}
		if rec[7] != NullLiteral {
			if _, err := time.Parse("2006-01-02", rec[7]); err != nil {
				t.Fatalf("row %d: dt %q: %v", i, rec[7], err)
			}
		}
	}
	ddl := DDL("t1", paths["t1"])
	st, err := sql.Parse(ddl)
	if err != nil {
		t.Fatalf("DDL does not parse: %v\n%s", err, ddl)
	}
	_ = st
	for _, w := range []string{"'connector' = 'filesystem'", "'format' = 'csv'", "WATERMARK FOR ts", "DECIMAL(10, 2)", "file://" + paths["t1"]} {
		if !strings.Contains(ddl, w) {
			t.Errorf("DDL lacks %q:\n%s", w, ddl)
		}
	}
}

func TestChangelogAndCompare(t *testing.T) {
	var c Changelog
	c.Add(types.Insert, []any{"a", int64(1)})
	c.Add(types.UpdateBefore, []any{"a", int64(1)})
	c.Add(types.UpdateAfter, []any{"a", int64(2)})
	c.Add(types.Insert, []any{"b", nil})
	c.Add(types.Insert, []any{"b", nil})
	c.Add(types.Delete, []any{"b", nil})
	c.Add(types.Delete, []any{"zz", nil})
	if c.Unmatched != 1 {
		t.Errorf("Unmatched = %d, want 1", c.Unmatched)
	}
	want := [][]any{{"a", int64(2)}, {"b", nil}}
	if d := Compare(c.Rows(), want, true); d != "" {
		t.Errorf("final rows: %s", d)
	}

	dec := types.MustDecimal("1.50")
	a := [][]any{{1.0 / 3, dec, int32(4)}, {nil, dec, int32(4)}, {nil, dec, int32(4)}}
	b := [][]any{{nil, dec, int64(4)}, {0.3333333333333333 + 1e-17, dec, int64(4)}, {nil, dec, int64(4)}}
	if d := Compare(a, b, false); d != "" {
		t.Errorf("equal multisets differ: %s", d)
	}
	if d := Compare(a, b, true); d == "" {
		t.Error("different orders agree under ordered comparison")
	}
	if d := Compare(a, b[:2], false); !strings.Contains(d, "3 rows vs 2 rows") {
		t.Errorf("missing duplicate: %q", d)
	}
	if d := Compare([][]any{{1.0}}, [][]any{{1.001}}, false); d == "" {
		t.Error("1.0 and 1.001 agree")
	}
	if d := Compare([][]any{{types.MustDecimal("1.5")}}, [][]any{{types.MustDecimal("1.50")}}, false); d == "" {
		t.Error("DECIMAL 1.5 and 1.50 (different scales) agree")
	}
	if d := Compare([][]any{{"1"}}, [][]any{{int32(1)}}, false); d == "" {
		t.Error("'1' and 1 agree")
	}
	if ValuesEqual(nil, int32(0)) || !ValuesEqual(nil, nil) {
		t.Error("NULL handling")
	}
}

func TestKnownExplainsOnlyListedCases(t *testing.T) {
	over := Query{Kind: "over", Mode: Batch}
	flinkErr := "There are not enough rules to produce a node with desired properties: convention=LOGICAL ...\nMissing conversion is LogicalWindow[convention: NONE -> LOGICAL]"
	if Known(over, flinkErr, "", "") == "" {
		t.Error("the empty-VALUES OVER planning failure is not explained")
	}
	if Known(over, flinkErr, "some error", "") != "" {
		t.Error("a failure of both engines is explained as Flink's alone")
	}
	cce := "class org.apache.calcite.rex.RexCall cannot be cast to class org.apache.calcite.rex.RexLiteral (org.apache...)"
	if Known(Query{Kind: "agg", Mode: Streaming}, cce, "", "") == "" {
		t.Error("Flink's planner ClassCastException is not explained")
	}
	hop := "This function does not support retraction, Please choose SumWithRetractAggFunction."
	if Known(Query{Kind: "window", Mode: Streaming}, hop, "", "") == "" {
		t.Error("Flink's HOP SUM(DISTINCT) failure is not explained")
	}
	if Known(Query{Kind: "window", Mode: Batch}, hop, "", "") != "" {
		t.Error("Flink's HOP SUM(DISTINCT) failure is explained in batch mode")
	}
	if Known(Query{Kind: "setop", Mode: Batch}, `Cannot invoke "org.apache.calcite.util.TimestampString.toString()" because "timestampString" is null`, "", "") == "" {
		t.Error("Flink's TimestampString NullPointerException is not explained")
	}
	if Known(Query{Kind: "windowdedup", Mode: Streaming}, "Over Agg: The window rank function requires order by clause with non-constant fields.", "", "") == "" {
		t.Error("Flink's constant window dedup ordering is not explained")
	}
	if Known(Query{Kind: "agg"}, "", "", "1 rows vs 2 rows") != "" {
		t.Error("an arbitrary difference is explained")
	}
}

func TestFoldFinalSigma(t *testing.T) {
	flink := [][]any{{"σοφοσ-b", int32(1)}}
	riffle := [][]any{{"σοφος-b", int32(1)}}
	if Compare(flink, riffle, false) == "" {
		t.Fatal("ς and σ compare equal")
	}
	if d := Compare(FoldFinalSigma(flink), FoldFinalSigma(riffle), false); d != "" {
		t.Errorf("after folding: %s", d)
	}
	if d := Compare(FoldFinalSigma([][]any{{"σοφοσ"}}), FoldFinalSigma([][]any{{"σοφοx"}}), false); d == "" {
		t.Error("folding hides other differences")
	}
}
