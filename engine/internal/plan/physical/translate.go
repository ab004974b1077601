package physical

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// Env is what physical planning needs from the session.
type Env struct {
	Config    *config.Configuration
	Streaming bool
	Stdout    io.Writer
	// Skipped is told of rows skipped by ignore-parse-errors options.
	Skipped func(table string, n int64)
	// CheckPath is the embedding program's file access policy, handed to
	// every connector (connector.Context.CheckPath); nil allows all.
	CheckPath func(path string) error
}

// parallelism is parallelism.default, the number of cores when the
// session does not set it (config.Configuration.Parallelism).
func (e *Env) parallelism() int { return e.Config.Parallelism() }

// planner translates a logical plan.
// planPanic carries a planning error through the recursive translation
// to Plan.
type planPanic struct{ err error }

type planner struct {
	env *Env
	// pushdowns are the scans' sources and what was pushed into them
	// (filter_pushdown.go)
	pushdowns     map[*plan.Scan]*scanPushdown
	filteredScans map[filteredScanKey]*plan.Scan
}

// Plan translates an optimised logical plan into a physical plan. It
// creates the connectors' sources and sinks (so option errors surface at
// planning time) and infers changelog modes, rejecting plans Flink
// rejects (an updating result into an append-only sink, ORDER BY on a
// non-time attribute in streaming mode, ...).
func Plan(n plan.Node, env *Env) (p *Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			if bp, ok := r.(planPanic); ok {
				p, err = nil, bp.err
				return
			}
			panic(r)
		}
	}()
	pl := &planner{env: env}
	return pl.translate(n), nil
}

// zone is the session time zone (table.local-time-zone).
func (pl *planner) zone() *time.Location {
	if z, err := pl.env.Config.TimeZone(); err == nil && z != nil {
		return z
	}
	return time.UTC
}

func (pl *planner) fail(format string, args ...any) {
	panic(planPanic{fmt.Errorf(format, args...)})
}

func (pl *planner) translate(n plan.Node) *Node {
	switch x := n.(type) {
	case *plan.Scan:
		return pl.scan(x)
	case *plan.Values:
		return pl.valuesNode(x)
	case *plan.Project, *plan.Filter:
		return pl.calc(n)
	case *plan.WatermarkAssigner:
		in := pl.translate(x.Input)
		if !pl.env.Streaming {
			// In batch mode Flink ignores watermarks: a batch physical
			// plan has no watermark assigner, and every time-based
			// operator sees the whole bounded input before the final
			// watermark (+inf at end of input), so no row is late.
			return in
		}
		return &Node{Op: &WatermarkAssigner{Rowtime: x.Rowtime, Watermark: x.Expr, Replay: x.Replay},
			Inputs: []*Node{in}, Cols: x.Columns(), Mode: in.Mode, Parallelism: in.Parallelism, rows: in.rows, upsertKeys: in.upsertKeys}
	case *plan.Aggregate:
		return pl.aggregate(x)
	case *plan.Join:
		return pl.join(x)
	case *plan.Sort:
		return pl.sort(x)
	case *plan.Rank:
		return pl.rank(x)
	case *plan.SetOp:
		return pl.setOp(x)
	case *plan.Sink:
		return pl.sink(x)
	case *plan.Correlate:
		return pl.translateCorrelate(x)
	}
	if p := pl.translateStreaming(n); p != nil {
		return p
	}
	pl.fail("cannot plan %T", n)
	return nil
}

// named renders an expression with column names.
func named(e expr.Expr, names []string) string { return withNames(e, names).String() }

// execNamed renders an expression with column names in the execution
// plan's notation (expr.ExecString).
func execNamed(e expr.Expr, names []string) string { return expr.ExecString(withNames(e, names)) }

// exprAttr is an attribute holding an expression: Calcite's digest in the
// physical plan, the infix form in the execution plan.
func exprAttr(name string, e expr.Expr, names []string) Attr {
	return Attr{Name: name, Value: named(e, names), Exec: execNamed(e, names)}
}

func withNames(e expr.Expr, names []string) expr.Expr {
	return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
		if r, ok := x.(*expr.InputRef); ok && r.Index < len(names) {
			return &expr.InputRef{Index: r.Index, Name: names[r.Index], T: r.T}
		}
		return x
	})
}

