package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/persistence"
	"github.com/riffle-sql/riffle/ui/widgets"
)

// Choices of the export dialog.
var (
	delimiterChoices = []string{"Comma ,", "Semicolon ;", "Tab", "Pipe |"}
	delimiterRunes   = []rune{',', ';', '\t', '|'}
	quoteChoices     = []string{`Double quote "`, "Single quote '"}
	quoteRunes       = []rune{'"', '\''}
	policyChoices    = []string{"As needed", "All", "All but NULLs", "Never"}
	policyValues     = []results.QuotePolicy{results.QuoteAsNeeded, results.QuoteAll, results.QuoteAllButNulls, results.QuoteNever}
	eolChoices       = []string{"LF (Unix, macOS)", "CRLF (Windows)"}
	formatChoices    = []string{"CSV", "JSON Lines", "Parquet"}
	formatValues     = []results.ExportFormat{results.FormatCSV, results.FormatJSONLines, results.FormatParquet}
	decimalChoices   = []string{"Point .", "Comma ,"}
)

// exportForm is the export dialog's form; its fields are what the user
// set. Tests fill it and call submit.
type exportForm struct {
	path      *widget.Entry
	format    *widget.Select // nil: CSV only (Run to CSV file)
	csvOnly   []fyne.Disableable
	csvNote   *widget.Label
	delimiter *widget.Select
	quote     *widget.Select
	policy    *widget.Select
	header    *widget.Check
	nullText  *widget.Entry
	eol       *widget.RadioGroup
	bom       *widget.Check
	replaceNL *widget.Check
	nlReplace *widget.Entry
	decimal   *widget.Select
	rowsLbl   *widget.Label
	errLbl    *widget.Label
	dlg       *dialog.ConfirmDialog
	wb        *Workbench
	frozen    *results.Frozen // the rows to write (nil for Run to CSV)
	rt        *resultTab      // the result they come from (nil for Run to CSV)
	// start begins writing once the target is checked.
	start func(path string, opts results.CSVOptions)
	// lastFormat is the format the path's extension was last set for.
	lastFormat results.ExportFormat
	// lineBreaks is the "Line breaks" row (its label dims with it).
	lineBreaks *disableBox
	form       *widget.Form
}

// disableBox shows a row of several widgets as one form item whose label
// the form dims when the row is disabled (the form dims the label of a
// fyne.Disableable item only).
type disableBox struct {
	widget.BaseWidget
	content  fyne.CanvasObject
	disabled bool
}

func (b *disableBox) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(b.content) }
func (b *disableBox) Disabled() bool                      { return b.disabled }
func (b *disableBox) Enable()                             { b.disabled = false }
func (b *disableBox) Disable()                            { b.disabled = true }

// lineBreaksRow is the "Replace line breaks with […]" row.
func (f *exportForm) lineBreaksRow() fyne.CanvasObject {
	f.lineBreaks = &disableBox{content: container.NewBorder(nil, nil, f.replaceNL, nil, f.nlReplace), disabled: f.exportFormat() != results.FormatCSV}
	f.lineBreaks.ExtendBaseWidget(f.lineBreaks)
	return f.lineBreaks
}

// exportJob is an export in progress.
type exportJob struct {
	path     string
	cancel   context.CancelFunc
	written  atomic.Int64
	total    atomic.Int64
	bar      *widget.ProgressBar
	label    *widget.Label
	dlg      *dialog.CustomDialog
	cancelB  *widget.Button
	canceled atomic.Bool
}

// exportSettings returns the last export dialog's choices (defaults when
// none were saved).
func (wb *Workbench) exportSettings() persistence.ExportSettings {
	if wb.exportPrefs.Delimiter == "" {
		return persistence.ExportSettings{Delimiter: ",", Quote: `"`, Header: true, QuotePolicy: "as-needed", CRLF: runtime.GOOS == "windows"}
	}
	return wb.exportPrefs
}

