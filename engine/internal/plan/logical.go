// Package plan holds the logical plan and what the planner's stages share:
// the logical node types (Scan, Project, Filter, Aggregate, Join, window,
// OVER, rank, correlate and temporal-join nodes), Column, the binding
// Context, the validation Error, window-column and bound-expression
// helpers, logical EXPLAIN (Explain) and Riffle's per-table source options.
// It follows the shape of Flink's planner: a logical plan of Calcite-like
// relational nodes, rules, then physical nodes named as Flink's. The
// stages are packages of their own that import this one, never the other
// way round: engine/internal/plan/binder (SQL AST → logical plan),
// engine/internal/plan/rules (logical → logical) and engine/internal/plan/physical (logical
// → typed physical plan, changelog modes, EXPLAIN of the physical plan).
// It imports no runtime package.
package plan

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
)

// Column is one output column of a plan node.
type Column struct {
	Name string
	Type *types.DataType
}

// Names lists column names.
func Names(cols []Column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.Name
	}
	return out
}

// Types lists column types.
func Types(cols []Column) []*types.DataType {
	out := make([]*types.DataType, len(cols))
	for i, c := range cols {
		out[i] = c.Type
	}
	return out
}

// Node is a logical plan node.
type Node interface {
	// Columns are the output columns.
	Columns() []Column
	// Inputs are the child nodes.
	Inputs() []Node
	// WithInputs returns a copy with the children replaced.
	WithInputs(in []Node) Node
	// Describe renders the node in Calcite's logical-plan notation, e.g.
	// "LogicalFilter(condition=[>($1, 10)])".
	Describe() string
}

// Scan reads a catalog table (or an inline one). It produces the table's
// physical columns listed in Projection (indexes into the physical
// columns), followed by the metadata columns listed in Metadata.
type Scan struct {
	ID         catalog.ObjectIdentifier
	Table      *catalog.Table
	Projection []int
	Metadata   []string
	Cols       []Column
	// Options overrides from OPTIONS hints.
	Options map[string]string
	// Limit pushed into the source, -1 when none.
	Limit int64
	// PartFilter is the conjunction of the WHERE conditions on partition
	// columns only (InputRef indexes are physical column indexes), pushed
	// into a partitioned source for partition pruning (engine/internal/plan/rules/partition.go);
	// nil when none.
	PartFilter expr.Expr
}

func (s *Scan) Columns() []Column      { return s.Cols }
func (s *Scan) Inputs() []Node         { return nil }
func (s *Scan) WithInputs([]Node) Node { c := *s; return &c }
func (s *Scan) Describe() string {
	return fmt.Sprintf("LogicalTableScan(table=[[%s, %s, %s]])", s.ID.Catalog, s.ID.Database, s.ID.Object)
}

// Values is an inline table of constant rows.
type Values struct {
	Rows [][]expr.Expr
	Cols []Column
}

func (v *Values) Columns() []Column      { return v.Cols }
func (v *Values) Inputs() []Node         { return nil }
func (v *Values) WithInputs([]Node) Node { c := *v; return &c }
func (v *Values) Describe() string {
	var rows []string
	for _, r := range v.Rows {
		parts := make([]string, len(r))
		for i, e := range r {
			parts[i] = e.String()
		}
		rows = append(rows, "{ "+strings.Join(parts, ", ")+" }")
	}
	return fmt.Sprintf("LogicalValues(tuples=[[%s]])", strings.Join(rows, ", "))
}

// Project computes expressions over its input.
type Project struct {
	Input Node
	Exprs []expr.Expr
	Cols  []Column
}

func (p *Project) Columns() []Column { return p.Cols }
func (p *Project) Inputs() []Node    { return []Node{p.Input} }
func (p *Project) WithInputs(in []Node) Node {
	c := *p
	c.Input = in[0]
	return &c
}
func (p *Project) Describe() string {
	parts := make([]string, len(p.Exprs))
	for i, e := range p.Exprs {
		parts[i] = fmt.Sprintf("%s=[%s]", p.Cols[i].Name, RefString(e))
	}
	return "LogicalProject(" + strings.Join(parts, ", ") + ")"
}

// Filter keeps rows whose condition is TRUE.
type Filter struct {
	Input Node
	Cond  expr.Expr
}

func (f *Filter) Columns() []Column { return f.Input.Columns() }
func (f *Filter) Inputs() []Node    { return []Node{f.Input} }
func (f *Filter) WithInputs(in []Node) Node {
	c := *f
	c.Input = in[0]
	return &c
}
func (f *Filter) Describe() string {
	return fmt.Sprintf("LogicalFilter(condition=[%s])", RefString(f.Cond))
}

