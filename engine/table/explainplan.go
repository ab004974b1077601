package table

import (
	"context"

	"github.com/riffle-sql/riffle/engine/sql"
)

// ExplainedPlan is the plan of a statement as EXPLAIN shows it: Flink's
// text sections and the physical plan trees behind them, which a
// workbench draws as a graph.
type ExplainedPlan struct {
	// Text holds the sections == Abstract Syntax Tree ==, == Optimized
	// Physical Plan == and == Optimized Execution Plan ==.
	Text string
	// Roots are the physical plans, one per sink (several for a
	// statement set), sharing the nodes they share.
	Roots []*PlanNode
	// Streaming reports the runtime mode the plan is for.
	Streaming bool
}

// ExplainPlan plans a query, INSERT, statement set or EXPLAIN statement
// without running it. Planning creates the connectors' sources and sinks
// (so option errors show), but nothing is read or written.
func (t *TableEnvironment) ExplainPlan(statement string, details ...ExplainDetail) (*ExplainedPlan, error) {
	if _, err := explainDetails(details); err != nil {
		return nil, err
	}
	st, err := sql.Parse(statement)
	if err != nil {
		return nil, err
	}
	e, ok := st.(*sql.Explain)
	if !ok {
		var names []string
		for _, d := range details {
			names = append(names, string(d))
		}
		e = &sql.Explain{Span: spanOf(st), Details: names, Stmt: st}
	}
	x := &execution{env: t, ctx: context.Background(), text: statement}
	logical, d, err := x.explainLogical(e)
	if err != nil {
		return nil, err
	}
	text, roots, err := t.explainPlans(logical, d)
	if err != nil {
		return nil, err
	}
	return &ExplainedPlan{Text: text, Roots: planViewsOf(roots), Streaming: t.IsStreaming()}, nil
}
