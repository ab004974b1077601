package exportform

import (
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/widgets"
)

// Choices of the export dialog.
var (
	delimiterChoices = []string{"Comma ,", "Semicolon ;", "Tab", "Pipe |"}
	delimiterRunes   = []rune{',', ';', '\t', '|'}
	quoteChoices     = []string{`Double quote "`, "Single quote '"}
	quoteRunes       = []rune{'"', '\''}
	policyChoices    = []string{"As needed", "All", "All but NULLs", "Never"}
	policyValues     = []results.QuotePolicy{results.QuoteAsNeeded, results.QuoteAll, results.QuoteAllButNulls, results.QuoteNever}
	// EOLChoices are the line endings offered: LF, CRLF.
	EOLChoices     = []string{"LF (Unix, macOS)", "CRLF (Windows)"}
	formatChoices  = []string{"CSV", "JSON Lines", "Parquet"}
	formatValues   = []results.ExportFormat{results.FormatCSV, results.FormatJSONLines, results.FormatParquet}
	decimalChoices = []string{"Point .", "Comma ,"}
)

// Form is the export dialog's form: where to write (Path), the format
// (FormatSelect, when AddFormatChoice added it) and the CSV options. Its
// widgets are exported for the caller to read and fill (tests do); Options
// reads them as results.CSVOptions and the settings to keep.
type Form struct {
	Path         *widget.Entry
	FormatSelect *widget.Select // nil: CSV only (Run to CSV file)
	Delimiter    *widget.Select
	Quote        *widget.Select
	Policy       *widget.Select
	Header       *widget.Check
	NullText     *widget.Entry
	EOL          *widget.RadioGroup
	BOM          *widget.Check
	ReplaceNL    *widget.Check
	NLReplace    *widget.Entry
	Decimal      *widget.Select
	// RowsLabel says which rows are written (the caller sets it).
	RowsLabel *widget.Label
	// ErrLabel shows a problem under the form.
	ErrLabel *widget.Label

	win     fyne.Window // the Browse dialog's window
	csvOnly []fyne.Disableable
	csvNote *widget.Label
	// lastFormat is the format the path's extension was last set for.
	lastFormat results.ExportFormat
	// lineBreaks is the "Line breaks" row (its label dims with it).
	lineBreaks *disableBox
	form       *widget.Form
}

// New builds the CSV options form with the last choices s and a file
// name (in s.LastDir, else the home folder, with the .csv extension); win
// holds the Browse dialog.
func New(win fyne.Window, s persistence.ExportSettings, name string) *Form {
	f := &Form{win: win}
	dir := s.LastDir
	if dir == "" {
		if home, err := os.UserHomeDir(); err == nil {
			dir = home
		}
	}
	f.Path = widget.NewEntry()
	f.Path.SetText(filepath.Join(dir, name+".csv"))
	f.Delimiter = widget.NewSelect(delimiterChoices, nil)
	f.Delimiter.SetSelectedIndex(indexOfRune(delimiterRunes, s.Delimiter, 0))
	f.Quote = widget.NewSelect(quoteChoices, nil)
	f.Quote.SetSelectedIndex(indexOfRune(quoteRunes, s.Quote, 0))
	f.Policy = widget.NewSelect(policyChoices, nil)
	pi := 0
	if p, err := results.ParseQuotePolicy(s.QuotePolicy); err == nil {
		pi = int(p)
	}
	f.Policy.SetSelectedIndex(pi)
	f.Header = widget.NewCheck("Column names in the first line", nil)
	f.Header.SetChecked(s.Header)
	f.NullText = widget.NewEntry()
	f.NullText.SetPlaceHolder("(empty field)")
	f.NullText.SetText(s.NullText)
	f.EOL = widget.NewRadioGroup(EOLChoices, nil)
	f.EOL.Horizontal = true
	f.EOL.Required = true
	if s.CRLF {
		f.EOL.SetSelected(EOLChoices[1])
	} else {
		f.EOL.SetSelected(EOLChoices[0])
	}
	f.BOM = widget.NewCheck("UTF-8 byte order mark (helps Excel read non-Latin text)", nil)
	f.BOM.SetChecked(s.BOM)
	f.NLReplace = widget.NewEntry()
	f.NLReplace.SetText(s.NewlineReplacement)
	f.NLReplace.SetPlaceHolder("e.g. a space")
	f.ReplaceNL = widget.NewCheck("Replace line breaks in values with", func(on bool) {
		if on {
			f.NLReplace.Enable()
		} else {
			f.NLReplace.Disable()
		}
	})
	f.ReplaceNL.SetChecked(s.ReplaceNewlines)
	if !s.ReplaceNewlines {
		f.NLReplace.Disable()
	}
	f.Decimal = widget.NewSelect(decimalChoices, nil)
	if s.DecimalSeparator == "," {
		f.Decimal.SetSelectedIndex(1)
	} else {
		f.Decimal.SetSelectedIndex(0)
	}
	f.RowsLabel = widget.NewLabel("")
	f.RowsLabel.Wrapping = fyne.TextWrapWord
	f.ErrLabel = widget.NewLabel("")
	f.ErrLabel.Importance = widget.DangerImportance
	f.ErrLabel.Wrapping = fyne.TextWrapWord
	return f
}

