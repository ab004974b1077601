package filesystem

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SetHoldRangeBytes makes n the largest range whose check its parse
// makes (holdRangeBytes) until the test ends.
func SetHoldRangeBytes(t *testing.T, n int64) {
	old := holdRangeBytes
	holdRangeBytes = n
	t.Cleanup(func() { holdRangeBytes = old })
}

// MixedHoldRangeBytes is the holdRangeBytes under which the files of
// WriteMixedSizeTable are read both ways: big.csv's two ranges of
// ~1.45 MiB by the search first, small.csv's four of ~1.05 MiB held.
const MixedHoldRangeBytes = 5 << 18 // 1.25 MiB

// WriteMixedSizeTable writes into dir a table of three CSV files of
// (id INT, s STRING), ids unique across them: big.csv (~2.9
// MiB, two ranges), small.csv (~4.2 MiB, four ranges) and tiny.csv
// (~0.5 MiB, not split). quoteBig puts quoted fields (one holding a line
// break, one an escaped quote) in big.csv's second range, quoteSmall in
// small.csv's third. It returns the number of rows.
func WriteMixedSizeTable(t *testing.T, dir string, quoteBig, quoteSmall bool) int {
	t.Helper()
	rows := 0
	for _, f := range []struct {
		name  string
		size  int
		quote bool
		at    float64 // where the quoted fields go, as a fraction of the file
	}{
		{"big.csv", 2900 << 10, quoteBig, 0.75},
		{"small.csv", 4300 << 10, quoteSmall, 0.6},
		{"tiny.csv", 500 << 10, false, 0},
	} {
		var b strings.Builder
		quoted := !f.quote
		for b.Len() < f.size {
			s := fmt.Sprintf("s%d", rows%97)
			if !quoted && float64(b.Len()) >= f.at*float64(f.size) {
				s = "\"two\nlines " + s + "\""
				quoted = true
			} else if f.quote && rows%20011 == 0 && float64(b.Len()) >= f.at*float64(f.size)-(100<<10) {
				s = "\"q\"\"d\""
			}
			fmt.Fprintf(&b, "%d,%s\n", rows, s)
			rows++
		}
		if err := os.WriteFile(filepath.Join(dir, f.name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return rows
}
