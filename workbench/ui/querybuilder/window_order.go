package querybuilder

import (
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/riffle-sql/riffle/workbench/authoring"
)

// windowSection: a window TVF over a time column (rowtime attributes in
// streaming mode; any TIMESTAMP in batch mode).
func (b *Panel) windowSection() fyne.CanvasObject {
	q := b.q
	s := b.schema(q.From)
	if s == nil || len(q.Joins) > 0 {
		return nil
	}
	cols := authoring.TimeColumns(s, b.streaming())
	if len(cols) == 0 && q.Window == nil {
		note := "No window: " + q.From.String() + " has no rowtime attribute (a watermark) for streaming windows."
		if !b.streaming() {
			note = "No window: " + q.From.String() + " has no TIMESTAMP column."
		}
		l := widget.NewLabel(note)
		l.Wrapping = fyne.TextWrapWord
		l.Importance = widget.LowImportance
		return container.NewVBox(sectionTitle("Window"), l)
	}
	wf := &WindowForm{Available: cols}
	b.win = wf
	kinds := []string{none, "TUMBLE", "HOP", "CUMULATE", "SESSION"}
	wf.Kind = widget.NewSelect(kinds, nil)
	wf.TimeCol = widget.NewSelect(cols, nil)
	wf.Size = widget.NewEntry()
	wf.Slide = widget.NewEntry()
	wf.SizeUnit = widget.NewSelect(authoring.IntervalUnits(), nil)
	wf.SlideUnit = widget.NewSelect(authoring.IntervalUnits(), nil)
	var names []string
	for _, c := range s.Columns {
		names = append(names, c.Name)
	}
	wf.Partition = widget.NewCheckGroup(names, nil)
	w := q.Window
	if w == nil {
		wf.Kind.SetSelected(none)
		wf.TimeCol.SetSelected(cols[0])
		wf.Size.SetText("1")
		wf.SizeUnit.SetSelected("HOUR")
		wf.Slide.SetText("15")
		wf.SlideUnit.SetSelected("MINUTE")
	} else {
		wf.Kind.SetSelected(w.Kind.String())
		if !slices.Contains(wf.TimeCol.Options, w.TimeColumn) {
			wf.TimeCol.Options = append(wf.TimeCol.Options, w.TimeColumn)
		}
		wf.TimeCol.SetSelected(w.TimeColumn)
		wf.Size.SetText(strconv.FormatInt(w.Size.Value, 10))
		wf.SizeUnit.SetSelected(w.Size.Unit)
		if w.Slide.Value > 0 {
			wf.Slide.SetText(strconv.FormatInt(w.Slide.Value, 10))
			wf.SlideUnit.SetSelected(w.Slide.Unit)
		} else {
			wf.Slide.SetText("15")
			wf.SlideUnit.SetSelected("MINUTE")
		}
		wf.Partition.Selected = slices.Clone(w.PartitionBy)
	}
	apply := func(restructure bool) {
		k := slices.Index(kinds, wf.Kind.Selected)
		if k <= 0 {
			q.SetWindow(nil)
			b.changed(true)
			return
		}
		nw := &authoring.Window{Kind: authoring.WindowKind(k - 1), TimeColumn: wf.TimeCol.Selected}
		nw.Size = authoring.Interval{Value: atoi64(wf.Size.Text), Unit: wf.SizeUnit.Selected}
		if nw.Kind == authoring.Hop || nw.Kind == authoring.Cumulate {
			nw.Slide = authoring.Interval{Value: atoi64(wf.Slide.Text), Unit: wf.SlideUnit.Selected}
		}
		if nw.Kind == authoring.Session {
			nw.PartitionBy = slices.Clone(wf.Partition.Selected)
		}
		had := q.Window != nil
		q.SetWindow(nw)
		b.changed(restructure || !had)
	}
	wf.Kind.OnChanged = func(string) { apply(true) }
	wf.TimeCol.OnChanged = func(string) { apply(false) }
	wf.Size.OnChanged = func(string) { apply(false) }
	wf.SizeUnit.OnChanged = func(string) { apply(false) }
	wf.Slide.OnChanged = func(string) { apply(false) }
	wf.SlideUnit.OnChanged = func(string) { apply(false) }
	wf.Partition.OnChanged = func([]string) { apply(false) }

	box := container.NewVBox(sectionTitle("Window"),
		container.NewBorder(nil, nil, widget.NewLabel("Kind"), nil, wf.Kind))
	if w != nil {
		sizeName := "Size"
		if w.Kind == authoring.Session {
			sizeName = "Gap"
		}
		box.Add(container.NewBorder(nil, nil, widget.NewLabel("On"), nil, wf.TimeCol))
		box.Add(container.NewBorder(nil, nil, widget.NewLabel(sizeName), wf.SizeUnit, wf.Size))
		switch w.Kind {
		case authoring.Hop:
			box.Add(container.NewBorder(nil, nil, widget.NewLabel("Slide"), wf.SlideUnit, wf.Slide))
		case authoring.Cumulate:
			box.Add(container.NewBorder(nil, nil, widget.NewLabel("Step"), wf.SlideUnit, wf.Slide))
		case authoring.Session:
			box.Add(widget.NewLabel("Partitioned by"))
			box.Add(wf.Partition)
		}
		if !q.HasAggregates() {
			wf.Note = widget.NewLabel("Add an aggregate (e.g. AVG of a column, or COUNT(*)) to aggregate per window.")
			wf.Note.Wrapping = fyne.TextWrapWord
			wf.Note.Importance = widget.LowImportance
			box.Add(wf.Note)
		}
	}
	return box
}