func indexOfRune(rs []rune, s string, def int) int {
	r, _ := utf8.DecodeRuneInString(s)
	for i, x := range rs {
		if x == r {
			return i
		}
	}
	return def
}

// showExportDialog opens "Export…" for a result: the current view's rows
// are frozen now (a running query exports what it has so far) and written
// as CSV, JSON Lines or Parquet.
func (wb *Workbench) showExportDialog(rt *resultTab) *exportForm {
	f := wb.newExportForm(rt)
	wb.showCSVDialog(f, "Export result", "Export")
	return f
}

// showCSVDialog shows a CSV form in a dialog.
func (wb *Workbench) showCSVDialog(f *exportForm, title, confirm string) {
	f.dlg = dialog.NewCustomConfirm(title, confirm, "Cancel", f.content(), func(ok bool) {
		if ok {
			wb.submitExport(f)
		}
	}, wb.win)
	f.dlg.Resize(fyne.NewSize(620, 560))
	f.dlg.Show()
}

// newExportForm is the form exporting a result's current view.
func (wb *Workbench) newExportForm(rt *resultTab) *exportForm {
	view := results.TableView
	if rt.grid != nil {
		view = rt.grid.View()
	}
	f := wb.newCSVForm(fileNameFor(rt))
	f.addFormatChoice(wb.exportSettings().Format)
	f.rt, f.frozen = rt, rt.res.Freeze(view)
	what := fmt.Sprintf("%s rows of the %s view", widgets.GroupDigits(f.frozen.Len()), strings.ToLower(viewNames[view]))
	if rt.isRunning() {
		what += " (a snapshot: the query is still running)"
	}
	f.rowsLbl.SetText(what)
	f.start = func(path string, opts results.CSVOptions) { wb.startExport(rt, f.frozen, path, f.exportFormat(), opts) }
	return f
}

// addFormatChoice adds the format choice (CSV, JSON Lines, Parquet) to a
// form, set to the saved format name: the file name's extension follows
// it, and the CSV options are disabled for the other formats.
func (f *exportForm) addFormatChoice(saved string) {
	f.csvOnly = []fyne.Disableable{f.delimiter, f.quote, f.policy, f.header, f.nullText, f.eol, f.bom, f.replaceNL, f.nlReplace, f.decimal}
	f.csvNote = widget.NewLabel("")
	f.csvNote.Importance = widget.LowImportance
	f.csvNote.Wrapping = fyne.TextWrapWord
	f.format = widget.NewSelect(formatChoices, func(string) { f.formatChanged() })
	i := 0
	if ef, err := results.ParseExportFormat(saved); err == nil {
		i = int(ef)
	}
	f.format.SetSelectedIndex(i)
}

// exportFormat is the chosen format (CSV for forms without the choice).
func (f *exportForm) exportFormat() results.ExportFormat {
	if f.format == nil || f.format.SelectedIndex() < 0 {
		return results.FormatCSV
	}
	return formatValues[f.format.SelectedIndex()]
}

// formatChanged makes the path's extension follow the format and enables
// the CSV options only for CSV.
func (f *exportForm) formatChanged() {
	ef := f.exportFormat()
	p := f.path.Text
	ext := filepath.Ext(p)
	if old, ok := results.ExportFormatOf(p); ok || ext == "" {
		if !ok {
			old = f.lastFormat
		}
		if old != ef || ext == "" {
			p = strings.TrimSuffix(p, ext) + ef.Extension()
			f.path.SetText(p)
		}
	}
	f.lastFormat = ef
	for _, w := range f.csvOnly {
		if ef == results.FormatCSV {
			w.Enable()
		} else {
			w.Disable()
		}
	}
	if f.lineBreaks != nil {
		f.lineBreaks.disabled = ef != results.FormatCSV
	}
	if f.form != nil {
		f.form.Refresh() // the labels dim with their widgets
	}
	if ef == results.FormatCSV && !f.replaceNL.Checked {
		f.nlReplace.Disable()
	}
	switch ef {
	case results.FormatJSONLines:
		f.csvNote.SetText("One JSON object per line, values as Flink's json format writes them (timestamps as text, decimals exact, NULL as null). The CSV options below do not apply.")
	case results.FormatParquet:
		f.csvNote.SetText("One Parquet file with the column types of the result, as Flink's parquet format writes them. The CSV options below do not apply.")
	default:
		f.csvNote.SetText("")
	}
	if f.csvNote.Text == "" {
		f.csvNote.Hide()
	} else {
		f.csvNote.Show()
	}
}

