package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/connector/infer"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/workbench/authoring"
	"github.com/riffle-sql/riffle/workbench/editor"
	"github.com/riffle-sql/riffle/workbench/ui/designer"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// Opening data: File ▸ Open data file… (Ctrl+O) and files dropped on the
// window. The file is read off the UI goroutine by engine/connector/infer;
// a review dialog shows what it found (columns, types, notes), the rowtime
// offer and the generated CREATE TABLE, which stays editable. Creating the
// table runs the statement, adds it to the workspace's init script (so the
// table is there when the workspace opens again) and shows it in the
// catalog tree.

// openReview is the review dialog of one opened file.
type openReview struct {
	wb  *Workbench
	res *infer.Result
	dlg dialog.Dialog

	name      *widget.Entry
	rowtime   *widget.Check
	delay     *widget.Entry
	unit      *widget.Select
	initCheck *widget.Check
	ddl       *editor.Editor
	status    *widget.Label
	create    *widget.Button

	// regenerating is set while the statement is rewritten from the form
	// (the editor's OnChanged then does not count as the user's edit).
	regenerating bool
	edited       bool
	// created is the name of the table once created.
	created string
	// unmask, when set, turns the statement shown into the one run
	// (a Kafka table's password: topic_peek.go).
	unmask func(string) string
}

// showOpenFileDialog is File ▸ Open data file….
func (wb *Workbench) showOpenFileDialog() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			dialog.ShowError(err, wb.win)
			return
		}
		if r == nil {
			return
		}
		path := r.URI().Path()
		r.Close()
		wb.openDataFile(path)
	}, wb.win)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".csv", ".tsv", ".txt", ".tab", ".json", ".jsonl", ".ndjson", ".parquet", ".avro"}))
	if dir := wb.authoring().lastOpenDir; dir != "" {
		if l, err := storage.ListerForURI(storage.NewFileURI(dir)); err == nil {
			d.SetLocation(l)
		}
	}
	d.Resize(widgets.FileDialogSize(wb.win))
	d.Show()
}

// openDataFile infers a table for path in the background and shows the
// review dialog (or why the file cannot be opened).
func (wb *Workbench) openDataFile(path string) {
	a := wb.authoring()
	a.lastOpenDir = filepath.Dir(path)
	wb.setStatus("Reading " + filepath.Base(path) + "…")
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		started := time.Now()
		res, err := infer.File(path, infer.Options{})
		d := time.Since(started)
		wb.do(func() {
			if err != nil {
				wb.setStatus("Cannot open " + filepath.Base(path))
				msg := err.Error()
				if errors.Is(err, infer.ErrUnsupported) {
					msg = strings.TrimPrefix(msg, infer.ErrUnsupported.Error()+": ")
				}
				wb.messages.add(levelError, "Open "+path+": "+msg, nil)
				dialog.ShowError(fmt.Errorf("%s cannot be opened as a table:\n%s", filepath.Base(path), msg), wb.win)
				return
			}
			wb.setStatus(fmt.Sprintf("Read %s rows of %s in %s", widgets.GroupDigits(int(res.Records)), filepath.Base(path), widgets.FormatDuration(d)))
			wb.showOpenReview(res)
		})
	}()
}

