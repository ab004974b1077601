package editor

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

var fuzzKeys = []fyne.KeyName{
	fyne.KeyLeft, fyne.KeyRight, fyne.KeyUp, fyne.KeyDown, fyne.KeyHome, fyne.KeyEnd,
	fyne.KeyPageUp, fyne.KeyPageDown, fyne.KeyReturn, fyne.KeyBackspace, fyne.KeyDelete,
	fyne.KeyTab, fyne.KeyEscape, fyne.KeyF3,
}

var fuzzShortcuts = []fyne.KeyName{
	fyne.KeyLeft, fyne.KeyRight, fyne.KeyHome, fyne.KeyEnd, fyne.KeyBackspace, fyne.KeyDelete,
	fyne.KeyZ, fyne.KeyY, fyne.KeySlash, fyne.KeyReturn, fyne.KeyE, fyne.KeyA, fyne.KeyUp,
}

// FuzzEditOps drives the editor with a random sequence of keys, shortcuts,
// clicks and API calls, checks invariants after each, and checks that undo
// restores the original text and redo the final one.
func FuzzEditOps(f *testing.F) {
	f.Add("SELECT 1;\n\tSELECT 'a\nb';", []byte{0, 'x', 1, 3, 2, 4, 5, 9, 6, 1, 7, 40})
	f.Add("", []byte{0, '\n', 0, 'é', 1, 8, 3, 0, 4, 2})
	f.Add("a\r\nb", []byte{8, 3, 9, 5, 1, 10, 2, 6})
	e, _ := newTestEditor(f, "")
	e.OnRunStatement = func(string, int) {}
	e.OnExplain = func(string, int) {}
	f.Fuzz(func(t *testing.T, initial string, ops []byte) {
		e.SetText(initial)
		start := e.Text()
		for i := 0; i+1 < len(ops); i += 2 {
			op, arg := ops[i], int(ops[i+1])
			switch op % 12 {
			case 0:
				e.TypedRune(rune(arg) + ' ')
			case 1:
				e.TypedKey(&fyne.KeyEvent{Name: fuzzKeys[arg%len(fuzzKeys)]})
			case 2:
				e.KeyDown(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
				e.TypedKey(&fyne.KeyEvent{Name: fuzzKeys[arg%len(fuzzKeys)]})
				e.KeyUp(&fyne.KeyEvent{Name: desktop.KeyShiftLeft})
			case 3:
				mod := fyne.KeyModifierControl
				if arg&0x80 != 0 {
					mod |= fyne.KeyModifierShift
				}
				e.TypedShortcut(&desktop.CustomShortcut{KeyName: fuzzShortcuts[arg%len(fuzzShortcuts)], Modifier: mod})
			case 4:
				e.Select(arg, arg*3)
			case 5:
				e.InsertAtCursor(string([]rune{'a', '\n', '\t', 'ß'}[:arg%5]))
			case 6:
				e.TypedShortcut(&fyne.ShortcutCut{})
			case 7:
				e.TypedShortcut(&fyne.ShortcutPaste{})
			case 8:
				e.MouseDown(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(float32(arg*7), float32(arg*3))}, Button: desktop.MouseButtonPrimary})
				e.Dragged(&fyne.DragEvent{PointEvent: fyne.PointEvent{Position: fyne.NewPos(float32(arg), float32(arg*5-300))}})
				e.DragEnd()
			case 9:
				e.SetErrorMarker(arg%4, arg, "err")
			case 10:
				e.ReplaceRange(arg-5, arg, "x\ny")
			case 11:
				e.DoubleTapped(&fyne.PointEvent{Position: fyne.NewPos(float32(arg*5), float32(arg))})
			}
			checkInvariants(t, e)
		}
		end := e.Text()
		steps := len(e.hist.undo)
		for e.CanUndo() {
			e.Undo()
		}
		if e.Text() != start && len(e.hist.undo) < maxUndo {
			t.Fatalf("undo all gave %q, want %q", e.Text(), start)
		}
		for range steps {
			e.Redo()
		}
		if e.Text() != end {
			t.Fatalf("redo all gave %q, want %q", e.Text(), end)
		}
		checkInvariants(t, e)
	})
}

func checkInvariants(t *testing.T, e *Editor) {
	t.Helper()
	for _, p := range []pos{e.sel.cursor, e.sel.anchor} {
		if e.buf.clamp(p) != p {
			t.Fatalf("position %v outside the text", p)
		}
	}
	if len(e.buf.lines) == 0 {
		t.Fatal("no lines")
	}
	for _, m := range e.errors {
		if m.Line < 0 || m.Line >= len(e.buf.lines) {
			t.Fatalf("marker on line %d of %d", m.Line, len(e.buf.lines))
		}
	}
	if e.top < 0 || e.left < 0 {
		t.Fatalf("scroll %d,%d", e.top, e.left)
	}
}
