package designer

import (
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/workbench/authoring"
	"github.com/riffle-sql/riffle/workbench/editor"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
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

// Dialog is an open table designer. Its widgets are exported for the
// workbench's tests, which fill them as a user would.
type Dialog struct {
	host Host
	d    *authoring.Design
	dlg  dialog.Dialog

	Name      *widget.Entry
	Temporary *widget.Check
	Comment   *widget.Entry
	Columns   *fyne.Container
	PK        *widget.CheckGroup
	Partition *widget.CheckGroup
	WmCheck   *widget.Check
	WmColumn  *widget.Select
	WmDelay   *widget.Entry
	WmUnit    *widget.Select
	WmExpr    *widget.Entry
	Connector *widget.Select
	Format    *widget.Select
	Options   *fyne.Container
	NewKey    *widget.Entry
	NewValue  *widget.Entry
	Problems  *widget.Label
	// ProblemsScroll holds Problems in a space of a fixed height.
	ProblemsScroll *container.Scroll
	Preview        *editor.Editor
	InitCheck      *widget.Check
	Apply          *widget.Button
	// Positions confirms moving columns of a csv table (shown when the
	// design moves some: Design.PositionChanges).
	Positions *widget.Check

	// Rows are the column editors; OptionInputs and OptionProblems the
	// option rows' inputs and problem labels, by key.
	Rows           []*Row
	AddColumn      *widget.Button
	OptionInputs   map[string]fyne.CanvasObject
	OptionProblems map[string]*widget.Label
	// building is set while widgets are (re)filled from the design.
	building bool
	// Done is called after the statements ran (for tests).
	Done func(err error)

	// file is what inference found in the path's file, inferGen counts
	// path changes (infer.go).
	file     *inferredFile
	inferGen int
	// FormScroll scrolls the form both ways (layout.go).
	FormScroll *container.Scroll
}

// Show opens the designer on d (a new table's design, or one of an
// existing table: authoring.DesignFromTable) in host's window.
func Show(host Host, d *authoring.Design) *Dialog {
	dd := &Dialog{host: host, d: d, OptionProblems: map[string]*widget.Label{}}
	dd.build()
	return dd
}

// Design is the design the dialog edits (tests change it and call
// Changed).
func (dd *Dialog) Design() *authoring.Design { return dd.d }

// Hide closes the dialog.
func (dd *Dialog) Hide() { dd.dlg.Hide() }

func (dd *Dialog) build() {
	d := dd.d
	dd.building = true
	defer func() { dd.building = false }()

	dd.Name = widget.NewEntry()
	dd.Name.SetPlaceHolder("table name, or catalog.database.table")
	dd.Name.SetText(PathText(d.Path))
	dd.Name.OnChanged = func(s string) {
		d.Path = SplitPath(s)
		dd.Changed()
	}
	dd.Temporary = widget.NewCheck("Temporary", func(b bool) { d.Temporary = b; dd.Changed() })
	dd.Temporary.SetChecked(d.Temporary)
	dd.Comment = widget.NewEntry()
	dd.Comment.SetPlaceHolder("table comment (optional)")
	dd.Comment.SetText(d.Comment)
	dd.Comment.OnChanged = func(s string) { d.Comment = s; dd.Changed() }

	dd.Columns = container.NewVBox()
	addCol := widget.NewButtonWithIcon("Column", theme.ContentAddIcon(), func() {
		d.Columns = append(d.Columns, authoring.ColumnDesign{Name: fmt.Sprintf("c%d", len(d.Columns)+1), Type: authoring.TypeSpec{Name: "STRING"}})
		dd.fillColumns()
		dd.Changed()
	})
	addCol.Importance = widget.LowImportance
	dd.AddColumn = addCol

	dd.PK = widget.NewCheckGroup(nil, func(sel []string) {
		if !dd.building {
			d.PrimaryKey = dd.ordered(sel)
			dd.Changed()
		}
	})
	dd.PK.Horizontal = true
	dd.Partition = widget.NewCheckGroup(nil, func(sel []string) {
		if !dd.building {
			d.PartitionBy = dd.ordered(sel)
			dd.Changed()
		}
	})
	dd.Partition.Horizontal = true

	dd.WmCheck = widget.NewCheck("Rowtime column", func(b bool) {
		if dd.building {
			return
		}
		if b {
			d.Watermark = &authoring.Watermark{Column: dd.WmColumn.Selected, Delay: dd.WmDelay.Text, Unit: dd.WmUnit.Selected, Expr: dd.WmExpr.Text}
		} else {
			d.Watermark = nil
		}
		dd.Changed()
	})
	dd.WmColumn = widget.NewSelect(nil, func(s string) { dd.setWatermark(func(w *authoring.Watermark) { w.Column = s }) })
	dd.WmDelay = widget.NewEntry()
	dd.WmDelay.SetPlaceHolder("0")
	dd.WmDelay.OnChanged = func(s string) { dd.setWatermark(func(w *authoring.Watermark) { w.Delay = s }) }
	dd.WmUnit = widget.NewSelect(authoring.IntervalUnits(), func(s string) { dd.setWatermark(func(w *authoring.Watermark) { w.Unit = s }) })
	dd.WmUnit.SetSelected("SECOND")
	dd.WmExpr = widget.NewEntry()
	dd.WmExpr.SetPlaceHolder("or a custom watermark expression")
	dd.WmExpr.OnChanged = func(s string) { dd.setWatermark(func(w *authoring.Watermark) { w.Expr = s }) }
	if w := d.Watermark; w != nil {
		dd.WmCheck.SetChecked(true)
		dd.WmDelay.SetText(w.Delay)
		if w.Unit != "" {
			dd.WmUnit.SetSelected(w.Unit)
		}
		dd.WmExpr.SetText(w.Expr)
	}

	dd.Connector = widget.NewSelect(authoring.Connectors(), func(s string) {
		if dd.building || s == d.Connector {
			return
		}
		d.SetConnector(s)
		dd.fillOptions()
		dd.Changed()
	})
	dd.Connector.SetSelected(d.Connector)
	dd.Format = widget.NewSelect(append([]string{""}, authoring.Formats()...), func(s string) {
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
		dd.Changed()
	})
	dd.Options = container.NewVBox()
	dd.NewKey = widget.NewEntry()
	dd.NewKey.SetPlaceHolder("other option key, e.g. fields.id.kind")
	dd.NewValue = widget.NewEntry()
	dd.NewValue.SetPlaceHolder("value")
	addOpt := widget.NewButtonWithIcon("Option", theme.ContentAddIcon(), func() {
		k := strings.TrimSpace(dd.NewKey.Text)
		if k == "" {
			return
		}
		d.SetOption(k, dd.NewValue.Text)
		dd.NewKey.SetText("")
		dd.NewValue.SetText("")
		dd.fillOptions()
		dd.Changed()
	})
	addOpt.Importance = widget.LowImportance

	dd.Problems = widget.NewLabel("")
	dd.Problems.Wrapping = fyne.TextWrapWord
	dd.Preview = editor.New()
	dd.Preview.OnChanged = func(string) {
		if !dd.building {
			dd.showPreview() // read-only: typing is undone
		}
	}
	dd.InitCheck = widget.NewCheck("Record in the workspace's init script", nil)
	dd.InitCheck.SetChecked(true)
	dd.Positions = widget.NewCheck("The data has its fields in the new column order", func(b bool) {
		if !dd.building {
			d.ConfirmPositions = b
			dd.Changed()
		}
	})
	dd.Positions.Hide()

	label := "Create table"
	title := "New table"
	if !d.IsNew() {
		label, title = "Apply changes", "Edit table "+PathText(d.Path)
	}
	dd.Apply = widget.NewButton(label, dd.run)
	dd.Apply.Importance = widget.HighImportance
	cancel := widget.NewButton("Cancel", func() { dd.dlg.Hide() })

	head := widget.NewForm(
		widget.NewFormItem("Name", container.NewBorder(nil, nil, nil, dd.Temporary, dd.Name)),
		widget.NewFormItem("Comment", dd.Comment),
	)
	colHead := container.NewBorder(nil, nil, widget.NewLabelWithStyle("Columns", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), addCol)
	wm := container.NewBorder(nil, nil, container.NewHBox(dd.WmCheck, container.NewGridWrap(fyne.NewSize(180, dd.WmDelay.MinSize().Height), dd.WmColumn),
		widget.NewLabel("delay"), container.NewGridWrap(fyne.NewSize(70, dd.WmDelay.MinSize().Height), dd.WmDelay), dd.WmUnit), nil, dd.WmExpr)
	keys := widget.NewForm(
		widget.NewFormItem("Primary key", wideChoices(dd.PK)), // designer_layout.go: a row of 15 names scrolls, not widens
		widget.NewFormItem("Watermark", wm),
		widget.NewFormItem("Partitioned by", wideChoices(dd.Partition)),
	)
	conn := widget.NewForm(
		widget.NewFormItem("Connector", container.NewHBox(dd.Connector, widget.NewLabel("Format"), dd.Format)),
	)
	other := container.NewBorder(nil, nil, nil, addOpt, container.NewGridWithColumns(2, dd.NewKey, dd.NewValue))
	form := container.NewVBox(head, widget.NewSeparator(), colHead, dd.Columns, widget.NewSeparator(), keys, widget.NewSeparator(),
		conn, dd.Options, other)
	previewBox := container.NewBorder(widget.NewLabelWithStyle("Preview", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, nil, nil, dd.Preview)
	dd.FormScroll = container.NewScroll(form)                                  // both ways: a wide form scrolls inside the dialog
	split := container.NewVSplit(widgets.WithWheel(dd.FormScroll), previewBox) // wheel_passthrough.go: the wheel scrolls over inputs too
	split.Offset = 0.66
	// The problems are three lines high whatever they say, and Positions
	// keeps its room when hidden, so that the dialog's minimum size never
	// changes after Show and Apply and Cancel stay inside the box
	// (widgets.MessageBox).
	dd.ProblemsScroll = widgets.MessageBox(dd.Problems, 3)
	positionsRoom := canvas.NewRectangle(color.Transparent)
	positionsRoom.SetMinSize(dd.Positions.MinSize())
	bar := container.NewBorder(nil, nil, nil, container.NewVBox(container.NewStack(positionsRoom, dd.Positions), dd.InitCheck,
		container.NewHBox(layout.NewSpacer(), cancel, dd.Apply)), dd.ProblemsScroll)
	content := container.NewBorder(nil, bar, nil, nil, split)

	dd.building = false
	dd.fillColumns()
	dd.fillOptions()
	dd.Changed()
	win := dd.host.Window()
	dd.dlg = dialog.NewCustomWithoutButtons(title, content, win)
	cs := win.Canvas().Size()
	dd.dlg.Resize(fyne.NewSize(min(1100, cs.Width-40), min(900, cs.Height-30)))
	dd.dlg.Show()
}

// PathText shows a table path as typed: parts quoted where needed.
func PathText(path []string) string {
	var parts []string
	for _, p := range path {
		if p != "" {
			parts = append(parts, sql.QuoteIdentIfNeeded(p))
		}
	}
	return strings.Join(parts, ".")
}

// SplitPath reads a typed table name: 1 to 3 dot-separated parts,
// backquoted where they hold dots or spaces.
func SplitPath(s string) []string {
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
func (dd *Dialog) ordered(sel []string) []string {
	var out []string
	for _, c := range dd.d.Columns {
		if slices.Contains(sel, c.Name) && !slices.Contains(out, c.Name) {
			out = append(out, c.Name)
		}
	}
	return out
}

func (dd *Dialog) setWatermark(f func(w *authoring.Watermark)) {
	if dd.building || dd.d.Watermark == nil {
		return
	}
	f(dd.d.Watermark)
	dd.Changed()
}

// fillColumns rebuilds the column rows (after adding, removing, moving a
// column or changing its kind).
func (dd *Dialog) fillColumns() {
	was := dd.building
	dd.building = true
	defer func() { dd.building = was }()
	dd.Columns.RemoveAll()
	dd.Rows = nil
	for i := range dd.d.Columns {
		dd.Columns.Add(dd.columnRow(i))
	}
	dd.Columns.Refresh()
	dd.fillColumnChoices()
}

// fillColumnChoices updates the choices that list columns: primary key,
// partition keys, rowtime column.
func (dd *Dialog) fillColumnChoices() {
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
	dd.PK.Options = physical
	dd.PK.Selected = slices.DeleteFunc(slices.Clone(dd.d.PrimaryKey), func(k string) bool { return !slices.Contains(physical, k) })
	dd.PK.Refresh()
	dd.Partition.Options = physical
	dd.Partition.Selected = slices.DeleteFunc(slices.Clone(dd.d.PartitionBy), func(k string) bool { return !slices.Contains(physical, k) })
	dd.Partition.Refresh()
	dd.WmColumn.Options = names
	if w := dd.d.Watermark; w != nil {
		dd.WmColumn.Selected = w.Column
	} else if dd.WmColumn.Selected == "" || !slices.Contains(names, dd.WmColumn.Selected) {
		dd.WmColumn.Selected = ""
		for _, c := range dd.d.Columns {
			if t, err := c.Type.Resolve(); err == nil && c.Kind != types.MetadataColumn && t.IsTimestamp() {
				dd.WmColumn.Selected = c.Name
				break
			}
		}
	}
	dd.WmColumn.Refresh()
}

// Row is the editor of one column.
type Row struct {
	Name, Expr, Comment, MetaKey *widget.Entry
	Kind, Type                   *widget.Select
	Params                       *fyne.Container
	NotNull, Virtual             *widget.Check
	Up, Down, Del                *widget.Button
}

// columnRow is the editor of column i.
func (dd *Dialog) columnRow(i int) fyne.CanvasObject {
	d := dd.d
	c := &d.Columns[i]
	row := &Row{}
	dd.Rows = append(dd.Rows, row)
	name := widget.NewEntry()
	name.SetText(c.Name)
	name.OnChanged = func(s string) {
		old := c.Name
		c.Name = s
		renameKeys(d, old, s)
		dd.fillColumnChoices()
		dd.Changed()
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
		dd.Changed()
	}
	del := widget.NewButtonWithIcon("", theme.DeleteIcon(), func() {
		d.Columns = slices.Delete(d.Columns, i, i+1)
		dd.fillColumns()
		dd.Changed()
	})
	up := widget.NewButtonWithIcon("", theme.MoveUpIcon(), func() {
		if i > 0 {
			d.Columns[i-1], d.Columns[i] = d.Columns[i], d.Columns[i-1]
			dd.fillColumns()
			dd.Changed()
		}
	})
	down := widget.NewButtonWithIcon("", theme.MoveDownIcon(), func() {
		if i+1 < len(d.Columns) {
			d.Columns[i+1], d.Columns[i] = d.Columns[i], d.Columns[i+1]
			dd.fillColumns()
			dd.Changed()
		}
	})
	for _, b := range []*widget.Button{del, up, down} {
		b.Importance = widget.LowImportance
	}
	comment := widget.NewEntry()
	comment.SetPlaceHolder("comment")
	comment.SetText(c.Comment)
	comment.OnChanged = func(s string) { c.Comment = s; dd.Changed() }
	row.Name, row.Kind, row.Comment, row.Up, row.Down, row.Del = name, kind, comment, up, down, del

	var middle fyne.CanvasObject
	switch c.Kind {
	case types.ComputedColumn:
		expr := widget.NewEntry()
		expr.SetPlaceHolder("expression, e.g. price * quantity")
		expr.SetText(c.Expr)
		expr.OnChanged = func(s string) { c.Expr = s; dd.Changed() }
		middle = expr
		row.Expr = expr
	default:
		typ := dd.typePicker(c, row)
		notNull := widget.NewCheck("NOT NULL", func(b bool) { c.NotNull = b; dd.Changed() })
		notNull.SetChecked(c.NotNull)
		row.NotNull = notNull
		parts := []fyne.CanvasObject{typ, notNull}
		if c.Kind == types.MetadataColumn {
			key := widget.NewEntry()
			key.SetPlaceHolder("metadata key")
			key.SetText(c.MetadataKey)
			key.OnChanged = func(s string) { c.MetadataKey = s; dd.Changed() }
			virtual := widget.NewCheck("VIRTUAL", func(b bool) { c.Virtual = b; dd.Changed() })
			virtual.SetChecked(c.Virtual)
			row.MetaKey, row.Virtual = key, virtual
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
func (dd *Dialog) typePicker(c *authoring.ColumnDesign, row *Row) fyne.CanvasObject {
	choices := authoring.TypeChoices()
	var names []string
	for _, ch := range choices {
		names = append(names, ch.Name)
	}
	params := container.NewHBox()
	sel := widget.NewSelect(names, nil)
	row.Type, row.Params = sel, params
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
				dd.Changed()
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
		dd.Changed()
	}
	return container.NewHBox(container.NewGridWrap(fyne.NewSize(145, sel.MinSize().Height), sel), params)
}

// setTypeParam sets parameter k of a column type from the text typed; an
// empty field leaves it (and the ones after it) at Flink's default.
func (dd *Dialog) setTypeParam(c *authoring.ColumnDesign, k int, s string) {
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
	dd.Changed()
}

// fillOptions rebuilds the option rows for the connector and format.
func (dd *Dialog) fillOptions() {
	was := dd.building
	dd.building = true
	defer func() { dd.building = was }()
	d := dd.d
	dd.Options.RemoveAll()
	dd.OptionProblems = map[string]*widget.Label{}
	dd.OptionInputs = map[string]fyne.CanvasObject{}
	f, _ := d.Option("format")
	dd.Format.SetSelected(f)
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
			dd.Changed()
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
		dd.OptionInputs[key] = input
		problem := widget.NewLabel(of.Problem)
		problem.Importance = widget.DangerImportance
		problem.Wrapping = fyne.TextWrapWord
		dd.OptionProblems[key] = problem
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
				dd.Changed()
			})
			rm.Importance = widget.LowImportance
			row = container.NewBorder(nil, nil, nil, rm, row)
		}
		dd.Options.Add(row)
	}
	dd.Options.Refresh()
}

// statements returns what applying runs, and whether it drops and
// creates the table.
func (dd *Dialog) statements() ([]string, bool, []string, error) {
	if dd.d.IsNew() {
		return []string{dd.d.CreateTableSQL()}, false, nil, nil
	}
	p, err := dd.d.Changes()
	if err != nil {
		return nil, false, nil, err
	}
	return p.Statements, p.Recreate, p.Reasons, nil
}

// Changed re-validates and refreshes the preview (as the user types).
func (dd *Dialog) Changed() {
	if dd.building || dd.Preview == nil {
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
	for k, l := range dd.OptionProblems {
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
		dd.Positions.Show()
	} else {
		dd.Positions.Hide()
	}
	dd.Problems.SetText(strings.Join(lines, "\n"))
	if errs > 0 {
		dd.Problems.Importance = widget.DangerImportance
		dd.Apply.Disable()
	} else {
		dd.Problems.Importance = widget.MediumImportance
		dd.Apply.Enable()
	}
	dd.Problems.Refresh()
	if dd.ProblemsScroll != nil {
		dd.ProblemsScroll.Refresh() // clamps its offset to the new text
	}
	dd.showPreview()
}

// showPreview writes the statements into the preview.
func (dd *Dialog) showPreview() {
	var text string
	stmts, recreate, reasons, err := dd.statements()
	switch {
	case err != nil && dd.d.IsNew():
		text = dd.d.CreateTableSQL()
	case err != nil:
		text = "-- " + err.Error()
	case len(stmts) == 0:
		text = "-- no changes"
		dd.Apply.Disable()
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
	if dd.Preview.Text() != text {
		was := dd.building
		dd.building = true
		dd.Preview.SetText(text)
		dd.building = was
	}
}

// run applies the design: CREATE, ALTER, or (after asking) DROP + CREATE.
func (dd *Dialog) run() {
	stmts, recreate, reasons, err := dd.statements()
	if err != nil {
		dialog.ShowError(err, dd.host.Window())
		return
	}
	if len(stmts) == 0 {
		return
	}
	if recreate {
		msg := "Flink cannot ALTER what changed:\n• " + strings.Join(reasons, "\n• ") +
			"\n\nDrop " + PathText(dd.d.Path) + " and create it again? The catalog entry is replaced; the data stays where the connector keeps it."
		c := dialog.NewConfirm("Drop and create the table?", msg, func(ok bool) {
			if ok {
				dd.exec(stmts, true)
			}
		}, dd.host.Window())
		c.SetConfirmText("Drop and create")
		c.Show()
		dd.host.Confirming(c)
		return
	}
	dd.exec(stmts, false)
}

func (dd *Dialog) exec(stmts []string, recreate bool) {
	record := dd.InitCheck.Checked
	create := dd.d.CreateTableSQL()
	dd.Apply.Disable()
	run := dd.host.Create
	if !dd.d.IsNew() {
		d := dd.d
		run = func(stmts []string, done func(error)) { dd.host.Change(d, stmts, done) }
	}
	run(stmts, func(err error) {
		defer func() {
			if dd.Done != nil {
				dd.Done(err)
			}
		}()
		if err != nil {
			dd.Problems.SetText("✕ " + err.Error())
			dd.Problems.Importance = widget.DangerImportance
			dd.Problems.Refresh()
			widgets.ShowMessage(dd.ProblemsScroll)
			dd.Apply.Enable()
			return
		}
		msg := "Table " + PathText(dd.d.Path)
		if dd.d.IsNew() {
			msg += " created."
		} else {
			msg += " changed."
		}
		if record {
			msg += " " + dd.host.Record(dd.d, create, stmts, recreate)
		}
		dd.host.Ran(msg, stmts)
		dd.dlg.Hide()
		var path []*sql.Ident
		for _, p := range dd.d.Path {
			path = append(path, &sql.Ident{Name: p})
		}
		dd.host.TableCreated(path)
	})
}

// breakAlter starts the action of an ALTER TABLE on its own line, so that
// the narrow preview shows it.
func breakAlter(stmt string, path []string) string {
	head := "ALTER TABLE " + PathText(path) + " "
	if len(path) == 0 || !strings.HasPrefix(stmt, head) {
		return stmt
	}
	return strings.TrimSuffix(head, " ") + "\n  " + stmt[len(head):]
}
