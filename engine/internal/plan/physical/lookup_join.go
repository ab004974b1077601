package physical

import (
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// sourceLookupJoin plans a processing-time temporal join against a table
// whose source implements connector.LookupSource as a join that looks up
// the rows of each key when it arrives (Flink's LookupJoin over a
// LookupTableSource), instead of reading the whole table at start. The
// right side must be a scan of physical columns, optionally under the
// calc Flink allows on the temporal table (projections and filters); the
// join keys must be plain physical columns. It returns nil when the right
// side does not qualify, and the caller plans the whole-table lookup join.
func (pl *planner) sourceLookupJoin(t *plan.TemporalJoin, left *Node, keyCols, rk []int, res expr.Expr, lookup, names []string) *Node {
	s, cond, projs := lookupScanOf(t.Right)
	if s == nil || len(s.Metadata) > 0 {
		return nil
	}
	sp := pl.scanSource(s)
	ls, ok := sp.src.(connector.LookupSource)
	if !ok {
		return nil
	}
	for _, e := range append(append([]expr.Expr(nil), projs...), cond...) {
		if !expr.IsDeterministic(e) {
			return nil
		}
	}
	return pl.lookupJoinNode(t, left, s, sp, ls, cond, projs, keyCols, rk, res, lookup, names)
}

// rightIsLookupSource reports whether a temporal join's right side reads
// a LookupSource (Flink plans lookup joins in batch mode too).
func (pl *planner) rightIsLookupSource(t *plan.TemporalJoin) bool {
	s, _, _ := lookupScanOf(t.Right)
	if s == nil {
		return false
	}
	_, ok := pl.scanSource(s).src.(connector.LookupSource)
	return ok
}

// lookupScanOf finds the scan under the right side of a temporal join
// and the calc above it: the filter conjuncts and the projections (nil:
// the scan's columns) over the scan's columns; nil when the right side is
// not a scan under projections and filters.
func lookupScanOf(right plan.Node) (*plan.Scan, []expr.Expr, []expr.Expr) {
	var cond []expr.Expr
	var projs []expr.Expr
	cur := right
	for {
		switch x := cur.(type) {
		case *plan.Project:
			if projs == nil {
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
	s, ok := cur.(*plan.Scan)
	if !ok {
		return nil, nil, nil
	}
	return s, cond, projs
}

// lookupJoinNode is the LookupJoin of sourceLookupJoin once the right
// side qualified.
func (pl *planner) lookupJoinNode(t *plan.TemporalJoin, left *Node, s *plan.Scan, sp *scanPushdown, ls connector.LookupSource, cond, projs []expr.Expr,
	keyCols, rk []int, res expr.Expr, lookup, names []string) *Node {
	// the physical column of each right key
	toPhys := scanPhysIndexes(s)
	keys := make([]int, len(rk))
	for k, r := range rk {
		col := r
		if projs != nil {
			ref, ok := projs[r].(*expr.InputRef)
			if !ok {
				return nil
			}
			col = ref.Index
		}
		if col >= len(toPhys) || toPhys[col] < 0 {
			return nil
		}
		keys[k] = toPhys[col]
	}
	// conditions on the temporal table alone go to a source that filters
	// (a database adds them to its lookup query); the join still
	// evaluates them all
	nl0, nr := len(t.Left.Columns()), len(t.Right.Columns())
	_, _, residual := temporalKeys(t.Cond, nl0)
	offer := append([]expr.Expr(nil), cond...)
	for _, c := range residual {
		if len(expr.InputRefs(c)) > 0 && plan.RefsWithin(c, nl0, nl0+nr) {
			rc := plan.Shift(c, -nl0)
			if projs != nil {
				rc = plan.Substitute(rc, projs)
			}
			offer = append(offer, rc)
		}
	}
	if _, ok := sp.src.(connector.FilterSource); ok && len(offer) > 0 {
		ns, _ := pl.pushFiltersIntoScan(s, offer)
		nsp := pl.scanSource(ns)
		if nls, ok := nsp.src.(connector.LookupSource); ok {
			sp, ls = nsp, nls
		}
	}
	spec := connector.ReadSpec{Columns: s.Projection, Limit: -1}
	if spec.Columns == nil {
		for i := range s.Table.TableSchema.Physical() {
			spec.Columns = append(spec.Columns, i)
		}
	}
	var cache *connector.LookupCacheConfig
	if cs, ok := sp.src.(connector.CachingLookupSource); ok {
		if c := cs.LookupCache(); c != nil {
			cc := *c
			cache = &cc
		}
	}
	var filter expr.Expr
	if len(cond) > 0 {
		filter = plan.AndOf(cond)
	}
	keyTypes := plan.Types(left.Cols)
	kts := make([]*types.DataType, len(keyCols))
	for k, c := range keyCols {
		kts[k] = keyTypes[c]
	}
	op := &LookupJoin{Kind: t.Kind, NumLeft: len(t.Left.Columns()), KeyCols: keyCols, KeyTypes: kts, RightFilter: filter, RightProject: projs,
		RightTypes: plan.Types(t.Right.Columns()), Residual: res, Cache: cache, Lookup: ls, LookupKeys: keys, ReadSpec: spec}
	lookupJoinExplain(op, t, lookup, names)
	return &Node{Op: op, Inputs: []*Node{left}, Cols: t.Cols, Mode: left.Mode, Parallelism: left.Parallelism, rows: left.rows}
}

// lookupJoinExplain sets what EXPLAIN prints of a LookupJoin as Flink
// prints it: table, joinType, lookup (the key pairs), where (the
// conditions on the temporal table alone) and joinCondition (the other
// non-key conditions), each only when there is one, and select.
func lookupJoinExplain(op *LookupJoin, t *plan.TemporalJoin, lookup, names []string) {
	nl := len(t.Left.Columns())
	_, _, residual := temporalKeys(t.Cond, nl)
	var where, join []expr.Expr
	for _, c := range residual {
		if len(expr.InputRefs(c)) > 0 && plan.RefsWithin(c, nl, len(names)) {
			where = append(where, c)
		} else {
			join = append(join, c)
		}
	}
	op.Table, op.LookupPairs, op.CondNames = t.RightID.Summary(), lookup, names
	if len(where) > 0 {
		op.Where = plan.AndOf(where)
	}
	if len(join) > 0 {
		op.JoinCondition = plan.AndOf(join)
	}
}
