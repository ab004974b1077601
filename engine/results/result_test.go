package results

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/riffle-sql/riffle/engine/types"
)

var kvCols = []Column{{"k", types.StringType()}, {"v", types.BigIntType()}}

// rowsOf renders a view as "k|v" lines (NULL as ∅) for comparisons.
func rowsOf(r *Result, v View) []string {
	s := r.Snapshot(v, 0, r.Len(v), nil)
	out := make([]string, len(s.Cells))
	for i, cells := range s.Cells {
		parts := make([]string, len(cells))
		for c, txt := range cells {
			if s.Nulls[i][c] {
				txt = "∅"
			}
			parts[c] = txt
		}
		line := strings.Join(parts, "|")
		if v == ChangelogView {
			line = s.Kinds[i].ShortString() + " " + line
		}
		out[i] = line
	}
	return out
}

func parseChange(t *testing.T, s string) (types.RowKind, []any) {
	op, rest, _ := strings.Cut(s, " ")
	kind, err := types.ParseRowKind(op)
	if err != nil {
		t.Fatal(err)
	}
	k, v, _ := strings.Cut(rest, ",")
	var key, val any
	if k != "null" {
		key = k
	}
	if v != "null" {
		var n int64
		fmt.Sscan(v, &n)
		val = n
	}
	return kind, []any{key, val}
}

// User report 23: table mode and changelog mode must agree, and matching
// retractions by full row value must handle duplicates and retractions of
// an earlier duplicate. The expected table follows Flink's SQL Client:
// retractions remove the newest equal row, updates move a row to the end.
func TestMaterialisationOfRecordedChangelog(t *testing.T) {
	changes := []string{
		"+I a,1", "+I b,1", "+I a,1", // duplicate rows
		"-U a,1", "+U a,2", // update of one of the duplicates (the newest goes)
		"+I c,null", "+I null,7",
		"-U b,1", "+U b,5",
		"-D a,1",    // retract the earlier duplicate
		"-D a,1",    // nothing left to match: ignored, counted
		"+I c,3",    // +I of c again
		"-D c,null", // NULL matches NULL
		"-U b,5", "+U b,6",
		"+I d,1", "-D d,1", "+I d,1", // delete then re-insert
	}
	r := New(kvCols, Options{})
	for _, c := range changes {
		k, v := parseChange(t, c)
		if err := r.Add(k, v); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{"a|2", "∅|7", "c|3", "b|6", "d|1"}
	if got := rowsOf(r, TableView); !slices.Equal(got, want) {
		t.Errorf("table view\n got %q\nwant %q", got, want)
	}
	st := r.Stats()
	if st.Unmatched != 1 || st.Changes != int64(len(changes)) || st.Rows != 5 {
		t.Errorf("stats %+v", st)
	}
	log := rowsOf(r, ChangelogView)
	if len(log) != len(changes) || log[3] != "-U a|1" || log[6] != "+I ∅|7" {
		t.Errorf("changelog view %q", log)
	}
}

// reference is the SQL Client's algorithm written naively: a list where
// inserts append, retractions remove the last equal row and the cap drops
// the first row.
type reference struct {
	rows      [][2]any
	max       int
	dropped   int
	unmatched int
}

func (m *reference) apply(kind types.RowKind, row [2]any) {
	if kind.IsRetract() {
		for i := len(m.rows) - 1; i >= 0; i-- {
			if types.ValuesEqual(m.rows[i][0], row[0]) && types.ValuesEqual(m.rows[i][1], row[1]) {
				m.rows = slices.Delete(m.rows, i, i+1)
				return
			}
		}
		m.unmatched++
		return
	}
	if m.max > 0 && len(m.rows) >= m.max {
		m.rows = m.rows[1:]
		m.dropped++
	}
	m.rows = append(m.rows, row)
}

func (m *reference) lines() []string {
	out := make([]string, len(m.rows))
	for i, r := range m.rows {
		k, v := "∅", "∅"
		if r[0] != nil {
			k = r[0].(string)
		}
		if r[1] != nil {
			v = fmt.Sprint(r[1])
		}
		out[i] = k + "|" + v
	}
	return out
}

// Random changelogs (with duplicates, NULLs, unmatched retractions, caps and
// enough deletes to trigger compaction) give exactly the reference's table.
func TestMaterialisationMatchesReference(t *testing.T) {
	for _, tc := range []struct {
		name      string
		ops, keys int
		max       int
	}{
		{"small", 2000, 5, 0},
		{"compaction", 60000, 40, 0},
		{"cap", 30000, 30, 100},
		{"cap-large", 50000, 3000, 9000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(1, uint64(tc.ops)))
			r := New(kvCols, Options{MaxTableRows: tc.max, MaxChangelogRows: 500})
			ref := &reference{max: tc.max}
			var live [][2]any // rows likely present, to retract
			for i := 0; i < tc.ops; i++ {
				var row [2]any
				kind := types.Insert
				switch p := rng.IntN(10); {
				case p < 4 && len(live) > 0: // retract a row that exists (maybe)
					j := rng.IntN(len(live))
					row = live[j]
					live = slices.Delete(live, j, j+1)
					kind = types.Delete
					if rng.IntN(2) == 0 {
						kind = types.UpdateBefore
					}
				case p == 4: // retract something random (may not exist)
					row = randomRow(rng, tc.keys)
					kind = types.Delete
				default:
					row = randomRow(rng, tc.keys)
					if rng.IntN(3) == 0 {
						kind = types.UpdateAfter
					}
					live = append(live, row)
				}
				ref.apply(kind, row)
				if err := r.Add(kind, row[:]); err != nil {
					t.Fatal(err)
				}
			}
			got, want := rowsOf(r, TableView), ref.lines()
			if !slices.Equal(got, want) {
				t.Fatalf("table differs from reference: %d rows vs %d; first diff at %d", len(got), len(want), firstDiff(got, want))
			}
			st := r.Stats()
			if st.Dropped != int64(ref.dropped) || st.Unmatched != int64(ref.unmatched) {
				t.Errorf("dropped %d unmatched %d, want %d and %d", st.Dropped, st.Unmatched, ref.dropped, ref.unmatched)
			}
			if st.ChangelogDropped != int64(tc.ops-500) || r.Len(ChangelogView) != 500 {
				t.Errorf("changelog: %d held, %d dropped", r.Len(ChangelogView), st.ChangelogDropped)
			}
		})
	}
}

