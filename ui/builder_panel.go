package ui

import (
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/authoring"
	"github.com/riffle-sql/riffle/catalogbrowser"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// The query builder panel, beside the editor (View ▸ Query builder,
// Ctrl+Shift+B, the toolbar's Builder button). It follows the statement
// under the editor's cursor: a query the builder can express is shown in
// its form, and every click rewrites that statement in the editor
// (authoring.Query.SQL); SQL it cannot show is named in the panel and left
// alone, and choosing a table then starts a new query at the end of the
// tab. Tables come from the list or are dragged from the catalog tree.

const builderNone = "—"

// builderPanel is the query builder.
type builderPanel struct {
	wb *Workbench

	// tab is the editor tab followed; q the query shown (nil: none);
	// start and end the byte range of its statement in the tab's text,
	// owned true when the builder may rewrite it (a query it can show, or
	// nothing yet).
	tab        *editorTab
	q          *authoring.Query
	start, end int
	owned      bool
	// unsupported says why the statement under the cursor is not shown.
	unsupported string
	// writing is set while the builder writes into the editor.
	writing bool
	// lastSQL is the query's SQL as last shown (to skip needless redraws).
	lastSQL string

	shown   bool
	center  fyne.CanvasObject // editors and results
	area    *fyne.Container   // the centre, or the split of it and the builder
	split   *container.Split
	content fyne.CanvasObject
	bg      *canvas.Rectangle // highlighted while a table is dragged over

	tableSel  *widget.Select
	form      *container.Scroll   // the form's scroller (the wheel drives it over inputs too)
	tableRefs map[string][]string // list label → path
	body      *fyne.Container
	status    *widget.Label
	goBtn     *widget.Button
	runBtn    *widget.Button
	newBtn    *widget.Button
	dragPop   *widget.PopUp
	dragLabel *widget.Label

	// Widgets of the current form, for tests.
	colChecks  map[authoring.ColumnRef]*widget.Check
	colAggs    map[authoring.ColumnRef]*widget.Select
	countStar  *widget.Check
	filterRows []*builderFilterRow
	joinRows   []*builderJoinRow
	orderRows  []*builderOrderRow
	win        *builderWindowForm
	limit      *widget.Entry
	addFilter  *widget.Button
	addJoin    *widget.Button
	addOrder   *widget.Button
	joinTable  *widget.Select
	lastGo     string
}

// builderFilterRow is the editor of one filter.
type builderFilterRow struct {
	column, op *widget.Select
	values     []*widget.Entry
	boolSel    *widget.Select
	pick       *widget.Button
	remove     *widget.Button
}

// builderJoinRow is the editor of one join.
type builderJoinRow struct {
	kind        *widget.Select
	left, right *widget.Select
	remove      *widget.Button
	hint        *widget.Label
}

// builderOrderRow is one ORDER BY key.
type builderOrderRow struct {
	column, dir *widget.Select
	remove      *widget.Button
}

// builderWindowForm is the window TVF form.
type builderWindowForm struct {
	kind, timeCol       *widget.Select
	size, slide         *widget.Entry
	sizeUnit, slideUnit *widget.Select
	partition           *widget.CheckGroup
	available           []string
	note                *widget.Label
}

func (wb *Workbench) builder() *builderPanel {
	a := wb.authoring()
	if a.builder == nil {
		a.builder = newBuilderPanel(wb)
	}
	return a.builder
}

func newBuilderPanel(wb *Workbench) *builderPanel {
	b := &builderPanel{wb: wb, tableRefs: map[string][]string{}}
	b.tableSel = widget.NewSelect(nil, func(s string) {
		if p, ok := b.tableRefs[s]; ok {
			b.setTable(p)
		}
	})
	b.tableSel.PlaceHolder = "choose or drag one"
	b.body = container.NewVBox()
	b.status = widget.NewLabel("")
	b.status.Wrapping = fyne.TextWrapWord
	b.goBtn = widget.NewButtonWithIcon("Copy as Go", theme.ContentCopyIcon(), b.copyAsGo)
	b.runBtn = widget.NewButtonWithIcon("Run", theme.MediaPlayIcon(), b.run)
	b.newBtn = widget.NewButtonWithIcon("New query", theme.ContentAddIcon(), func() { b.startNew(nil) })
	for _, x := range []*widget.Button{b.goBtn, b.runBtn, b.newBtn} {
		x.Importance = widget.LowImportance
	}
	closeBtn := widget.NewButtonWithIcon("", theme.CancelIcon(), wb.toggleBuilder)
	closeBtn.Importance = widget.LowImportance
	title := widget.NewLabelWithStyle("Query builder", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	top := container.NewVBox(container.NewBorder(nil, nil, nil, closeBtn, title),
		container.NewBorder(nil, nil, widget.NewLabel("Table"), nil, b.tableSel))
	// two rows of buttons keep the panel narrow beside wide result tabs
	bottom := container.NewVBox(widget.NewSeparator(), b.status, container.NewHBox(b.runBtn, b.goBtn), container.NewHBox(b.newBtn))
	b.bg = canvas.NewRectangle(color.Transparent)
	// The form scrolls both ways, so that a wide form (a window TVF, a
	// join) never widens the window nor squeezes the catalog tree; a
	// gutter keeps the scroll bar off the right-hand selects.
	gutter := canvas.NewRectangle(color.Transparent)
	gutter.SetMinSize(fyne.NewSize(theme.ScrollBarSize()+theme.Padding(), 0))
	form := container.NewScroll(container.NewBorder(nil, nil, nil, gutter, b.body))
	b.form = form
	b.content = container.NewStack(b.bg, container.NewBorder(top, bottom, nil, nil, withWheel(form))) // wheel_passthrough.go: the wheel scrolls over inputs too
	b.dragLabel = widget.NewLabel("")
	return b
}

// builderArea holds the centre of the window (editors and results), with
// the builder to its right while it is shown.
func (wb *Workbench) builderArea(center fyne.CanvasObject) fyne.CanvasObject {
	b := wb.builder()
	b.center = center
	b.area = container.NewStack(center)
	return b.area
}

// builderButton is the toolbar's toggle.
func (wb *Workbench) builderButton() fyne.CanvasObject {
	btn := widget.NewButtonWithIcon("Builder", theme.ListIcon(), wb.toggleBuilder)
	btn.Importance = widget.LowImportance
	return btn
}

// toggleBuilder shows or hides the builder panel.
func (wb *Workbench) toggleBuilder() {
	b := wb.builder()
	b.setShown(!b.shown)
}

func (b *builderPanel) setShown(on bool) {
	if b.shown == on || b.area == nil {
		return
	}
	b.shown = on
	wb := b.wb
	if on {
		if b.split == nil {
			b.split = container.NewHSplit(b.center, b.content)
			b.split.Offset = 0.7
			if w := b.area.Size().Width; w > 0 {
				// about 340 px for the builder (a quarter of a wide window)
				b.split.Offset = float64(1 - max(340, w/4)/w)
			}
		} else {
			b.split.Leading = b.center
		}
		b.area.Objects = []fyne.CanvasObject{b.split}
		b.reloadTables()
		b.follow(wb.editors.current(), true)
	} else {
		b.area.Objects = []fyne.CanvasObject{b.center}
	}
	b.area.Refresh()
	if m := wb.authoring().builderMenu; m != nil {
		m.Checked = on
	}
}

// reloadTables fills the table list from the current database.
func (b *builderPanel) reloadTables() {
	src := catalogbrowser.EnvSource{Env: b.wb.env}
	cat, db := src.Current()
	objs, err := src.Objects(cat, db)
	b.tableRefs = map[string][]string{}
	var names []string
	if err == nil {
		for _, o := range objs {
			label := o.Name
			if o.Kind == catalogbrowser.KindView {
				label += " (view)"
			}
			names = append(names, label)
			b.tableRefs[label] = []string{o.Name}
		}
	}
	b.tableSel.Options = names
	b.tableSel.Refresh()
}

// builderEditorChanged follows edits of the tab's SQL.
func (wb *Workbench) builderEditorChanged(t *editorTab) {
	b := wb.authoring().builder
	if b == nil || !b.shown || b.writing || t != b.tab {
		return
	}
	b.follow(t, false)
}

// builderCursorMoved follows the cursor into another statement.
func (wb *Workbench) builderCursorMoved(t *editorTab) {
	b := wb.authoring().builder
	if b == nil || !b.shown || b.writing || t != b.tab {
		return
	}
	off := t.ed.CursorOffset()
	if off < b.start || off > b.end {
		b.follow(t, false)
	}
}

// builderTabChanged follows another editor tab.
func (wb *Workbench) builderTabChanged() {
	if b := wb.authoring().builder; b != nil && b.shown {
		b.follow(wb.editors.current(), true)
	}
}

// builderTableCreated refreshes the list after a table was created.
func (wb *Workbench) builderTableCreated(path []string) {
	if b := wb.authoring().builder; b != nil && b.shown {
		b.reloadTables()
	}
}

// follow reads the statement under t's cursor into the builder.
func (b *builderPanel) follow(t *editorTab, force bool) {
	b.tab = t
	if t == nil {
		return
	}
	if !b.wb.embeddedTab(t) {
		b.q, b.owned, b.lastSQL = nil, false, ""
		b.unsupported = "this tab runs on " + b.wb.conns.of(t).name() + "; the query builder reads the embedded engine's tables"
		b.render()
		return
	}
	text := t.ed.Text()
	off := t.ed.CursorOffset()
	sp, ok := sql.StatementAt(text, off)
	if ok && off > sp.End && strings.Contains(text[sp.End:off], ";") {
		ok = false // in a new, empty statement after ";"
	}
	var q *authoring.Query
	msg := ""
	switch {
	case !ok || strings.TrimSpace(sp.Text) == "":
		b.start, b.end, b.owned = len(text), len(text), false
	default:
		b.start, b.end = sp.Start.Offset, sp.End
		// parsed where it is in the editor: messages give editor lines
		st, err := sp.Parse()
		if err == nil {
			q, err = authoring.FromStatement(st)
		}
		if err != nil {
			msg = err.Error()
			q = nil
		}
		b.owned = err == nil
	}
	newSQL := ""
	if q != nil {
		newSQL, _ = q.SQL()
	}
	if !force && newSQL == b.lastSQL && msg == b.unsupported && (q == nil) == (b.q == nil) {
		return // the same query: keep the form (and the focus in it)
	}
	b.q, b.unsupported, b.lastSQL = q, msg, newSQL
	b.render()
}

// setTable makes path the query's table: the current query starts over
// on it, or (when the SQL under the cursor is not the builder's) a new
// query is added at the end of the tab.
func (b *builderPanel) setTable(path []string) {
	if b.tab == nil {
		b.tab = b.wb.editors.current()
		if b.tab == nil {
			return
		}
	}
	if b.q != nil && b.owned && slices.Equal(b.q.From.Path, path) && len(b.q.Joins) == 0 {
		return
	}
	if !b.wb.embeddedTab(b.tab) {
		b.setStatus("⚠ This tab runs on a SQL Gateway: open a tab on the embedded engine to build a query.", widget.WarningImportance)
		return
	}
	q := authoring.NewQuery(path...)
	if b.owned && b.q != nil {
		b.q = q
		b.write()
		b.render()
		return
	}
	b.startNew(q)
}

// startNew appends a new query (q, or an empty one) to the tab.
func (b *builderPanel) startNew(q *authoring.Query) {
	t := b.tab
	if t == nil {
		return
	}
	text := t.ed.Text()
	sep := ""
	if trimmed := strings.TrimRight(text, " \t\r\n"); trimmed != "" {
		if !strings.HasSuffix(trimmed, ";") {
			sep = ";"
		}
		sep += "\n\n"
		text = trimmed
		b.writing = true
		t.ed.ReplaceRange(len(trimmed), len(t.ed.Text()), sep)
		b.writing = false
	}
	b.start = len(text) + len(sep)
	b.end = len(t.ed.Text())
	b.owned = true
	b.unsupported = ""
	b.q = q
	if q != nil {
		b.write()
	}
	b.render()
}

// write puts the query's SQL into the editor in place of its statement.
func (b *builderPanel) write() {
	t := b.tab
	if t == nil || b.q == nil || !b.owned {
		return
	}
	// A filter whose value is not entered yet is left out until it is.
	q, pending := b.q, ""
	for _, f := range b.q.Filters {
		if incomplete(f) {
			if pending == "" {
				pending = pickerLabel(f.Column)
				q = b.q.Clone()
			}
			q.Filters = slices.DeleteFunc(q.Filters, func(g authoring.Filter) bool { return incomplete(g) })
		}
	}
	text, err := q.SQL()
	if err == nil {
		err = q.CheckValues(b.columnType)
	}
	if err != nil {
		b.setStatus("✕ "+err.Error(), widget.DangerImportance)
		return
	}
	cur := t.ed.Text()
	if b.end > len(cur) || b.start > b.end {
		b.start, b.end = len(cur), len(cur)
	}
	b.writing = true
	t.ed.ReplaceRange(b.start, b.end, text)
	t.ed.ScrollToColumn(0) // the new lines start at the left
	b.writing = false
	b.end = b.start + len(text)
	b.lastSQL = text
	if pending != "" {
		b.setStatus("Enter the value of the filter on "+pending+" (it is left out of the SQL until then)", widget.WarningImportance)
		return
	}
	b.setStatus("✓ The editor shows this query (Run or Ctrl+Enter runs it)", widget.SuccessImportance)
}

// incomplete reports a filter whose value(s) are still empty.
func incomplete(f authoring.Filter) bool {
	if f.Op.Operands() == 0 {
		return false
	}
	if len(f.Values) == 0 {
		return true
	}
	for _, v := range f.Values {
		if strings.TrimSpace(v.Text) == "" {
			return true
		}
	}
	return false
}

func (b *builderPanel) setStatus(s string, imp widget.Importance) {
	b.status.SetText(s)
	b.status.Importance = imp
	b.status.Refresh()
}

// changed writes the query after a change of the form; restructure
// rebuilds the form too (a row added or removed, the table changed).
func (b *builderPanel) changed(restructure bool) {
	b.write()
	if restructure {
		b.render()
	}
}

// schema returns the schema of a table of the query (nil when unknown).
func (b *builderPanel) schema(t authoring.TableRef) *types.Schema {
	info, err := b.wb.authoringCatalog().Table(t.Path)
	if err != nil {
		return nil
	}
	return info.Schema
}

// streaming reports the followed tab's runtime mode.
func (b *builderPanel) streaming() bool {
	return b.tab == nil || b.tab.mode != modeBatch
}

// qualifier is how columns of table i (0 = the main table) are qualified.
func (b *builderPanel) qualifier(i int) string {
	q := b.q
	if len(q.Joins) == 0 {
		return ""
	}
	return q.Tables()[i].Qualifier()
}

// render rebuilds the form from the query.
func (b *builderPanel) render() {
	b.reloadTables() // tables created or dropped since
	b.body.RemoveAll()
	b.colChecks = map[authoring.ColumnRef]*widget.Check{}
	b.colAggs = map[authoring.ColumnRef]*widget.Select{}
	b.filterRows, b.joinRows, b.orderRows, b.win = nil, nil, nil, nil
	b.countStar, b.limit, b.addFilter, b.addJoin, b.addOrder, b.joinTable = nil, nil, nil, nil, nil, nil
	q := b.q
	b.goBtn.Disable()
	b.runBtn.Disable()
	switch {
	case b.unsupported != "":
		b.selectTableLabel("")
		b.setStatus("⚠ "+capitalize(b.unsupported)+".\nThe SQL is left as it is; choose a table or New query to build another query.", widget.WarningImportance)
		b.body.Refresh()
		return
	case q == nil:
		b.selectTableLabel("")
		hint := widget.NewLabel("Choose a table (or drag one from the catalog) to start a query.")
		hint.Wrapping = fyne.TextWrapWord
		b.body.Add(hint)
		b.setStatus("", widget.MediumImportance)
		b.body.Refresh()
		return
	}
	b.selectTableLabel(q.From.String())
	b.goBtn.Enable()
	b.runBtn.Enable()
	b.body.Add(b.columnsSection())
	b.body.Add(b.filtersSection())
	b.body.Add(b.joinsSection())
	if w := b.windowSection(); w != nil {
		b.body.Add(w)
	}
	b.body.Add(b.orderSection())
	b.body.Refresh()
	pending := ""
	for _, f := range q.Filters {
		if incomplete(f) && pending == "" {
			pending = pickerLabel(f.Column)
		}
	}
	err := q.Check()
	if err == nil {
		err = q.CheckValues(b.columnType)
	}
	switch {
	case pending != "":
		b.setStatus("Enter the value of the filter on "+pending+" (it is left out of the SQL until then)", widget.WarningImportance)
	case err != nil:
		b.setStatus("✕ "+err.Error(), widget.DangerImportance)
	default:
		b.setStatus("✓ The editor shows this query (Run or Ctrl+Enter runs it)", widget.SuccessImportance)
	}
}

// selectTableLabel shows the query's table in the list without acting.
func (b *builderPanel) selectTableLabel(name string) {
	f := b.tableSel.OnChanged
	b.tableSel.OnChanged = nil
	label := ""
	for l, p := range b.tableRefs {
		if authoring.NewQuery(p...).From.String() == name {
			label = l
		}
	}
	if label == "" && name != "" {
		label = name
	}
	if label == "" {
		b.tableSel.ClearSelected()
	} else {
		b.tableSel.Selected = label
		b.tableSel.Refresh()
	}
	b.tableSel.OnChanged = f
}

func sectionTitle(s string) fyne.CanvasObject {
	return container.NewVBox(widget.NewSeparator(), widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true}))
}

