package physical

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// The relational operators of the physical plan: scans, values, calcs,
// exchanges, aggregates, sorts, ranks, unions and sinks. Each names
// itself as Flink does and renders its EXPLAIN attributes from its fields
// and its node's columns (inputs' names for expressions over them);
// engine/internal/jobgraph creates the runtime operator from the same fields.

// inNames are the column names of n's i-th input.
func inNames(n *Node, i int) []string { return plan.Names(n.Inputs[i].Cols) }

// TableSourceScan reads a connector's source (created at planning time,
// so option errors surface then). Its output columns are the node's.
type TableSourceScan struct {
	// Table is the catalog, database and object name.
	Table [3]string
	// PushedDown are what the source took, printed inside table=[[...]]:
	// partitions=[...], filter=[...], project=[...], metadata=[...],
	// limit=[...].
	PushedDown []string
	Source     connector.Source
	Spec       connector.ReadSpec
	// BatchSize re-batches the source's output (0: as it comes).
	BatchSize int
	Bounded   bool
	// Skipped is told of rows skipped by an ignore-parse-errors option.
	Skipped func(n int64)
	// Hints are the scan's OPTIONS hints (nil without): two scans of one
	// table with different hints are different sources.
	Hints map[string]string
}

func (*TableSourceScan) Name() string { return "TableSourceScan" }
func (s *TableSourceScan) Explain(n *Node) []Attr {
	parts := append(s.Table[:], s.PushedDown...)
	return []Attr{{Name: "table", Value: "[" + strings.Join(parts, ", ") + "]"}, {Name: "fields", Value: strings.Join(plan.Names(n.Cols), ", ")}}
}

// Values emits constant rows (evaluated at planning time into Batch).
// Streaming says which of Flink's nodes it stands for: StreamPhysicalValues
// explains as Calcite's Values (type=[RecordType(...)] in the physical plan
// only, then tuples), BatchPhysicalValues as tuples and values=[names].
type Values struct {
	Rows      [][]expr.Expr
	Batch     *types.Batch
	Streaming bool
}

func (*Values) Name() string { return "Values" }
func (v *Values) Explain(n *Node) []Attr {
	var tuples []string
	for _, r := range v.Rows {
		parts := make([]string, len(r))
		for i, e := range r {
			parts[i] = e.String()
		}
		tuples = append(tuples, "{ "+strings.Join(parts, ", ")+" }")
	}
	attrs := []Attr{{Name: "tuples", Value: "[" + strings.Join(tuples, ", ") + "]"}}
	if v.Streaming {
		return append([]Attr{{Name: "type", Value: calciteRowType(n.Cols), PhysicalOnly: true}}, attrs...)
	}
	if len(n.Cols) > 0 {
		attrs = append(attrs, Attr{Name: "values", Value: strings.Join(plan.Names(n.Cols), ", ")})
	}
	return attrs
}

// WatermarkAssigner computes watermarks from a rowtime column.
type WatermarkAssigner struct {
	Rowtime   int
	Watermark expr.Expr
	// Replay paces the source to event time (source.replay-speed; 0: off).
	Replay float64
}

func (*WatermarkAssigner) Name() string { return "WatermarkAssigner" }
func (w *WatermarkAssigner) Explain(n *Node) []Attr {
	names := inNames(n, 0)
	attrs := []Attr{{Name: "rowtime", Value: names[w.Rowtime]}, exprAttr("watermark", w.Watermark, names)}
	if w.Replay > 0 {
		attrs = append(attrs, Attr{Name: "replaySpeed", Value: fmt.Sprintf("%g", w.Replay)})
	}
	return attrs
}

// Calc projects (Projs, nil: the input's columns) and filters (Where,
// nil: none).
type Calc struct {
	Projs []expr.Expr
	Where expr.Expr
	// restore marks the Calc that drops the key columns a
	// ChangelogNormalize needed (changelog_normalize.go)
	restore []expr.Expr
}

