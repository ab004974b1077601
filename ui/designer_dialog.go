package ui

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/authoring"
	"github.com/riffle-sql/riffle/catalogbrowser"
	"github.com/riffle-sql/riffle/editor"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/ui/widgets"
)

// The table designer: File ▸ New table… and the catalog tree's "Edit
// table…". A form over authoring.Design (name, columns with a type picker,
// computed and metadata columns, primary key, rowtime and watermark,
// partition keys, connector and format with their declared options) with
// validation as you type and a live preview of the statement(s) it runs:
// CREATE TABLE for a new table; ALTER TABLE for an existing one, or
// drop-and-create (after asking) for what Flink cannot alter.

// columnKinds label the column kinds in the kind choice.
var columnKinds = []string{"physical", "computed", "metadata"}

// designerDialog is an open table designer.
type designerDialog struct {
	wb  *Workbench
	d   *authoring.Design
	dlg dialog.Dialog

	name      *widget.Entry
	temporary *widget.Check
	comment   *widget.Entry
	columns   *fyne.Container
	pk        *widget.CheckGroup
	partition *widget.CheckGroup
	wmCheck   *widget.Check
	wmColumn  *widget.Select
	wmDelay   *widget.Entry
	wmUnit    *widget.Select
	wmExpr    *widget.Entry
	connector *widget.Select
	format    *widget.Select
	options   *fyne.Container
	newKey    *widget.Entry
	newValue  *widget.Entry
	problems  *widget.Label
	preview   *editor.Editor
	initCheck *widget.Check
	apply     *widget.Button
	// positions confirms moving columns of a csv table (shown when the
	// design moves some: Design.PositionChanges).
	positions *widget.Check

	// rows are the column editors; optionInputs and optionProblems the
	// option rows' inputs and problem labels, by key.
	rows           []*designerRow
	addColumn      *widget.Button
	optionInputs   map[string]fyne.CanvasObject
	optionProblems map[string]*widget.Label
	// building is set while widgets are (re)filled from the design.
	building bool
	// done is called after the statements ran (for tests).
	done func(err error)

	// file is what inference found in the path's file, inferGen counts
	// path changes (designer_infer.go).
	file     *designerFile
	inferGen int
	// formScroll scrolls the form both ways (designer_layout.go).
	formScroll *container.Scroll
}

// showTableDesignerFor opens the designer on an existing table of the
// catalog tree (the embedded engine's; a gateway's tables are changed
// with DDL in an editor tab on that connection).
func (wb *Workbench) showTableDesignerFor(r catalogbrowser.Ref) {
	if wb.conns != nil && wb.conns.shown != nil && !wb.conns.shown.embedded() {
		dialog.ShowInformation("Edit table", "The table designer changes tables of the embedded engine.\n"+
			r.Object+" belongs to "+wb.conns.shown.name()+": change it with ALTER TABLE in a tab on that connection.", wb.win)
		return
	}
	wb.showTableDesigner(&r)
}

// showTableDesigner opens the designer: on a new table (nil) or on the
// table r.
func (wb *Workbench) showTableDesigner(r *catalogbrowser.Ref) *designerDialog {
	var d *authoring.Design
	if r == nil {
		d = authoring.NewDesign("")
		d.Columns = []authoring.ColumnDesign{{Name: "id", Type: authoring.TypeSpec{Name: "BIGINT"}}}
		d.SetConnector("filesystem")
		d.SetFormat("csv")
	} else {
		info, err := wb.authoringCatalog().Table([]string{r.Catalog, r.Database, r.Object})
		if err == nil {
			d, err = authoring.DesignFromTable(info)
		}
		if err != nil {
			dialog.ShowError(err, wb.win)
			return nil
		}
	}
	dd := &designerDialog{wb: wb, d: d, optionProblems: map[string]*widget.Label{}}
	wb.authoring().designer = dd
	dd.build()
	return dd
}

