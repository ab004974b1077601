package table

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// arrowParts cuts a record into records of n rows, copied so that their
// arrays start at offset 0 (as a source's batches do).
func arrowParts(t *testing.T, rec arrow.RecordBatch, n int64) []arrow.RecordBatch {
	t.Helper()
	var out []arrow.RecordBatch
	for off := int64(0); off < rec.NumRows(); off += n {
		part := rec.NewSlice(off, min(off+n, rec.NumRows()))
		cols := make([]arrow.Array, part.NumCols())
		for i := range cols {
			c, err := array.Concatenate([]arrow.Array{part.Column(i)}, memory.DefaultAllocator)
			if err != nil {
				t.Fatal(err)
			}
			cols[i] = c
		}
		out = append(out, array.NewRecordBatch(part.Schema(), cols, part.NumRows()))
	}
	return out
}

// A FromArrow table of several records is scanned by parallel instances,
// and batch aggregates over it take two phases at parallelism 2 (AUTO)
// with the answers of one phase at parallelism 1: every aggregate call
// that merges, COUNT(DISTINCT), two keys with NULLs, no keys, and no rows.
func TestTwoPhaseAggregateAnswers(t *testing.T) {
	var vals []string
	for i := 0; i < 40; i++ {
		k := fmt.Sprintf("'k%d'", i%3)
		if i%7 == 0 {
			k = "CAST(NULL AS STRING)"
		}
		d := fmt.Sprintf("%d.25", i)
		if i%5 == 0 {
			d = "CAST(NULL AS DOUBLE)"
		}
		vals = append(vals, fmt.Sprintf("(%s, %d, %s, 'w%d')", k, i%4, d, i%6))
	}
	src := MustCreate(InBatchMode())
	q, err := src.SQLQuery("SELECT * FROM (VALUES " + strings.Join(vals, ", ") + ") AS t(k, x, d, w)")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := q.ToArrow()
	if err != nil {
		t.Fatal(err)
	}
	recs := arrowParts(t, rec, 6)
	run := func(par, strategy, query string) ([]string, string) {
		env := MustCreate(InBatchMode())
		env.Config().Set("parallelism.default", par)
		env.Config().Set("table.optimizer.agg-phase-strategy", strategy)
		tbl, err := env.FromArrow(recs, nil)
		if err != nil {
			t.Fatal(err)
		}
		env.CreateTemporaryView("mem", tbl)
		plan, err := env.ExplainSQL(query)
		if err != nil {
			t.Fatal(err)
		}
		res, err := env.SQLQuery(query)
		if err != nil {
			t.Fatal(err)
		}
		rows := collectStrings(t, res)
		slices.Sort(rows)
		return rows, plan
	}
	for _, c := range []struct {
		q     string
		local int // LocalHashAggregate nodes at parallelism 2
	}{
		{"SELECT k, COUNT(*), COUNT(d), SUM(x), SUM(d), AVG(x), AVG(d), MIN(d), MAX(w), MIN(x) FROM mem GROUP BY k", 1},
		{"SELECT k, COUNT(DISTINCT w) FROM mem GROUP BY k", 2},
		{"SELECT COUNT(DISTINCT w), COUNT(DISTINCT w) FROM mem", 2},
		{"SELECT k, w, COUNT(*), SUM(d) FROM mem GROUP BY k, w", 1},
		{"SELECT COUNT(*), SUM(x), AVG(d), MAX(w) FROM mem", 1},
		{"SELECT COUNT(*), SUM(x), AVG(d), MAX(w) FROM mem WHERE x > 100", 1},
		{"SELECT k, COUNT(*) FILTER (WHERE x > 1), SUM(x) FILTER (WHERE d > 10) FROM mem GROUP BY k", 1},
		{"SELECT k, COUNT(DISTINCT d) FROM mem GROUP BY k", 2},
		{"SELECT k, COUNT(DISTINCT w) FROM mem WHERE x > 100 GROUP BY k", 2},
		{"SELECT COUNT(DISTINCT d) FROM mem WHERE x > 100", 2},
	} {
		// the reference: one phase, DISTINCT by a value set per group
		want, _ := run("1", "ONE_PHASE", c.q)
		one, onePlan := run("1", "AUTO", c.q)
		if strings.Contains(onePlan, "LocalHashAggregate") || !slices.Equal(one, want) {
			t.Errorf("%s at parallelism 1 (AUTO): one phase expected, got\n%s\n%s\nwant\n%s", c.q, onePlan, strings.Join(one, "\n"), strings.Join(want, "\n"))
		}
		// a single COUNT(DISTINCT) takes the distinct pairs first at one
		// task too (distinctFirst): two aggregates, no local phase
		opt := onePlan[strings.Index(onePlan, "== Optimized Execution Plan"):]
		distinct := strings.Contains(c.q, "DISTINCT")
		if n := strings.Count(opt, "HashAggregate"); distinct && n != 2 || !distinct && n != 1 {
			t.Errorf("%s at parallelism 1: %d HashAggregate:\n%s", c.q, n, onePlan)
		}
		got, plan := run("2", "AUTO", c.q)
		if n := strings.Count(plan[strings.Index(plan, "== Optimized Execution Plan"):], "LocalHashAggregate"); n != c.local {
			t.Errorf("%s: %d LocalHashAggregate at parallelism 2, want %d:\n%s", c.q, n, c.local, plan)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s at parallelism 2: got\n%s\nwant\n%s", c.q, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		forced, _ := run("1", "TWO_PHASE", c.q)
		if !slices.Equal(forced, want) {
			t.Errorf("%s with TWO_PHASE at parallelism 1: got\n%s\nwant\n%s", c.q, strings.Join(forced, "\n"), strings.Join(want, "\n"))
		}
		single, singlePlan := run("2", "ONE_PHASE", c.q)
		if strings.Contains(singlePlan, "LocalHashAggregate") || !slices.Equal(single, want) {
			t.Errorf("%s with ONE_PHASE at parallelism 2: got\n%s\nwant\n%s\n%s", c.q, strings.Join(single, "\n"), strings.Join(want, "\n"), singlePlan)
		}
	}
}

// The records of a FromArrow table become up to 64 splits of consecutive
// records with about as many rows each.
func TestFromArrowSplits(t *testing.T) {
	src := MustCreate(InBatchMode())
	q, err := src.SQLQuery("SELECT * FROM (VALUES (1), (2), (3), (4), (5), (6), (7)) AS t(x)")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := q.ToArrow()
	if err != nil {
		t.Fatal(err)
	}
	env := MustCreate(InBatchMode())
	env.Config().Set("parallelism.default", "3")
	tbl, err := env.FromArrow(arrowParts(t, rec, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	env.CreateTemporaryView("mem", tbl)
	ds := lastStream(t, env)
	impl := &streamSourceImpl{s: &streamSource{ds: ds, checkInsert: true}}
	splits, err := impl.Splits(t.Context())
	if err != nil || len(splits) != 7 {
		t.Fatalf("splits %v, %v; want 7", splits, err)
	}
	got := collectStrings(t, mustQuery(t, env, "SELECT SUM(x), COUNT(*) FROM mem"))
	if strings.Join(got, "|") != "28 7" {
		t.Errorf("got %v", got)
	}
}

func mustQuery(t *testing.T, env *TableEnvironment, q string) *Table {
	t.Helper()
	tbl, err := env.SQLQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	return tbl
}

// A CSV file of several MiB is read in byte ranges by parallel instances in
// batch mode: every line once (the header skipped once), the answers of
// parallelism 1, and a bad value's error names its line in the file.
func TestCSVByteRanges(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("id,k,v\n")
	const n = 120000
	for i := 0; i < n; i++ {
		// no quote character: a file with one is not split (see
		// TestCSVQuotedLineBreaksNotSplit)
		fmt.Fprintf(&b, "%d,key%d,text with a number %d\n", i, i%13, i)
	}
	path := filepath.Join(dir, "big.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if b.Len() < 4<<20 {
		t.Fatalf("file of %d bytes: too small to split", b.Len())
	}
	ddl := "CREATE TABLE big (id BIGINT, k STRING, v STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'csv.ignore-first-line' = 'true')"
	run := func(par string, query string) ([]string, string) {
		env := MustCreate(InBatchMode())
		env.Config().Set("parallelism.default", par)
		if _, err := env.ExecuteSQL(fmt.Sprintf(ddl, path)); err != nil {
			t.Fatal(err)
		}
		plan, err := env.ExplainSQL(query)
		if err != nil {
			t.Fatal(err)
		}
		rows := collectStrings(t, mustQuery(t, env, query))
		slices.Sort(rows)
		return rows, plan
	}
	for _, q := range []string{
		"SELECT COUNT(*), SUM(id), MIN(id), MAX(id) FROM big",
		"SELECT COUNT(DISTINCT v) FROM big",
		"SELECT k, COUNT(*), SUM(id) FROM big GROUP BY k",
	} {
		want, _ := run("1", q)
		got, plan := run("2", q)
		if !strings.Contains(plan, "LocalHashAggregate") {
			t.Errorf("%s: no two phases at parallelism 2:\n%s", q, plan)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s at parallelism 2: got %v, want %v", q, got, want)
		}
	}
	if got, _ := run("2", "SELECT COUNT(*), SUM(id) FROM big"); strings.Join(got, "|") != fmt.Sprintf("%d %d", n, n*(n-1)/2) {
		t.Errorf("got %v", got)
	}
	// a bad id on line 100002 (the header is line 1)
	text := strings.Replace(b.String(), "\n100000,", "\nnot-a-number,", 1)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	err := batchQueryError(t, "2", fmt.Sprintf(ddl, path), "SELECT SUM(id) FROM big")
	if err == nil || !strings.Contains(err.Error(), "big.csv:100002:") {
		t.Errorf("error %v, want one naming line 100002", err)
	}
}

// A large CSV file whose quoted fields hold line breaks is not cut into
// byte ranges (a range boundary could fall inside such a field): at
// parallelism 2 it gives the rows of parallelism 1, every field intact.
func TestCSVQuotedLineBreaksNotSplit(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	const n = 90000
	for i := 0; i < n; i++ {
		// long first lines: a range boundary falls into one, before a break
		fmt.Fprintf(&b, "%d,\"first line %d, long enough for a range boundary to fall into it\nend\"\n", i, i)
	}
	path := filepath.Join(dir, "multiline.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if b.Len() < 4<<20 {
		t.Fatalf("file of %d bytes: too small to split", b.Len())
	}
	query := "SELECT COUNT(*), SUM(id), COUNT(DISTINCT note), MIN(CHAR_LENGTH(note)), MAX(CHAR_LENGTH(note)) FROM notes"
	run := func(par string) []string {
		env := MustCreate(InBatchMode())
		env.Config().Set("parallelism.default", par)
		mustExec(t, env, fmt.Sprintf("CREATE TABLE notes (id BIGINT, note STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')", path))
		return collectStrings(t, mustQuery(t, env, query))
	}
	want := fmt.Sprintf("%d %d %d %d %d", n, n*(n-1)/2, n, len("first line 0, long enough for a range boundary to fall into it\nend"), len("first line 89999, long enough for a range boundary to fall into it\nend"))
	for _, par := range []string{"1", "2"} {
		if got := run(par); strings.Join(got, "|") != want {
			t.Errorf("parallelism %s: got %v, want %s", par, got, want)
		}
	}
}

// batchQueryError runs ddl, then query, in batch mode at the given
// parallelism, reads every row, and returns the error of running or of
// reading it (nil when the query ends well).
func batchQueryError(t *testing.T, parallelism, ddl, query string) error {
	t.Helper()
	env := MustCreate(InBatchMode())
	env.Config().Set("parallelism.default", parallelism)
	mustExec(t, env, ddl)
	res, err := env.ExecuteSQL(query)
	if err != nil {
		return err
	}
	it, err := res.Collect()
	if err != nil {
		return err
	}
	defer it.Close()
	for it.Next() {
	}
	return it.Err()
}