// Aggregate groups its input by key columns and computes aggregates. The
// output is the key columns followed by one column per aggregate.
type Aggregate struct {
	Input     Node
	GroupKeys []int
	Aggs      []opspec.AggSpec
	Cols      []Column
}

func (a *Aggregate) Columns() []Column { return a.Cols }
func (a *Aggregate) Inputs() []Node    { return []Node{a.Input} }
func (a *Aggregate) WithInputs(in []Node) Node {
	c := *a
	c.Input = in[0]
	return &c
}
func (a *Aggregate) Describe() string {
	keys := make([]string, len(a.GroupKeys))
	for i, k := range a.GroupKeys {
		keys[i] = fmt.Sprint(k)
	}
	parts := []string{"group=[{" + strings.Join(keys, ", ") + "}]"}
	for i, ag := range a.Aggs {
		parts = append(parts, fmt.Sprintf("%s=[%s]", a.Cols[len(a.GroupKeys)+i].Name, AggString(ag, nil)))
	}
	return "LogicalAggregate(" + strings.Join(parts, ", ") + ")"
}

// Join combines two inputs; Cond is over the concatenated columns (left
// then right). Semi and anti joins output only the left columns.
type Join struct {
	Left, Right Node
	Kind        opspec.JoinKind
	Cond        expr.Expr
	Cols        []Column
}

func (j *Join) Columns() []Column { return j.Cols }
func (j *Join) Inputs() []Node    { return []Node{j.Left, j.Right} }
func (j *Join) WithInputs(in []Node) Node {
	c := *j
	c.Left, c.Right = in[0], in[1]
	return &c
}
func (j *Join) Describe() string {
	cond := "true"
	if j.Cond != nil {
		cond = RefString(j.Cond)
	}
	kind := map[opspec.JoinKind]string{opspec.InnerJoin: "inner", opspec.LeftJoin: "left", opspec.RightJoin: "right",
		opspec.FullJoin: "full", opspec.SemiJoin: "semi", opspec.AntiJoin: "anti"}[j.Kind]
	return fmt.Sprintf("LogicalJoin(condition=[%s], joinType=[%s])", cond, kind)
}

// Sort orders rows, with optional OFFSET/FETCH (Fetch -1 = none). With no
// keys it is a plain LIMIT/OFFSET.
type Sort struct {
	Input  Node
	Keys   []opspec.SortKey
	Offset int64
	Fetch  int64
}

func (s *Sort) Columns() []Column { return s.Input.Columns() }
func (s *Sort) Inputs() []Node    { return []Node{s.Input} }
func (s *Sort) WithInputs(in []Node) Node {
	c := *s
	c.Input = in[0]
	return &c
}
func (s *Sort) Describe() string {
	var parts []string
	for i, k := range s.Keys {
		dir := "ASC"
		if k.Desc {
			dir = "DESC"
		}
		parts = append(parts, fmt.Sprintf("sort%d=[$%d]", i, k.Col), fmt.Sprintf("dir%d=[%s]", i, dir))
	}
	if s.Offset > 0 {
		parts = append(parts, fmt.Sprintf("offset=[%d]", s.Offset))
	}
	if s.Fetch >= 0 {
		parts = append(parts, fmt.Sprintf("fetch=[%d]", s.Fetch))
	}
	return "LogicalSort(" + strings.Join(parts, ", ") + ")"
}

// SetOpKind is UNION, INTERSECT or EXCEPT.
type SetOpKind uint8

// Set operation kinds.
const (
	UnionOp SetOpKind = iota
	IntersectOp
	ExceptOp
)

// SetOp combines inputs with the same column types.
type SetOp struct {
	Kind SetOpKind
	All  bool
	In   []Node
	Cols []Column
}

func (s *SetOp) Columns() []Column { return s.Cols }
func (s *SetOp) Inputs() []Node    { return s.In }
func (s *SetOp) WithInputs(in []Node) Node {
	c := *s
	c.In = in
	return &c
}
func (s *SetOp) Describe() string {
	name := [...]string{"LogicalUnion", "LogicalIntersect", "LogicalMinus"}[s.Kind]
	return fmt.Sprintf("%s(all=[%v])", name, s.All)
}

// WatermarkAssigner declares the rowtime attribute and watermark of a
// source's rows.
type WatermarkAssigner struct {
	Input   Node
	Rowtime int
	Expr    expr.Expr
	// Replay is the 'source.replay-speed' of the table (0 = no pacing).
	Replay float64
}