func (*Calc) Name() string { return "Calc" }
func (c *Calc) Explain(n *Node) []Attr {
	names := inNames(n, 0)
	sel, exec := names, names
	if c.Projs != nil {
		sel = make([]string, len(c.Projs))
		exec = make([]string, len(c.Projs))
		for i, e := range c.Projs {
			s, x := named(e, names), execNamed(e, names)
			if r, ok := e.(*expr.InputRef); !ok || names[r.Index] != n.Cols[i].Name {
				s += " AS " + n.Cols[i].Name
				x += " AS " + n.Cols[i].Name
			}
			sel[i], exec[i] = s, x
		}
	}
	attrs := []Attr{{Name: "select", Value: strings.Join(sel, ", "), Exec: strings.Join(exec, ", ")}}
	if c.Where != nil {
		attrs = append(attrs, exprAttr("where", c.Where, names))
	}
	return attrs
}

// Exchange distributes its input's rows to the consumer's instances.
type Exchange struct {
	Dist opspec.Partitioning
	// Keys are the hashed columns of a Hash exchange.
	Keys []int
}

func (*Exchange) Name() string { return "Exchange" }
func (x *Exchange) Explain(n *Node) []Attr {
	var d string
	switch x.Dist {
	case opspec.Hash:
		d = "hash[" + strings.Join(x.KeyNames(n), ", ") + "]"
	case opspec.Single:
		d = "single"
	case opspec.Broadcast:
		d = "broadcast"
	default:
		d = strings.ToLower(x.Dist.String())
	}
	return []Attr{{Name: "distribution", Value: d}}
}

// KeyNames are the names of the hashed columns.
func (x *Exchange) KeyNames(n *Node) []string {
	names := inNames(n, 0)
	ks := make([]string, 0, len(x.Keys))
	for _, k := range x.Keys {
		ks = append(ks, names[k])
	}
	return ks
}

// GroupAggregate is a GROUP BY: Flink's GroupAggregate in streaming
// mode, HashAggregate in batch mode.
type GroupAggregate struct {
	Keys []int
	Aggs []opspec.AggSpec
	// Streaming emits updates as groups change; in batch mode the
	// aggregate emits each group once at the end.
	Streaming   bool
	Retractable bool
	// NoUpdateBefore leaves out -U rows (upsert.go).
	NoUpdateBefore bool
	// Merge marks the global phase of a two-phase aggregation (Flink's
	// HashAggregate(isMerge=[true]), agg_phase.go): the input is a
	// LocalGroupAggregate's output, Keys its leading key columns, and
	// MergeCols[i] the input columns holding Aggs[i]'s partial state.
	Merge     bool
	MergeCols [][]int
}

func (a *GroupAggregate) Name() string {
	if a.Streaming {
		return "GroupAggregate"
	}
	return "HashAggregate"
}
func (a *GroupAggregate) Explain(n *Node) []Attr {
	names := inNames(n, 0)
	var attrs []Attr
	if !a.Streaming {
		attrs = append(attrs, Attr{Name: "isMerge", Value: fmt.Sprint(a.Merge)})
	}
	var keys []string
	for _, k := range a.Keys {
		keys = append(keys, names[k])
	}
	if len(keys) > 0 {
		attrs = append(attrs, Attr{Name: "groupBy", Value: strings.Join(keys, ", ")})
	}
	sel := append([]string(nil), keys...)
	for i, ag := range a.Aggs {
		if a.Merge {
			sel = append(sel, finalAggString(ag, a.MergeCols[i], names)+" AS "+n.Cols[len(a.Keys)+i].Name)
			continue
		}
		sel = append(sel, plan.AggString(ag, names)+" AS "+n.Cols[len(a.Keys)+i].Name)
	}
	return append(attrs, Attr{Name: "select", Value: strings.Join(sel, ", ")})
}

// Limit is OFFSET/FETCH without ORDER BY.
type Limit struct{ Offset, Fetch int64 }

