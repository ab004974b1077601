package alerting

import (
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

var t0 = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)

func rule(t *testing.T, cond string, cooldown time.Duration) Rule {
	t.Helper()
	c, err := ParseCondition(cond)
	if err != nil {
		t.Fatal(err)
	}
	return Rule{ID: 7, Name: "r", Condition: c, Cooldown: cooldown}
}

var cols = []string{"origin", "delay"}

func row(origin string, delay int32) *types.Row { return types.NewRow(origin, delay) }

func TestEvaluatorCompareFiresOnMatchingRowsOnly(t *testing.T) {
	ev := NewEvaluator(rule(t, "delay > 180", -1), t0)
	for i, c := range []struct {
		r    *types.Row
		fire bool
	}{
		{row("ORD", 12), false},
		{row("ATL", 181), true},
		{row("DFW", 180), false},
		{types.NewRowWithKind(types.UpdateBefore, "LAX", int32(999)), false}, // a retraction is no arrival
		{types.NewRowWithKind(types.UpdateAfter, "LAX", int32(200)), true},
		{types.NewRow("PHX", nil), false}, // NULL never compares true
	} {
		e, err := ev.Row(t0.Add(time.Duration(i)*time.Second), cols, c.r)
		if err != nil {
			t.Fatal(err)
		}
		if (e != nil) != c.fire {
			t.Fatalf("row %d %v: fired %v, want %v", i, c.r, e != nil, c.fire)
		}
		if e != nil {
			if e.Rule != "r" || e.RuleID != 7 || e.Kind != Fired || !e.At.Equal(t0.Add(time.Duration(i)*time.Second)) {
				t.Errorf("event %+v", e)
			}
			if want := "delay > 180: delay = " + types.FormatValue(c.r.Values[1]); e.Message != want {
				t.Errorf("message %q, want %q", e.Message, want)
			}
			if want := `{"origin":"` + c.r.Values[0].(string) + `","delay":` + types.FormatValue(c.r.Values[1]) + `}`; e.RowJSON() != want {
				t.Errorf("row JSON %s, want %s", e.RowJSON(), want)
			}
		}
	}
}

func TestEvaluatorCooldownThrottlesABurst(t *testing.T) {
	ev := NewEvaluator(rule(t, "any row", 10*time.Second), t0)
	var fired []*Event
	for i := 0; i < 25; i++ { // a row every second for 25 s
		e, err := ev.Row(t0.Add(time.Duration(i)*time.Second), cols, row("ORD", int32(i)))
		if err != nil {
			t.Fatal(err)
		}
		if e != nil {
			fired = append(fired, e)
		}
	}
	// fires at 0 s, 10 s, 20 s; the 9 rows between are counted
	if len(fired) != 3 {
		t.Fatalf("%d alerts, want 3", len(fired))
	}
	for i, e := range fired {
		if want := t0.Add(time.Duration(10*i) * time.Second); !e.At.Equal(want) {
			t.Errorf("alert %d at %v, want %v", i, e.At, want)
		}
	}
	if fired[0].Suppressed != 0 || fired[1].Suppressed != 9 || fired[2].Suppressed != 9 {
		t.Errorf("suppressed %d %d %d, want 0 9 9", fired[0].Suppressed, fired[1].Suppressed, fired[2].Suppressed)
	}
	if !strings.Contains(fired[1].Message, "(9 more matches during the 10 s cool-down)") {
		t.Errorf("message %q", fired[1].Message)
	}
	if ev.Suppressed() != 4 {
		t.Errorf("%d matches waiting, want 4", ev.Suppressed())
	}
}

func TestEvaluatorDefaultCooldown(t *testing.T) {
	r := rule(t, "any row", 0)
	if r.EffectiveCooldown() != DefaultCooldown || DefaultCooldown != time.Minute {
		t.Fatalf("cool-down %v", r.EffectiveCooldown())
	}
	ev := NewEvaluator(r, t0)
	n := 0
	for s := 0; s <= 120; s += 5 {
		if e, _ := ev.Row(t0.Add(time.Duration(s)*time.Second), cols, row("ORD", 1)); e != nil {
			n++
		}
	}
	if n != 3 { // at 0, 60 and 120 s
		t.Errorf("%d alerts in 2 min, want 3", n)
	}
}

