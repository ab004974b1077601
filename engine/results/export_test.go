package results

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"

	"github.com/riffle-sql/riffle/engine/connector"
	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/types"
)

var typedCols = []Column{
	{"id", types.BigIntType().NotNull()}, {"name", types.StringType()}, {"price", types.DecimalType(10, 2)},
	{"ratio", types.DoubleType()}, {"ok", types.BooleanType()}, {"day", types.DateType()},
	{"at", types.TimestampType(3)}, {"logged", types.TimestampLTZType(3)}, {"tags", types.ArrayType(types.StringType())},
	{"attrs", types.MapType(types.StringType().NotNull(), types.IntType())},
	{"origin", types.RowType(types.NewField("city", types.StringType()), types.NewField("lat", types.DoubleType()))},
	{"raw", types.BytesType()},
}

func typedRows(t testing.TB, n int) *Frozen {
	r := New(typedCols, Options{})
	base := time.Date(2001, 1, 1, 14, 0, 0, 0, time.UTC)
	for i := range n {
		row := []any{int64(i), "say \"hi\"\n", types.MustDecimal("10.00"), 0.5, i%2 == 0, types.DateOf(2001, 1, 1),
			base.Add(time.Duration(i) * time.Millisecond), base, []any{"a", nil}, &types.Map{Keys: []any{"k"}, Values: []any{int32(7)}},
			types.NewRow("Albuquerque", 35.04), []byte{0, 1, 0xff}}
		if i == 1 {
			for c := 1; c < len(row); c++ {
				row[c] = nil
			}
		}
		if err := r.Add(types.Insert, row); err != nil {
			t.Fatal(err)
		}
	}
	return r.Freeze(TableView)
}

func TestExportJSONLinesAsFlinksJSONFormat(t *testing.T) {
	var b bytes.Buffer
	n, err := Write(context.Background(), &b, typedRows(t, 2), FormatJSONLines, CSVOptions{}, nil)
	if err != nil || n != 2 {
		t.Fatalf("%d rows, %v", n, err)
	}
	want := `{"id":0,"name":"say \"hi\"\n","price":10.00,"ratio":0.5,"ok":true,"day":"2001-01-01","at":"2001-01-01 14:00:00","logged":"2001-01-01 14:00:00Z","tags":["a",null],"attrs":{"k":7},"origin":{"city":"Albuquerque","lat":35.04},"raw":"AAH/"}` + "\n" +
		`{"id":1,"name":null,"price":null,"ratio":null,"ok":null,"day":null,"at":null,"logged":null,"tags":null,"attrs":null,"origin":null,"raw":null}` + "\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestExportFileAtomicForEachFormat(t *testing.T) {
	dir := t.TempDir()
	rows := typedRows(t, 10_000)
	for _, f := range []ExportFormat{FormatCSV, FormatJSONLines, FormatParquet} {
		if f == FormatParquet {
			if _, err := connector.LookupFormat("parquet"); err != nil {
				t.Log("the parquet format is not registered yet: parquet export not tested")
				continue
			}
		}
		path := filepath.Join(dir, "out"+f.Extension())
		os.WriteFile(path, []byte("old"), 0o644)
		// a cancelled export leaves the old file and no temporary file
		ctx, cancel := context.WithCancel(context.Background())
		err := Export(ctx, rows, path, f, DefaultCSVOptions(), func(written, total int) {
			if written > 0 {
				cancel()
			}
		})
		if !errors.Is(err, context.Canceled) {
			t.Errorf("%s: cancelled export: %v", f, err)
		}
		if b, _ := os.ReadFile(path); string(b) != "old" {
			t.Errorf("%s: the cancelled export changed the file", f)
		}
		if m, _ := filepath.Glob(filepath.Join(dir, ".*partial")); len(m) > 0 {
			t.Errorf("%s: left %v", f, m)
		}
		var last int
		if err := Export(context.Background(), rows, path, f, DefaultCSVOptions(), func(w, _ int) { last = w }); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if last != 10_000 {
			t.Errorf("%s: progress ended at %d", f, last)
		}
		data, _ := os.ReadFile(path)
		switch f {
		case FormatCSV:
			if lines := strings.Count(string(data), "\n"); lines != 10_001+9_999 { // header, and a line break in every name but one
				t.Errorf("csv: %d lines", lines)
			}
		case FormatJSONLines:
			lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			if len(lines) != 10_000 || !strings.HasPrefix(lines[9_999], `{"id":9999,`) {
				t.Errorf("json: %d lines, last %q", len(lines), lines[len(lines)-1])
			}
		case FormatParquet:
			checkParquetExport(t, path, 10_000)
		}
	}
}

