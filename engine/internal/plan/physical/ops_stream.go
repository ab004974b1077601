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

// The join, window, OVER and streaming-only operators of the physical
// plan (see ops.go).

// Join is an equi-join with a residual condition: Flink's Join in
// streaming mode (keeping both sides in state), HashJoin or, without
// keys, NestedLoopJoin in batch mode.
type Join struct {
	Spec opspec.JoinSpec
	// Cond is the whole join condition (nil: none), for EXPLAIN.
	Cond      expr.Expr
	Streaming bool
	// LeftInputSpec and RightInputSpec say what the join knows of its
	// inputs' uniqueness (JoinKeyContainsUniqueKey, HasUniqueKey,
	// NoUniqueKey; upsert.go).
	LeftInputSpec, RightInputSpec string
	// Broadcast: a batch HashJoin whose right input is broadcast to every
	// instance (EXPLAIN's isBroadcast=[true]; join_broadcast.go).
	Broadcast bool
}

func (j *Join) Name() string {
	switch {
	case j.Streaming:
		return "Join"
	case len(j.Spec.LeftKeys) == 0:
		return "NestedLoopJoin"
	}
	return "HashJoin"
}
func (j *Join) Explain(n *Node) []Attr {
	where := Attr{Name: "where", Value: "true"}
	if j.Cond != nil {
		where = exprAttr("where", j.Cond, joinNames(n))
	}
	attrs := []Attr{{Name: "joinType", Value: j.Spec.Kind.String()}, where, {Name: "select", Value: strings.Join(plan.Names(n.Cols), ", ")}}
	if j.Streaming {
		return append(attrs, Attr{Name: "leftInputSpec", Value: j.LeftInputSpec}, Attr{Name: "rightInputSpec", Value: j.RightInputSpec})
	}
	if j.Broadcast {
		attrs = append(attrs, Attr{Name: "isBroadcast", Value: "true"})
	}
	return append(attrs, Attr{Name: "build", Value: "right"})
}

// joinNames are the names of a join's joined row, made unique as
// Calcite's join row type does (word, word0).
func joinNames(n *Node) []string {
	return plan.Uniquify(append(inNames(n, 0), inNames(n, 1)...))
}

// IntervalJoin joins rows whose time attributes lie within bounds
// of each other (join_interval.go).
type IntervalJoin struct {
	Spec                   opspec.JoinSpec
	LowerBound, UpperBound int64
	LeftTime, RightTime    int
	Proctime               bool
	// Cond is the non-key condition, time bounds included (nil: none),
	// for EXPLAIN.
	Cond expr.Expr
}

func (*IntervalJoin) Name() string { return "IntervalJoin" }
func (j *IntervalJoin) Explain(n *Node) []Attr {
	where := Attr{Name: "where", Value: "true"}
	if j.Cond != nil {
		where = exprAttr("where", j.Cond, joinNames(n))
	}
	return []Attr{{Name: "joinType", Value: j.Spec.Kind.String()},
		{Name: "windowBounds", Value: fmt.Sprintf("isRowTime=%v, leftLowerBound=%d, leftUpperBound=%d, leftTimeIndex=%d, rightTimeIndex=%d",
			!j.Proctime, j.LowerBound, j.UpperBound, j.LeftTime, j.RightTime)},
		where, {Name: "select", Value: strings.Join(plan.Names(n.Cols), ", ")}}
}

// TemporalJoin is an event-time temporal join against a versioned
// table.
type TemporalJoin struct {
	Spec                         opspec.JoinSpec
	LeftTime, RightTime, NumLeft int
	// Cond is the join condition over CondNames (the query's left and
	// right columns), for EXPLAIN.
	Cond      expr.Expr
	CondNames []string
}

func (*TemporalJoin) Name() string { return "TemporalJoin" }
func (j *TemporalJoin) Explain(n *Node) []Attr {
	return []Attr{{Name: "joinType", Value: j.Spec.Kind.String()}, exprAttr("where", j.Cond, j.CondNames),
		{Name: "select", Value: strings.Join(plan.Names(n.Cols), ", ")}}
}

// LookupJoin is a processing-time temporal join. With Lookup set it
// asks a connector.LookupSource for each key's rows (lookup_join.go);
// otherwise each instance runs Right, a bounded plan of the whole table,
// when it starts.
type LookupJoin struct {
	Kind    opspec.JoinKind
	NumLeft int
	KeyCols []int
	// RightKeys are the right side's key columns (whole-table join).
	RightKeys  []int
	RightTypes []*types.DataType
	Residual   expr.Expr
	// Right is the whole table's bounded plan (nil with Lookup).
	Right *Node

	Lookup connector.LookupSource
	// LookupKeys are the source's physical key columns, ReadSpec what it
	// reads, KeyTypes the types of KeyCols.
	LookupKeys   []int
	ReadSpec     connector.ReadSpec
	KeyTypes     []*types.DataType
	RightFilter  expr.Expr
	RightProject []expr.Expr
	Cache        *connector.LookupCacheConfig

	// Table, LookupPairs, Where, JoinCondition and CondNames are what
	// EXPLAIN prints: the table, the key pairs, the conditions on the
	// temporal table alone and the other non-key conditions (over the
	// query's left and right columns).
	Table         string
	LookupPairs   []string
	Where         expr.Expr
	JoinCondition expr.Expr
	CondNames     []string
}

