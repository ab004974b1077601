package plan

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
	"github.com/riffle-sql/riffle/engine/opspec"
	"github.com/riffle-sql/riffle/engine/runtime"
	"github.com/riffle-sql/riffle/engine/types"
)

// PhysNode is a node of the physical plan: what EXPLAIN prints and what
// the runtime graph is built from. Exchange nodes describe how rows are
// distributed to the consumer's parallel instances.
type PhysNode struct {
	// Op is Flink's physical operator name: TableSourceScan, Calc,
	// GroupAggregate, HashAggregate, Exchange, Join, HashJoin, Sort,
	// SortLimit, Limit, Rank, Union, Values, WatermarkAssigner, Sink.
	Op string
	// Attrs are the "key=[value]" parts shown in parentheses.
	Attrs  []string
	Inputs []*PhysNode
	Cols   []Column
	// Mode is the node's changelog mode (streaming).
	Mode types.ChangelogMode
	// Parallelism of the operator.
	Parallelism int
	// Exchange: distribution of an Exchange node.
	Dist opspec.Partitioning
	Keys []int

	source  runtime.SourceFunc
	bounded bool
	newOp   func() runtime.Operator
	// upsertKeys are column sets that identify a row of an updating
	// output (Flink's upsert keys); noUpdateBefore asks the operator
	// that produces the updates to leave out -U rows (upsert.go).
	upsertKeys     [][]int
	noUpdateBefore bool
	// normalize describes a ChangelogNormalize node and the Calc that
	// restores a query's columns above it (changelog_normalize.go)
	normalize *normalizeSpec
	// where is a Calc's filter (nil: none)
	where expr.Expr
	// join is a streaming regular join's spec (changelog_normalize.go
	// marks its upsert inputs)
	join *opspec.JoinSpec
	// hidden nodes are left out of EXPLAIN (the key-by in front of an
	// upsert-materializing sink, which Flink adds when translating the
	// sink rather than as a plan node)
	hidden bool
	// rowcount estimate for EXPLAIN ESTIMATED_COST and join ordering
	rows float64
}

// Env is what physical planning needs from the session.
type Env struct {
	Config    *config.Configuration
	Streaming bool
	Stdout    io.Writer
	// Collector receives the rows of a query (SELECT) plan.
	Collector *runtime.Collector
	// Skipped is told of rows skipped by ignore-parse-errors options.
	Skipped func(table string, n int64)
	// CheckPath is the embedding program's file access policy, handed to
	// every connector (connector.Context.CheckPath); nil allows all.
	CheckPath func(path string) error
}

func (e *Env) parallelism() int {
	p := int(e.Config.GetInteger(config.Parallelism.Key, 1))
	if p < 1 {
		p = 1
	}
	return p
}

// planner translates a logical plan.
type planner struct {
	env *Env
	// pushdowns are the scans' sources and what was pushed into them
	// (filter_pushdown.go)
	pushdowns     map[*Scan]*scanPushdown
	filteredScans map[filteredScanKey]*Scan
}

