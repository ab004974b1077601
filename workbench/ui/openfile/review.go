package openfile

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/connector/infer"
	"github.com/riffle-sql/riffle/engine/session"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/workbench/authoring"
	"github.com/riffle-sql/riffle/workbench/editor"
	"github.com/riffle-sql/riffle/workbench/ui/designer"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// Review is the review dialog of one opened file (or a Kafka topic's
// sample).
type Review struct {
	host Host
	res  *infer.Result
	dlg  dialog.Dialog

	name      *widget.Entry
	rowtime   *widget.Check
	delay     *widget.Entry
	unit      *widget.Select
	initCheck *widget.Check
	ddl       *editor.Editor
	status    *widget.Label
	statusBox *container.Scroll // the status, in a space three lines high
	create    *widget.Button

	// regenerating is set while the statement is rewritten from the form
	// (the editor's OnChanged then does not count as the user's edit).
	regenerating bool
	edited       bool
	// created is the name of the table once created.
	created string
	// Unmask, when set, turns the statement shown into the one run (a
	// Kafka table's password); set it right after Show.
	Unmask func(string) string
}

// Show shows the review dialog for an inference result over win; the
// table is created through host.
func Show(win fyne.Window, res *infer.Result, host Host) *Review {
	r := &Review{host: host, res: res}
	r.name = widget.NewEntry()
	r.name.SetText(authoring.UniqueTableName(host.Catalog(), res.Name))
	r.name.OnChanged = func(string) { r.regenerate() }

	r.ddl = editor.New()
	r.ddl.OnChanged = func(string) {
		if !r.regenerating {
			r.edited = true
		}
		r.validate()
	}
	r.status = widget.NewLabel("")
	r.status.Wrapping = fyne.TextWrapWord

	var rowtimeBox fyne.CanvasObject = widget.NewLabel("No timestamps found: the table has no event time (batch queries and processing-time windows still work).")
	if rt := res.Rowtime; rt != nil {
		what := sql.QuoteIdentIfNeeded(rt.Column)
		if rt.Expr != "" {
			what += " (computed from " + rt.Source + ")"
		}
		r.rowtime = widget.NewCheck("Event time: "+what+" as the rowtime, watermark delay", func(bool) { r.regenerate() })
		r.rowtime.SetChecked(true)
		r.delay = widget.NewEntry()
		r.delay.SetText(rt.Delay)
		r.delay.OnChanged = func(string) { r.regenerate() }
		r.unit = widget.NewSelect(authoring.IntervalUnits(), func(string) { r.regenerate() })
		r.unit.SetSelected(rt.Unit)
		order := "timestamps " + rt.Order + " in the file"
		if strings.HasPrefix(res.Path, "topic ") {
			order = "timestamps " + rt.Order + " in the sample"
		}
		if rt.MaxLateness > 0 {
			order += fmt.Sprintf(", at most %s late", widgets.FormatDuration(time.Duration(rt.MaxLateness)*time.Millisecond))
		}
		hint := widget.NewLabel(order)
		hint.Importance = widget.LowImportance
		rowtimeBox = container.NewHBox(r.rowtime, container.NewGridWrap(fyne.NewSize(70, r.delay.MinSize().Height), r.delay), r.unit, hint)
	}
	r.initCheck = widget.NewCheck("Add to the workspace's init script (the table is there again when the workspace opens)", nil)
	r.initCheck.SetChecked(true)

	info := fmt.Sprintf("%s · %s", res.Path, strings.ToUpper(res.Format))
	if res.Format == "csv" {
		info += fmt.Sprintf(" · delimiter %s · %s", delimiterName(res.Delimiter), map[bool]string{true: "header row", false: "no header row"}[res.Header])
	}
	if res.Complete {
		info += fmt.Sprintf(" · %s rows (whole file)", widgets.GroupDigits(int(res.Records)))
	} else {
		info += fmt.Sprintf(" · %s rows sampled", widgets.GroupDigits(int(res.Records)))
	}
	if res.Skipped > 0 {
		info += fmt.Sprintf(" · %s malformed rows skipped", widgets.GroupDigits(int(res.Skipped)))
	}
	infoLbl := widget.NewLabel(info)
	infoLbl.Wrapping = fyne.TextWrapWord

	notes := append([]string{}, res.Notes...)
	for _, c := range res.Columns {
		if c.Note != "" {
			notes = append(notes, c.Name+": "+c.Note)
		}
	}
	notesLbl := widget.NewLabel(strings.Join(notes, "\n"))
	notesLbl.Wrapping = fyne.TextWrapWord
	notesLbl.Importance = widget.LowImportance

	cols := r.columnsTable()
	r.create = widget.NewButton("Create table", r.Apply)
	r.create.Importance = widget.HighImportance
	cancel := widget.NewButton("Cancel", func() { r.dlg.Hide() })

	form := container.NewVBox(infoLbl,
		container.NewBorder(nil, nil, widget.NewLabel("Table name"), nil, r.name),
		rowtimeBox, r.initCheck)
	if len(notes) > 0 {
		form.Add(notesLbl)
	}
	top := container.NewVSplit(cols, container.NewBorder(widget.NewLabel("CREATE TABLE (editable; the options above rewrite it)"), nil, nil, nil, r.ddl))
	top.Offset = 0.35
	// the status, three lines high whatever it says, so that Cancel and
	// Create table stay inside the box (widgets.MessageBox)
	r.statusBox = widgets.MessageBox(r.status, 3)
	body := container.NewBorder(form, container.NewBorder(nil, nil, nil, container.NewHBox(cancel, r.create), r.statusBox), nil, nil, top)
	title := "Open " + filepath.Base(res.Path)
	if strings.HasPrefix(res.Path, "topic ") { // a Kafka topic's sample
		title = "Create table from " + res.Path
	}
	r.dlg = dialog.NewCustomWithoutButtons(title, body, win)
	r.regenerate()
	r.dlg.Resize(fyne.NewSize(min(1100, win.Canvas().Size().Width-40), min(800, win.Canvas().Size().Height-40)))
	r.dlg.Show()
	return r
}

