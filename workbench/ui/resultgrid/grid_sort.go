package resultgrid

import (
	"context"
	"errors"
	"fmt"

	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// Sorting in the grid. A sort of more than asyncSortRows rows (when Do is
// set) runs on its own goroutine with results.SortByContext: the UI
// goroutine only starts it, shows its progress (OnSortProgress, at most
// once a percent) and installs the order when it is done, so input is
// handled while a million rows are sorted. CancelSort (the result tab's
// Cancel button, or Esc in the grid) stops it; the grid keeps the order it
// had. One sort runs at a time: a header tap during a sort is ignored.

// sortJob is the background sort in progress (cancel == nil: none).
type sortJob struct {
	cancel context.CancelFunc
	gen    int // which sort the progress closures belong to
	shown  int // the last percent shown
	// hook, when set, runs on the sorting goroutine before it sorts (tests
	// hold a sort there).
	hook func(ctx context.Context)
}

// Sort orders the table view by data column dc (desc: descending): on the
// UI goroutine when the result is small, else in the background.
func (g *Grid) Sort(dc int, desc bool) {
	if g.Sorting() {
		return
	}
	if err := g.Unsortable(); err != nil {
		g.SortFailed(err)
		return
	}
	if dc < 0 || dc >= len(g.cols) {
		return
	}
	if g.Do == nil || g.total <= g.asyncSortRows {
		g.sortEnded(g.res.SortBy(dc, desc))
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	g.sort.cancel = cancel
	g.sort.gen++
	g.sort.shown = 0
	gen, hook, do, res := g.sort.gen, g.sort.hook, g.Do, g.res
	order := "ascending"
	if desc {
		order = "descending"
	}
	g.status(fmt.Sprintf("Sorting %s rows by %s %s… (Esc cancels)", widgets.GroupDigits(g.total), g.cols[dc].Name, order))
	g.sortProgress(true, 0)
	go func() {
		if hook != nil {
			hook(ctx)
		}
		last := 0 // percent posted to the UI goroutine
		err := res.SortByContext(ctx, dc, desc, func(done, total int64) {
			if pct := int(done * 100 / max(total, 1)); pct > last {
				last = pct
				do(func() {
					if g.sort.gen == gen && g.Sorting() && pct > g.sort.shown {
						g.sort.shown = pct
						g.sortProgress(true, float64(pct)/100)
					}
				})
			}
		})
		do(func() {
			if g.sort.gen == gen {
				g.sort.cancel()
				g.sort.cancel = nil
				g.sortEnded(err)
			}
		})
	}()
}

// ClearSort returns the table view to arrival order (at once: nothing is
// sorted).
func (g *Grid) ClearSort() {
	if g.Sorting() {
		return
	}
	g.res.ClearSort()
	g.sortEnded(nil)
}

// CancelSort stops a background sort; the grid keeps the order it had.
func (g *Grid) CancelSort() {
	if g.sort.cancel != nil {
		g.sort.cancel()
	}
}

// SetSortHook sets a function the next background sorts call on their
// goroutine before sorting, with the sort's context (for tests: a sort
// held there while the test feeds input).
func (g *Grid) SetSortHook(hook func(ctx context.Context)) { g.sort.hook = hook }

// sortEnded shows the outcome of a sort on the UI goroutine.
func (g *Grid) sortEnded(err error) {
	g.sortProgress(false, 0)
	switch {
	case errors.Is(err, context.Canceled):
		g.status("Sort cancelled: the previous order is kept")
		return
	case err != nil:
		g.status("")
		g.SortFailed(err)
		return
	}
	if g.frozen != nil {
		g.frozen = g.res.Freeze(g.view)
	}
	g.RefreshFrame()
	g.status("")
}

func (g *Grid) status(s string) {
	if g.OnStatus != nil {
		g.OnStatus(s)
	}
}

func (g *Grid) sortProgress(sorting bool, done float64) {
	if g.OnSortProgress != nil {
		g.OnSortProgress(sorting, done)
	}
}
