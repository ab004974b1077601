package sql

import "testing"

// Forms of Calcite's grammar that Flink's parser accepts.
func TestPolishParserForms(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"SELECT CASE x WHEN 1, 2 THEN 'a' WHEN 3 THEN 'b' END", "SELECT CASE `x` WHEN 1, 2 THEN 'a' WHEN 3 THEN 'b' END"},
		{"SELECT TRIM(BOTH ' x ')", "SELECT TRIM(BOTH ' ' FROM ' x ')"},
		{"SELECT TRIM(LEADING 'x')", "SELECT TRIM(LEADING ' ' FROM 'x')"},
		{"SELECT INTERVAL 1 DAY", "SELECT 1 * INTERVAL '1' DAY"},
		{"SELECT INTERVAL -2 HOUR", "SELECT -2 * INTERVAL '1' HOUR"},
		{"SELECT INTERVAL (a + 1) MINUTE", "SELECT (`a` + 1) * INTERVAL '1' MINUTE"},
		{"SELECT INTERVAL a SECOND", "SELECT `a` * INTERVAL '1' SECOND"},
		{"SELECT INTERVAL 1.5 SECOND", "SELECT 1.5 * INTERVAL '1' SECOND"},
	} {
		st, err := Parse(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if got := Format(st); got != c.want {
			t.Errorf("%s: got %s, want %s", c.in, got, c.want)
		}
	}
	for _, bad := range []string{
		"SELECT CASE WHEN a, b THEN 1 END", // a searched CASE takes one condition
		"SELECT TRIM(BOTH)",
		"SELECT INTERVAL 1 DAY TO HOUR",
		"SELECT INTERVAL DAY",
	} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("%s: parsed", bad)
		}
	}
	st, err := Parse("CREATE TABLE t (a STRING) WITH ('csv.field-delimiter' = U&'\\0009', 'x' = U&'a\\\\b\\+01F600')")
	if err != nil {
		t.Fatal(err)
	}
	props := st.(*CreateTable).Options
	if props[0].Value != "\t" || props[1].Value != "a\\b\U0001F600" {
		t.Errorf("unicode option values: %q, %q", props[0].Value, props[1].Value)
	}
}
