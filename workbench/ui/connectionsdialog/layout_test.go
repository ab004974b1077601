package connectionsdialog

import (
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/persistence"

	"github.com/riffle-sql/riffle/workbench/ui/internal/dialogtest"
)

// TestDialogKeepsItsButtonsInsideItsBox shows the dialog, then lays its
// pop-up out again as the desktop canvas does when the dialog's minimum
// size has changed (Canvas.EnsureMinSize calls the pop-up renderer's
// Layout, with no Refresh after it): New, Delete and the status line must
// stay inside the dialog's box, above its Close button. Fyne's dialog
// layout sizes its content from where the Close button was before that
// layout, so a dialog whose content's minimum size changes after it is
// shown (the gateway form, counted at Show, hidden when the embedded
// connection is selected; a long status) kept its old content height and
// drew New and Delete below its box.
func TestDialogKeepsItsButtonsInsideItsBox(t *testing.T) {
	test.NewTempApp(t)
	win := test.NewTempWindow(t, widget.NewLabel(""))
	win.Resize(fyne.NewSize(1400, 900))
	h := &fakeHost{current: embedded, posted: make(chan func(), 1), conns: []Entry{
		{Config: persistence.Connection{Name: embedded}, Embedded: true, Info: "Jobs run at parallelism 2."},
		{Config: persistence.Connection{Name: "gw", URL: "http://h:8083"}},
	}}
	cd := Show(win, h)
	defer cd.Hide()
	pop := win.Canvas().Overlays().Top().(*widget.PopUp)
	check := dialogtest.BoxCheck(t, win, true)
	buttons := map[string]fyne.CanvasObject{"New": cd.newBtn, "Delete": cd.delBtn}
	check("embedded connection shown", buttons)

	cd.Select("gw")
	check("gateway connection shown", buttons)
	cd.fail(errors.New("cannot reach the SQL Gateway: " + strings.Repeat("a long reason, ", 40)))
	// the status line is in the settings' scroll, which clips it: the
	// scroll must stay in the box
	settings := findSplit(pop.Content).Trailing
	check("long status", map[string]fyne.CanvasObject{"New": cd.newBtn, "Delete": cd.delBtn, "the settings panel": settings})

	cd.Select(embedded)
	check("embedded connection shown again", buttons)
}

// showAt shows the dialog in a window of size w×h, with the embedded
// connection and a gateway one, and returns the dialog's pop-up and the
// split between the list and the settings.
func showAt(t *testing.T, w, h float32) (*Dialog, *widget.PopUp, *container.Split) {
	t.Helper()
	test.NewTempApp(t)
	win := test.NewTempWindow(t, widget.NewLabel(""))
	win.Resize(fyne.NewSize(w, h))
	host := &fakeHost{current: embedded, posted: make(chan func(), 1), conns: []Entry{
		{Config: persistence.Connection{Name: embedded}, Embedded: true,
			Info: "Jobs run at parallelism 2: parallelism.default is not set, so it is the number of cores."},
		{Config: persistence.Connection{Name: "gw", URL: "http://h:8083"}},
	}}
	cd := Show(win, host)
	t.Cleanup(cd.Hide)
	pop, ok := win.Canvas().Overlays().Top().(*widget.PopUp)
	if !ok {
		t.Fatal("the dialog is not the top overlay")
	}
	split := findSplit(pop.Content)
	if split == nil {
		t.Fatal("no split in the dialog")
	}
	return cd, pop, split
}

// relayout lays the pop-up and the split out again, as the canvas does
// after a minimum size changed.
func relayout(pop *widget.PopUp, split *container.Split) {
	test.WidgetRenderer(pop).Layout(pop.Canvas.Size())
	split.Refresh()
}

