package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

func TestExplainMarksErrorsAtTheirColumn(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	tab.ed.SetText("SELECT 1;\n  SELECT pric FROM flights")
	tab.ed.SetCursor(1, 4)
	tab.ed.TypedShortcut(ctrl(fyne.KeyE))
	h.settle()
	m := tab.ed.ErrorMarkers()
	if len(m) != 1 || m[0].Line != 1 || m[0].Col != 9 {
		t.Fatalf("markers %+v", m)
	}
	tab.ed.SetText("SELECT origin FROM flights")
	tab.ed.TypedShortcut(ctrl(fyne.KeyE))
	h.settle()
	rt := h.wb.results[len(h.wb.results)-1]
	if !strings.Contains(rt.Text, "== Abstract Syntax Tree ==") {
		t.Errorf("explain %q", rt.Text)
	}
}

func TestSetChangesTheTabsRuntimeMode(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	if tab.mode != modeStreaming || h.wb.modeSel.Selected != modeStreaming {
		t.Fatalf("new tab mode %s / %s", tab.mode, h.wb.modeSel.Selected)
	}
	tab.ed.SetText("SET 'execution.runtime-mode' = 'batch'")
	h.runStatement()
	if tab.mode != modeBatch || h.wb.modeSel.Selected != modeBatch {
		t.Errorf("after SET: %s / %s", tab.mode, h.wb.modeSel.Selected)
	}
	// The switch sets the mode of the tab for its next run.
	h.wb.modeSel.SetSelected(modeStreaming)
	tab.ed.SetText("CREATE TEMPORARY TABLE u (a INT) WITH ('connector' = 'datagen', 'rows-per-second' = '10');\nSELECT a FROM u")
	h.runAll()
	rt := h.wb.results[len(h.wb.results)-1]
	if !rt.IsRunning() {
		t.Errorf("unbounded query not running in streaming mode: %s", h.messages())
	}
	rt.Stop()
	h.waitDone(rt)
}

func TestRecordedDDLIsNotDuplicated(t *testing.T) {
	h := newHarness(t)
	h.newTab("CREATE TABLE IF NOT EXISTS once (a INT) WITH ('connector' = 'datagen')")
	h.runStatement()
	h.runStatement()
	if n := strings.Count(h.wb.initScript, "CREATE TABLE IF NOT EXISTS once"); n != 1 {
		t.Errorf("recorded %d times:\n%s", n, h.wb.initScript)
	}
	// Queries and SET are not recorded.
	h.tab().ed.SetText("SET 'table.local-time-zone' = 'UTC';\nSELECT 1")
	h.runAll()
	if strings.Contains(h.wb.initScript, "local-time-zone") || strings.Contains(h.wb.initScript, "SELECT 1") {
		t.Errorf("init script:\n%s", h.wb.initScript)
	}
}

func TestFormatAndComplete(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	tab.ed.SetText("SELECT 1;\nselect origin,count(*) from flights group by origin;")
	tab.ed.SetCursor(1, 3)
	tab.ed.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyF, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift})
	got := tab.ed.Text()
	if !strings.HasPrefix(got, "SELECT 1;\nSELECT") || !strings.Contains(got, "\nFROM flights") {
		t.Errorf("formatted %q", got)
	}
	tab.ed.SetText("SELECT * FROM airpo")
	tab.ed.SetCursor(0, 19)
	tab.ed.TypedShortcut(ctrl(fyne.KeySpace))
	if got := tab.ed.Text(); got != "SELECT * FROM airports" {
		t.Errorf("completed %q", got)
	}
	tab.ed.SetText("SELECT dela FROM flights")
	tab.ed.SetCursor(0, 11)
	tab.ed.TypedShortcut(ctrl(fyne.KeySpace))
	if got := tab.ed.Text(); got != "SELECT delay FROM flights" {
		t.Errorf("completed %q", got)
	}
}

