package ui

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sort"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/workbench/ui/resulttab"
)

// BenchmarkStreamToTableView runs a datagen stream at 100,000 rows/s into
// the table view of the workbench for three seconds while the test
// goroutine plays the UI: a Tick every 100 ms, as the ticker does. It
// reports the UI time per refresh (mean and worst) and the rate at which
// the result received rows (the engine is never held up by the UI, so it
// should match the source's rate).
//
// The "noui" variants run the same stream without ticking: the rate the
// result receives then is the engine's alone, to compare with.
func BenchmarkStreamToTableView(b *testing.B) {
	for _, rate := range []int{100_000, 1_000_000} {
		for _, ui := range []bool{true, false} {
			name := fmt.Sprintf("rate%d", rate)
			if !ui {
				name += "/noui"
			}
			b.Run(name, func(b *testing.B) {
				for b.Loop() {
					benchStream(b, rate, 3*time.Second, ui)
				}
			})
		}
	}
}

func benchStream(b *testing.B, rate int, d time.Duration, tick bool) {
	a := test.NewApp()
	defer a.Quit()
	h := open(b, filepath.Join(b.TempDir(), "ws.riffle"))
	defer h.close()
	t := h.newTab("")
	t.ed.SetText(fmt.Sprintf(`CREATE TEMPORARY TABLE s (id BIGINT, price DOUBLE, name STRING, ts TIMESTAMP(3), qty INT)
WITH ('connector' = 'datagen', 'rows-per-second' = '%d', 'fields.name.length' = '10');
SELECT * FROM s`, rate))
	h.runAll()
	if len(h.wb.results) != 1 {
		b.Fatalf("no result: %s", h.messages())
	}
	rt := h.wb.results[0]
	var ui []time.Duration
	start := time.Now()
	first := rt.Res.Stats().Changes
	next := start
	for time.Since(start) < d {
		next = next.Add(100 * time.Millisecond)
		// Not a wait: the benchmark is a UI ticking at 10 Hz (its real
		// ticker's rate) while rows stream in for d of real time.
		time.Sleep(time.Until(next))
		if !tick {
			continue
		}
		t0 := time.Now()
		h.q.drain()
		h.wb.Tick()
		ui = append(ui, time.Since(t0))
	}
	elapsed := time.Since(start)
	got := rt.Res.Stats().Changes - first
	rt.Stop()
	h.waitDone(rt)
	b.ReportMetric(float64(got)/elapsed.Seconds(), "rows/s")
	if !tick {
		return
	}
	sort.Slice(ui, func(i, j int) bool { return ui[i] < ui[j] })
	var sum time.Duration
	for _, x := range ui {
		sum += x
	}
	b.ReportMetric(float64(sum.Microseconds())/float64(len(ui))/1000, "ui-ms/refresh")
	b.ReportMetric(float64(ui[len(ui)*9/10].Microseconds())/1000, "p90-ui-ms/refresh")
	b.ReportMetric(float64(ui[len(ui)-1].Microseconds())/1000, "max-ui-ms/refresh")
	b.ReportMetric(float64(rt.Grid().Fetches())/elapsed.Seconds(), "snapshots/s")
}

// BenchmarkOpenWorkbench measures New: opening a workspace and building
// the window's content (the init script then runs in the background).
func BenchmarkOpenWorkbench(b *testing.B) {
	a := test.NewApp()
	defer a.Quit()
	path := filepath.Join(b.TempDir(), "ws.riffle")
	h := open(b, path)
	h.close()
	q := &uiQueue{}
	for b.Loop() {
		w := test.NewWindow(nil)
		wb, err := New(w, Options{Workspace: path, DataDir: sharedDataDir(b), Do: q.Do, NoTicker: true})
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		<-wb.waitIdle()
		q.drain()
		wb.Close()
		w.Close()
		b.StartTimer()
	}
	runtime.GC()
}

