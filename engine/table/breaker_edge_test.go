package table

import (
	"cmp"
	"fmt"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
)

// valuesRecords evaluates VALUES rows (SQL row literals) with columns
// cols in batch mode and cuts the result into records of size rows.
func valuesRecords(t *testing.T, rows []string, cols string, size int64) []arrow.RecordBatch {
	t.Helper()
	src := MustCreate(InBatchMode())
	q, err := src.SQLQuery("SELECT * FROM (VALUES " + strings.Join(rows, ", ") + ") AS t(" + cols + ")")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := q.ToArrow()
	if err != nil {
		t.Fatal(err)
	}
	return arrowParts(t, rec, size)
}

// breakerRecords is a table of awkward values cut into records of three
// rows: keys -1, 0 and NULL, strings with NULLs, doubles -0.0, NaN and
// ±Inf, DECIMALs, timestamps before 1970 and with nanoseconds.
func breakerRecords(t *testing.T) []arrow.RecordBatch {
	t.Helper()
	rows := []string{
		"(CAST(-1 AS BIGINT), 'b', CAST(1.5 AS DOUBLE), CAST(1.25 AS DECIMAL(10, 2)), TIMESTAMP '1969-12-31 23:59:59.999', 1)",
		"(CAST(-1 AS BIGINT), CAST(NULL AS STRING), CAST(-0.0 AS DOUBLE), CAST(NULL AS DECIMAL(10, 2)), TIMESTAMP '1900-02-28 12:00:00.001', 2)",
		"(CAST(NULL AS BIGINT), 'a', CAST(NULL AS DOUBLE), CAST(2.50 AS DECIMAL(10, 2)), CAST(NULL AS TIMESTAMP(3)), 3)",
		"(CAST(0 AS BIGINT), 'zz', CAST('Infinity' AS DOUBLE), CAST(-3.33 AS DECIMAL(10, 2)), TIMESTAMP '2024-02-29 00:00:00.000', 4)",
		"(CAST(NULL AS BIGINT), CAST(NULL AS STRING), CAST('NaN' AS DOUBLE), CAST(0.01 AS DECIMAL(10, 2)), TIMESTAMP '1970-01-01 00:00:00.000', 5)",
		"(CAST(0 AS BIGINT), 'a', CAST('-Infinity' AS DOUBLE), CAST(0.01 AS DECIMAL(10, 2)), TIMESTAMP '1969-01-01 00:00:00.500', 6)",
		"(CAST(-1 AS BIGINT), 'b', CAST(2.5 AS DOUBLE), CAST(1.25 AS DECIMAL(10, 2)), TIMESTAMP '1969-12-31 23:59:59.999', 7)",
		"(CAST(7 AS BIGINT), CAST(NULL AS STRING), CAST(NULL AS DOUBLE), CAST(NULL AS DECIMAL(10, 2)), CAST(NULL AS TIMESTAMP(3)), 8)",
	}
	return valuesRecords(t, rows, "k, s, d, m, ts, n", 3)
}

