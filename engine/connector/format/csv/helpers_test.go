package csv

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
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
	return decodeWith(t, tb, opts, func(d *Decoder) *Reader { return d.newReader(r, name, batch) })
}

// decodeInPlaceToo decodes data read from a stream and, parsed where it is,
// with NewBytesReaderAt, and fails unless both give the same rows, error
// and counts.
func decodeInPlaceToo(t testing.TB, tb table, opts map[string]string, data []byte, name string) result {
	t.Helper()
	res := decodeReader(t, tb, opts, bytes.NewReader(data), name, 0)
	inPlace := decodeWith(t, tb, opts, func(d *Decoder) *Reader {
		return d.NewBytesReaderAt(data, name, 0, 0, 1).(*Reader)
	})
	errText := func(err error) string {
		if err == nil {
			return ""
		}
		return err.Error()
	}
	if got, want := rowStrings(inPlace.rows), rowStrings(res.rows); !slices.Equal(got, want) ||
		errText(inPlace.err) != errText(res.err) || inPlace.skipped != res.skipped || inPlace.nulled != res.nulled {
		t.Errorf("parsed in place: %d rows, error %v, %d skipped, %d nulled; read from a stream: %d rows, error %v, %d skipped, %d nulled",
			len(got), inPlace.err, inPlace.skipped, inPlace.nulled, len(want), res.err, res.skipped, res.nulled)
	}
	return res
}

func decodeWith(t testing.TB, tb table, opts map[string]string, open func(*Decoder) *Reader) result {
	t.Helper()
	o, err := ParseOptions(opts)
	if err != nil {
		t.Fatalf("options: %v", err)
	}
	d, err := NewDecoder(o, tb.names, tb.types, nil)
	if err != nil {
		t.Fatalf("decoder: %v", err)
	}
	rd := open(d)
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
	return decodeInPlaceToo(t, tb, opts, []byte(data), "test.csv")
}

func decodeFile(t testing.TB, tb table, opts map[string]string, path string) result {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(testdata, path))
	if err != nil {
		t.Fatal(err)
	}
	return decodeInPlaceToo(t, tb, opts, data, filepath.Base(path))
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
