package filesystem

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	_ "github.com/riffle-sql/riffle/engine/connector/format/json"
	"github.com/riffle-sql/riffle/engine/types"
)

func partCtx(opts map[string]string, names []string, ts []*types.DataType, keys ...string) *connector.Context {
	o := map[string]string{"connector": "filesystem"}
	for k, v := range opts {
		o[k] = v
	}
	return &connector.Context{Table: "p", Schema: types.NewPhysicalSchema(names, ts), Options: o, Config: config.New(), PartitionKeys: keys}
}

func TestPartitionedReadWrite(t *testing.T) {
	dir := t.TempDir()
	names := []string{"id", "name", "dt", "hr"}
	ts := []*types.DataType{types.IntType(), types.StringType(), types.DateType(), types.IntType()}
	opts := map[string]string{"path": dir, "format": "csv"}
	sink, err := connector.CreateSink(partCtx(opts, names, ts, "dt", "hr"))
	if err != nil {
		t.Fatal(err)
	}
	bb := types.NewBatchBuilder(ts)
	d1, d2 := types.DateOf(2024, 1, 31), types.DateOf(2024, 2, 1)
	for _, r := range [][]any{{int32(1), "a", d1, int32(10)}, {int32(2), "b", d2, int32(11)}, {int32(3), "c", d1, int32(10)}, {int32(4), "d", nil, nil}} {
		_ = bb.Append(types.Insert, r)
	}
	bg := context.Background()
	w, err := sink.Open(bg, connector.WriteSpec{Names: names, Types: ts}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(bg, bb.Build()); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	var files []string
	_ = filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.Dir(rel))
		}
		return nil
	})
	sort.Strings(files)
	want := "dt=2024-01-31/hr=10;dt=2024-02-01/hr=11;dt=__DEFAULT_PARTITION__/hr=__DEFAULT_PARTITION__"
	if strings.Join(files, ";") != want {
		t.Fatalf("partition directories %v", files)
	}
	// The files hold only the stored columns.
	content, _ := os.ReadFile(mustGlob(t, filepath.Join(dir, "dt=2024-01-31", "hr=10", "part-*")))
	if string(content) != "1,a\n3,c\n" {
		t.Fatalf("file content %q", content)
	}
	// Reading takes the partition values from the directories; a file at
	// the wrong depth is ignored.
	write(t, filepath.Join(dir, "stray.csv"), "9,x\n")
	src, err := connector.CreateSource(partCtx(opts, names, ts, "dt", "hr"))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := readAll(t, src, connector.ReadSpec{Columns: []int{3, 0, 2}, Limit: -1}, []*types.DataType{ts[3], ts[0], ts[2]})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(rows)
	if strings.Join(rows, ";") != "+I[10, 1, 2024-01-31];+I[10, 3, 2024-01-31];+I[11, 2, 2024-02-01];+I[null, 4, null]" {
		t.Fatalf("rows %v", rows)
	}
	// INSERT OVERWRITE of a static partition replaces that partition only.
	spec := connector.WriteSpec{Names: names, Types: ts, Overwrite: true, StaticPartitions: map[string]string{"dt": "2024-01-31", "hr": "10"}}
	sink, _ = connector.CreateSink(partCtx(opts, names, ts, "dt", "hr"))
	w, _ = sink.Open(bg, spec, 0)
	bb = types.NewBatchBuilder(ts)
	_ = bb.Append(types.Insert, []any{int32(7), "z", d1, int32(10)})
	_ = w.Write(bg, bb.Build())
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	rows, _ = readAll(t, src, connector.ReadSpec{Columns: []int{0, 1}, Limit: -1}, ts[:2])
	sort.Strings(rows)
	if strings.Join(rows, ";") != "+I[2, b];+I[4, d];+I[7, z]" {
		t.Fatalf("after overwrite %v", rows)
	}
	if _, err := connector.CreateSink(partCtx(opts, names, ts, "nope")); err == nil {
		t.Fatal("unknown partition key accepted")
	}
	if _, err := connector.CreateSink(partCtx(opts, names[2:], ts[2:], "dt", "hr")); err == nil {
		t.Fatal("all-partition table accepted")
	}
	if escapePathName("a/b:c=d%") != "a%2Fb%3Ac%3Dd%25" || unescapePathName("a%2Fb%3Ac%3Dd%25") != "a/b:c=d%" {
		t.Fatal("path escaping")
	}
}

func mustGlob(t *testing.T, pattern string) string {
	t.Helper()
	m, err := filepath.Glob(pattern)
	if err != nil || len(m) != 1 {
		t.Fatalf("glob %s: %v %v", pattern, m, err)
	}
	return m[0]
}

func TestJSONRoundTripThroughFiles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "events")
	names := []string{"id", "ts", "tags", "geo"}
	ts := []*types.DataType{types.BigIntType(), types.TimestampType(3), types.ArrayType(types.StringType()),
		types.RowType(types.NewField("lat", types.DoubleType()), types.NewField("lon", types.DoubleType()))}
	opts := map[string]string{"path": dir, "format": "json", "json.timestamp-format.standard": "ISO-8601"}
	sink, err := connector.CreateSink(newCtx(opts, names, ts))
	if err != nil {
		t.Fatal(err)
	}
	bg := context.Background()
	w, _ := sink.Open(bg, connector.WriteSpec{Names: names, Types: ts}, 0)
	bb := types.NewBatchBuilder(ts)
	when := time.Date(2024, 1, 31, 12, 0, 0, 5_000_000, time.UTC)
	_ = bb.Append(types.Insert, []any{int64(1), when, []any{"a", "b"}, types.NewRow(1.5, -2.25)})
	_ = bb.Append(types.Insert, []any{int64(2), nil, []any{}, nil})
	_ = w.Write(bg, bb.Build())
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	content, _ := os.ReadFile(mustGlob(t, filepath.Join(dir, "part-*")))
	if !strings.HasPrefix(string(content), `{"id":1,"ts":"2024-01-31T12:00:00.005","tags":["a","b"],"geo":{"lat":1.5,"lon":-2.25}}`) {
		t.Fatalf("json %s", content)
	}
	src, _ := connector.CreateSource(newCtx(opts, names, ts))
	rows, err := readAll(t, src, connector.ReadSpec{Limit: -1}, ts)
	if err != nil || strings.Join(rows, ";") != "+I[1, 2024-01-31T12:00:00.005, [a, b], +I[1.5, -2.25]];+I[2, null, [], null]" {
		t.Fatalf("rows %v %v", rows, err)
	}
}
