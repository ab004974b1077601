package csv

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// decodeBoth reads input with the word-at-a-time tokenizer and with the
// byte-wise one alone, and returns what each produced (rows, then the
// error or the skipped-row count) as text.
func decodeBoth(t *testing.T, tb table, opts map[string]string, input string) (words, bytewise string) {
	t.Helper()
	return decodeBothBatch(t, tb, opts, input, 7)
}

// decodeBothBatch is decodeBoth with batches of batch rows.
func decodeBothBatch(t *testing.T, tb table, opts map[string]string, input string, batch int) (words, bytewise string) {
	t.Helper()
	o, err := ParseOptions(opts)
	if err != nil {
		t.Fatal(err)
	}
	d, err := NewDecoder(o, tb.names, tb.types, nil)
	if err != nil {
		t.Fatal(err)
	}
	run := func(byteOnly bool) string {
		rd := d.newReader(strings.NewReader(input), "in.csv", batch)
		rd.byteScanOnly = byteOnly
		var sb strings.Builder
		for {
			b, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				fmt.Fprintf(&sb, "error: %v\n", err)
				break
			}
			for _, row := range b.Rows(tb.types) {
				fmt.Fprintf(&sb, "%v\n", row)
			}
		}
		fmt.Fprintf(&sb, "skipped %d nulled %d", rd.SkippedRows(), rd.NulledFields())
		return sb.String()
	}
	return run(false), run(true)
}

func TestWordScanMatchesByteScan(t *testing.T) {
	tb := table{names: []string{"s", "n", "t"}, types: []*types.DataType{types.StringType(), types.IntType(), types.StringType()}}
	inputs := []string{
		"abcdefgh,12345678,ijklmnop\nqrstuvwx,1,y\n" + strings.Repeat("a,2,b\n", 20),
		strings.Repeat("alpha,10,beta\n", 5) + "\"quoted, field\",3,x\n" + strings.Repeat("gamma,7,delta\n", 5),
		strings.Repeat("one,1,two\r\n", 6) + strings.Repeat("three,3,four\n", 6),
		strings.Repeat("a,1\n", 4) + strings.Repeat("a,1,b,c\n", 4) + strings.Repeat("longer value,22,z\n", 4),
		strings.Repeat("mid\"quote,5,x\n", 4) + strings.Repeat("x,notanint,y\n", 2),
		strings.Repeat("\n\nfoo,1,bar\n#comment line here\n", 4),
		strings.Repeat("héllo wörld,4,ünïcode\n", 4) + "bad\xffutf8,1,x\n" + strings.Repeat("plain,1,row\n", 4),
		strings.Repeat("a\\,b,1,c\n", 4),
	}
	for _, ignore := range []bool{false, true} {
		for _, escape := range []bool{false, true} {
			opts := map[string]string{OptAllowComments: "true"}
			if ignore {
				opts[OptIgnoreParseErrors] = "true"
			}
			if escape {
				opts[OptEscapeCharacter] = `\`
			}
			for i, in := range inputs {
				w, b := decodeBoth(t, tb, opts, in)
				if w != b {
					t.Errorf("input %d (ignore %v, escape %v): word scan\n%s\nbyte scan\n%s", i, ignore, escape, w, b)
				}
			}
		}
	}
}

// FuzzWordScan checks that the word-at-a-time tokenizer and the byte-wise
// one agree on every input (rows, errors with their positions, counts).
func FuzzWordScan(f *testing.F) {
	for _, s := range []string{"a,b,c\n", "abcdefghij,1,\"x\"\n", "x,\"q\"y\n", "a\\,b,c\r\n", "#c\n\n1,2,3\n", "\xff,1,2\n"} {
		f.Add(s, false, false)
	}
	tb := table{names: []string{"a", "b", "c"}, types: []*types.DataType{types.StringType(), types.IntType(), types.StringType()}}
	f.Fuzz(func(t *testing.T, input string, escape, ignore bool) {
		opts := map[string]string{OptAllowComments: "true"}
		if escape {
			opts[OptEscapeCharacter] = `\`
		}
		if ignore {
			opts[OptIgnoreParseErrors] = "true"
		}
		w, b := decodeBoth(t, tb, opts, strings.Repeat(input, 3))
		if w != b {
			t.Fatalf("word scan\n%s\nbyte scan\n%s", w, b)
		}
	})
}