// Awkward values give the same answers at parallelism 1 and 2 and under
// every agg-phase strategy, and the answers written here.
func TestBreakerEdgeAnswers(t *testing.T) {
	recs := breakerRecords(t)
	run := func(par, strategy, query string) []string {
		env := MustCreate(InBatchMode())
		env.Config().Set("parallelism.default", par)
		env.Config().Set("table.optimizer.agg-phase-strategy", strategy)
		tbl, err := env.FromArrow(recs, nil)
		if err != nil {
			t.Fatal(err)
		}
		env.CreateTemporaryView("mem", tbl)
		res, err := env.SQLQuery(query)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		return collectStrings(t, res)
	}
	for _, c := range []struct {
		q       string
		ordered bool
		want    string // rows joined by "|" (sorted unless ordered); "" = only compare
	}{
		{q: "SELECT k, COUNT(*), COUNT(s), MIN(s), MAX(s), MIN(ts), MAX(ts), SUM(m), AVG(m) FROM mem GROUP BY k"},
		{q: "SELECT k, SUM(d), MIN(d), MAX(d), AVG(d) FROM mem GROUP BY k"},
		{q: "SELECT k, COUNT(DISTINCT s), COUNT(DISTINCT k), COUNT(DISTINCT ts) FROM mem GROUP BY k"},
		{q: "SELECT COUNT(DISTINCT s), COUNT(DISTINCT k), COUNT(*) FROM mem", want: "3 3 8"},
		{q: "SELECT COUNT(*), SUM(m), AVG(m), MIN(s), COUNT(DISTINCT s) FROM mem WHERE n > 100", want: "0 <nil> <nil> <nil> 0"},
		{q: "SELECT k, COUNT(*) FROM mem WHERE n > 100 GROUP BY k", want: ""},
		{q: "SELECT k, SUM(m), AVG(m), COUNT(m) FROM mem WHERE m IS NULL GROUP BY k", want: "-1 <nil> <nil> 0|7 <nil> <nil> 0"},
		{q: "SELECT k, COUNT(*) FILTER (WHERE s IS NULL), SUM(n) FILTER (WHERE d > 0), MAX(s) FILTER (WHERE n > 2) FROM mem GROUP BY k"},
		{q: "SELECT s, k, COUNT(*), SUM(n) FROM mem GROUP BY s, k"},
		{q: "SELECT k, COUNT(*) FROM mem GROUP BY k", want: "-1 3|0 2|7 1|<nil> 2"},
		{q: "SELECT SUM(m), AVG(m), MIN(m), MAX(m) FROM mem", want: "1.69 0.281667 -3.33 2.50"},
		{q: "SELECT k, EXTRACT(YEAR FROM ts), EXTRACT(HOUR FROM ts), EXTRACT(MILLISECOND FROM ts), EXTRACT(DAY FROM ts) FROM mem WHERE n IN (1, 2, 6)"},
		{q: "SELECT n, s FROM mem ORDER BY s NULLS FIRST, n DESC LIMIT 4", ordered: true, want: "8 <nil>|5 <nil>|2 <nil>|6 a"},
		{q: "SELECT n, s FROM mem ORDER BY s DESC NULLS LAST, n LIMIT 4", ordered: true, want: "4 zz|1 b|7 b|3 a"},
		{q: "SELECT n, k FROM mem ORDER BY k NULLS LAST, n LIMIT 3", ordered: true, want: "1 -1|2 -1|7 -1"},
		{q: "SELECT n, k FROM mem ORDER BY k DESC, n LIMIT 3", ordered: true},
		{q: "SELECT n, ROW_NUMBER() OVER (PARTITION BY k ORDER BY s DESC, n), RANK() OVER (PARTITION BY k ORDER BY s DESC), DENSE_RANK() OVER (PARTITION BY k ORDER BY ts DESC) FROM mem"},
		{q: "SELECT n, RANK() OVER (ORDER BY k DESC NULLS LAST) FROM mem"},
		{q: "SELECT a.n, b.n FROM mem a JOIN mem b ON a.k = b.k"},
		{q: "SELECT a.n, b.n FROM mem a LEFT JOIN mem b ON a.s = b.s"},
		{q: "SELECT a.n, b.n FROM mem a FULL JOIN (SELECT * FROM mem WHERE n < 4) b ON a.k = b.k"},
		{q: "SELECT a.n, b.n FROM mem a RIGHT JOIN (SELECT * FROM mem WHERE n < 4) b ON a.k = b.k"},
	} {
		base := run("1", "ONE_PHASE", c.q)
		t.Logf("%s => %s", c.q, strings.Join(base, "|"))
		if !c.ordered {
			slices.Sort(base)
		}
		if c.want != "" || strings.Contains(c.q, "n > 100 GROUP BY") {
			if got := strings.Join(base, "|"); got != c.want {
				t.Errorf("%s: got %q, want %q", c.q, got, c.want)
			}
		}
		for _, v := range [][2]string{{"1", "TWO_PHASE"}, {"2", "AUTO"}, {"2", "TWO_PHASE"}, {"2", "ONE_PHASE"}} {
			got := run(v[0], v[1], c.q)
			if !c.ordered {
				slices.Sort(got)
			}
			if !slices.Equal(got, base) {
				t.Errorf("%s at parallelism %s %s:\n got %s\nwant %s", c.q, v[0], v[1], strings.Join(got, "|"), strings.Join(base, "|"))
			}
		}
	}
	_ = fmt.Sprint
}

