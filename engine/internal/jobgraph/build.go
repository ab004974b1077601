// Package jobgraph turns physical plans (engine/internal/plan/physical) into
// runtime job graphs (engine/internal/runtime): one runtime node per physical
// operator, with Exchange nodes becoming the partitioning of the edges
// between them. It is the only place that knows both the plan's
// operators and the runtime's (cf. CockroachDB's exec.Factory,
// go-mysql-server's rowexec.Builder): Build's type switch creates each
// runtime operator from its physical operator's fields.
//
// engine/table plans a statement (physical.Plan) and then calls Build
// to run it.
package jobgraph

import (
	"time"

	"context"
	"fmt"
	"io"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/internal/plan/physical"
	"github.com/riffle-sql/riffle/engine/internal/runtime"
	"github.com/riffle-sql/riffle/engine/types"
)

// Build turns physical plans (one per sink) into one runtime graph. The
// rows of a query's collect sink go to collector (nil: the sink passes
// them on to nothing). It returns the graph and the runtime node of every
// physical node (for metrics; an Exchange maps to its producer). A plan
// holding an operator Build cannot run (a plan read back from EXPLAIN
// text) is an error. reuse is what the session's table.optimizer.reuse-*
// options share (physical.DefaultReuse: Flink's defaults).
func Build(collector *runtime.Collector, reuse physical.Reuse, roots ...*physical.Node) (g *runtime.Graph, nodes map[*physical.Node]*runtime.Node, err error) {
	b := &builder{g: &runtime.Graph{}, nodes: map[*physical.Node]*runtime.Node{}, collector: collector}
	b.planJoinOutputs(roots)
	b.planAggCastInputs(roots)
	b.planScanFilters(roots)
	b.planScanUses(roots)
	b.planReuse(roots, reuse)
	defer func() {
		if r := recover(); r != nil {
			be, ok := r.(buildError)
			if !ok {
				panic(r)
			}
			g, nodes, err = nil, nil, be.err
		}
	}()
	for _, root := range roots {
		b.build(root)
	}
	return b.g, b.nodes, nil
}

type buildError struct{ err error }

type builder struct {
	g         *runtime.Graph
	nodes     map[*physical.Node]*runtime.Node
	collector *runtime.Collector
	// joinOut holds, for a batch hash join whose only consumer is a
	// Calc, the joined row's columns that Calc reads (join_output.go);
	// calcRefs the Calc's expressions renumbered to that narrower row.
	joinOut  map[*physical.Node][]int
	calcRefs map[*physical.Node]*physical.Calc
	// scanFilters holds, for a scan read only by a Calc with a condition,
	// that condition as the scan's run-time row filter (scan_filter.go).
	scanFilters map[*physical.Node]connector.RowFilter
	// sortBounds holds the bound a Top-N Sort shares with the scan it
	// reads (scan_filter.go).
	sortBounds map[*physical.Node]*runtime.TopNScanBound
	// scanUses holds, for a scan of which the job reads some ROW
	// columns field by field, how it reads each column (scan_uses.go).
	scanUses map[*physical.Node][]*connector.FieldUse
	// alias maps a node to the equal node whose runtime node it is
	// (reuse.go).
	alias map[*physical.Node]*physical.Node
}

