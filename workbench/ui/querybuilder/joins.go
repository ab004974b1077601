package querybuilder

import (
	"fmt"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/workbench/authoring"
)

// joinsSection: join another table, keys suggested from names and types.
func (b *Panel) joinsSection() fyne.CanvasObject {
	q := b.q
	box := container.NewVBox(sectionTitle("Joins"))
	for i := range q.Joins {
		box.Add(b.joinRow(i))
	}
	var names []string
	for l := range b.tableRefs {
		names = append(names, l)
	}
	slices.Sort(names)
	b.joinTable = widget.NewSelect(names, nil)
	b.joinTable.PlaceHolder = "table to join"
	b.addJoin = widget.NewButtonWithIcon("Join", theme.ContentAddIcon(), func() {
		p, ok := b.tableRefs[b.joinTable.Selected]
		if !ok {
			b.setStatus("Choose the table to join first", widget.WarningImportance)
			return
		}
		b.join(p)
	})
	b.addJoin.Importance = widget.LowImportance
	box.Add(container.NewBorder(nil, nil, nil, b.addJoin, b.joinTable))
	return box
}

// join adds a join with the best suggested key.
func (b *Panel) join(path []string) {
	q := b.q
	t := authoring.TableRef{Path: path}
	right := b.schema(t)
	if right == nil {
		return
	}
	var left []authoring.QualifiedColumn
	main := q.From.Qualifier()
	if len(q.Joins) == 0 {
		// the main table is about to get its alias
		c := q.Clone()
		c.AddJoin(authoring.JoinInner, t, nil)
		main = c.From.Qualifier()
	}
	for ti, tr := range q.Tables() {
		s := b.schema(tr)
		if s == nil {
			continue
		}
		qual := tr.Qualifier()
		if ti == 0 {
			qual = main
		}
		for _, c := range s.Columns {
			left = append(left, authoring.QualifiedColumn{Table: qual, Column: c})
		}
	}
	var keys []authoring.JoinKey
	// a self-join matches every column with itself: no suggestion, the
	// user picks the pair
	if sugg := authoring.SuggestJoinKeys(left, path[len(path)-1], right); len(sugg) > 0 && !q.HasTable(path) {
		keys = []authoring.JoinKey{sugg[0].Key}
	}
	q.AddJoin(authoring.JoinInner, t, keys)
	if len(keys) == 0 {
		// leave the pair for the user to choose
		q.Joins[len(q.Joins)-1].Keys = []authoring.JoinKey{{}}
	}
	b.changed(true)
}

func (b *Panel) joinRow(i int) fyne.CanvasObject {
	q := b.q
	j := &q.Joins[i]
	row := &JoinRow{}
	b.joinRows = append(b.joinRows, row)
	var kinds []string
	for _, k := range []authoring.JoinKind{authoring.JoinInner, authoring.JoinLeft, authoring.JoinRight, authoring.JoinFull} {
		kinds = append(kinds, k.String())
	}
	row.Kind = widget.NewSelect(kinds, nil)
	row.Kind.SetSelected(j.Kind.String())
	row.Kind.OnChanged = func(s string) {
		j.Kind = authoring.JoinKind(slices.Index(kinds, s))
		b.changed(false)
	}
	// left: columns of the tables joined before; right: the joined table's
	var leftLabels []string
	leftRefs := map[string]authoring.ColumnRef{}
	for ti, t := range q.Tables()[:i+1] {
		if s := b.schema(t); s != nil {
			for _, c := range s.Columns {
				ref := authoring.ColumnRef{Table: b.qualifier(ti), Name: c.Name}
				leftLabels = append(leftLabels, pickerLabel(ref))
				leftRefs[pickerLabel(ref)] = ref
			}
		}
	}
	var rightLabels []string
	var rs *types.Schema
	if rs = b.schema(j.Table); rs != nil {
		for _, c := range rs.Columns {
			rightLabels = append(rightLabels, c.Name)
		}
	}
	if len(j.Keys) == 0 {
		j.Keys = []authoring.JoinKey{{}}
	}
	k := &j.Keys[0]
	row.Left = widget.NewSelect(leftLabels, nil)
	if k.Left.Name != "" {
		row.Left.SetSelected(pickerLabel(k.Left))
	}
	row.Left.OnChanged = func(s string) { k.Left = leftRefs[s]; b.changed(false) }
	row.Right = widget.NewSelect(rightLabels, nil)
	if k.Right != "" {
		row.Right.SetSelected(k.Right)
	}
	row.Right.OnChanged = func(s string) { k.Right = s; b.changed(false) }
	row.Remove = widget.NewButtonWithIcon("", theme.DeleteIcon(), func() {
		q.RemoveJoin(i)
		if len(q.Joins) == 0 {
			q.From.Alias = ""
			unqualify(q)
		}
		b.changed(true)
	})
	row.Remove.Importance = widget.LowImportance
	what := widget.NewLabel("JOIN " + j.Table.String() + " AS " + j.Table.Qualifier())
	what.Truncation = fyne.TextTruncateEllipsis
	head := container.NewBorder(nil, nil, row.Kind, row.Remove, what)
	on := container.NewBorder(nil, nil, widget.NewLabel("ON"), nil, container.NewVBox(row.Left, container.NewBorder(nil, nil, widget.NewLabel("="), nil, row.Right)))
	box := container.NewVBox(head, on)
	if len(j.Keys) > 1 {
		row.Hint = widget.NewLabel(fmt.Sprintf("and %d more key pair(s), kept as written", len(j.Keys)-1))
		row.Hint.Importance = widget.LowImportance
		box.Add(row.Hint)
	}
	return box
}

// unqualify drops the main table's alias from references once the last
// join is gone (a single-table query needs no qualifiers).
func unqualify(q *authoring.Query) {
	fix := func(c *authoring.ColumnRef) { c.Table = "" }
	for i := range q.Items {
		fix(&q.Items[i].Column)
	}
	for i := range q.Filters {
		fix(&q.Filters[i].Column)
	}
	for i := range q.GroupBy {
		fix(&q.GroupBy[i])
	}
	for i := range q.OrderBy {
		fix(&q.OrderBy[i].Column)
	}
}
