package table

import (
	"fmt"
	"strings"
	"testing"
)

// MOD of a wider first operand (BIGINT % INT) has the second operand's
// type, as in Flink, but its remainder is computed on the whole first
// operand: 5000000000 % 3 is 2 (casting 5000000000 to INT first would
// give 1).
func TestModOfWiderFirstOperand(t *testing.T) {
	env := MustCreate(InBatchMode())
	q := `SELECT v % 3, MOD(v, 3), -v % 3, v % CAST(7 AS BIGINT), s % t, n % 3
		FROM (VALUES (CAST(5000000000 AS BIGINT), CAST(300 AS SMALLINT), CAST(7 AS TINYINT), CAST(NULL AS BIGINT)))
		AS x(v, s, t, n)`
	tab, err := env.SQLQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	var types []string
	for _, dt := range tab.GetSchema().FieldDataTypes() {
		types = append(types, dt.String())
	}
	if got := strings.Join(types, ", "); got != "INT NOT NULL, INT NOT NULL, INT NOT NULL, BIGINT NOT NULL, TINYINT NOT NULL, INT" {
		t.Fatalf("types %s", got)
	}
	rows := collectRowsOf(t, env, q)
	if len(rows) != 1 {
		t.Fatalf("%d rows", len(rows))
	}
	if got := fmt.Sprint(rows[0].Values); got != "[2 2 -2 2 6 <nil>]" {
		t.Fatalf("got %s, want [2 2 -2 2 6 <nil>]", got)
	}
	plan, err := env.ExplainSQL("SELECT v % 3 FROM (VALUES (CAST(5000000000 AS BIGINT))) AS x(v)")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(plan, "MOD(EXPR$0, 3)") || strings.Contains(plan, "CAST(") {
		t.Fatalf("the plan casts MOD's operand:\n%s", plan)
	}
}
