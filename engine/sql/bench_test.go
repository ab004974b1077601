package sql

import (
	"strings"
	"testing"
)

// benchScript builds a script of about 5,000 lines from the corpus.
func benchScript(b *testing.B) string {
	var sb strings.Builder
	lines := 0
	spans := corpus(b)
	for lines < 5000 {
		for _, sp := range spans {
			pretty, err := FormatSQL(sp.Text)
			if err != nil {
				b.Fatal(err)
			}
			sb.WriteString(pretty)
			lines += strings.Count(pretty, "\n")
		}
	}
	return sb.String()
}

func BenchmarkParseScript5000Lines(b *testing.B) {
	script := benchScript(b)
	b.SetBytes(int64(len(script)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := ParseScript(script); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSplitStatements5000Lines(b *testing.B) {
	script := benchScript(b)
	b.SetBytes(int64(len(script)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		SplitStatements(script)
	}
}

func BenchmarkTokenize5000Lines(b *testing.B) {
	script := benchScript(b)
	b.SetBytes(int64(len(script)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Tokenize(script)
	}
}

func BenchmarkFormatCanonical(b *testing.B) {
	st, err := Parse(corpus(b)[0].Text)
	if err != nil {
		b.Fatal(err)
	}
	for i := 0; i < b.N; i++ {
		_ = st.String()
	}
}
