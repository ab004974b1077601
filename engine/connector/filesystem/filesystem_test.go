package filesystem

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	_ "github.com/riffle-sql/riffle/engine/connector/format/csv"
	"github.com/riffle-sql/riffle/engine/types"
)

func newCtx(opts map[string]string, names []string, ts []*types.DataType) *connector.Context {
	o := map[string]string{"connector": "filesystem"}
	for k, v := range opts {
		o[k] = v
	}
	return &connector.Context{Table: "`default_catalog`.`default_database`.`t`", Schema: types.NewPhysicalSchema(names, ts), Options: o, Config: config.New()}
}

var (
	names = []string{"id", "name"}
	tys   = []*types.DataType{types.IntType(), types.StringType()}
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readAll reads every split of a source and returns the rows as strings.
func readAll(t *testing.T, src connector.Source, spec connector.ReadSpec, ts []*types.DataType) ([]string, error) {
	t.Helper()
	ctx := context.Background()
	splits, err := src.Splits(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, sp := range splits {
		r, err := src.Open(ctx, sp, spec)
		if err != nil {
			return nil, err
		}
		for {
			b, err := r.Next(ctx)
			if err == io.EOF {
				break
			}
			if err != nil {
				r.Close()
				return out, err
			}
			for _, row := range b.Rows(ts) {
				out = append(out, row.String())
			}
		}
		if err := r.Close(); err != nil {
			t.Fatal(err)
		}
		_ = r.Close()
	}
	return out, nil
}

func TestReadDirectorySkipsHiddenFiles(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "b.csv"), "2,two\n")
	write(t, filepath.Join(dir, "a.csv"), "1,one\n")
	write(t, filepath.Join(dir, "sub", "c.csv"), "3,three\n")
	write(t, filepath.Join(dir, ".hidden.csv"), "x,bad\n")
	write(t, filepath.Join(dir, "_SUCCESS"), "")
	write(t, filepath.Join(dir, "_tmp", "d.csv"), "x,bad\n")
	write(t, filepath.Join(dir, ".staging", "e.csv"), "x,bad\n")
	src, err := connector.CreateSource(newCtx(map[string]string{"path": dir, "format": "csv"}, names, tys))
	if err != nil {
		t.Fatal(err)
	}
	if !src.Bounded() || !src.ChangelogMode().IsInsertOnly() {
		t.Fatal("source must be bounded and insert-only")
	}
	rows, err := readAll(t, src, connector.ReadSpec{Limit: -1}, tys)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows, ";") != "+I[1, one];+I[2, two];+I[3, three]" {
		t.Fatalf("rows %v", rows)
	}
	// A single file, a file:// URI, a projection and a regex filter.
	src, _ = connector.CreateSource(newCtx(map[string]string{"path": "file://" + filepath.Join(dir, "b.csv"), "format": "csv"}, names, tys))
	rows, err = readAll(t, src, connector.ReadSpec{Columns: []int{1}, Limit: -1}, []*types.DataType{types.StringType()})
	if err != nil || strings.Join(rows, ";") != "+I[two]" {
		t.Fatalf("rows %v %v", rows, err)
	}
	src, _ = connector.CreateSource(newCtx(map[string]string{"path": dir, "format": "csv", "source.path.regex-pattern": ".*/[ab]\\.csv"}, names, tys))
	rows, _ = readAll(t, src, connector.ReadSpec{Limit: -1}, tys)
	if strings.Join(rows, ";") != "+I[1, one];+I[2, two]" {
		t.Fatalf("regex rows %v", rows)
	}
}

func TestReadErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.csv"), "1,one\n2\n")
	src, _ := connector.CreateSource(newCtx(map[string]string{"path": dir, "format": "csv"}, names, tys))
	_, err := readAll(t, src, connector.ReadSpec{Limit: -1}, tys)
	var de *connector.DataError
	if !errors.As(err, &de) || de.File != filepath.Join(dir, "a.csv") || de.Line != 2 {
		t.Fatalf("error %v", err)
	}
	src, _ = connector.CreateSource(newCtx(map[string]string{"path": dir, "format": "csv", "csv.ignore-parse-errors": "true"}, names, tys))
	rows, err := readAll(t, src, connector.ReadSpec{Limit: -1}, tys)
	if err != nil || len(rows) != 2 || rows[1] != "+I[2, null]" {
		t.Fatalf("rows %v %v", rows, err)
	}
	src, _ = connector.CreateSource(newCtx(map[string]string{"path": filepath.Join(dir, "missing"), "format": "csv"}, names, tys))
	if _, err := src.Splits(context.Background()); err == nil {
		t.Fatal("missing path accepted")
	}
}

