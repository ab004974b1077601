package dashboard

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// DragHandle is a tile's title bar: while it is dragged OnDrag follows
// the pointer's absolute position (the window's coordinates), where the
// workbench marks the tile the drop would replace; letting go calls
// OnDrop with the last position, where the workbench moves the tile to
// the tile under it. Taps still reach the buttons inside it.
type DragHandle struct {
	widget.BaseWidget
	content  fyne.CanvasObject
	at       fyne.Position
	dragging bool
	// OnDrag is called on the UI goroutine at each step of a drag.
	OnDrag func(at fyne.Position)
	// OnDrop is called on the UI goroutine at the end of a drag.
	OnDrop func(at fyne.Position)
}

// NewDragHandle makes a handle showing content.
func NewDragHandle(content fyne.CanvasObject) *DragHandle {
	h := &DragHandle{content: content}
	h.ExtendBaseWidget(h)
	return h
}

// CreateRenderer implements fyne.Widget.
func (h *DragHandle) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(h.content) }

// Dragged implements fyne.Draggable.
func (h *DragHandle) Dragged(e *fyne.DragEvent) {
	h.dragging = true
	h.at = e.AbsolutePosition
	if h.OnDrag != nil {
		h.OnDrag(h.at)
	}
}

// DragEnd implements fyne.Draggable.
func (h *DragHandle) DragEnd() {
	if h.dragging && h.OnDrop != nil {
		h.OnDrop(h.at)
	}
	h.dragging = false
}

// Inside reports whether absolute position at lies inside an object
// whose absolute top-left is pos and whose size is size.
func Inside(at, pos fyne.Position, size fyne.Size) bool {
	return at.X >= pos.X && at.Y >= pos.Y && at.X < pos.X+size.Width && at.Y < pos.Y+size.Height
}