// BenchmarkUIStallBatch1M runs a batch query whose 1,000,000 rows (BIGINT,
// DOUBLE, a 10-character STRING, TIMESTAMP(3), INT from a bounded datagen
// table) pour into a result tab as fast as the engine makes them, while the
// test goroutine plays the UI goroutine: every 5 ms it runs what
// background goroutines posted (fyne.Do), a Tick, a read of the grid's
// visible window (as scrolling does) and a typed key in the editor. Each of
// those is one piece of UI-goroutine work; the worst is the longest the
// window would have been frozen. It reports that worst stall, the 99th
// percentile, the worst wait for a snapshot of the result (the UI waiting
// on the producer) and the time to the last row. (The figures are
// reported, not asserted: they depend on the machine and its load.)
func BenchmarkUIStallBatch1M(b *testing.B) {
	a := test.NewApp()
	defer a.Quit()
	for b.Loop() {
		s := uiStallBatch(b, 1_000_000)
		b.ReportMetric(float64(s.worst.Microseconds())/1000, "worst-stall-ms")
		b.ReportMetric(float64(s.p99.Microseconds())/1000, "p99-stall-ms")
		b.ReportMetric(float64(s.snapshot.Microseconds())/1000, "worst-snapshot-ms")
		b.ReportMetric(s.took.Seconds(), "s-to-last-row")
	}
}

type stallFigures struct{ worst, p99, snapshot, took time.Duration }

func uiStallBatch(tb testing.TB, n int) stallFigures {
	h := open(tb, filepath.Join(tb.TempDir(), "ws.riffle"))
	defer h.close()
	t := h.newTab("")
	t.mode = modeBatch
	t.ed.SetText(fmt.Sprintf(`CREATE TEMPORARY TABLE big (id BIGINT, price DOUBLE, name STRING, ts TIMESTAMP(3), qty INT)
WITH ('connector' = 'datagen', 'number-of-rows' = '%d', 'fields.id.kind' = 'sequence',
      'fields.id.start' = '1', 'fields.id.end' = '%d', 'fields.name.length' = '10',
      'rows-per-second' = '1000000000');
SELECT * FROM big`, n, n))
	var stalls []time.Duration
	var snapshot time.Duration
	timed := func(f func()) {
		t0 := time.Now()
		f()
		stalls = append(stalls, time.Since(t0))
	}
	start := time.Now()
	t.ed.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift})
	var rt *resultTab
	for time.Since(start) < 2*time.Minute {
		for {
			h.q.mu.Lock()
			fns := h.q.fns
			h.q.fns = nil
			h.q.mu.Unlock()
			if len(fns) == 0 {
				break
			}
			for _, f := range fns {
				timed(f)
			}
		}
		timed(h.wb.Tick)
		if rt == nil && len(h.wb.results) > 0 {
			rt = h.wb.results[len(h.wb.results)-1]
		}
		if rt != nil {
			timed(func() {
				t0 := time.Now()
				mid := rt.Res.Len(results.TableView) / 2
				rt.Res.Snapshot(results.TableView, mid, mid+60, nil) // a scroll to the middle
				snapshot = max(snapshot, time.Since(t0))
			})
			timed(func() { t.ed.TypedRune(' ') })
			if !rt.IsRunning() {
				break
			}
		}
		// Not a wait: the time between two frames of the UI this
		// benchmark plays (the query runs on meanwhile; its end is the
		// event the loop stops on).
		time.Sleep(5 * time.Millisecond)
	}
	took := time.Since(start)
	if rt == nil || rt.State() != resulttab.Finished || rt.Res.Stats().Rows != n {
		tb.Fatalf("the query did not finish with %d rows: %s", n, h.messages())
	}
	sort.Slice(stalls, func(i, j int) bool { return stalls[i] < stalls[j] })
	return stallFigures{stalls[len(stalls)-1], stalls[len(stalls)*99/100], snapshot, took}
}