func TestEvaluatorNoRowFiresOncePerSilence(t *testing.T) {
	ev := NewEvaluator(rule(t, "no row for 30 s", -1), t0)
	tick := func(s int) *Event { return ev.Tick(t0.Add(time.Duration(s)*time.Second), 0, false) }
	if e := tick(29); e != nil {
		t.Fatalf("fired after 29 s of silence: %+v", e)
	}
	e := tick(30)
	if e == nil || e.Message != "no row for 30 s (since 10:00:00)" || e.Columns != nil || e.RowJSON() != "" {
		t.Fatalf("after 30 s: %+v", e)
	}
	if e := tick(90); e != nil {
		t.Fatalf("fired twice in one silence: %+v", e)
	}
	// a row re-arms it; the silence counts from that row
	if e, _ := ev.Row(t0.Add(100*time.Second), cols, row("ORD", 1)); e != nil {
		t.Fatal("a row fired a no-row rule")
	}
	if e := tick(129); e != nil {
		t.Fatal("fired 29 s after the row")
	}
	if e := tick(130); e == nil || !strings.Contains(e.Message, "since 10:01:40") {
		t.Fatalf("after 30 s from the row: %+v", e)
	}
}

func TestEvaluatorWatermarkLagFiresOnCrossing(t *testing.T) {
	ev := NewEvaluator(rule(t, "watermark lag > 10 s", -1), t0)
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	if e := ev.Tick(at(1), time.Hour, false); e != nil {
		t.Fatal("fired with no watermark known")
	}
	if e := ev.Tick(at(2), 10*time.Second, true); e != nil {
		t.Fatal("fired at the threshold")
	}
	e := ev.Tick(at(3), 12300*time.Millisecond, true)
	if e == nil || e.Message != "watermark lag 12.3 s > 10 s" {
		t.Fatalf("above the threshold: %+v", e)
	}
	if e := ev.Tick(at(4), 20*time.Second, true); e != nil {
		t.Fatal("fired again while still lagging")
	}
	if e := ev.Tick(at(5), 2*time.Second, true); e != nil {
		t.Fatal("fired on recovery")
	}
	if e := ev.Tick(at(6), 11*time.Second, true); e == nil {
		t.Fatal("did not fire on the second crossing")
	}
}

func TestEvaluatorMissingColumnIsAnError(t *testing.T) {
	ev := NewEvaluator(rule(t, "arrival > 3", -1), t0)
	if _, err := ev.Row(t0, cols, row("ORD", 5)); err == nil || !strings.Contains(err.Error(), "no column arrival") {
		t.Fatalf("%v", err)
	}
}

func TestRowJSONAndLiterals(t *testing.T) {
	ts := time.Date(2001, 1, 1, 0, 1, 0, 0, time.UTC)
	names := []string{"ts", "n", "d", "s", "b", "x", "dec", "day"}
	vals := []any{ts, int64(3), 2.5, `a"b'c`, true, nil, types.MustDecimal("1.50"), types.DateOf(2001, 1, 2)}
	if got, want := rowJSON(names, vals), `{"ts":"2001-01-01 00:01:00","n":3,"d":2.5,"s":"a\"b'c","b":true,"x":null,"dec":1.50,"day":"2001-01-02"}`; got != want {
		t.Errorf("JSON\n got %s\nwant %s", got, want)
	}
	lits := []string{"TIMESTAMP '2001-01-01 00:01:00'", "3", "CAST(2.5 AS DOUBLE)", `'a"b''c'`, "TRUE", "NULL", "1.50", "DATE '2001-01-02'"}
	for i, v := range vals {
		if got := sqlLiteral(v); got != lits[i] {
			t.Errorf("literal of %v: %s, want %s", v, got, lits[i])
		}
	}
	if got := sqlLiteral(time.Date(2001, 1, 1, 0, 1, 0, 250e6, time.UTC)); got != "TIMESTAMP '2001-01-01 00:01:00.25'" {
		t.Errorf("fractional timestamp: %s", got)
	}
}