// showOpenReview shows the review dialog for an inference result.
func (wb *Workbench) showOpenReview(res *infer.Result) *openReview {
	r := &openReview{wb: wb, res: res}
	wb.authoring().review = r
	r.name = widget.NewEntry()
	r.name.SetText(authoring.UniqueTableName(wb.authoringCatalog(), res.Name))
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
	r.create = widget.NewButton("Create table", r.apply)
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
	body := container.NewBorder(form, container.NewBorder(nil, nil, nil, container.NewHBox(cancel, r.create), r.status), nil, nil, top)
	title := "Open " + filepath.Base(res.Path)
	if strings.HasPrefix(res.Path, "topic ") { // a Kafka topic (topic_peek.go)
		title = "Create table from " + res.Path
	}
	r.dlg = dialog.NewCustomWithoutButtons(title, body, wb.win)
	r.regenerate()
	r.dlg.Resize(fyne.NewSize(min(1100, wb.win.Canvas().Size().Width-40), min(800, wb.win.Canvas().Size().Height-40)))
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
func (r *openReview) columnsTable() fyne.CanvasObject {
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

// statement is the CREATE TABLE the form describes.
func (r *openReview) statement() string {
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
func (r *openReview) regenerate() {
	if r.ddl == nil || r.create == nil {
		return
	}
	r.regenerating = true
	r.ddl.SetText(r.statement())
	r.regenerating = false
	r.edited = false
	r.validate()
}

// validate checks the statement as it is typed.
func (r *openReview) validate() {
	st, err := sql.Parse(r.ddl.Text())
	r.ddl.ClearErrorMarkers()
	switch {
	case err != nil:
		if line, col, ok := errPos(err); ok {
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
	r.status.Refresh()
}

func isCreateTable(st sql.Statement) bool {
	ct, ok := st.(*sql.CreateTable)
	return ok && ct.AsQuery == nil
}

// apply creates the table; the dialog closes when it worked and shows the
// error otherwise.
func (r *openReview) apply() {
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
	run := stmt
	if r.unmask != nil {
		run = r.unmask(stmt)
	}
	r.wb.execDDLAs([]string{run}, []string{stmt}, func(err error) {
		if err != nil {
			r.status.SetText(err.Error())
			r.status.Importance = widget.DangerImportance
			r.status.Refresh()
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
			if err := r.wb.addToInitScript(stmt); err != nil {
				msg += " It could not be added to the init script: " + err.Error()
			} else {
				msg += " Added to the init script."
			}
		}
		r.wb.messages.add(levelInfo, msg, nil)
		r.wb.setStatus(msg)
		r.dlg.Hide()
		r.wb.tableCreated(name.Parts)
	})
}

// tableCreated refreshes the catalog tree, shows the new table there and
// offers it to the query builder.
func (wb *Workbench) tableCreated(path []*sql.Ident) {
	src := wb.env.Catalogs()
	cat, db := src.CurrentCatalog(), src.CurrentDatabase()
	obj := path[len(path)-1].Name
	if len(path) >= 2 {
		db = path[len(path)-2].Name
	}
	if len(path) == 3 {
		cat = path[0].Name
	}
	wb.catalogChanged(wb.conns.embedded)
	if wb.conns.shown == wb.conns.embedded {
		wb.catalog.OpenPath(cat, db, obj)
	}
	wb.builderTableCreated([]string{cat, db, obj})
}

// execDDL runs statements in order off the UI goroutine (each recorded in
// History); done gets the first error, on the UI goroutine.
func (wb *Workbench) execDDL(stmts []string, done func(err error)) {
	wb.execDDLAs(stmts, stmts, done)
}

// execDDLAs is execDDL recording shown[i] in History for stmts[i] (a
// statement run with a secret that History must not keep).
func (wb *Workbench) execDDLAs(stmts, shown []string, done func(err error)) {
	a := wb.authoring()
	a.bg.Add(1)
	go func() {
		defer a.bg.Done()
		var err error
		for i, s := range stmts {
			started := time.Now()
			_, err = wb.env.ExecuteSQL(s)
			errText := ""
			if err != nil {
				errText = err.Error()
			}
			wb.addHistory(shown[i], started, time.Since(started), 0, errText)
			if err != nil {
				err = fmt.Errorf("%s\n%w", summary(shown[i]), err)
				break
			}
		}
		wb.do(func() { done(err) })
	}()
}

// addToInitScript puts a CREATE statement into the init script (replacing
// an older CREATE of the same object) or appends another statement.
func (wb *Workbench) addToInitScript(stmt string) error {
	wb.mu.Lock()
	defer wb.mu.Unlock()
	script, err := authoring.AddToInitScript(wb.initScript, stmt)
	if err != nil {
		return err
	}
	if err := wb.store.SaveInitScript(context.Background(), script); err != nil {
		return err
	}
	wb.initScript = script
	return nil
}

// objectName writes a parsed name with quotes only where needed.
func objectName(n *sql.ObjectName) string {
	var parts []string
	for _, p := range n.Parts {
		parts = append(parts, p.Name)
	}
	return designer.PathText(parts)
}
