package filesystem

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	_ "github.com/riffle-sql/riffle/engine/connector/format/cdcjson"
	_ "github.com/riffle-sql/riffle/engine/connector/format/json"
	_ "github.com/riffle-sql/riffle/engine/connector/format/parquet"
	_ "github.com/riffle-sql/riffle/engine/connector/format/raw"
	"github.com/riffle-sql/riffle/engine/types"
)

// run is what a reader produced: its rows and the error that ended it
// (nil at the end of the split).
type run struct {
	rows []string
	err  error
}

// readOn reads r to its end or its first error, at most max rows (0: no
// bound).
func readOn(t *testing.T, r connector.Reader, ts []*types.DataType, max int) run {
	t.Helper()
	var out run
	for max == 0 || len(out.rows) < max {
		b, err := r.Next(context.Background())
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			out.err = err
			break
		}
		for _, row := range b.Rows(ts) {
			out.rows = append(out.rows, row.String())
		}
	}
	return out
}

// cut reads k batches of split, takes the position, and reads on (run A);
// then it reopens the split at the position and reads it (run B). It
// returns the rows before the cut, run A after the cut and run B.
func cut(t *testing.T, src connector.Source, split connector.Split, spec connector.ReadSpec, ts []*types.DataType, k int) (before []string, a, b run, pos []byte) {
	t.Helper()
	ctx := context.Background()
	r, err := src.Open(ctx, split, spec)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	before = readOn(t, r, ts, 1).rows // one batch
	for i := 1; i < k; i++ {
		before = append(before, readOn(t, r, ts, 1).rows...)
	}
	pos, err = r.(connector.PositionReader).Position()
	if err != nil {
		t.Fatal(err)
	}
	a = readOn(t, r, ts, 0)
	rb, err := src.(connector.ResumableSource).OpenAt(ctx, split, spec, pos)
	if err != nil {
		t.Fatal(err)
	}
	defer rb.Close()
	b = readOn(t, rb, ts, 0)
	return before, a, b, pos
}

// sameRun asserts that run B equals run A after the cut: the same rows and
// the same error (same file, same line).
func sameRun(t *testing.T, what string, a, b run) {
	t.Helper()
	if strings.Join(a.rows, "\n") != strings.Join(b.rows, "\n") {
		t.Fatalf("%s: %d rows after resuming, %d after the cut; first %v, want %v", what, len(b.rows), len(a.rows), first(b.rows), first(a.rows))
	}
	if fmt.Sprint(a.err) != fmt.Sprint(b.err) {
		t.Fatalf("%s: resumed run ended with %v, the uninterrupted one with %v", what, b.err, a.err)
	}
}

func first(rows []string) string {
	if len(rows) == 0 {
		return "(none)"
	}
	return rows[0]
}

func singleSplit(t *testing.T, src connector.Source) connector.Split {
	t.Helper()
	splits, err := src.Splits(context.Background())
	if err != nil || len(splits) != 1 {
		t.Fatalf("splits %v, %v", splits, err)
	}
	return splits[0]
}

// decodePos reads a file split's saved position.
func decodePos(t *testing.T, pos []byte) *filePosition {
	t.Helper()
	var p position
	if err := json.Unmarshal(pos, &p); err != nil || p.File == nil {
		t.Fatalf("position %s: %v", pos, err)
	}
	return p.File
}

