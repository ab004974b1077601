package physical

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// Filter and limit pushdown into table sources (Flink's
// PushFilterIntoTableSourceScanRule and PushLimitIntoTableSourceScanRule).
// Both need the source itself, so they happen during physical translation:
// the planner creates each scan's source once (scanSource), offers it the
// conjuncts of the Filter directly above the scan (calc) and the fetch of
// a LIMIT directly above (sort). Lookup joins use the same sources
// (lookup_join.go).

// scanPushdown is what physical planning pushed into one scan's source.
type scanPushdown struct {
	src       connector.Source
	ctx       *connector.Context
	batchSize int
	// filters: the EXPLAIN attribute of the accepted filters ("" when
	// none was offered) and the exact conjuncts by their rendering
	// (removed from the Filter above)
	filterAttr string
	exact      map[string]bool
	// limit is the number of rows every split may stop after, for the
	// next translation of the scan (-1: none; takeLimit)
	limit int64
}

// scanSource creates the source of scan node s once: pushdowns and the
// scan's translation then share one source instance.
func (pl *planner) scanSource(s *plan.Scan) *scanPushdown {
	if sp, ok := pl.pushdowns[s]; ok {
		return sp
	}
	ctx, batchSize := pl.sourceContext(s)
	src, err := connector.CreateSource(ctx)
	if err != nil {
		pl.fail("%v", err)
	}
	sp := &scanPushdown{src: src, ctx: ctx, batchSize: batchSize, limit: -1}
	if pl.pushdowns == nil {
		pl.pushdowns = map[*plan.Scan]*scanPushdown{}
	}
	pl.pushdowns[s] = sp
	return sp
}

// scanPhysIndexes maps a scan's output columns to physical column indexes
// (-1 for metadata columns).
func scanPhysIndexes(s *plan.Scan) []int {
	phys := s.Table.TableSchema.Physical()
	toPhys := make([]int, len(s.Cols))
	for i := range toPhys {
		toPhys[i] = -1
		switch {
		case s.Projection == nil && i < len(phys):
			toPhys[i] = i
		case i < len(s.Projection):
			toPhys[i] = s.Projection[i]
		}
	}
	return toPhys
}

// pushFiltersIntoScan offers the conjuncts conds of the Filter directly
// above scan s (over its output columns) to a source implementing
// connector.FilterSource. It returns the scan to translate, a copy of s
// with a source of its own (a scan node shared by several parts of a plan
// must not share a filtered source), and the conjuncts the Filter must
// still evaluate: all but those the source evaluates exactly. ApplyFilters
// is called once per source; translating the same Filter again reuses the
// answer. Changelog sources in streaming mode are left alone: a filter
// below their normalization would drop updates.
func (pl *planner) pushFiltersIntoScan(s *plan.Scan, conds []expr.Expr) (*plan.Scan, []expr.Expr) {
	parts := make([]string, len(conds))
	for i, c := range conds {
		parts[i] = c.String()
	}
	key := filteredScanKey{s, strings.Join(parts, "\x00")}
	if ns, ok := pl.filteredScans[key]; ok {
		return ns, pl.pushdowns[ns].remaining(conds)
	}
	ns := *s
	sp := pl.scanSource(&ns)
	if pl.filteredScans == nil {
		pl.filteredScans = map[filteredScanKey]*plan.Scan{}
	}
	pl.filteredScans[key] = &ns
	fs, ok := sp.src.(connector.FilterSource)
	if !ok || pl.env.Streaming && !sp.src.ChangelogMode().IsInsertOnly() {
		return &ns, conds
	}
	pc := &predicateConverter{phys: s.Table.TableSchema.Physical(), toPhys: scanPhysIndexes(s), ev: &expr.Ctx{Zone: pl.zone()}}
	var offered []*connector.Predicate
	var offeredExprs []expr.Expr
	for _, c := range conds {
		if !expr.IsDeterministic(c) {
			continue
		}
		if p := pc.convert(c); p != nil {
			offered = append(offered, p)
			offeredExprs = append(offeredExprs, c)
		}
	}
	if len(offered) == 0 {
		return &ns, conds
	}
	exact := fs.ApplyFilters(offered)
	if len(exact) != len(offered) {
		pl.fail("connector of table %s answered %d filters for the %d offered", s.ID.Summary(), len(exact), len(offered))
	}
	accepted := make([]bool, len(offered))
	for i := range accepted {
		accepted[i] = true
	}
	if fa, ok := sp.src.(connector.FilterAccepter); ok {
		if a := fa.AcceptedFilters(); len(a) == len(offered) {
			accepted = a
		}
	}
	names := plan.Names(s.Cols)
	sp.exact = map[string]bool{}
	var shown []expr.Expr
	for i, c := range offeredExprs {
		if exact[i] {
			sp.exact[c.String()] = true
		}
		if accepted[i] || exact[i] {
			shown = append(shown, c)
		}
	}
	// Flink prints filter=[] when the source took none of the offered
	// filters, and one conjunction of those it took
	sp.filterAttr = "filter=[]"
	if len(shown) > 0 {
		sp.filterAttr = "filter=[" + named(plan.AndOf(shown), names) + "]"
	}
	return &ns, sp.remaining(conds)
}

