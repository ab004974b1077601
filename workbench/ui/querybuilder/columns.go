package querybuilder

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/workbench/authoring"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

func sectionTitle(s string) fyne.CanvasObject {
	return container.NewVBox(widget.NewSeparator(), widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
}

// aggLabels are the aggregate choices (none first).
func aggLabels(t *types.DataType) []string {
	out := []string{none}
	for _, a := range authoring.Aggs()[1:] {
		if (a == authoring.AggSum || a == authoring.AggAvg) && (t == nil || !t.IsNumeric()) {
			continue
		}
		out = append(out, a.String())
	}
	return out
}

func aggOf(label string) authoring.Agg {
	for _, a := range authoring.Aggs() {
		if a.String() == label {
			return a
		}
	}
	return authoring.AggNone
}

// columnsSection: tick columns, an aggregate per column, COUNT(*).
func (b *Panel) columnsSection() fyne.CanvasObject {
	q := b.q
	box := container.NewVBox(sectionTitle("Columns"))
	if q.Window != nil {
		l := widget.NewLabel("window_start, window_end (the window)")
		l.Wrapping = fyne.TextWrapWord
		l.Importance = widget.LowImportance
		box.Add(l)
	}
	grid := container.New(widgets.NewRowsLayout(3))
	for ti, t := range q.Tables() {
		s := b.schema(t)
		if len(q.Joins) > 0 {
			head := widget.NewLabelWithStyle(t.Qualifier()+" · "+t.String(), fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
			head.Truncation = fyne.TextTruncateEllipsis
			box.Add(grid)
			grid = container.New(widgets.NewRowsLayout(3))
			box.Add(head)
		}
		if s == nil {
			box.Add(widget.NewLabel("(cannot read " + t.String() + ")"))
			continue
		}
		for _, c := range s.Columns {
			ref := authoring.ColumnRef{Table: b.qualifier(ti), Name: c.Name}
			idx := b.itemOf(ref)
			check := widget.NewCheck(c.Name, nil)
			check.SetChecked(idx >= 0)
			check.OnChanged = func(bool) {
				q.ToggleColumn(ref)
				b.changed(true)
			}
			typ := widget.NewLabel(c.Type.String())
			typ.Importance = widget.LowImportance
			typ.Truncation = fyne.TextTruncateEllipsis
			agg := widget.NewSelect(aggLabels(c.Type), nil)
			if idx >= 0 && q.Items[idx].Agg != authoring.AggNone {
				agg.SetSelected(q.Items[idx].Agg.String())
			} else {
				agg.SetSelected(none)
			}
			agg.OnChanged = func(s string) {
				i := b.itemOf(ref)
				a := aggOf(s)
				if i < 0 {
					if a == authoring.AggNone {
						return
					}
					q.ToggleColumn(ref)
					i = b.itemOf(ref)
				}
				q.SetAggregate(i, a)
				b.changed(true)
			}
			b.colChecks[ref], b.colAggs[ref] = check, agg
			grid.Add(check)
			grid.Add(typ)
			grid.Add(agg)
		}
	}
	box.Add(grid)
	hasCount := false
	for _, it := range q.Items {
		if it.Agg == authoring.AggCount && it.Column.Name == "" {
			hasCount = true
		}
	}
	b.countStar = widget.NewCheck("COUNT(*) AS cnt", func(on bool) {
		if on {
			q.AddCountStar()
		} else {
			q.Items = slices.DeleteFunc(q.Items, func(it authoring.Item) bool { return it.Agg == authoring.AggCount && it.Column.Name == "" })
			q.Regroup()
		}
		b.changed(true)
	})
	b.countStar.Checked = hasCount
	box.Add(b.countStar)
	if q.HasAggregates() {
		var keys []string
		for _, g := range q.GroupBy {
			keys = append(keys, g.String())
		}
		l := widget.NewLabel("Grouped by the ticked columns without an aggregate: " + strings.Join(keys, ", "))
		l.Wrapping = fyne.TextWrapWord
		l.Importance = widget.LowImportance
		box.Add(l)
	}
	return box
}

// itemOf returns the index of the item that selects ref (plain or
// aggregated), or -1.
func (b *Panel) itemOf(ref authoring.ColumnRef) int {
	for i, it := range b.q.Items {
		if it.Column == ref {
			return i
		}
	}
	return -1
}

// pickerLabel shows a column reference in a choice as the column list
// does: plain names, "qualifier.name" or "name" (no SQL quotes).
func pickerLabel(c authoring.ColumnRef) string {
	if c.Table == "" {
		return c.Name
	}
	return c.Table + "." + c.Name
}

// columnType is the type of a column of the query's tables (nil when
// unknown).
func (b *Panel) columnType(c authoring.ColumnRef) *types.DataType {
	_, _, typs := b.columnChoices()
	return typs[pickerLabel(c)]
}

// columnChoices lists the query's table columns as "qualifier.name" (or
// "name"), with their references and types.
func (b *Panel) columnChoices() ([]string, map[string]authoring.ColumnRef, map[string]*types.DataType) {
	var labels []string
	refs := map[string]authoring.ColumnRef{}
	typs := map[string]*types.DataType{}
	for ti, t := range b.q.Tables() {
		s := b.schema(t)
		if s == nil {
			continue
		}
		for _, c := range s.Columns {
			ref := authoring.ColumnRef{Table: b.qualifier(ti), Name: c.Name}
			l := pickerLabel(ref)
			labels = append(labels, l)
			refs[l], typs[l] = ref, c.Type
		}
	}
	return labels, refs, typs
}
