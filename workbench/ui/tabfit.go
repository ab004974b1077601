package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// Result tabs are titled "#3 flights". When the bottom panel's tab strip
// cannot show every title, Fyne's DocTabs scrolls it and cuts the labels
// at its edges ("ssages", "y"); so the result tabs other than the
// selected one are shortened to their number and first words ("#3
// SELECT origin…", resulttab.Tab.ShortTitle), which stay readable; past that the
// strip scrolls.

// tabFit is what the titles were last fitted for.
type tabFit struct {
	width    float32
	selected *container.TabItem
	key      string
}

// fitTabTitles shortens or restores the result tabs' titles to fit the
// bottom panel's width (called from Tick; cheap when nothing changed).
func (wb *Workbench) fitTabTitles() {
	if wb.bottom == nil {
		return
	}
	items := wb.bottom.Items
	sel := wb.bottom.Selected()
	var key strings.Builder
	for _, it := range items {
		key.WriteString(it.Text)
		key.WriteByte(0)
	}
	for _, rt := range wb.results {
		key.WriteString(rt.Title)
		key.WriteByte(0)
	}
	width := wb.bottom.Size().Width
	k := tabFit{width: width, selected: sel, key: key.String()}
	if k == wb.tabFit || width <= 0 {
		return
	}
	short := stripOverflows(items, wb.results, width)
	changed := false
	for _, rt := range wb.results {
		want := rt.Title
		if short && rt.Item() != sel {
			want = rt.ShortTitle() // the number and the first words
		}
		if rt.Item().Text != want {
			rt.Item().Text = want
			changed = true
		}
	}
	if changed {
		wb.bottom.Refresh()
		// the titles changed: the key is that of the new titles
		key.Reset()
		for _, it := range items {
			key.WriteString(it.Text)
			key.WriteByte(0)
		}
		for _, rt := range wb.results {
			key.WriteString(rt.Title)
			key.WriteByte(0)
		}
		k.key = key.String()
	}
	wb.tabFit = k
}

// stripOverflows reports whether the tabs, with the results' full
// titles, are wider than width (less the strip's + and ··· buttons).
func stripOverflows(items []*container.TabItem, results []*resultTab, width float32) bool {
	full := map[*container.TabItem]string{}
	for _, rt := range results {
		full[rt.Item()] = rt.Title
	}
	total := 2 * (theme.IconInlineSize() + 2*theme.InnerPadding()) // + and ···
	for _, it := range items {
		text := it.Text
		if t, ok := full[it]; ok {
			text = t
		}
		total += tabWidth(text)
	}
	return total > width
}

// tabWidth estimates a DocTabs button's width: icon, text and close
// button, with their paddings.
func tabWidth(text string) float32 {
	tw := fyne.MeasureText(text, theme.TextSize(), fyne.TextStyle{Bold: true}).Width
	return tw + 2*theme.IconInlineSize() + 4*theme.InnerPadding()
}
