package csv

import (
	"fmt"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

var colwiseTable = table{names: []string{"s", "i", "l", "ts", "d"}, types: []*types.DataType{types.StringType(),
	types.IntType(), types.BigIntType(), types.TimestampType(0), types.DoubleType()}}

// colwiseRow is a plain record of colwiseTable for row k.
func colwiseRow(k int) string {
	return fmt.Sprintf("name%d,%d,%d,2001-01-0%d 0%d:1%d:00,%d.5\n", k, k-50, k*1000, 1+k%3, k%10, k%6, k)
}

// colwiseInput is rows plain records with the fields of bad (row → column
// index → text) replaced.
func colwiseInput(rows int, bad map[int]map[int]string) string {
	var sb strings.Builder
	for k := range rows {
		f := strings.Split(strings.TrimSuffix(colwiseRow(k), "\n"), ",")
		for c, v := range bad[k] {
			f[c] = v
		}
		sb.WriteString(strings.Join(f, ",") + "\n")
	}
	return sb.String()
}

// Column-at-a-time parsing (plain records) and the record-at-a-time
// parsing of the byte-wise tokenizer give the same rows, NULLs, counts and
// errors; of several bad fields the error names the first in row order,
// then column order.
func TestColumnwiseParsingMatchesRowwise(t *testing.T) {
	cases := []struct {
		name    string
		bad     map[int]map[int]string
		wantErr string // with errors not ignored
	}{
		{"no errors", nil, ""},
		{"empty fields are NULL", map[int]map[int]string{3: {1: "", 2: "", 3: "", 4: ""}, 40: {0: "", 4: ""}}, ""},
		{"a later column fails in an earlier row", map[int]map[int]string{30: {4: "x"}, 31: {1: "y"}},
			"in.csv:31:5: column `d`: cannot parse \"x\""},
		{"two columns of one row fail", map[int]map[int]string{20: {3: "2001-13-01 00:00:00", 2: "z"}, 25: {1: "q"}},
			"in.csv:21:3: column `l`: cannot parse \"z\""},
		{"an earlier column fails in a later row", map[int]map[int]string{50: {1: "q"}, 12: {2: "99999999999999999999"}},
			"in.csv:13:3: column `l`"},
		{"a bad record after a bad field", map[int]map[int]string{10: {2: "bad"}, 11: {4: "1,2"}},
			"in.csv:11:3: column `l`"},
		{"a bad field after a bad record", map[int]map[int]string{11: {2: "bad"}, 10: {4: "1,2"}},
			"in.csv:11:6: row has 6 fields, expected 5"},
		{"bad fields past the first pendMax rows", map[int]map[int]string{pendMax + 9: {4: "x"}, pendMax + 10: {1: "y"}},
			fmt.Sprintf("in.csv:%d:5: column `d`: cannot parse \"x\"", pendMax+10)},
		{"invalid UTF-8 after a bad field", map[int]map[int]string{10: {3: "bad"}, 11: {0: "\xff"}},
			"in.csv:11:4: column `ts`"},
	}
	for _, c := range cases {
		in := colwiseInput(3*pendMax, c.bad)
		for _, ignore := range []bool{false, true} {
			for _, batch := range []int{7, 64, DefaultBatchRows} {
				opts := map[string]string{}
				if ignore {
					opts[OptIgnoreParseErrors] = "true"
				}
				w, b := decodeBothBatch(t, colwiseTable, opts, in, batch)
				if w != b {
					t.Fatalf("%s (ignore %v, batch %d): column-wise\n%s\nrow-wise\n%s", c.name, ignore, batch, w, b)
				}
				if ignore || c.wantErr == "" {
					if strings.Contains(w, "error:") {
						t.Fatalf("%s (ignore %v, batch %d): %s", c.name, ignore, batch, w[strings.Index(w, "error:"):])
					}
					continue
				}
				if !strings.Contains(w, "error: "+c.wantErr) {
					t.Fatalf("%s (batch %d): want error %q, got\n%s", c.name, batch, c.wantErr, w)
				}
			}
		}
	}
}

// Integers parsed column-wise and row-wise agree at the edges of every
// width and on texts with spaces, signs and leading zeros.
func TestColumnwiseIntegersMatchRowwise(t *testing.T) {
	tb := table{names: []string{"t", "s", "i", "l"}, types: []*types.DataType{types.TinyIntType(), types.SmallIntType(),
		types.IntType(), types.BigIntType()}}
	texts := []string{"0", "-0", "007", "-007", "127", "128", "-128", "-129", "32767", "32768", "-32768", "-32769",
		"2147483647", "2147483648", "-2147483648", "-2147483649", "999999999999999999", "-999999999999999999",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"00000000000000000000001", "+5", " 7", "8 ", "-", "--1", "1-", "1x", "", "x"}
	for _, ignore := range []bool{false, true} {
		for _, v := range texts {
			var sb strings.Builder
			for k := range 40 {
				if k == 20 {
					fmt.Fprintf(&sb, "%s,%s,%s,%s\n", v, v, v, v)
					continue
				}
				fmt.Fprintf(&sb, "%d,%d,%d,%d\n", k-20, k*100, k*100000, k*10000000000)
			}
			opts := map[string]string{}
			if ignore {
				opts[OptIgnoreParseErrors] = "true"
			}
			w, b := decodeBothBatch(t, tb, opts, sb.String(), 64)
			if w != b {
				t.Fatalf("%q (ignore %v): column-wise\n%s\nrow-wise\n%s", v, ignore, w, b)
			}
		}
	}
}
