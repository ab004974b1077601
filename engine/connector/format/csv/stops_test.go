package csv

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"testing"
)

// The reader that tracks the quote and escape characters as it parses
// (the filesystem source's byte ranges check themselves so) says its
// bytes are free of them exactly when a search of the bytes finds none,
// whichever scanner took each record: quoted fields, a quote inside an
// unquoted field, escapes, comment lines, CR line ends, a last record
// without a line break, records longer and shorter than a word.
func TestStopFreeMatchesASearch(t *testing.T) {
	rng := rand.New(rand.NewSource(19))
	optSets := []map[string]string{
		{},
		{OptEscapeCharacter: `\`},
		{OptAllowComments: "true"},
		{OptAllowComments: "true", OptEscapeCharacter: `\`, OptQuoteCharacter: "'"},
		{OptDisableQuoteCharacter: "true", OptEscapeCharacter: `\`},
	}
	// pieces of a record that hold a stop byte (a quote or escape)
	dirty := []string{`"x,y"`, `a"b`, `"q"`, `a\,b`, `'s'`, `x\\y`}
	tb := strTable("a", "b", "c")
	checked := map[bool]int{}
	for _, opts := range optSets {
		o, err := ParseOptions(opts)
		if err != nil {
			t.Fatal(err)
		}
		var stops []byte
		if o.QuoteEnabled {
			stops = append(stops, o.Quote)
		}
		if o.EscapeEnabled {
			stops = append(stops, o.Escape)
		}
		for n := 0; n < 400; n++ {
			var b bytes.Buffer
			rows := 1 + rng.Intn(40)
			for r := 0; r < rows; r++ {
				if o.AllowComments && rng.Intn(15) == 0 {
					b.WriteString("# a comment")
					if rng.Intn(3) == 0 {
						b.WriteString(dirty[rng.Intn(len(dirty))])
					}
					b.WriteString("\n")
				}
				for f := 0; f < 3; f++ {
					if f > 0 {
						b.WriteByte(',')
					}
					if rng.Intn(60) == 0 {
						b.WriteString(dirty[rng.Intn(len(dirty))][:1+rng.Intn(2)])
					} else {
						b.WriteString(fmt.Sprint(rng.Intn(1 << uint(rng.Intn(40)))))
					}
				}
				switch {
				case r == rows-1 && rng.Intn(3) == 0: // no line break at the end
				case rng.Intn(10) == 0:
					b.WriteString("\r")
				case rng.Intn(10) == 0:
					b.WriteString("\r\n")
				default:
					b.WriteString("\n")
				}
			}
			data := b.Bytes()
			d, err := NewDecoder(o, tb.names, tb.types, nil)
			if err != nil {
				t.Fatal(err)
			}
			rd := d.NewBytesReaderAt(data, "f.csv", 0, 0, 1).(*Reader)
			if !rd.TrackStopBytes(stops) {
				t.Fatalf("options %v: the reader does not track %q", opts, stops)
			}
			for err == nil {
				_, err = rd.Next()
			}
			has := false
			for _, c := range stops {
				has = has || bytes.IndexByte(data, c) >= 0
			}
			if err != io.EOF || rd.SkippedRows() > 0 {
				// read in part: it must not say clean when a byte it
				// read holds a stop (not asserted further)
				continue
			}
			checked[has]++
			if rd.StopFree() == has {
				t.Fatalf("options %v: StopFree %v, a search finds a stop byte: %v, in %q", opts, rd.StopFree(), has, data)
			}
		}
	}
	if checked[true] < 50 || checked[false] < 50 {
		t.Fatalf("files read to the end: %d with a stop byte, %d without; want both often", checked[true], checked[false])
	}
	// a stop byte that is not the reader's quote or escape: not tracked
	d, err := NewDecoder(DefaultOptions(), tb.names, tb.types, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rd := d.NewBytesReaderAt(nil, "f.csv", 0, 0, 1).(*Reader); rd.TrackStopBytes([]byte{'\\'}) || rd.StopFree() {
		t.Fatal("tracking an escape byte the reader does not use")
	}
}
