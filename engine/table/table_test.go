package table

import (
	"bytes"
	"strings"
	"testing"
)

func run(t *testing.T, env *TableEnvironment, stmt string) string {
	t.Helper()
	res, err := env.ExecuteSQL(stmt)
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	var b bytes.Buffer
	if err := res.PrintTo(&b); err != nil {
		t.Fatalf("%s: print: %v", stmt, err)
	}
	return b.String()
}

func TestBatchValuesAggregate(t *testing.T) {
	env := atParallelismOne(MustCreate(InBatchMode()))
	got := run(t, env, `SELECT id, COUNT(*) as cnt, COUNT(DISTINCT str) as uv
FROM (VALUES (1, 'Hello World'), (2, 'Hi'), (2, 'Hi')) as T(id, str)
GROUP BY id`)
	want := `+----+-----+----+
| id | cnt | uv |
+----+-----+----+
|  1 |   1 |  1 |
|  2 |   2 |  1 |
+----+-----+----+
2 rows in set
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestStreamingValuesAggregateChangelog(t *testing.T) {
	env := atParallelismOne(MustCreate(InStreamingMode()))
	got := run(t, env, `SELECT id, COUNT(*) as cnt, COUNT(DISTINCT str) as uv, max(ts) as max_ts
FROM (VALUES
  (1, 'Hello World', TIMESTAMP '2021-04-13 20:12:11.123456789'),
  (2, 'Hi', TIMESTAMP '2021-04-13 19:12:11.123456789'),
  (2, 'Hi', TIMESTAMP '2021-04-13 21:12:11.123456789')) as T(id, str, ts)
GROUP BY id`)
	want := `+----+-------------+----------------------+----------------------+-------------------------------+
| op |          id |                  cnt |                   uv |                        max_ts |
+----+-------------+----------------------+----------------------+-------------------------------+
| +I |           1 |                    1 |                    1 | 2021-04-13 20:12:11.123456789 |
| +I |           2 |                    1 |                    1 | 2021-04-13 19:12:11.123456789 |
| -U |           2 |                    1 |                    1 | 2021-04-13 19:12:11.123456789 |
| +U |           2 |                    2 |                    1 | 2021-04-13 21:12:11.123456789 |
+----+-------------+----------------------+----------------------+-------------------------------+
Received a total of 4 rows
`
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestMisspeltColumn(t *testing.T) {
	env := MustCreate(InBatchMode())
	_, err := env.ExecuteSQL("SELECT pric FROM (VALUES (1)) AS t(price)")
	if err == nil || !strings.Contains(err.Error(), "line 1, column 8") || !strings.Contains(err.Error(), "did you mean 'price'") {
		t.Fatalf("unexpected error: %v", err)
	}
}