func randomRow(rng *rand.Rand, keys int) [2]any {
	var row [2]any
	if rng.IntN(20) > 0 {
		row[0] = fmt.Sprintf("k%d", rng.IntN(keys))
	}
	if rng.IntN(20) > 0 {
		row[1] = int64(rng.IntN(4))
	}
	return row
}

func firstDiff(a, b []string) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

func TestTableCapDropsOldest(t *testing.T) {
	r := New(kvCols, Options{MaxTableRows: 3})
	for i := range 10 {
		r.Add(types.Insert, []any{fmt.Sprint(i), int64(i)})
	}
	if got := rowsOf(r, TableView); !slices.Equal(got, []string{"7|7", "8|8", "9|9"}) {
		t.Errorf("got %q", got)
	}
	s := r.Snapshot(TableView, 0, 10, nil)
	if s.Dropped != 7 || s.Total != 3 {
		t.Errorf("dropped %d total %d", s.Dropped, s.Total)
	}
	// A dropped row can no longer be retracted.
	r.Add(types.Delete, []any{"1", int64(1)})
	if st := r.Stats(); st.Unmatched != 1 || st.Rows != 3 {
		t.Errorf("stats %+v", st)
	}
}

func TestUnlimitedCaps(t *testing.T) {
	r := New(kvCols, Options{MaxTableRows: -1, MaxChangelogRows: -1})
	for i := range 3 * chunkRows {
		r.Add(types.Insert, []any{"x", int64(i)})
	}
	if st := r.Stats(); st.Rows != 3*chunkRows || st.Dropped != 0 || st.ChangelogDropped != 0 || r.Len(ChangelogView) != 3*chunkRows {
		t.Errorf("stats %+v", st)
	}
}

func TestChangelogViewKeepsLatest(t *testing.T) {
	r := New(kvCols, Options{MaxChangelogRows: 4})
	for i := range 20000 {
		kind := types.Insert
		if i%2 == 1 {
			kind = types.UpdateAfter
		}
		r.Add(kind, []any{"k", int64(i)})
	}
	got := rowsOf(r, ChangelogView)
	want := []string{"+I k|19996", "+U k|19997", "+I k|19998", "+U k|19999"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q", got)
	}
	s := r.Snapshot(ChangelogView, 1, 3, nil)
	if s.Dropped != 19996 || s.Total != 4 || s.From != 1 || len(s.Cells) != 2 || s.Kinds[0] != types.UpdateAfter {
		t.Errorf("snapshot %+v", s)
	}
}