func delimiterName(d byte) string {
	switch d {
	case ',':
		return "comma"
	case '\t':
		return "tab"
	case ';':
		return "semicolon"
	case '|':
		return "bar"
	}
	return fmt.Sprintf("%q", d)
}

// columnsTable lists the inferred columns: name, type, NULLs, example.
func (r *Review) columnsTable() fyne.CanvasObject {
	heads := []string{"Column", "Type", "Empty", "Example"}
	cols := r.res.Columns
	t := widget.NewTable(
		func() (int, int) { return len(cols), len(heads) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			c := cols[id.Row]
			l := o.(*widget.Label)
			switch id.Col {
			case 0:
				l.SetText(c.Name)
			case 1:
				l.SetText(c.Type.String())
			case 2:
				l.SetText(widgets.GroupDigits(int(c.Nulls)))
			default:
				l.SetText(strings.ReplaceAll(c.Example, "\n", " "))
			}
		})
	t.ShowHeaderRow = true
	t.CreateHeader = func() fyne.CanvasObject {
		return widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	t.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 {
			o.(*widget.Label).SetText(heads[id.Col])
		}
	}
	for i, w := range []float32{220, 260, 70, 420} {
		t.SetColumnWidth(i, w)
	}
	return t
}

// Statement is the CREATE TABLE the form describes.
func (r *Review) Statement() string {
	res := *r.res
	withRowtime := r.rowtime != nil && r.rowtime.Checked
	if withRowtime {
		rt := *r.res.Rowtime
		rt.Delay = strings.TrimSpace(r.delay.Text)
		if r.unit.Selected != "" {
			rt.Unit = r.unit.Selected
		}
		res.Rowtime = &rt
	}
	return res.CreateTable(strings.TrimSpace(r.name.Text), withRowtime)
}

// regenerate rewrites the statement from the form.
func (r *Review) regenerate() {
	if r.ddl == nil || r.create == nil {
		return
	}
	r.regenerating = true
	r.ddl.SetText(r.Statement())
	r.regenerating = false
	r.edited = false
	r.validate()
}

// validate checks the statement as it is typed.
func (r *Review) validate() {
	st, err := sql.Parse(r.ddl.Text())
	r.ddl.ClearErrorMarkers()
	switch {
	case err != nil:
		if line, col, ok := session.ErrorPosition(err); ok {
			r.ddl.SetErrorMarker(line-1, col-1, err.Error())
		}
		r.status.SetText(firstLine(err.Error()))
		r.status.Importance = widget.DangerImportance
		r.create.Disable()
	case !isCreateTable(st):
		r.status.SetText("The statement must be a CREATE TABLE")
		r.status.Importance = widget.DangerImportance
		r.create.Disable()
	default:
		r.status.SetText("Ready to create " + objectName(st.(*sql.CreateTable).Name))
		r.status.Importance = widget.MediumImportance
		r.create.Enable()
	}
	r.showStatus()
}

// showStatus shows the status, just set, from its top; the refresh
// clamps the scroll's offset to the new text, which it keeps otherwise.
func (r *Review) showStatus() {
	r.status.Refresh()
	if r.statusBox != nil { // validate runs before the dialog is built
		widgets.ShowMessage(r.statusBox)
	}
}

func isCreateTable(st sql.Statement) bool {
	ct, ok := st.(*sql.CreateTable)
	return ok && ct.AsQuery == nil
}

// Apply creates the table (Create table); the dialog closes when it
// worked and shows the error otherwise.
func (r *Review) Apply() {
	stmt := strings.TrimSpace(r.ddl.Text())
	st, err := sql.Parse(stmt)
	if err != nil || !isCreateTable(st) {
		r.validate()
		return
	}
	name := st.(*sql.CreateTable).Name
	record := r.initCheck.Checked
	r.create.Disable()
	r.status.SetText("Creating…")
	r.showStatus()
	run := stmt
	if r.Unmask != nil {
		run = r.Unmask(stmt)
	}
	r.host.ExecDDL(run, stmt, func(err error) {
		if err != nil {
			r.status.SetText(err.Error())
			r.status.Importance = widget.DangerImportance
			r.showStatus()
			r.create.Enable()
			return
		}
		r.created = name.Parts[len(name.Parts)-1].Name
		from := filepath.Base(r.res.Path)
		if strings.HasPrefix(r.res.Path, "topic ") {
			from = r.res.Path
		}
		msg := "Table " + objectName(name) + " created from " + from + "."
		if record {
			if err := r.host.AddToInitScript(stmt); err != nil {
				msg += " It could not be added to the init script: " + err.Error()
			} else {
				msg += " Added to the init script."
			}
		}
		r.dlg.Hide()
		r.host.Created(msg, name.Parts)
	})
}

// objectName writes a parsed name with quotes only where needed.
func objectName(n *sql.ObjectName) string {
	var parts []string
	for _, p := range n.Parts {
		parts = append(parts, p.Name)
	}
	return designer.PathText(parts)
}

func firstLine(s string) string {
	f, _, _ := strings.Cut(s, "\n")
	return f
}
