package opspec

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/types"
)

// MatchSkip is the AFTER MATCH SKIP strategy of a MATCH_RECOGNIZE.
type MatchSkip uint8

// AFTER MATCH SKIP strategies.
const (
	// SkipToNextRow resumes at the row after the first row of the match
	// (the default, as in Calcite and Flink).
	SkipToNextRow MatchSkip = iota
	// SkipPastLastRow resumes after the last row of the match.
	SkipPastLastRow
	// SkipToFirst resumes at the first row mapped to MatchSpec.SkipVar.
	SkipToFirst
	// SkipToLast resumes at the last row mapped to MatchSpec.SkipVar.
	SkipToLast
)

// MatchElem is one element of a MATCH_RECOGNIZE pattern: variable Var
// (an index into MatchSpec.Vars) repeated Min to Max times (Max -1:
// unbounded), greedily or reluctantly.
type MatchElem struct {
	Var       int
	Min, Max  int
	Reluctant bool
}

// MatchTermKind is the kind of a MatchTerm.
type MatchTermKind uint8

// Navigation and aggregate terms of DEFINE and MEASURES.
const (
	// TermLast is LAST(var.x, Offset): the Offset-th last row mapped to
	// Var (var.x alone is LAST(var.x, 0)).
	TermLast MatchTermKind = iota
	// TermFirst is FIRST(var.x, Offset).
	TermFirst
	// TermPrev is PREV(var.x, Offset): the row Offset rows before the
	// last row mapped to Var, within the match.
	TermPrev
	// TermAgg is an aggregate (Agg) of Inner over the rows mapped to Var.
	TermAgg
	// TermRowtime is MATCH_ROWTIME(): the time attribute of the match's
	// last row.
	TermRowtime
	// TermProctime is MATCH_PROCTIME(): the processing time of the match.
	TermProctime
	// TermClassifier is CLASSIFIER(): the variable the last row is mapped
	// to.
	TermClassifier
)

// MatchTerm is one value that DEFINE conditions and MEASURES read: an
// expression over the input row (Inner, index into MatchSpec.Inners)
// taken at a row chosen by navigation, or aggregated over the rows of a
// variable. Var -1 stands for all variables (an unqualified column).
type MatchTerm struct {
	Kind   MatchTermKind
	Var    int
	Inner  int
	Offset int
	// Agg is the aggregate function (SUM, AVG, COUNT, MIN, MAX) of a
	// TermAgg; Inner is -1 for COUNT(*).
	Agg string
	T   *types.DataType
}

// MatchSpec is the shape of a MATCH_RECOGNIZE operator (Flink's
// StreamExecMatch / MatchSpec). Conditions and measures are expressions
// over a virtual row of the Terms' values; Terms read Inners, which are
// expressions over the input row.
type MatchSpec struct {
	PartitionKeys []int
	// TimeCol is the ORDER BY time attribute; Keys are the secondary
	// ORDER BY keys; Proctime marks a processing-time attribute.
	TimeCol  int
	Proctime bool
	Keys     []SortKey
	// Vars are the pattern variables in order of first appearance.
	Vars    []string
	Pattern []MatchElem
	// Defines holds one condition per variable (nil: always true).
	Defines  []expr.Expr
	Measures []expr.Expr
	// MeasureNames are the MEASURES aliases.
	MeasureNames []string
	Inners       []expr.Expr
	Terms        []MatchTerm
	Skip         MatchSkip
	SkipVar      int
	// WithinMillis bounds a match: its last row is less than this many
	// milliseconds after its first; 0 means no bound.
	WithinMillis int64
}