// sourceContext is the connector context of scan s and its batch size
// option (0: the job's).
func (pl *planner) sourceContext(s *plan.Scan) (*connector.Context, int) {
	opts := map[string]string{}
	for k, v := range s.Table.TableOptions {
		opts[k] = v
	}
	for k, v := range s.Options {
		opts[k] = v
	}
	batchSize := 0
	if v, ok := opts[plan.OptBatchSize]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n <= 0 {
			pl.fail("invalid value '%s' for option '%s': expected a positive integer", v, plan.OptBatchSize)
		}
		batchSize = n
	}
	for _, k := range plan.ExtensionOptions {
		delete(opts, k)
	}
	stdout := pl.env.Stdout
	if stdout == nil {
		stdout = os.Stdout
	}
	ctx := &connector.Context{Table: s.ID.String(), Schema: s.Table.TableSchema, Options: opts, Config: pl.env.Config, Stdout: stdout, PartitionKeys: s.Table.PartitionKeys,
		CheckPath: pl.env.CheckPath}
	return ctx, batchSize
}

func (pl *planner) scan(s *plan.Scan) *Node {
	sp := pl.scanSource(s)
	src, batchSize := sp.src, sp.batchSize
	if !pl.env.Streaming && !connector.DeclaredBounded(src) {
		pl.fail("Querying an unbounded table '%s' in batch mode is not allowed. The table source is unbounded.", s.ID.Summary())
	}
	// a changelog source may need its key columns read (changelog_normalize.go)
	orig := s
	var key []int
	added := false
	if pl.env.Streaming {
		if ns, k, a, ok := changelogKey(s); ok && (!a || pl.normalizes(src, true)) {
			s, key, added = ns, k, a
		}
	}
	phys := s.Table.TableSchema.Physical()
	var pushed []string
	if parts := pl.prunePartitions(s, src); parts != "" {
		pushed = append(pushed, parts)
	}
	if sp.filterAttr != "" {
		pushed = append(pushed, sp.filterAttr)
	}
	if len(s.Projection) < len(phys) {
		var proj []string
		for _, i := range s.Projection {
			proj = append(proj, phys[i].Name)
		}
		pushed = append(pushed, "project=["+strings.Join(proj, ", ")+"]")
	}
	if len(s.Metadata) > 0 {
		pushed = append(pushed, "metadata=["+strings.Join(s.Metadata, ", ")+"]")
	}
	limit, limitAttr := sp.takeLimit(s.Limit)
	if limitAttr != "" {
		pushed = append(pushed, limitAttr)
	}
	spec := connector.ReadSpec{Columns: s.Projection, Metadata: s.Metadata, Limit: limit}
	name := s.ID.Summary()
	skipped := pl.env.Skipped
	// a source never runs more instances than it has splits: idle
	// instances would make watermarks depend on goroutine timing
	par := pl.env.parallelism()
	if ps, ok := src.(connector.ParallelismSource); ok && ps.ScanParallelism() > 0 {
		par = ps.ScanParallelism() // scan.parallelism
	}
	if splits, err := src.Splits(context.Background()); err == nil && len(splits) < par {
		par = max(1, len(splits))
	}
	op := &TableSourceScan{Table: [3]string{s.ID.Catalog, s.ID.Database, s.ID.Object}, PushedDown: pushed,
		Source: src, Spec: spec, BatchSize: batchSize, Bounded: src.Bounded(), Hints: s.Options, Skipped: func(n int64) {
			if skipped != nil && n > 0 {
				skipped(name, n)
			}
		}}
	p := &Node{Op: op, Cols: s.Cols, Mode: src.ChangelogMode(), Parallelism: par, rows: 1e8}
	if !pl.env.Streaming {
		p.Mode = types.InsertOnlyMode
	}
	return pl.changelogScan(orig, s, src, p, key, added)
}

func (pl *planner) valuesNode(v *plan.Values) *Node {
	ts := plan.Types(v.Cols)
	bb := types.NewBatchBuilder(ts)
	ectx := &expr.Ctx{Zone: pl.zone()}
	for _, r := range v.Rows {
		row := make([]any, len(r))
		for i, e := range r {
			val, err := expr.EvalConst(e, ectx)
			if err != nil {
				pl.fail("%v", err)
			}
			row[i] = val
		}
		if err := bb.Append(types.Insert, row); err != nil {
			pl.fail("%v", err)
		}
	}
	b := bb.Build()
	if len(ts) == 0 {
		b.Len = len(v.Rows)
	}
	return &Node{Op: &Values{Rows: v.Rows, Batch: b, Streaming: pl.env.Streaming}, Cols: v.Cols, Mode: types.InsertOnlyMode, Parallelism: 1, rows: float64(len(v.Rows))}
}