func (dd *designerDialog) build() {
	d := dd.d
	dd.building = true
	defer func() { dd.building = false }()

	dd.name = widget.NewEntry()
	dd.name.SetPlaceHolder("table name, or catalog.database.table")
	dd.name.SetText(pathText(d.Path))
	dd.name.OnChanged = func(s string) {
		d.Path = splitPath(s)
		dd.changed()
	}
	dd.temporary = widget.NewCheck("Temporary", func(b bool) { d.Temporary = b; dd.changed() })
	dd.temporary.SetChecked(d.Temporary)
	dd.comment = widget.NewEntry()
	dd.comment.SetPlaceHolder("table comment (optional)")
	dd.comment.SetText(d.Comment)
	dd.comment.OnChanged = func(s string) { d.Comment = s; dd.changed() }

	dd.columns = container.NewVBox()
	addCol := widget.NewButtonWithIcon("Column", theme.ContentAddIcon(), func() {
		d.Columns = append(d.Columns, authoring.ColumnDesign{Name: fmt.Sprintf("c%d", len(d.Columns)+1), Type: authoring.TypeSpec{Name: "STRING"}})
		dd.fillColumns()
		dd.changed()
	})
	addCol.Importance = widget.LowImportance
	dd.addColumn = addCol

	dd.pk = widget.NewCheckGroup(nil, func(sel []string) {
		if !dd.building {
			d.PrimaryKey = dd.ordered(sel)
			dd.changed()
		}
	})
	dd.pk.Horizontal = true
	dd.partition = widget.NewCheckGroup(nil, func(sel []string) {
		if !dd.building {
			d.PartitionBy = dd.ordered(sel)
			dd.changed()
		}
	})
	dd.partition.Horizontal = true

	dd.wmCheck = widget.NewCheck("Rowtime column", func(b bool) {
		if dd.building {
			return
		}
		if b {
			d.Watermark = &authoring.Watermark{Column: dd.wmColumn.Selected, Delay: dd.wmDelay.Text, Unit: dd.wmUnit.Selected, Expr: dd.wmExpr.Text}
		} else {
			d.Watermark = nil
		}
		dd.changed()
	})
	dd.wmColumn = widget.NewSelect(nil, func(s string) { dd.setWatermark(func(w *authoring.Watermark) { w.Column = s }) })
	dd.wmDelay = widget.NewEntry()
	dd.wmDelay.SetPlaceHolder("0")
	dd.wmDelay.OnChanged = func(s string) { dd.setWatermark(func(w *authoring.Watermark) { w.Delay = s }) }
	dd.wmUnit = widget.NewSelect(authoring.IntervalUnits(), func(s string) { dd.setWatermark(func(w *authoring.Watermark) { w.Unit = s }) })
	dd.wmUnit.SetSelected("SECOND")
	dd.wmExpr = widget.NewEntry()
	dd.wmExpr.SetPlaceHolder("or a custom watermark expression")
	dd.wmExpr.OnChanged = func(s string) { dd.setWatermark(func(w *authoring.Watermark) { w.Expr = s }) }
	if w := d.Watermark; w != nil {
		dd.wmCheck.SetChecked(true)
		dd.wmDelay.SetText(w.Delay)
		if w.Unit != "" {
			dd.wmUnit.SetSelected(w.Unit)
		}
		dd.wmExpr.SetText(w.Expr)
	}

	dd.connector = widget.NewSelect(authoring.Connectors(), func(s string) {
		if dd.building || s == d.Connector {
			return
		}
		d.SetConnector(s)
		dd.fillOptions()
		dd.changed()
	})
	dd.connector.SetSelected(d.Connector)
	dd.format = widget.NewSelect(append([]string{""}, authoring.Formats()...), func(s string) {
		if dd.building {
			return
		}
		if s == "" {
			if f, ok := d.Option("format"); ok {
				d.RemoveOption("format")
				d.Options = slices.DeleteFunc(d.Options, func(o authoring.OptionValue) bool { return strings.HasPrefix(o.Key, f+".") })
			}
		} else {
			d.SetFormat(s)
		}
		dd.fillOptions()
		dd.changed()
	})
	dd.options = container.NewVBox()
	dd.newKey = widget.NewEntry()
	dd.newKey.SetPlaceHolder("other option key, e.g. fields.id.kind")
	dd.newValue = widget.NewEntry()
	dd.newValue.SetPlaceHolder("value")
	addOpt := widget.NewButtonWithIcon("Option", theme.ContentAddIcon(), func() {
		k := strings.TrimSpace(dd.newKey.Text)
		if k == "" {
			return
		}
		d.SetOption(k, dd.newValue.Text)
		dd.newKey.SetText("")
		dd.newValue.SetText("")
		dd.fillOptions()
		dd.changed()
	})
	addOpt.Importance = widget.LowImportance

	dd.problems = widget.NewLabel("")
	dd.problems.Wrapping = fyne.TextWrapWord
	dd.preview = editor.New()
	dd.preview.OnChanged = func(string) {
		if !dd.building {
			dd.showPreview() // read-only: typing is undone
		}
	}
	dd.initCheck = widget.NewCheck("Record in the workspace's init script", nil)
	dd.initCheck.SetChecked(true)
	dd.positions = widget.NewCheck("The data has its fields in the new column order", func(b bool) {
		if !dd.building {
			d.ConfirmPositions = b
			dd.changed()
		}
	})
	dd.positions.Hide()

	label := "Create table"
	title := "New table"
	if !d.IsNew() {
		label, title = "Apply changes", "Edit table "+pathText(d.Path)
	}
	dd.apply = widget.NewButton(label, dd.run)
	dd.apply.Importance = widget.HighImportance
	cancel := widget.NewButton("Cancel", func() { dd.dlg.Hide() })

	head := widget.NewForm(
		widget.NewFormItem("Name", container.NewBorder(nil, nil, nil, dd.temporary, dd.name)),
		widget.NewFormItem("Comment", dd.comment),
	)
	colHead := container.NewBorder(nil, nil, widget.NewLabelWithStyle("Columns", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), addCol)
	wm := container.NewBorder(nil, nil, container.NewHBox(dd.wmCheck, container.NewGridWrap(fyne.NewSize(180, dd.wmDelay.MinSize().Height), dd.wmColumn),
		widget.NewLabel("delay"), container.NewGridWrap(fyne.NewSize(70, dd.wmDelay.MinSize().Height), dd.wmDelay), dd.wmUnit), nil, dd.wmExpr)
	keys := widget.NewForm(
		widget.NewFormItem("Primary key", wideChoices(dd.pk)), // designer_layout.go: a row of 15 names scrolls, not widens
		widget.NewFormItem("Watermark", wm),
		widget.NewFormItem("Partitioned by", wideChoices(dd.partition)),
	)
	conn := widget.NewForm(
		widget.NewFormItem("Connector", container.NewHBox(dd.connector, widget.NewLabel("Format"), dd.format)),
	)
	other := container.NewBorder(nil, nil, nil, addOpt, container.NewGridWithColumns(2, dd.newKey, dd.newValue))
	form := container.NewVBox(head, widget.NewSeparator(), colHead, dd.columns, widget.NewSeparator(), keys, widget.NewSeparator(),
		conn, dd.options, other)
	previewBox := container.NewBorder(widget.NewLabelWithStyle("Preview", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, nil, nil, dd.preview)
	dd.formScroll = container.NewScroll(form)                                  // both ways: a wide form scrolls inside the dialog
	split := container.NewVSplit(widgets.WithWheel(dd.formScroll), previewBox) // wheel_passthrough.go: the wheel scrolls over inputs too
	split.Offset = 0.66
	bar := container.NewBorder(nil, nil, nil, container.NewVBox(dd.positions, dd.initCheck, container.NewHBox(layout.NewSpacer(), cancel, dd.apply)), dd.problems)
	content := container.NewBorder(nil, bar, nil, nil, split)

	dd.building = false
	dd.fillColumns()
	dd.fillOptions()
	dd.changed()
	dd.dlg = dialog.NewCustomWithoutButtons(title, content, dd.wb.win)
	cs := dd.wb.win.Canvas().Size()
	dd.dlg.Resize(fyne.NewSize(min(1100, cs.Width-40), min(900, cs.Height-30)))
	dd.dlg.Show()
}

// pathText shows a table path as typed: parts quoted where needed.
func pathText(path []string) string {
	var parts []string
	for _, p := range path {
		if p != "" {
			parts = append(parts, sql.QuoteIdentIfNeeded(p))
		}
	}
	return strings.Join(parts, ".")
}

// splitPath reads a typed table name: 1 to 3 dot-separated parts,
// backquoted where they hold dots or spaces.
func splitPath(s string) []string {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil
	}
	var parts []string
	var cur strings.Builder
	quoted := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '`' && quoted && i+1 < len(s) && s[i+1] == '`':
			cur.WriteByte('`')
			i++
		case c == '`':
			quoted = !quoted
		case c == '.' && !quoted:
			parts = append(parts, strings.TrimSpace(cur.String()))
			cur.Reset()
		default:
			cur.WriteByte(c)
		}
	}
	return append(parts, strings.TrimSpace(cur.String()))
}

