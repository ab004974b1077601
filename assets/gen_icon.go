//go:build ignore

// gen_icon draws Riffle's application icon (assets/icon.png): a rounded
// dark-blue square crossed by three rippling streams of light, the "riffle"
// of shallow water over stones. Run it with `go generate ./assets`.
package main

import (
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
)

const size = 256

func main() {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	bg := color.NRGBA{R: 0x12, G: 0x2b, B: 0x4a, A: 0xff}
	const radius = 48.0
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			a := roundedCoverage(float64(x)+0.5, float64(y)+0.5, radius)
			if a > 0 {
				c := bg
				// A soft vertical gradient keeps the square from looking flat.
				shade := float64(y) / size
				c.R = uint8(float64(c.R) + 0x10*shade)
				c.G = uint8(float64(c.G) + 0x28*shade)
				c.B = uint8(float64(c.B) + 0x30*shade)
				c.A = uint8(255 * a)
				img.SetNRGBA(x, y, c)
			}
		}
	}
	streams := []struct {
		y0, amp, phase, width float64
		col                   color.NRGBA
	}{
		{84, 10, 0.0, 11, color.NRGBA{R: 0x7f, G: 0xdb, B: 0xff, A: 0xff}},
		{128, 14, 1.3, 13, color.NRGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}},
		{172, 10, 2.6, 11, color.NRGBA{R: 0x39, G: 0xcc, B: 0xcc, A: 0xff}},
	}
	for _, s := range streams {
		for y := 0; y < size; y++ {
			for x := 24; x < size-24; x++ {
				fx := float64(x) + 0.5
				center := s.y0 + s.amp*math.Sin(fx/size*2*math.Pi*1.5+s.phase)
				d := math.Abs(float64(y)+0.5-center) - s.width/2
				cov := clamp(0.5 - d)
				// Fade the ends of each stream.
				edge := clamp(math.Min(fx-24, size-24-fx) / 20)
				cov *= edge
				if cov <= 0 {
					continue
				}
				blend(img, x, y, s.col, cov)
			}
		}
	}
	f, err := os.Create("icon.png")
	if err != nil {
		log.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}

// roundedCoverage is 1 inside a rounded square inset by 8 px, 0 outside,
// with a one-pixel antialiased edge.
func roundedCoverage(x, y, r float64) float64 {
	const inset = 8.0
	lo, hi := inset+r, size-inset-r
	dx := math.Max(math.Max(lo-x, x-hi), 0)
	dy := math.Max(math.Max(lo-y, y-hi), 0)
	d := math.Hypot(dx, dy) - r
	return clamp(0.5 - d)
}

func clamp(v float64) float64 { return math.Max(0, math.Min(1, v)) }

func blend(img *image.NRGBA, x, y int, c color.NRGBA, a float64) {
	dst := img.NRGBAAt(x, y)
	if dst.A == 0 {
		return
	}
	mix := func(d, s uint8) uint8 { return uint8(float64(d)*(1-a) + float64(s)*a) }
	img.SetNRGBA(x, y, color.NRGBA{R: mix(dst.R, c.R), G: mix(dst.G, c.G), B: mix(dst.B, c.B), A: dst.A})
}
