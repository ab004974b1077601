package plan

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
)

// MatchRecognize is a MATCH_RECOGNIZE over its input (Calcite's
// LogicalMatch): per partition, rows ordered by a time attribute are
// matched against a pattern; each match yields one row of the partition
// columns followed by the measures.
type MatchRecognize struct {
	Input Node
	Spec  *opspec.MatchSpec
	Cols  []Column
}

func (m *MatchRecognize) Columns() []Column { return m.Cols }
func (m *MatchRecognize) Inputs() []Node    { return []Node{m.Input} }
func (m *MatchRecognize) WithInputs(in []Node) Node {
	c := *m
	c.Input = in[0]
	return &c
}
func (m *MatchRecognize) Describe() string {
	var parts []string
	for _, a := range MatchAttrs(m.Spec, Names(m.Input.Columns())) {
		parts = append(parts, a[0]+"=["+a[1]+"]")
	}
	return "LogicalMatch(" + strings.Join(parts, ", ") + ")"
}

// MatchAttrs renders a MATCH_RECOGNIZE's attributes as its EXPLAIN shows
// them, as name and value pairs: partitionBy, orderBy, measures,
// rowsPerMatch, after, pattern, within, define.
func MatchAttrs(s *opspec.MatchSpec, in []string) [][2]string {
	var parts [][2]string
	if len(s.PartitionKeys) > 0 {
		ks := make([]string, len(s.PartitionKeys))
		for i, k := range s.PartitionKeys {
			ks[i] = in[k]
		}
		parts = append(parts, [2]string{"partitionBy", strings.Join(ks, ", ")})
	}
	order := []string{in[s.TimeCol] + " ASC"}
	for _, k := range s.Keys {
		d := " ASC"
		if k.Desc {
			d = " DESC"
		}
		order = append(order, in[k.Col]+d)
	}
	parts = append(parts, [2]string{"orderBy", strings.Join(order, ", ")})
	ms := make([]string, len(s.Measures))
	for i, e := range s.Measures {
		ms[i] = "FINAL(" + s.Render(e, in) + ") AS " + s.MeasureNames[i]
	}
	parts = append(parts, [2]string{"measures", strings.Join(ms, ", ")}, [2]string{"rowsPerMatch", "ONE ROW PER MATCH"},
		[2]string{"after", s.SkipString()}, [2]string{"pattern", s.PatternRex()})
	if s.WithinMillis > 0 {
		parts = append(parts, [2]string{"within", fmt.Sprintf("%d ms", s.WithinMillis)})
	}
	var ds []string
	for i, d := range s.Defines {
		if d != nil {
			ds = append(ds, s.Vars[i]+"="+s.Render(d, in))
		}
	}
	parts = append(parts, [2]string{"define", "{" + strings.Join(ds, ", ") + "}"})
	return parts
}