// calc merges a chain of Project and Filter nodes into one Calc.
func (pl *planner) calc(n plan.Node) *Node {
	var cond []expr.Expr
	var projs []expr.Expr // nil = identity
	cur := n
	for {
		switch x := cur.(type) {
		case *plan.Project:
			if projs == nil {
				// a Project with no columns (pruned to none) is not the
				// identity, which nil means
				projs = append(make([]expr.Expr, 0, len(x.Exprs)), x.Exprs...)
			} else {
				projs = plan.SubstituteAll(projs, x.Exprs)
			}
			for i, c := range cond {
				cond[i] = plan.Substitute(c, x.Exprs)
			}
			cur = x.Input
			continue
		case *plan.Filter:
			cond = append(cond, plan.Conjuncts(x.Cond)...)
			cur = x.Input
			continue
		}
		break
	}
	if s, ok := cur.(*plan.Scan); ok && len(cond) > 0 {
		before := len(cond)
		s, cond = pl.pushFiltersIntoScan(s, cond)
		cur = s
		if len(cond) < before {
			cur, cond, projs = pl.narrowScan(s, cond, projs)
		}
	}
	in := pl.translate(cur)
	var where expr.Expr
	if len(cond) > 0 {
		where = plan.AndOf(cond)
	}
	in, projs, where = pl.pushIntoNormalize(in, projs, where)
	cols := n.Columns()
	// identity projection over the input?
	if projs != nil && isIdentity(projs, len(in.Cols)) {
		projs = nil
	}
	if projs == nil && where == nil {
		if sameNames(cols, in.Cols) {
			return in
		}
	}
	p := pl.calcNode(in, cols, projs, where, nil)
	if where != nil {
		p.rows = in.rows * selectivity(where)
	}
	return p
}

func isIdentity(projs []expr.Expr, n int) bool {
	if len(projs) != n {
		return false
	}
	for i, e := range projs {
		r, ok := e.(*expr.InputRef)
		if !ok || r.Index != i {
			return false
		}
	}
	return true
}

func sameNames(a, b []plan.Column) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Name != b[i].Name {
			return false
		}
	}
	return true
}

// exchange inserts an Exchange distributing input rows to a consumer of
// the given parallelism.
func (pl *planner) exchange(in *Node, dist opspec.Partitioning, keys []int, par int) *Node {
	if dist == opspec.Forward {
		return in
	}
	return &Node{Op: &Exchange{Dist: dist, Keys: keys}, Inputs: []*Node{in},
		Cols: in.Cols, Mode: in.Mode, Parallelism: par, rows: in.rows, upsertKeys: in.upsertKeys}
}

func (pl *planner) aggregate(a *plan.Aggregate) *Node {
	return pl.aggregateOver(pl.translate(a.Input), &plan.Aggregate{GroupKeys: a.GroupKeys, Aggs: a.Aggs, Cols: a.Cols})
}

// aggregateOver plans aggregate a over its translated input in (a's Input
// is not read).
func (pl *planner) aggregateOver(in *Node, a *plan.Aggregate) *Node {
	if p := pl.aggPhases(in, a.GroupKeys, a.Aggs, a.Cols); p != nil {
		return p
	}
	par := pl.env.parallelism()
	dist := opspec.Hash
	if len(a.GroupKeys) == 0 {
		par, dist = 1, opspec.Single
	}
	ex := pl.exchange(in, dist, a.GroupKeys, par)
	retractable := !in.Mode.IsInsertOnly()
	mode := types.InsertOnlyMode
	if pl.env.Streaming {
		mode = types.ChangelogModeOf(types.Insert, types.UpdateBefore, types.UpdateAfter)
		if retractable {
			mode = types.RetractMode
		}
		if len(a.Aggs) == 0 && !retractable {
			// SELECT DISTINCT over insert-only input only inserts
			mode = types.InsertOnlyMode
		}
	}
	if pl.env.Streaming {
		for _, ag := range a.Aggs {
			if retractable && !expr.CanRetract(ag.Fn) {
				pl.fail("%s", noRetractError(ag, in))
			}
		}
	}
	op := &GroupAggregate{Keys: append([]int(nil), a.GroupKeys...), Aggs: append([]opspec.AggSpec(nil), a.Aggs...),
		Streaming: pl.env.Streaming, Retractable: retractable}
	p := &Node{Op: op, Inputs: []*Node{ex}, Cols: a.Cols, Mode: mode, Parallelism: par, rows: max(in.rows/10, 1)}
	if len(a.GroupKeys) == 0 {
		p.rows = 1
	}
	if pl.env.Streaming {
		// the group keys are the first output columns
		key := make([]int, len(a.GroupKeys))
		for i := range key {
			key[i] = i
		}
		p.upsertKeys = [][]int{key}
	}
	return p
}

