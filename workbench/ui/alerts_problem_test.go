package ui

import "testing"

// A parser error's "Was expecting one of:" list is run together on one
// line under its first line, which keeps the position; one-line errors
// are shown as they are.
func TestAlertProblemTextKeepsTheWholeErrorOnTwoLines(t *testing.T) {
	in := "Encountered \"garbage\" at line 9, column 10.\nWas expecting one of:\n    \"[\" ...\n    \"AND\" ...\n    <EOF>\n"
	want := "Encountered \"garbage\" at line 9, column 10.\nWas expecting one of: \"[\" ... \"AND\" ... <EOF>"
	if got := problemText(in); got != want {
		t.Errorf("problemText = %q, want %q", got, want)
	}
	one := "condition, column 1: the query has no column arrival"
	if got := problemText(one); got != one {
		t.Errorf("problemText(%q) = %q", one, got)
	}
}
