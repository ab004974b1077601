package opspec

import "testing"

// The pattern prints as written and as Calcite's plans print it.
func TestMatchPatternStrings(t *testing.T) {
	s := &MatchSpec{Vars: []string{"A", "B", "C", "D"}, Pattern: []MatchElem{
		{Var: 0, Min: 1, Max: 1}, {Var: 1, Min: 1, Max: -1}, {Var: 2, Min: 0, Max: 3, Reluctant: true}, {Var: 3, Min: 2, Max: 2}}}
	if got, want := s.PatternString(), "A B+ C{0,3}? D{2}"; got != want {
		t.Errorf("PatternString %q, want %q", got, want)
	}
	want := "(((_UTF-16LE'A', PATTERN_QUANTIFIER(_UTF-16LE'B', 1, -1, false)), PATTERN_QUANTIFIER(_UTF-16LE'C', 0, 3, true)), PATTERN_QUANTIFIER(_UTF-16LE'D', 2, 2, false))"
	if got := s.PatternRex(); got != want {
		t.Errorf("PatternRex %q, want %q", got, want)
	}
	s.Pattern = s.Pattern[:1]
	if got := s.PatternRex(); got != "_UTF-16LE'A'" {
		t.Errorf("PatternRex of one variable %q", got)
	}
}