func (w *WatermarkAssigner) Columns() []Column { return w.Input.Columns() }
func (w *WatermarkAssigner) Inputs() []Node    { return []Node{w.Input} }
func (w *WatermarkAssigner) WithInputs(in []Node) Node {
	c := *w
	c.Input = in[0]
	return &c
}
func (w *WatermarkAssigner) Describe() string {
	return fmt.Sprintf("LogicalWatermarkAssigner(rowtime=[%s], watermark=[%s])", w.Input.Columns()[w.Rowtime].Name, RefString(w.Expr))
}

// Rank is ROW_NUMBER-based Top-N (also ORDER BY ... LIMIT in streaming).
type Rank struct {
	Input         Node
	PartitionKeys []int
	Keys          []opspec.SortKey
	RankStart     int64
	RankEnd       int64
	WithRankNum   bool
	// RankType is ROW_NUMBER (the default when empty), RANK or DENSE_RANK.
	RankType string
	Cols     []Column
}

func (r *Rank) Columns() []Column { return r.Cols }
func (r *Rank) Inputs() []Node    { return []Node{r.Input} }
func (r *Rank) WithInputs(in []Node) Node {
	c := *r
	c.Input = in[0]
	return &c
}
func (r *Rank) Describe() string {
	return fmt.Sprintf("LogicalRank(partitionBy=[%v], orderBy=[%v], rankRange=[rankStart=%d, rankEnd=%d])", r.PartitionKeys, r.Keys, r.RankStart, r.RankEnd)
}

// Sink writes its input into a table (INSERT INTO). Input columns map to
// the table's persisted columns in order.
type Sink struct {
	Input     Node
	ID        catalog.ObjectIdentifier
	Table     *catalog.Table
	Overwrite bool
	Static    map[string]string
	// Collect marks the query-result sink of SELECT (no table).
	Collect bool
}

func (s *Sink) Columns() []Column { return s.Input.Columns() }
func (s *Sink) Inputs() []Node    { return []Node{s.Input} }
func (s *Sink) WithInputs(in []Node) Node {
	c := *s
	c.Input = in[0]
	return &c
}
func (s *Sink) Describe() string {
	return fmt.Sprintf("LogicalSink(table=[%s], fields=[%s])", s.ID.Summary(), strings.Join(Names(s.Input.Columns()), ", "))
}

// RefString renders an expression with $i input references (the
// logical-plan notation).
func RefString(e expr.Expr) string {
	return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
		if r, ok := x.(*expr.InputRef); ok {
			return &expr.InputRef{Index: r.Index, T: r.T}
		}
		return x
	}).String()
}

// AggString renders an aggregate call; names (may be nil) name the input
// columns.
func AggString(a opspec.AggSpec, names []string) string {
	var b strings.Builder
	b.WriteString(a.Func)
	b.WriteByte('(')
	if a.Distinct {
		b.WriteString("DISTINCT ")
	}
	for i, c := range a.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		if names != nil {
			b.WriteString(names[c])
		} else {
			fmt.Fprintf(&b, "$%d", c)
		}
	}
	if len(a.Args) == 0 && names != nil && a.Func == "COUNT" {
		b.WriteByte('*')
	}
	b.WriteByte(')')
	if a.Filter >= 0 {
		if names != nil {
			fmt.Fprintf(&b, " FILTER %s", names[a.Filter])
		} else {
			fmt.Fprintf(&b, " FILTER $%d", a.Filter)
		}
	}
	return b.String()
}

// Explain renders a logical plan as an indented tree (Flink's
// "== Abstract Syntax Tree ==" section).
func Explain(n Node) string {
	var b strings.Builder
	explainRec(&b, n, "", true, true)
	return b.String()
}

func explainRec(b *strings.Builder, n Node, prefix string, last, root bool) {
	if root {
		b.WriteString(n.Describe())
	} else {
		// Calcite's RelTreeWriter: ":- " before all inputs but the last
		branch := "+- "
		if !last {
			branch = ":- "
		}
		b.WriteString(prefix + branch + n.Describe())
	}
	b.WriteByte('\n')
	childPrefix := prefix
	if !root {
		if last {
			childPrefix += "   "
		} else {
			childPrefix += ":  "
		}
	}
	in := n.Inputs()
	for i, c := range in {
		explainRec(b, c, childPrefix, i == len(in)-1, false)
	}
}

// Uniquify renames duplicate column names as Calcite does: a, a0, a1, ...
func Uniquify(names []string) []string {
	seen := map[string]bool{}
	out := make([]string, len(names))
	for i, n := range names {
		name := n
		for k := 0; seen[name]; k++ {
			name = fmt.Sprintf("%s%d", n, k)
		}
		seen[name] = true
		out[i] = name
	}
	return out
}