// PatternString renders the pattern as written: "A B+? C{2,}".
func (s *MatchSpec) PatternString() string {
	parts := make([]string, len(s.Pattern))
	for i, e := range s.Pattern {
		q := ""
		switch {
		case e.Min == 1 && e.Max == 1:
		case e.Min == 0 && e.Max == -1:
			q = "*"
		case e.Min == 1 && e.Max == -1:
			q = "+"
		case e.Min == 0 && e.Max == 1:
			q = "?"
		case e.Max == -1:
			q = fmt.Sprintf("{%d,}", e.Min)
		case e.Min == e.Max:
			q = fmt.Sprintf("{%d}", e.Min)
		default:
			q = fmt.Sprintf("{%d,%d}", e.Min, e.Max)
		}
		if e.Reluctant {
			q += "?"
		}
		parts[i] = s.Vars[e.Var] + q
	}
	return strings.Join(parts, " ")
}

// PatternRex renders the pattern as Calcite's plans print it: variables
// as literals, quantified ones as PATTERN_QUANTIFIER(var, min, max,
// reluctant) with max -1 for no bound, a sequence as nested pairs:
// "((_UTF-16LE'A', PATTERN_QUANTIFIER(_UTF-16LE'B', 1, -1, false)), _UTF-16LE'C')".
func (s *MatchSpec) PatternRex() string {
	out := ""
	for i, e := range s.Pattern {
		v := "_UTF-16LE'" + strings.ReplaceAll(s.Vars[e.Var], "'", "''") + "'"
		if e.Min != 1 || e.Max != 1 || e.Reluctant {
			v = fmt.Sprintf("PATTERN_QUANTIFIER(%s, %d, %d, %v)", v, e.Min, e.Max, e.Reluctant)
		}
		if i == 0 {
			out = v
		} else {
			out = "(" + out + ", " + v + ")"
		}
	}
	return out
}

// SkipString renders the AFTER MATCH strategy as in SQL.
func (s *MatchSpec) SkipString() string {
	switch s.Skip {
	case SkipPastLastRow:
		return "SKIP PAST LAST ROW"
	case SkipToFirst:
		return "SKIP TO FIRST " + s.Vars[s.SkipVar]
	case SkipToLast:
		return "SKIP TO LAST " + s.Vars[s.SkipVar]
	}
	return "SKIP TO NEXT ROW"
}

// TermString renders term i in SQL-like notation, e.g. "LAST(A.price, 1)".
func (s *MatchSpec) TermString(i int, inputNames []string) string {
	t := s.Terms[i]
	v := "*"
	if t.Var >= 0 {
		v = s.Vars[t.Var]
	}
	inner := "*"
	if t.Inner >= 0 {
		inner = v + "." + expr.Rewrite(s.Inners[t.Inner], func(x expr.Expr) expr.Expr {
			if r, ok := x.(*expr.InputRef); ok && r.Index < len(inputNames) {
				return &expr.InputRef{Index: r.Index, Name: inputNames[r.Index], T: r.T}
			}
			return x
		}).String()
	}
	switch t.Kind {
	case TermFirst:
		return fmt.Sprintf("FIRST(%s, %d)", inner, t.Offset)
	case TermPrev:
		return fmt.Sprintf("PREV(%s, %d)", inner, t.Offset)
	case TermAgg:
		if t.Inner < 0 {
			return fmt.Sprintf("%s(%s.*)", t.Agg, v)
		}
		return fmt.Sprintf("%s(%s)", t.Agg, inner)
	case TermRowtime:
		return "MATCH_ROWTIME()"
	case TermProctime:
		return "MATCH_PROCTIME()"
	case TermClassifier:
		return "CLASSIFIER()"
	}
	return fmt.Sprintf("LAST(%s, %d)", inner, t.Offset)
}

// Render renders an expression over the terms' virtual row.
func (s *MatchSpec) Render(e expr.Expr, inputNames []string) string {
	return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
		if r, ok := x.(*expr.InputRef); ok && r.Index < len(s.Terms) {
			return &expr.InputRef{Index: r.Index, Name: s.TermString(r.Index, inputNames), T: r.T}
		}
		return x
	}).String()
}
