package table

import (
	"context"
	"sync"

	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/sql"
)

// StatementSet collects INSERTs (SQL statements and Tables) that are
// planned together and run as one job (PyFlink's StatementSet). Each
// insert is validated when added. Execute runs them and clears the set.
// It is safe for concurrent use.
type StatementSet struct {
	env   *TableEnvironment
	mu    sync.Mutex
	sinks []plan.Node
	texts []string
}

// CreateStatementSet returns an empty statement set (PyFlink's
// create_statement_set).
func (t *TableEnvironment) CreateStatementSet() *StatementSet { return &StatementSet{env: t} }

// AddInsertSQL adds an INSERT statement (PyFlink's add_insert_sql); it
// fails at once for syntax or validation errors and for other statements.
func (s *StatementSet) AddInsertSQL(stmt string) (*StatementSet, error) {
	st, err := sql.Parse(stmt)
	if err != nil {
		return s, err
	}
	ins, ok := st.(*sql.Insert)
	if !ok {
		return s, errorf("Only insert statement is supported now, got: %s", firstWords(stmt))
	}
	x := &execution{env: s.env, ctx: context.Background(), text: stmt}
	p, err := x.insertPlan(ins)
	if err != nil {
		return s, err
	}
	s.add(p, stmt)
	return s, nil
}

// AddInsert adds the insertion of a table into a registered table (a
// path) or into a new anonymous table described by a *TableDescriptor;
// the option Overwrite() replaces the target's data (PyFlink's add_insert
// with overwrite=True).
func (s *StatementSet) AddInsert(target any, table *Table, opts ...InsertOption) (*StatementSet, error) {
	if table == nil {
		return s, errorf("AddInsert: nil Table")
	}
	if table.err != nil {
		return s, table.err
	}
	p, err := s.env.sinkPlan(target, table, insertOptionsOf(opts).overwrite)
	if err != nil {
		return s, err
	}
	s.add(p, "INSERT INTO "+p.ID.Summary())
	return s, nil
}

func (s *StatementSet) add(p plan.Node, text string) {
	s.mu.Lock()
	s.sinks = append(s.sinks, p)
	s.texts = append(s.texts, text)
	s.mu.Unlock()
}

// Len returns the number of inserts in the set.
func (s *StatementSet) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.sinks)
}

// Explain returns the plan of all inserts, optimized together, with
// Flink's EXPLAIN sections (PyFlink's explain).
func (s *StatementSet) Explain(details ...ExplainDetail) (string, error) {
	s.mu.Lock()
	sinks := append([]plan.Node(nil), s.sinks...)
	s.mu.Unlock()
	if len(sinks) == 0 {
		return "", errorf("No statement was added to the statement set")
	}
	d, err := explainDetails(details)
	if err != nil {
		return "", err
	}
	return s.env.explainNodes(sinks, d)
}

// ExecuteContext runs all inserts as one job and clears the set (PyFlink's
// execute). The result has one BIGINT column per sink, named after it,
// holding -1 (the affected row count is unknown); the job runs
// asynchronously (wait with TableResult.WaitContext); ctx bounds the
// planning and submission.
func (s *StatementSet) ExecuteContext(ctx context.Context) (*TableResult, error) {
	s.mu.Lock()
	sinks, texts := s.sinks, s.texts
	s.sinks, s.texts = nil, nil
	s.mu.Unlock()
	if len(sinks) == 0 {
		return nil, errorf("No statement was added to the statement set")
	}
	text := ""
	for i, t := range texts {
		if i > 0 {
			text += ";\n"
		}
		text += t
	}
	return s.env.runInserts(ctx, sinks, text)
}
