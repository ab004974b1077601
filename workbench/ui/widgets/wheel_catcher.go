package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// Fyne gives a wheel event to the deepest scrollable object under the
// pointer; a single-line Entry holds a scroller of its own, which takes
// the event and does nothing with it, so a form of entries in a scroll
// container does not scroll while the pointer is over an input. A
// WheelCatcher laid over such a form (last in a Stack) is found after the
// entries and passes the wheel to the form's scroller. It takes no taps,
// clicks, hovers or drags, so the inputs under it work as before.

// WheelCatcher passes wheel events to its target; it draws nothing.
type WheelCatcher struct {
	widget.BaseWidget
	target fyne.Scrollable
}

var _ fyne.Scrollable = (*WheelCatcher)(nil)

// NewWheelCatcher returns a WheelCatcher that scrolls target.
func NewWheelCatcher(target fyne.Scrollable) *WheelCatcher {
	w := &WheelCatcher{target: target}
	w.ExtendBaseWidget(w)
	return w
}

// Target is the scrollable the wheel goes to.
func (w *WheelCatcher) Target() fyne.Scrollable { return w.target }

// Scrolled scrolls the target.
func (w *WheelCatcher) Scrolled(e *fyne.ScrollEvent) {
	if w.target != nil {
		w.target.Scrolled(e)
	}
}

// CreateRenderer draws nothing.
func (w *WheelCatcher) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewWithoutLayout())
}

// WithWheel returns scroll with a WheelCatcher over it: the wheel scrolls
// it wherever the pointer is inside.
func WithWheel(scroll *container.Scroll) fyne.CanvasObject {
	return container.NewStack(scroll, NewWheelCatcher(scroll))
}