// ordered keeps the column order of the table for a set of names.
func (dd *designerDialog) ordered(sel []string) []string {
	var out []string
	for _, c := range dd.d.Columns {
		if slices.Contains(sel, c.Name) && !slices.Contains(out, c.Name) {
			out = append(out, c.Name)
		}
	}
	return out
}

func (dd *designerDialog) setWatermark(f func(w *authoring.Watermark)) {
	if dd.building || dd.d.Watermark == nil {
		return
	}
	f(dd.d.Watermark)
	dd.changed()
}

// fillColumns rebuilds the column rows (after adding, removing, moving a
// column or changing its kind).
func (dd *designerDialog) fillColumns() {
	was := dd.building
	dd.building = true
	defer func() { dd.building = was }()
	dd.columns.RemoveAll()
	dd.rows = nil
	for i := range dd.d.Columns {
		dd.columns.Add(dd.columnRow(i))
	}
	dd.columns.Refresh()
	dd.fillColumnChoices()
}

// fillColumnChoices updates the choices that list columns: primary key,
// partition keys, rowtime column.
func (dd *designerDialog) fillColumnChoices() {
	was := dd.building
	dd.building = true
	defer func() { dd.building = was }()
	var names, physical []string
	for _, c := range dd.d.Columns {
		if c.Name == "" {
			continue
		}
		names = append(names, c.Name)
		if c.Kind == types.PhysicalColumn {
			physical = append(physical, c.Name)
		}
	}
	dd.pk.Options = physical
	dd.pk.Selected = slices.DeleteFunc(slices.Clone(dd.d.PrimaryKey), func(k string) bool { return !slices.Contains(physical, k) })
	dd.pk.Refresh()
	dd.partition.Options = physical
	dd.partition.Selected = slices.DeleteFunc(slices.Clone(dd.d.PartitionBy), func(k string) bool { return !slices.Contains(physical, k) })
	dd.partition.Refresh()
	dd.wmColumn.Options = names
	if w := dd.d.Watermark; w != nil {
		dd.wmColumn.Selected = w.Column
	} else if dd.wmColumn.Selected == "" || !slices.Contains(names, dd.wmColumn.Selected) {
		dd.wmColumn.Selected = ""
		for _, c := range dd.d.Columns {
			if t, err := c.Type.Resolve(); err == nil && c.Kind != types.MetadataColumn && t.IsTimestamp() {
				dd.wmColumn.Selected = c.Name
				break
			}
		}
	}
	dd.wmColumn.Refresh()
}