func (b *builder) build(p *physical.Node) *runtime.Node {
	if n, ok := b.nodes[p]; ok {
		return n
	}
	if f, ok := b.alias[p]; ok {
		n := b.build(f)
		b.nodes[p] = n
		return n
	}
	if p.IsSource() {
		n := b.g.AddSource(p.Describe(), p.Parallelism, p.Bounded(), source(p, b.scanFilters[p], b.scanUses[p]))
		n.Resumable = resumable(p)
		b.nodes[p] = n
		return n
	}
	var edges []runtime.Edge
	for _, in := range p.Inputs {
		if x, ok := in.Op.(*physical.Exchange); ok {
			src := b.build(in.Inputs[0])
			part := x.Dist
			if part == opspec.Rebalance && src.Parallelism == p.Parallelism {
				// equal parallelism: each instance feeds its own, in
				// order (Flink chains the edge forward, and EXPLAIN's
				// JSON plan says FORWARD). Round robin would send a
				// key's updates down different paths, so a -U could
				// overtake the +I it retracts (a UNION ALL of two
				// aggregates under a GROUP BY gave wrong totals).
				part = opspec.Forward
			}
			edge := runtime.Edge{From: src, Part: part, Keys: x.Keys}
			if balancedInput(p) {
				edge.KeyGroups = runtime.DefaultKeyGroups
			}
			edges = append(edges, edge)
			b.nodes[in] = src
			continue
		}
		src := b.build(in)
		part := opspec.Forward
		if src.Parallelism != p.Parallelism {
			part = opspec.Rebalance
			if p.Parallelism == 1 {
				part = opspec.Single
			}
		}
		edges = append(edges, runtime.Edge{From: src, Part: part})
	}
	n := b.g.AddOperator(p.Describe(), p.Parallelism, b.operator(p), edges...)
	if j, ok := p.Op.(*physical.Join); ok && !j.Streaming {
		// the batch hash join reads its build side (the right input)
		// to its end before it probes
		n.BuildFirst = true
	}
	b.nodes[p] = n
	return n
}

// balancedInput reports whether p's hash inputs are balanced by key
// groups (runtime.Edge.KeyGroups): the batch OVER, which reads its whole
// input before it emits a row, so that its instances can wait for the
// input's end to split the key groups evenly.
func balancedInput(p *physical.Node) bool {
	x, ok := p.Op.(*physical.OverAggregate)
	return ok && !x.Streaming
}

// source is the source function of a TableSourceScan or Values node.
// filter, when not nil, is the row filter of the Calc reading the scan;
// uses, when not nil, how the job reads the scan's columns.
func source(p *physical.Node, filter connector.RowFilter, uses []*connector.FieldUse) runtime.SourceFunc {
	switch x := p.Op.(type) {
	case *physical.TableSourceScan:
		spec := x.Spec
		spec.RowFilter = filter
		spec.Uses = uses
		return rebatch(runtime.ConnectorSource(x.Source, spec, x.Skipped), x.BatchSize)
	case *physical.Values:
		return runtime.ValuesSource([]*types.Batch{x.Batch})
	}
	panic(buildError{fmt.Errorf("%s is not a source", p.Name())})
}

// resumable reports whether source p saves its read position in
// checkpoints.
func resumable(p *physical.Node) bool {
	switch x := p.Op.(type) {
	case *physical.TableSourceScan:
		return runtime.IsResumable(x.Source)
	case *physical.Values:
		return true
	}
	return false
}

// rebatch wraps a source so that it emits batches of at most n rows.
func rebatch(src runtime.SourceFunc, n int) runtime.SourceFunc {
	if n <= 0 {
		return src
	}
	return func(ctx context.Context, inst, par int, emit func(*types.Batch) error) error {
		return src(ctx, inst, par, func(b *types.Batch) error {
			if b.Len <= n {
				return emit(b)
			}
			for from := 0; from < b.Len; from += n {
				if err := emit(b.Slice(from, min(from+n, b.Len))); err != nil {
					return err
				}
			}
			return nil
		})
	}
}

// colTypes are the types of cols.
func colTypes(cols []plan.Column) []*types.DataType { return plan.Types(cols) }

// keyTypes are the types of the key columns keys of cols.
func keyTypes(cols []plan.Column, keys []int) []*types.DataType {
	out := make([]*types.DataType, len(keys))
	for i, k := range keys {
		out[i] = cols[k].Type
	}
	return out
}

