package editor

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// scrollBar is a thin scroll bar over an edge of the text area. It scrolls
// the editor in whole lines (vertical) or cells (horizontal).
type scrollBar struct {
	widget.BaseWidget
	e        *Editor
	vertical bool

	total, visible, offset int

	thumb     *canvas.Rectangle
	dragAcc   float32
	dragStart int
	hovered   bool
}

var (
	_ fyne.Draggable    = (*scrollBar)(nil)
	_ fyne.Tappable     = (*scrollBar)(nil)
	_ desktop.Hoverable = (*scrollBar)(nil)
)

func newScrollBar(e *Editor, vertical bool) *scrollBar {
	s := &scrollBar{e: e, vertical: vertical, thumb: canvas.NewRectangle(color.Transparent)}
	s.ExtendBaseWidget(s)
	return s
}

// set updates the extent: total units, visible units and the first visible.
func (s *scrollBar) set(total, visible, offset int) {
	s.total, s.visible, s.offset = total, visible, offset
	if visible <= 0 || total <= visible {
		s.Hide()
		return
	}
	s.Show()
	s.Refresh()
}

func (s *scrollBar) length() float32 {
	if s.vertical {
		return s.Size().Height
	}
	return s.Size().Width
}

// thumbGeometry returns the start and length of the thumb along the bar.
func (s *scrollBar) thumbGeometry() (float32, float32) {
	l := s.length()
	if s.total <= 0 {
		return 0, l
	}
	tl := max(l*float32(s.visible)/float32(s.total), min(l, 24))
	start := (l - tl) * float32(s.offset) / float32(max(1, s.total-s.visible))
	return max(0, min(start, l-tl)), tl
}

func (s *scrollBar) scrollTo(offset int) {
	if s.vertical {
		s.e.top = offset
	} else {
		s.e.left = offset
	}
	s.e.clampScroll()
	s.e.Refresh()
}

// Dragged moves the view with the thumb.
func (s *scrollBar) Dragged(ev *fyne.DragEvent) {
	d := ev.Dragged.DX
	if s.vertical {
		d = ev.Dragged.DY
	}
	if s.dragAcc == 0 {
		s.dragStart = s.offset
	}
	s.dragAcc += d
	_, tl := s.thumbGeometry()
	track := s.length() - tl
	if track <= 0 {
		return
	}
	units := int(s.dragAcc / track * float32(s.total-s.visible))
	s.scrollTo(s.dragStart + units)
}

// DragEnd finishes a thumb drag.
func (s *scrollBar) DragEnd() {
	s.dragAcc = 0
}

// Tapped pages towards the tapped point.
func (s *scrollBar) Tapped(ev *fyne.PointEvent) {
	at := ev.Position.X
	if s.vertical {
		at = ev.Position.Y
	}
	start, tl := s.thumbGeometry()
	switch {
	case at < start:
		s.scrollTo(s.offset - s.visible)
	case at > start+tl:
		s.scrollTo(s.offset + s.visible)
	}
}

// MouseIn widens the thumb while hovered.
func (s *scrollBar) MouseIn(*desktop.MouseEvent) { s.hovered = true; s.Refresh() }

// MouseMoved is part of desktop.Hoverable.
func (s *scrollBar) MouseMoved(*desktop.MouseEvent) {}

// MouseOut narrows the thumb again.
func (s *scrollBar) MouseOut() { s.hovered = false; s.Refresh() }

// CreateRenderer is a private method to Fyne which links this widget to its
// renderer.
func (s *scrollBar) CreateRenderer() fyne.WidgetRenderer {
	return &scrollBarRenderer{s: s}
}

type scrollBarRenderer struct {
	s *scrollBar
}

// Layout places the thumb for the current offset; it is thin unless hovered.
func (r *scrollBarRenderer) Layout(size fyne.Size) {
	s := r.s
	start, tl := s.thumbGeometry()
	thick := size.Width
	if !s.vertical {
		thick = size.Height
	}
	if !s.hovered {
		thick *= 0.5
	}
	if s.vertical {
		s.thumb.Move(fyne.NewPos(size.Width-thick, start))
		s.thumb.Resize(fyne.NewSize(thick, tl))
	} else {
		s.thumb.Move(fyne.NewPos(start, size.Height-thick))
		s.thumb.Resize(fyne.NewSize(tl, thick))
	}
	s.thumb.CornerRadius = thick / 2
}

// MinSize is a few pixels; the editor sizes the bar.
func (r *scrollBarRenderer) MinSize() fyne.Size {
	return fyne.NewSize(4, 4)
}

// Refresh re-reads the thumb colour and relayouts.
func (r *scrollBarRenderer) Refresh() {
	th := r.s.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	r.s.thumb.FillColor = th.Color(theme.ColorNameScrollBar, v)
	r.Layout(r.s.Size())
	r.s.thumb.Refresh()
}

// Objects returns the thumb.
func (r *scrollBarRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.s.thumb}
}

// Destroy does nothing.
func (r *scrollBarRenderer) Destroy() {}