func sortString(keys []opspec.SortKey, names []string) string {
	var parts []string
	for _, k := range keys {
		dir := "ASC"
		if k.Desc {
			dir = "DESC"
		}
		parts = append(parts, names[k.Col]+" "+dir)
	}
	return strings.Join(parts, ", ")
}

func (pl *planner) sort(s *plan.Sort) *Node {
	if len(s.Keys) == 0 && s.Fetch >= 0 {
		pl.pushLimitIntoScan(s.Input, s.Offset+s.Fetch)
	}
	in := pl.translate(s.Input)
	keys := append([]opspec.SortKey(nil), s.Keys...)
	off, fetch := s.Offset, s.Fetch
	if len(keys) == 0 {
		ex := pl.exchange(in, opspec.Single, nil, 1)
		p := &Node{Op: &Limit{Offset: off, Fetch: fetch}, Inputs: []*Node{ex}, Cols: in.Cols, Mode: in.Mode, Parallelism: 1, rows: float64(max(fetch, 1))}
		if !in.Mode.IsInsertOnly() {
			pl.fail("LIMIT over an updating input is not supported yet")
		}
		return p
	}
	if pl.env.Streaming {
		if fetch < 0 {
			return pl.temporalSort(in, keys, off)
		}
		// ORDER BY ... LIMIT n in streaming is a Top-N without partition
		// keys (Flink's StreamPhysicalSortLimit: all kinds of changes)
		ex := pl.exchange(in, opspec.Single, nil, 1)
		return &Node{Op: &SortLimit{Keys: keys, Offset: off, Fetch: fetch, AppendOnly: in.Mode.IsInsertOnly()},
			Inputs: []*Node{ex}, Cols: in.Cols, Parallelism: 1, Mode: types.RetractMode, rows: float64(fetch)}
	}
	ex := pl.exchange(in, opspec.Single, nil, 1)
	return &Node{Op: &Sort{Keys: keys, Offset: off, Fetch: fetch}, Inputs: []*Node{ex}, Cols: in.Cols, Mode: types.InsertOnlyMode, Parallelism: 1, rows: in.rows}
}

// rankStrategy names Flink's RankProcessStrategy for a streaming Rank or
// SortLimit: AppendFastStrategy over insert-only input, RetractStrategy
// otherwise. (Flink picks UpdateFastStrategy over an updating input whose
// upsert key holds the partition key and whose sort keys are monotonic,
// e.g. ORDER BY COUNT(*) DESC over a GROUP BY of a table; Riffle has no
// monotonicity analysis and retracts there.)
func rankStrategy(appendOnly bool) string {
	if appendOnly {
		return "AppendFastStrategy"
	}
	return "RetractStrategy"
}

func (pl *planner) rank(r *plan.Rank) *Node {
	in := pl.translate(r.Input)
	if p := pl.deduplicate(r, in); p != nil {
		return p
	}
	rankType := r.RankType
	if rankType == "" {
		rankType = "ROW_NUMBER"
	}
	if pl.env.Streaming && rankType != "ROW_NUMBER" {
		pl.fail("%s() is not supported in streaming Top-N queries; only ROW_NUMBER() is.", rankType)
	}
	par := pl.env.parallelism()
	dist := opspec.Hash
	if len(r.PartitionKeys) == 0 {
		par, dist = 1, opspec.Single
	}
	ex := pl.exchange(in, dist, r.PartitionKeys, par)
	pkeys := append([]int(nil), r.PartitionKeys...)
	start, end, withNum := r.RankStart, r.RankEnd, r.WithRankNum
	// a streaming Rank may produce every kind of change, whatever its
	// strategy and range (Flink's FlinkChangelogModeInferenceProgram): its
	// Top-1 and ranges with an offset update rows in place (runtime.Rank)
	mode := types.RetractMode
	if !pl.env.Streaming {
		mode = types.InsertOnlyMode
	}
	op := &Rank{PartitionKeys: pkeys, Keys: append([]opspec.SortKey(nil), r.Keys...), RankType: rankType, RankStart: start, RankEnd: end,
		WithRankNum: withNum, AppendOnly: in.Mode.IsInsertOnly(), Streaming: pl.env.Streaming}
	p := &Node{Op: op, Inputs: []*Node{ex}, Cols: r.Cols, Parallelism: par, Mode: mode, rows: in.rows}
	switch {
	case withNum:
		p.upsertKeys = [][]int{append(append([]int(nil), pkeys...), len(in.Cols))}
	case start == 1 && end == 1:
		p.upsertKeys = [][]int{pkeys}
	}
	return p
}

