package expr

import (
	"math/rand/v2"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// randPattern builds a random pattern from the constructs the direct
// matcher handles (and a few it leaves to Go's engine).
func randPattern(r *rand.Rand, depth int) string {
	atoms := []string{"a", "b", "ab", "&", "=", "é", "ba", ".", "[ab]", "[^&]", `\d`, "[é-ü]", "x"}
	quants := []string{"", "", "", "*", "+", "?", "{1,3}", "{2}", "*?", "+?", "??", "{0,2}?"}
	var b strings.Builder
	n := 1 + r.IntN(4)
	for i := 0; i < n; i++ {
		switch k := r.IntN(10); {
		case k == 0 && depth > 0:
			b.WriteString("(" + randPattern(r, depth-1) + "|" + randPattern(r, depth-1) + ")")
		case k == 1 && depth > 0:
			b.WriteString("(?:" + randPattern(r, depth-1) + ")" + []string{"", "?", "??"}[r.IntN(3)])
		case k == 2 && depth > 0:
			b.WriteString("(" + randPattern(r, depth-1) + ")?")
		case k == 3:
			b.WriteString([]string{"^", "$", `\A`, `\z`, "(&|^)"}[r.IntN(5)])
		default:
			b.WriteString(atoms[r.IntN(len(atoms))] + quants[r.IntN(len(quants))])
		}
	}
	return b.String()
}

func randInput(r *rand.Rand) string {
	parts := []string{"a", "b", "&", "=", "é", "ü", "\n", "1", "ab", "x"}
	var b strings.Builder
	for n := r.IntN(12); n > 0; n-- {
		b.WriteString(parts[r.IntN(len(parts))])
	}
	return b.String()
}

// TestSimpleMatcherAgreesWithRE2 compares the direct matcher's first
// match and groups with Go's regexp on random patterns and inputs.
func TestSimpleMatcherAgreesWithRE2(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	compared, simple := 0, 0
	for i := 0; i < 4000; i++ {
		pat := randPattern(r, 2)
		re, err := regexp.Compile(pat)
		if err != nil {
			continue
		}
		p := compileSimple(pat)
		if p == nil {
			continue
		}
		simple++
		for j := 0; j < 40; j++ {
			s := randInput(r)
			want := re.FindStringSubmatchIndex(s)
			m, ok, done := p.first(s)
			if !done {
				continue
			}
			compared++
			var got []int
			if ok {
				got = slices.Clone(m.caps)
			}
			p.release(m)
			if !slices.Equal(got, want) {
				t.Fatalf("pattern %q on %q: direct matcher %v, regexp %v", pat, s, got, want)
			}
		}
	}
	if simple < 2000 || compared < 50000 {
		t.Fatalf("too few comparisons: %d simple patterns, %d matches", simple, compared)
	}
}

func TestSimpleMatcherCases(t *testing.T) {
	const q21 = "(&|^)channel_id=([^&]*)"
	p := compileSimple(q21)
	if p == nil {
		t.Fatal("q21's pattern is not simple")
	}
	if p.lit != "channel_id=" || p.litMin != 0 || p.litMax != 1 {
		t.Fatalf("literal %q at [%d, %d], want channel_id= at [0, 1]", p.lit, p.litMin, p.litMax)
	}
	for _, tc := range []struct {
		s    string
		want []int // caps, nil: no match
	}{
		{"channel_id=7", []int{0, 12, 0, 0, 11, 12}},                   // ^ alternative at 0
		{"a&channel_id=7&b=1", []int{1, 14, 1, 2, 13, 14}},             // stops at &
		{"xchannel_id=1&channel_id=22", []int{13, 27, 13, 14, 25, 27}}, // first occurrence not after & or ^
		{"&channel_id=", []int{0, 12, 0, 1, 12, 12}},                   // empty group 2
		{"achannel_id=1", nil},                                         // neither & nor ^ before
		{"query=1", nil},                                               // no literal
		{"é&channel_id=ü", []int{2, 16, 2, 3, 14, 16}},                 // multi-byte runes
		{"https://www.nexmark.com/a/b/c/item.htm?query=1&channel_id=-5", []int{46, 60, 46, 47, 58, 60}},
	} {
		m, ok, done := p.first(tc.s)
		if !done {
			t.Fatalf("%q: matcher gave up", tc.s)
		}
		var got []int
		if ok {
			got = slices.Clone(m.caps)
		}
		p.release(m)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %v, want %v", tc.s, got, tc.want)
		}
	}
	// not simple: left to Go's engine
	for _, pat := range []string{`(?i)abc`, `\bx`, `(?m)^a`, `(ab)*`, `(a|b)+c`} {
		if compileSimple(pat) != nil {
			t.Errorf("%q should not be simple", pat)
		}
	}
	// invalid UTF-8 is left to Go's engine
	if _, _, done := p.first("&channel_id=\xff"); done {
		t.Error("invalid UTF-8 should be left to Go's engine")
	}
}

// TestSimpleMatcherGivesUp checks that a pattern which backtracks a lot
// falls back to Go's engine (with the same answers) and is disabled.
func TestSimpleMatcherGivesUp(t *testing.T) {
	re, err := compileJavaRegexUncached("a*a*a*a*[bc]")
	if err != nil || re.simple == nil {
		t.Fatal("pattern should be simple", err)
	}
	s := strings.Repeat("a", 200)
	for i := 0; i < 100; i++ {
		if got := regexpExtract(re, s, 0); got != nil {
			t.Fatalf("got %v, want no match", got)
		}
		if got := regexpExtract(re, s+"b", 0); got != s+"b" {
			t.Fatalf("got %v, want the whole string", got)
		}
	}
	if !re.simple.disabled.Load() {
		t.Error("a pattern that keeps giving up should be disabled")
	}
}

func BenchmarkRegexpExtractURL(b *testing.B) {
	re, err := compileJavaRegexUncached("(&|^)channel_id=([^&]*)")
	if err != nil {
		b.Fatal(err)
	}
	urls := []string{
		"https://www.nexmark.com/abcde/fgh_i/jklmn/item.htm?query=1&channel_id=1234567890",
		"https://www.nexmark.com/abcde/fgh_i/jklmn/item.htm?query=1",
	}
	for _, direct := range []bool{true, false} {
		name := "direct"
		if !direct {
			name = "regexp"
		}
		b.Run(name, func(b *testing.B) {
			saved := re.simple
			if !direct {
				re.simple = nil
			}
			defer func() { re.simple = saved }()
			for i := 0; i < b.N; i++ {
				if _, ok := re.group(urls[i&1], 2); ok != (i&1 == 0) {
					b.Fatal("wrong result")
				}
			}
		})
	}
}
