package completion_test

import (
	. "github.com/riffle-sql/riffle/engine/completion"
	"strings"
	"testing"
)

// BenchmarkCompleteLargeScript completes at the end of a 5,000-statement
// script (StatementAt splits the whole script on every call).
func BenchmarkCompleteLargeScript(b *testing.B) {
	cat := testEnv(&testing.T{})
	script := strings.Repeat("SELECT origin, COUNT(*) FROM flights WHERE delay > 60 GROUP BY origin;\n", 5000) + "SELECT de"
	for b.Loop() {
		r := Complete(script, len(script), cat)
		if len(r.Items) == 0 {
			b.Fatal("no items")
		}
	}
}