func (pl *planner) setOp(s *plan.SetOp) *Node {
	if s.Kind != plan.UnionOp {
		pl.fail("%s is not supported yet", [...]string{"UNION", "INTERSECT", "EXCEPT"}[s.Kind])
	}
	var ins []*Node
	mode := types.ChangelogMode{}
	rows := 0.0
	par := pl.env.parallelism()
	for _, c := range s.In {
		p := pl.translate(c)
		mode = mode.Union(p.Mode)
		rows += p.rows
		ins = append(ins, pl.unionInput(p, par))
	}
	return &Node{Op: &Union{}, Inputs: ins, Cols: s.Cols, Mode: mode, Parallelism: par, rows: rows}
}

// unionInput is the edge from p into a union of parallelism par: a
// rebalance (forward at equal parallelism, see jobgraph), except for an
// updating input of another parallelism, whose changes of one row must
// stay in order on one path: hashed by its upsert key, or by every column
// (a row's retraction carries the values of the row it retracts), which
// EXPLAIN does not show.
func (pl *planner) unionInput(p *Node, par int) *Node {
	if p.Mode.IsInsertOnly() || p.Parallelism == par {
		return pl.exchange(p, opspec.Rebalance, nil, par)
	}
	keys := make([]int, len(p.Cols))
	for i := range keys {
		keys[i] = i
	}
	if len(p.upsertKeys) > 0 {
		keys = p.upsertKeys[0]
	}
	ex := pl.exchange(p, opspec.Hash, keys, par)
	ex.hidden = true // as the rebalance it stands for (Flink's union has no edge of its own)
	return ex
}

func (pl *planner) sink(s *plan.Sink) *Node {
	in := pl.translate(s.Input)
	if s.Collect {
		return &Node{Op: &Sink{Table: "*anonymous_collect$1*", Collect: true},
			Inputs: []*Node{pl.exchange(in, opspec.Single, nil, 1)}, Cols: in.Cols, Mode: in.Mode, Parallelism: 1, rows: in.rows}
	}
	stdout := pl.env.Stdout
	if stdout == nil {
		stdout = os.Stdout
	}
	ctx := &connector.Context{Table: s.ID.String(), Schema: s.Table.TableSchema, Options: s.Table.TableOptions, Config: pl.env.Config, Stdout: stdout, PartitionKeys: s.Table.PartitionKeys,
		CheckPath: pl.env.CheckPath}
	sk, err := connector.CreateSink(ctx)
	if err != nil {
		pl.fail("%v", err)
	}
	if s.Overwrite {
		ow, ok := sk.(connector.OverwriteSink)
		if !ok {
			pl.fail("INSERT OVERWRITE requires that the underlying DynamicTableSink of table '%s' implements the SupportsOverwrite interface.", s.ID.Summary())
		}
		if err := ow.CheckOverwrite(!pl.env.Streaming); err != nil {
			pl.fail("%v", err)
		}
	}
	accepted := sk.ChangelogMode(in.Mode)
	for _, k := range in.Mode.Kinds() {
		// a sink taking +U but not -U is an upsert sink: -U rows that
		// cannot be left out reach it and are ignored (upsert.go)
		if !accepted.Contains(k) && !(k == types.UpdateBefore && accepted.Contains(types.UpdateAfter)) {
			pl.fail("Table sink '%s' doesn't support consuming %s which is produced by node %s", s.ID.Summary(), changesOf(in.Mode), describeTop(in))
		}
	}
	var persisted []types.Column
	for _, c := range s.Table.TableSchema.Columns {
		if c.IsPersisted() {
			persisted = append(persisted, c)
		}
	}
	var pk []int
	if key := s.Table.TableSchema.PrimaryKey; key != nil {
		for _, name := range key.Columns {
			for i, c := range persisted {
				if strings.EqualFold(c.Name, name) && i < len(in.Cols) {
					pk = append(pk, i)
				}
			}
		}
	}
	pl.checkUpsertKeyConflict(in, s, accepted, pk, persisted)
	// 'sink.parallelism' (Flink's CommonExecSink: an updating input needs
	// the primary key to reach the same writer when the counts differ)
	configured := 0
	if _, ok := sk.(connector.ParallelismSink); ok {
		// the option as set (a print sink's Parallelism falls back to
		// parallelism.default, which is no configured parallelism)
		if v, err := strconv.Atoi(strings.TrimSpace(s.Table.TableOptions["sink.parallelism"])); err == nil && v > 0 {
			configured = v
		}
	}
	if configured > 0 && configured != in.Parallelism && !in.Mode.IsInsertOnly() && len(pk) == 0 {
		pl.fail("The sink for table '%s' has a configured parallelism of %d, while the input parallelism is %d. Since the configured parallelism is different from the input's parallelism and the changelog mode is not insert-only, a primary key is required but could not be found.",
			s.ID.Summary(), configured, in.Parallelism)
	}
	in, materialize := pl.sinkUpdates(in, accepted, pk, configured)
	if configured > 0 && in.Parallelism != configured {
		// not shown by EXPLAIN: Flink adds it when it translates the sink
		ex := pl.exchange(in, opspec.Rebalance, nil, configured)
		if !in.Mode.IsInsertOnly() {
			ex = pl.exchange(in, opspec.Hash, pk, configured)
		}
		ex.hidden = true
		in = ex
	}
	spec := connector.WriteSpec{Overwrite: s.Overwrite, StaticPartitions: s.Static, Bounded: isBounded(in)}
	for _, c := range persisted {
		spec.Names = append(spec.Names, c.Name)
		spec.Types = append(spec.Types, c.Type)
	}
	dropNulls := strings.EqualFold(pl.env.Config.GetString(config.SinkNotNullEnforcer.Key, "ERROR"), "DROP")
	op := &Sink{Table: s.ID.Summary(), ID: s.ID.String(), Sink: sk, Spec: spec, DropNulls: dropNulls}
	p := &Node{Op: op, Inputs: []*Node{in}, Cols: in.Cols, Mode: in.Mode, Parallelism: in.Parallelism, rows: in.rows}
	if materialize {
		op.Materialize, op.Key = true, pk
		p.Mode = withoutUpdateBefore(in.Mode)
	}
	return p
}

