package editor

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
)

// scriptOfLines returns a Flink SQL script of n lines.
func scriptOfLines(n int) string {
	src := strings.Split(sampleScript+"\n/* block\n   comment */", "\n")
	lines := make([]string, n)
	for i := range lines {
		lines[i] = src[i%len(src)]
	}
	return strings.Join(lines, "\n")
}

// benchmarkKeystroke types a character and deletes it again in the middle
// of a script of n lines, so each iteration is two edits including lexing the
// changed line and redrawing the visible rows. Reported per keystroke.
func benchmarkKeystroke(b *testing.B, n int, onChanged bool) {
	e, _ := newTestEditor(b, scriptOfLines(n))
	if onChanged {
		e.OnChanged = func(string) {}
	}
	e.SetCursor(n/2, 6)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			e.TypedRune('x')
		} else {
			e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
		}
	}
}

func BenchmarkKeystroke5000Lines(b *testing.B)          { benchmarkKeystroke(b, 5000, false) }
func BenchmarkKeystroke5000LinesOnChanged(b *testing.B) { benchmarkKeystroke(b, 5000, true) }
func BenchmarkKeystroke240kLines(b *testing.B)          { benchmarkKeystroke(b, 240000, false) }

// BenchmarkKeystrokeOpensComment types "/*" and deletes it at the top of a
// 5,000-line script: every following line changes lexer state, the worst
// case for incremental highlighting.
func BenchmarkKeystrokeOpensComment(b *testing.B) {
	e, _ := newTestEditor(b, scriptOfLines(5000))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%2 == 0 {
			e.InsertAtCursor("/*")
		} else {
			e.Undo()
		}
	}
}

// BenchmarkSetText10MB loads a 10 MB script and draws the first screen.
func BenchmarkSetText10MB(b *testing.B) {
	script := bigScript(10 << 20)
	e, _ := newTestEditor(b, "")
	b.SetBytes(int64(len(script)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.SetText(script)
	}
}

// BenchmarkScrollPage10MB pages down through a 10 MB script.
func BenchmarkScrollPage10MB(b *testing.B) {
	e, _ := newTestEditor(b, bigScript(10<<20))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageDown})
	}
}

// BenchmarkText10MB measures Text(), which OnChanged handlers receive.
func BenchmarkText10MB(b *testing.B) {
	buf := newBuffer()
	buf.setText(bigScript(10 << 20))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_ = buf.text()
	}
}