// TestResumeCSVAtLine: a CSV file of 3 batches and more, with a header,
// blank lines and a quoted field over two lines before the cut, and a bad
// value after it. The resumed reader reads the same rows after the cut and
// fails on the same line.
func TestResumeCSVAtLine(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "big.csv")
	var sb strings.Builder
	sb.WriteString("id,name\n")
	line := 1
	bad := 0
	for i := 1; i <= 3*BatchRows+100; i++ {
		switch {
		case i == 10:
			sb.WriteString("10,\"two\nlines\"\n")
			line += 2
		case i == 5000:
			sb.WriteString("\n\n5000,after blanks\n")
			line += 3
		case i == 3*BatchRows+50:
			sb.WriteString("oops,bad\n")
			line++
			bad = line
		default:
			fmt.Fprintf(&sb, "%d,name %d with some padding to fill the buffer sooner\n", i, i)
			line++
		}
	}
	write(t, p, sb.String())
	src, err := Factory{}.CreateSource(newCtx(map[string]string{"path": p, "format": "csv", "csv.ignore-first-line": "true"}, names, tys))
	if err != nil {
		t.Fatal(err)
	}
	split := singleSplit(t, src)
	before, a, b, pos := cut(t, src, split, connector.ReadSpec{}, tys, 2)
	if len(before) != 2*BatchRows || before[9] != "+I[10, two\nlines]" || !strings.HasPrefix(before[4999], "+I[5000, after blanks") {
		t.Fatalf("rows before the cut: %d, row 10 %q, row 5000 %q", len(before), before[9], before[4999])
	}
	fp := decodePos(t, pos)
	// Line 1 is the header, the quoted field and the blank lines add 3.
	if !fp.ByOffset || fp.Line != int64(2*BatchRows+1+3+1) || fp.Rows != 2*BatchRows {
		t.Fatalf("position %+v", fp)
	}
	if want := fmt.Sprintf("+I[%d, name %d with some padding to fill the buffer sooner]", 2*BatchRows+1, 2*BatchRows+1); first(b.rows) != want {
		t.Fatalf("first resumed row %s, want %s", first(b.rows), want)
	}
	sameRun(t, "csv", a, b)
	var de *connector.DataError
	if !errors.As(b.err, &de) || de.File != p || de.Line != int64(bad) || de.Field != "id" {
		t.Fatalf("resumed error %v, want a DataError on %s line %d", b.err, p, bad)
	}
	if len(b.rows) != BatchRows {
		// The third batch; the fourth fails.
		t.Fatalf("%d rows before the error", len(b.rows))
	}
}

// TestResumeLineFormats: json, raw and debezium-json (an update is two
// rows of one line) resume at the line after the cut, and an error after
// it names the same line.
func TestResumeLineFormats(t *testing.T) {
	n := 2*BatchRows + 300
	for _, c := range []struct {
		format string
		names  []string
		ts     []*types.DataType
		line   func(i int) string
		bad    string
		rows   func(i int) []string
	}{
		{"json", names, tys, func(i int) string { return fmt.Sprintf(`{"id": %d, "name": "n%d"}`, i, i) }, `{"id": "x"}`,
			func(i int) []string { return []string{fmt.Sprintf("+I[%d, n%d]", i, i)} }},
		{"raw", []string{"line"}, []*types.DataType{types.StringType()}, func(i int) string { return fmt.Sprintf("line %d", i) }, "",
			func(i int) []string { return []string{fmt.Sprintf("+I[line %d]", i)} }},
		{"debezium-json", names, tys, func(i int) string {
			if i%3 == 0 {
				return fmt.Sprintf(`{"before": {"id": %d, "name": "old"}, "after": {"id": %d, "name": "n%d"}, "op": "u"}`, i, i, i)
			}
			return fmt.Sprintf(`{"before": null, "after": {"id": %d, "name": "n%d"}, "op": "c"}`, i, i)
		}, `{"before": null, "after": {"id": "x"}, "op": "c"}`,
			func(i int) []string {
				if i%3 == 0 {
					return []string{fmt.Sprintf("-U[%d, old]", i), fmt.Sprintf("+U[%d, n%d]", i, i)}
				}
				return []string{fmt.Sprintf("+I[%d, n%d]", i, i)}
			}},
	} {
		t.Run(c.format, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "data.txt")
			var sb strings.Builder
			var want []string
			badLine := 0
			for i := 1; i <= n; i++ {
				if i == n-10 && c.bad != "" {
					sb.WriteString(c.bad + "\r\n")
					badLine = i
					continue
				}
				sb.WriteString(c.line(i) + "\n")
				if badLine == 0 {
					want = append(want, c.rows(i)...)
				}
			}
			write(t, p, sb.String())
			src, err := Factory{}.CreateSource(newCtx(map[string]string{"path": p, "format": c.format}, c.names, c.ts))
			if err != nil {
				t.Fatal(err)
			}
			before, a, b, pos := cut(t, src, singleSplit(t, src), connector.ReadSpec{}, c.ts, 1)
			fp := decodePos(t, pos)
			if !fp.ByOffset || fp.Offset <= 0 || fp.Rows != int64(len(before)) {
				t.Fatalf("position %+v after %d rows", fp, len(before))
			}
			if strings.Join(before, "\n") != strings.Join(want[:len(before)], "\n") {
				t.Fatalf("rows before the cut differ")
			}
			if len(b.rows) == 0 || b.rows[0] != want[len(before)] {
				t.Fatalf("first resumed row %s, want %s", first(b.rows), want[len(before)])
			}
			sameRun(t, c.format, a, b)
			if c.bad == "" {
				if got := len(before) + len(b.rows); got != len(want) || b.err != nil {
					t.Fatalf("%d rows in all, want %d (%v)", got, len(want), b.err)
				}
				return
			}
			var de *connector.DataError
			if !errors.As(b.err, &de) || de.File != p || de.Line != int64(badLine) {
				t.Fatalf("resumed error %v, want a DataError on %s line %d", b.err, p, badLine)
			}
		})
	}
}