func TestStatementSetOfTheSQLClient(t *testing.T) {
	h := newHarness(t)
	tab := h.newTab("")
	tab.ed.SetText(`CREATE TABLE sink1 (a INT) WITH ('connector' = 'blackhole');
CREATE TABLE sink2 (a INT) WITH ('connector' = 'blackhole');
BEGIN STATEMENT SET;
INSERT INTO sink1 SELECT 1;
INSERT INTO sink2 SELECT 2;
END;`)
	tab.mode = modeBatch
	h.runAll()
	h.until("the job to finish", func() bool { return strings.Contains(h.messages(), "finished in") })
	msgs := h.messages()
	for _, want := range []string{"[INFO] Begin a statement set.", "[INFO] Add SQL update statement to the statement set.", "Job ID: "} {
		if !strings.Contains(msgs, want) {
			t.Errorf("messages lack %q:\n%s", want, msgs)
		}
	}
}

func TestClosingTabsKeepsOneAndAsksFirst(t *testing.T) {
	h := newHarness(t)
	for len(h.wb.editors.list) > 1 {
		h.wb.editors.close(h.wb.editors.list[0], false)
	}
	last := h.wb.editors.list[0]
	h.wb.editors.close(last, true) // holds SQL: asks
	if len(h.wb.editors.list) != 1 || h.wb.editors.list[0] != last {
		t.Fatal("a tab with SQL closed without asking")
	}
	h.wb.editors.close(last, false)
	if len(h.wb.editors.list) != 1 || h.wb.editors.list[0] == last || h.tab().ed.Text() != "" {
		t.Errorf("after closing the last tab: %d tabs", len(h.wb.editors.list))
	}
}

func TestTabKeysWorkFromTheEditor(t *testing.T) {
	h := newHarness(t)
	titles := func() string {
		var s []string
		for _, t := range h.wb.editors.list {
			s = append(s, t.title)
		}
		return strings.Join(s, "|")
	}
	ed := h.tab().ed
	ed.TypedShortcut(ctrl(fyne.KeyT))
	if titles() != "Delays by state|Flights by hour|Live stream|Live flights|Kafka flights|Query 1" || h.tab().title != "Query 1" {
		t.Fatalf("after Ctrl+T: %s (current %s)", titles(), h.tab().title)
	}
	h.tab().ed.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyPageUp, Modifier: fyne.KeyModifierControl | fyne.KeyModifierShift})
	if titles() != "Delays by state|Flights by hour|Live stream|Live flights|Query 1|Kafka flights" {
		t.Errorf("after Ctrl+Shift+PageUp: %s", titles())
	}
	h.tab().ed.TypedShortcut(ctrl(fyne.KeyPageDown))
	if h.tab().title != "Kafka flights" {
		t.Errorf("after Ctrl+PageDown: %s", h.tab().title)
	}
	h.tab().ed.TypedShortcut(ctrl(fyne.KeyPageDown)) // wraps around
	if h.tab().title != "Delays by state" {
		t.Errorf("after another Ctrl+PageDown: %s", h.tab().title)
	}
	h.wb.editors.tabs.Select(h.wb.editors.byID(h.wb.editors.list[4].id).item)
	h.tab().ed.TypedShortcut(ctrl(fyne.KeyW)) // empty: closes at once
	if titles() != "Delays by state|Flights by hour|Live stream|Live flights|Kafka flights" {
		t.Errorf("after Ctrl+W: %s", titles())
	}
	// The grid passes Ctrl+Enter on to the window.
	tab := h.newTab("SELECT 1 AS uno")
	rt := h.runStatement()
	if rt == nil {
		t.Fatalf("no result for %q; messages:\n%s", tab.ed.Text(), h.messages())
	}
	h.waitDone(rt)
	h.wb.editors.tabs.Select(tab.item)
	rt.Grid().TypedShortcut(ctrl(fyne.KeyReturn))
	h.settle()
	if n := len(h.wb.results); n != 2 {
		t.Errorf("%d results after Ctrl+Enter in the grid", n)
	}
}
