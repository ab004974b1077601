package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// Fyne gives a wheel event to the deepest scrollable object under the
// pointer; a single-line Entry holds a scroller of its own, which takes
// the event and does nothing with it, so a form of entries in a scroll
// container does not scroll while the pointer is over an input. A
// wheelCatcher laid over such a form (last in a Stack) is found after the
// entries and passes the wheel to the form's scroller. It takes no taps,
// clicks, hovers or drags, so the inputs under it work as before.

// wheelCatcher passes wheel events to target.
type wheelCatcher struct {
	widget.BaseWidget
	target fyne.Scrollable
}

var _ fyne.Scrollable = (*wheelCatcher)(nil)

func newWheelCatcher(target fyne.Scrollable) *wheelCatcher {
	w := &wheelCatcher{target: target}
	w.ExtendBaseWidget(w)
	return w
}

// Scrolled scrolls the target.
func (w *wheelCatcher) Scrolled(e *fyne.ScrollEvent) {
	if w.target != nil {
		w.target.Scrolled(e)
	}
}

// CreateRenderer draws nothing.
func (w *wheelCatcher) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewWithoutLayout())
}

// withWheel returns scroll with a wheelCatcher over it: the wheel scrolls
// it wherever the pointer is inside.
func withWheel(scroll *container.Scroll) fyne.CanvasObject {
	return container.NewStack(scroll, newWheelCatcher(scroll))
}