// operator returns the constructor of p's runtime operator: one instance
// per parallel instance of the node.
func (b *builder) operator(p *physical.Node) func() runtime.Operator {
	var in []plan.Column // the first input's columns
	if len(p.Inputs) > 0 {
		in = p.Inputs[0].Cols
	}
	switch x := p.Op.(type) {
	case *physical.WatermarkAssigner:
		return func() runtime.Operator {
			w, err := runtime.NewWatermarkAssigner(x.Watermark, x.Rowtime)
			if err != nil {
				panic(err)
			}
			w.Replay = x.Replay
			w.SourceIdleTimeout, w.SourceIdleSet = sourceIdleTimeout(p)
			return w
		}
	case *physical.Calc:
		if narrowed, ok := b.calcRefs[p]; ok {
			x = narrowed
		}
		return func() runtime.Operator {
			c, err := runtime.NewCalc(x.Where, x.Projs)
			if err != nil {
				panic(err)
			}
			return c
		}
	case *physical.GroupAggregate:
		kts, outTypes := keyTypes(in, x.Keys), colTypes(p.Cols)
		return func() runtime.Operator {
			a := &runtime.GroupAgg{Keys: x.Keys, KeyTypes: kts, Aggs: x.Aggs, OutTypes: outTypes,
				Final: !x.Streaming, Retractable: x.Retractable, NoUpdateBefore: x.NoUpdateBefore}
			if x.Merge {
				a.Phase, a.MergeCols = runtime.MergePhase, x.MergeCols
			}
			return a
		}
	case *physical.LocalGroupAggregate:
		kts, outTypes := keyTypes(in, x.Keys), colTypes(p.Cols)
		return func() runtime.Operator {
			return &runtime.GroupAgg{Keys: x.Keys, KeyTypes: kts, Aggs: x.Aggs, OutTypes: outTypes, Final: true, Phase: runtime.LocalPhase}
		}
	case *physical.Limit:
		return func() runtime.Operator { return &runtime.Limit{Offset: x.Offset, Fetch: x.Fetch} }
	case *physical.Sort:
		ts := colTypes(in)
		return func() runtime.Operator {
			return &runtime.Sort{Keys: x.Keys, Types: ts, Offset: x.Offset, Fetch: x.Fetch, ScanBound: b.sortBounds[p]}
		}
	case *physical.SortLimit:
		ts := colTypes(in)
		return func() runtime.Operator {
			return &runtime.Rank{Keys: x.Keys, Types: ts, RankStart: x.Offset + 1, RankEnd: x.Offset + x.Fetch,
				AppendOnly: x.AppendOnly, NoUpdateBefore: x.NoUpdateBefore}
		}
	case *physical.Rank:
		ts := colTypes(in)
		return func() runtime.Operator {
			return &runtime.Rank{PartitionKeys: x.PartitionKeys, Keys: x.Keys, Types: ts, RankStart: x.RankStart, RankEnd: x.RankEnd,
				WithRankNum: x.WithRankNum, RankType: x.RankType, AppendOnly: x.AppendOnly, NoUpdateBefore: x.NoUpdateBefore}
		}
	case *physical.Union:
		n := len(p.Inputs)
		return func() runtime.Operator { return runtime.NewUnion(n) }
	case *physical.Sink:
		return b.sink(p, x)
	case *physical.DropUpdateBefore:
		return func() runtime.Operator { return &runtime.DropUpdateBefore{} }
	case *physical.ChangelogNormalize:
		kts, ts := keyTypes(p.Cols, x.Keys), colTypes(p.Cols)
		return func() runtime.Operator {
			return &runtime.ChangelogNormalize{Keys: x.Keys, KeyTypes: kts, Types: ts, NoUpdateBefore: x.NoUpdateBefore, Condition: x.Condition}
		}
	case *physical.Correlate:
		ts := colTypes(in)
		return func() runtime.Operator {
			return &runtime.Correlate{Call: x.Call, InTypes: ts, Left: x.Left, Cond: x.Cond}
		}
	case *physical.Join:
		if x.Streaming {
			return func() runtime.Operator { return &runtime.StreamingJoin{Spec: x.Spec} }
		}
		out := b.joinOut[p]
		return func() runtime.Operator { return &runtime.HashJoin{Spec: x.Spec, Out: out} }
	case *physical.IntervalJoin:
		return func() runtime.Operator {
			return &runtime.IntervalJoin{Spec: x.Spec, LowerBound: x.LowerBound, UpperBound: x.UpperBound, LeftTime: x.LeftTime,
				RightTime: x.RightTime, Proctime: x.Proctime}
		}
	case *physical.TemporalJoin:
		return func() runtime.Operator {
			return &runtime.TemporalJoin{Spec: x.Spec, LeftTime: x.LeftTime, RightTime: x.RightTime, NumLeft: x.NumLeft}
		}
	case *physical.LookupJoin:
		return lookupJoin(x)
	case *physical.WindowJoin:
		return func() runtime.Operator {
			return &runtime.WindowJoin{Spec: x.Spec, LeftEnd: x.LeftEnd, RightEnd: x.RightEnd}
		}
	case *physical.WindowTableFunction:
		if x.Window.Kind == opspec.SessionWindow {
			kts, inTypes, outTypes := keyTypes(in, x.PartitionKeys), colTypes(in), colTypes(p.Cols)
			return func() runtime.Operator {
				return &runtime.SessionWindows{Keys: x.PartitionKeys, KeyTypes: kts, Window: x.Window, TimeCol: x.TimeCol, Rows: true,
					InTypes: inTypes, OutTypes: outTypes, Props: []opspec.WindowProp{opspec.PropStart, opspec.PropEnd, opspec.PropTime}}
			}
		}
		timeType := p.Cols[len(p.Cols)-1].Type
		return func() runtime.Operator {
			return &runtime.WindowTableFunction{Window: x.Window, TimeCol: x.TimeCol, TimeType: timeType}
		}
	case *physical.WindowAggregate:
		kts, outTypes := keyTypes(in, x.Keys), colTypes(p.Cols)
		if x.Window.Kind == opspec.SessionWindow && !x.Attached {
			return func() runtime.Operator {
				return &runtime.SessionWindows{Keys: x.Keys, KeyTypes: kts, Aggs: x.Aggs, OutTypes: outTypes, Window: x.Window,
					TimeCol: x.TimeCol, Props: x.Props}
			}
		}
		return func() runtime.Operator {
			return &runtime.WindowAgg{Keys: x.Keys, KeyTypes: kts, Aggs: x.Aggs, OutTypes: outTypes, Window: x.Window, TimeCol: x.TimeCol,
				Attached: x.Attached, StartCol: x.StartCol, EndCol: x.EndCol, Props: x.Props}
		}
	case *physical.OverAggregate:
		inTypes := colTypes(in)
		if !x.Streaming {
			return func() runtime.Operator { return &runtime.OverAggregate{Groups: x.Groups, InTypes: inTypes} }
		}
		g0 := x.Groups[0]
		kts := keyTypes(in, g0.PartitionKeys)
		return func() runtime.Operator {
			return &runtime.StreamOver{PartitionKeys: g0.PartitionKeys, KeyTypes: kts, InTypes: inTypes, TimeCol: g0.Order[0].Col,
				Rowtime: x.Rowtime, Frame: g0.Frame, Calls: g0.Calls}
		}
	case *physical.Deduplicate:
		kts, ts := keyTypes(in, x.Keys), colTypes(in)
		return func() runtime.Operator {
			return &runtime.Deduplicate{Keys: x.Keys, KeyTypes: kts, Types: ts, KeepLast: x.KeepLast, Rowtime: x.Rowtime, TimeCol: x.TimeCol,
				NoUpdateBefore: x.NoUpdateBefore}
		}
	case *physical.TemporalSort:
		ts := colTypes(in)
		first := x.Keys[0]
		secondary := x.Keys[1:]
		proctime := in[first.Col].Type.IsProctime()
		return func() runtime.Operator {
			return &runtime.TemporalSort{TimeCol: first.Col, Keys: secondary, Types: ts, Proctime: proctime}
		}
	case *physical.ProcessTableFunction:
		return b.processTableFunction(p, x)
	case *physical.Match:
		ts, outTs := colTypes(in), plan.Types(p.Cols)
		return func() runtime.Operator { return &runtime.Match{Spec: x.Spec, InTypes: ts, OutTypes: outTs} }
	case *physical.WindowRank:
		ts := colTypes(in)
		return func() runtime.Operator {
			return &runtime.WindowRank{PartitionKeys: x.PartitionKeys, Keys: x.Keys, Types: ts, EndCol: x.EndCol, RankType: x.RankType,
				RankStart: x.RankStart, RankEnd: x.RankEnd, WithRankNum: x.WithRankNum}
		}
	}
	panic(buildError{fmt.Errorf("cannot run a %s node (%T)", p.Name(), p.Op)})
}

