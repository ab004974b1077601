package ui

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/workbench/alerting"
	"github.com/riffle-sql/riffle/workbench/persistence"
)

type notification struct{ title, content string }

// startAlertsRecording starts the workspace's rules with notifications
// recorded instead of sent.
func startAlertsRecording(h *harness) *[]notification {
	var notes []notification
	a := h.wb.alerts()
	a.notify = func(title, content string) { notes = append(notes, notification{title, content}) }
	h.wb.startAlerts()
	return &notes
}

// The demo workspace's rule on the replayed flights fires on first start:
// a notification, an entry of the alert log with the triggering row, the
// rule's job in the Jobs panel marked as an alert with its count, and the
// Alerts dialog listing the rule and the log.
func TestDemoAlertFiresOnFirstStart(t *testing.T) {
	h := newHarness(t)
	notes := startAlertsRecording(h)
	a := h.wb.alerts()
	if len(a.rules) != 1 || a.rules[0].Name != demoAlertName || !a.rules[0].Enabled || a.rules[0].Condition != "delay > 240" {
		t.Fatalf("demo rules: %+v", a.rules)
	}
	h.until("the demo alert", func() bool { return len(*notes) > 0 })
	n := (*notes)[0]
	if n.title != "Riffle alert: Late flights" || !strings.HasPrefix(n.content, "delay > 240: delay = ") {
		t.Fatalf("notification %+v", n)
	}
	log, err := h.wb.store.AlertLog(context.Background(), 0)
	if err != nil || len(log) == 0 {
		t.Fatalf("alert log: %v %v", log, err)
	}
	first := log[len(log)-1]
	var row map[string]any
	if err := json.Unmarshal([]byte(first.RowJSON), &row); err != nil {
		t.Fatalf("row %q: %v", first.RowJSON, err)
	}
	if d, _ := row["delay"].(float64); d <= 240 || row["origin"] == nil || !strings.HasPrefix(row["date"].(string), "2001-01-01 ") {
		t.Errorf("triggering row %v", row)
	}
	if first.Kind != persistence.AlertFired || first.RuleName != demoAlertName || first.RuleID != a.rules[0].ID {
		t.Errorf("log entry %+v", first)
	}
	if !strings.Contains(h.messages(), "Alert «Late flights» at ") {
		t.Errorf("messages: %s", h.messages())
	}

	// the Jobs panel lists the rule's job as an alert
	jobID := a.rules[0].runner.Job().JobID()
	h.wb.mon.jobs.Update(time.Now())
	r, ok := h.wb.mon.jobs.Row(jobID)
	if !ok || !strings.HasPrefix(r.Statement, "ALERT «Late flights» 1× ") || !strings.Contains(r.Statement, " · delay > 240 · SELECT `date`, origin") {
		t.Fatalf("jobs panel row %+v (found %v)", r, ok)
	}
	if name, ok := h.wb.IsAlertJob(jobID); !ok || name != demoAlertName {
		t.Errorf("IsAlertJob: %q %v", name, ok)
	}

	// the Alerts dialog
	h.wb.showAlerts()
	ad := a.dlg
	if ad == nil || ad.list.Length() != 1 || ad.logList.Length() != len(log) {
		t.Fatalf("dialog: %+v", ad)
	}
	row0 := ad.list.CreateItem()
	ad.updateRuleRow(0, row0)
	if texts := labelTexts(row0); !strings.Contains(texts, "Late flights|delay > 240 · cool-down 60 s|running|1 alert, last ") {
		t.Errorf("rule row %q", texts)
	}
	ad.logList.Select(0)
	if !strings.Contains(ad.detail.Text, "«Late flights»  fired\ndelay > 240: delay = ") || !strings.Contains(ad.detail.Text, `"delay":`) {
		t.Errorf("log detail %q", ad.detail.Text)
	}

	// disabling stops the job; the state is saved
	a.setEnabled(a.rules[0], false)
	h.until("the rule's job stopped", func() bool {
		h.wb.mon.jobs.Update(time.Now())
		_, listed := h.wb.mon.jobs.Row(jobID)
		return !listed
	})
	rules, _ := h.wb.store.AlertRules(context.Background())
	if len(rules) != 1 || rules[0].Enabled {
		t.Errorf("stored rules %+v", rules)
	}
	ad.d.Hide()
}