func (*LookupJoin) Name() string { return "LookupJoin" }
func (j *LookupJoin) Explain(n *Node) []Attr {
	attrs := []Attr{{Name: "table", Value: j.Table}, {Name: "joinType", Value: j.Kind.String()}, {Name: "lookup", Value: strings.Join(j.LookupPairs, ", ")}}
	if j.Where != nil {
		attrs = append(attrs, exprAttr("where", j.Where, j.CondNames))
	}
	if j.JoinCondition != nil {
		attrs = append(attrs, exprAttr("joinCondition", j.JoinCondition, j.CondNames))
	}
	return append(attrs, Attr{Name: "select", Value: strings.Join(plan.Names(n.Cols), ", ")})
}

// WindowJoin joins the rows of the same window of two windowed
// inputs.
type WindowJoin struct {
	Spec                                     opspec.JoinSpec
	Window                                   opspec.WindowSpec
	LeftStart, LeftEnd, RightStart, RightEnd int
	Cond                                     expr.Expr
}

func (*WindowJoin) Name() string { return "WindowJoin" }
func (w *WindowJoin) Explain(n *Node) []Attr {
	ln, rn := inNames(n, 0), inNames(n, 1)
	where := Attr{Name: "where", Value: "true"}
	if w.Cond != nil {
		where = exprAttr("where", w.Cond, append(append([]string(nil), ln...), rn...))
	}
	return []Attr{{Name: "leftWindow", Value: plan.WindowString(w.Window, "", true, ln[w.LeftStart], ln[w.LeftEnd])},
		{Name: "rightWindow", Value: plan.WindowString(w.Window, "", true, rn[w.RightStart], rn[w.RightEnd])},
		{Name: "joinType", Value: w.Spec.Kind.String()}, where, {Name: "select", Value: strings.Join(plan.Names(n.Cols), ", ")}}
}

// WindowTableFunction assigns rows to windows (TUMBLE, HOP,
// CUMULATE; SESSION partitioned by PartitionKeys).
type WindowTableFunction struct {
	Window        opspec.WindowSpec
	TimeCol       int
	PartitionKeys []int
}

func (*WindowTableFunction) Name() string { return "WindowTableFunction" }
func (w *WindowTableFunction) Explain(n *Node) []Attr {
	names := inNames(n, 0)
	attrs := []Attr{{Name: "window", Value: plan.WindowString(w.Window, names[w.TimeCol], false, "", "")}}
	if w.Window.Kind == opspec.SessionWindow && len(w.PartitionKeys) > 0 {
		var pk []string
		for _, k := range w.PartitionKeys {
			pk = append(pk, names[k])
		}
		attrs = append([]Attr{{Name: "partitionBy", Value: strings.Join(pk, ", ")}}, attrs...)
	}
	return attrs
}

// WindowAggregate aggregates the rows of each window and group.
type WindowAggregate struct {
	Keys    []int
	Aggs    []opspec.AggSpec
	Window  opspec.WindowSpec
	TimeCol int
	// Attached: the input carries window_start and window_end
	// (StartCol, EndCol) from a window table function.
	Attached         bool
	StartCol, EndCol int
	Props            []opspec.WindowProp
}

func (*WindowAggregate) Name() string { return "WindowAggregate" }
func (w *WindowAggregate) Explain(n *Node) []Attr {
	names := inNames(n, 0)
	var keys []string
	for _, k := range w.Keys {
		keys = append(keys, names[k])
	}
	sel := append([]string(nil), keys...)
	for i, ag := range w.Aggs {
		sel = append(sel, plan.AggString(ag, names)+" AS "+n.Cols[len(w.Keys)+i].Name)
	}
	base := len(w.Keys) + len(w.Aggs)
	for i, p := range w.Props {
		sel = append(sel, plan.PropName(p)+" AS "+n.Cols[base+i].Name)
	}
	var attrs []Attr
	if len(keys) > 0 {
		attrs = append(attrs, Attr{Name: "groupBy", Value: strings.Join(keys, ", ")})
	}
	timeName, startName, endName := "", "", ""
	if w.Attached {
		startName, endName = names[w.StartCol], names[w.EndCol]
	} else {
		timeName = names[w.TimeCol]
	}
	return append(attrs, Attr{Name: "window", Value: plan.WindowString(w.Window, timeName, w.Attached, startName, endName)},
		Attr{Name: "select", Value: strings.Join(sel, ", ")})
}

