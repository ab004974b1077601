package physical

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// Changelog sources in streaming mode (Flink's
// StreamPhysicalTableSourceScanRule, DynamicSourceUtils,
// PushCalcPastChangelogNormalizeRule and the ChangelogNormalize parts of
// FlinkChangelogModeInferenceProgram):
//
//   - A source whose changelog has +U but no -U (an upsert source such as
//     upsert-kafka) needs a PRIMARY KEY; it is read through
//     Exchange(hash[pk]) and ChangelogNormalize(key=[pk]), which keeps the
//     last row per key and emits a proper changelog ([I,UB,UA,D], or
//     [I,UA,D] when the consumer takes upserts).
//   - A source with the full changelog (a CDC format: debezium-json, ...)
//     is read as it is, unless 'table.exec.source.cdc-events-duplicate' is
//     true: then it needs a PRIMARY KEY and gets DropUpdateBefore, the
//     exchange and ChangelogNormalize, which drops repeated events.
//   - The key columns are always read: when a query does not use them they
//     are appended to the scan's projection and a Calc above the
//     normalization removes them again (Flink's scan shows
//     project=[name, id]).
//   - A filter right above the normalization is pushed into it: conjuncts
//     on key columns only go below the exchange (safe, they see every
//     version of a key alike), the rest become its condition=[...].
//   - When the consumer takes upserts by the key (an upsert sink, or the
//     root of an explained query), the -U rows are left out; a normalize
//     over an upsert source with no condition, no metadata columns and
//     cdc-events-duplicate off is then removed altogether (Flink 2.x's
//     ChangelogNormalizeRequirementResolver), and a full-changelog source
//     gets DropUpdateBefore.
//   - An inner join whose updating inputs are keyed on exactly its join
//     keys passes upserts too (its inputs leave out -U; the join replaces
//     a key's row on +U), and the versioned table of an event-time
//     temporal join is read as upserts wherever it can be.
//   - The primary key of a table is the upsert key of its scan.
//   - Batch mode reads only insert-only sources (Flink's error).

// SourceCDCEventsDuplicate is Flink's option: whether CDC sources may
// produce duplicate change events (then they are normalized on their
// primary key).
var SourceCDCEventsDuplicate = config.Register(config.Option{Key: "table.exec.source.cdc-events-duplicate", Default: "false", Kind: "bool",
	Description: "Whether changelog (CDC) sources may produce duplicate events; if so they need a PRIMARY KEY and are deduplicated by a stateful ChangelogNormalize on it."})

// changelogKey returns the positions of the table's primary key among the
// scan's columns, appending the key columns the scan does not read to its
// projection (the caller drops them again with restoreColumns). ok is
// false when the table has no primary key.
func changelogKey(s *plan.Scan) (out *plan.Scan, key []int, added bool, ok bool) {
	pk := s.Table.TableSchema.PrimaryKey
	if pk == nil {
		return s, nil, false, false
	}
	phys := s.Table.TableSchema.Physical()
	proj := s.Projection
	if proj == nil {
		for i := range phys {
			proj = append(proj, i)
		}
	}
	ns := *s
	ns.Projection = append([]int(nil), proj...)
	np := len(proj)
	var extra []plan.Column
	for _, name := range pk.Columns {
		pi := -1
		for i, c := range phys {
			if strings.EqualFold(c.Name, name) {
				pi = i
			}
		}
		if pi < 0 {
			return s, nil, false, false
		}
		at := -1
		for j, p := range ns.Projection {
			if p == pi {
				at = j
			}
		}
		if at < 0 {
			at = len(ns.Projection)
			ns.Projection = append(ns.Projection, pi)
			extra = append(extra, plan.Column{Name: phys[pi].Name, Type: phys[pi].Type})
		}
		key = append(key, at)
	}
	if len(extra) == 0 {
		return &ns, key, false, true
	}
	// physical columns first, then the added key columns, then metadata
	ns.Cols = append(append(append([]plan.Column(nil), s.Cols[:np]...), extra...), s.Cols[np:]...)
	return &ns, key, true, true
}

// normalizes reports whether a streaming scan of src, a table with a
// primary key or not, gets a ChangelogNormalize.
func (pl *planner) normalizes(src connector.Source, hasPK bool) bool {
	mode := src.ChangelogMode()
	if !pl.env.Streaming || !hasPK || mode.IsInsertOnly() {
		return false
	}
	upsert := mode.Contains(types.UpdateAfter) && !mode.Contains(types.UpdateBefore)
	return upsert || pl.env.Config.GetBoolean(SourceCDCEventsDuplicate.Key, false)
}

