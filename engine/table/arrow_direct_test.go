package table

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/connector"
)

func collectStrings(t *testing.T, tbl *Table) []string {
	t.Helper()
	res, err := tbl.Execute()
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

// Records from ToArrow have the columns' own Arrow types, so FromArrow
// hands their arrays to the job as batches; the results are those of the
// row-by-row path, for every query shape and on every run.
func TestFromArrowDirectBatches(t *testing.T) {
	env := MustCreate(InBatchMode())
	src, err := env.SQLQuery("SELECT * FROM (VALUES (1, 'a', 2.5, TIMESTAMP '2020-01-01 10:00:00'), (2, 'b', CAST(NULL AS DOUBLE), TIMESTAMP '2020-01-02 10:00:00'), (3, 'a', 4.0, TIMESTAMP '2020-01-03 10:00:00')) AS t(id, k, v, ts)")
	if err != nil {
		t.Fatal(err)
	}
	rec, err := src.ToArrow()
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := env.FromArrow([]arrow.RecordBatch{rec, rec}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if ds := lastStream(t, env); ds.arrow == nil {
		t.Fatal("FromArrow of matching types did not take the direct path")
	}
	env.CreateTemporaryView("mem", tbl)
	for _, c := range []struct{ q, want string }{
		{"SELECT k, COUNT(*), SUM(v) FROM mem GROUP BY k ORDER BY k", "a 4 13 | b 2 <nil>"},
		{"SELECT ts, id FROM mem WHERE id > 2", "2020-01-03 10:00:00 +0000 UTC 3 | 2020-01-03 10:00:00 +0000 UTC 3"},
		{"SELECT COUNT(*) FROM mem", "6"},
	} {
		for run := 0; run < 2; run++ {
			q, _ := env.SQLQuery(c.q)
			if got := strings.Join(collectStrings(t, q), " | "); got != c.want {
				t.Errorf("%s (run %d): got %s, want %s", c.q, run, got, c.want)
			}
		}
	}
}

// lastStream returns the most recently registered DataStream.
func lastStream(t *testing.T, _ *TableEnvironment) *DataStream {
	t.Helper()
	streamRegistry.Lock()
	defer streamRegistry.Unlock()
	var best *streamSource
	var bestID string
	for id, s := range streamRegistry.m {
		if len(id) > len(bestID) || len(id) == len(bestID) && id > bestID {
			best, bestID = s, id
		}
	}
	if best == nil {
		t.Fatal("no stream registered")
	}
	return best.ds
}

// Sliced records (an array offset) take the row path and read correctly.
func TestFromArrowSlicedRecords(t *testing.T) {
	env := MustCreate(InBatchMode())
	src, _ := env.SQLQuery("SELECT * FROM (VALUES (1, 'a'), (2, 'bb'), (3, 'ccc'), (4, 'dddd')) AS t(id, s)")
	rec, err := src.ToArrow()
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := env.FromArrow([]arrow.RecordBatch{rec.NewSlice(1, 3)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	env.CreateTemporaryView("sl", tbl)
	q, _ := env.SQLQuery("SELECT COUNT(*), SUM(id), MAX(s) FROM sl")
	if got := strings.Join(collectStrings(t, q), " | "); got != "2 5 ccc" {
		t.Errorf("got %s", got)
	}
}

// lastStreamSource returns the most recently registered stream source.
func lastStreamSource(t *testing.T) *streamSource {
	t.Helper()
	ds := lastStream(t, nil)
	streamRegistry.Lock()
	defer streamRegistry.Unlock()
	for _, s := range streamRegistry.m {
		if s.ds == ds {
			return s
		}
	}
	t.Fatal("no stream source")
	return nil
}

// A scan's splits open with the same columns: the check that the records'
// arrays can be handed over as they are runs once per set of columns, and
// its answer holds for every split, at parallelism 2 with the direct path
// (every record fit) and with the row path (one record sliced).
func TestFromArrowReaderCheckedOncePerColumns(t *testing.T) {
	src := MustCreate(InBatchMode())
	q := mustQuery(t, src, "SELECT * FROM (VALUES (1, 'a'), (2, 'bb'), (3, 'a'), (4, 'dddd'), (5, 'a'), (6, 'bb'), (7, 'a')) AS t(id, s)")
	rec, err := q.ToArrow()
	if err != nil {
		t.Fatal(err)
	}
	parts := arrowParts(t, rec, 1)
	sliced := append(append([]arrow.RecordBatch(nil), parts[:6]...), rec.NewSlice(6, 7))
	for _, c := range []struct {
		name   string
		recs   []arrow.RecordBatch
		direct bool
	}{{"records as they are", parts, true}, {"last record sliced", sliced, false}} {
		env := MustCreate(InBatchMode())
		env.Config().Set("parallelism.default", "2")
		tbl, err := env.FromArrow(c.recs, nil)
		if err != nil {
			t.Fatal(err)
		}
		env.CreateTemporaryView("mem", tbl)
		impl := &streamSourceImpl{s: lastStreamSource(t), schema: q.ResolvedSchema()}
		splits, err := impl.Splits(t.Context())
		if err != nil || len(splits) != 7 {
			t.Fatalf("%s: splits %v, %v; want 7", c.name, splits, err)
		}
		spec := connector.ReadSpec{Columns: []int{1, 0}}
		for _, sp := range splits {
			r, err := impl.Open(t.Context(), sp, spec)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := r.(*arrowRecordReader); ok != c.direct && sp.(arrowSplit).First == 0 {
				t.Errorf("%s: split %v read as Arrow records: %v, want %v", c.name, sp, ok, c.direct)
			}
			r.Close()
		}
		impl.Open(t.Context(), splits[0], connector.ReadSpec{Columns: []int{0}})
		if len(impl.arrowCols) != 2 {
			t.Errorf("%s: %d checks kept, want 2 (one per set of columns): %v", c.name, len(impl.arrowCols), impl.arrowCols)
		}
		got := collectStrings(t, mustQuery(t, env, "SELECT s, COUNT(*), SUM(id) FROM mem GROUP BY s ORDER BY s"))
		if want := "a 4 16|bb 2 8|dddd 1 4"; strings.Join(got, "|") != want {
			t.Errorf("%s: got %v, want %s", c.name, got, want)
		}
	}
}