// A CSV file with a byte order mark, a header, CRLF line ends and no line
// break after its last line is read in byte ranges at parallelism 2 with
// the rows of parallelism 1 and the answers written here (no CR left in a
// field, the last line read once), and a bad value names its file line.
func TestBreakerCSVCRLFRanges(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("\uFEFFid,k,v\r\n")
	const n = 100000
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "%d,key%d,value %d", i, i%7, i%1000)
		if i < n-1 {
			b.WriteString("\r\n")
		}
	}
	path := filepath.Join(dir, "crlf.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if b.Len() < 2<<20 {
		t.Fatalf("file of %d bytes: too small to split", b.Len())
	}
	ddl := "CREATE TABLE crlf (id BIGINT, k STRING, v STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv', 'csv.ignore-first-line' = 'true')"
	query := "SELECT COUNT(*), SUM(id), MAX(id), COUNT(DISTINCT k), COUNT(DISTINCT v), MAX(CHAR_LENGTH(v)), MAX(CHAR_LENGTH(k)) FROM crlf"
	want := fmt.Sprintf("%d %d %d 7 1000 9 4", n, n*(n-1)/2, n-1)
	for _, par := range []string{"1", "2"} {
		env := MustCreate(InBatchMode())
		env.Config().Set("parallelism.default", par)
		mustExec(t, env, fmt.Sprintf(ddl, path))
		if got := strings.Join(collectStrings(t, mustQuery(t, env, query)), "|"); got != want {
			t.Errorf("parallelism %s: got %s, want %s", par, got, want)
		}
	}
	// a bad id on line 90002 (the header is line 1)
	text := strings.Replace(b.String(), "\r\n90000,", "\r\nbad,", 1)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	err := batchQueryError(t, "2", fmt.Sprintf(ddl, path), "SELECT SUM(id) FROM crlf")
	if err == nil || !strings.Contains(err.Error(), "crlf.csv:90002:") {
		t.Errorf("error %v, want one naming line 90002", err)
	}
}

// breakerBigRecords is a table of n rows (k BIGINT, s STRING, v BIGINT)
// in records of 700 rows, its keys in runs (a clustered batch) and
// scattered, among them -1, 0, NULL and the int64 extremes, with the
// answers of SELECT k, COUNT(*), SUM(v), COUNT(v), COUNT(DISTINCT s),
// MIN(s), MAX(s) ... GROUP BY k computed here.
func breakerBigRecords(t *testing.T, n int) ([]arrow.RecordBatch, []string) {
	t.Helper()
	keys := []int64{-1, 0, math.MaxInt64, math.MinInt64, 5, -7, 1 << 40}
	type acc struct {
		cnt, sum, nv int64
		hasSum       bool
		ds           map[string]bool
		min, max     string
		hasS         bool
	}
	accs := map[string]*acc{}
	mem := memory.DefaultAllocator
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "k", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "v", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	}, nil)
	var recs []arrow.RecordBatch
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	for i := 0; i < n; i++ {
		var k int64
		null := false
		switch {
		case i < n/3: // runs of 50 rows of one key
			j := (i / 50) % (len(keys) + 1)
			if j == len(keys) {
				null = true
			} else {
				k = keys[j]
			}
		default:
			j := (i * 7919) % (len(keys) + 3)
			if j >= len(keys) {
				null = j == len(keys)
				k = int64(j * 1000)
			} else {
				k = keys[j]
			}
		}
		name := "<nil>"
		if null {
			b.Field(0).(*array.Int64Builder).AppendNull()
		} else {
			b.Field(0).(*array.Int64Builder).Append(k)
			name = fmt.Sprint(k)
		}
		a := accs[name]
		if a == nil {
			a = &acc{ds: map[string]bool{}}
			accs[name] = a
		}
		a.cnt++
		if i%11 == 3 {
			b.Field(1).(*array.StringBuilder).AppendNull()
		} else {
			s := fmt.Sprintf("s%d", (i*31)%97)
			if i%13 == 0 {
				s = ""
			}
			b.Field(1).(*array.StringBuilder).Append(s)
			a.ds[s] = true
			if !a.hasS || s < a.min {
				a.min = s
			}
			if !a.hasS || s > a.max {
				a.max = s
			}
			a.hasS = true
		}
		if i%17 == 5 {
			b.Field(2).(*array.Int64Builder).AppendNull()
		} else {
			v := int64(i%1000) - 500
			b.Field(2).(*array.Int64Builder).Append(v)
			a.sum += v
			a.nv++
			a.hasSum = true
		}
		if (i+1)%700 == 0 || i == n-1 {
			recs = append(recs, b.NewRecordBatch())
		}
	}
	var want []string
	for name, a := range accs {
		sum, mn, mx := "<nil>", "<nil>", "<nil>"
		if a.hasSum {
			sum = fmt.Sprint(a.sum)
		}
		if a.hasS {
			mn, mx = a.min, a.max
		}
		want = append(want, fmt.Sprintf("%s %d %s %d %d %s %s", name, a.cnt, sum, a.nv, len(a.ds), mn, mx))
	}
	slices.Sort(want)
	return recs, want
}

