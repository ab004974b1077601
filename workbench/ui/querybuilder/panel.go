package querybuilder

import (
	"image/color"
	"slices"
	"strings"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/workbench/authoring"
	"github.com/riffle-sql/riffle/workbench/catalogbrowser"
	"github.com/riffle-sql/riffle/workbench/ui/dialogs"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// none is the choice of no aggregate and of no window.
const none = "—"

// Panel is the query builder.
type Panel struct {
	host Host

	// tab is the editor tab followed; q the query shown (nil: none);
	// start and end the byte range of its statement in the tab's text,
	// owned true when the builder may rewrite it (a query it can show, or
	// nothing yet).
	tab        Tab
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
	// patternBtn writes a MATCH_RECOGNIZE template (pattern.go)
	patternBtn *widget.Button
	dragPop    *widget.PopUp
	dragLabel  *widget.Label

	// Widgets of the current form, for tests.
	colChecks  map[authoring.ColumnRef]*widget.Check
	colAggs    map[authoring.ColumnRef]*widget.Select
	countStar  *widget.Check
	filterRows []*FilterRow
	joinRows   []*JoinRow
	orderRows  []*OrderRow
	win        *WindowForm
	limit      *widget.Entry
	addFilter  *widget.Button
	addJoin    *widget.Button
	addOrder   *widget.Button
	joinTable  *widget.Select
	lastGo     string
}

// FilterRow is the editor of one filter: its column, its operator, and
// the inputs of its value(s) (Values: one per operand, or one
// comma-separated list for IN; Bool for a BOOLEAN column; Pick opens a
// calendar for a DATE or TIMESTAMP).
type FilterRow struct {
	Column, Op *widget.Select
	Values     []*widget.Entry
	Bool       *widget.Select
	Pick       *widget.Button
	Remove     *widget.Button
}

// JoinRow is the editor of one join: its kind, its first key pair (Left
// a column of the tables joined before, Right one of the joined table's),
// and Hint when more key pairs are kept as written.
type JoinRow struct {
	Kind        *widget.Select
	Left, Right *widget.Select
	Remove      *widget.Button
	Hint        *widget.Label
}

// OrderRow is one ORDER BY key: a column or output name, ASC or DESC.
type OrderRow struct {
	Column, Dir *widget.Select
	Remove      *widget.Button
}

// WindowForm is the window TVF form: kind (none, TUMBLE, HOP, CUMULATE,
// SESSION), time column, size (a session's gap) and slide (a cumulating
// window's step) with their units, and a session's partition columns.
// Available lists the time columns offered; Note asks for an aggregate
// while the query has none.
type WindowForm struct {
	Kind, TimeCol       *widget.Select
	Size, Slide         *widget.Entry
	SizeUnit, SlideUnit *widget.Select
	Partition           *widget.CheckGroup
	Available           []string
	Note                *widget.Label
}

// New builds the panel, hidden; Area places it beside the window's
// centre.
func New(h Host) *Panel {
	b := &Panel{host: h, tableRefs: map[string][]string{}}
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
	b.patternBtn = widget.NewButtonWithIcon("Pattern (MATCH_RECOGNIZE)…", theme.MediaFastForwardIcon(), b.writePattern)
	for _, x := range []*widget.Button{b.goBtn, b.runBtn, b.newBtn, b.patternBtn} {
		x.Importance = widget.LowImportance
	}
	closeBtn := widget.NewButtonWithIcon("", theme.CancelIcon(), b.Toggle)
	closeBtn.Importance = widget.LowImportance
	title := widget.NewLabelWithStyle("Query builder", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	top := container.NewVBox(container.NewBorder(nil, nil, nil, closeBtn, title),
		container.NewBorder(nil, nil, widget.NewLabel("Table"), nil, b.tableSel))
	// two rows of buttons keep the panel narrow beside wide result tabs
	bottom := container.NewVBox(widget.NewSeparator(), b.status, container.NewHBox(b.runBtn, b.goBtn), container.NewHBox(b.newBtn), container.NewHBox(b.patternBtn))
	b.bg = canvas.NewRectangle(color.Transparent)
	// The form scrolls both ways, so that a wide form (a window TVF, a
	// join) never widens the window nor squeezes the catalog tree; a
	// gutter keeps the scroll bar off the right-hand selects.
	gutter := canvas.NewRectangle(color.Transparent)
	gutter.SetMinSize(fyne.NewSize(theme.ScrollBarSize()+theme.Padding(), 0))
	form := container.NewScroll(container.NewBorder(nil, nil, nil, gutter, b.body))
	b.form = form
	b.content = container.NewStack(b.bg, container.NewBorder(top, bottom, nil, nil, widgets.WithWheel(form))) // the wheel scrolls the form over its inputs too
	b.dragLabel = widget.NewLabel("")
	return b
}

// Area holds the centre of the window (editors and results), with the
// builder to its right while it is shown.
func (b *Panel) Area(center fyne.CanvasObject) fyne.CanvasObject {
	b.center = center
	b.area = container.NewStack(center)
	return b.area
}

// Toggle shows or hides the builder.
func (b *Panel) Toggle() { b.SetShown(!b.shown) }

// SetShown shows the builder beside the centre (on), following the
// current editor tab, or hides it; Host.Shown hears of the change.
// Before Area there is nowhere to show it, and nothing happens.
func (b *Panel) SetShown(on bool) {
	if b.shown == on || b.area == nil {
		return
	}
	b.shown = on
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
		b.ReloadTables()
		b.Follow(b.host.CurrentTab(), true)
	} else {
		b.area.Objects = []fyne.CanvasObject{b.center}
	}
	b.area.Refresh()
	b.host.Shown(on)
}

// ReloadTables fills the table list from the current database of
// Host.Tables.
func (b *Panel) ReloadTables() {
	src := b.host.Tables()
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

// EditorChanged follows an edit of t's SQL (while shown, when t is the
// tab followed and the edit is not the builder's own).
func (b *Panel) EditorChanged(t Tab) {
	if !b.shown || b.writing || t != b.tab {
		return
	}
	b.Follow(t, false)
}

// CursorMoved follows t's cursor into another statement.
func (b *Panel) CursorMoved(t Tab) {
	if !b.shown || b.writing || t != b.tab {
		return
	}
	off := t.Editor().CursorOffset()
	if off < b.start || off > b.end {
		b.Follow(t, false)
	}
}

// TabChanged follows the editor tab now shown.
func (b *Panel) TabChanged() {
	if b.shown {
		b.Follow(b.host.CurrentTab(), true)
	}
}

// TableCreated refreshes the table list after a table was created.
func (b *Panel) TableCreated() {
	if b.shown {
		b.ReloadTables()
	}
}

// Follow reads the statement under t's cursor into the builder; force
// redraws the form even when the query is the one shown. A nil t leaves
// the form as it is.
func (b *Panel) Follow(t Tab, force bool) {
	b.tab = t
	if t == nil {
		return
	}
	if name, embedded := t.Engine(); !embedded {
		b.q, b.owned, b.lastSQL = nil, false, ""
		b.unsupported = "this tab runs on " + name + "; the query builder reads the embedded engine's tables"
		b.render()
		return
	}
	text := t.Editor().Text()
	off := t.Editor().CursorOffset()
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
func (b *Panel) setTable(path []string) {
	if b.tab == nil {
		b.tab = b.host.CurrentTab()
		if b.tab == nil {
			return
		}
	}
	if b.q != nil && b.owned && slices.Equal(b.q.From.Path, path) && len(b.q.Joins) == 0 {
		return
	}
	if _, embedded := b.tab.Engine(); !embedded {
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
func (b *Panel) startNew(q *authoring.Query) {
	if b.tab == nil {
		return
	}
	ed := b.tab.Editor()
	text := ed.Text()
	sep := ""
	if trimmed := strings.TrimRight(text, " \t\r\n"); trimmed != "" {
		if !strings.HasSuffix(trimmed, ";") {
			sep = ";"
		}
		sep += "\n\n"
		text = trimmed
		b.writing = true
		ed.ReplaceRange(len(trimmed), len(ed.Text()), sep)
		b.writing = false
	}
	b.start = len(text) + len(sep)
	b.end = len(ed.Text())
	b.owned = true
	b.unsupported = ""
	b.q = q
	if q != nil {
		b.write()
	}
	b.render()
}

// write puts the query's SQL into the editor in place of its statement.
func (b *Panel) write() {
	if b.tab == nil || b.q == nil || !b.owned {
		return
	}
	ed := b.tab.Editor()
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
	cur := ed.Text()
	if b.end > len(cur) || b.start > b.end {
		b.start, b.end = len(cur), len(cur)
	}
	b.writing = true
	ed.ReplaceRange(b.start, b.end, text)
	ed.ScrollToColumn(0) // the new lines start at the left
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

func (b *Panel) setStatus(s string, imp widget.Importance) {
	b.status.SetText(s)
	b.status.Importance = imp
	b.status.Refresh()
}

// changed writes the query after a change of the form; restructure
// rebuilds the form too (a row added or removed, the table changed).
func (b *Panel) changed(restructure bool) {
	b.write()
	if restructure {
		b.render()
	}
}

// schema returns the schema of a table of the query (nil when unknown).
func (b *Panel) schema(t authoring.TableRef) *types.Schema {
	info, err := b.host.Catalog().Table(t.Path)
	if err != nil {
		return nil
	}
	return info.Schema
}

// streaming reports the followed tab's runtime mode.
func (b *Panel) streaming() bool {
	return b.tab == nil || b.tab.Streaming()
}

// qualifier is how columns of table i (0 = the main table) are qualified.
func (b *Panel) qualifier(i int) string {
	q := b.q
	if len(q.Joins) == 0 {
		return ""
	}
	return q.Tables()[i].Qualifier()
}

// render rebuilds the form from the query.
func (b *Panel) render() {
	b.ReloadTables() // tables created or dropped since
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
func (b *Panel) selectTableLabel(name string) {
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

// copyAsGo shows the query as Table API code and copies it.
func (b *Panel) copyAsGo() {
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
	dialogs.ShowCode(b.host.Window(), "Copy as Go", note, code)
	b.setStatus("Go code copied to the clipboard", widget.SuccessImportance)
}

// run runs the builder's statement in its tab.
func (b *Panel) run() {
	if b.tab == nil || b.q == nil || !b.owned {
		return
	}
	text := b.tab.Editor().Text()
	if b.end > len(text) {
		return
	}
	b.host.Run(b.tab, text[b.start:b.end], b.start)
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