func TestOptionValidation(t *testing.T) {
	for _, opts := range []map[string]string{
		{"format": "csv"},
		{"path": "/tmp"},
		{"path": "/tmp", "format": "nope"},
		{"path": "/tmp", "format": "csv", "bogus": "1"},
		{"path": "/tmp", "format": "csv", "csv.bogus": "1"},
		{"path": "s3://bucket/x", "format": "csv"},
		{"path": "/tmp", "format": "csv", "sink.rolling-policy.file-size": "lots"},
		{"path": "/tmp", "format": "csv", "source.path.regex-pattern": "("},
		{"path": "/tmp", "format": "csv", "source.monitor-interval": "soon"},
	} {
		ctx := newCtx(opts, names, tys)
		if _, err := connector.CreateSource(ctx); err == nil {
			t.Errorf("options %v accepted", opts)
		}
	}
	if _, err := connector.CreateSink(newCtx(map[string]string{"path": "/tmp", "format": "csv", "sink.rolling-policy.file-size": "128MB"}, names, tys)); err != nil {
		t.Fatalf("sink.rolling-policy.file-size 128MB: %v", err)
	}
	// Monitoring is a streaming feature; batch mode lists the files once.
	ctx := newCtx(map[string]string{"path": "/tmp", "format": "csv", "source.monitor-interval": "10 s"}, names, tys)
	ctx.Config.Set("execution.runtime-mode", "batch")
	if _, err := connector.CreateSource(ctx); err != nil {
		t.Fatal(err)
	}
}

func TestEmptyProjectionCountsRows(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.csv"), "1,one\n2,two\n3,three\n")
	for _, format := range []string{"csv", "json"} {
		if format == "json" {
			write(t, filepath.Join(dir, "a.csv"), "{\"id\":1}\n{\"id\":2}\n{}\n")
		}
		src, _ := connector.CreateSource(newCtx(map[string]string{"path": dir, "format": format}, names, tys))
		splits, _ := src.Splits(context.Background())
		r, err := src.Open(context.Background(), splits[0], connector.ReadSpec{Columns: []int{}})
		if err != nil {
			t.Fatal(err)
		}
		b, err := r.Next(context.Background())
		if err != nil || len(b.Cols) != 0 || b.Len != 3 {
			t.Fatalf("%s: %d columns, %d rows, %v", format, len(b.Cols), b.Len, err)
		}
		r.Close()
	}
}

func TestMetadataAndLimit(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.csv"), "1,one\n2,two\n3,three\n")
	src, _ := connector.CreateSource(newCtx(map[string]string{"path": dir, "format": "csv"}, names, tys))
	ms, ok := src.(connector.MetadataSource)
	if !ok || ms.ReadableMetadata()["file.name"] == nil {
		t.Fatal("no metadata")
	}
	rows, err := readAll(t, src, connector.ReadSpec{Columns: []int{0}, Metadata: []string{"file.name", "file.size"}, Limit: 2},
		[]*types.DataType{types.IntType(), types.StringType(), types.BigIntType()})
	if err != nil || strings.Join(rows, ";") != "+I[1, a.csv, 20];+I[2, a.csv, 20]" {
		t.Fatalf("rows %v %v", rows, err)
	}
}

func batchOf(t *testing.T, rows ...*types.Row) *types.Batch {
	bb := types.NewBatchBuilder(tys)
	for _, r := range rows {
		if err := bb.AppendRow(r); err != nil {
			t.Fatal(err)
		}
	}
	return bb.Build()
}

