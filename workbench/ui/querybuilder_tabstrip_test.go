package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
)

// tabStrip finds the scrolled strip of a DocTabs' buttons in its
// renderer: the horizontal Scroll whose content holds one object a tab.
func tabStrip(t *testing.T, tabs *container.DocTabs) (*container.Scroll, []fyne.CanvasObject) {
	t.Helper()
	var found *container.Scroll
	var walk func(objs []fyne.CanvasObject)
	walk = func(objs []fyne.CanvasObject) {
		for _, o := range objs {
			if found != nil {
				return
			}
			switch o := o.(type) {
			case *container.Scroll:
				if c, ok := o.Content.(*fyne.Container); ok && len(c.Objects) == len(tabs.Items) {
					found = o
					return
				}
			case *fyne.Container:
				walk(o.Objects)
			}
		}
	}
	walk(test.WidgetRenderer(tabs).Objects())
	if found == nil {
		t.Fatalf("no strip of %d tab buttons in the DocTabs' renderer", len(tabs.Items))
	}
	return found, found.Content.(*fyne.Container).Objects
}

// selectedTabInView says whether the selected tab's button lies whole
// inside the strip's viewport, and where it is.
func selectedTabInView(t *testing.T, tabs *container.DocTabs) (bool, string) {
	strip, buttons := tabStrip(t, tabs)
	b := buttons[tabs.SelectedIndex()]
	left := b.Position().X - strip.Offset.X
	right := left + b.Size().Width
	where := fmt.Sprintf("tab %d of %d spans %.0f–%.0f in a %.0f px strip (offset %.0f)",
		tabs.SelectedIndex()+1, len(tabs.Items), left, right, strip.Size().Width, strip.Offset.X)
	return left >= 0 && right <= strip.Size().Width+0.5, where
}

// TestOpeningTheBuilderKeepsTheSelectedEditorTabInView: with more editor
// tabs than the strip shows and the last one selected, opening the query
// builder narrows the editor area; the selected tab stays whole in view
// (Fyne's DocTabs only scrolls on a change of selection, which left it
// cut off at the right edge, issue 21), and so it does once the builder
// closes again.
func TestOpeningTheBuilderKeepsTheSelectedEditorTabInView(t *testing.T) {
	h := newHarness(t)
	for i := 0; i < 14; i++ {
		h.newTab(fmt.Sprintf("SELECT %d;", i))
	}
	h.settle()
	tabs := h.wb.editors.tabs
	if strip, _ := tabStrip(t, tabs); strip.Content.MinSize().Width <= strip.Size().Width {
		t.Fatalf("the test needs more tabs than the strip shows: %0.f px of tabs in %.0f px",
			strip.Content.MinSize().Width, strip.Size().Width)
	}
	if ok, where := selectedTabInView(t, tabs); !ok {
		t.Fatalf("before the builder opens: %s", where)
	}
	before, _ := tabStrip(t, tabs)
	wide := before.Size().Width

	h.openBuilder(modeStreaming)
	h.settle()
	strip, _ := tabStrip(t, tabs)
	if strip.Size().Width >= wide {
		t.Fatalf("the builder did not narrow the editor tabs' strip: %.0f px, %.0f before", strip.Size().Width, wide)
	}
	if ok, where := selectedTabInView(t, tabs); !ok {
		t.Errorf("with the builder open the selected editor tab is cut off: %s", where)
	}

	h.wb.toggleBuilder()
	h.settle()
	if ok, where := selectedTabInView(t, tabs); !ok {
		t.Errorf("after the builder closed: %s", where)
	}
}