// filteredScanKey identifies a scan under a Filter's conjuncts.
type filteredScanKey struct {
	s     *plan.Scan
	conds string
}

// remaining drops the conjuncts the source evaluates exactly.
func (sp *scanPushdown) remaining(conds []expr.Expr) []expr.Expr {
	var out []expr.Expr
	for _, c := range conds {
		if !sp.exact[c.String()] {
			out = append(out, c)
		}
	}
	return out
}

// pushLimitIntoScan hands the fetch of a LIMIT (offset + fetch rows) to
// the scan below n when nothing between them changes the number of rows:
// projections, and filters the source evaluates exactly (Flink's batch and
// stream rule sets both push limits; a changelog source in streaming mode
// is left alone, its later rows may update earlier ones). The source's
// readers may stop after n rows each; the Limit above stays (each split
// stops on its own).
func (pl *planner) pushLimitIntoScan(n plan.Node, limit int64) {
	if limit <= 0 {
		return
	}
	var conds []expr.Expr
	cur := n
	for {
		switch x := cur.(type) {
		case *plan.Project:
			for i, c := range conds {
				conds[i] = plan.Substitute(c, x.Exprs)
			}
			cur = x.Input
			continue
		case *plan.Filter:
			conds = append(conds, plan.Conjuncts(x.Cond)...)
			cur = x.Input
			continue
		}
		break
	}
	s, ok := cur.(*plan.Scan)
	if !ok {
		return
	}
	if len(conds) > 0 {
		ns, rest := pl.pushFiltersIntoScan(s, conds)
		if len(rest) > 0 {
			return
		}
		s = ns
	}
	sp := pl.scanSource(s)
	if pl.env.Streaming && !sp.src.ChangelogMode().IsInsertOnly() {
		return
	}
	if sp.limit < 0 || limit < sp.limit {
		sp.limit = limit
	}
}

// takeLimit returns the limit pushed for this translation of the scan
// (def when none) and its EXPLAIN attribute: shown only for a source that
// applies it (connector.LimitSource), as Flink shows it only for sources
// supporting limit pushdown. The limit is consumed: another translation
// of the same scan node (a shared subplan) reads without it.
func (sp *scanPushdown) takeLimit(def int64) (int64, string) {
	l := sp.limit
	if l < 0 {
		return def, ""
	}
	sp.limit = -1
	if ls, ok := sp.src.(connector.LimitSource); ok && ls.AppliesLimit() {
		return l, fmt.Sprintf("limit=[%d]", l)
	}
	return l, ""
}

// predicateConverter translates planner conditions over a scan's output
// columns into connector predicates over physical columns.
type predicateConverter struct {
	phys   []types.Column
	toPhys []int
	ev     *expr.Ctx
}

var flippedOps = map[string]connector.PredicateOp{
	"=": connector.OpEq, "<>": connector.OpNotEq, "<": connector.OpGreater, "<=": connector.OpGreaterEq,
	">": connector.OpLess, ">=": connector.OpLessEq,
}

var compareOps = map[string]connector.PredicateOp{
	"=": connector.OpEq, "<>": connector.OpNotEq, "<": connector.OpLess, "<=": connector.OpLessEq,
	">": connector.OpGreater, ">=": connector.OpGreaterEq,
}

