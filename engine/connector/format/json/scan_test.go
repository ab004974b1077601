package json

import (
	"bytes"
	stdjson "encoding/json"
	"math/rand"
	"testing"
	"unicode/utf8"
)

// TestScanStringMatchesBytewise checks the eight-bytes-at-a-time string
// scan against a byte loop on strings mixing plain bytes, quotes,
// escapes, control and non-ASCII bytes at every alignment.
func TestScanStringMatchesBytewise(t *testing.T) {
	ref := func(b []byte, i int) (int, bool) {
		for j := i + 1; j < len(b); j++ {
			switch c := b[j]; {
			case c == '"':
				return j + 1, true
			case c == '\\':
				if j+1 >= len(b) {
					return 0, false
				}
				switch b[j+1] {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
					j++
				case 'u':
					if j+6 > len(b) || !isHex4(b[j+2:j+6]) {
						return 0, false
					}
					j += 5
				default:
					return 0, false
				}
			case c < 0x20:
				return 0, false
			}
		}
		return 0, false
	}
	alphabet := []byte("abcXYZ09 \"\\nu/\x01\x1f\x7f\x80\xc3\xa9\xff")
	r := rand.New(rand.NewSource(1))
	for n := 0; n < 20000; n++ {
		b := make([]byte, 1+r.Intn(40))
		b[0] = '"'
		for k := 1; k < len(b); k++ {
			if r.Intn(4) == 0 {
				b[k] = alphabet[r.Intn(len(alphabet))]
			} else {
				b[k] = 'a' + byte(r.Intn(26))
			}
		}
		want, ok := ref(b, 0)
		got, esc, err := scanString(b, 0)
		if ok != (err == nil) || (ok && got != want) {
			t.Fatalf("scanString(%q) = %d, %v; want %d, ok %v", b, got, err, want, ok)
		}
		if ok && esc != bytes.Contains(b[1:got-1], []byte{'\\'}) {
			t.Fatalf("scanString(%q): esc %v", b, esc)
		}
		if ok && esc && utf8.Valid(b[:got]) {
			// unescape (runs copied whole) agrees with encoding/json
			var ref string
			if err := stdjson.Unmarshal(b[:got], &ref); err == nil {
				u, err := unescape([]byte("pre"), b[1:got-1])
				if err != nil || string(u) != "pre"+ref {
					t.Fatalf("unescape(%q) = %q, %v; want %q", b[1:got-1], u, err, ref)
				}
			}
		}
	}
}
