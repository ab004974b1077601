package ui

import "testing"

// New rule… starts from the statement under the cursor with the tab's
// temporary tables it reads (its own session would not find them); the
// tab's other definitions are left out.
func TestNewRuleTakesTheTabsTemporaryTables(t *testing.T) {
	h := newHarness(t)
	h.newTab("CREATE TEMPORARY TABLE g (k INT, v INT) WITH ('connector' = 'datagen');\n" +
		"CREATE TEMPORARY TABLE other (x INT) WITH ('connector' = 'blackhole');\n" +
		"SELECT k, v FROM g")
	h.cursorAtEnd()
	want := "CREATE TEMPORARY TABLE g (k INT, v INT) WITH ('connector' = 'datagen');\nSELECT k, v FROM g"
	if got := newRuleStatement(h.wb); got != want {
		t.Errorf("new rule's statement %q, want %q", got, want)
	}
	h.newTab("SELECT 1")
	h.cursorAtEnd()
	if got := newRuleStatement(h.wb); got != "SELECT 1" {
		t.Errorf("without definitions: %q", got)
	}
}