// AddFormatChoice adds the format choice (CSV, JSON Lines, Parquet) to a
// form, set to the saved format name: the file name's extension follows
// it, and the CSV options are disabled for the other formats.
func (f *Form) AddFormatChoice(saved string) {
	f.csvOnly = []fyne.Disableable{f.Delimiter, f.Quote, f.Policy, f.Header, f.NullText, f.EOL, f.BOM, f.ReplaceNL, f.NLReplace, f.Decimal}
	f.csvNote = widget.NewLabel("")
	f.csvNote.Importance = widget.LowImportance
	f.csvNote.Wrapping = fyne.TextWrapWord
	f.FormatSelect = widget.NewSelect(formatChoices, func(string) { f.formatChanged() })
	i := 0
	if ef, err := results.ParseExportFormat(saved); err == nil {
		i = int(ef)
	}
	f.FormatSelect.SetSelectedIndex(i)
}

// Format is the chosen format (CSV for forms without the choice).
func (f *Form) Format() results.ExportFormat {
	if f.FormatSelect == nil || f.FormatSelect.SelectedIndex() < 0 {
		return results.FormatCSV
	}
	return formatValues[f.FormatSelect.SelectedIndex()]
}

// formatChanged makes the path's extension follow the format and enables
// the CSV options only for CSV.
func (f *Form) formatChanged() {
	ef := f.Format()
	p := f.Path.Text
	ext := filepath.Ext(p)
	if old, ok := results.ExportFormatOf(p); ok || ext == "" {
		if !ok {
			old = f.lastFormat
		}
		if old != ef || ext == "" {
			p = strings.TrimSuffix(p, ext) + ef.Extension()
			f.Path.SetText(p)
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
	if ef == results.FormatCSV && !f.ReplaceNL.Checked {
		f.NLReplace.Disable()
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

// Content is the form and its error line, for a dialog.
func (f *Form) Content() fyne.CanvasObject {
	browse := widget.NewButton("Browse…", func() {
		d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
			if err != nil || w == nil {
				return
			}
			// The dialog creates the file; the export writes a temporary
			// file and renames it over this one.
			p := w.URI().Path()
			_ = w.Close()
			f.Path.SetText(p)
		}, f.win)
		d.SetFileName(filepath.Base(f.Path.Text))
		d.Resize(widgets.FileDialogSize(f.win))
		d.Show()
	})
	form := widget.NewForm()
	f.form = form
	if f.FormatSelect != nil {
		form.AppendItem(widget.NewFormItem("Format", f.FormatSelect))
	}
	form.AppendItem(widget.NewFormItem("File", container.NewBorder(nil, nil, nil, browse, f.Path)))
	if f.csvNote != nil {
		// the note shows under the row count for JSON Lines and Parquet
		form.AppendItem(widget.NewFormItem("Rows", container.NewVBox(f.RowsLabel, f.csvNote)))
	} else {
		form.AppendItem(widget.NewFormItem("Rows", f.RowsLabel))
	}
	for _, it := range []*widget.FormItem{
		widget.NewFormItem("Delimiter", f.Delimiter),
		widget.NewFormItem("Quote character", f.Quote),
		widget.NewFormItem("Quote fields", f.Policy),
		widget.NewFormItem("Header", f.Header),
		widget.NewFormItem("NULL as", f.NullText),
		widget.NewFormItem("Line ending", f.EOL),
		widget.NewFormItem("Encoding", f.BOM),
		widget.NewFormItem("Line breaks", f.lineBreaksRow()),
		widget.NewFormItem("Decimal separator", f.Decimal),
	} {
		form.AppendItem(it)
	}
	return container.NewBorder(nil, f.ErrLabel, nil, nil, form)
}

// Options reads the form: the CSV options to write with and the
// settings to keep for the next export (the format only when the form
// offers one).
func (f *Form) Options() (results.CSVOptions, persistence.ExportSettings) {
	o := results.CSVOptions{
		Delimiter:          delimiterRunes[max(0, f.Delimiter.SelectedIndex())],
		Quote:              quoteRunes[max(0, f.Quote.SelectedIndex())],
		Policy:             policyValues[max(0, f.Policy.SelectedIndex())],
		Header:             f.Header.Checked,
		NullText:           f.NullText.Text,
		CRLF:               f.EOL.Selected == EOLChoices[1],
		BOM:                f.BOM.Checked,
		ReplaceNewlines:    f.ReplaceNL.Checked,
		NewlineReplacement: f.NLReplace.Text,
	}
	if f.Decimal.SelectedIndex() == 1 {
		o.DecimalSeparator = ','
	}
	s := persistence.ExportSettings{
		Delimiter: string(o.Delimiter), Quote: string(o.Quote), Header: o.Header, QuotePolicy: o.Policy.String(),
		NullText: o.NullText, CRLF: o.CRLF, BOM: o.BOM, ReplaceNewlines: o.ReplaceNewlines,
		NewlineReplacement: o.NewlineReplacement, DecimalSeparator: string(o.DecimalSeparator),
		LastDir: filepath.Dir(f.Path.Text),
	}
	if f.FormatSelect != nil {
		s.Format = f.Format().String()
	}
	if o.DecimalSeparator == 0 {
		s.DecimalSeparator = "."
	}
	return o, s
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
func (f *Form) lineBreaksRow() fyne.CanvasObject {
	f.lineBreaks = &disableBox{content: container.NewBorder(nil, nil, f.ReplaceNL, nil, f.NLReplace), disabled: f.Format() != results.FormatCSV}
	f.lineBreaks.ExtendBaseWidget(f.lineBreaks)
	return f.lineBreaks
}

// indexOfRune is the index in rs of the first rune of s (def when none).
func indexOfRune(rs []rune, s string, def int) int {
	r, _ := utf8.DecodeRuneInString(s)
	for i, x := range rs {
		if x == r {
			return i
		}
	}
	return def
}