func TestSnapshotSeparatesNullFromEmptyString(t *testing.T) {
	r := New(kvCols, Options{})
	r.Add(types.Insert, []any{"", nil})
	r.Add(types.Insert, []any{nil, int64(0)})
	r.Add(types.Insert, []any{"NULL", int64(1)})
	s := r.Snapshot(TableView, -5, 99, nil)
	if s.Total != 3 || len(s.Cells) != 3 {
		t.Fatalf("snapshot %+v", s)
	}
	if s.Cells[0][0] != "" || s.Nulls[0][0] || !s.Nulls[0][1] {
		t.Error("empty string shown as NULL or NULL not flagged")
	}
	if s.Cells[1][0] != "" || !s.Nulls[1][0] {
		t.Error("NULL not flagged")
	}
	if s.Cells[2][0] != "NULL" || s.Nulls[2][0] {
		t.Error("the string 'NULL' was taken for NULL")
	}
	// Reusing a snapshot gives the same answer.
	s2 := r.Snapshot(TableView, 1, 2, s)
	if s2 != s || s.From != 1 || len(s.Cells) != 1 || !s.Nulls[0][0] {
		t.Errorf("reused snapshot %+v", s)
	}
}

func TestWrongValueTypeIsReportedAndStoredAsNull(t *testing.T) {
	r := New(kvCols, Options{})
	if err := r.Add(types.Insert, []any{"a", "not a number"}); err == nil {
		t.Error("no error for a string in a BIGINT column")
	}
	s := r.Snapshot(TableView, 0, 1, nil)
	if !s.Nulls[0][1] || r.Stats().BadValues != 1 {
		t.Errorf("bad value not stored as NULL: %+v", s)
	}
}

func TestVersionPauseAndState(t *testing.T) {
	r := New(kvCols, Options{})
	v0 := r.Version()
	r.Add(types.Insert, []any{"a", int64(1)})
	if !r.NeedsRefresh(v0) {
		t.Error("change not seen")
	}
	r.SetPaused(true)
	drawn := r.Version()
	r.Add(types.Insert, []any{"b", int64(2)})
	if r.NeedsRefresh(drawn) || !r.Paused() {
		t.Error("paused view wants a refresh")
	}
	if r.Len(TableView) != 2 {
		t.Error("paused result stopped consuming")
	}
	r.SetPaused(false)
	if !r.NeedsRefresh(drawn) {
		t.Error("resume does not publish the latest rows")
	}
	if st, _ := r.State(); st != Running {
		t.Errorf("state %v", st)
	}
	r.Finish(fmt.Errorf("job failed: %w", context.Canceled))
	if st, err := r.State(); st != Canceled || !errors.Is(err, context.Canceled) {
		t.Errorf("state %v %v", st, err)
	}
	r.Finish(errors.New("boom"))
	if s := r.Snapshot(TableView, 0, 1, nil); s.State != Failed || s.Err == nil || s.State.String() != "FAILED" {
		t.Errorf("snapshot state %v %v", s.State, s.Err)
	}
}