// TestResumeParquetBySkipping: a format without lines resumes by skipping
// the rows read.
func TestResumeParquetBySkipping(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "data.parquet")
	n := 2*BatchRows + 77
	f, err := connector.LookupFormat("parquet")
	if err != nil {
		t.Fatal(err)
	}
	enc, err := f.CreateEncoder(&connector.FormatContext{Table: "t", Names: names, Types: tys, AllNames: names, AllTypes: tys, Options: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	w := enc.NewWriter(out)
	bb := types.NewBatchBuilder(tys)
	for i := 1; i <= n; i++ {
		if err := bb.Append(types.Insert, []any{int32(i), fmt.Sprintf("n%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Write(bb.Build()); err != nil {
		t.Fatal(err)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := w.(connector.ClosingBatchWriter).Close(); err != nil {
		t.Fatal(err)
	}
	out.Close()
	src, err := Factory{}.CreateSource(newCtx(map[string]string{"path": p, "format": "parquet"}, names, tys))
	if err != nil {
		t.Fatal(err)
	}
	before, a, b, pos := cut(t, src, singleSplit(t, src), connector.ReadSpec{}, tys, 1)
	fp := decodePos(t, pos)
	if fp.ByOffset || fp.Rows != int64(len(before)) || len(before) == 0 {
		t.Fatalf("position %+v after %d rows", fp, len(before))
	}
	sameRun(t, "parquet", a, b)
	if want := fmt.Sprintf("+I[%d, n%d]", len(before)+1, len(before)+1); first(b.rows) != want || len(before)+len(b.rows) != n {
		t.Fatalf("resumed at %s (%d rows), want %s (%d rows)", first(b.rows), len(b.rows), want, n-len(before))
	}
}

// TestResumeRefusesChangedFiles: a corrupt position, another split's, a
// truncated file, a file of another size, and a file replaced by one of
// the same size and modification time are refused with errors naming the
// file.
func TestResumeRefusesChangedFiles(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	p := filepath.Join(dir, "a.csv")
	other := filepath.Join(dir, "b.csv")
	var sb strings.Builder
	for i := 1; i <= BatchRows+10; i++ {
		fmt.Fprintf(&sb, "%d,n%d\n", i, i)
	}
	content := sb.String()
	write(t, p, content)
	write(t, other, "1,x\n")
	src, err := Factory{}.CreateSource(newCtx(map[string]string{"path": dir, "format": "csv"}, names, tys))
	if err != nil {
		t.Fatal(err)
	}
	splits, _ := src.Splits(ctx)
	r, err := src.Open(ctx, splits[0], connector.ReadSpec{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(ctx); err != nil {
		t.Fatal(err)
	}
	pos, err := r.(connector.PositionReader).Position()
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if _, err := r.(connector.PositionReader).Position(); err == nil || !strings.Contains(err.Error(), "the reader is closed") {
		t.Errorf("position of a closed reader: %v", err)
	}
	fp := decodePos(t, pos)
	openAt := func(split connector.Split, pos []byte) error {
		r, err := src.(connector.ResumableSource).OpenAt(ctx, split, connector.ReadSpec{}, pos)
		if err == nil {
			r.Close()
		}
		return err
	}
	prefix := "table `default_catalog`.`default_database`.`t`: split " + p + ": cannot resume at the checkpoint's position: "
	for _, c := range []struct {
		name  string
		split connector.Split
		pos   []byte
		want  string
	}{
		{"corrupt", splits[0], []byte(`{"version": 1, "file": {`), prefix + "the position is corrupt"},
		{"version", splits[0], []byte(`{"version": 2}`), prefix + "the position has version 2; this program reads version 1"},
		{"monitor position", splits[0], []byte(`{"version": 1, "monitor": {"path": "x"}}`), prefix + "the position is not a file's"},
		{"other split", splits[1], pos, "split " + other + ": cannot resume at the checkpoint's position: the position is of split " + p},
		{"negative offset", splits[0], []byte(`{"version": 1, "file": {"path": "` + p + `", "by_offset": true, "offset": -4}}`), prefix + "the position is corrupt (offset -4"},
	} {
		if err := openAt(c.split, c.pos); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want %q", c.name, err, c.want)
		}
	}
	if err := openAt(splits[0], pos); err != nil {
		t.Fatalf("unchanged file: %v", err)
	}
	mtime := time.Unix(0, fp.ModTime)

	// Truncated below the offset.
	if err := os.Truncate(p, fp.Offset-5); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("file %s is %d bytes, shorter than the checkpoint's offset %d (line %d): it was truncated or replaced since the checkpoint", p, fp.Offset-5, fp.Offset, fp.Line)
	if err := openAt(splits[0], pos); err == nil || err.Error() != prefix+want {
		t.Errorf("truncated: error %v, want %q", err, prefix+want)
	}
	// Extended: another size.
	write(t, p, content+"99,more\n")
	if err := openAt(splits[0], pos); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("file %s changed since the checkpoint (size %d → %d bytes, modified ", p, len(content), len(content)+8)) {
		t.Errorf("extended: error %v", err)
	}
	// Replaced by a file of the same size and modification time.
	write(t, p, "0"+content[1:])
	if err := os.Chtimes(p, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	if err := openAt(splits[0], pos); err == nil || err.Error() != prefix+"file "+p+" changed since the checkpoint (its first 4096 bytes differ)" {
		t.Errorf("replaced: error %v", err)
	}
	// Gone.
	os.Remove(p)
	if err := openAt(splits[0], pos); err == nil || !errors.Is(err, os.ErrNotExist) {
		t.Errorf("removed: error %v", err)
	}
}

// TestResumeMonitor: the monitoring split's position holds the files read;
// the resumed reader goes on in the file being read and reads the files
// found after, never the ones read before.
func TestResumeMonitor(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.csv"), "1,a\n2,a\n")
	var sb strings.Builder
	for i := 1; i <= BatchRows+5; i++ {
		fmt.Fprintf(&sb, "%d,b\n", i)
	}
	write(t, filepath.Join(dir, "b.csv"), sb.String())
	write(t, filepath.Join(dir, "c.csv"), "1,c\n")
	src, err := Factory{}.CreateSource(newCtx(map[string]string{"path": dir, "format": "csv", "source.monitor-interval": "1 ms"}, names, tys))
	if err != nil {
		t.Fatal(err)
	}
	split := singleSplit(t, src)
	r, err := src.Open(ctx, split, connector.ReadSpec{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	before := readOn(t, r, tys, 1).rows                   // a's batch
	before = append(before, readOn(t, r, tys, 1).rows...) // b's first batch
	if len(before) != 2+BatchRows {
		t.Fatalf("%d rows before the cut", len(before))
	}
	pos, err := r.(connector.PositionReader).Position()
	if err != nil {
		t.Fatal(err)
	}
	var p position
	if err := json.Unmarshal(pos, &p); err != nil || p.Monitor == nil || p.Monitor.Current == nil {
		t.Fatalf("position %s", pos)
	}
	if got := strings.Join(p.Monitor.Read, ","); got != filepath.Join(dir, "a.csv") || p.Monitor.Current.Path != filepath.Join(dir, "b.csv") {
		t.Fatalf("files read %s, current %s", got, p.Monitor.Current.Path)
	}
	write(t, filepath.Join(dir, "d.csv"), "1,d\n2,d\n")
	want := 5 + 1 + 2 // the rest of b, c, d
	a := readOn(t, r, tys, want)
	rb, err := src.(connector.ResumableSource).OpenAt(ctx, split, connector.ReadSpec{}, pos)
	if err != nil {
		t.Fatal(err)
	}
	defer rb.Close()
	b := readOn(t, rb, tys, want)
	sameRun(t, "monitor", a, b)
	if got := strings.Join(b.rows, " "); got != fmt.Sprintf("+I[%d, b] +I[%d, b] +I[%d, b] +I[%d, b] +I[%d, b] +I[1, c] +I[1, d] +I[2, d]",
		BatchRows+1, BatchRows+2, BatchRows+3, BatchRows+4, BatchRows+5) {
		t.Fatalf("resumed rows %s", got)
	}
	// The position of another path, or of a file split, is refused.
	if _, err := src.(connector.ResumableSource).OpenAt(ctx, &MonitorSplit{Path: "/elsewhere", Interval: time.Millisecond}, connector.ReadSpec{}, pos); err == nil || !strings.Contains(err.Error(), "the position is of the monitored path "+dir) {
		t.Errorf("other path: %v", err)
	}
	// A current file removed since the checkpoint is an error naming it.
	os.Remove(filepath.Join(dir, "b.csv"))
	if _, err := src.(connector.ResumableSource).OpenAt(ctx, split, connector.ReadSpec{}, pos); err == nil || !strings.Contains(err.Error(), "file "+filepath.Join(dir, "b.csv")+" of the checkpoint") {
		t.Errorf("removed current file: %v", err)
	}
}

// TestResumeBeforeABadLine: the debezium-json reader returns the rows
// before a bad line first; the position after them is the bad line, where
// a resumed reader fails with the same error.
func TestResumeBeforeABadLine(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "cdc.json")
	write(t, p, `{"before": null, "after": {"id": 1, "name": "a"}, "op": "c"}`+"\r\n\n"+
		`{"before": {"id": 1, "name": "a"}, "after": {"id": 1, "name": "b"}, "op": "u"}`+"\n"+
		`{"before": null, "after": {"id": "x"}, "op": "c"}`+"\n")
	src, err := Factory{}.CreateSource(newCtx(map[string]string{"path": p, "format": "debezium-json"}, names, tys))
	if err != nil {
		t.Fatal(err)
	}
	split := singleSplit(t, src)
	r, _ := src.Open(ctx, split, connector.ReadSpec{})
	defer r.Close()
	if b, err := r.Next(ctx); err != nil || b.Len != 3 {
		t.Fatalf("first batch: %v, %v", b, err)
	}
	pos, _ := r.(connector.PositionReader).Position()
	if fp := decodePos(t, pos); fp.Line != 4 || fp.Rows != 3 {
		t.Fatalf("position %+v, want line 4", fp)
	}
	_, errA := r.Next(ctx)
	rb, err := src.(connector.ResumableSource).OpenAt(ctx, split, connector.ReadSpec{}, pos)
	if err != nil {
		t.Fatal(err)
	}
	defer rb.Close()
	_, errB := rb.Next(ctx)
	var de *connector.DataError
	if errA == nil || fmt.Sprint(errA) != fmt.Sprint(errB) || !errors.As(errB, &de) || de.Line != 4 {
		t.Fatalf("resumed error %v, uninterrupted %v; want both on line 4", errB, errA)
	}
}

// TestResumeAtTheStart: the position before the first batch resumes the
// whole file (a BOM and the header of csv.ignore-first-line skipped as on
// a first read); positions after CRLF lines name the right line.
func TestResumeAtTheStart(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "crlf.csv")
	var sb strings.Builder
	sb.WriteString("\xEF\xBB\xBFid,name\r\n")
	for i := 1; i <= BatchRows+3; i++ {
		fmt.Fprintf(&sb, "%d,n%d\r\n", i, i)
	}
	sb.WriteString("x,bad\r\n")
	write(t, p, sb.String())
	src, err := Factory{}.CreateSource(newCtx(map[string]string{"path": p, "format": "csv", "csv.ignore-first-line": "true"}, names, tys))
	if err != nil {
		t.Fatal(err)
	}
	split := singleSplit(t, src)
	r, _ := src.Open(ctx, split, connector.ReadSpec{})
	defer r.Close()
	start, err := r.(connector.PositionReader).Position()
	if err != nil {
		t.Fatal(err)
	}
	if fp := decodePos(t, start); fp.Offset != 0 || fp.Line != 1 || fp.Rows != 0 {
		t.Fatalf("start position %+v", fp)
	}
	whole := readOn(t, r, tys, 0)
	rb, err := src.(connector.ResumableSource).OpenAt(ctx, split, connector.ReadSpec{}, start)
	if err != nil {
		t.Fatal(err)
	}
	defer rb.Close()
	again := readOn(t, rb, tys, 0)
	sameRun(t, "from the start", whole, again)
	if first(again.rows) != "+I[1, n1]" || len(again.rows) != BatchRows {
		t.Fatalf("resumed from the start: %s, %d rows", first(again.rows), len(again.rows))
	}
	_, a, b, pos := cut(t, src, split, connector.ReadSpec{}, tys, 1)
	if fp := decodePos(t, pos); fp.Line != BatchRows+2 {
		t.Fatalf("position %+v, want line %d", fp, BatchRows+2)
	}
	sameRun(t, "crlf", a, b)
	var de *connector.DataError
	if !errors.As(b.err, &de) || de.Line != BatchRows+5 {
		t.Fatalf("resumed error %v, want line %d", b.err, BatchRows+5)
	}
}