func isBounded(p *Node) bool {
	if p.IsSource() {
		return p.Bounded()
	}
	for _, in := range p.Inputs {
		if !isBounded(in) {
			return false
		}
	}
	return true
}

func describeTop(p *Node) string {
	// the node that first produced updates
	for len(p.Inputs) == 1 && (isOp[*Exchange](p) || isOp[*Calc](p)) && !p.Inputs[0].Mode.IsInsertOnly() {
		p = p.Inputs[0]
	}
	attrs := p.Attrs()
	switch p.Op.(type) {
	case *Rank, *SortLimit:
		// Flink reports changelog errors before it picks a rank strategy
		for i, a := range attrs {
			if a.Name == "strategy" {
				attrs[i].Value = "UndefinedStrategy"
			}
		}
	}
	return describeAttrs(p.Name(), attrs)
}

// noRetractError is Flink's planning error for a user-defined aggregate
// function without a retract method over an updating input
// (ImperativeAggCodeGen.checkNeededMethods: "No matching retract method
// found for AggregateFunction ... with parameters ..."), naming the
// function, its argument types and the node producing the changes.
func noRetractError(ag opspec.AggSpec, in *Node) error {
	kind := "AggregateFunction"
	if ag.Fn.Kind == expr.TableAggregateKind {
		kind = "TableAggregateFunction"
	}
	args := make([]string, len(ag.ArgTypes))
	for i, t := range ag.ArgTypes {
		args[i] = t.String()
	}
	return fmt.Errorf("No matching retract method found for %s '%s' with parameters '(%s)'. "+
		"The aggregation consumes %s produced by node %s; implement table.RetractableFunction to aggregate an updating input",
		kind, ag.Fn.Name, strings.Join(args, ", "), changesOf(in.Mode), describeTop(in))
}

// translateCorrelate plans a Correlate node.
func (pl *planner) translateCorrelate(c *plan.Correlate) *Node {
	in := pl.translate(c.Input)
	return &Node{Op: &Correlate{Call: c.Call, Left: c.Left, Cond: c.Cond}, Inputs: []*Node{in}, Cols: c.Cols, Mode: in.Mode,
		Parallelism: in.Parallelism, rows: in.rows * 2}
}