// aggLabels are the aggregate choices (builderNone first).
func aggLabels(t *types.DataType) []string {
	out := []string{builderNone}
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
func (b *builderPanel) columnsSection() fyne.CanvasObject {
	q := b.q
	box := container.NewVBox(sectionTitle("Columns"))
	if q.Window != nil {
		l := widget.NewLabel("window_start, window_end (the window)")
		l.Wrapping = fyne.TextWrapWord
		l.Importance = widget.LowImportance
		box.Add(l)
	}
	grid := container.New(newRowsLayout(3))
	for ti, t := range q.Tables() {
		s := b.schema(t)
		if len(q.Joins) > 0 {
			head := widget.NewLabelWithStyle(t.Qualifier()+" · "+t.String(), fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
			head.Truncation = fyne.TextTruncateEllipsis
			box.Add(grid)
			grid = container.New(newRowsLayout(3))
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
				agg.SetSelected(builderNone)
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
func (b *builderPanel) itemOf(ref authoring.ColumnRef) int {
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
func (b *builderPanel) columnType(c authoring.ColumnRef) *types.DataType {
	_, _, typs := b.columnChoices()
	return typs[pickerLabel(c)]
}

// columnChoices lists the query's table columns as "qualifier.name" (or
// "name"), with their references and types.
func (b *builderPanel) columnChoices() ([]string, map[string]authoring.ColumnRef, map[string]*types.DataType) {
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

// filtersSection: column, operator and values that fit the type.
func (b *builderPanel) filtersSection() fyne.CanvasObject {
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

func (b *builderPanel) filterRow(i int, labels []string, refs map[string]authoring.ColumnRef, typs map[string]*types.DataType) fyne.CanvasObject {
	q := b.q
	f := &q.Filters[i]
	row := &builderFilterRow{}
	b.filterRows = append(b.filterRows, row)
	typ := typs[pickerLabel(f.Column)]
	row.column = widget.NewSelect(labels, nil)
	row.column.SetSelected(pickerLabel(f.Column))
	row.column.OnChanged = func(s string) {
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
	row.op = widget.NewSelect(ops, nil)
	row.op.SetSelected(f.Op.String())
	row.op.OnChanged = func(s string) {
		for _, o := range authoring.Operators(typ) {
			if o.String() == s {
				f.Op = o
			}
		}
		b.fixValues(f, authoring.ValueKindFor(typ))
		b.changed(true)
	}
	row.remove = widget.NewButtonWithIcon("", theme.DeleteIcon(), func() {
		q.RemoveFilter(i)
		b.changed(true)
	})
	row.remove.Importance = widget.LowImportance
	kind := authoring.ValueKindFor(typ)
	var inputs []fyne.CanvasObject
	switch n := f.Op.Operands(); {
	case n == 0:
	case kind == authoring.ValueBool:
		row.boolSel = widget.NewSelect([]string{"TRUE", "FALSE"}, func(s string) {
			f.Values = []authoring.Value{{Kind: kind, Text: s}}
			b.changed(false)
		})
		if len(f.Values) > 0 {
			row.boolSel.Selected = strings.ToUpper(f.Values[0].Text)
		}
		inputs = append(inputs, row.boolSel)
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
		row.values = append(row.values, e)
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
			row.values = append(row.values, e)
			var input fyne.CanvasObject = e
			if kind == authoring.ValueDate || kind == authoring.ValueTimestamp {
				pick := widget.NewButtonWithIcon("", theme.CalendarIcon(), func() { b.pickDate(e, kind) })
				pick.Importance = widget.LowImportance
				row.pick = pick
				input = container.NewBorder(nil, nil, nil, pick, e)
			}
			if k > 0 { // BETWEEN's second value, on a line of its own
				input = container.NewBorder(nil, nil, widget.NewLabel("and"), nil, input)
			}
			inputs = append(inputs, input)
		}
	}
	// stacked, so that the panel stays narrow
	head := container.NewVBox(row.column, container.NewBorder(nil, nil, nil, row.remove, row.op))
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
func (b *builderPanel) fixValues(f *authoring.Filter, kind authoring.ValueKind) {
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
func (b *builderPanel) pickDate(e *widget.Entry, kind authoring.ValueKind) {
	c := b.wb.win.Canvas()
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

// joinsSection: join another table, keys suggested from names and types.
func (b *builderPanel) joinsSection() fyne.CanvasObject {
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
func (b *builderPanel) join(path []string) {
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

func (b *builderPanel) joinRow(i int) fyne.CanvasObject {
	q := b.q
	j := &q.Joins[i]
	row := &builderJoinRow{}
	b.joinRows = append(b.joinRows, row)
	var kinds []string
	for _, k := range []authoring.JoinKind{authoring.JoinInner, authoring.JoinLeft, authoring.JoinRight, authoring.JoinFull} {
		kinds = append(kinds, k.String())
	}
	row.kind = widget.NewSelect(kinds, nil)
	row.kind.SetSelected(j.Kind.String())
	row.kind.OnChanged = func(s string) {
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
	row.left = widget.NewSelect(leftLabels, nil)
	if k.Left.Name != "" {
		row.left.SetSelected(pickerLabel(k.Left))
	}
	row.left.OnChanged = func(s string) { k.Left = leftRefs[s]; b.changed(false) }
	row.right = widget.NewSelect(rightLabels, nil)
	if k.Right != "" {
		row.right.SetSelected(k.Right)
	}
	row.right.OnChanged = func(s string) { k.Right = s; b.changed(false) }
	row.remove = widget.NewButtonWithIcon("", theme.DeleteIcon(), func() {
		q.RemoveJoin(i)
		if len(q.Joins) == 0 {
			q.From.Alias = ""
			unqualify(q)
		}
		b.changed(true)
	})
	row.remove.Importance = widget.LowImportance
	what := widget.NewLabel("JOIN " + j.Table.String() + " AS " + j.Table.Qualifier())
	what.Truncation = fyne.TextTruncateEllipsis
	head := container.NewBorder(nil, nil, row.kind, row.remove, what)
	on := container.NewBorder(nil, nil, widget.NewLabel("ON"), nil, container.NewVBox(row.left, container.NewBorder(nil, nil, widget.NewLabel("="), nil, row.right)))
	box := container.NewVBox(head, on)
	if len(j.Keys) > 1 {
		row.hint = widget.NewLabel(fmt.Sprintf("and %d more key pair(s), kept as written", len(j.Keys)-1))
		row.hint.Importance = widget.LowImportance
		box.Add(row.hint)
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

// windowSection: a window TVF over a time column (rowtime attributes in
// streaming mode; any TIMESTAMP in batch mode).
func (b *builderPanel) windowSection() fyne.CanvasObject {
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
	wf := &builderWindowForm{available: cols}
	b.win = wf
	kinds := []string{builderNone, "TUMBLE", "HOP", "CUMULATE", "SESSION"}
	wf.kind = widget.NewSelect(kinds, nil)
	wf.timeCol = widget.NewSelect(cols, nil)
	wf.size = widget.NewEntry()
	wf.slide = widget.NewEntry()
	wf.sizeUnit = widget.NewSelect(authoring.IntervalUnits(), nil)
	wf.slideUnit = widget.NewSelect(authoring.IntervalUnits(), nil)
	var names []string
	for _, c := range s.Columns {
		names = append(names, c.Name)
	}
	wf.partition = widget.NewCheckGroup(names, nil)
	w := q.Window
	if w == nil {
		wf.kind.SetSelected(builderNone)
		wf.timeCol.SetSelected(cols[0])
		wf.size.SetText("1")
		wf.sizeUnit.SetSelected("HOUR")
		wf.slide.SetText("15")
		wf.slideUnit.SetSelected("MINUTE")
	} else {
		wf.kind.SetSelected(w.Kind.String())
		if !slices.Contains(wf.timeCol.Options, w.TimeColumn) {
			wf.timeCol.Options = append(wf.timeCol.Options, w.TimeColumn)
		}
		wf.timeCol.SetSelected(w.TimeColumn)
		wf.size.SetText(strconv.FormatInt(w.Size.Value, 10))
		wf.sizeUnit.SetSelected(w.Size.Unit)
		if w.Slide.Value > 0 {
			wf.slide.SetText(strconv.FormatInt(w.Slide.Value, 10))
			wf.slideUnit.SetSelected(w.Slide.Unit)
		} else {
			wf.slide.SetText("15")
			wf.slideUnit.SetSelected("MINUTE")
		}
		wf.partition.Selected = slices.Clone(w.PartitionBy)
	}
	apply := func(restructure bool) {
		k := slices.Index(kinds, wf.kind.Selected)
		if k <= 0 {
			q.SetWindow(nil)
			b.changed(true)
			return
		}
		nw := &authoring.Window{Kind: authoring.WindowKind(k - 1), TimeColumn: wf.timeCol.Selected}
		nw.Size = authoring.Interval{Value: atoi64(wf.size.Text), Unit: wf.sizeUnit.Selected}
		if nw.Kind == authoring.Hop || nw.Kind == authoring.Cumulate {
			nw.Slide = authoring.Interval{Value: atoi64(wf.slide.Text), Unit: wf.slideUnit.Selected}
		}
		if nw.Kind == authoring.Session {
			nw.PartitionBy = slices.Clone(wf.partition.Selected)
		}
		had := q.Window != nil
		q.SetWindow(nw)
		b.changed(restructure || !had)
	}
	wf.kind.OnChanged = func(string) { apply(true) }
	wf.timeCol.OnChanged = func(string) { apply(false) }
	wf.size.OnChanged = func(string) { apply(false) }
	wf.sizeUnit.OnChanged = func(string) { apply(false) }
	wf.slide.OnChanged = func(string) { apply(false) }
	wf.slideUnit.OnChanged = func(string) { apply(false) }
	wf.partition.OnChanged = func([]string) { apply(false) }

	box := container.NewVBox(sectionTitle("Window"),
		container.NewBorder(nil, nil, widget.NewLabel("Kind"), nil, wf.kind))
	if w != nil {
		sizeName := "Size"
		if w.Kind == authoring.Session {
			sizeName = "Gap"
		}
		box.Add(container.NewBorder(nil, nil, widget.NewLabel("On"), nil, wf.timeCol))
		box.Add(container.NewBorder(nil, nil, widget.NewLabel(sizeName), wf.sizeUnit, wf.size))
		switch w.Kind {
		case authoring.Hop:
			box.Add(container.NewBorder(nil, nil, widget.NewLabel("Slide"), wf.slideUnit, wf.slide))
		case authoring.Cumulate:
			box.Add(container.NewBorder(nil, nil, widget.NewLabel("Step"), wf.slideUnit, wf.slide))
		case authoring.Session:
			box.Add(widget.NewLabel("Partitioned by"))
			box.Add(wf.partition)
		}
		if !q.HasAggregates() {
			wf.note = widget.NewLabel("Add an aggregate (e.g. AVG of a column, or COUNT(*)) to aggregate per window.")
			wf.note.Wrapping = fyne.TextWrapWord
			wf.note.Importance = widget.LowImportance
			box.Add(wf.note)
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
func (b *builderPanel) orderSection() fyne.CanvasObject {
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
		row := &builderOrderRow{}
		b.orderRows = append(b.orderRows, row)
		opts := labels
		if !slices.Contains(opts, pickerLabel(o.Column)) {
			opts = append(slices.Clone(labels), pickerLabel(o.Column))
			refs[pickerLabel(o.Column)] = o.Column
		}
		row.column = widget.NewSelect(opts, func(s string) { o.Column = refs[s]; b.changed(false) })
		row.column.Selected = pickerLabel(o.Column)
		row.dir = widget.NewSelect([]string{"ASC", "DESC"}, func(s string) { o.Desc = s == "DESC"; b.changed(false) })
		row.dir.Selected = map[bool]string{false: "ASC", true: "DESC"}[o.Desc]
		row.remove = widget.NewButtonWithIcon("", theme.DeleteIcon(), func() {
			q.OrderBy = slices.Delete(q.OrderBy, i, i+1)
			b.changed(true)
		})
		row.remove.Importance = widget.LowImportance
		box.Add(container.NewVBox(row.column, container.NewBorder(nil, nil, nil, row.remove, row.dir)))
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

// copyAsGo shows the query as Table API code and copies it.
func (b *builderPanel) copyAsGo() {
	if b.q == nil {
		return
	}
	code, native, err := b.q.Go()
	if err != nil {
		b.setStatus("✕ "+err.Error(), widget.DangerImportance)
		return
	}
	b.lastGo = code
	if app := fyne.CurrentApp(); app != nil {
		app.Clipboard().SetContent(code)
	}
	note := "Copied: Table API calls on a *table.TableEnvironment."
	if !native {
		note = "Copied: the Table API has no form for part of this query, so the code runs its SQL."
	}
	e := widget.NewMultiLineEntry()
	e.SetText(code)
	e.TextStyle = fyne.TextStyle{Monospace: true}
	e.Wrapping = fyne.TextWrapOff
	d := dialog.NewCustom("Copy as Go", "Close", container.NewBorder(widget.NewLabel(note), nil, nil, nil, e), b.wb.win)
	d.Resize(fyne.NewSize(860, 520))
	d.Show()
	b.setStatus("Go code copied to the clipboard", widget.SuccessImportance)
}

// run runs the builder's statement in its tab.
func (b *builderPanel) run() {
	if b.tab == nil || b.q == nil || !b.owned {
		return
	}
	text := b.tab.ed.Text()
	if b.end > len(text) {
		return
	}
	b.wb.runStatementIn(b.tab, text[b.start:b.end], b.start)
}

// catalogDragged follows a table dragged out of the catalog tree: a label
// follows the pointer and the builder lights up while under it.
func (wb *Workbench) catalogDragged(r catalogbrowser.Ref, at fyne.Position) {
	b := wb.builder()
	c := wb.win.Canvas()
	if b.dragPop == nil {
		b.dragPop = widget.NewPopUp(b.dragLabel, c)
	}
	over := b.over(at)
	if over || !b.shown {
		b.dragLabel.SetText(r.Object + " → query builder")
	} else {
		b.dragLabel.SetText(r.Object)
	}
	b.dragPop.ShowAtPosition(at.Add(fyne.NewPos(12, 12)))
	if over {
		b.bg.FillColor = theme.Color(theme.ColorNameSelection)
	} else {
		b.bg.FillColor = color.Transparent
	}
	b.bg.Refresh()
}

// catalogDropped drops a table on the builder (or, while it is hidden,
// on the editor area, which opens it).
func (wb *Workbench) catalogDropped(r catalogbrowser.Ref, at fyne.Position) {
	b := wb.builder()
	if b.dragPop != nil {
		b.dragPop.Hide()
	}
	b.bg.FillColor = color.Transparent
	b.bg.Refresh()
	if !b.over(at) {
		return
	}
	b.setShown(true)
	path := []string{r.Catalog, r.Database, r.Object}
	src := catalogbrowser.EnvSource{Env: wb.env}
	if cat, db := src.Current(); cat == r.Catalog && db == r.Database {
		path = []string{r.Object}
	}
	b.setTable(path)
}

// over reports whether at lies on the builder (or on the editors
// while the builder is hidden).
func (b *builderPanel) over(at fyne.Position) bool {
	var o fyne.CanvasObject = b.content
	if !b.shown {
		o = b.wb.editors.tabs
	}
	if o == nil {
		return false
	}
	d := fyne.CurrentApp().Driver()
	p := d.AbsolutePositionForObject(o)
	s := o.Size()
	return at.X >= p.X && at.Y >= p.Y && at.X <= p.X+s.Width && at.Y <= p.Y+s.Height
}

// rowsLayout lays out cells in rows of n: the first column as wide as
// its widest cell, the last as its minimum, the middle ones share the
// rest.
type rowsLayout struct{ n int }

func newRowsLayout(n int) fyne.Layout { return &rowsLayout{n: n} }

func (l *rowsLayout) widths(objects []fyne.CanvasObject) []float32 {
	w := make([]float32, l.n)
	for i, o := range objects {
		w[i%l.n] = max(w[i%l.n], o.MinSize().Width)
	}
	return w
}

func (l *rowsLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	w := l.widths(objects)
	pad := theme.Padding()
	last := w[l.n-1]
	first := min(w[0], size.Width*0.5)
	mid := size.Width - first - last - float32(l.n-1)*pad
	y := float32(0)
	for r := 0; r*l.n < len(objects); r++ {
		h := float32(0)
		for c := 0; c < l.n && r*l.n+c < len(objects); c++ {
			h = max(h, objects[r*l.n+c].MinSize().Height)
		}
		x := float32(0)
		for c := 0; c < l.n && r*l.n+c < len(objects); c++ {
			cw := mid / float32(max(1, l.n-2))
			switch c {
			case 0:
				cw = first
			case l.n - 1:
				cw = last
			}
			o := objects[r*l.n+c]
			if c > 0 && c < l.n-1 {
				// a middle column (the types) gives way when narrow
				if cw < 40 {
					o.Hide()
					continue
				}
				o.Show()
			}
			o.Move(fyne.NewPos(x, y))
			o.Resize(fyne.NewSize(max(cw, 0), h))
			x += cw + pad
		}
		y += h + pad
	}
}

func (l *rowsLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	w := l.widths(objects)
	pad := theme.Padding()
	var width, height float32
	for _, x := range w {
		width += x
	}
	width = min(width, 200) + float32(l.n-1)*pad
	for r := 0; r*l.n < len(objects); r++ {
		h := float32(0)
		for c := 0; c < l.n && r*l.n+c < len(objects); c++ {
			h = max(h, objects[r*l.n+c].MinSize().Height)
		}
		height += h + pad
	}
	return fyne.NewSize(width, height)
}

// capitalize upper-cases the first letter of a message.
func capitalize(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	return string(r)
}

// windowTVFTable names the table of a window TVF in FROM, given the words
// after FROM: "TABLE(TUMBLE(TABLE" "flights," … gives flights; "" when
// FROM is not a window TVF.
func windowTVFTable(words []string) string {
	if len(words) < 2 || !strings.HasPrefix(strings.ToUpper(words[0]), "TABLE(") {
		return ""
	}
	if !strings.HasSuffix(strings.ToUpper(words[0]), "(TABLE") {
		return ""
	}
	// the table name runs to the first "," or space outside backquotes
	rest := strings.Join(words[1:], " ")
	quoted := false
	end := len(rest)
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if c == '`' {
			quoted = !quoted
		} else if !quoted && (c == ',' || c == ' ' || c == ')') {
			end = i
			break
		}
	}
	parts := splitPath(rest[:end])
	return parts[len(parts)-1]
}