// newCSVForm builds the CSV options form with the last choices and a file
// name.
func (wb *Workbench) newCSVForm(name string) *exportForm {
	f := &exportForm{wb: wb}
	s := wb.exportSettings()
	dir := s.LastDir
	if dir == "" {
		if home, err := os.UserHomeDir(); err == nil {
			dir = home
		}
	}
	f.path = widget.NewEntry()
	f.path.SetText(filepath.Join(dir, name+".csv"))
	f.delimiter = widget.NewSelect(delimiterChoices, nil)
	f.delimiter.SetSelectedIndex(indexOfRune(delimiterRunes, s.Delimiter, 0))
	f.quote = widget.NewSelect(quoteChoices, nil)
	f.quote.SetSelectedIndex(indexOfRune(quoteRunes, s.Quote, 0))
	f.policy = widget.NewSelect(policyChoices, nil)
	pi := 0
	if p, err := results.ParseQuotePolicy(s.QuotePolicy); err == nil {
		pi = int(p)
	}
	f.policy.SetSelectedIndex(pi)
	f.header = widget.NewCheck("Column names in the first line", nil)
	f.header.SetChecked(s.Header)
	f.nullText = widget.NewEntry()
	f.nullText.SetPlaceHolder("(empty field)")
	f.nullText.SetText(s.NullText)
	f.eol = widget.NewRadioGroup(eolChoices, nil)
	f.eol.Horizontal = true
	f.eol.Required = true
	if s.CRLF {
		f.eol.SetSelected(eolChoices[1])
	} else {
		f.eol.SetSelected(eolChoices[0])
	}
	f.bom = widget.NewCheck("UTF-8 byte order mark (helps Excel read non-Latin text)", nil)
	f.bom.SetChecked(s.BOM)
	f.nlReplace = widget.NewEntry()
	f.nlReplace.SetText(s.NewlineReplacement)
	f.nlReplace.SetPlaceHolder("e.g. a space")
	f.replaceNL = widget.NewCheck("Replace line breaks in values with", func(on bool) {
		if on {
			f.nlReplace.Enable()
		} else {
			f.nlReplace.Disable()
		}
	})
	f.replaceNL.SetChecked(s.ReplaceNewlines)
	if !s.ReplaceNewlines {
		f.nlReplace.Disable()
	}
	f.decimal = widget.NewSelect(decimalChoices, nil)
	if s.DecimalSeparator == "," {
		f.decimal.SetSelectedIndex(1)
	} else {
		f.decimal.SetSelectedIndex(0)
	}
	f.rowsLbl = widget.NewLabel("")
	f.rowsLbl.Wrapping = fyne.TextWrapWord
	f.errLbl = widget.NewLabel("")
	f.errLbl.Importance = widget.DangerImportance
	f.errLbl.Wrapping = fyne.TextWrapWord
	return f
}

// fileNameFor suggests a file name for a result.
func fileNameFor(rt *resultTab) string {
	name := rt.title
	if i := strings.IndexByte(name, ' '); i >= 0 {
		name = name[i+1:]
	}
	name = strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r == ':' || r == '*' || r == '?' || r == '"' || r == '<' || r == '>' || r == '|' || r < ' ' {
			return '_'
		}
		return r
	}, strings.TrimSpace(strings.TrimSuffix(name, "…")))
	if name == "" {
		name = "result"
	}
	return name
}