// designerRow is the editor of one column.
type designerRow struct {
	name, expr, comment, metaKey *widget.Entry
	kind, typ                    *widget.Select
	params                       *fyne.Container
	notNull, virtual             *widget.Check
	up, down, del                *widget.Button
}

// columnRow is the editor of column i.
func (dd *designerDialog) columnRow(i int) fyne.CanvasObject {
	d := dd.d
	c := &d.Columns[i]
	row := &designerRow{}
	dd.rows = append(dd.rows, row)
	name := widget.NewEntry()
	name.SetText(c.Name)
	name.OnChanged = func(s string) {
		old := c.Name
		c.Name = s
		renameKeys(d, old, s)
		dd.fillColumnChoices()
		dd.changed()
	}
	kind := widget.NewSelect(columnKinds, nil)
	kind.SetSelected(columnKinds[c.Kind])
	kind.OnChanged = func(s string) {
		k := types.ColumnKind(slices.Index(columnKinds, s))
		if k == c.Kind || dd.building {
			return
		}
		c.Kind = k
		if k != types.ComputedColumn && c.Type.SQL() == "" {
			c.Type = authoring.TypeSpec{Name: "STRING"}
		}
		dd.fillColumns()
		dd.changed()
	}
	del := widget.NewButtonWithIcon("", theme.DeleteIcon(), func() {
		d.Columns = slices.Delete(d.Columns, i, i+1)
		dd.fillColumns()
		dd.changed()
	})
	up := widget.NewButtonWithIcon("", theme.MoveUpIcon(), func() {
		if i > 0 {
			d.Columns[i-1], d.Columns[i] = d.Columns[i], d.Columns[i-1]
			dd.fillColumns()
			dd.changed()
		}
	})
	down := widget.NewButtonWithIcon("", theme.MoveDownIcon(), func() {
		if i+1 < len(d.Columns) {
			d.Columns[i+1], d.Columns[i] = d.Columns[i], d.Columns[i+1]
			dd.fillColumns()
			dd.changed()
		}
	})
	for _, b := range []*widget.Button{del, up, down} {
		b.Importance = widget.LowImportance
	}
	comment := widget.NewEntry()
	comment.SetPlaceHolder("comment")
	comment.SetText(c.Comment)
	comment.OnChanged = func(s string) { c.Comment = s; dd.changed() }
	row.name, row.kind, row.comment, row.up, row.down, row.del = name, kind, comment, up, down, del

	var middle fyne.CanvasObject
	switch c.Kind {
	case types.ComputedColumn:
		expr := widget.NewEntry()
		expr.SetPlaceHolder("expression, e.g. price * quantity")
		expr.SetText(c.Expr)
		expr.OnChanged = func(s string) { c.Expr = s; dd.changed() }
		middle = expr
		row.expr = expr
	default:
		typ := dd.typePicker(c, row)
		notNull := widget.NewCheck("NOT NULL", func(b bool) { c.NotNull = b; dd.changed() })
		notNull.SetChecked(c.NotNull)
		row.notNull = notNull
		parts := []fyne.CanvasObject{typ, notNull}
		if c.Kind == types.MetadataColumn {
			key := widget.NewEntry()
			key.SetPlaceHolder("metadata key")
			key.SetText(c.MetadataKey)
			key.OnChanged = func(s string) { c.MetadataKey = s; dd.changed() }
			virtual := widget.NewCheck("VIRTUAL", func(b bool) { c.Virtual = b; dd.changed() })
			virtual.SetChecked(c.Virtual)
			row.metaKey, row.virtual = key, virtual
			parts = append(parts, container.NewGridWrap(fyne.NewSize(140, key.MinSize().Height), key), virtual)
		}
		middle = container.NewHBox(parts...)
	}
	left := container.NewHBox(container.NewGridWrap(fyne.NewSize(dd.nameWidth(), name.MinSize().Height), name), // designer_layout.go: names uncut
		container.NewGridWrap(fyne.NewSize(115, kind.MinSize().Height), kind))
	right := container.NewHBox(container.NewGridWrap(fyne.NewSize(120, comment.MinSize().Height), comment), up, down, del)
	return container.NewBorder(nil, nil, left, right, middle)
}

