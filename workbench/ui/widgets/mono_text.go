package widgets

import (
	"sync"
	"unicode/utf8"

	"fyne.io/fyne/v2"
)

// Measuring and fitting monospaced text: the result grid's cells and
// the completion popup's details are drawn in the theme's monospaced font.

// monoMetrics caches the width of one monospaced character and the line
// height per text size.
var monoMetrics sync.Map // float32 -> fyne.Size

func monoCell(size float32) fyne.Size {
	if m, ok := monoMetrics.Load(size); ok {
		return m.(fyne.Size)
	}
	m := fyne.MeasureText("0000000000", size, fyne.TextStyle{Monospace: true})
	m.Width /= 10
	monoMetrics.Store(size, m)
	return m
}

// CharWidth is the width of one monospaced character at text size size.
func CharWidth(size float32) float32 { return monoCell(size).Width }

// LineHeight is the height of a line of monospaced text at text size size.
func LineHeight(size float32) float32 { return monoCell(size).Height }

// CellsOf is the number of monospaced cells s takes: East Asian wide
// characters and emoji take two.
func CellsOf(s string) int {
	n := 0
	for _, r := range s {
		n += runeCells(r)
	}
	return n
}

func runeCells(r rune) int {
	if r < 0x1100 {
		return 1
	}
	switch {
	case r <= 0x115f, r >= 0x2e80 && r <= 0xa4cf, r >= 0xac00 && r <= 0xd7a3,
		r >= 0xf900 && r <= 0xfaff, r >= 0xfe30 && r <= 0xfe4f, r >= 0xff00 && r <= 0xff60,
		r >= 0xffe0 && r <= 0xffe6, r >= 0x1f300 && r <= 0x1faff, r >= 0x20000 && r <= 0x3fffd:
		return 2
	}
	return 1
}

// FitText cuts s with "…" so that it fits width at the monospaced size.
func FitText(s string, width, size float32) string {
	cw := CharWidth(size)
	if cw <= 0 {
		return s
	}
	maxCells := int(width / cw)
	if len(s) <= maxCells && isASCII(s) {
		return s
	}
	if CellsOf(s) <= maxCells {
		return s
	}
	if maxCells <= 1 {
		return "…"
	}
	n := 0
	for i, r := range s {
		w := runeCells(r)
		if n+w > maxCells-1 {
			return s[:i] + "…"
		}
		n += w
	}
	return s
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