func (f *exportForm) content() fyne.CanvasObject {
	browse := widget.NewButton("Browse…", func() {
		d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
			if err != nil || w == nil {
				return
			}
			// The dialog creates the file; the export writes a temporary
			// file and renames it over this one.
			p := w.URI().Path()
			_ = w.Close()
			f.path.SetText(p)
		}, f.wb.win)
		d.SetFileName(filepath.Base(f.path.Text))
		d.Resize(widgets.FileDialogSize(f.wb.win))
		d.Show()
	})
	form := widget.NewForm()
	f.form = form
	if f.format != nil {
		form.AppendItem(widget.NewFormItem("Format", f.format))
	}
	form.AppendItem(widget.NewFormItem("File", container.NewBorder(nil, nil, nil, browse, f.path)))
	if f.csvNote != nil {
		// the note shows under the row count for JSON Lines and Parquet
		form.AppendItem(widget.NewFormItem("Rows", container.NewVBox(f.rowsLbl, f.csvNote)))
	} else {
		form.AppendItem(widget.NewFormItem("Rows", f.rowsLbl))
	}
	for _, it := range []*widget.FormItem{
		widget.NewFormItem("Delimiter", f.delimiter),
		widget.NewFormItem("Quote character", f.quote),
		widget.NewFormItem("Quote fields", f.policy),
		widget.NewFormItem("Header", f.header),
		widget.NewFormItem("NULL as", f.nullText),
		widget.NewFormItem("Line ending", f.eol),
		widget.NewFormItem("Encoding", f.bom),
		widget.NewFormItem("Line breaks", f.lineBreaksRow()),
		widget.NewFormItem("Decimal separator", f.decimal),
	} {
		form.AppendItem(it)
	}
	return container.NewBorder(nil, f.errLbl, nil, nil, form)
}

// options reads the form.
func (f *exportForm) options() (results.CSVOptions, persistence.ExportSettings) {
	o := results.CSVOptions{
		Delimiter:          delimiterRunes[max(0, f.delimiter.SelectedIndex())],
		Quote:              quoteRunes[max(0, f.quote.SelectedIndex())],
		Policy:             policyValues[max(0, f.policy.SelectedIndex())],
		Header:             f.header.Checked,
		NullText:           f.nullText.Text,
		CRLF:               f.eol.Selected == eolChoices[1],
		BOM:                f.bom.Checked,
		ReplaceNewlines:    f.replaceNL.Checked,
		NewlineReplacement: f.nlReplace.Text,
	}
	if f.decimal.SelectedIndex() == 1 {
		o.DecimalSeparator = ','
	}
	s := persistence.ExportSettings{
		Delimiter: string(o.Delimiter), Quote: string(o.Quote), Header: o.Header, QuotePolicy: o.Policy.String(),
		NullText: o.NullText, CRLF: o.CRLF, BOM: o.BOM, ReplaceNewlines: o.ReplaceNewlines,
		NewlineReplacement: o.NewlineReplacement, DecimalSeparator: string(o.DecimalSeparator),
		LastDir: filepath.Dir(f.path.Text),
	}
	if f.format != nil {
		s.Format = f.exportFormat().String()
	}
	if o.DecimalSeparator == 0 {
		s.DecimalSeparator = "."
	}
	return o, s
}

// startFromForm starts what the form is for with its options, without the
// checks of submitExport (tests).
func (wb *Workbench) startFromForm(f *exportForm) {
	opts, _ := f.options()
	f.start(f.path.Text, opts)
}

