package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The toolbar is a row like an HBox that fits narrow windows instead of
// widening them: when its items do not fit, the buttons show their icons
// only and the captions ("Mode", "Connection") go; if that is not enough
// the selects give up width, down to ToolbarMinSelect. A button's label is
// then its tooltip-less icon, as in most IDEs' compact toolbars.

// ToolbarMinSelect is the narrowest a toolbar select becomes.
const ToolbarMinSelect = 96

// toolbarLayout lays out the toolbar's items.
type toolbarLayout struct {
	compact bool
	// texts are the labelled buttons' texts (restored when wide again)
	texts map[*widget.Button]string
	// full is the row's width with every label, measured while wide
	full float32
}

// NewToolbar returns a toolbar row of items: labelled buttons, captions
// (*widget.Label), selects (*widget.Select, or a container made by
// PrefWidth) and anything else, kept at its minimum size.
func NewToolbar(items ...fyne.CanvasObject) *fyne.Container {
	l := &toolbarLayout{texts: map[*widget.Button]string{}}
	for _, o := range items {
		if b, ok := o.(*widget.Button); ok && b.Text != "" {
			l.texts[b] = b.Text
		}
	}
	return container.New(l, items...)
}

func (l *toolbarLayout) setCompact(objs []fyne.CanvasObject, on bool) {
	if l.compact == on {
		return
	}
	l.compact = on
	for _, o := range objs {
		switch x := o.(type) {
		case *widget.Button:
			if text, ok := l.texts[x]; ok {
				if on {
					x.SetText("")
				} else {
					x.SetText(text)
				}
			}
		case *widget.Label:
			if on {
				x.Hide()
			} else {
				x.Show()
			}
		}
	}
}

func shrinkable(o fyne.CanvasObject) bool {
	switch x := o.(type) {
	case *widget.Select:
		return true
	case *fyne.Container:
		_, ok := x.Layout.(*prefWidthLayout)
		return ok
	}
	return false
}

// rowWidth is the width of the visible objects at their minimum sizes.
func rowWidth(objs []fyne.CanvasObject) (w float32, n int) {
	for _, o := range objs {
		if o.Visible() {
			w += o.MinSize().Width
			n++
		}
	}
	if n > 1 {
		w += theme.Padding() * float32(n-1)
	}
	return w, n
}

func (l *toolbarLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	if !l.compact {
		l.full, _ = rowWidth(objs)
	}
	l.setCompact(objs, l.full > size.Width)
	total, _ := rowWidth(objs)
	// what the selects give up, shared evenly among them
	cut := float32(0)
	if over := total - size.Width; over > 0 {
		var room float32
		k := 0
		for _, o := range objs {
			if o.Visible() && shrinkable(o) {
				room += max(o.MinSize().Width-ToolbarMinSelect, 0)
				k++
			}
		}
		if k > 0 && room > 0 {
			cut = min(over, room) / room
		}
	}
	x := float32(0)
	for _, o := range objs {
		if !o.Visible() {
			continue
		}
		w := o.MinSize().Width
		if cut > 0 && shrinkable(o) {
			w -= max(w-ToolbarMinSelect, 0) * cut
		}
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(w, size.Height))
		x += w + theme.Padding()
	}
}

// MinSize is the compact row's: icons, and selects at their narrowest.
func (l *toolbarLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var w, h float32
	n := 0
	icon := theme.IconInlineSize() + 2*theme.InnerPadding()
	for _, o := range objs {
		m := o.MinSize()
		h = max(h, m.Height)
		b, labelled := o.(*widget.Button)
		_, caption := o.(*widget.Label)
		switch {
		case caption:
			continue // hidden when compact
		case labelled && l.texts[b] != "":
			w += min(m.Width, icon)
		case !o.Visible():
			continue
		case shrinkable(o):
			w += min(m.Width, ToolbarMinSelect)
		default:
			w += m.Width
		}
		n++
	}
	if n > 1 {
		w += theme.Padding() * float32(n-1)
	}
	return fyne.NewSize(w, h)
}

// prefWidthLayout asks for a width for its one object (a Select sizes
// itself for its placeholder, not its options) and gives it whatever it
// is given: in a toolbar it may get less.
type prefWidthLayout struct{ width float32 }

// PrefWidth wraps o to ask for width.
func PrefWidth(width float32, o fyne.CanvasObject) *fyne.Container {
	return container.New(&prefWidthLayout{width}, o)
}

func (l *prefWidthLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (l *prefWidthLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return fyne.NewSize(max(s.Width, l.width), s.Height)
}
