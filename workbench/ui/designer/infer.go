package designer

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/riffle-sql/riffle/engine/connector/infer"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/workbench/authoring"
)

// File ▸ New table… on a file: when the 'path' of a new filesystem table
// names a file, the designer reads it as File ▸ Open does
// (engine/connector/infer) and, while the columns are still the default
// single `id BIGINT`, takes the inferred columns, format and format
// options (a CSV header row becomes 'csv.ignore-first-line' = 'true').
// Whatever the columns, it then checks the design against the file: a
// header row that the options do not skip is an error, a different
// number of fields a warning.

// inferredFile is what inference found in the file at the design's path.
type inferredFile struct {
	path string
	res  *infer.Result
}

// pathChanged starts inference for a new filesystem table's path (in the
// background; an older path's result is dropped).
func (dd *Dialog) pathChanged(path string) {
	dd.inferGen++
	gen := dd.inferGen
	dd.file = nil
	p := strings.TrimPrefix(strings.TrimSpace(path), "file://")
	if !dd.d.IsNew() || dd.d.Connector != "filesystem" || p == "" {
		return
	}
	if st, err := os.Stat(p); err != nil || !st.Mode().IsRegular() {
		return
	}
	host := dd.host
	host.Go(func() {
		res, err := infer.File(p, infer.Options{})
		host.Do(func() {
			if gen != dd.inferGen {
				return // the path changed since
			}
			if err != nil {
				host.SetStatus("The designer cannot read " + filepath.Base(p) + " to infer its columns: " + err.Error())
				return
			}
			dd.file = &inferredFile{path: p, res: res}
			dd.applyInference(res)
		})
	})
}

// defaultColumns reports whether the design still has the default column
// of a new table (`id BIGINT`), which inference may replace.
func (dd *Dialog) defaultColumns() bool {
	c := dd.d.Columns
	return len(c) == 0 || len(c) == 1 && c[0].Name == "id" && strings.EqualFold(c[0].Type.SQL(), "BIGINT") && c[0].Kind == types.PhysicalColumn
}

// applyInference takes the inferred columns and options while the columns
// are the default ones, then redraws the designer and its checks.
func (dd *Dialog) applyInference(res *infer.Result) {
	d := dd.d
	if dd.defaultColumns() {
		cols := make([]authoring.ColumnDesign, len(res.Columns))
		for i, c := range res.Columns {
			cols[i] = authoring.ColumnDesign{Name: c.Name, Type: authoring.TypeSpecOf(c.Type)}
		}
		d.Columns = cols
		for _, o := range res.Options {
			switch o.Key {
			case "connector", "path":
			case "format":
				d.SetFormat(o.Value)
			default:
				d.SetOption(o.Key, o.Value)
			}
		}
		if len(d.Path) == 0 || len(d.Path) == 1 && d.Path[0] == "" {
			name := authoring.UniqueTableName(dd.host.Catalog(), res.Name)
			d.Path = []string{name}
			was := dd.building
			dd.building = true
			dd.Name.SetText(name)
			dd.building = was
		}
		dd.fillColumns()
		dd.fillOptions()
		header := "no header row"
		if res.Header {
			header = "a header row"
		}
		dd.host.SetStatus(fmt.Sprintf("Columns inferred from %s: %d columns, %s", filepath.Base(res.Path), len(res.Columns), header))
	}
	dd.Changed()
}

// fileProblems checks the design against its file: "✕ …" errors and
// "⚠ …" warnings, none without an inferred file.
func (dd *Dialog) fileProblems() (lines []string, errs int) {
	f := dd.file
	if f == nil || f.res.Format != "csv" {
		return nil, 0
	}
	if v, ok := dd.d.Option("format"); !ok || v != "csv" {
		return nil, 0
	}
	name := filepath.Base(f.path)
	skip, _ := dd.d.Option("csv.ignore-first-line")
	lenient, _ := dd.d.Option("csv.ignore-parse-errors")
	switch {
	case f.res.Header && !strings.EqualFold(skip, "true") && !strings.EqualFold(lenient, "true"):
		lines = append(lines, fmt.Sprintf("✕ %s starts with a header row (%s): set 'csv.ignore-first-line' = 'true', or reading it fails", name, headerPreview(f.res)))
		errs++
	case !f.res.Header && strings.EqualFold(skip, "true"):
		lines = append(lines, fmt.Sprintf("⚠ %s has no header row: 'csv.ignore-first-line' skips its first data row", name))
	}
	physical := 0
	for _, c := range dd.d.Columns {
		if c.Kind == types.PhysicalColumn {
			physical++
		}
	}
	if physical != len(f.res.Columns) {
		lines = append(lines, fmt.Sprintf("⚠ %s has %d fields a row, the table %d physical columns (csv reads fields by position)", name, len(f.res.Columns), physical))
	}
	return lines, errs
}

// headerPreview shows the first header fields.
func headerPreview(res *infer.Result) string {
	var h []string
	for i, c := range res.Columns {
		if i == 4 {
			h = append(h, "…")
			break
		}
		h = append(h, c.Header)
	}
	return strings.Join(h, ", ")
}
