package filesystem_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector/filesystem"
	"github.com/riffle-sql/riffle/engine/table"
)

// SQL over a table whose files' ranges are read both ways (searched
// first and held: WriteMixedSizeTable), quoted line breaks in a big
// range and in a small one, gives at parallelism 2 and 4 the rows of
// parallelism 1, in the order of a sorted read.
func TestRangeHoldMixedSizesSQL(t *testing.T) {
	filesystem.SetHoldRangeBytes(t, filesystem.MixedHoldRangeBytes)
	dir := t.TempDir()
	n := filesystem.WriteMixedSizeTable(t, dir, true, true)
	ddl := fmt.Sprintf("CREATE TABLE m (id BIGINT, s STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')", dir)
	for _, q := range []string{
		"SELECT COUNT(*), SUM(id), MAX(id), SUM(CHAR_LENGTH(s)) FROM m",
		"SELECT id, s FROM m ORDER BY id",
		"SELECT id, s FROM m WHERE s LIKE '%lines%' OR s LIKE '%\"%' ORDER BY id",
	} {
		var want []string
		for _, par := range []string{"1", "2", "4"} {
			env := table.MustCreate(table.InBatchMode())
			env.Config().Set("parallelism.default", par)
			if _, err := env.ExecuteSQL(ddl); err != nil {
				t.Fatal(err)
			}
			got := queryRows(t, env, q)
			switch {
			case par == "1":
				want = got
				if strings.HasPrefix(q, "SELECT COUNT") && !strings.HasPrefix(got[0], fmt.Sprintf("%d %d %d ", n, n*(n-1)/2, n-1)) {
					t.Fatalf("%s: %v, want %d rows, ids 0 to %d", q, got, n, n-1)
				}
				if strings.Contains(q, "WHERE") && (len(got) < 4 || !strings.Contains(got[0], "\n")) {
					t.Fatalf("%s: %v, want two quoted line breaks and escaped quotes", q, got)
				}
			case len(got) != len(want):
				t.Errorf("%s parallelism %s: %d rows, want %d", q, par, len(got), len(want))
			default:
				for i := range got {
					if got[i] != want[i] {
						t.Errorf("%s parallelism %s: row %d is %q, want %q", q, par, i, got[i], want[i])
						break
					}
				}
			}
		}
	}
}

func queryRows(t *testing.T, env *table.TableEnvironment, q string) []string {
	t.Helper()
	res, err := env.ExecuteSQL(q)
	if err != nil {
		t.Fatal(err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	var out []string
	for it.Next() {
		var vs []string
		for _, v := range it.Row().Values {
			vs = append(vs, fmt.Sprint(v))
		}
		out = append(out, strings.Join(vs, " "))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}