// changelogScan validates a changelog source and puts the normalization
// above its scan p (built from the scan ns that changelogKey returned when
// normalizes said so, else orig). key are the primary key's positions
// among p's columns (nil when the table has none or they are not read);
// added says changelogKey appended key columns.
func (pl *planner) changelogScan(orig, ns *plan.Scan, src connector.Source, p *Node, key []int, added bool) *Node {
	hasKey := orig.Table.TableSchema.PrimaryKey != nil
	mode := src.ChangelogMode()
	name := orig.ID.Summary()
	if !pl.env.Streaming {
		if !mode.IsInsertOnly() {
			pl.fail("Querying a table in batch mode is currently only possible for INSERT-only table sources. But the source for table '%s' produces other changelog messages than just INSERT.", name)
		}
		return p
	}
	if key != nil {
		p.upsertKeys = [][]int{key}
	}
	if mode.IsInsertOnly() {
		return p
	}
	hasUB, hasUA := mode.Contains(types.UpdateBefore), mode.Contains(types.UpdateAfter)
	switch {
	case hasUB && !hasUA:
		pl.fail("Invalid source for table '%s'. A ScanTableSource doesn't support a changelog which contains UPDATE_BEFORE but no UPDATE_AFTER.", name)
	case hasUA && !hasUB && !hasKey:
		pl.fail("Table '%s' produces a changelog stream that contains UPDATE_AFTER but no UPDATE_BEFORE. This requires defining a primary key constraint on the table.", name)
	}
	upsert := hasUA && !hasUB
	duplicate := !upsert && pl.env.Config.GetBoolean(SourceCDCEventsDuplicate.Key, false)
	if duplicate && !hasKey {
		pl.fail("Configuration '%s' is enabled which requires the changelog sources to define a PRIMARY KEY. However, table '%s' doesn't have a primary key.", SourceCDCEventsDuplicate.Key, name)
	}
	if !upsert && !duplicate {
		return p
	}
	in := p
	if hasUB {
		in = dropUpdateBeforeNode(p)
	}
	par := pl.env.parallelism()
	ex := pl.exchange(in, opspec.Hash, key, par)
	op := &ChangelogNormalize{Keys: append([]int(nil), key...), Duplicate: duplicate, Metadata: len(ns.Metadata) > 0, KeyOnlyDeletes: mode.KeyOnlyDeletes()}
	cn := &Node{Op: op, Inputs: []*Node{ex}, Cols: p.Cols, Mode: types.RetractMode, Parallelism: par, rows: p.rows, upsertKeys: [][]int{key}}
	if !added {
		return cn
	}
	return pl.restoreColumns(cn, orig.Cols, len(orig.Cols)-len(orig.Metadata), len(cn.Cols)-len(orig.Cols))
}

// restoreColumns drops the key columns changelogKey added (nadded of them,
// after the first np physical columns): a Calc marked as the restoring one.
func (pl *planner) restoreColumns(cn *Node, cols []plan.Column, np, nadded int) *Node {
	var projs []expr.Expr
	for i := range cols {
		at := i
		if i >= np {
			at = i + nadded // metadata columns follow the added keys
		}
		projs = append(projs, &expr.InputRef{Index: at, Name: cn.Cols[at].Name, T: cn.Cols[at].Type})
	}
	return pl.calcNode(cn, cols, projs, nil, projs)
}

// calcNode builds a Calc over in (projs nil: all columns); restore marks
// the Calc that drops the key columns a ChangelogNormalize needed.
func (pl *planner) calcNode(in *Node, cols []plan.Column, projs []expr.Expr, where expr.Expr, restore []expr.Expr) *Node {
	return &Node{Op: &Calc{Projs: projs, Where: where, restore: restore}, Inputs: []*Node{in}, Cols: cols, Mode: in.Mode,
		Parallelism: in.Parallelism, rows: in.rows, upsertKeys: calcKeys(in.upsertKeys, projs)}
}

// dropUpdateBeforeNode puts a DropUpdateBefore over p.
func dropUpdateBeforeNode(p *Node) *Node {
	return &Node{Op: &DropUpdateBefore{}, Inputs: []*Node{p}, Cols: p.Cols, Mode: withoutUpdateBefore(p.Mode),
		Parallelism: p.Parallelism, rows: p.rows, upsertKeys: p.upsertKeys}
}

// pushIntoNormalize pushes the filter of a Calc (projs, where over in)
// into a ChangelogNormalize right below it (looking through the Calc that
// restores the query's columns). It returns the Calc's new input,
// projections and remaining filter.
func (pl *planner) pushIntoNormalize(in *Node, projs []expr.Expr, where expr.Expr) (*Node, []expr.Expr, expr.Expr) {
	if where == nil || !pl.env.Streaming {
		return in, projs, where
	}
	cn := in
	if c, ok := in.Op.(*Calc); ok && c.restore != nil {
		cn = in.Inputs[0]
	}
	spec, ok := cn.Op.(*ChangelogNormalize)
	if !ok || spec.Condition != nil {
		return in, projs, where
	}
	if cn != in {
		restore := in.Op.(*Calc).restore
		where = plan.Substitute(where, restore)
		if projs == nil {
			projs = restore
		} else {
			projs = plan.SubstituteAll(projs, restore)
		}
	}
	isKey := map[int]bool{}
	for _, k := range spec.Keys {
		isKey[k] = true
	}
	var onKey, others []expr.Expr
	for _, c := range plan.Conjuncts(where) {
		keyOnly := true
		for _, r := range expr.InputRefs(c) {
			if !isKey[r] {
				keyOnly = false
			}
		}
		if keyOnly {
			onKey = append(onKey, c)
		} else {
			others = append(others, c)
		}
	}
	if len(onKey) > 0 {
		ex := cn.Inputs[0]
		below := ex.Inputs[0]
		ex.Inputs[0] = pl.calcNode(below, below.Cols, nil, plan.AndOf(onKey), nil)
	}
	if len(others) > 0 {
		spec.Condition = plan.AndOf(others)
	}
	if projs != nil && isIdentity(projs, len(cn.Cols)) {
		projs = nil
	}
	return cn, projs, nil
}

