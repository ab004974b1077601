package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// The query builder's form scrolls with the wheel wherever the pointer
// is: a wheelCatcher covers the form, comes after its inputs (so Fyne
// gives it the wheel rather than an Entry's own scroller) and scrolls the
// form (issue 21).
func TestBuilderScrollsWithTheWheelOverInputs(t *testing.T) {
	h := newHarness(t)
	b := h.openBuilder(modeBatch)
	q := "SELECT origin, destination, delay FROM flights WHERE origin = 'SFO' AND delay > 10 AND destination <> 'LAX'"
	tab := followedTab(b)
	tab.ed.SetText(q)
	tab.ed.SetCursorOffset(3)
	h.wb.builderEditorChanged(tab)
	h.w.Resize(fyne.NewSize(1400, 700))
	var catcher *widgets.WheelCatcher
	entries, entryAfter := 0, false
	for _, o := range shown(b.Content()) {
		switch x := o.(type) {
		case *widgets.WheelCatcher:
			catcher = x
		case *widget.Entry:
			entries++
			entryAfter = catcher != nil
		}
	}
	if catcher == nil || catcher.Target() != b.Form() {
		t.Fatal("no wheel catcher over the builder's form")
	}
	if entries == 0 {
		t.Error("no inputs in the builder's form")
	}
	if entryAfter {
		t.Error("an input comes after the wheel catcher: it would take the wheel")
	}
	if catcher.Size() != b.Form().Size() || catcher.Position() != b.Form().Position() {
		t.Errorf("catcher at %v %v, form at %v %v", catcher.Position(), catcher.Size(), b.Form().Position(), b.Form().Size())
	}
	if b.Form().Content.MinSize().Height <= b.Form().Size().Height {
		t.Skipf("the form (%v high) fits its view (%v)", b.Form().Content.MinSize().Height, b.Form().Size().Height)
	}
	catcher.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.NewDelta(0, -60)})
	if b.Form().Offset.Y <= 0 {
		t.Errorf("the wheel over the form did not scroll it (offset %v, %d inputs)", b.Form().Offset, entries)
	}
}
