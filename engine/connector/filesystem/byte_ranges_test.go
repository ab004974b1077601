package filesystem

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	_ "github.com/riffle-sql/riffle/engine/connector/format/json"
)

// TestLineFormatsReadInByteRanges: in batch mode at parallelism 2 a CSV
// or JSON file of several MiB becomes byte ranges whose readers together
// give every line's row once; at parallelism 1, in streaming mode and for
// a changelog format (debezium-json) the file stays one split; a bad line
// inside a later range is reported with its line in the file.
func TestLineFormatsReadInByteRanges(t *testing.T) {
	const n = 100000
	for _, c := range []struct {
		format string
		line   func(i int) string
		bad    string
	}{
		{"csv", func(i int) string { return fmt.Sprintf("%d,name number %d with some padding text", i, i) }, "x,bad"},
		{"json", func(i int) string {
			return fmt.Sprintf(`{"id": %d, "name": "name number %d with some padding text"}`, i, i)
		}, `{"id": "x"}`},
	} {
		t.Run(c.format, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "data.txt")
			var sb strings.Builder
			want := make([]string, 0, n)
			for i := 1; i <= n; i++ {
				sb.WriteString(c.line(i) + "\n")
				want = append(want, fmt.Sprintf("+I[%d, name number %d with some padding text]", i, i))
			}
			if sb.Len() < 3*minRangeBytes {
				t.Fatalf("file of %d bytes: too small for ranges", sb.Len())
			}
			write(t, p, sb.String())
			open := func(format, mode, par string) connector.Source {
				ctx := newCtx(map[string]string{"path": p, "format": format}, names, tys)
				ctx.Config.Set(config.RuntimeMode.Key, mode)
				ctx.Config.Set(config.Parallelism.Key, par)
				src, err := Factory{}.CreateSource(ctx)
				if err != nil {
					t.Fatal(err)
				}
				return src
			}
			src := open(c.format, "batch", "2")
			splits, err := src.Splits(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if len(splits) < 2 {
				t.Fatalf("%d split(s) at parallelism 2 in batch mode, want byte ranges", len(splits))
			}
			got, err := readAll(t, src, connector.ReadSpec{}, tys)
			if err != nil {
				t.Fatal(err)
			}
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Fatalf("%d rows from the ranges, want %d (every line once)", len(got), len(want))
			}
			for _, one := range []connector.Source{open(c.format, "batch", "1"), open(c.format, "streaming", "2")} {
				if sp, err := one.Splits(t.Context()); err != nil || len(sp) != 1 {
					t.Errorf("%d splits (%v), want the file whole", len(sp), err)
				}
			}

			// a bad line far into the file: its error names that line
			badLine := n - 7
			lines := strings.SplitAfter(sb.String(), "\n")
			lines[badLine-1] = c.bad + "\n"
			write(t, p, strings.Join(lines, ""))
			_, err = readAll(t, open(c.format, "batch", "2"), connector.ReadSpec{}, tys)
			var de *connector.DataError
			if !errors.As(err, &de) || de.Line != int64(badLine) {
				t.Fatalf("error %v, want a DataError on line %d", err, badLine)
			}
		})
	}
	// a changelog format keeps its file whole: one key's changes in order
	p := filepath.Join(t.TempDir(), "changes.txt")
	var sb strings.Builder
	for i := 1; sb.Len() < 4*minRangeBytes; i++ {
		fmt.Fprintf(&sb, `{"before": null, "after": {"id": %d, "name": "n%d"}, "op": "c"}`+"\n", i, i)
	}
	write(t, p, sb.String())
	ctx := newCtx(map[string]string{"path": p, "format": "debezium-json"}, names, tys)
	ctx.Config.Set(config.RuntimeMode.Key, "batch")
	ctx.Config.Set(config.Parallelism.Key, "2")
	src, err := Factory{}.CreateSource(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if sp, err := src.Splits(t.Context()); err != nil || len(sp) != 1 {
		t.Errorf("debezium-json: %d splits (%v), want the file whole", len(sp), err)
	}
}
