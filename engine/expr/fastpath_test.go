package expr

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"
)

func TestRequiredLiteral(t *testing.T) {
	for pattern, want := range map[string]string{
		"(&|^)channel_id=([^&]*)": "channel_id=",
		"abc":                     "abc",
		"a(bcd)e*":                "bcd",
		"(?i)channel":             "",
		"foo|barbaz":              "",
		"x?yz":                    "yz",
	} {
		if got := requiredLiteral(pattern); got != want {
			t.Errorf("requiredLiteral(%q) = %q, want %q", pattern, got, want)
		}
	}
	re, err := compileJavaRegexUncached("(&|^)channel_id=([^&]*)")
	if err != nil {
		t.Fatal(err)
	}
	if got := regexpExtract(re, "https://x/item.htm?query=1&channel_id=42", 2); got != "42" {
		t.Errorf("extract = %v", got)
	}
	if got := regexpExtract(re, "https://x/item.htm?query=1", 2); got != nil {
		t.Errorf("extract without the literal = %v", got)
	}
}

func TestNthPiece(t *testing.T) {
	url := "https://www.nexmark.com/abc/de_f/g/item.htm?query=1"
	for k, want := range []string{"https:", "", "www.nexmark.com", "abc", "de_f", "g", "item.htm?query=1"} {
		got, ok := nthPiece(url, "/", int64(k))
		if !ok || got != want {
			t.Errorf("piece %d = %q, %v; want %q", k, got, ok, want)
		}
		if parts := javaSplit(url, "/"); parts[k] != got {
			t.Errorf("piece %d differs from javaSplit: %q", k, parts[k])
		}
	}
	if _, ok := nthPiece(url, "/", 7); ok {
		t.Error("piece 7 exists")
	}
	if got, ok := nthPiece("a::b", "::", 1); !ok || got != "b" {
		t.Errorf("multi-char separator: %q", got)
	}
	// the one-byte loop against strings.Split, edges included
	for _, s := range []string{"", "/", "//", "a", "a/", "/a", "a//b/", "ab/cd/ef"} {
		parts := strings.Split(s, "/")
		for k := int64(0); k < 6; k++ {
			got, ok := nthPiece(s, "/", k)
			want, wantOK := "", false
			if k < int64(len(parts)) {
				want, wantOK = parts[k], true
			}
			if ok != wantOK || got != want {
				t.Errorf("nthPiece(%q, /, %d) = %q, %v; want %q, %v", s, k, got, ok, want, wantOK)
			}
		}
	}
}

func TestMulSmall(t *testing.T) {
	for _, c := range [][3]int64{{908, 1234567, 908 * 1234567}, {-908, 5, -4540}, {-3, -7, 21}, {0, -5, 0}} {
		got, ok := mulSmall("*", decimal128.FromI64(c[0]), decimal128.FromI64(c[1]), true)
		if !ok || got != decimal128.FromI64(c[2]) {
			t.Errorf("%d * %d = %v, %v", c[0], c[1], got, ok)
		}
	}
	if _, ok := mulSmall("*", decimal128.FromI64(1<<40), decimal128.FromI64(1<<40), true); ok {
		t.Error("overflowing product taken")
	}
	if _, ok := mulSmall("*", decimal128.FromI64(2), decimal128.FromI64(3), false); ok {
		t.Error("rescaled product taken")
	}
}
