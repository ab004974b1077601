package alerting

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestSinkParamsSkipStringsAndComments(t *testing.T) {
	stmt := "INSERT INTO alerts_topic\nVALUES (:origin, ':not', :`avg delay`, :delay) -- :comment"
	ps := SinkParams(stmt)
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
	}
	if got := strings.Join(names, ","); got != "origin,avg delay,delay" {
		t.Fatalf("params %q", got)
	}
	if ps[0].Pos.Line != 2 || ps[0].Pos.Column != 9 || stmt[ps[0].Pos.Offset:ps[0].End] != ":origin" {
		t.Errorf("first param at %v, %q", ps[0].Pos, stmt[ps[0].Pos.Offset:ps[0].End])
	}
	if stmt[ps[1].Pos.Offset:ps[1].End] != ":`avg delay`" {
		t.Errorf("quoted param spans %q", stmt[ps[1].Pos.Offset:ps[1].End])
	}
}

func TestValidateSinkReportsLineAndColumn(t *testing.T) {
	names := []string{"origin", "delay", "date"}
	if err := ValidateSink("", names); err != nil {
		t.Errorf("no sink: %v", err)
	}
	if err := ValidateSink("INSERT INTO t VALUES (:origin, :DELAY, :`date`, 'x:y')", names); err != nil {
		t.Errorf("valid sink: %v", err)
	}
	cases := []struct {
		stmt      string
		line, col int
		msg       string
	}{
		{"INSERT INTO t\nVALUES (:origin, :arrival)", 2, 18, `no column "arrival"`},
		{"INSERT INTO t VALUES (:origin,, 1)", 1, 31, "Encountered"},
		{"INSERT INTO t\n  VALUES (:delay :origin)", 2, 18, "Encountered \":origin\" at line 2, column 18"},
		{"INSERT INTO t VALUES (1); INSERT INTO u VALUES (2)", 1, 1, "one statement, not 2"},
	}
	for _, c := range cases {
		err := ValidateSink(c.stmt, names)
		var se *SinkError
		if !errors.As(err, &se) {
			t.Errorf("%q: %v, want a *SinkError", c.stmt, err)
			continue
		}
		if se.Line != c.line || se.Column != c.col || !strings.Contains(se.Msg, c.msg) {
			t.Errorf("%q: line %d column %d %q, want line %d column %d %q", c.stmt, se.Line, se.Column, se.Msg, c.line, c.col, c.msg)
		}
	}
}

func TestBindSinkFillsTheRowsValues(t *testing.T) {
	ts := time.Date(2001, 1, 1, 14, 5, 0, 0, time.UTC)
	got, err := BindSink("INSERT INTO alerts VALUES (:origin, :delay, :date, ':origin')",
		[]string{"date", "origin", "delay"}, []any{ts, "O'Hare", int32(195)})
	if err != nil {
		t.Fatal(err)
	}
	if want := "INSERT INTO alerts VALUES ('O''Hare', 195, TIMESTAMP '2001-01-01 14:05:00', ':origin')"; got != want {
		t.Errorf("bound\n got %s\nwant %s", got, want)
	}
	if _, err := BindSink("INSERT INTO a VALUES (:x)", []string{"y"}, []any{1}); err == nil {
		t.Error("an unknown column must be an error")
	}
}
