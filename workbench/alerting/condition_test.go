package alerting

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

func TestParseConditionForms(t *testing.T) {
	cases := []struct {
		text string
		want Condition
		back string // String(), "" = text
	}{
		{"any row", Condition{Kind: AnyRow}, ""},
		{"  ANY ROW ", Condition{Kind: AnyRow}, "any row"},
		{"delay > 180", Condition{Kind: Compare, Column: "delay", Op: ">", Value: "180"}, ""},
		{"delay>=180.5", Condition{Kind: Compare, Column: "delay", Op: ">=", Value: "180.5"}, "delay >= 180.5"},
		{"origin = 'ORD'", Condition{Kind: Compare, Column: "origin", Op: "=", Value: "'ORD'"}, ""},
		{"origin != 'O''Hare'", Condition{Kind: Compare, Column: "origin", Op: "<>", Value: "'O''Hare'"}, "origin <> 'O''Hare'"},
		{"`date` <= '2001-01-01 12:00:00'", Condition{Kind: Compare, Column: "date", Op: "<=", Value: "'2001-01-01 12:00:00'"}, "date <= '2001-01-01 12:00:00'"},
		{"`avg delay` < -3", Condition{Kind: Compare, Column: "avg delay", Op: "<", Value: "-3"}, ""},
		{"ok = TRUE", Condition{Kind: Compare, Column: "ok", Op: "=", Value: "TRUE"}, ""},
		{"no row for 30 s", Condition{Kind: NoRow, Seconds: 30}, ""},
		{"No row for 2 min", Condition{Kind: NoRow, Seconds: 120}, "no row for 120 s"},
		{"no row for 1.5s", Condition{Kind: NoRow, Seconds: 1.5}, "no row for 1.5 s"},
		{"watermark lag > 10 s", Condition{Kind: WatermarkLag, Seconds: 10}, ""},
		{"watermark lag >5", Condition{Kind: WatermarkLag, Seconds: 5}, "watermark lag > 5 s"},
	}
	for _, c := range cases {
		got, err := ParseCondition(c.text)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		if got != c.want {
			t.Errorf("%q: got %+v, want %+v", c.text, got, c.want)
		}
		back := c.back
		if back == "" {
			back = c.text
		}
		if got.String() != back {
			t.Errorf("%q: String() = %q, want %q", c.text, got.String(), back)
		}
		if again, err := ParseCondition(got.String()); err != nil || again != got {
			t.Errorf("%q: String() does not read back: %+v, %v", c.text, again, err)
		}
	}
}

func TestParseConditionErrorsSayWhere(t *testing.T) {
	cases := []struct {
		text string
		col  int
		msg  string
	}{
		{"", 0, "empty"},
		{"delay", 6, "expected an operator"},
		{"delay ~ 3", 7, "expected an operator"},
		{"delay >", 8, "expected a value"},
		{"delay > abc", 9, "neither a number"},
		{"origin = 'ORD", 10, "unterminated string"},
		{"no row for x", 12, "expected a number of seconds"},
		{"no row for -3 s", 12, "above 0"},
		{"no row for 3 days", 12, "unknown unit"},
		{"watermark lag >= 3", 15, "watermark lag > <N> s"},
		{"watermark lag > 0", 17, "above 0"},
		{"> 3", 1, "expected a column name"},
	}
	for _, c := range cases {
		_, err := ParseCondition(c.text)
		var ce *ConditionError
		if !errors.As(err, &ce) {
			t.Errorf("%q: %v, want a *ConditionError", c.text, err)
			continue
		}
		if ce.Column != c.col || !strings.Contains(ce.Msg, c.msg) {
			t.Errorf("%q: column %d %q, want column %d and %q", c.text, ce.Column, ce.Msg, c.col, c.msg)
		}
	}
}

func TestConditionCheckAgainstColumns(t *testing.T) {
	names := []string{"ts", "origin", "delay", "avg_delay", "cancelled", "day"}
	ts := []*types.DataType{types.TimestampType(0), types.StringType(), types.IntType(), types.DoubleType(), types.BooleanType(), types.DateType()}
	ok := []string{"delay > 3", "DELAY > 3", "avg_delay <= 2.5", "origin = 'ORD'", "ts >= '2001-01-01 00:10:00'",
		"cancelled = TRUE", "day = '2001-01-02'", "any row", "no row for 5 s", "delay > '7'"}
	for _, text := range ok {
		c, err := ParseCondition(text)
		if err != nil {
			t.Fatal(text, err)
		}
		if err := c.Check(names, ts); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
	bad := map[string]string{
		"arrival > 3":     "no column arrival; its columns are ts, origin, delay",
		"delay > 'x'":     "column delay is INT: 'x' is not a number",
		"ts > 5":          "write a timestamp in single quotes",
		"ts > '1st June'": "is not a timestamp",
		"cancelled = 3":   "is not TRUE or FALSE",
	}
	for text, want := range bad {
		c, err := ParseCondition(text)
		if err != nil {
			t.Fatal(text, err)
		}
		if err := c.Check(names, ts); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

func TestCompareValueOnEachType(t *testing.T) {
	ts := time.Date(2001, 1, 1, 12, 30, 0, 0, time.UTC)
	cases := []struct {
		v         any
		op, value string
		want      bool
	}{
		{int32(181), ">", "180", true},
		{int32(180), ">", "180", false},
		{int32(180), ">=", "180", true},
		{int64(-4), "<", "-3", true},
		{int8(7), "=", "7", true},
		{int16(7), "<>", "7", false},
		{float64(2.5), "<=", "2.5", true},
		{float32(0.5), ">", "0.25", true},
		{types.MustDecimal("12.50"), "=", "12.5", true},
		{types.MustDecimal("12.51"), ">", "12.5", true},
		{"ORD", "=", "'ORD'", true},
		{"ORD", "<>", "'ORD'", false},
		{"ATL", "<", "'BOS'", true},
		{"O'Hare", "=", "'O''Hare'", true},
		{ts, ">", "'2001-01-01 12:00:00'", true},
		{ts, "<", "'2001-01-01 12:00'", false},
		{ts, "=", "'2001-01-01T12:30:00'", true},
		{ts, ">=", "'2001-01-02'", false},
		{types.DateOf(2001, 1, 2), ">", "'2001-01-01'", true},
		{true, "=", "TRUE", true},
		{false, "<>", "true", true},
		{nil, "=", "1", false},
		{nil, "<>", "1", false},
	}
	for _, c := range cases {
		got, err := compareValue(c.v, c.op, c.value)
		if err != nil {
			t.Errorf("%v %s %s: %v", c.v, c.op, c.value, err)
			continue
		}
		if got != c.want {
			t.Errorf("%T %v %s %s = %v, want %v", c.v, c.v, c.op, c.value, got, c.want)
		}
	}
	if _, err := compareValue(true, ">", "TRUE"); err == nil {
		t.Error("a boolean compared with > must be an error")
	}
	if _, err := compareValue(int32(3), ">", "'x'"); err == nil {
		t.Error("a number compared with 'x' must be an error")
	}
}