// convert returns the predicate of e, or nil when e cannot be expressed:
// comparisons of a physical column with a constant (either order), IS
// [NOT] NULL, IN lists and LIKE with a constant pattern, and AND, OR and
// NOT of those. A column may be under a cast that loses nothing (INT to
// BIGINT, DECIMAL(5, 2) to DECIMAL(12, 2), ...); a constant must convert
// to the column's type and back unchanged, and never be NULL.
func (pc *predicateConverter) convert(e expr.Expr) *connector.Predicate {
	c, ok := e.(*expr.Call)
	if !ok {
		return nil
	}
	switch c.Name {
	case "AND", "OR":
		op := connector.OpAnd
		if c.Name == "OR" {
			op = connector.OpOr
		}
		p := &connector.Predicate{Op: op}
		for _, a := range c.Args {
			ap := pc.convert(a)
			if ap == nil {
				return nil
			}
			p.Args = append(p.Args, ap)
		}
		return p
	case "NOT":
		if len(c.Args) != 1 {
			return nil
		}
		if ap := pc.convert(c.Args[0]); ap != nil {
			return &connector.Predicate{Op: connector.OpNot, Args: []*connector.Predicate{ap}}
		}
	case "IS NULL", "IS NOT NULL":
		if len(c.Args) != 1 {
			return nil
		}
		col, _, ok := pc.column(c.Args[0])
		if !ok {
			return nil
		}
		op := connector.OpIsNull
		if c.Name == "IS NOT NULL" {
			op = connector.OpIsNotNull
		}
		return &connector.Predicate{Op: op, Column: col, Name: pc.phys[col].Name}
	case "=", "<>", "<", "<=", ">", ">=":
		if len(c.Args) != 2 {
			return nil
		}
		op := compareOps[c.Name]
		colSide, constSide := c.Args[0], c.Args[1]
		if _, _, ok := pc.column(colSide); !ok {
			colSide, constSide, op = c.Args[1], c.Args[0], flippedOps[c.Name]
		}
		col, viewT, ok := pc.column(colSide)
		if !ok {
			return nil
		}
		v, ok := pc.constant(constSide, col, viewT)
		if !ok {
			return nil
		}
		return &connector.Predicate{Op: op, Column: col, Name: pc.phys[col].Name, Value: v}
	case "IN":
		if len(c.Args) < 2 {
			return nil
		}
		col, viewT, ok := pc.column(c.Args[0])
		if !ok {
			return nil
		}
		p := &connector.Predicate{Op: connector.OpIn, Column: col, Name: pc.phys[col].Name}
		for _, a := range c.Args[1:] {
			v, ok := pc.constant(a, col, viewT)
			if !ok {
				return nil
			}
			p.Values = append(p.Values, v)
		}
		return p
	case "LIKE", "NOT LIKE":
		if len(c.Args) != 2 {
			return nil // an ESCAPE clause is not offered
		}
		col, viewT, ok := pc.column(c.Args[0])
		if !ok || !pc.phys[col].Type.IsString() || !viewT.IsString() {
			return nil
		}
		v, ok := pc.constant(c.Args[1], col, viewT)
		if !ok {
			return nil
		}
		p := &connector.Predicate{Op: connector.OpLike, Column: col, Name: pc.phys[col].Name, Value: v}
		if c.Name == "NOT LIKE" {
			p = &connector.Predicate{Op: connector.OpNot, Args: []*connector.Predicate{p}}
		}
		return p
	}
	return nil
}

// column resolves e to a physical column, through lossless casts: the
// column's index and the type e has (the cast's target).
func (pc *predicateConverter) column(e expr.Expr) (int, *types.DataType, bool) {
	switch x := e.(type) {
	case *expr.InputRef:
		if x.Index < 0 || x.Index >= len(pc.toPhys) || pc.toPhys[x.Index] < 0 {
			return 0, nil, false
		}
		col := pc.toPhys[x.Index]
		t := pc.phys[col].Type
		if !pushableType(t) {
			return 0, nil, false
		}
		return col, t, true
	case *expr.Call:
		if x.Name != "CAST" || len(x.Args) < 1 {
			return 0, nil, false
		}
		col, from, ok := pc.column(x.Args[0])
		if !ok || !losslessCast(from, x.T) {
			return 0, nil, false
		}
		return col, x.T, true
	}
	return 0, nil, false
}

// constant evaluates a constant e (seen through a column viewed as viewT)
// to a Go value of physical column col's type; false when e is not
// constant, NULL, or changes when converted to the column's type and back.
func (pc *predicateConverter) constant(e expr.Expr, col int, viewT *types.DataType) (any, bool) {
	if !expr.IsConstant(e) {
		return nil, false
	}
	v, err := expr.EvalConst(e, pc.ev)
	if err != nil || v == nil {
		return nil, false
	}
	lt := e.Type()
	if !viewT.EqualsIgnoreNull(pc.phys[col].Type) && !lt.EqualsIgnoreNull(viewT) {
		// a cast column compared in yet another type: not obvious
		return nil, false
	}
	ct := pc.phys[col].Type
	cv, err := expr.CastValue(v, lt, ct, pc.ev.Zone)
	if err != nil || cv == nil {
		return nil, false
	}
	back, err := expr.CastValue(cv, ct, lt, pc.ev.Zone)
	if err != nil || back == nil || !pc.equal(back, v, lt) {
		return nil, false
	}
	return cv, true
}

