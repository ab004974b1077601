package querybuilder

import (
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/workbench/authoring"
)

// filtersSection: column, operator and values that fit the type.
func (b *Panel) filtersSection() fyne.CanvasObject {
	q := b.q
	box := container.NewVBox(sectionTitle("Filters"))
	labels, refs, typs := b.columnChoices()
	for i := range q.Filters {
		box.Add(b.filterRow(i, labels, refs, typs))
	}
	b.addFilter = widget.NewButtonWithIcon("Filter", theme.ContentAddIcon(), func() {
		if len(labels) == 0 {
			return
		}
		ref := refs[labels[0]]
		op := authoring.Operators(typs[labels[0]])[0]
		f := authoring.Filter{Column: ref, Op: op}
		for range max(op.Operands(), 1) {
			f.Values = append(f.Values, authoring.Value{Kind: authoring.ValueKindFor(typs[labels[0]])})
		}
		q.AddFilter(f)
		b.changed(true)
	})
	b.addFilter.Importance = widget.LowImportance
	box.Add(container.NewHBox(b.addFilter))
	return box
}

func (b *Panel) filterRow(i int, labels []string, refs map[string]authoring.ColumnRef, typs map[string]*types.DataType) fyne.CanvasObject {
	q := b.q
	f := &q.Filters[i]
	row := &FilterRow{}
	b.filterRows = append(b.filterRows, row)
	typ := typs[pickerLabel(f.Column)]
	row.Column = widget.NewSelect(labels, nil)
	row.Column.SetSelected(pickerLabel(f.Column))
	row.Column.OnChanged = func(s string) {
		f.Column = refs[s]
		nt := typs[s]
		if !slices.Contains(authoring.Operators(nt), f.Op) {
			f.Op = authoring.Operators(nt)[0]
		}
		kind := authoring.ValueKindFor(nt)
		for k := range f.Values {
			if f.Values[k].Kind != kind {
				f.Values[k] = authoring.Value{Kind: kind}
			}
		}
		b.fixValues(f, kind)
		b.changed(true)
	}
	var ops []string
	for _, o := range authoring.Operators(typ) {
		ops = append(ops, o.String())
	}
	row.Op = widget.NewSelect(ops, nil)
	row.Op.SetSelected(f.Op.String())
	row.Op.OnChanged = func(s string) {
		for _, o := range authoring.Operators(typ) {
			if o.String() == s {
				f.Op = o
			}
		}
		b.fixValues(f, authoring.ValueKindFor(typ))
		b.changed(true)
	}
	row.Remove = widget.NewButtonWithIcon("", theme.DeleteIcon(), func() {
		q.RemoveFilter(i)
		b.changed(true)
	})
	row.Remove.Importance = widget.LowImportance
	kind := authoring.ValueKindFor(typ)
	var inputs []fyne.CanvasObject
	switch n := f.Op.Operands(); {
	case n == 0:
	case kind == authoring.ValueBool:
		row.Bool = widget.NewSelect([]string{"TRUE", "FALSE"}, func(s string) {
			f.Values = []authoring.Value{{Kind: kind, Text: s}}
			b.changed(false)
		})
		if len(f.Values) > 0 {
			row.Bool.Selected = strings.ToUpper(f.Values[0].Text)
		}
		inputs = append(inputs, row.Bool)
	case n < 0: // IN: a comma-separated list
		e := widget.NewEntry()
		e.SetPlaceHolder(map[bool]string{true: "1, 2, 3", false: "a, b, c"}[kind == authoring.ValueNumber])
		var texts []string
		for _, v := range f.Values {
			texts = append(texts, v.Text)
		}
		e.SetText(strings.Join(texts, ", "))
		e.OnChanged = func(s string) {
			f.Values = nil
			for _, p := range strings.Split(s, ",") {
				if p = strings.TrimSpace(p); p != "" {
					f.Values = append(f.Values, authoring.Value{Kind: kind, Text: p})
				}
			}
			b.changed(false)
		}
		row.Values = append(row.Values, e)
		inputs = append(inputs, e)
	default:
		for k := 0; k < n; k++ {
			e := widget.NewEntry()
			e.SetPlaceHolder(valuePlaceholder(kind, f.Op))
			if k < len(f.Values) {
				e.SetText(f.Values[k].Text)
			}
			e.OnChanged = func(s string) {
				b.fixValues(f, kind)
				f.Values[k].Text = s
				b.changed(false)
			}
			row.Values = append(row.Values, e)
			var input fyne.CanvasObject = e
			if kind == authoring.ValueDate || kind == authoring.ValueTimestamp {
				pick := widget.NewButtonWithIcon("", theme.CalendarIcon(), func() { b.pickDate(e, kind) })
				pick.Importance = widget.LowImportance
				row.Pick = pick
				input = container.NewBorder(nil, nil, nil, pick, e)
			}
			if k > 0 { // BETWEEN's second value, on a line of its own
				input = container.NewBorder(nil, nil, widget.NewLabel("and"), nil, input)
			}
			inputs = append(inputs, input)
		}
	}
	// stacked, so that the panel stays narrow
	head := container.NewVBox(row.Column, container.NewBorder(nil, nil, nil, row.Remove, row.Op))
	if len(inputs) == 0 {
		return head
	}
	var vals fyne.CanvasObject
	if len(inputs) == 1 {
		vals = inputs[0]
	} else {
		vals = container.NewVBox(inputs...) // full width each: BETWEEN's values stay readable
	}
	return container.NewVBox(head, container.NewPadded(vals))
}

// fixValues gives a filter as many values as its operator takes.
func (b *Panel) fixValues(f *authoring.Filter, kind authoring.ValueKind) {
	n := f.Op.Operands()
	switch {
	case n == 0:
		f.Values = nil
	case n < 0:
		if len(f.Values) == 0 {
			f.Values = []authoring.Value{{Kind: kind}}
		}
	default:
		for len(f.Values) < n {
			f.Values = append(f.Values, authoring.Value{Kind: kind})
		}
		f.Values = f.Values[:n]
	}
	for k := range f.Values {
		f.Values[k].Kind = kind
	}
}

func valuePlaceholder(k authoring.ValueKind, op authoring.Op) string {
	switch {
	case op == authoring.OpLike || op == authoring.OpNotLike:
		return "pattern: % any text, _ one character"
	case k == authoring.ValueNumber:
		return "number"
	case k == authoring.ValueDate:
		return "yyyy-MM-dd"
	case k == authoring.ValueTime:
		return "HH:mm:ss"
	case k == authoring.ValueTimestamp:
		return "yyyy-MM-dd HH:mm:ss"
	}
	return "text"
}

// pickDate opens a calendar for a date or timestamp field (the time of
// day of a timestamp is kept).
func (b *Panel) pickDate(e *widget.Entry, kind authoring.ValueKind) {
	c := b.host.Window().Canvas()
	cur := time.Now()
	rest := " 00:00:00"
	if s := strings.TrimSpace(e.Text); len(s) >= 10 {
		if t, err := time.Parse("2006-01-02", s[:10]); err == nil {
			cur = t
		}
		if len(s) > 10 {
			rest = s[10:]
		}
	}
	var pop *widget.PopUp
	cal := widget.NewCalendar(cur, func(t time.Time) {
		s := t.Format("2006-01-02")
		if kind == authoring.ValueTimestamp {
			s += rest
		}
		e.SetText(s)
		pop.Hide()
	})
	pop = widget.NewPopUp(cal, c)
	pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(e).Add(fyne.NewPos(0, e.Size().Height))
	pop.ShowAtPosition(pos)
}