// labelTexts joins the label texts under o with "|".
func labelTexts(o fyne.CanvasObject) string {
	var out []string
	var walk func(fyne.CanvasObject)
	walk = func(x fyne.CanvasObject) {
		switch v := x.(type) {
		case *fyne.Container:
			for _, c := range v.Objects {
				walk(c)
			}
		case *widget.Label:
			out = append(out, v.Text)
		}
	}
	walk(o)
	return strings.Join(out, "|")
}

// A rule is checked before it is saved — the query, the condition against
// its columns, the sink statement's :columns — with the place of the
// fault; a valid rule is saved, runs its sink on each alert, and is
// restarted when the workspace opens again.
func TestAlertRuleIsValidatedSavedAndRestarted(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path)
	notes := startAlertsRecording(h)
	a := h.wb.alerts()
	a.setEnabled(a.rules[0], false) // the demo rule stays quiet
	gen := "CREATE TEMPORARY TABLE gen (k INT, v INT) WITH ('connector' = 'datagen', 'rows-per-second' = '100', " +
		"'fields.k.kind' = 'sequence', 'fields.k.start' = '1', 'fields.k.end' = '100000000', 'fields.v.min' = '0', 'fields.v.max' = '100');\n" +
		"CREATE TEMPORARY TABLE fired (k INT, v INT) WITH ('connector' = 'blackhole');\n" +
		"SELECT k, v FROM gen"
	save := func(r persistence.AlertRule) error {
		var got error
		done := false
		a.saveRule(r, func(err error) { got, done = err, true })
		h.until("the rule checked", func() bool { return done })
		return got
	}
	bad := []struct {
		r    persistence.AlertRule
		want string
	}{
		{persistence.AlertRule{Name: "x", Statement: gen, Condition: "w > 3"}, "no column w"},
		{persistence.AlertRule{Name: "x", Statement: gen, Condition: "v >"}, "condition, column 4: expected a value"},
		{persistence.AlertRule{Name: "x", Statement: gen, Condition: "any row", Sink: "INSERT INTO fired\nVALUES (:k, :w)"}, `sink statement, line 2, column 13: the query has no column "w"`},
		{persistence.AlertRule{Name: "x", Statement: "SELECT nope FROM nowhere", Condition: "any row"}, "nowhere"},
		{persistence.AlertRule{Name: demoAlertName, Statement: gen, Condition: "any row"}, `another rule is named "Late flights"`},
	}
	for _, c := range bad {
		if err := save(c.r); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.r, err, c.want)
		}
	}
	var se *alerting.SinkError
	if err := save(bad[2].r); !errors.As(err, &se) || se.Line != 2 {
		t.Errorf("sink error %v", err)
	}
	if err := save(persistence.AlertRule{Name: "high v", Statement: gen, Condition: "v >= 90", Sink: "INSERT INTO fired VALUES (:k, :v)", Cooldown: -1, Enabled: true}); err != nil {
		t.Fatal(err)
	}
	h.until("the new rule fired", func() bool { return len(*notes) > 0 })
	if len(a.rules) != 2 || a.rules[1].ID == 0 || a.rules[1].count == 0 {
		t.Fatalf("rules %+v", a.rules)
	}
	h.close()

	h = open(t, path)
	defer h.close()
	notes = startAlertsRecording(h)
	a = h.wb.alerts()
	if len(a.rules) != 2 || a.rules[0].Enabled || !a.rules[1].Enabled || a.rules[1].count == 0 || a.rules[1].Cooldown != -1 {
		t.Fatalf("rules after reopening: %+v", a.rules)
	}
	h.until("the reopened rule fired", func() bool { return len(*notes) > 0 })
	if a.rules[0].runner != nil {
		t.Error("the disabled rule runs")
	}
}