// renameKeys follows a column rename in the keys and the watermark.
func renameKeys(d *authoring.Design, old, name string) {
	for _, keys := range [][]string{d.PrimaryKey, d.PartitionBy} {
		for i, k := range keys {
			if k == old {
				keys[i] = name
			}
		}
	}
	if w := d.Watermark; w != nil && w.Column == old {
		w.Column = name
	}
}

// typePicker chooses a column type: a type name with its parameters, or
// the text of a complex type.
func (dd *designerDialog) typePicker(c *authoring.ColumnDesign, row *designerRow) fyne.CanvasObject {
	choices := authoring.TypeChoices()
	var names []string
	for _, ch := range choices {
		names = append(names, ch.Name)
	}
	params := container.NewHBox()
	sel := widget.NewSelect(names, nil)
	row.typ, row.params = sel, params
	var fill func(name string)
	fill = func(name string) {
		params.RemoveAll()
		var ch authoring.TypeChoice
		for _, x := range choices {
			if x.Name == name {
				ch = x
			}
		}
		if ch.Complex {
			text := widget.NewEntry()
			text.SetPlaceHolder(ch.Example)
			if c.Type.Text != "" {
				text.SetText(c.Type.Text)
			}
			text.OnChanged = func(s string) {
				c.Type = authoring.TypeSpec{Text: s}
				dd.changed()
			}
			params.Add(container.NewGridWrap(fyne.NewSize(200, text.MinSize().Height), text))
			return
		}
		for k, p := range ch.Params {
			e := widget.NewEntry()
			e.SetPlaceHolder(fmt.Sprintf("%s %d", p.Name, p.Default))
			if k < len(c.Type.Params) {
				e.SetText(strconv.Itoa(c.Type.Params[k]))
			}
			e.OnChanged = func(s string) {
				dd.setTypeParam(c, k, s)
			}
			params.Add(container.NewGridWrap(fyne.NewSize(90, e.MinSize().Height), e))
		}
	}
	cur := c.Type.Name
	if c.Type.Text != "" {
		cur = strings.ToUpper(strings.TrimSpace(c.Type.Text))
		for _, ch := range choices {
			if ch.Complex && strings.HasPrefix(cur, ch.Name) {
				cur = ch.Name
			}
		}
	}
	sel.SetSelected(cur)
	fill(cur)
	sel.OnChanged = func(s string) {
		if s == c.Type.Name && c.Type.Text == "" {
			return
		}
		c.Type = authoring.TypeSpec{Name: s}
		for _, ch := range choices {
			if ch.Name == s && ch.Complex {
				c.Type = authoring.TypeSpec{Text: ch.Example}
			}
		}
		fill(s)
		dd.fillColumnChoices()
		dd.changed()
	}
	return container.NewHBox(container.NewGridWrap(fyne.NewSize(145, sel.MinSize().Height), sel), params)
}