func TestSortByTypedColumn(t *testing.T) {
	cols := []Column{{"name", types.StringType()}, {"n", types.IntType()}, {"x", types.DoubleType()},
		{"ts", types.TimestampType(3)}, {"d", types.DecimalType(10, 2)}}
	r := New(cols, Options{})
	day := func(d int) time.Time { return time.Date(2024, 1, d, 0, 0, 0, 0, time.UTC) }
	rows := [][]any{
		{"b", int32(10), 2.5, day(3), types.MustDecimal("10.00")},
		{"a", int32(9), nil, day(1), types.MustDecimal("-1.50")},
		{nil, int32(100), -1.0, nil, types.MustDecimal("2.25")},
		{"ä", nil, 10.0, day(2), nil},
		{"B", int32(-5), 2.5, day(5), types.MustDecimal("100.00")},
	}
	for _, row := range rows {
		r.Add(types.Insert, row)
	}
	if err := r.SortBy(1, false); !errors.Is(err, ErrRunning) {
		t.Fatalf("sorting a running result: %v", err)
	}
	r.Finish(nil)
	col := func(c int) []string {
		s := r.Snapshot(TableView, 0, 10, nil)
		out := make([]string, len(s.Cells))
		for i := range s.Cells {
			out[i] = s.Cells[i][c]
			if s.Nulls[i][c] {
				out[i] = "∅"
			}
		}
		return out
	}
	for _, tc := range []struct {
		col  int
		desc bool
		want []string
	}{
		{1, false, []string{"∅", "-5", "9", "10", "100"}}, // numeric, not text order; NULLS FIRST
		{1, true, []string{"100", "10", "9", "-5", "∅"}},  // DESC: NULLS LAST
		{0, false, []string{"∅", "B", "a", "b", "ä"}},     // UTF-8 byte order
		{2, false, []string{"∅", "-1.0", "2.5", "2.5", "10.0"}},
		{3, false, []string{"∅", "2024-01-01 00:00:00.000", "2024-01-02 00:00:00.000", "2024-01-03 00:00:00.000", "2024-01-05 00:00:00.000"}},
		{4, true, []string{"100.00", "10.00", "2.25", "-1.50", "∅"}},
	} {
		if err := r.SortBy(tc.col, tc.desc); err != nil {
			t.Fatal(err)
		}
		if got := col(tc.col); !slices.Equal(got, tc.want) {
			t.Errorf("sort by %d desc=%v: got %q want %q", tc.col, tc.desc, got, tc.want)
		}
	}
	// Ties keep arrival order: 2.5 of "b" before 2.5 of "B".
	r.SortBy(2, false)
	if got := col(0); got[2] != "b" || got[3] != "B" {
		t.Errorf("unstable sort: %q", got)
	}
	if s := r.Snapshot(TableView, 0, 1, nil); s.SortCol != 2 || s.Desc {
		t.Errorf("snapshot sort %d %v", s.SortCol, s.Desc)
	}
	r.ClearSort()
	if got := col(0); !slices.Equal(got, []string{"b", "a", "∅", "ä", "B"}) {
		t.Errorf("arrival order not restored: %q", got)
	}
}

func TestFreezeIsACopyInDisplayOrder(t *testing.T) {
	r := New(kvCols, Options{})
	for i := range 3*chunkRows + 5 {
		r.Add(types.Insert, []any{fmt.Sprint(i % 7), int64(i)})
	}
	r.Add(types.Delete, []any{"0", int64(0)})
	f := r.Freeze(TableView)
	r.Add(types.Insert, []any{"late", int64(-1)}) // not in the frozen copy
	if f.Len() != 3*chunkRows+4 {
		t.Fatalf("frozen %d rows", f.Len())
	}
	if txt, null := f.Text(0, 1); txt != "1" || null {
		t.Errorf("first row %q", txt)
	}
	last := f.Len() - 1
	if v := f.Value(last, 1); v != int64(3*chunkRows+4) {
		t.Errorf("last value %v", v)
	}
	log := r.Freeze(ChangelogView)
	if log.Columns()[0].Name != "op" || log.Len() != DefaultMaxChangelogRows {
		t.Errorf("changelog freeze: %v, %d rows", log.Columns()[0], log.Len())
	}
	if op, _ := log.Text(log.Len()-1, 0); op != "+I" {
		t.Errorf("op %q", op)
	}
	if op, _ := log.Text(log.Len()-2, 0); op != "-D" {
		t.Errorf("op %q", op)
	}
}