func (*Limit) Name() string { return "Limit" }
func (l *Limit) Explain(*Node) []Attr {
	attrs := []Attr{{Name: "offset", Value: fmt.Sprint(l.Offset)}}
	if l.Fetch >= 0 {
		attrs = append(attrs, Attr{Name: "fetch", Value: fmt.Sprint(l.Fetch)})
	}
	return attrs
}

// Sort is a batch ORDER BY, with OFFSET/FETCH a SortLimit (Fetch < 0:
// none).
type Sort struct {
	Keys          []opspec.SortKey
	Offset, Fetch int64
}

func (s *Sort) Name() string {
	if s.Fetch >= 0 || s.Offset > 0 {
		return "SortLimit"
	}
	return "Sort"
}
func (s *Sort) Explain(n *Node) []Attr {
	attrs := []Attr{{Name: "orderBy", Value: sortString(s.Keys, inNames(n, 0))}}
	if s.Fetch >= 0 || s.Offset > 0 {
		attrs = append(attrs, Attr{Name: "offset", Value: fmt.Sprint(s.Offset)}, Attr{Name: "fetch", Value: fmt.Sprint(s.Fetch)})
	}
	return attrs
}

// SortLimit is a streaming ORDER BY ... LIMIT: a Top-N without partition
// keys (Flink's StreamPhysicalSortLimit), producing all kinds of changes.
type SortLimit struct {
	Keys          []opspec.SortKey
	Offset, Fetch int64
	// AppendOnly: the input is insert-only (AppendFastStrategy).
	AppendOnly     bool
	NoUpdateBefore bool
}

func (*SortLimit) Name() string { return "SortLimit" }
func (s *SortLimit) Explain(n *Node) []Attr {
	return []Attr{{Name: "orderBy", Value: sortString(s.Keys, inNames(n, 0))}, {Name: "offset", Value: fmt.Sprint(s.Offset)},
		{Name: "fetch", Value: fmt.Sprint(s.Fetch)}, {Name: "strategy", Value: rankStrategy(s.AppendOnly)}}
}

// Rank is a Top-N per partition (ROW_NUMBER, RANK, DENSE_RANK).
type Rank struct {
	PartitionKeys      []int
	Keys               []opspec.SortKey
	RankType           string
	RankStart, RankEnd int64
	// WithRankNum outputs the rank number as the last column.
	WithRankNum bool
	// AppendOnly: the input is insert-only (AppendFastStrategy).
	AppendOnly     bool
	Streaming      bool
	NoUpdateBefore bool
}

func (*Rank) Name() string { return "Rank" }
func (r *Rank) Explain(n *Node) []Attr {
	names := inNames(n, 0)
	var attrs []Attr
	if r.Streaming {
		attrs = append(attrs, Attr{Name: "strategy", Value: rankStrategy(r.AppendOnly)})
	}
	var pk []string
	for _, k := range r.PartitionKeys {
		pk = append(pk, names[k])
	}
	return append(attrs, Attr{Name: "rankType", Value: r.RankType},
		Attr{Name: "rankRange", Value: fmt.Sprintf("rankStart=%d, rankEnd=%d", r.RankStart, r.RankEnd)},
		Attr{Name: "partitionBy", Value: strings.Join(pk, ", ")}, Attr{Name: "orderBy", Value: sortString(r.Keys, names)},
		Attr{Name: "select", Value: strings.Join(plan.Names(n.Cols), ", ")})
}

// Union is UNION ALL of its inputs.
type Union struct{}

func (*Union) Name() string { return "Union" }
func (*Union) Explain(n *Node) []Attr {
	return []Attr{{Name: "all", Value: "true"}, {Name: "union", Value: strings.Join(plan.Names(n.Cols), ", ")}}
}

// Sink writes its input to a connector's sink, or, Collect, to the
// query's collector (given to the job-graph builder).
type Sink struct {
	// Table is the table's summary name, or *anonymous_collect$1*.
	Table   string
	Collect bool
	// ID is the table's full name, for errors.
	ID        string
	Sink      connector.Sink
	Spec      connector.WriteSpec
	DropNulls bool
	// Materialize runs a SinkUpsertMaterializer on primary key Key in
	// front of the sink.
	Materialize bool
	Key         []int
}

