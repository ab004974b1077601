package ui

import (
	"bytes"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
)

// The workbench's theme replaces only the monospace fonts.
func TestThemeUsesGoMonoForMonospaceOnly(t *testing.T) {
	th, def := Theme(), theme.DefaultTheme()
	if got := th.Font(fyne.TextStyle{Monospace: true}).Content(); !bytes.Equal(got, gomono.TTF) {
		t.Error("monospace is not Go Mono")
	}
	if got := th.Font(fyne.TextStyle{Monospace: true, Bold: true}).Content(); !bytes.Equal(got, gomonobold.TTF) {
		t.Error("bold monospace is not Go Mono Bold")
	}
	for _, s := range []fyne.TextStyle{{}, {Bold: true}, {Italic: true}} {
		if th.Font(s) != def.Font(s) {
			t.Errorf("%+v: not the default font", s)
		}
	}
	if th.Color(theme.ColorNameForeground, theme.VariantDark) != def.Color(theme.ColorNameForeground, theme.VariantDark) {
		t.Error("colours changed")
	}
}
