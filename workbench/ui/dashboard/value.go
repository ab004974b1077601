package dashboard

import (
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/types"
)

// Reading is what a single-value tile shows: the latest value of a column
// and the one before it. The values are those of the last two rows that
// added a row to the result (+I or +U changes), read from the changelog:
// for a one-row aggregate (SELECT AVG(delay) …) the current and previous
// result; for an append stream the last two rows.
type Reading struct {
	OK      bool   // at least one value arrived
	Text    string // the latest value as the grid shows it ("" for NULL)
	Null    bool
	HasPrev bool // a previous value arrived
	// Num and Prev are the two values as numbers, Numeric when both are
	// (so Delta means something).
	Num, Prev float64
	Numeric   bool
	Changes   int64 // changes the result had when read
}

// Delta is the change of the latest value against the previous one (0
// when the two are not numbers).
func (r Reading) Delta() float64 {
	if !r.Numeric || !r.HasPrev {
		return 0
	}
	return r.Num - r.Prev
}

// ChangeText words the change: "▲ 2.5", "▼ 1", "= 0", or "" without a
// previous number.
func (r Reading) ChangeText() string {
	if !r.Numeric || !r.HasPrev {
		return ""
	}
	d := r.Delta()
	abs := strconv.FormatFloat(math.Abs(d), 'f', -1, 64)
	if len(abs) > 10 {
		abs = strconv.FormatFloat(math.Abs(d), 'g', 4, 64)
	}
	switch {
	case d > 0:
		return "▲ " + abs
	case d < 0:
		return "▼ " + abs
	}
	return "= 0"
}

// Latest reads column col (an index into res.Columns()) of the latest two
// rows added to res. A column out of range gives a Reading that is not OK.
func Latest(res *results.Result, col int) Reading {
	if res == nil || col < 0 || col >= len(res.Columns()) {
		return Reading{}
	}
	f := res.Freeze(results.ChangelogView) // column 0 is the op
	r := Reading{Changes: res.Stats().Changes}
	var nums []float64
	numeric := true
	for row := f.Len() - 1; row >= 0 && len(nums) < 2; row-- {
		if k := f.Kind(row); k != types.Insert && k != types.UpdateAfter {
			continue
		}
		text, null := f.Text(row, col+1)
		n, ok := number(f.Value(row, col+1), text)
		if !r.OK {
			r.OK, r.Text, r.Null = true, text, null
		} else {
			r.HasPrev = true
		}
		numeric = numeric && ok
		nums = append(nums, n)
	}
	if r.OK && numeric {
		r.Numeric, r.Num = true, nums[0]
		if r.HasPrev {
			r.Prev = nums[1]
		}
	}
	return r
}

// number reads a value as a float64: the engine's numeric types
// (expr.NumberAsFloat64: integers, floats, decimals), else a number in
// its text; strings, booleans, bytes and NULL are not numbers.
func number(v any, text string) (float64, bool) {
	if f, ok := expr.NumberAsFloat64(v); ok {
		return f, true
	}
	switch v.(type) {
	case nil, string, bool, []byte:
		return 0, false
	}
	if n, err := strconv.ParseFloat(strings.TrimSpace(text), 64); err == nil {
		return n, true
	}
	return 0, false
}

// ValueView shows a Reading: the value large, the change under it with an
// arrow, green for up, red for down (the tile's column says which way is
// good; the colours are the theme's success and error colours).
type ValueView struct {
	Value  *canvas.Text
	Change *canvas.Text
	Column *widget.Label
	box    fyne.CanvasObject
	last   Reading
}

// NewValueView makes the view of column name's value.
func NewValueView(column string) *ValueView {
	v := &ValueView{
		Value:  canvas.NewText("…", theme.Color(theme.ColorNameForeground)),
		Change: canvas.NewText("", theme.Color(theme.ColorNameDisabled)),
		Column: widget.NewLabel(column),
	}
	v.Value.TextSize = theme.TextSize() * 3.2
	v.Value.TextStyle = fyne.TextStyle{Bold: true}
	v.Value.Alignment = fyne.TextAlignCenter
	v.Change.TextSize = theme.TextSize() * 1.4
	v.Change.Alignment = fyne.TextAlignCenter
	v.Column.Alignment = fyne.TextAlignCenter
	v.box = container.NewCenter(container.NewVBox(v.Value, v.Change, v.Column))
	return v
}

// Content is the view's canvas object.
func (v *ValueView) Content() fyne.CanvasObject { return v.box }

// Reading is what the view shows.
func (v *ValueView) Reading() Reading { return v.last }

// Show shows r (on the UI goroutine); it redraws only what changed.
func (v *ValueView) Show(r Reading) {
	if r == v.last && v.Value.Text != "…" {
		return
	}
	v.last = r
	switch {
	case !r.OK:
		v.Value.Text = "…"
	case r.Null:
		v.Value.Text = "NULL"
	default:
		v.Value.Text = r.Text
	}
	v.Change.Text = r.ChangeText()
	v.Change.Color = ChangeColor(r)
	v.Value.Refresh()
	v.Change.Refresh()
}

// ChangeColor is the colour of a change: the theme's success colour up,
// error colour down, disabled colour otherwise.
func ChangeColor(r Reading) color.Color {
	switch d := r.Delta(); {
	case d > 0:
		return theme.Color(theme.ColorNameSuccess)
	case d < 0:
		return theme.Color(theme.ColorNameError)
	}
	return theme.Color(theme.ColorNameDisabled)
}

// FormatRate words a rate of changes per second: "1,234 rows/s", "0.5 rows/s".
func FormatRate(perSec float64) string {
	switch {
	case perSec >= 100:
		return groupThousands(int64(math.Round(perSec))) + " rows/s"
	case perSec >= 10:
		return fmt.Sprintf("%.0f rows/s", perSec)
	}
	return fmt.Sprintf("%.1f rows/s", perSec)
}

func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
