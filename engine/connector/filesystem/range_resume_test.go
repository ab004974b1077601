package filesystem

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
)

// rangeResumeFile is about size bytes of lines "id,n" with ids from 0.
func rangeResumeFile(size int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "%d,n\n", i)
	}
	return b.Bytes()
}

// readRest reads r to its end: its rows as strings and its error (nil at
// io.EOF).
func readRest(t *testing.T, r connector.Reader, first int) ([]string, error) {
	t.Helper()
	var rows []string
	for n := 0; first < 0 || n < first; n++ {
		b, err := r.Next(context.Background())
		if err == io.EOF {
			return rows, nil
		}
		if err != nil {
			return rows, err
		}
		for _, row := range b.Rows(tys) {
			rows = append(rows, row.String())
		}
	}
	return rows, nil
}

// A byte range (CSV or JSON) resumed at a checkpoint's position gives the rest of its
// own rows, as its reader would have: not the rest of the file, whose
// later ranges' readers read theirs (a checkpointed batch job restored
// read every row after the position's range twice or more), none for a
// range after the first that holds a quote, and a data error names the
// file's line as the range's reader does.
func TestByteRangeResumedAtPosition(t *testing.T) {
	dir := t.TempDir()
	var err error
	data := rangeResumeFile(4<<20 + 1000)
	// a quote in range 2: its reader reads on to the end of the file, the
	// reader of range 3 gives nothing
	at := bytes.Index(data[5<<19:], []byte(",n\n")) + 5<<19
	data = slices.Concat(data[:at], []byte(`,"n"`), data[at+2:]) // id,"n"
	clean := rangeResumeFile(4<<20 + 1000)
	// a bad id late in range 1
	bad := append([]byte(nil), clean...)
	at = bytes.LastIndexByte(bad[:2<<20-100], '\n') + 1
	bad[at] = 'x'
	var js bytes.Buffer
	for i := 0; js.Len() < 4<<20+1000; i++ {
		fmt.Fprintf(&js, "{\"id\": %d, \"name\": \"n\"}\n", i)
	}
	for name, data := range map[string][]byte{"quoted": data, "clean": clean, "bad": bad, "json": js.Bytes()} {
		path := filepath.Join(dir, name+".csv")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		src := csvSource(t, path, 2, nil)
		if name == "json" {
			ctx := newCtx(map[string]string{"path": path, "format": "json"}, names, tys)
			ctx.Config.Set(config.RuntimeMode.Key, "batch")
			ctx.Config.Set(config.Parallelism.Key, "2")
			if src, err = (Factory{}).CreateSource(ctx); err != nil {
				t.Fatal(err)
			}
		}
		rs := src.(connector.ResumableSource)
		ctx := context.Background()
		splits, err := src.Splits(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if len(splits) != 4 {
			t.Fatalf("%s: %d splits, want 4 ranges", name, len(splits))
		}
		total := 0
		for k, sp := range splits {
			for _, first := range []int{0, 1, 3} {
				r, err := src.Open(ctx, sp, connector.ReadSpec{})
				if err != nil {
					t.Fatal(err)
				}
				whole, wholeErr := readRest(t, r, -1)
				r.Close()
				if first == 0 {
					total += len(whole)
				}
				r, err = src.Open(ctx, sp, connector.ReadSpec{})
				if err != nil {
					t.Fatal(err)
				}
				got, err := readRest(t, r, first)
				if err != nil {
					t.Fatal(err)
				}
				pos, err := r.(connector.PositionReader).Position()
				if err != nil {
					t.Fatal(err)
				}
				r.Close()
				r, err = rs.OpenAt(ctx, sp, connector.ReadSpec{}, pos)
				if err != nil {
					t.Fatal(err)
				}
				rest, restErr := readRest(t, r, -1)
				r.Close()
				got = append(got, rest...)
				if fmt.Sprint(restErr) != fmt.Sprint(wholeErr) {
					t.Fatalf("%s, range %d resumed after %d batches: error %v, its reader's %v", name, k, first, restErr, wholeErr)
				}
				if !slices.Equal(got, whole) {
					t.Fatalf("%s, range %d resumed after %d batches: %d rows, its reader's %d", name, k, first, len(got), len(whole))
				}
			}
		}
		if lines := bytes.Count(data, []byte("\n")); name != "bad" && total != lines {
			t.Fatalf("%s: the ranges' readers gave %d rows, want %d", name, total, lines)
		}
	}
}