// setTypeParam sets parameter k of a column type from the text typed; an
// empty field leaves it (and the ones after it) at Flink's default.
func (dd *designerDialog) setTypeParam(c *authoring.ColumnDesign, k int, s string) {
	ps := slices.Clone(c.Type.Params)
	s = strings.TrimSpace(s)
	if s == "" {
		ps = ps[:min(k, len(ps))]
	} else {
		n, err := strconv.Atoi(s)
		if err != nil {
			n = -1 // shown as a problem by Resolve
		}
		for len(ps) <= k {
			def := 0
			for _, ch := range authoring.TypeChoices() {
				if ch.Name == c.Type.Name && len(ps) < len(ch.Params) {
					def = ch.Params[len(ps)].Default
				}
			}
			ps = append(ps, def)
		}
		ps[k] = n
	}
	c.Type.Params = ps
	dd.changed()
}

// fillOptions rebuilds the option rows for the connector and format.
func (dd *designerDialog) fillOptions() {
	was := dd.building
	dd.building = true
	defer func() { dd.building = was }()
	d := dd.d
	dd.options.RemoveAll()
	dd.optionProblems = map[string]*widget.Label{}
	dd.optionInputs = map[string]fyne.CanvasObject{}
	f, _ := d.Option("format")
	dd.format.SetSelected(f)
	for _, of := range d.OptionFields() {
		o := of.Option
		if o.Key == "format" {
			continue // the format choice
		}
		template := strings.Contains(o.Key, "#")
		key := o.Key
		label := widget.NewLabel(key)
		if o.Required {
			label.TextStyle = fyne.TextStyle{Bold: true}
			label.SetText(key + " *")
		}
		var input fyne.CanvasObject
		setValue := func(s string) {
			if template {
				return
			}
			if s == "" && !o.Required {
				d.RemoveOption(key)
			} else {
				d.SetOption(key, s)
			}
			if key == "path" {
				dd.pathChanged(s) // designer_infer.go: infer the columns of a new table's file
			}
			dd.changed()
		}
		switch {
		case template:
			hint := widget.NewLabel("per field: add it below as " + strings.Replace(key, "#", "<field>", 1))
			hint.Importance = widget.LowImportance
			input = hint
		case len(o.Values) > 0 || o.Kind == "bool":
			vals := o.Values
			if o.Kind == "bool" && len(vals) == 0 {
				vals = []string{"true", "false"}
			}
			s := widget.NewSelect(append([]string{""}, vals...), func(v string) {
				if !dd.building {
					setValue(v)
				}
			})
			s.PlaceHolder = "default " + o.Default
			s.SetSelected(of.Value)
			input = s
		default:
			e := widget.NewEntry()
			if o.Default != "" {
				e.SetPlaceHolder("default " + o.Default)
			}
			e.SetText(of.Value)
			e.OnChanged = setValue
			input = e
		}
		dd.optionInputs[key] = input
		problem := widget.NewLabel(of.Problem)
		problem.Importance = widget.DangerImportance
		problem.Wrapping = fyne.TextWrapWord
		dd.optionProblems[key] = problem
		desc := widget.NewLabel(o.Description)
		desc.Importance = widget.LowImportance
		desc.Wrapping = fyne.TextWrapWord
		if !of.Declared {
			desc.SetText("not declared by the connector or format")
		}
		if of.Problem == "" {
			problem.Hide()
		}
		if desc.Text == "" {
			desc.Hide()
		}
		row := container.NewBorder(nil, nil, container.NewGridWrap(fyne.NewSize(210, label.MinSize().Height), label), nil,
			container.NewGridWithColumns(2, container.NewVBox(input), container.NewVBox(problem, desc)))
		if !of.Declared || (of.Set && !o.Required) {
			rm := widget.NewButtonWithIcon("", theme.ContentRemoveIcon(), func() {
				d.RemoveOption(key)
				dd.fillOptions()
				dd.changed()
			})
			rm.Importance = widget.LowImportance
			row = container.NewBorder(nil, nil, nil, rm, row)
		}
		dd.options.Add(row)
	}
	dd.options.Refresh()
}