// sink is a collect sink into the builder's collector, or a connector's
// sink, behind a SinkUpsertMaterializer when the plan asks for one.
func (b *builder) sink(p *physical.Node, x *physical.Sink) func() runtime.Operator {
	if x.Collect {
		if b.collector == nil {
			return func() runtime.Operator { return &passThrough{} }
		}
		return b.collector.NewSink
	}
	if x.Materialize {
		kts, ts := keyTypes(p.Cols, x.Key), colTypes(p.Cols)
		return func() runtime.Operator {
			return &runtime.MaterializingSink{
				Materializer: &runtime.SinkUpsertMaterializer{Keys: x.Key, KeyTypes: kts, Types: ts},
				Sink:         &runtime.ConnectorSink{Sink: x.Sink, Spec: x.Spec, Table: x.ID, DropNulls: x.DropNulls}}
		}
	}
	return func() runtime.Operator {
		return &runtime.ConnectorSink{Sink: x.Sink, Spec: x.Spec, Table: x.ID, DropNulls: x.DropNulls}
	}
}

// lookupJoin is a LookupJoin: one looking up a LookupSource's rows per
// key, or one loading the whole table when it starts (its bounded plan
// Right run as a batch job of its own).
func lookupJoin(x *physical.LookupJoin) func() runtime.Operator {
	if x.Lookup != nil {
		ls, keys, spec := x.Lookup, x.LookupKeys, x.ReadSpec
		return func() runtime.Operator {
			return &runtime.SourceLookupJoin{Kind: x.Kind, NumLeft: x.NumLeft, KeyCols: x.KeyCols, KeyTypes: x.KeyTypes,
				RightFilter: x.RightFilter, RightProject: x.RightProject, RightTypes: x.RightTypes, Residual: x.Residual, Cache: x.Cache, Table: x.Table,
				OpenLookuper: func(ctx context.Context) (connector.Lookuper, error) { return ls.OpenLookup(ctx, keys, spec) }}
		}
	}
	name := x.Table
	load := func(ctx context.Context, cfg runtime.JobConfig, ev *expr.Ctx) ([]*types.Batch, error) {
		coll := runtime.NewCollector(16)
		lb := &builder{g: &runtime.Graph{}, nodes: map[*physical.Node]*runtime.Node{}}
		right := lb.build(x.Right)
		lb.g.AddOperator("Sink(table=[lookup "+name+"])", 1, coll.NewSink, runtime.Edge{From: right, Part: opspec.Single})
		job, err := runtime.Submit(ctx, "lookup "+name, lb.g, cfg, ev, true)
		if err != nil {
			return nil, err
		}
		coll.Attach(job)
		var out []*types.Batch
		for {
			b, err := coll.Next(ctx)
			if err == io.EOF {
				return out, nil
			}
			if err != nil {
				return nil, err
			}
			out = append(out, b)
		}
	}
	return func() runtime.Operator {
		return &runtime.LookupJoin{Kind: x.Kind, NumLeft: x.NumLeft, KeyCols: x.KeyCols, RightKeys: x.RightKeys, RightTypes: x.RightTypes,
			Residual: x.Residual, Load: load}
	}
}

type passThrough struct{ runtime.BaseOperator }

func (p *passThrough) ProcessBatch(_ int, b *types.Batch) error { return p.Emit(b) }

// sourceIdleTimeout is the own idle timeout ('scan.watermark.idle-timeout')
// of the source a WatermarkAssigner node reads, when it has one.
func sourceIdleTimeout(p *physical.Node) (time.Duration, bool) {
	if len(p.Inputs) == 0 {
		return 0, false
	}
	if scan, ok := p.Inputs[0].Op.(*physical.TableSourceScan); ok {
		if it, ok := scan.Source.(connector.IdleTimeoutSource); ok {
			return it.WatermarkIdleTimeout()
		}
	}
	return 0, false
}
