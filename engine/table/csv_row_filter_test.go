package table

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestCSVFilteredScanLateStrings: a WHERE over a CSV scan's numeric
// columns (the scan builds its string columns only for the rows the
// condition keeps) gives the rows computed here, at parallelism 1 and 2
// (byte ranges), quoted strings with delimiters intact; a bad value on a
// row the condition would drop still fails the query at its line.
func TestCSVFilteredScanLateStrings(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	const n = 250000
	count, sumID, sumLen := 0, 0, 0
	for i := 0; i < n; i++ {
		origin := fmt.Sprintf("o%d", i%53)
		dest := fmt.Sprintf("\"d,%d\"", i%31)
		delay, distance := (i*7)%200-20, (i*13)%3000
		fmt.Fprintf(&b, "%d,%s,%s,%d,%d\n", i, origin, dest, delay, distance)
		if delay > 60 && distance < 1000 {
			count++
			sumID += i
			sumLen += len(origin) + len(dest) - 2
		}
	}
	path := filepath.Join(dir, "flights.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ddl := fmt.Sprintf("CREATE TABLE f (id BIGINT, origin STRING, dest STRING, delay INT, distance INT) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')", path)
	query := "SELECT COUNT(*), SUM(id), SUM(CHAR_LENGTH(origin) + CHAR_LENGTH(dest)) FROM (SELECT id, origin, dest FROM f WHERE delay > 60 AND distance < 1000)"
	want := fmt.Sprintf("%d %d %d", count, sumID, sumLen)
	for _, par := range []string{"1", "2"} {
		env := MustCreate(InBatchMode())
		env.Config().Set("parallelism.default", par)
		mustExec(t, env, ddl)
		if got := collectStrings(t, mustQuery(t, env, query)); strings.Join(got, "|") != want {
			t.Errorf("parallelism %s: got %v, want %s", par, got, want)
		}
	}
	// line 11 (id 10: delay 50, dropped by the condition) gets a bad
	// distance, then a bad delay
	for _, bad := range []string{"10,o10,\"d,10\",50,far\n", "10,o10,\"d,10\",late,5\n"} {
		text := strings.Replace(b.String(), "10,o10,\"d,10\",50,130\n", bad, 1)
		if text == b.String() {
			t.Fatal("line 11 not found")
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		err := batchQueryError(t, "1", ddl, "SELECT origin, dest FROM f WHERE delay > 60 AND distance < 1000")
		if err == nil || !strings.Contains(err.Error(), "flights.csv:11:") {
			t.Errorf("error %v, want one naming line 11", err)
		}
	}
}

// TestCSVTopNScanBound: ORDER BY ... LIMIT over a CSV scan (the scan drops
// the rows the Top-N's bound on its first key excludes, building their
// strings never) gives the rows computed here, with ties on the first key
// broken by the string keys and NULL keys placed as Flink does (last for
// DESC, first for ASC), at parallelism 1 and 2; the Top-N reads the scan
// through a Calc that reorders the columns and an exchange.
func TestCSVTopNScanBound(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	type row struct {
		delay        int
		null         bool
		origin, dest string
	}
	var rows []row
	const n = 250000
	for i := 0; i < n; i++ {
		r := row{delay: (i * 7919) % 1000, origin: fmt.Sprintf("o%d", (i*31)%97), dest: fmt.Sprintf("d%d", i%89)}
		if i%1013 == 0 {
			r.null = true
			fmt.Fprintf(&b, ",%s,%s\n", r.origin, r.dest)
		} else {
			fmt.Fprintf(&b, "%d,%s,%s\n", r.delay, r.origin, r.dest)
		}
		rows = append(rows, r)
	}
	path := filepath.Join(dir, "flights.csv")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	ddl := fmt.Sprintf("CREATE TABLE f (delay INT, origin STRING, dest STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')", path)
	want := func(desc bool, offset, fetch int) string {
		sorted := append([]row(nil), rows...)
		slices.SortStableFunc(sorted, func(x, y row) int {
			switch {
			case x.null && y.null:
			case x.null:
				return map[bool]int{true: 1, false: -1}[desc]
			case y.null:
				return map[bool]int{true: -1, false: 1}[desc]
			case x.delay != y.delay:
				if desc {
					return cmp.Compare(y.delay, x.delay)
				}
				return cmp.Compare(x.delay, y.delay)
			}
			return cmp.Or(cmp.Compare(x.origin, y.origin), cmp.Compare(x.dest, y.dest))
		})
		var out []string
		for _, r := range sorted[offset : offset+fetch] {
			d := fmt.Sprint(r.delay)
			if r.null {
				d = "<nil>"
			}
			out = append(out, r.origin+" "+r.dest+" "+d)
		}
		return strings.Join(out, "|")
	}
	for _, q := range []struct {
		sql    string
		desc   bool
		offset int
	}{
		{"SELECT origin, dest, delay FROM f ORDER BY delay DESC, origin, dest LIMIT 10", true, 0},
		{"SELECT origin, dest, delay FROM f ORDER BY delay, origin, dest LIMIT 10 OFFSET 250", false, 250},
	} {
		for _, par := range []string{"1", "2"} {
			env := MustCreate(InBatchMode())
			env.Config().Set("parallelism.default", par)
			mustExec(t, env, ddl)
			got := strings.Join(collectStrings(t, mustQuery(t, env, q.sql)), "|")
			if w := want(q.desc, q.offset, 10); got != w {
				t.Errorf("%s at parallelism %s:\ngot  %s\nwant %s", q.sql, par, got, w)
			}
		}
	}
}
