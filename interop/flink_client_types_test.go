//go:build interop

package interop

import (
	"context"
	"testing"
	"time"
)

// TestFlinkClientTypes decodes every logical type that Flink's JSON row
// format carries: each value read back through Riffle's client is shown as
// Flink's SQL Client shows it.
func TestFlinkClientTypes(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	props := fcBatchProps()
	props["table.local-time-zone"] = "UTC"
	e := fcConnectFlink(t, f, props)
	cases := []struct{ expr, want string }{
		{"TIMESTAMP '2024-01-02 03:04:05.123456789'", "2024-01-02 03:04:05.123456789"},
		{"CAST(TIMESTAMP '2024-01-02 03:04:05' AS TIMESTAMP(0))", "2024-01-02 03:04:05"},
		{"TIMESTAMP '2024-01-02 03:04:05.120'", "2024-01-02 03:04:05.120"},
		{"CAST(TIMESTAMP '2024-01-02 03:04:05.123' AS TIMESTAMP_LTZ(3))", "2024-01-02 03:04:05.123"},
		{"TO_TIMESTAMP_LTZ(1704164645123, 3)", "2024-01-02 03:04:05.123"},
		{"CAST(1.5 AS DECIMAL(10, 2))", "1.50"},
		{"CAST(-0.001 AS DECIMAL(5, 3))", "-0.001"},
		{"CAST('12345678901234567890.12' AS DECIMAL(38, 2))", "12345678901234567890.12"},
		{"ARRAY[1, 2]", "[1, 2]"},
		{"ARRAY['a', CAST(NULL AS STRING)]", "[a, NULL]"},
		{"MAP['k', 1]", "{k=1}"},
		{"ROW(1, 'x')", "(1, x)"},
		{"ROW(ARRAY[ROW(1, 'y')], MAP['a', 2.5])", "([(1, y)], {a=2.5})"},
		{"x'0102ff'", "x'0102ff'"},
		{"CAST('abc' AS BYTES)", "x'616263'"},
		{"INTERVAL '1' DAY", "+1 00:00:00.000"},
		{"INTERVAL '1 02:03:04.5' DAY TO SECOND", "+1 02:03:04.500"},
		{"INTERVAL '2-3' YEAR TO MONTH", "+2-03"},
		{"DATE '2024-01-02'", "2024-01-02"},
		{"TIME '12:34:56'", "12:34:56"},
		{"TIME '12:34:56.789'", "12:34:56.789"},
		{"CAST(1.5 AS FLOAT)", "1.5"},
		{"1e300", "1.0E300"},
		{"CAST('NaN' AS DOUBLE)", "NaN"},
		{"CAST(NULL AS INT)", "<NULL>"},
		{"CAST(1 AS TINYINT)", "1"},
		{"CAST(-2 AS SMALLINT)", "-2"},
		{"CAST(12345678901 AS BIGINT)", "12345678901"},
		{"'a\"b\\c ü 😀'", "a\"b\\c ü 😀"},
		{"TRUE", "TRUE"},
		{"CAST('x' AS CHAR(3))", "x  "},
	}
	for _, c := range cases {
		got := fcRowsOf(t, ctx, e, "SELECT "+c.expr+" AS v")
		if len(got) != 1 || got[0] != "+I["+c.want+"]" {
			t.Errorf("SELECT %s = %v, want [+I[%s]]", c.expr, got, c.want)
		}
	}
}

// TestFlinkClientPlainTextFallback: Flink's JSON row format cannot write a
// MAP whose key is not a string ("Could not map response to JSON"); the
// client fetches such results in PLAIN_TEXT, every column a STRING as
// Flink's SQL Client shows it, in batch and in streaming mode.
func TestFlinkClientPlainTextFallback(t *testing.T) {
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	for _, props := range []map[string]string{fcBatchProps(), fcStreamingProps()} {
		e := fcConnectFlink(t, f, props)
		res := fcExec(t, ctx, e, "SELECT x, MAP[x, ARRAY['a', 'b']] AS m, CAST(x AS DECIMAL(5, 2)) AS d, CAST(NULL AS INT) AS n FROM (VALUES (1), (2)) AS t(x)")
		for i, dt := range res.Schema().GetFieldDataTypes() {
			if !dt.IsString() {
				t.Errorf("column %d is %v, want STRING", i, dt)
			}
		}
		got := fcFormatRows(t, res)
		fcSortStrings(got)
		fcMustEqual(t, props["execution.runtime-mode"], got, []string{"+I[1, {1=[a, b]}, 1.00, <NULL>]", "+I[2, {2=[a, b]}, 2.00, <NULL>]"})
	}
}
