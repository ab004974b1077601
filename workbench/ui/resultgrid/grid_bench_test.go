package resultgrid

import (
	"fmt"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/types"
)

// bigResult is a finished result of n rows × 5 columns (BIGINT, DOUBLE,
// a 10-character STRING, TIMESTAMP(3), INT), as in engine/results' benchmarks.
func bigResult(tb testing.TB, n int) *results.Result {
	tb.Helper()
	r := results.New([]results.Column{
		{Name: "id", Type: types.BigIntType().NotNull()},
		{Name: "price", Type: types.DoubleType()},
		{Name: "name", Type: types.StringType()},
		{Name: "ts", Type: types.TimestampType(3)},
		{Name: "qty", Type: types.IntType()},
	}, results.Options{})
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	rows := make([]*types.Row, 0, 4096)
	for i := 0; i < n; i++ {
		rows = append(rows, &types.Row{Kind: types.Insert, Values: []any{
			int64(i), float64(i) * 1.25, fmt.Sprintf("name-%05d", i%100000), base.Add(time.Duration(i) * time.Millisecond), int32(i % 1000),
		}})
		if len(rows) == cap(rows) {
			if err := r.AddRows(rows); err != nil {
				tb.Fatal(err)
			}
			rows = rows[:0]
		}
	}
	if err := r.AddRows(rows); err != nil {
		tb.Fatal(err)
	}
	r.Finish(nil)
	return r
}

// BenchmarkGridRefresh1M measures one grid refresh on the UI goroutine —
// a snapshot of the rows around the visible ones and the redraw of every
// visible cell — over a 1,000,000-row × 5-column result, in a grid of the
// size the workbench gives it (1,100 × 400 px), at the top and in the
// middle of the first page.
func BenchmarkGridRefresh1M(b *testing.B) {
	a := test.NewApp()
	defer a.Quit()
	r := bigResult(b, 1_000_000)
	for _, at := range []int{0, 150_000} {
		b.Run(fmt.Sprintf("row%d", at), func(b *testing.B) {
			g := New(r, results.TableView)
			w := test.NewWindow(g)
			defer w.Close()
			w.Resize(fyne.NewSize(1100, 400))
			g.RefreshFrame()
			g.ScrollTo(widget.TableCellID{Row: at, Col: 1})
			g.RefreshFrame()
			b.ResetTimer()
			for b.Loop() {
				g.snap = nil // force a new snapshot, as after a change
				g.RefreshFrame()
			}
			if got, _, _ := g.CellText(at, 1); got != fmt.Sprint(at) {
				b.Fatalf("cell (%d, id) = %q", at, got)
			}
		})
	}
}

// BenchmarkGridRefreshWide measures a refresh of a 100,000-row ×
// 30-column result in a full-screen grid (beekeeper #135: 8k × 20 took
// seconds there).
func BenchmarkGridRefreshWide(b *testing.B) {
	a := test.NewApp()
	defer a.Quit()
	cols := make([]results.Column, 30)
	for i := range cols {
		t := types.BigIntType()
		if i%3 == 1 {
			t = types.StringType()
		}
		cols[i] = results.Column{Name: fmt.Sprintf("column_%02d", i), Type: t}
	}
	r := results.New(cols, results.Options{})
	row := make([]any, len(cols))
	for i := 0; i < 100_000; i++ {
		for c := range row {
			if c%3 == 1 {
				row[c] = fmt.Sprintf("text %d", i+c)
			} else {
				row[c] = int64(i * c)
			}
		}
		if err := r.Add(types.Insert, row); err != nil {
			b.Fatal(err)
		}
	}
	r.Finish(nil)
	g := New(r, results.TableView)
	w := test.NewWindow(g)
	defer w.Close()
	w.Resize(fyne.NewSize(1600, 900))
	g.RefreshFrame()
	b.Run("refresh", func(b *testing.B) {
		for b.Loop() {
			g.snap = nil
			g.RefreshFrame()
		}
	})
	b.Run("scroll", func(b *testing.B) {
		row := 0
		for b.Loop() {
			row = (row + 997) % 100_000
			g.ScrollTo(widget.TableCellID{Row: row, Col: 1 + row%30})
		}
	})
	b.Run("resize", func(b *testing.B) {
		i := 0
		for b.Loop() {
			i++
			w.Resize(fyne.NewSize(1400+float32(i%200), 800+float32(i%100)))
		}
	})
}

// TestPageFitsFloat32Geometry checks that a grid page stays within the
// pixel range float32 positions hold exactly (2^24), with the theme's row
// height: beyond that Fyne's layout would drift.
func TestPageFitsFloat32Geometry(t *testing.T) {
	test.NewTempApp(t)
	th := test.Theme()
	cell := NewCell()
	row := cell.MinSize().Height + th.Size(theme.SizeNamePadding)
	if span := float64(DefaultPageSize) * float64(row); span >= 1<<24 {
		t.Errorf("a page of %d rows spans %.0f px, more than 2^24", DefaultPageSize, span)
	}
}