func visible(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

func TestSinkCommitAbortOverwriteAndRoll(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out.csv")
	ctx := newCtx(map[string]string{"path": dir, "format": "csv"}, names, tys)
	sink, err := connector.CreateSink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !sink.ChangelogMode(types.RetractMode).IsInsertOnly() {
		t.Fatal("sink must be insert-only")
	}
	spec := connector.WriteSpec{Names: names, Types: tys, Bounded: true}
	bg := context.Background()
	w0, err := sink.Open(bg, spec, 0)
	if err != nil {
		t.Fatal(err)
	}
	w1, _ := sink.Open(bg, spec, 1)
	if err := w0.Write(bg, batchOf(t, types.NewRow(int32(1), "a,b"))); err != nil {
		t.Fatal(err)
	}
	if err := w1.Write(bg, batchOf(t, types.NewRow(int32(2), "c"))); err != nil {
		t.Fatal(err)
	}
	// Nothing visible before commit: only hidden in-progress files.
	for _, n := range visible(t, dir) {
		if !strings.HasPrefix(n, ".part-") || !strings.HasSuffix(n, ".inprogress") {
			t.Fatalf("visible before commit: %s", n)
		}
	}
	if err := w0.Commit(); err != nil {
		t.Fatal(err)
	}
	w1.Abort()
	got := visible(t, dir)
	if len(got) != 1 || !strings.HasPrefix(got[0], "part-") || !strings.HasSuffix(got[0], "-0-0") {
		t.Fatalf("after commit: %v", got)
	}
	src, _ := connector.CreateSource(newCtx(map[string]string{"path": dir, "format": "csv"}, names, tys))
	rows, err := readAll(t, src, connector.ReadSpec{Limit: -1}, tys)
	if err != nil || strings.Join(rows, ";") != "+I[1, a,b]" {
		t.Fatalf("read back %v %v", rows, err)
	}
	// Rolling by size: every batch over 1 byte starts a new part.
	ctx = newCtx(map[string]string{"path": dir, "format": "csv", "sink.rolling-policy.file-size": "1b"}, names, tys)
	sink, _ = connector.CreateSink(ctx)
	w, _ := sink.Open(bg, spec, 0)
	for i := 0; i < 3; i++ {
		if err := w.Write(bg, batchOf(t, types.NewRow(int32(10+i), "x"))); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if n := len(visible(t, dir)); n != 4 {
		t.Fatalf("%d files after rolling, want 4: %v", n, visible(t, dir))
	}
	// Rolling by time, with a fake clock.
	ww := func() *writer {
		w, _ := sink.Open(bg, spec, 7)
		return w.(*writer)
	}()
	clock := time.Unix(0, 0)
	ww.now = func() time.Time { return clock }
	ww.k.s.rollSize = 1 << 30
	_ = ww.Write(bg, batchOf(t, types.NewRow(int32(20), "y")))
	clock = clock.Add(31 * time.Minute)
	_ = ww.Write(bg, batchOf(t, types.NewRow(int32(21), "y")))
	if len(ww.files) != 2 {
		t.Fatalf("rollover interval: %d parts", len(ww.files))
	}
	ww.Abort()
	// INSERT OVERWRITE replaces what was there, on commit.
	spec.Overwrite = true
	sink, _ = connector.CreateSink(newCtx(map[string]string{"path": dir, "format": "csv"}, names, tys))
	w, _ = sink.Open(bg, spec, 0)
	_ = w.Write(bg, batchOf(t, types.NewRow(int32(99), "new")))
	if n := len(visible(t, dir)); n != 5 {
		t.Fatalf("overwrite removed files before commit: %v", visible(t, dir))
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	src, _ = connector.CreateSource(newCtx(map[string]string{"path": dir, "format": "csv"}, names, tys))
	rows, _ = readAll(t, src, connector.ReadSpec{Limit: -1}, tys)
	if strings.Join(rows, ";") != "+I[99, new]" {
		t.Fatalf("after overwrite %v", rows)
	}
	// Updates are refused; a regular file as path is refused.
	w, _ = sink.Open(bg, connector.WriteSpec{Names: names, Types: tys}, 3)
	b := batchOf(t, types.NewRow(int32(1), "x"))
	b.Kinds = []types.RowKind{types.UpdateAfter}
	if err := w.Write(bg, b); err == nil {
		t.Fatal("update row accepted")
	}
	w.Abort()
	file := filepath.Join(t.TempDir(), "f.csv")
	write(t, file, "")
	if _, err := connector.CreateSink(newCtx(map[string]string{"path": file, "format": "csv"}, names, tys)); err == nil {
		t.Fatal("file path accepted by the sink")
	}
}

func TestCancelledContext(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "a.csv"), "1,one\n")
	src, _ := connector.CreateSource(newCtx(map[string]string{"path": dir, "format": "csv"}, names, tys))
	splits, _ := src.Splits(context.Background())
	r, err := src.Open(context.Background(), splits[0], connector.ReadSpec{Limit: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Next(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
}

func TestParallelWriters(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "par")
	sink, err := connector.CreateSink(newCtx(map[string]string{"path": dir, "format": "csv"}, names, tys))
	if err != nil {
		t.Fatal(err)
	}
	bg := context.Background()
	spec := connector.WriteSpec{Names: names, Types: tys, Overwrite: true}
	errs := make(chan error, 4)
	for w := 0; w < 4; w++ {
		go func(w int) {
			wr, err := sink.Open(bg, spec, w)
			if err != nil {
				errs <- err
				return
			}
			for i := 0; i < 10; i++ {
				if err := wr.Write(bg, batchOf(t, types.NewRow(int32(w*100+i), "x"))); err != nil {
					errs <- err
					return
				}
			}
			errs <- wr.Commit()
		}(w)
	}
	for w := 0; w < 4; w++ {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	src, _ := connector.CreateSource(newCtx(map[string]string{"path": dir, "format": "csv"}, names, tys))
	rows, err := readAll(t, src, connector.ReadSpec{}, tys)
	if err != nil || len(rows) != 40 || len(visible(t, dir)) != 4 {
		t.Fatalf("%d rows in %d files, %v", len(rows), len(visible(t, dir)), err)
	}
}