// statements returns what applying runs, and whether it drops and
// creates the table.
func (dd *designerDialog) statements() ([]string, bool, []string, error) {
	if dd.d.IsNew() {
		return []string{dd.d.CreateTableSQL()}, false, nil, nil
	}
	p, err := dd.d.Changes()
	if err != nil {
		return nil, false, nil, err
	}
	return p.Statements, p.Recreate, p.Reasons, nil
}

// changed re-validates and refreshes the preview (as the user types).
func (dd *designerDialog) changed() {
	if dd.building || dd.preview == nil {
		return
	}
	ps := dd.d.Validate()
	var lines []string
	errs := 0
	for _, p := range ps {
		prefix := "✕ "
		if p.Warning {
			prefix = "⚠ "
		} else {
			errs++
		}
		lines = append(lines, prefix+p.String())
	}
	// option problems next to their fields
	fields := map[string]string{}
	for _, f := range dd.d.OptionFields() {
		fields[f.Option.Key] = f.Problem
	}
	for k, l := range dd.optionProblems {
		if l.Text != fields[k] {
			l.SetText(fields[k])
		}
		if fields[k] == "" {
			l.Hide()
		} else {
			l.Show()
		}
	}
	fl, ferrs := dd.fileProblems() // designer_infer.go: the design against its file
	lines, errs = append(lines, fl...), errs+ferrs
	if len(lines) == 0 {
		lines = []string{"✓ No problems"}
	}
	if len(dd.d.PositionChanges()) > 0 {
		dd.positions.Show()
	} else {
		dd.positions.Hide()
	}
	dd.problems.SetText(strings.Join(lines, "\n"))
	if errs > 0 {
		dd.problems.Importance = widget.DangerImportance
		dd.apply.Disable()
	} else {
		dd.problems.Importance = widget.MediumImportance
		dd.apply.Enable()
	}
	dd.problems.Refresh()
	dd.showPreview()
}