func atoi64(s string) int64 {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0
	}
	return n
}

// orderSection: ORDER BY keys and LIMIT.
func (b *Panel) orderSection() fyne.CanvasObject {
	q := b.q
	box := container.NewVBox(sectionTitle("Order and limit"))
	// output names first (aliases of aggregates), then table columns
	var labels []string
	refs := map[string]authoring.ColumnRef{}
	for _, it := range q.Items {
		n := it.OutputName()
		if it.Agg == authoring.AggNone {
			n = pickerLabel(it.Column)
		}
		if n != "" && refs[n] == (authoring.ColumnRef{}) {
			labels = append(labels, n)
			if it.Agg == authoring.AggNone {
				refs[n] = it.Column
			} else {
				refs[n] = authoring.ColumnRef{Name: n}
			}
		}
	}
	if len(q.Items) == 0 || !q.HasAggregates() {
		cl, cr, _ := b.columnChoices()
		for _, l := range cl {
			if _, ok := refs[l]; !ok {
				labels = append(labels, l)
				refs[l] = cr[l]
			}
		}
	}
	for i := range q.OrderBy {
		o := &q.OrderBy[i]
		row := &OrderRow{}
		b.orderRows = append(b.orderRows, row)
		opts := labels
		if !slices.Contains(opts, pickerLabel(o.Column)) {
			opts = append(slices.Clone(labels), pickerLabel(o.Column))
			refs[pickerLabel(o.Column)] = o.Column
		}
		row.Column = widget.NewSelect(opts, func(s string) { o.Column = refs[s]; b.changed(false) })
		row.Column.Selected = pickerLabel(o.Column)
		row.Dir = widget.NewSelect([]string{"ASC", "DESC"}, func(s string) { o.Desc = s == "DESC"; b.changed(false) })
		row.Dir.Selected = map[bool]string{false: "ASC", true: "DESC"}[o.Desc]
		row.Remove = widget.NewButtonWithIcon("", theme.DeleteIcon(), func() {
			q.OrderBy = slices.Delete(q.OrderBy, i, i+1)
			b.changed(true)
		})
		row.Remove.Importance = widget.LowImportance
		box.Add(container.NewVBox(row.Column, container.NewBorder(nil, nil, nil, row.Remove, row.Dir)))
	}
	b.addOrder = widget.NewButtonWithIcon("Order by", theme.ContentAddIcon(), func() {
		if len(labels) == 0 {
			return
		}
		q.OrderBy = append(q.OrderBy, authoring.Order{Column: refs[labels[0]]})
		b.changed(true)
	})
	b.addOrder.Importance = widget.LowImportance
	b.limit = widget.NewEntry()
	b.limit.SetPlaceHolder("no limit")
	if q.Limit > 0 {
		b.limit.SetText(strconv.FormatInt(q.Limit, 10))
	}
	b.limit.OnChanged = func(s string) {
		s = strings.TrimSpace(s)
		if s == "" {
			q.Limit = 0
		} else if n, err := strconv.ParseInt(s, 10, 64); err == nil && n >= 0 {
			q.Limit = n
		} else {
			b.setStatus("✕ LIMIT must be a whole number", widget.DangerImportance)
			return
		}
		b.changed(false)
	}
	box.Add(container.NewHBox(b.addOrder))
	box.Add(container.NewBorder(nil, nil, widget.NewLabel("Limit"), nil, b.limit))
	return box
}
