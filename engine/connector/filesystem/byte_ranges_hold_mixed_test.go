package filesystem

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
)

// A table whose files' ranges are some over holdRangeBytes (checked by a
// search first) and some under it (held), with a file not split, gives
// at parallelism 2 and 4 the rows of one reader per file, with quoted
// line breaks in a big range, a small one, both or neither (-short: a
// big one, and both; 2 s a case, 17 s under -race).
func TestRangeHoldMixedSizes(t *testing.T) {
	SetHoldRangeBytes(t, MixedHoldRangeBytes)
	for _, q := range []struct{ big, small bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		if testing.Short() && !q.big {
			continue
		}
		t.Run(fmt.Sprintf("quote big %v small %v", q.big, q.small), func(t *testing.T) {
			dir := t.TempDir()
			n := WriteMixedSizeTable(t, dir, q.big, q.small)
			// which splits are held: small.csv's four, not big.csv's two
			src := csvSource(t, dir, 2, nil)
			ctx := context.Background()
			splits, err := src.Splits(ctx)
			if err != nil {
				t.Fatal(err)
			}
			held := map[string][]bool{}
			for _, sp := range splits {
				r, err := src.Open(ctx, sp, connector.ReadSpec{})
				if err != nil {
					t.Fatal(err)
				}
				name := filepath.Base(sp.(*FileSplit).Path)
				held[name] = append(held[name], r.(*fileReader).hold != nil)
				r.Close()
			}
			if want := map[string][]bool{"big.csv": {false, false}, "small.csv": {true, true, true, true}, "tiny.csv": {false}}; fmt.Sprint(held) != fmt.Sprint(want) {
				t.Fatalf("held splits %v, want %v", held, want)
			}
			want, _, err := readSplits(t, csvSource(t, dir, 1, nil), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(want) != n {
				t.Fatalf("one reader a file: %d rows, want %d", len(want), n)
			}
			for _, par := range []int{2, 4} {
				for _, order := range [][]int{nil, {6, 5, 4, 3, 2, 1, 0}} {
					got, ns, err := readSplits(t, csvSource(t, dir, par, nil), order, 0)
					if err != nil || ns != 7 || !slices.Equal(got, want) {
						t.Errorf("parallelism %d order %v: %d splits, %d rows, error %v; want 7 splits, %d rows", par, order, ns, len(got), err, len(want))
					}
				}
				got, _, err := readSplits(t, csvSource(t, dir, par, nil), nil, par)
				if err != nil || !slices.Equal(got, want) {
					t.Errorf("parallelism %d, %d readers: %d rows, error %v; want %d rows", par, par, len(got), err, len(want))
				}
			}
		})
	}
}