// submitExport checks the target and starts the export (asking before
// replacing an existing file).
func (wb *Workbench) submitExport(f *exportForm) {
	path := strings.TrimSpace(f.path.Text)
	opts, settings := f.options()
	if path == "" {
		dialog.ShowError(errors.New("choose a file to export to"), wb.win)
		return
	}
	if !filepath.IsAbs(path) {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, path)
		}
	}
	if st, err := os.Stat(filepath.Dir(path)); err != nil || !st.IsDir() {
		dialog.ShowError(fmt.Errorf("the folder %s does not exist", filepath.Dir(path)), wb.win)
		return
	}
	if settings.Format == "" {
		settings.Format = wb.exportSettings().Format // Run to CSV file keeps the export dialog's choice
	}
	wb.exportPrefs = settings
	_ = wb.store.SaveExportSettings(context.Background(), settings)
	start := func() { f.start(path, opts) }
	if _, err := os.Stat(path); err == nil {
		dialog.ShowConfirm("Replace file?", path+" exists. Replace it?\n(It is only replaced when the export completes.)",
			func(ok bool) {
				if ok {
					start()
				}
			}, wb.win)
		return
	}
	start()
}

// startExport writes rows to path in the background with a progress
// dialog whose Cancel leaves path untouched.
func (wb *Workbench) startExport(rt *resultTab, rows results.Rows, path string, format results.ExportFormat, opts results.CSVOptions) *exportJob {
	ctx, cancel := context.WithCancel(context.Background())
	j := &exportJob{path: path, cancel: cancel, bar: widget.NewProgressBar(), label: widget.NewLabel("Starting…")}
	j.total.Store(int64(rows.Len()))
	j.cancelB = widget.NewButton("Cancel", func() {
		j.canceled.Store(true)
		cancel()
	})
	j.dlg = dialog.NewCustomWithoutButtons("Exporting to "+filepath.Base(path),
		container.NewVBox(j.label, j.bar, container.NewCenter(j.cancelB)), wb.win)
	j.dlg.Resize(fyne.NewSize(420, 160))
	j.dlg.Show()
	wb.exports = append(wb.exports, j)
	started := time.Now()
	go func() {
		var err error
		func() {
			defer func() {
				if p := recover(); p != nil {
					err = fmt.Errorf("internal error: %v", p)
				}
			}()
			progress := func(written, total int) {
				j.written.Store(int64(written))
				j.total.Store(int64(total))
			}
			if format == results.FormatCSV {
				err = wb.exportCSV(ctx, rows, path, opts, progress)
			} else {
				err = results.Export(ctx, rows, path, format, opts, progress)
			}
		}()
		cancel()
		wb.do(func() { wb.exportDone(j, err, time.Since(started)) })
	}()
	return j
}

// exportDone closes the progress dialog and reports the outcome.
func (wb *Workbench) exportDone(j *exportJob, err error, d time.Duration) {
	for i, x := range wb.exports {
		if x == j {
			wb.exports = append(wb.exports[:i], wb.exports[i+1:]...)
			break
		}
	}
	j.dlg.Hide()
	switch {
	case err == nil:
		msg := fmt.Sprintf("Exported %s to %s in %s.", plural(int(j.written.Load()), "row"), j.path, widgets.FormatDuration(d))
		wb.messages.add(levelInfo, msg, nil)
		wb.setStatus(msg)
	case j.canceled.Load() || errors.Is(err, context.Canceled):
		wb.messages.add(levelWarning, "Export canceled; "+j.path+" was not changed.", nil)
		wb.setStatus("Export canceled")
	default:
		wb.messages.add(levelError, "[ERROR] Export to "+j.path+" failed (the file was not changed): "+err.Error(), nil)
		wb.showPanel(wb.messages.item)
		dialog.ShowError(err, wb.win)
	}
}

// tickExports moves the progress bars (called from Tick).
func (wb *Workbench) tickExports() {
	for _, j := range wb.exports {
		w, t := j.written.Load(), j.total.Load()
		if t > 0 {
			j.bar.SetValue(float64(w) / float64(t))
		}
		noun := "rows"
		if t == 1 {
			noun = "row"
		}
		j.label.SetText(fmt.Sprintf("%s of %s %s written", widgets.GroupDigits(int(w)), widgets.GroupDigits(int(t)), noun))
	}
}
