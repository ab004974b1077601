package csv

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

const testdata = "../../testdata"

// table describes the schema of a test read.
type table struct {
	names []string
	types []*types.DataType
}

func strTable(names ...string) table {
	t := table{names: names}
	for range names {
		t.types = append(t.types, types.StringType())
	}
	return t
}

func cols(spec ...any) table {
	var t table
	for i := 0; i < len(spec); i += 2 {
		t.names = append(t.names, spec[i].(string))
		t.types = append(t.types, spec[i+1].(*types.DataType))
	}
	return t
}

type result struct {
	rows    []*types.Row
	err     error
	skipped int64
	nulled  int64
	reader  *Reader
}

func decodeReader(t testing.TB, tb table, opts map[string]string, r io.Reader, name string, batch int) result {
	t.Helper()
	o, err := ParseOptions(opts)
	if err != nil {
		t.Fatalf("options: %v", err)
	}
	d, err := NewDecoder(o, tb.names, tb.types, nil)
	if err != nil {
		t.Fatalf("decoder: %v", err)
	}
	rd := d.newReader(r, name, batch)
	var res result
	res.reader = rd
	for {
		b, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			res.err = err
			break
		}
		if b.Len == 0 {
			t.Fatalf("empty batch")
		}
		for _, c := range b.Cols {
			if c.Len() != b.Len {
				t.Fatalf("column length %d != batch length %d", c.Len(), b.Len)
			}
		}
		res.rows = append(res.rows, b.Rows(tb.types)...)
	}
	res.skipped = rd.SkippedRows()
	res.nulled = rd.NulledFields()
	return res
}

func decodeString(t testing.TB, tb table, opts map[string]string, data string) result {
	t.Helper()
	return decodeReader(t, tb, opts, strings.NewReader(data), "test.csv", 0)
}

func decodeFile(t testing.TB, tb table, opts map[string]string, path string) result {
	t.Helper()
	f, err := os.Open(filepath.Join(testdata, path))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	return decodeReader(t, tb, opts, f, filepath.Base(path), 0)
}

func dataErr(t testing.TB, err error) *connector.DataError {
	t.Helper()
	var de *connector.DataError
	if !errors.As(err, &de) {
		t.Fatalf("expected a *connector.DataError, got %v", err)
	}
	return de
}

// wantErr checks the location of a DataError and that its message
// contains every fragment.
func wantErr(t testing.TB, err error, file string, line int64, col int, field string, fragments ...string) {
	t.Helper()
	de := dataErr(t, err)
	if de.File != file || de.Line != line || de.Column != col || de.Field != field {
		t.Fatalf("error at %s:%d:%d (%q), want %s:%d:%d (%q): %v", de.File, de.Line, de.Column, de.Field, file, line, col, field, err)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Fatalf("error %q does not contain %q", err.Error(), f)
		}
	}
}

func rowStrings(rows []*types.Row) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.String()
	}
	return out
}

func wantRows(t testing.TB, res result, want ...string) {
	t.Helper()
	if res.err != nil {
		t.Fatalf("unexpected error: %v", res.err)
	}
	got := rowStrings(res.rows)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

var header = map[string]string{OptIgnoreFirstLine: "true"}

func with(base map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range base {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		out[kv[i]] = kv[i+1]
	}
	return out
}

func readTestFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(testdata, path))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
