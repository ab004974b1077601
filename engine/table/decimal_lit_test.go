package table

import (
	"strings"
	"testing"

	"github.com/riffle-sql/riffle/engine/types"
)

// A DECIMAL literal of the Table API is typed by its own digits (0.5 is
// DECIMAL(1, 1), as a BigDecimal literal in Flink), not by SQL's literal
// rules, and keeps working where its unscaled value passes a BIGINT (which
// a SQL literal may not).
func TestDecimalLitTypes(t *testing.T) {
	env := exampleEnv()
	tbl := oneRow(env).Select(
		Lit(types.MustDecimal("0.5")).As("a"),
		Lit(types.MustDecimal("-12.25")).As("b"),
		Lit(types.MustDecimal("123456789012345678901.5")).As("c"),
		Lit(types.MustDecimal("42")).As("d"))
	schema := tbl.Schema().String()
	for _, want := range []string{"a: DECIMAL(1, 1) NOT NULL", "b: DECIMAL(4, 2) NOT NULL", "c: DECIMAL(22, 1) NOT NULL", "d: DECIMAL(2, 0) NOT NULL"} {
		if !strings.Contains(schema, want) {
			t.Errorf("schema %s lacks %q", schema, want)
		}
	}
	if got := collectRows(t, tbl); !strings.Contains(got, "0.5, -12.25, 123456789012345678901.5, 42") {
		t.Fatalf("rows = %s", got)
	}
}
