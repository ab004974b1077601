package csv

import (
	stdcsv "encoding/csv"
	"errors"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// TestDifferentialWithEncodingCSV compares fields and line numbers with
// the standard library's reader on random RFC 4180 input (without lone
// CRs, which encoding/csv does not treat as line breaks).
func TestDifferentialWithEncodingCSV(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", " ", ",", "\"", "\n", "\r\n", "é", "🦩", "#", ";", "x"}
	for iter := 0; iter < 300; iter++ {
		ncols := 1 + rnd.IntN(4)
		var sb strings.Builder
		nrows := 1 + rnd.IntN(20)
		for r := 0; r < nrows; r++ {
			for c := 0; c < ncols; c++ {
				if c > 0 {
					sb.WriteByte(',')
				}
				var v strings.Builder
				for k := rnd.IntN(6); k > 0; k-- {
					v.WriteString(alphabet[rnd.IntN(len(alphabet))])
				}
				s := v.String()
				if rnd.IntN(2) == 0 || strings.ContainsAny(s, ",\"\n\r") || s == "" {
					sb.WriteString(`"` + strings.ReplaceAll(s, `"`, `""`) + `"`)
				} else {
					sb.WriteString(s)
				}
			}
			if rnd.IntN(3) == 0 {
				sb.WriteString("\r\n")
			} else {
				sb.WriteString("\n")
			}
		}
		input := sb.String()
		std := stdcsv.NewReader(strings.NewReader(input))
		std.FieldsPerRecord = -1
		var want [][]string
		var wantLines []int
		for {
			rec, err := std.Read()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("encoding/csv: %v\n%q", err, input)
			}
			line, _ := std.FieldPos(0)
			want = append(want, rec)
			wantLines = append(wantLines, line)
		}
		tb := table{}
		for c := 0; c < ncols; c++ {
			tb.names = append(tb.names, "c")
			tb.types = append(tb.types, types.StringType())
		}
		res := decodeString(t, tb, nil, input)
		if res.err != nil {
			t.Fatalf("decode: %v\n%q", res.err, input)
		}
		if len(res.rows) != len(want) {
			t.Fatalf("%d rows, encoding/csv %d\n%q", len(res.rows), len(want), input)
		}
		for i, rec := range want {
			for c, f := range rec {
				// encoding/csv turns \r\n inside quoted fields into \n.
				if got := strings.ReplaceAll(res.rows[i].Values[c].(string), "\r\n", "\n"); got != f {
					t.Fatalf("row %d col %d: %q, encoding/csv %q\n%q", i, c, got, f, input)
				}
			}
		}
		// Line numbers: make the last field of every record an INT column
		// that fails, and compare the reported line of the first record.
		if ncols > 0 {
			tb.types[0] = types.IntType()
			res := decodeString(t, tb, nil, input)
			var de *connector.DataError
			if len(want[0][0]) > 0 && errors.As(res.err, &de) && de.Line != int64(wantLines[0]) {
				t.Fatalf("line %d, encoding/csv %d\n%q", de.Line, wantLines[0], input)
			}
		}
	}
}

// FuzzDecode checks that no input makes the decoder panic or return rows
// with inconsistent column lengths.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{"a,b\n", "\"a\nb\",c\r\n", "\"unterminated", "x,\"q\"y\n", "\xEF\xBB\xBFa,b", "\xFE\xFF", "#c\n\n\r\r\n1,2", "a\\,b,c"} {
		f.Add(s, uint8(2), false, false)
	}
	f.Fuzz(func(t *testing.T, input string, ncols uint8, escape, ignore bool) {
		n := int(ncols%5) + 1
		tb := table{}
		for i := 0; i < n; i++ {
			tb.names = append(tb.names, "c")
			tb.types = append(tb.types, []*types.DataType{types.StringType(), types.IntType(), types.ArrayType(types.IntType()), types.TimestampType(3), types.DecimalType(5, 2)}[i])
		}
		opts := map[string]string{OptAllowComments: "true"}
		if escape {
			opts[OptEscapeCharacter] = `\`
		}
		if ignore {
			opts[OptIgnoreParseErrors] = "true"
		}
		_ = decodeReader(t, tb, opts, strings.NewReader(input), "fuzz.csv", 3)
	})
}
