package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"golang.org/x/image/font/gofont/gomono"
	"golang.org/x/image/font/gofont/gomonobold"
	"golang.org/x/image/font/gofont/gomonobolditalic"
	"golang.org/x/image/font/gofont/gomonoitalic"
)

// Theme is the workbench's theme: Fyne's default, with the Go Mono fonts
// (golang.org/x/image/font/gofont, BSD licence) for monospace text. Fyne's
// own monospace font draws its underscore below the text cell, where the
// TextGrid of the editor and the grid clip it at some row positions
// (fyne-io/fyne#6006): `sensor_id` read as `sensor id`. Go Mono's
// underscore sits inside the cell.
func Theme() fyne.Theme { return monoTheme{theme.DefaultTheme()} }

type monoTheme struct{ fyne.Theme }

var (
	monoRegular    = fyne.NewStaticResource("GoMono.ttf", gomono.TTF)
	monoBold       = fyne.NewStaticResource("GoMonoBold.ttf", gomonobold.TTF)
	monoItalic     = fyne.NewStaticResource("GoMonoItalic.ttf", gomonoitalic.TTF)
	monoBoldItalic = fyne.NewStaticResource("GoMonoBoldItalic.ttf", gomonobolditalic.TTF)
)

func (t monoTheme) Font(s fyne.TextStyle) fyne.Resource {
	if !s.Monospace {
		return t.Theme.Font(s)
	}
	switch {
	case s.Bold && s.Italic:
		return monoBoldItalic
	case s.Bold:
		return monoBold
	case s.Italic:
		return monoItalic
	}
	return monoRegular
}