func (*Sink) Name() string { return "Sink" }
func (s *Sink) Explain(n *Node) []Attr {
	attrs := []Attr{{Name: "table", Value: s.Table}, {Name: "fields", Value: strings.Join(plan.Names(n.Cols), ", ")}}
	if s.Materialize {
		attrs = append(attrs, Attr{Name: "upsertMaterialize", Value: "true"})
	}
	return attrs
}

// DropUpdateBefore leaves out the -U rows of its input.
type DropUpdateBefore struct{}

func (*DropUpdateBefore) Name() string         { return "DropUpdateBefore" }
func (*DropUpdateBefore) Explain(*Node) []Attr { return nil }

// ChangelogNormalize keeps the last row per key of a changelog source and
// emits a proper changelog (changelog_normalize.go).
type ChangelogNormalize struct {
	Keys []int
	// Condition is a filter pushed into the node (nil: none).
	Condition expr.Expr
	// Duplicate: normalizing a CDC source whose events may repeat.
	Duplicate bool
	// Metadata: the scan reads metadata columns.
	Metadata bool
	// KeyOnlyDeletes: the source's deletes may carry only the key.
	KeyOnlyDeletes bool
	NoUpdateBefore bool
}

func (*ChangelogNormalize) Name() string { return "ChangelogNormalize" }
func (c *ChangelogNormalize) Explain(n *Node) []Attr {
	names := plan.Names(n.Cols)
	var keys []string
	for _, k := range c.Keys {
		keys = append(keys, names[k])
	}
	attrs := []Attr{{Name: "key", Value: strings.Join(keys, ", ")}}
	if c.Condition != nil {
		attrs = append(attrs, exprAttr("condition", c.Condition, names))
	}
	return attrs
}

// Correlate joins each row with the rows of a table function call.
type Correlate struct {
	Call *expr.TableCall
	// Left keeps rows the call returns nothing for (LEFT JOIN LATERAL).
	Left bool
	// Cond filters the joined rows (nil: none).
	Cond expr.Expr
}

func (*Correlate) Name() string { return "Correlate" }
func (c *Correlate) Explain(n *Node) []Attr {
	names := inNames(n, 0)
	args := make([]string, len(c.Call.Args))
	for i, a := range c.Call.Args {
		args[i] = named(a, names)
	}
	inv := c.Call.Name + "(" + strings.Join(args, ", ") + ")"
	jt := "INNER"
	if c.Left {
		jt = "LEFT"
	}
	var rt []string
	for _, col := range n.Cols {
		rt = append(rt, col.Type.String()+" "+col.Name)
	}
	attrs := []Attr{{Name: "invocation", Value: inv}, {Name: "correlate", Value: "table(" + inv + ")"},
		{Name: "select", Value: strings.Join(plan.Names(n.Cols), ",")}, {Name: "rowType", Value: "RecordType(" + strings.Join(rt, ", ") + ")"},
		{Name: "joinType", Value: jt}}
	if c.Cond != nil {
		attrs = append(attrs, exprAttr("condition", c.Cond, plan.Names(n.Cols)))
	}
	return attrs
}

// calciteRowType renders columns as Calcite's RelRecordType.toString does
// (no nullability, STRING as VARCHAR(2147483647)): RecordType(INTEGER
// EXPR$0, VARCHAR(7) EXPR$1).
func calciteRowType(cols []plan.Column) string {
	row := make([]string, len(cols))
	for i, c := range cols {
		t := c.Type.WithNullable(true).String()
		switch t {
		case "INT":
			t = "INTEGER"
		case "STRING":
			t = "VARCHAR(2147483647)"
		case "BYTES":
			t = "VARBINARY(2147483647)"
		}
		row[i] = t + " " + c.Name
	}
	return "RecordType(" + strings.Join(row, ", ") + ")"
}