// TestSettingsScrollFollowsTheirContent: a settings panel scrolled down to
// a long error showed, after Save replaced the error with "Saved.", blank
// space where the error was and hid Name and URL above, with no scroll bar
// (there was nothing left to scroll): the scroll kept its offset while its
// content shrank. Save, another connection and New must leave the offset
// within the content (at the top when it all fits).
func TestSettingsScrollFollowsTheirContent(t *testing.T) {
	cd, pop, split := showAt(t, 1400, 900)
	scroll, ok := split.Trailing.(*container.Scroll)
	if !ok {
		t.Fatalf("the settings are a %T, not a scroll", split.Trailing)
	}
	inside := func(when string) {
		t.Helper()
		// no split.Refresh here: that refreshes the scroll, which clamps
		// its offset, and nothing in the dialog did that
		test.WidgetRenderer(pop).Layout(pop.Canvas.Size())
		max := fyne.Max(0, scroll.Content.MinSize().Height-scroll.Size().Height)
		if scroll.Offset.Y > max {
			t.Errorf("%s: scrolled to y %.0f, past the content's end (at most %.0f)", when, scroll.Offset.Y, max)
		}
		if max == 0 && scroll.Offset.Y != 0 {
			t.Errorf("%s: the settings fit, but are scrolled to y %.0f", when, scroll.Offset.Y)
		}
	}
	scrollDown := func() {
		t.Helper()
		cd.fail(errors.New("cannot reach the SQL Gateway at " + strings.Repeat("a-very-long-gateway-host-name-", 30)))
		relayout(pop, split)
		scroll.ScrollToBottom()
		if scroll.Offset.Y <= 0 {
			t.Fatalf("the long error did not make the settings scroll (content %v in %v)", scroll.Content.MinSize(), scroll.Size())
		}
	}

	cd.Select("gw")
	scrollDown()
	test.Tap(cd.SaveButton())
	if cd.Status() != "Saved." {
		t.Fatalf("save: %q", cd.Status())
	}
	inside("after Save")

	scrollDown()
	test.Tap(cd.NewButton())
	inside("after New")
	if scroll.Offset.Y != 0 {
		t.Errorf("after New: scrolled to y %.0f, not to the top", scroll.Offset.Y)
	}

	cd.Select("gw")
	scrollDown()
	cd.Select(embedded)
	inside("another connection selected")
	if scroll.Offset.Y != 0 {
		t.Errorf("another connection: scrolled to y %.0f, not to the top", scroll.Offset.Y)
	}
}

// TestSplitDividerStaysPut: the divider between the list and the settings
// moved with the connection selected, as the split made room for the
// minimum width of whichever settings panel was shown.
func TestSplitDividerStaysPut(t *testing.T) {
	for _, size := range []fyne.Size{{Width: 1400, Height: 900}, {Width: 800, Height: 600}, {Width: 700, Height: 500}, {Width: 600, Height: 450}} {
		cd, pop, split := showAt(t, size.Width, size.Height)
		at := func(name string) float32 {
			cd.Select(name)
			relayout(pop, split)
			return split.Leading.Size().Width
		}
		e, g := at(embedded), at("gw")
		if e != g || at(embedded) != e {
			t.Errorf("%v window: the list is %.0f wide with the embedded connection shown, %.0f with the gateway one", size, e, g)
		}
	}
}

// TestSmallDialogKeepsEverythingReachable: in a small window the list's
// New and Delete buttons lay across the divider, under the settings, and
// the settings were cut off on the right with no way to scroll to them.
// New and Delete must lie inside the list's pane, and settings wider than
// their pane must scroll sideways.
func TestSmallDialogKeepsEverythingReachable(t *testing.T) {
	d := func() fyne.Driver { return fyne.CurrentApp().Driver() }
	for _, size := range []fyne.Size{{Width: 800, Height: 600}, {Width: 600, Height: 450}, {Width: 500, Height: 400}, {Width: 400, Height: 300}} {
		cd, pop, split := showAt(t, size.Width, size.Height)
		for _, name := range []string{embedded, "gw"} {
			cd.Select(name)
			relayout(pop, split)
			left := d().AbsolutePositionForObject(split.Leading)
			right := d().AbsolutePositionForObject(split.Trailing).X
			for _, b := range []*widget.Button{cd.newBtn, cd.delBtn} {
				p := d().AbsolutePositionForObject(b)
				if p.X < left.X || p.X+b.Size().Width > left.X+split.Leading.Size().Width || p.X+b.Size().Width > right {
					t.Errorf("%v window, %s shown: %s spans x %.0f to %.0f, outside the list's pane (x %.0f to %.0f; the settings start at %.0f)",
						size, name, b.Text, p.X, p.X+b.Size().Width, left.X, left.X+split.Leading.Size().Width, right)
				}
			}
			scroll, ok := split.Trailing.(*container.Scroll)
			if !ok {
				t.Fatalf("the settings are a %T, not a scroll", split.Trailing)
			}
			if scroll.Content.Size().Width > scroll.Size().Width+0.5 &&
				scroll.Direction != container.ScrollBoth && scroll.Direction != container.ScrollHorizontalOnly {
				t.Errorf("%v window, %s shown: the settings are %.0f wide in a pane %.0f wide that does not scroll sideways",
					size, name, scroll.Content.Size().Width, scroll.Size().Width)
			}
		}
	}
}

// findSplit is the split in o's tree of containers.
func findSplit(o fyne.CanvasObject) *container.Split {
	switch o := o.(type) {
	case *container.Split:
		return o
	case *fyne.Container:
		for _, c := range o.Objects {
			if s := findSplit(c); s != nil {
				return s
			}
		}
	}
	return nil
}