// showPreview writes the statements into the preview.
func (dd *designerDialog) showPreview() {
	var text string
	stmts, recreate, reasons, err := dd.statements()
	switch {
	case err != nil && dd.d.IsNew():
		text = dd.d.CreateTableSQL()
	case err != nil:
		text = "-- " + err.Error()
	case len(stmts) == 0:
		text = "-- no changes"
		dd.apply.Disable()
	default:
		if recreate {
			text = "-- Flink cannot ALTER this: " + strings.Join(reasons, "; ") + ".\n-- The table is dropped and created again (its data stays where the connector keeps it).\n"
		}
		shown := make([]string, len(stmts))
		for i, st := range stmts {
			shown[i] = breakAlter(st, dd.d.OriginalPath())
		}
		text += strings.Join(shown, ";\n\n") + ";"
	}
	if dd.preview.Text() != text {
		was := dd.building
		dd.building = true
		dd.preview.SetText(text)
		dd.building = was
	}
}

// run applies the design: CREATE, ALTER, or (after asking) DROP + CREATE.
func (dd *designerDialog) run() {
	stmts, recreate, reasons, err := dd.statements()
	if err != nil {
		dialog.ShowError(err, dd.wb.win)
		return
	}
	if len(stmts) == 0 {
		return
	}
	if recreate {
		msg := "Flink cannot ALTER what changed:\n• " + strings.Join(reasons, "\n• ") +
			"\n\nDrop " + pathText(dd.d.Path) + " and create it again? The catalog entry is replaced; the data stays where the connector keeps it."
		c := dialog.NewConfirm("Drop and create the table?", msg, func(ok bool) {
			if ok {
				dd.exec(stmts, true)
			}
		}, dd.wb.win)
		c.SetConfirmText("Drop and create")
		c.Show()
		dd.wb.authoring().confirm = c
		return
	}
	dd.exec(stmts, false)
}

func (dd *designerDialog) exec(stmts []string, recreate bool) {
	record := dd.initCheck.Checked
	create := dd.d.CreateTableSQL()
	dd.apply.Disable()
	run := dd.wb.execDDL
	if !dd.d.IsNew() {
		d := dd.d
		run = func(stmts []string, done func(error)) { dd.wb.applyChange(d, stmts, done) }
	}
	run(stmts, func(err error) {
		defer func() {
			if dd.done != nil {
				dd.done(err)
			}
		}()
		if err != nil {
			dd.problems.SetText("✕ " + err.Error())
			dd.problems.Importance = widget.DangerImportance
			dd.problems.Refresh()
			dd.apply.Enable()
			return
		}
		msg := "Table " + pathText(dd.d.Path)
		if dd.d.IsNew() {
			msg += " created."
		} else {
			msg += " changed."
		}
		if record {
			msg += " " + dd.wb.recordDesign(dd.d, create, stmts, recreate)
		}
		dd.wb.messages.add(levelInfo, msg+"\n"+strings.Join(stmts, ";\n")+";", nil)
		dd.wb.setStatus(firstLine(msg))
		dd.dlg.Hide()
		var path []*sql.Ident
		for _, p := range dd.d.Path {
			path = append(path, &sql.Ident{Name: p})
		}
		dd.wb.tableCreated(path)
	})
}
