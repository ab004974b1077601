package editor

import (
	"strings"
	"testing"
)

func TestBufferInsertRemove(t *testing.T) {
	b := newBuffer()
	b.setText("ab\ncd")
	end := b.insert(pos{0, 1}, "X\nY\nZ")
	if got := b.text(); got != "aX\nY\nZb\ncd" {
		t.Fatalf("text %q", got)
	}
	if end != (pos{2, 1}) {
		t.Fatalf("end %v", end)
	}
	if rm := b.remove(pos{0, 1}, end); rm != "X\nY\nZ" {
		t.Fatalf("removed %q", rm)
	}
	if got := b.text(); got != "ab\ncd" {
		t.Fatalf("text after remove %q", got)
	}
	if got := b.remove(pos{1, 2}, pos{0, 0}); got != "ab\ncd" || b.text() != "" || len(b.lines) != 1 {
		t.Fatalf("remove all: %q, left %q", got, b.text())
	}
}

func TestBufferOffsets(t *testing.T) {
	b := newBuffer()
	b.setText("héllo\nwörld\n")
	for off := 0; off <= len(b.text()); off++ {
		p := b.posOf(off)
		back := b.offsetOf(p)
		if back > off {
			t.Fatalf("offset %d -> %v -> %d", off, p, back)
		}
	}
	if p := b.posOf(strings.Index(b.text(), "w")); p != (pos{1, 0}) {
		t.Fatalf("posOf w = %v", p)
	}
	if o := b.offsetOf(pos{1, 2}); o != strings.Index(b.text(), "rld") {
		t.Fatalf("offsetOf = %d", o)
	}
}

func TestCRLFNormalised(t *testing.T) {
	b := newBuffer()
	b.setText("a\r\nb\rc")
	if b.text() != "a\nb\nc" {
		t.Fatalf("%q", b.text())
	}
}

func TestWordMotion(t *testing.T) {
	b := newBuffer()
	b.setText("SELECT  foo_bar, x.y(1)")
	p := pos{0, 0}
	var stops []int
	for i := 0; i < 10; i++ {
		p = b.wordRight(p)
		stops = append(stops, p.col)
	}
	want := []int{6, 15, 16, 18, 19, 20, 21, 22, 23, 23}
	for i := range want {
		if stops[i] != want[i] {
			t.Fatalf("wordRight stops %v, want %v", stops, want)
		}
	}
	p = pos{0, 23}
	stops = stops[:0]
	for i := 0; i < 5; i++ {
		p = b.wordLeft(p)
		stops = append(stops, p.col)
	}
	want = []int{22, 21, 20, 19, 18}
	for i := range want {
		if stops[i] != want[i] {
			t.Fatalf("wordLeft stops %v, want %v", stops, want)
		}
	}
	if s, e := b.wordBounds(0, 10); s != 8 || e != 15 {
		t.Fatalf("wordBounds = %d,%d", s, e)
	}
	if s, e := b.wordBounds(0, 15); s != 8 || e != 15 {
		t.Fatalf("wordBounds at word end = %d,%d", s, e)
	}
}

func TestVisualColumns(t *testing.T) {
	s := "a\tbc\td"
	if v := visualCol(s, 2); v != 4 {
		t.Fatalf("visualCol = %d", v)
	}
	if v := visualCol(s, 5); v != 8 {
		t.Fatalf("visualCol = %d", v)
	}
	if c := runeColForVisual(s, 5.2, false); c != 3 {
		t.Fatalf("runeColForVisual = %d", c)
	}
	if c := runeColForVisual(s, 2.9, true); c != 2 {
		t.Fatalf("runeColForVisual rounding into tab = %d", c)
	}
	if c := runeColForVisual(s, 100, true); c != 6 {
		t.Fatalf("past end = %d", c)
	}
}