// Many rows of awkward keys in runs and scattered give the answers
// computed in Go at parallelism 1 and 2, under every agg-phase strategy,
// and self-joins give the same rows broadcast or shuffled.
func TestBreakerBigGroups(t *testing.T) {
	recs, want := breakerBigRecords(t, 9000)
	run := func(par, strategy, threshold, query string) []string {
		env := MustCreate(InBatchMode())
		env.Config().Set("parallelism.default", par)
		env.Config().Set("table.optimizer.agg-phase-strategy", strategy)
		env.Config().Set("table.optimizer.join.broadcast-threshold", threshold)
		tbl, err := env.FromArrow(recs, nil)
		if err != nil {
			t.Fatal(err)
		}
		env.CreateTemporaryView("big", tbl)
		res, err := env.SQLQuery(query)
		if err != nil {
			t.Fatalf("%s: %v", query, err)
		}
		rows := collectStrings(t, res)
		slices.Sort(rows)
		return rows
	}
	variants := [][3]string{{"1", "ONE_PHASE", "-1"}, {"1", "TWO_PHASE", "1048576"}, {"2", "AUTO", "1048576"}, {"2", "TWO_PHASE", "-1"}, {"2", "ONE_PHASE", "1048576"}}
	groupQ := "SELECT k, COUNT(*), SUM(v), COUNT(v), COUNT(DISTINCT s), MIN(s), MAX(s) FROM big GROUP BY k"
	for _, v := range variants {
		if got := run(v[0], v[1], v[2], groupQ); !slices.Equal(got, want) {
			t.Errorf("%v: got\n%s\nwant\n%s", v, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	for _, q := range []string{
		"SELECT k, s, COUNT(*), SUM(v) FROM big GROUP BY k, s",
		"SELECT v, k, COUNT(*) FROM big GROUP BY v, k",
		"SELECT COUNT(DISTINCT k), COUNT(DISTINCT s), COUNT(DISTINCT v), SUM(v), COUNT(*) FROM big",
		"SELECT a.k, COUNT(*), SUM(b.v) FROM big a JOIN (SELECT k, v FROM big WHERE v BETWEEN 0 AND 3) b ON a.k = b.k GROUP BY a.k",
		"SELECT a.s, a.v, b.v FROM (SELECT * FROM big WHERE v < -495) a LEFT JOIN (SELECT * FROM big WHERE v > 495) b ON a.k = b.k",
		"SELECT a.v, b.v FROM (SELECT * FROM big WHERE v < -490) a FULL JOIN (SELECT * FROM big WHERE v > 490) b ON a.k = b.k AND a.s = b.s",
		"SELECT k, v FROM big ORDER BY k NULLS FIRST, v DESC NULLS LAST LIMIT 37",
		"SELECT k, v FROM big ORDER BY k DESC NULLS LAST, v LIMIT 37",
		"SELECT k, v, s FROM big ORDER BY v NULLS FIRST, k, s LIMIT 29",
		// RANK, not ROW_NUMBER, picks rows: ROW_NUMBER numbers ties in any order
		"SELECT * FROM (SELECT k, v, RANK() OVER (PARTITION BY k ORDER BY v DESC NULLS LAST) AS rn, RANK() OVER (PARTITION BY k ORDER BY s) AS r, DENSE_RANK() OVER (PARTITION BY k ORDER BY s DESC) AS dr FROM big) WHERE rn <= 3 OR r = 1",
		"SELECT k, COUNT(*), MAX(rn), SUM(rn), MAX(dr) FROM (SELECT k, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v DESC) AS rn, DENSE_RANK() OVER (PARTITION BY k ORDER BY v DESC) AS dr FROM big) GROUP BY k",
		"SELECT * FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY k ORDER BY v NULLS FIRST, s DESC NULLS FIRST) AS rn FROM big) WHERE rn <= 2 AND v IS NULL",
	} {
		base := run("1", "ONE_PHASE", "-1", q)
		for _, v := range variants[1:] {
			if got := run(v[0], v[1], v[2], q); !slices.Equal(got, base) {
				t.Errorf("%s at %v:\n got %d rows %s\nwant %d rows %s", q, v, len(got), strings.Join(got[:min(len(got), 20)], "|"), len(base), strings.Join(base[:min(len(base), 20)], "|"))
			}
		}
	}
}

// ORDER BY ... LIMIT (the Top-N path, with its early skip on the first
// key) gives the first rows of the whole sorted result, at parallelism 1
// and 2, over keys -1, NULL and the int64 extremes with ties.
func TestBreakerTopNAgainstFullSort(t *testing.T) {
	recs, _ := breakerBigRecords(t, 9000)
	run := func(par, query string) []string {
		env := MustCreate(InBatchMode())
		env.Config().Set("parallelism.default", par)
		tbl, err := env.FromArrow(recs, nil)
		if err != nil {
			t.Fatal(err)
		}
		env.CreateTemporaryView("big", tbl)
		return collectStrings(t, mustQuery(t, env, query))
	}
	for _, order := range []string{
		"k NULLS FIRST, v DESC NULLS LAST, s",
		"k DESC NULLS FIRST, v, s DESC",
		"k DESC, v NULLS FIRST, s NULLS FIRST",
		"k, v DESC, s DESC NULLS LAST",
		"v DESC NULLS FIRST, k, s",
		"v, k DESC NULLS LAST, s",
		"s NULLS FIRST, k DESC, v",
		"s DESC NULLS LAST, v, k",
	} {
		full := run("1", "SELECT k, v, s FROM big ORDER BY "+order)
		if len(full) != 9000 {
			t.Fatalf("%s: %d rows", order, len(full))
		}
		checkSorted(t, order, full)
		for _, limit := range []int{1, 7, 50, 333, 1300} {
			want := full[:limit]
			for _, par := range []string{"1", "2"} {
				got := run(par, fmt.Sprintf("SELECT k, v, s FROM big ORDER BY %s LIMIT %d", order, limit))
				// rows tied on every key may come in any order
				slices.Sort(got)
				w := slices.Clone(want)
				slices.Sort(w)
				if !slices.Equal(got, w) {
					t.Errorf("ORDER BY %s LIMIT %d at parallelism %s: got %d rows, first differences %v", order, limit, par, len(got), firstDiff(got, w))
				}
			}
		}
	}
}

func firstDiff(a, b []string) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("at %d: %q vs %q", i, a[i], b[i])
		}
	}
	return "lengths"
}

