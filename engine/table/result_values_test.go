package table

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// nullsLaterResult runs, over 1..n in order, a query whose second column
// is NULL on even rows above 30,000 and whose third is NULL on every row
// above 40,000: the later batches' values go into blocks that held
// earlier batches' non-NULL values.
func nullsLaterResult(t *testing.T, n, converters int) *TableResult {
	t.Helper()
	env := sequenceEnv(t, n, 2)
	res := queryWith(t, env, `SELECT v,
		CASE WHEN v > 30000 AND MOD(v, 2) = 0 THEN CAST(NULL AS STRING) ELSE CAST(v AS STRING) END AS s,
		CASE WHEN v > 40000 THEN CAST(NULL AS BIGINT) ELSE v * 10 END AS w
		FROM seq ORDER BY v`, converters)
	return res
}

// wantNullsLater is row v of nullsLaterResult.
func wantNullsLater(v int) []any {
	var s, w any = strconv.Itoa(v), int64(v * 10)
	if v > 30000 && v%2 == 0 {
		s = nil
	}
	if v > 40000 {
		w = nil
	}
	return []any{int64(v), s, w}
}

// Values gives every row's values, NULLs as nil, read into one slice
// reused for every row, with one converter and with three: the blocks
// reused from batch to batch hold no earlier batch's values.
func TestValuesReadsEveryRowIntoOneSlice(t *testing.T) {
	const n = 50000 // thirteen batches
	for _, converters := range []int{1, 3} {
		t.Run(fmt.Sprintf("%d converters", converters), func(t *testing.T) {
			it, err := nullsLaterResult(t, n, converters).Collect()
			if err != nil {
				t.Fatal(err)
			}
			defer it.Close()
			var vals []any
			got := 0
			for it.Next() {
				got++
				vals = it.Values(vals)
				if want := wantNullsLater(got); fmt.Sprint(vals) != fmt.Sprint(want) || len(vals) != 3 {
					t.Fatalf("row %d = %v, want %v", got, vals, want)
				}
				if k := it.Kind(); k != types.Insert {
					t.Fatalf("row %d kind %v", got, k)
				}
			}
			if err := it.Err(); err != nil || got != n {
				t.Fatalf("%d rows (want %d), %v", got, n, err)
			}
		})
	}
}

// Rows taken with Row while other rows are read with Values keep their
// values to the end: a block some row refers to is never reused.
func TestValuesLeavesRowsTakenIntact(t *testing.T) {
	const n = 50000
	for _, converters := range []int{1, 3} {
		t.Run(fmt.Sprintf("%d converters", converters), func(t *testing.T) {
			it, err := nullsLaterResult(t, n, converters).Collect()
			if err != nil {
				t.Fatal(err)
			}
			defer it.Close()
			kept := map[int]*types.Row{}
			var vals []any
			for v := 1; it.Next(); v++ {
				if v%5000 == 1 {
					kept[v] = it.Row()
				}
				// Values and Row agree on the same row, either first
				vals = it.Values(vals)
				if r := it.Row(); r != nil && fmt.Sprint(r.Values) != fmt.Sprint(vals) {
					t.Fatalf("row %d: Row %v, Values %v", v, r.Values, vals)
				}
			}
			if err := it.Err(); err != nil {
				t.Fatal(err)
			}
			if len(kept) != n/5000 {
				t.Fatalf("%d rows kept", len(kept))
			}
			for v, r := range kept {
				if want := wantNullsLater(v); fmt.Sprint(r.Values) != fmt.Sprint(want) {
					t.Fatalf("kept row %d = %v after the end, want %v", v, r.Values, want)
				}
			}
		})
	}
}

// Values and Kind read a changelog's rows as Row does; a static result's
// row (SHOW, DDL) reads through Values too; before the first Next and on
// a nil iterator Values is empty.
func TestValuesAndKindOfChangelogAndStaticResults(t *testing.T) {
	env := MustCreate(InStreamingMode())
	mustExec(t, env, "SET 'parallelism.default' = '1'")
	res, err := env.ExecuteSQL("SELECT k, COUNT(*) AS c FROM (VALUES (1), (1), (2), (1), (2)) AS t(k) GROUP BY k")
	if err != nil {
		t.Fatal(err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if v := it.Values(nil); len(v) != 0 {
		t.Fatalf("Values before Next = %v", v)
	}
	var all []string
	var vals []any
	for it.Next() {
		vals = it.Values(vals)
		all = append(all, types.NewRowWithKind(it.Kind(), vals...).String())
	}
	want := "+I[1, 1] -U[1, 1] +U[1, 2] +I[2, 1] -U[1, 2] +U[1, 3] -U[2, 1] +U[2, 2]"
	if got := strings.Join(all, " "); got != want || it.Err() != nil {
		t.Fatalf("read %s, %v; want %s", got, it.Err(), want)
	}

	res, err = env.ExecuteSQL("SHOW CURRENT CATALOG")
	if err != nil {
		t.Fatal(err)
	}
	sit, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	if !sit.Next() {
		t.Fatal("SHOW CURRENT CATALOG: no row")
	}
	if v := sit.Values(nil); len(v) != 1 || v[0] != "default_catalog" || sit.Kind() != types.Insert {
		t.Fatalf("SHOW CURRENT CATALOG: Values %v, Kind %v", v, sit.Kind())
	}

	var nilIt *RowIterator
	if v := nilIt.Values([]any{1}); len(v) != 0 || nilIt.Kind() != types.Insert {
		t.Fatalf("nil iterator: Values %v, Kind %v", v, nilIt.Kind())
	}
}