// OverAggregate computes OVER windows: in streaming mode one group
// ordered by a time attribute, in batch mode any.
type OverAggregate struct {
	Groups    []opspec.OverGroup
	Streaming bool
	// Rowtime: a streaming OVER ordered by event time.
	Rowtime bool
}

func (*OverAggregate) Name() string { return "OverAggregate" }
func (o *OverAggregate) Explain(n *Node) []Attr {
	names := inNames(n, 0)
	outNames := plan.Names(n.Cols)
	g0 := o.Groups[0]
	var attrs []Attr
	if len(g0.PartitionKeys) > 0 {
		var pk []string
		for _, k := range g0.PartitionKeys {
			pk = append(pk, names[k])
		}
		attrs = append(attrs, Attr{Name: "partitionBy", Value: strings.Join(pk, ", ")})
	}
	attrs = append(attrs, Attr{Name: "orderBy", Value: sortString(g0.Order, names)})
	k := len(names)
	sel := append([]string(nil), names...)
	for gi, g := range o.Groups {
		var calls []string
		for _, c := range g.Calls {
			calls = append(calls, c.String(names)+" AS "+outNames[k])
			sel = append(sel, outNames[k])
			k++
		}
		attrs = append(attrs, Attr{Name: fmt.Sprintf("window#%d", gi), Value: fmt.Sprintf("%s %s", strings.Join(calls, ", "), g.Frame)})
	}
	return append(attrs, Attr{Name: "select", Value: strings.Join(sel, ", ")})
}

// Deduplicate keeps the first or last row per key by a time
// attribute (ROW_NUMBER Top-1).
type Deduplicate struct {
	Keys              []int
	KeepLast, Rowtime bool
	TimeCol           int
	NoUpdateBefore    bool
}

func (*Deduplicate) Name() string { return "Deduplicate" }
func (d *Deduplicate) Explain(n *Node) []Attr {
	names := inNames(n, 0)
	var pk []string
	for _, k := range d.Keys {
		pk = append(pk, names[k])
	}
	keep, order := "FirstRow", "PROCTIME"
	if d.KeepLast {
		keep = "LastRow"
	}
	if d.Rowtime {
		order = "ROWTIME"
	}
	return []Attr{{Name: "keep", Value: keep}, {Name: "key", Value: strings.Join(pk, ", ")}, {Name: "order", Value: order}}
}

// TemporalSort is a streaming ORDER BY a time attribute (Keys[0],
// ascending) and secondary keys.
type TemporalSort struct {
	Keys []opspec.SortKey
}

func (*TemporalSort) Name() string { return "TemporalSort" }
func (s *TemporalSort) Explain(n *Node) []Attr {
	return []Attr{{Name: "orderBy", Value: sortString(s.Keys, inNames(n, 0))}}
}

// WindowRank is a Top-N per window, or, for a ROW_NUMBER Top-1 by
// the time attribute, a WindowDeduplicate.
type WindowRank struct {
	PartitionKeys             []int
	Keys                      []opspec.SortKey
	Window                    opspec.WindowSpec
	StartCol, EndCol, TimeCol int
	RankType                  string
	RankStart, RankEnd        int64
	WithRankNum               bool
}

// Dedup reports a WindowDeduplicate.
func (w *WindowRank) Dedup() bool {
	return w.RankType == "ROW_NUMBER" && w.RankStart == 1 && w.RankEnd == 1 && !w.WithRankNum && len(w.Keys) == 1 && w.Keys[0].Col == w.TimeCol
}

func (w *WindowRank) Name() string {
	if w.Dedup() {
		return "WindowDeduplicate"
	}
	return "WindowRank"
}
func (w *WindowRank) Explain(n *Node) []Attr {
	names := inNames(n, 0)
	var pk []string
	for _, k := range w.PartitionKeys {
		pk = append(pk, names[k])
	}
	win := Attr{Name: "window", Value: plan.WindowString(w.Window, "", true, names[w.StartCol], names[w.EndCol])}
	if w.Dedup() {
		keep := "FirstRow"
		if w.Keys[0].Desc {
			keep = "LastRow"
		}
		return []Attr{win, {Name: "keep", Value: keep}, {Name: "partitionKeys", Value: strings.Join(pk, ", ")},
			{Name: "orderKey", Value: names[w.Keys[0].Col]}, {Name: "order", Value: "ROWTIME"}}
	}
	return []Attr{win, {Name: "rankType", Value: w.RankType}, {Name: "rankRange", Value: fmt.Sprintf("rankStart=%d, rankEnd=%d", w.RankStart, w.RankEnd)},
		{Name: "partitionBy", Value: strings.Join(pk, ", ")}, {Name: "orderBy", Value: sortString(w.Keys, names)},
		{Name: "select", Value: strings.Join(plan.Names(n.Cols), ", ")}}
}