// checkSorted checks rows "k v s" against an ORDER BY over k, v (BIGINT)
// and s (STRING) with Flink's default null order (first ascending, last
// descending).
func checkSorted(t *testing.T, order string, rows []string) {
	t.Helper()
	type key struct {
		col              int
		desc, nullsFirst bool
	}
	var keys []key
	for _, part := range strings.Split(order, ",") {
		f := strings.Fields(part)
		k := key{col: strings.Index("kvs", f[0])}
		k.desc = slices.Contains(f, "DESC")
		k.nullsFirst = !k.desc
		if i := slices.Index(f, "NULLS"); i >= 0 {
			k.nullsFirst = f[i+1] == "FIRST"
		}
		keys = append(keys, k)
	}
	cmp := func(a, b []string) int {
		for _, k := range keys {
			x, y := a[k.col], b[k.col]
			if x == y {
				continue
			}
			if x == "<nil>" || y == "<nil>" {
				if (x == "<nil>") == k.nullsFirst {
					return -1
				}
				return 1
			}
			var c int
			if k.col == 2 {
				c = strings.Compare(x, y)
			} else {
				var xi, yi int64
				fmt.Sscan(x, &xi)
				fmt.Sscan(y, &yi)
				c = cmp.Compare(xi, yi)
			}
			if k.desc {
				c = -c
			}
			if c != 0 {
				return c
			}
		}
		return 0
	}
	for i := 1; i < len(rows); i++ {
		a, b := strings.SplitN(rows[i-1], " ", 3), strings.SplitN(rows[i], " ", 3)
		if cmp(a, b) > 0 {
			t.Errorf("ORDER BY %s: row %d %q before %q", order, i, rows[i-1], rows[i])
			return
		}
	}
}

