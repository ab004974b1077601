package sqlclient

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	csvformat "github.com/riffle-sql/riffle/engine/connector/format/csv"
	"github.com/riffle-sql/riffle/engine/results"
	"github.com/riffle-sql/riffle/engine/types"
)

// TestCSVThreePathsOnTrickyValues writes the same row of tricky STRING
// values through Riffle's three CSV outputs, which share one field writer
// (csvformat.FieldWriter): `riffle sql --format csv`, the workbench's CSV
// export (results.WriteCSV, default options) and the csv format's encoder
// (default options, as a filesystem sink writes). Each output is checked
// byte for byte; where a column's three fields are equal the paths agree,
// and the columns where they differ are the documented differences of
// their configurations (edge spaces: riffle sql; a leading '#': the
// format; invalid UTF-8: the format writes the bytes as they are).
func TestCSVThreePathsOnTrickyValues(t *testing.T) {
	cols := []struct {
		sql  string // the SQL literal
		val  any    // the Go value (nil: NULL)
		cli  string // riffle sql --format csv
		exp  string // the workbench export
		form string // the csv format
	}{
		{"'plain'", "plain", "plain", "plain", "plain"},
		{"'a,b'", "a,b", `"a,b"`, `"a,b"`, `"a,b"`},
		{`'say "hi"'`, `say "hi"`, `"say ""hi"""`, `"say ""hi"""`, `"say ""hi"""`},
		{"'line1\nline2'", "line1\nline2", "\"line1\nline2\"", "\"line1\nline2\"", "\"line1\nline2\""},
		{"'crlf\r\nend'", "crlf\r\nend", "\"crlf\r\nend\"", "\"crlf\r\nend\"", "\"crlf\r\nend\""},
		{"''", "", `""`, `""`, `""`},
		{"CAST(NULL AS STRING)", nil, "", "", ""},
		{"'NULL'", "NULL", "NULL", "NULL", "NULL"},
		{"' edge '", " edge ", `" edge "`, " edge ", " edge "},
		{"'#hash'", "#hash", "#hash", "#hash", `"#hash"`},
		{"'a\xffb'", "a\xffb", "a\uFFFDb", "a\uFFFDb", "a\xffb"},
		{"'🚀 é'", "🚀 é", "🚀 é", "🚀 é", "🚀 é"},
		{"'\"'", `"`, `""""`, `""""`, `""""`},
	}
	var sel, names []string
	var ts []*types.DataType
	var vals []any
	var cli, exp, form []string
	for i, c := range cols {
		name := fmt.Sprintf("c%d", i)
		sel = append(sel, c.sql+" AS "+name)
		names = append(names, name)
		ts = append(ts, types.StringType())
		vals = append(vals, c.val)
		cli, exp, form = append(cli, c.cli), append(exp, c.exp), append(form, c.form)
	}
	header := strings.Join(names, ",") + "\n"

	// riffle sql --format csv
	code, out, errs := runClient(t, Options{Mode: ModeBatch, Format: FormatCSV, Statements: "SELECT " + strings.Join(sel, ", ") + ";"}, "")
	if want := header + strings.Join(cli, ",") + "\n"; code != 0 || out != want {
		t.Errorf("riffle sql: code %d\ngot  %q\nwant %q\nstderr:\n%s", code, out, want, errs)
	}

	// the workbench's CSV export
	rcols := make([]results.Column, len(names))
	for i := range names {
		rcols[i] = results.Column{Name: names[i], Type: ts[i]}
	}
	r := results.New(rcols, results.Options{})
	if err := r.Add(types.Insert, vals); err != nil {
		t.Fatal(err)
	}
	var eb bytes.Buffer
	if _, err := results.WriteCSV(context.Background(), &eb, r.Freeze(results.TableView), results.DefaultCSVOptions(), nil); err != nil {
		t.Fatal(err)
	}
	if want := header + strings.Join(exp, ",") + "\n"; eb.String() != want {
		t.Errorf("export:\ngot  %q\nwant %q", eb.String(), want)
	}

	// the csv format's encoder (no header unless csv.ignore-first-line)
	enc, err := csvformat.NewEncoder(csvformat.DefaultOptions(), names, ts)
	if err != nil {
		t.Fatal(err)
	}
	bb := types.NewBatchBuilder(ts)
	if err := bb.Append(types.Insert, vals); err != nil {
		t.Fatal(err)
	}
	var fb bytes.Buffer
	w := enc.NewWriter(&fb)
	if err := w.Write(bb.Build()); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if want := strings.Join(form, ",") + "\n"; fb.String() != want {
		t.Errorf("csv format:\ngot  %q\nwant %q", fb.String(), want)
	}
}