// Physical translates an optimised logical plan into a physical plan. It
// creates the connectors' sources and sinks (so option errors surface at
// planning time) and infers changelog modes, rejecting plans Flink
// rejects (an updating result into an append-only sink, ORDER BY on a
// non-time attribute in streaming mode, ...).
func Physical(n Node, env *Env) (p *PhysNode, err error) {
	defer func() {
		if r := recover(); r != nil {
			if bp, ok := r.(bindPanic); ok {
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
	panic(bindPanic{fmt.Errorf(format, args...)})
}

func (pl *planner) translate(n Node) *PhysNode {
	switch x := n.(type) {
	case *Scan:
		return pl.scan(x)
	case *Values:
		return pl.valuesNode(x)
	case *Project, *Filter:
		return pl.calc(n)
	case *WatermarkAssigner:
		in := pl.translate(x.Input)
		if !pl.env.Streaming {
			// In batch mode Flink ignores watermarks: a batch physical
			// plan has no watermark assigner, and every time-based
			// operator sees the whole bounded input before the final
			// watermark (+inf at end of input), so no row is late.
			return in
		}
		names := Names(in.Cols)
		rowtime := names[x.Rowtime]
		wmExpr := x.Expr
		p := &PhysNode{Op: "WatermarkAssigner", Inputs: []*PhysNode{in}, Cols: x.Columns(), Mode: in.Mode,
			Parallelism: in.Parallelism, rows: in.rows, upsertKeys: in.upsertKeys,
			Attrs: []string{fmt.Sprintf("rowtime=[%s]", rowtime), fmt.Sprintf("watermark=[%s]", named(wmExpr, names))}}
		rt, replay := x.Rowtime, x.Replay
		if replay > 0 {
			p.Attrs = append(p.Attrs, fmt.Sprintf("replaySpeed=[%g]", replay))
		}
		p.newOp = func() runtime.Operator {
			w, err := runtime.NewWatermarkAssigner(wmExpr, rt)
			if err != nil {
				panic(err)
			}
			w.Replay = replay
			return w
		}
		return p
	case *Aggregate:
		return pl.aggregate(x)
	case *Join:
		return pl.join(x)
	case *Sort:
		return pl.sort(x)
	case *Rank:
		return pl.rank(x)
	case *SetOp:
		return pl.setOp(x)
	case *Sink:
		return pl.sink(x)
	case *Correlate:
		return pl.translateCorrelate(x)
	}
	if p := pl.translateStreaming(n); p != nil {
		return p
	}
	pl.fail("cannot plan %T", n)
	return nil
}

// named renders an expression with column names.
func named(e expr.Expr, names []string) string {
	return expr.Rewrite(e, func(x expr.Expr) expr.Expr {
		if r, ok := x.(*expr.InputRef); ok && r.Index < len(names) {
			return &expr.InputRef{Index: r.Index, Name: names[r.Index], T: r.T}
		}
		return x
	}).String()
}

// sourceContext is the connector context of scan s and its batch size
// option (0: the job's).
func (pl *planner) sourceContext(s *Scan) (*connector.Context, int) {
	opts := map[string]string{}
	for k, v := range s.Table.TableOptions {
		opts[k] = v
	}
	for k, v := range s.Options {
		opts[k] = v
	}
	batchSize := 0
	if v, ok := opts[OptBatchSize]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n <= 0 {
			pl.fail("invalid value '%s' for option '%s': expected a positive integer", v, OptBatchSize)
		}
		batchSize = n
	}
	for _, k := range extensionOptions {
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

func (pl *planner) scan(s *Scan) *PhysNode {
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
	var fields []string
	for _, c := range s.Cols {
		fields = append(fields, c.Name)
	}
	table := fmt.Sprintf("table=[[%s, %s, %s", s.ID.Catalog, s.ID.Database, s.ID.Object)
	if parts := pl.prunePartitions(s, src); parts != "" {
		table += ", " + parts
	}
	if sp.filterAttr != "" {
		table += ", " + sp.filterAttr
	}
	if len(s.Projection) < len(phys) {
		var proj []string
		for _, i := range s.Projection {
			proj = append(proj, phys[i].Name)
		}
		table += ", project=[" + strings.Join(proj, ", ") + "]"
	}
	if len(s.Metadata) > 0 {
		table += ", metadata=[" + strings.Join(s.Metadata, ", ") + "]"
	}
	limit, limitAttr := sp.takeLimit(s.Limit)
	if limitAttr != "" {
		table += ", " + limitAttr
	}
	table += "]]"
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
	p := &PhysNode{Op: "TableSourceScan", Attrs: []string{table, "fields=[" + strings.Join(fields, ", ") + "]"},
		Cols: s.Cols, Mode: src.ChangelogMode(), Parallelism: par, bounded: src.Bounded(), rows: 1e8}
	if !pl.env.Streaming {
		p.Mode = types.InsertOnlyMode
	}
	p.source = rebatch(runtime.ConnectorSource(src, spec, func(n int64) {
		if skipped != nil && n > 0 {
			skipped(name, n)
		}
	}), batchSize)
	return pl.changelogScan(orig, s, src, p, key, added)
}

func (pl *planner) valuesNode(v *Values) *PhysNode {
	ts := Types(v.Cols)
	bb := types.NewBatchBuilder(ts)
	var tuples []string
	ectx := &expr.Ctx{Zone: pl.zone()}
	for _, r := range v.Rows {
		row := make([]any, len(r))
		parts := make([]string, len(r))
		for i, e := range r {
			val, err := expr.EvalConst(e, ectx)
			if err != nil {
				pl.fail("%v", err)
			}
			row[i] = val
			parts[i] = e.String()
		}
		if err := bb.Append(types.Insert, row); err != nil {
			pl.fail("%v", err)
		}
		tuples = append(tuples, "{ "+strings.Join(parts, ", ")+" }")
	}
	b := bb.Build()
	if len(ts) == 0 {
		b.Len = len(v.Rows)
	}
	p := &PhysNode{Op: "Values", Attrs: []string{"tuples=[[" + strings.Join(tuples, ", ") + "]]"}, Cols: v.Cols,
		Mode: types.InsertOnlyMode, Parallelism: 1, bounded: true, rows: float64(len(v.Rows))}
	if len(v.Cols) > 0 {
		p.Attrs = append(p.Attrs, "values=["+strings.Join(Names(v.Cols), ", ")+"]")
	}
	p.source = runtime.ValuesSource([]*types.Batch{b})
	return p
}

// calc merges a chain of Project and Filter nodes into one Calc.
func (pl *planner) calc(n Node) *PhysNode {
	var cond []expr.Expr
	var projs []expr.Expr // nil = identity
	cur := n
	for {
		switch x := cur.(type) {
		case *Project:
			if projs == nil {
				// a Project with no columns (pruned to none) is not the
				// identity, which nil means
				projs = append(make([]expr.Expr, 0, len(x.Exprs)), x.Exprs...)
			} else {
				projs = substituteAll(projs, x.Exprs)
			}
			for i, c := range cond {
				cond[i] = substitute(c, x.Exprs)
			}
			cur = x.Input
			continue
		case *Filter:
			cond = append(cond, conjuncts(x.Cond)...)
			cur = x.Input
			continue
		}
		break
	}
	if s, ok := cur.(*Scan); ok && len(cond) > 0 {
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
		where = andOf(cond)
	}
	in, projs, where = pl.pushIntoNormalize(in, projs, where)
	names := Names(in.Cols)
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
	var attrs []string
	if projs != nil {
		parts := make([]string, len(projs))
		for i, e := range projs {
			s := named(e, names)
			if r, ok := e.(*expr.InputRef); !ok || names[r.Index] != cols[i].Name {
				s += " AS " + cols[i].Name
			}
			parts[i] = s
		}
		attrs = append(attrs, "select=["+strings.Join(parts, ", ")+"]")
	} else {
		attrs = append(attrs, "select=["+strings.Join(names, ", ")+"]")
	}
	if where != nil {
		attrs = append(attrs, "where=["+named(where, names)+"]")
	}
	p := &PhysNode{Op: "Calc", Attrs: attrs, Inputs: []*PhysNode{in}, Cols: cols, Mode: in.Mode, Parallelism: in.Parallelism, rows: in.rows}
	if where != nil {
		p.rows = in.rows * selectivity(where)
	}
	p.upsertKeys = calcKeys(in.upsertKeys, projs)
	p.where = where
	ps := projs
	w := where
	p.newOp = func() runtime.Operator {
		c, err := runtime.NewCalc(w, ps)
		if err != nil {
			panic(err)
		}
		return c
	}
	return p
}

func substituteAll(es, by []expr.Expr) []expr.Expr {
	out := make([]expr.Expr, len(es))
	for i, e := range es {
		out[i] = substitute(e, by)
	}
	return out
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

func sameNames(a, b []Column) bool {
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
func (pl *planner) exchange(in *PhysNode, dist opspec.Partitioning, keys []int, par int) *PhysNode {
	if dist == opspec.Forward {
		return in
	}
	names := Names(in.Cols)
	var d string
	switch dist {
	case opspec.Hash:
		var ks []string
		for _, k := range keys {
			ks = append(ks, names[k])
		}
		d = "hash[" + strings.Join(ks, ", ") + "]"
	case opspec.Single:
		d = "single"
	case opspec.Broadcast:
		d = "broadcast"
	default:
		d = strings.ToLower(dist.String())
	}
	return &PhysNode{Op: "Exchange", Attrs: []string{"distribution=[" + d + "]"}, Inputs: []*PhysNode{in},
		Cols: in.Cols, Mode: in.Mode, Parallelism: par, Dist: dist, Keys: keys, rows: in.rows, upsertKeys: in.upsertKeys}
}

func (pl *planner) aggregate(a *Aggregate) *PhysNode {
	in := pl.translate(a.Input)
	inNames := Names(in.Cols)
	par := pl.env.parallelism()
	dist := opspec.Hash
	if len(a.GroupKeys) == 0 {
		par, dist = 1, opspec.Single
	}
	ex := pl.exchange(in, dist, a.GroupKeys, par)
	var keys []string
	for _, k := range a.GroupKeys {
		keys = append(keys, inNames[k])
	}
	sel := append([]string(nil), keys...)
	for i, ag := range a.Aggs {
		sel = append(sel, aggString(ag, inNames)+" AS "+a.Cols[len(a.GroupKeys)+i].Name)
	}
	op := "GroupAggregate"
	attrs := []string{}
	if !pl.env.Streaming {
		op = "HashAggregate"
		attrs = append(attrs, "isMerge=[false]")
	}
	if len(keys) > 0 {
		attrs = append(attrs, "groupBy=["+strings.Join(keys, ", ")+"]")
	}
	attrs = append(attrs, "select=["+strings.Join(sel, ", ")+"]")
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
	keysCopy := append([]int(nil), a.GroupKeys...)
	keyTypes := make([]*types.DataType, len(keysCopy))
	for i, k := range keysCopy {
		keyTypes[i] = in.Cols[k].Type
	}
	aggs := append([]opspec.AggSpec(nil), a.Aggs...)
	outTypes := Types(a.Cols)
	streaming := pl.env.Streaming
	p := &PhysNode{Op: op, Attrs: attrs, Inputs: []*PhysNode{ex}, Cols: a.Cols, Mode: mode, Parallelism: par, rows: max(in.rows/10, 1)}
	if len(keysCopy) == 0 {
		p.rows = 1
	}
	if streaming {
		// the group keys are the first output columns
		key := make([]int, len(keysCopy))
		for i := range key {
			key[i] = i
		}
		p.upsertKeys = [][]int{key}
	}
	p.newOp = func() runtime.Operator {
		return &runtime.GroupAgg{Keys: keysCopy, KeyTypes: keyTypes, Aggs: aggs, OutTypes: outTypes,
			Final: !streaming, Retractable: retractable, NoUpdateBefore: p.noUpdateBefore}
	}
	if !streaming {
		// a DISTINCT/group-by only aggregation over insert-only input in
		// streaming emits inserts: nothing to do in batch
		_ = p
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

func (pl *planner) sort(s *Sort) *PhysNode {
	if len(s.Keys) == 0 && s.Fetch >= 0 {
		pl.pushLimitIntoScan(s.Input, s.Offset+s.Fetch)
	}
	in := pl.translate(s.Input)
	names := Names(in.Cols)
	types_ := Types(in.Cols)
	keys := append([]opspec.SortKey(nil), s.Keys...)
	off, fetch := s.Offset, s.Fetch
	if len(keys) == 0 {
		ex := pl.exchange(in, opspec.Single, nil, 1)
		attrs := []string{fmt.Sprintf("offset=[%d]", off)}
		if fetch >= 0 {
			attrs = append(attrs, fmt.Sprintf("fetch=[%d]", fetch))
		}
		p := &PhysNode{Op: "Limit", Attrs: attrs, Inputs: []*PhysNode{ex}, Cols: in.Cols, Mode: in.Mode, Parallelism: 1, rows: float64(max(fetch, 1))}
		if !in.Mode.IsInsertOnly() {
			pl.fail("LIMIT over an updating input is not supported yet")
		}
		p.newOp = func() runtime.Operator { return &runtime.Limit{Offset: off, Fetch: fetch} }
		return p
	}
	if pl.env.Streaming {
		if fetch < 0 {
			return pl.temporalSort(in, keys, off)
		}
		// ORDER BY ... LIMIT n in streaming is a Top-N without partition
		// keys (Flink's StreamPhysicalSortLimit: all kinds of changes)
		ex := pl.exchange(in, opspec.Single, nil, 1)
		appendOnly := in.Mode.IsInsertOnly()
		p := &PhysNode{Op: "SortLimit", Inputs: []*PhysNode{ex}, Cols: in.Cols, Parallelism: 1,
			Attrs: []string{"orderBy=[" + sortString(keys, names) + "]", fmt.Sprintf("offset=[%d]", off), fmt.Sprintf("fetch=[%d]", fetch),
				"strategy=[" + rankStrategy(appendOnly) + "]"},
			Mode: types.RetractMode, rows: float64(fetch)}
		p.newOp = func() runtime.Operator {
			return &runtime.Rank{Keys: keys, Types: types_, RankStart: off + 1, RankEnd: off + fetch,
				AppendOnly: appendOnly, NoUpdateBefore: p.noUpdateBefore}
		}
		return p
	}
	ex := pl.exchange(in, opspec.Single, nil, 1)
	op := "Sort"
	attrs := []string{"orderBy=[" + sortString(keys, names) + "]"}
	if fetch >= 0 || off > 0 {
		op = "SortLimit"
		attrs = append(attrs, fmt.Sprintf("offset=[%d]", off), fmt.Sprintf("fetch=[%d]", fetch))
	}
	p := &PhysNode{Op: op, Attrs: attrs, Inputs: []*PhysNode{ex}, Cols: in.Cols, Mode: types.InsertOnlyMode, Parallelism: 1, rows: in.rows}
	p.newOp = func() runtime.Operator {
		return &runtime.Sort{Keys: keys, Types: types_, Offset: off, Fetch: fetch}
	}
	return p
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

func (pl *planner) rank(r *Rank) *PhysNode {
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
	names := Names(in.Cols)
	var pk []string
	for _, k := range r.PartitionKeys {
		pk = append(pk, names[k])
	}
	keys := append([]opspec.SortKey(nil), r.Keys...)
	pkeys := append([]int(nil), r.PartitionKeys...)
	ts := Types(in.Cols)
	start, end, withNum := r.RankStart, r.RankEnd, r.WithRankNum
	appendOnly := in.Mode.IsInsertOnly()
	// a streaming Rank may produce every kind of change, whatever its
	// strategy and range (Flink's FlinkChangelogModeInferenceProgram): its
	// Top-1 and ranges with an offset update rows in place (runtime.Rank)
	mode := types.RetractMode
	var attrs []string
	if pl.env.Streaming {
		attrs = append(attrs, "strategy=["+rankStrategy(appendOnly)+"]")
	} else {
		mode = types.InsertOnlyMode
	}
	attrs = append(attrs, "rankType=["+rankType+"]", fmt.Sprintf("rankRange=[rankStart=%d, rankEnd=%d]", start, end),
		"partitionBy=["+strings.Join(pk, ", ")+"]", "orderBy=["+sortString(keys, names)+"]",
		fmt.Sprintf("select=[%s]", strings.Join(Names(r.Cols), ", ")))
	p := &PhysNode{Op: "Rank", Inputs: []*PhysNode{ex}, Cols: r.Cols, Parallelism: par, Attrs: attrs, Mode: mode, rows: in.rows}
	switch {
	case withNum:
		p.upsertKeys = [][]int{append(append([]int(nil), pkeys...), len(in.Cols))}
	case start == 1 && end == 1:
		p.upsertKeys = [][]int{pkeys}
	}
	p.newOp = func() runtime.Operator {
		return &runtime.Rank{PartitionKeys: pkeys, Keys: keys, Types: ts, RankStart: start, RankEnd: end, WithRankNum: withNum,
			RankType: rankType, AppendOnly: appendOnly, NoUpdateBefore: p.noUpdateBefore}
	}
	return p
}

func (pl *planner) setOp(s *SetOp) *PhysNode {
	if s.Kind != UnionOp {
		pl.fail("%s is not supported yet", [...]string{"UNION", "INTERSECT", "EXCEPT"}[s.Kind])
	}
	var ins []*PhysNode
	mode := types.ChangelogMode{}
	rows := 0.0
	par := pl.env.parallelism()
	for _, c := range s.In {
		p := pl.translate(c)
		mode = mode.Union(p.Mode)
		rows += p.rows
		ins = append(ins, pl.exchange(p, opspec.Rebalance, nil, par))
	}
	n := len(ins)
	p := &PhysNode{Op: "Union", Attrs: []string{"all=[true]", "union=[" + strings.Join(Names(s.Cols), ", ") + "]"},
		Inputs: ins, Cols: s.Cols, Mode: mode, Parallelism: par, rows: rows}
	p.newOp = func() runtime.Operator { return runtime.NewUnion(n) }
	return p
}

func (pl *planner) sink(s *Sink) *PhysNode {
	in := pl.translate(s.Input)
	names := Names(in.Cols)
	if s.Collect {
		c := pl.env.Collector
		p := &PhysNode{Op: "Sink", Attrs: []string{"table=[*anonymous_collect$1*]", "fields=[" + strings.Join(names, ", ") + "]"},
			Inputs: []*PhysNode{pl.exchange(in, opspec.Single, nil, 1)}, Cols: in.Cols, Mode: in.Mode, Parallelism: 1, rows: in.rows}
		if c != nil {
			p.newOp = c.NewSink
		}
		return p
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
	in, materialize := pl.sinkUpdates(in, accepted, pk)
	spec := connector.WriteSpec{Overwrite: s.Overwrite, StaticPartitions: s.Static, Bounded: isBounded(in)}
	for _, c := range persisted {
		spec.Names = append(spec.Names, c.Name)
		spec.Types = append(spec.Types, c.Type)
	}
	table := s.ID.String()
	dropNulls := strings.EqualFold(pl.env.Config.GetString(config.SinkNotNullEnforcer.Key, "ERROR"), "DROP")
	par := in.Parallelism
	p := &PhysNode{Op: "Sink", Attrs: []string{"table=[" + s.ID.Summary() + "]", "fields=[" + strings.Join(names, ", ") + "]"},
		Inputs: []*PhysNode{in}, Cols: in.Cols, Mode: in.Mode, Parallelism: par, rows: in.rows}
	if materialize {
		p.Attrs = append(p.Attrs, "upsertMaterialize=[true]")
		p.Mode = withoutUpdateBefore(in.Mode)
		p.Parallelism = in.Parallelism
		keyTypes := make([]*types.DataType, len(pk))
		for i, k := range pk {
			keyTypes[i] = in.Cols[k].Type
		}
		colTypes := Types(in.Cols)
		p.newOp = func() runtime.Operator {
			return &runtime.MaterializingSink{
				Materializer: &runtime.SinkUpsertMaterializer{Keys: pk, KeyTypes: keyTypes, Types: colTypes},
				Sink:         &runtime.ConnectorSink{Sink: sk, Spec: spec, Table: table, DropNulls: dropNulls}}
		}
		return p
	}
	p.newOp = func() runtime.Operator {
		return &runtime.ConnectorSink{Sink: sk, Spec: spec, Table: table, DropNulls: dropNulls}
	}
	return p
}

func isBounded(p *PhysNode) bool {
	if p.source != nil {
		return p.bounded
	}
	for _, in := range p.Inputs {
		if !isBounded(in) {
			return false
		}
	}
	return true
}

func describeTop(p *PhysNode) string {
	// the node that first produced updates
	for len(p.Inputs) == 1 && (p.Op == "Exchange" || p.Op == "Calc") && !p.Inputs[0].Mode.IsInsertOnly() {
		p = p.Inputs[0]
	}
	attrs := p.Attrs
	if p.Op == "Rank" || p.Op == "SortLimit" {
		// Flink reports changelog errors before it picks a rank strategy
		attrs = make([]string, len(p.Attrs))
		for i, a := range p.Attrs {
			if strings.HasPrefix(a, "strategy=[") {
				a = "strategy=[UndefinedStrategy]"
			}
			attrs[i] = a
		}
	}
	return p.Op + "(" + strings.Join(attrs, ", ") + ")"
}

// noRetractError is Flink's planning error for a user-defined aggregate
// function without a retract method over an updating input
// (ImperativeAggCodeGen.checkNeededMethods: "No matching retract method
// found for AggregateFunction ... with parameters ..."), naming the
// function, its argument types and the node producing the changes.
func noRetractError(ag opspec.AggSpec, in *PhysNode) error {
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