// checkParquetExport reads an exported file back with pqarrow.
func checkParquetExport(t *testing.T, path string, n int) {
	t.Helper()
	pf, err := file.OpenParquetFile(path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	if pf.NumRows() != int64(n) {
		t.Errorf("parquet: %d rows", pf.NumRows())
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{BatchSize: int64(n)}, memory.DefaultAllocator)
	if err != nil {
		t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	defer tbl.Release()
	if int(tbl.NumCols()) != len(typedCols) {
		t.Fatalf("parquet: %d columns", tbl.NumCols())
	}
	for i, c := range typedCols {
		if got := tbl.Schema().Field(i).Name; got != c.Name {
			t.Errorf("parquet column %d: %s", i, got)
		}
	}
	ids := tbl.Column(0).Data().Chunk(0).(*array.Int64)
	names := tbl.Column(1).Data().Chunk(0).(*array.String)
	if ids.Value(0) != 0 || ids.Value(9_999) != 9_999 || names.Value(0) != "say \"hi\"\n" || !names.IsNull(1) {
		t.Errorf("parquet values: id %d %d name %q null %v", ids.Value(0), ids.Value(9_999), names.Value(0), names.IsNull(1))
	}
}

func TestExportFormatNames(t *testing.T) {
	for _, c := range []struct {
		in   string
		want ExportFormat
		ext  string
	}{{"csv", FormatCSV, ".csv"}, {"JSON", FormatJSONLines, ".jsonl"}, {"jsonl", FormatJSONLines, ".jsonl"}, {"parquet", FormatParquet, ".parquet"}} {
		f, err := ParseExportFormat(c.in)
		if err != nil || f != c.want || f.Extension() != c.ext {
			t.Errorf("%s: %v %v %s", c.in, f, err, f.Extension())
		}
	}
	if _, err := ParseExportFormat("xlsx"); err == nil || !strings.Contains(err.Error(), "want csv, json or parquet") {
		t.Errorf("xlsx: %v", err)
	}
	if f, ok := ExportFormatOf("/tmp/x.NDJSON"); !ok || f != FormatJSONLines {
		t.Errorf("ndjson: %v %v", f, ok)
	}
}

func TestExportDuplicateNames(t *testing.T) {
	r := New([]Column{{"a", types.IntType()}, {"a", types.IntType()}, {"A", types.IntType()}}, Options{})
	r.Add(types.Insert, []any{int32(1), int32(2), int32(3)})
	var b bytes.Buffer
	if _, err := Write(context.Background(), &b, r.Freeze(TableView), FormatJSONLines, CSVOptions{}, nil); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != `{"a":1,"a_2":2,"A_3":3}`+"\n" {
		t.Errorf("got %s", got)
	}
}

// An export over a symbolic link writes the file it points to (the link
// stays), an existing file keeps its mode, and the temporary files a
// killed export left (their process is gone) are removed by the next one.
func TestWriteFileAtomicKeepsLinksModesAndCleansUp(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "real.csv")
	if err := os.WriteFile(target, []byte("old\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.csv")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	// a leftover of a killed export: a process that has ended
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, fmt.Sprintf(".real.csv.riffle-%d-123.partial", cmd.Process.Pid))
	live := filepath.Join(dir, fmt.Sprintf(".real.csv.riffle-%d-456.partial", os.Getpid()))
	for _, p := range []string{stale, live} {
		if err := os.WriteFile(p, []byte("half"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	err := WriteFileAtomic(context.Background(), link, func(w io.Writer) error {
		_, err := io.WriteString(w, "new\n")
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if st, err := os.Lstat(link); err != nil || st.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", st.Mode(), err)
	}
	if b, _ := os.ReadFile(target); string(b) != "new\n" {
		t.Fatalf("target holds %q", b)
	}
	if st, _ := os.Stat(target); st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %04o, want 0600 kept", st.Mode().Perm())
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temporary file kept: %v", err)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("a running export's temporary file was removed: %v", err)
	}
	// a new file gets 0644
	fresh := filepath.Join(dir, "fresh.csv")
	if err := WriteFileAtomic(context.Background(), fresh, func(w io.Writer) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(fresh); st.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %04o", st.Mode().Perm())
	}
	// a directory is refused
	if err := WriteFileAtomic(context.Background(), dir, func(w io.Writer) error { return nil }); err == nil {
		t.Error("exporting over a directory was accepted")
	}
}
