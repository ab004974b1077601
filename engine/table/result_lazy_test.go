package table

import (
	"strconv"
	"strings"
	"testing"
)

// A reader that only counts rows (Next without Row) converts none of them
// to Go values: no converter and no conversion goroutines are made, and
// every row is counted.
func TestCollectCountingConvertsNothing(t *testing.T) {
	const n = 50000
	res := sequenceResult(t, n)
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	got := 0
	for it.Next() {
		got++
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	if got != n {
		t.Fatalf("%d rows, want %d", got, n)
	}
	if it.conv != nil || it.conversion != nil || it.rows != nil {
		t.Fatalf("counting converted rows: converter %v, conversion %v, %d rows", it.conv != nil, it.conversion != nil, len(it.rows))
	}
}

// Rows read after rows only counted are the right ones, in order: the
// first Row converts the current batch and has the rest converted ahead
// on several goroutines; Row twice on one row returns the same row.
func TestCollectRowAfterCountedRows(t *testing.T) {
	const n, skip = 50000, 20000 // skip crosses several batches
	res := sequenceResult(t, n)
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	pos := 0
	for pos < skip && it.Next() {
		pos++
	}
	for it.Next() {
		pos++
		r := it.Row()
		if v, s := r.Values[0], r.Values[1]; v != int64(pos) || s != strconv.Itoa(pos) {
			t.Fatalf("row %d = (%v, %v), want (%d, %q)", pos, v, s, pos, strconv.Itoa(pos))
		}
		if len(r.Names) != 2 || r.Names[0] != "v" {
			t.Fatalf("row %d names %v", pos, r.Names)
		}
		if again := it.Row(); again != r {
			t.Fatalf("row %d: a second Row returned another row %v", pos, again)
		}
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	if pos != n {
		t.Fatalf("%d rows, want %d", pos, n)
	}
	if it.conversion == nil {
		t.Fatal("rows read after the first Row were not converted ahead")
	}
}

// With one converter (on Next's goroutine), reading every third row gives
// those rows; Row is nil before the first Next and stays the last row
// after the end.
func TestCollectRowOfSomeRowsOneConverter(t *testing.T) {
	const n = 30000
	res := sequenceResult(t, n)
	res.converters = 1
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	if r := it.Row(); r != nil {
		t.Fatalf("Row before Next = %v", r)
	}
	pos := 0
	for it.Next() {
		pos++
		if pos%3 != 0 {
			continue
		}
		if r := it.Row(); r.Values[0] != int64(pos) {
			t.Fatalf("row %d = %v", pos, r)
		}
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	if pos != n || it.conversion != nil {
		t.Fatalf("%d rows (want %d), conversion started %v", pos, n, it.conversion != nil)
	}
	if r := it.Row(); r == nil || r.Values[0] != int64(n) {
		t.Fatalf("Row after the end = %v, want the last row", r)
	}
}

// The RowKind of a changelog's rows survives rows skipped without Row:
// the rows read are the ones a full read gives at those positions.
func TestCollectRowKeepsKindsOfRowsRead(t *testing.T) {
	query := func() *TableResult {
		env := MustCreate(InStreamingMode())
		mustExec(t, env, "SET 'parallelism.default' = '1'")
		res, err := env.ExecuteSQL("SELECT k, COUNT(*) AS c FROM (VALUES (1), (1), (2), (1), (2)) AS t(k) GROUP BY k")
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	it, err := query().Collect()
	if err != nil {
		t.Fatal(err)
	}
	var all []string
	for it.Next() {
		all = append(all, it.Row().String())
	}
	it.Close()
	want := "+I[1, 1] -U[1, 1] +U[1, 2] +I[2, 1] -U[1, 2] +U[1, 3] -U[2, 1] +U[2, 2]"
	if got := strings.Join(all, " "); got != want || it.Err() != nil {
		t.Fatalf("full read %s, %v; want %s", got, it.Err(), want)
	}
	it, err = query().Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	for i := 0; it.Next(); i++ {
		if i%2 == 0 {
			continue
		}
		if got := it.Row().String(); got != all[i] {
			t.Fatalf("row %d = %s, want %s (full read %v)", i, got, all[i], all)
		}
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
}