// A CSV file of exactly 2 MiB of 64-byte lines is cut into two byte ranges
// whose boundary is a line start: every line is read once at parallelism 2,
// and a bad value on the second range's first line names its file line.
func TestBreakerCSVRangeAtLineStart(t *testing.T) {
	dir := t.TempDir()
	const n = 32768
	var b strings.Builder
	for i := 0; i < n; i++ {
		line := fmt.Sprintf("%d,%s", i, "1969-12-31 23:59:59")
		b.WriteString(line + "," + strings.Repeat("x", 63-len(line)-1) + "\n")
	}
	if b.Len() != 2<<20 {
		t.Fatalf("file of %d bytes", b.Len())
	}
	path := filepath.Join(dir, "exact.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ddl := "CREATE TABLE exact (id BIGINT, ts TIMESTAMP(0), pad STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')"
	want := fmt.Sprintf("%d %d %d 1969 23", n, n*(n-1)/2, n)
	for _, par := range []string{"1", "2"} {
		env := MustCreate(InBatchMode())
		env.Config().Set("parallelism.default", par)
		mustExec(t, env, fmt.Sprintf(ddl, path))
		got := collectStrings(t, mustQuery(t, env, "SELECT COUNT(*), SUM(id), COUNT(DISTINCT id), MIN(EXTRACT(YEAR FROM ts)), MAX(EXTRACT(HOUR FROM ts)) FROM exact"))
		if strings.Join(got, "|") != want {
			t.Errorf("parallelism %s: got %v, want %s", par, got, want)
		}
	}
	// line 16385 starts at byte 1 MiB, the second range's first byte
	text := strings.Replace(b.String(), "\n16384,1969-12-31 23:59:59,", "\n16384,1969-12-31 24:59:59,", 1)
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	err := batchQueryError(t, "2", fmt.Sprintf(ddl, path), "SELECT MAX(ts) FROM exact")
	if err == nil || !strings.Contains(err.Error(), "exact.csv:16385:") {
		t.Errorf("error %v, want one naming line 16385", err)
	}
}

// Two-key groups (pairIndex, with -1, NULL and the int64 extremes in
// either key) give the groups of one string key built from both, at
// parallelism 1 and with two phases at parallelism 2.
func TestBreakerTwoKeyGroupsAgainstOneKey(t *testing.T) {
	recs, _ := breakerBigRecords(t, 9000)
	for _, v := range [][2]string{{"1", "ONE_PHASE"}, {"2", "TWO_PHASE"}} {
		env := MustCreate(InBatchMode())
		env.Config().Set("parallelism.default", v[0])
		env.Config().Set("table.optimizer.agg-phase-strategy", v[1])
		tbl, _ := env.FromArrow(recs, nil)
		env.CreateTemporaryView("big", tbl)
		for _, p := range [][2]string{
			{"SELECT CONCAT(COALESCE(CAST(k AS STRING), 'N'), '|', COALESCE(CAST(v AS STRING), 'N')), COUNT(*), COUNT(DISTINCT s), MAX(s) FROM big GROUP BY k, v",
				"SELECT g, COUNT(*), COUNT(DISTINCT s), MAX(s) FROM (SELECT CONCAT(COALESCE(CAST(k AS STRING), 'N'), '|', COALESCE(CAST(v AS STRING), 'N')) AS g, s FROM big) GROUP BY g"},
			{"SELECT CONCAT(COALESCE(s, 'N'), '|', COALESCE(CAST(k AS STRING), 'N')), COUNT(*), SUM(v) FROM big GROUP BY s, k",
				"SELECT g, COUNT(*), SUM(v) FROM (SELECT CONCAT(COALESCE(s, 'N'), '|', COALESCE(CAST(k AS STRING), 'N')) AS g, v FROM big) GROUP BY g"},
			{"SELECT CONCAT(COALESCE(CAST(v AS STRING), 'N'), '|', COALESCE(CAST(k AS STRING), 'N')), COUNT(*), MIN(s) FROM big WHERE v IN (-1, 0, 1) OR v IS NULL OR k IS NULL GROUP BY v, k",
				"SELECT g, COUNT(*), MIN(s) FROM (SELECT CONCAT(COALESCE(CAST(v AS STRING), 'N'), '|', COALESCE(CAST(k AS STRING), 'N')) AS g, s FROM big WHERE v IN (-1, 0, 1) OR v IS NULL OR k IS NULL) GROUP BY g"},
		} {
			a := collectStrings(t, mustQuery(t, env, p[0]))
			b := collectStrings(t, mustQuery(t, env, p[1]))
			slices.Sort(a)
			slices.Sort(b)
			if !slices.Equal(a, b) {
				t.Errorf("%v %s: %d vs %d rows; %v", v, p[0], len(a), len(b), firstDiff(a, b))
			}
		}
	}
}

// DOUBLE sort and partition keys holding NaN: NaN sorts after every number
// (as Java's Double.compare in Flink's sort) and NaNs form one partition of
// their own, at parallelism 1 and 3.
func TestBreakerNaNSortAndPartitionKeys(t *testing.T) {
	src := MustCreate(InBatchMode())
	q := mustQuery(t, src, "SELECT * FROM (VALUES (1, CAST('0.0' AS DOUBLE)), (2, CAST('0.0' AS DOUBLE)), (3, CAST('NaN' AS DOUBLE)), (4, CAST('NaN' AS DOUBLE)), (5, CAST('0.0' AS DOUBLE)), (6, CAST('-1' AS DOUBLE)), (7, CAST('1' AS DOUBLE)), (8, CAST(NULL AS DOUBLE))) AS t(g, d)")
	rec, err := q.ToArrow()
	if err != nil {
		t.Fatal(err)
	}
	for _, par := range []string{"1", "3"} {
		env := MustCreate(InBatchMode())
		env.Config().Set("parallelism.default", par)
		tbl, err := env.FromArrow(arrowParts(t, rec, 1), nil)
		if err != nil {
			t.Fatal(err)
		}
		env.CreateTemporaryView("m", tbl)
		for _, c := range []struct {
			q, want string
			sorted  bool
		}{
			{"SELECT g, RANK() OVER (PARTITION BY d ORDER BY g) FROM m", "1 1|2 2|3 1|4 2|5 3|6 1|7 1|8 1", true},
			{"SELECT g FROM m ORDER BY d NULLS FIRST, g", "8|6|1|2|5|7|3|4", false},
			{"SELECT g FROM m ORDER BY d DESC, g", "3|4|7|1|2|5|6|8", false},
			{"SELECT g FROM m ORDER BY d DESC, g LIMIT 3", "3|4|7", false},
			{"SELECT g, DENSE_RANK() OVER (ORDER BY d) FROM m", "1 3|2 3|3 5|4 5|5 3|6 2|7 4|8 1", true},
		} {
			got := collectStrings(t, mustQuery(t, env, c.q))
			if c.sorted {
				slices.Sort(got)
			}
			if strings.Join(got, "|") != c.want {
				t.Errorf("%s at parallelism %s: got %s, want %s", c.q, par, strings.Join(got, "|"), c.want)
			}
		}
	}
}
