package catalogbrowser

import (
	"fyne.io/fyne/v2"
)

// Dragging a table or view out of the tree: Fyne has no drag and drop
// between widgets, so a node row reports the drag (OnDrag, with the
// pointer's absolute position) and the drop (OnDragEnd); the workbench
// decides what lies under the pointer (the query builder panel).

var _ fyne.Draggable = (*nodeRow)(nil)

// Dragged reports a table or view being dragged.
func (r *nodeRow) Dragged(ev *fyne.DragEvent) {
	ref, ok := refOf(r.uid, r.b.objects)
	if !ok || r.b.OnDrag == nil {
		return
	}
	r.dragging, r.dragAt = true, ev.AbsolutePosition
	r.b.OnDrag(ref, ev.AbsolutePosition)
}

// DragEnd reports the drop.
func (r *nodeRow) DragEnd() {
	if !r.dragging {
		return
	}
	r.dragging = false
	if ref, ok := refOf(r.uid, r.b.objects); ok && r.b.OnDragEnd != nil {
		r.b.OnDragEnd(ref, r.dragAt)
	}
}