// equal compares two values of type t with SQL '='.
func (pc *predicateConverter) equal(a, b any, t *types.DataType) bool {
	f, ok := expr.Builtins.Lookup("=")
	if !ok {
		return false
	}
	call, err := expr.ResolveCall(f, "=", []expr.Expr{expr.NewLiteral(a, t), expr.NewLiteral(b, t)})
	if err != nil {
		return false
	}
	v, err := expr.EvalConst(call, pc.ev)
	return err == nil && v == true
}

// pushableType reports whether a column of type t can be offered: types
// whose values a database or file statistics compare the same way
// (not CHAR, whose padding databases treat differently, nor binary and
// structured types).
func pushableType(t *types.DataType) bool {
	switch t.Root {
	case types.VarChar, types.Boolean, types.DecimalRoot, types.TinyInt, types.SmallInt, types.Integer, types.BigInt,
		types.Float, types.Double, types.DateRoot, types.TimeRoot, types.TimestampRoot, types.TimestampLTZRoot:
		return true
	}
	return false
}

// integralDigits is the number of decimal digits of the integral types.
var integralDigits = map[types.TypeRoot]int{types.TinyInt: 3, types.SmallInt: 5, types.Integer: 10, types.BigInt: 19}

// losslessCast reports whether casting from to to keeps every value and
// its order: integer widening, integers into wide enough decimals or
// doubles, FLOAT to DOUBLE, wider decimals, longer VARCHARs and timestamps
// of higher precision.
func losslessCast(from, to *types.DataType) bool {
	if from.EqualsIgnoreNull(to) {
		return true
	}
	switch {
	case from.IsIntegral() && to.IsIntegral():
		return integralDigits[to.Root] >= integralDigits[from.Root]
	case from.IsIntegral() && to.Root == types.DecimalRoot:
		return to.Precision-to.Scale >= integralDigits[from.Root]
	case from.IsIntegral() && to.Root == types.Double:
		return from.Root != types.BigInt
	case from.IsIntegral() && to.Root == types.Float:
		return from.Root == types.TinyInt || from.Root == types.SmallInt
	case from.Root == types.Float && to.Root == types.Double:
		return true
	case from.Root == types.DecimalRoot && to.Root == types.DecimalRoot:
		return to.Scale >= from.Scale && to.Precision-to.Scale >= from.Precision-from.Scale
	case from.Root == types.VarChar && to.Root == types.VarChar:
		return to.Length >= from.Length
	case from.Root == types.TimestampRoot && to.Root == types.TimestampRoot,
		from.Root == types.TimestampLTZRoot && to.Root == types.TimestampLTZRoot:
		return to.Precision >= from.Precision
	}
	return false
}

// narrowScan drops from scan s the physical columns that only filters the
// source now evaluates exactly needed (Flink pushes filters before it
// prunes projections, so project=[...] lists what the query still reads):
// it returns the scan to translate and cond and projs over its columns.
// The narrowed scan shares s's source and pushdowns.
func (pl *planner) narrowScan(s *plan.Scan, cond, projs []expr.Expr) (*plan.Scan, []expr.Expr, []expr.Expr) {
	if projs == nil {
		return s, cond, projs
	}
	nPhys := len(s.Cols) - len(s.Metadata)
	used := make([]bool, len(s.Cols))
	for _, e := range append(append([]expr.Expr(nil), cond...), projs...) {
		for _, r := range expr.InputRefs(e) {
			used[r] = true
		}
	}
	proj := s.Projection
	if proj == nil {
		for i := 0; i < nPhys; i++ {
			proj = append(proj, i)
		}
	}
	m := make([]int, len(s.Cols))
	var newProj []int
	var cols []plan.Column
	for i := range s.Cols {
		if i < nPhys && !used[i] {
			m[i] = -1
			continue
		}
		m[i] = len(cols)
		cols = append(cols, s.Cols[i])
		if i < nPhys {
			newProj = append(newProj, proj[i])
		}
	}
	if len(cols) == len(s.Cols) || len(newProj) == 0 {
		return s, cond, projs
	}
	ns := *s
	ns.Projection, ns.Cols = newProj, cols
	pl.pushdowns[&ns] = pl.scanSource(s)
	remap := func(es []expr.Expr) []expr.Expr {
		out := make([]expr.Expr, len(es))
		for i, e := range es {
			out[i] = expr.ShiftInputs(e, func(r int) int { return m[r] })
		}
		return out
	}
	return &ns, remap(cond), remap(projs)
}
