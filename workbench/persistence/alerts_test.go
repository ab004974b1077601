package persistence

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"
)

func TestAlertRulesRoundTripAndSurviveReopening(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.riffle")
	ctx := context.Background()
	s := open(t, path)
	a := AlertRule{Name: "late flights", Statement: "SELECT origin, delay FROM flights_live", Condition: "delay > 180",
		Sink: "INSERT INTO alerts VALUES (:origin, :delay)", Cooldown: 30 * time.Second, Enabled: true}
	id, err := s.SaveAlertRule(ctx, a)
	must(t, err)
	b := AlertRule{Name: "quiet", Statement: "SELECT 1", Condition: "no row for 30 s", Cooldown: -1, Position: 1}
	idB, err := s.SaveAlertRule(ctx, b)
	must(t, err)
	if _, err := s.SaveAlertRule(ctx, AlertRule{Name: "quiet", Statement: "x", Condition: "any row"}); !errors.Is(err, ErrDuplicateAlertRule) {
		t.Errorf("a second rule named quiet: %v", err)
	}
	if _, err := s.SaveAlertRule(ctx, AlertRule{Name: " ", Statement: "x", Condition: "any row"}); err == nil {
		t.Error("a rule without a name was saved")
	}
	a.ID, a.Condition = id, "delay >= 200"
	if got, err := s.SaveAlertRule(ctx, a); err != nil || got != id {
		t.Fatalf("update: %d %v", got, err)
	}
	must(t, s.SetAlertRuleEnabled(ctx, idB, true))
	s.Close()

	s = open(t, path)
	defer s.Close()
	rules, err := s.AlertRules(ctx)
	must(t, err)
	b.ID, b.Enabled = idB, true
	if len(rules) != 2 || rules[0] != a || rules[1] != b {
		t.Fatalf("rules after reopening:\n%+v\nwant\n%+v\n%+v", rules, a, b)
	}
	if _, err := s.SaveAlertRule(ctx, AlertRule{ID: 999, Name: "gone", Statement: "x", Condition: "any row"}); err == nil {
		t.Error("updating a missing rule did not fail")
	}
}

func TestAlertLogStatsAndDeletedRules(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "w.riffle"))
	defer s.Close()
	ctx := context.Background()
	id, err := s.SaveAlertRule(ctx, AlertRule{Name: "late", Statement: "SELECT 1", Condition: "any row", Enabled: true})
	must(t, err)
	t0 := time.Date(2026, 12, 2, 10, 0, 5, 0, time.UTC)
	add := func(e AlertLogEntry) {
		t.Helper()
		if _, err := s.AddAlertLog(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	add(AlertLogEntry{RuleID: id, RuleName: "late", At: t0, Message: "delay > 180: delay = 195", RowJSON: `{"origin":"ORD","delay":195}`})
	add(AlertLogEntry{RuleID: id, RuleName: "late", At: t0.Add(500 * time.Millisecond), Kind: AlertSinkFailed, Message: "sink failed: no table alerts"})
	add(AlertLogEntry{RuleID: id, RuleName: "late", At: t0.Add(61 * time.Second), Message: "delay > 180: delay = 240"})
	log, err := s.AlertLog(ctx, 2)
	must(t, err)
	if len(log) != 2 || log[0].Message != "delay > 180: delay = 240" || log[1].Kind != AlertSinkFailed || !log[1].At.Equal(t0.Add(500*time.Millisecond)) {
		t.Fatalf("newest two: %+v", log)
	}
	all, err := s.AlertLog(ctx, 0)
	must(t, err)
	if len(all) != 3 || all[2].RowJSON != `{"origin":"ORD","delay":195}` || all[2].Kind != AlertFired || all[2].RuleID != id {
		t.Fatalf("whole log: %+v", all)
	}
	stats, err := s.AlertStats(ctx)
	must(t, err)
	if st := stats[id]; st.Count != 2 || !st.Last.Equal(t0.Add(61*time.Second)) {
		t.Errorf("stats %+v", st)
	}
	must(t, s.DeleteAlertRule(ctx, id))
	if rules, _ := s.AlertRules(ctx); len(rules) != 0 {
		t.Errorf("rules after delete: %+v", rules)
	}
	all, _ = s.AlertLog(ctx, 0)
	if len(all) != 3 || all[0].RuleID != 0 || all[0].RuleName != "late" {
		t.Errorf("the deleted rule's log: %+v", all)
	}
	must(t, s.ClearAlertLog(ctx))
	if all, _ = s.AlertLog(ctx, 0); len(all) != 0 {
		t.Errorf("log after clearing: %d entries", len(all))
	}
}

func TestAlertLogKeepsTheNewest(t *testing.T) {
	s := open(t, filepath.Join(t.TempDir(), "w.riffle"))
	defer s.Close()
	ctx := context.Background()
	at := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	var last int64
	for i := 0; i < MaxAlertLog+3; i++ {
		id, err := s.AddAlertLog(ctx, AlertLogEntry{RuleName: "r", At: at, Message: "m"})
		must(t, err)
		last = id
	}
	all, err := s.AlertLog(ctx, 0)
	must(t, err)
	if len(all) != MaxAlertLog || all[0].ID != last || all[len(all)-1].ID != last-MaxAlertLog+1 {
		t.Errorf("%d entries, newest %d, oldest %d (last added %d)", len(all), all[0].ID, all[len(all)-1].ID, last)
	}
}
