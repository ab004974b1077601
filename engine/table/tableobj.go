package table

import (
	"context"
	"fmt"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/plan"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

// Table is a relational pipeline description (PyFlink's Table): a logical
// plan bound to its TableEnvironment. Nothing runs until Execute (or an
// INSERT) is called.
type Table struct {
	env  *TableEnvironment
	node plan.Node
	name string
}

// SQLQuery binds a SELECT and returns it as a Table (PyFlink's sql_query).
func (t *TableEnvironment) SQLQuery(query string) (*Table, error) {
	st, err := sql.Parse(query)
	if err != nil {
		return nil, err
	}
	q, ok := st.(*sql.Query)
	if !ok {
		return nil, errorf("Only queries are supported by SQLQuery, got: %s", firstWords(query))
	}
	n, err := plan.BindQuery(t.bindContext(), q, query, sql.Pos{})
	if err != nil {
		return nil, err
	}
	return &Table{env: t, node: n}, nil
}

// Plan returns the table's logical plan.
func (t *Table) Plan() plan.Node { return t.node }

// GetSchema returns the table's columns.
func (t *Table) GetSchema() *TableSchema {
	cols := t.node.Columns()
	names := make([]string, len(cols))
	ts := make([]*types.DataType, len(cols))
	for i, c := range cols {
		names[i], ts[i] = c.Name, c.Type
	}
	return NewTableSchema(names, ts)
}

// Execute runs the table as a query and returns its result.
func (t *Table) Execute() (*TableResult, error) {
	return t.env.runQuery(context.Background(), t.node, t.String())
}

// Explain returns the table's plan (Flink's three EXPLAIN sections).
func (t *Table) Explain(details ...ExplainDetail) (string, error) {
	var d plan.ExplainDetail
	for _, x := range details {
		switch x {
		case EstimatedCost:
			d.EstimatedCost = true
		case ChangelogMode:
			d.ChangelogMode = true
		case JSONExecutionPlan:
			d.JSONPlan = true
		}
	}
	return t.env.explainNodes([]plan.Node{&plan.Sink{Input: t.node, Collect: true}}, d)
}

// String registers the table as an anonymous temporary view (once) and
// returns its name, so that SQL can refer to it:
// env.SQLQuery("SELECT * FROM " + tbl.String()) — PyFlink's __str__.
func (t *Table) String() string {
	if t.name != "" {
		return t.name
	}
	t.env.mu.Lock()
	t.env.anonID++
	name := fmt.Sprintf("UnnamedTable$%d", t.env.anonID)
	t.env.mu.Unlock()
	id := catalog.ObjectIdentifier{Catalog: t.env.GetCurrentCatalog(), Database: t.env.GetCurrentDatabase(), Object: name}
	cols := t.node.Columns()
	names := make([]string, len(cols))
	ts := make([]*types.DataType, len(cols))
	for i, c := range cols {
		names[i], ts[i] = c.Name, c.Type
	}
	v := &catalog.View{ViewSchema: types.NewPhysicalSchema(names, ts), Plan: t.node, Query: "", Expanded: ""}
	_ = t.env.catalogs.CreateTemporaryTable(id, v, true)
	t.name = "`" + name + "`"
	return t.name
}