// normalizeRemovable reports whether a ChangelogNormalize whose consumer
// takes upserts can go (Flink's ChangelogNormalizeRequirementResolver):
// no pushed condition, not deduplicating CDC events, no metadata columns
// read, and deletes with full rows (Riffle's consumers all ask for those;
// Flink lets a sink that deletes by key take key-only ones).
func normalizeRemovable(p *Node) bool {
	s, ok := p.Op.(*ChangelogNormalize)
	return ok && s.Condition == nil && !s.Duplicate && !s.Metadata && !s.KeyOnlyDeletes
}

// dropNormalizedUpdateBefore leaves the -U rows out of a ChangelogNormalize
// or a scan (dropUpdateBefore): the normalize goes when it may, else it
// stops generating them; a scan with -U rows becomes a DropUpdateBefore
// over it. p is replaced in place.
func dropNormalizedUpdateBefore(p *Node) bool {
	switch op := p.Op.(type) {
	case *ChangelogNormalize:
		if normalizeRemovable(p) {
			*p = *p.Inputs[0].Inputs[0] // the exchange's input
			return dropUpdateBefore(p)
		}
		op.NoUpdateBefore = true
		return true
	case *TableSourceScan:
		scan := *p
		*p = *dropUpdateBeforeNode(&scan)
		return true
	}
	return false
}

// explainRoot prepares the root of an explained query as Flink explains
// it: with no sink to ask for -U rows, Flink's changelog inference tries
// a root without them first (ONLY_UPDATE_AFTER), so the updating operator
// below leaves them out where it can.
func explainRoot(p *Node) {
	if p.Mode.Contains(types.UpdateBefore) {
		dropUpdateBefore(p)
	}
}

// canDropUpdateBefore reports, without changing the plan, whether
// dropUpdateBefore(p) would succeed.
func canDropUpdateBefore(p *Node) bool {
	if !p.Mode.Contains(types.UpdateBefore) {
		return true
	}
	switch op := p.Op.(type) {
	case *Exchange, *WatermarkAssigner:
		return canDropUpdateBefore(p.Inputs[0])
	case *Calc:
		return (op.Where == nil || whereOnUpsertKey(p)) && canDropUpdateBefore(p.Inputs[0])
	case *GroupAggregate:
		return op.Streaming
	case *Deduplicate, *Rank, *SortLimit, *ChangelogNormalize:
		return true
	case *TableSourceScan:
		return true
	case *Join:
		return joinTakesUpserts(p)
	}
	return false
}

// joinTakesUpserts reports whether a streaming join can pass upserts on
// (Flink's StreamPhysicalJoin under ONLY_UPDATE_AFTER): every input with
// updates is keyed on exactly its join keys and can itself leave out its
// -U rows. Riffle takes upserts into inner joins only.
func joinTakesUpserts(p *Node) bool {
	j, ok := p.Op.(*Join)
	if !ok || !j.Streaming || j.Spec.Kind != opspec.InnerJoin {
		return false
	}
	for side, in := range p.Inputs {
		if !in.Mode.Contains(types.UpdateAfter) && !in.Mode.Contains(types.UpdateBefore) {
			continue
		}
		keys := j.Spec.LeftKeys
		if side == 1 {
			keys = j.Spec.RightKeys
		}
		if !keyedOn(in, keys) || !canDropUpdateBefore(in) {
			return false
		}
	}
	return true
}

// dropJoinUpdateBefore makes a join pass upserts on where it can
// (joinTakesUpserts): its updating inputs leave out their -U rows and the
// join replaces a key's row on +U (opspec.JoinSpec.UpsertInputs).
func dropJoinUpdateBefore(p *Node) bool {
	if !joinTakesUpserts(p) {
		return false
	}
	for side, in := range p.Inputs {
		if !in.Mode.Contains(types.UpdateAfter) && !in.Mode.Contains(types.UpdateBefore) {
			continue
		}
		dropUpdateBefore(in)
		p.Op.(*Join).Spec.UpsertInputs[side] = true
	}
	return true
}