func TestAddRecord(t *testing.T) {
	mem := memory.NewGoAllocator()
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Millisecond}, Nullable: true},
		{Name: "d", Type: &arrow.Decimal128Type{Precision: 10, Scale: 2}, Nullable: true},
		{Name: "tags", Type: arrow.ListOf(arrow.BinaryTypes.String), Nullable: true},
	}, nil)
	b := array.NewRecordBuilder(mem, schema)
	defer b.Release()
	b.Field(0).(*array.Int64Builder).AppendValues([]int64{1, 2, 1}, []bool{true, true, true})
	b.Field(1).(*array.StringBuilder).AppendValues([]string{"x", "", "x"}, []bool{true, false, true})
	ts := arrow.Timestamp(time.Date(2024, 1, 31, 12, 0, 0, 123e6, time.UTC).UnixMilli())
	b.Field(2).(*array.TimestampBuilder).AppendValues([]arrow.Timestamp{ts, ts, ts}, nil)
	db := b.Field(3).(*array.Decimal128Builder)
	db.Append(types.MustDecimal("12.50").Unscaled)
	db.AppendNull()
	db.Append(types.MustDecimal("12.50").Unscaled)
	lb := b.Field(4).(*array.ListBuilder)
	for range 3 {
		lb.Append(true)
		lb.ValueBuilder().(*array.StringBuilder).AppendValues([]string{"a", "b"}, nil)
	}
	rec := b.NewRecordBatch()
	defer rec.Release()

	cols := []Column{{"id", types.BigIntType()}, {"name", types.StringType()}, {"ts", types.TimestampType(3)},
		{"d", types.DecimalType(10, 2)}, {"tags", types.ArrayType(types.StringType())}}
	r := New(cols, Options{})
	if err := r.AddRecord(rec, []types.RowKind{types.Insert, types.Insert, types.Delete}); err != nil {
		t.Fatal(err)
	}
	got := r.Snapshot(TableView, 0, 10, nil)
	if got.Total != 1 || got.Cells[0][0] != "2" || !got.Nulls[0][1] || got.Cells[0][2] != "2024-01-31 12:00:00.123" ||
		!got.Nulls[0][3] || got.Cells[0][4] != "[a, b]" {
		t.Errorf("record rows %+v", got)
	}
	if err := r.AddRecord(rec, []types.RowKind{types.Insert}); err == nil {
		t.Error("kinds of the wrong length accepted")
	}
}

// One writer and several snapshot readers at once (run with -race).
func TestConcurrentWriterAndReaders(t *testing.T) {
	r := New(kvCols, Options{MaxTableRows: 5000, MaxChangelogRows: 1000})
	const n = 40000
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := range n {
			k := fmt.Sprint(i % 50)
			r.Add(types.Insert, []any{k, int64(i)})
			if i%3 == 0 {
				r.Add(types.UpdateBefore, []any{k, int64(i)})
				r.Add(types.UpdateAfter, []any{k, int64(-i)})
			}
		}
		r.Finish(nil)
	}()
	for range 3 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var s *Snapshot
			var drawn uint64
			for {
				if !r.NeedsRefresh(drawn) {
					// not a wait: the reader plays a UI whose ticker
					// (sped up) polls NeedsRefresh between redraws
					time.Sleep(50 * time.Microsecond)
					continue
				}
				s = r.Snapshot(TableView, 100, 150, s)
				drawn = s.Version
				for i := range s.Cells {
					if len(s.Cells[i]) != 2 || (s.Cells[i][0] == "" && !s.Nulls[i][0]) {
						t.Errorf("torn row %q", s.Cells[i])
						return
					}
				}
				_ = r.Snapshot(ChangelogView, 0, 20, nil)
				if s.State == Finished {
					return
				}
			}
		}()
	}
	wg.Wait()
	if st := r.Stats(); st.Rows != 5000 || st.Changes != n+2*((n+2)/3) {
		t.Errorf("stats %+v", st)
	}
}

// A one-row result updated over and over (a streaming COUNT(*)) keeps
// appending to one chunk: the dead tail is reused, not replaced by a fresh
// chunk for every update (which allocated ~9 GB for 50,000 updates).
func TestRunningCountReusesItsChunk(t *testing.T) {
	r := New(kvCols, Options{})
	r.Add(types.Insert, []any{"n", int64(1)})
	tail := r.tab.chunks[0]
	for i := int64(2); i <= 1000; i++ {
		r.Add(types.UpdateBefore, []any{"n", i - 1})
		r.Add(types.UpdateAfter, []any{"n", i})
	}
	if len(r.tab.chunks) != 1 || r.tab.chunks[0] != tail {
		t.Errorf("%d chunks, the first one new: %v", len(r.tab.chunks), r.tab.chunks[0] != tail)
	}
	if got := rowsOf(r, TableView); strings.Join(got, ";") != "n|1000" {
		t.Errorf("table view %q", got)
	}
	// past a chunk's worth of updates, the dead chunks are freed
	for i := int64(1001); i <= 3*chunkRows; i++ {
		r.Add(types.UpdateBefore, []any{"n", i - 1})
		r.Add(types.UpdateAfter, []any{"n", i})
	}
	if n := len(r.tab.chunks); n > 2 || r.tab.live != 1 {
		t.Errorf("%d chunks, %d live rows", n, r.tab.live)
	}
	if got := rowsOf(r, TableView); strings.Join(got, ";") != fmt.Sprintf("n|%d", 3*chunkRows) {
		t.Errorf("table view %q", got)
	}
}
