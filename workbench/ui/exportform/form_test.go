package exportform

import (
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/workbench/persistence"
)

// The form starts from the saved settings and Options gives them back,
// with the folder of the path as the last folder.
func TestSettingsRoundTrip(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewWindow(widget.NewLabel(""))
	defer w.Close()
	dir := t.TempDir()
	saved := persistence.ExportSettings{Delimiter: ";", Quote: "'", Header: false, QuotePolicy: "all", NullText: "NULL",
		CRLF: true, BOM: true, ReplaceNewlines: true, NewlineReplacement: " ", DecimalSeparator: ",", LastDir: dir}
	f := New(w, saved, "flights")
	w.SetContent(f.Content())
	if f.Path.Text != filepath.Join(dir, "flights.csv") || f.FormatSelect != nil || f.NLReplace.Disabled() {
		t.Errorf("path %q, format choice %v, replacement disabled %v", f.Path.Text, f.FormatSelect != nil, f.NLReplace.Disabled())
	}
	o, s := f.Options()
	if o.Delimiter != ';' || o.Quote != '\'' || o.Policy != results.QuoteAll || o.Header || o.NullText != "NULL" ||
		!o.CRLF || !o.BOM || !o.ReplaceNewlines || o.NewlineReplacement != " " || o.DecimalSeparator != ',' {
		t.Errorf("options %+v", o)
	}
	if s != saved {
		t.Errorf("settings %+v, want %+v", s, saved)
	}
	f.ReplaceNL.SetChecked(false)
	if !f.NLReplace.Disabled() {
		t.Error("the replacement stays enabled without Replace line breaks")
	}
}

// With the format choice, the path's extension follows the format and
// the CSV options are disabled for the other formats.
func TestFormatChoice(t *testing.T) {
	test.NewTempApp(t)
	w := test.NewWindow(widget.NewLabel(""))
	defer w.Close()
	f := New(w, persistence.ExportSettings{LastDir: "/data"}, "r")
	f.AddFormatChoice("jsonl")
	w.SetContent(f.Content())
	if f.Format() != results.FormatJSONLines || f.Path.Text != "/data/r.jsonl" || !f.Delimiter.Disabled() || !f.BOM.Disabled() {
		t.Errorf("saved JSON Lines: %v %q, delimiter disabled %v", f.Format(), f.Path.Text, f.Delimiter.Disabled())
	}
	f.FormatSelect.SetSelected("Parquet")
	if f.Path.Text != "/data/r.parquet" {
		t.Errorf("parquet path %q", f.Path.Text)
	}
	f.Path.SetText("/data/mine.txt") // an extension of the user's own stays
	f.FormatSelect.SetSelected("CSV")
	if f.Path.Text != "/data/mine.txt" || f.Delimiter.Disabled() {
		t.Errorf("CSV: path %q, delimiter disabled %v", f.Path.Text, f.Delimiter.Disabled())
	}
	if _, s := f.Options(); s.Format != "csv" || s.LastDir != "/data" {
		t.Errorf("settings %+v", s)
	}
}
