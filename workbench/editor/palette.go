package editor

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// palette holds the text colour of each token class.
type palette [numClasses]color.Color

func rgb(v uint32) color.NRGBA {
	return color.NRGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

// Token colours for dark and light backgrounds (the Dark+ and Light+ colour
// schemes most SQL users know). Plain text and operators use the theme's
// foreground colour, set in paletteFor.
var (
	darkTokens = palette{
		classKeyword:  rgb(0x569cd6),
		classType:     rgb(0x4ec9b0),
		classFunction: rgb(0xdcdcaa),
		classString:   rgb(0xce9178),
		classNumber:   rgb(0xb5cea8),
		classComment:  rgb(0x6a9955),
		classQuoted:   rgb(0x9cdcfe),
	}
	lightTokens = palette{
		classKeyword:  rgb(0x0000ff),
		classType:     rgb(0x267f99),
		classFunction: rgb(0x795e26),
		classString:   rgb(0xa31515),
		classNumber:   rgb(0x098658),
		classComment:  rgb(0x008000),
		classQuoted:   rgb(0x001080),
	}
)

// isDark reports whether c is a dark colour (relative luminance below ½).
func isDark(c color.Color) bool {
	r, g, b, _ := c.RGBA()
	lum := 0.2126*float64(r) + 0.7152*float64(g) + 0.0722*float64(b)
	return lum < 0.5*0xffff
}

// paletteFor returns the token colours that suit th's background in variant
// v. The background colour is inspected rather than the variant alone so that
// custom themes with a dark "light" variant still get readable colours.
func paletteFor(th fyne.Theme, v fyne.ThemeVariant) palette {
	p := lightTokens
	if isDark(th.Color(theme.ColorNameBackground, v)) {
		p = darkTokens
	}
	fg := th.Color(theme.ColorNameForeground, v)
	p[classPlain] = fg
	p[classOperator] = fg
	return p
}

// withAlpha returns c with its alpha replaced by a (non-premultiplied).
func withAlpha(c color.Color, a uint8) color.Color {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	n.A = a
	return n
}
