package physical

import (
	"fmt"
	"sort"
	"strings"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/plan"
	"github.com/riffle-sql/riffle/engine/types"
)

// Upsert keys and update kinds at sinks (Flink's
// FlinkChangelogModeInferenceProgram and upsert-key metadata, simplified):
//
//   - Operators that produce updates from keyed state know their upsert
//     keys: a streaming GroupAggregate its group keys, a Deduplicate and a
//     Rank of the first row their partition keys, a Rank that outputs its
//     rank number the partition keys and the rank number. Calc and
//     Exchange carry them through when the key columns are projected.
//   - A sink that takes no -U rows (blackhole, like Flink's) gets an
//     update stream without them when the updates come from such an
//     operator through projections, exchanges and filters on the upsert
//     key only (another filter could not turn a +U into the delete it
//     would need, FLINK-9528): the operator
//     then skips its -U rows (generateUpdateBefore = false). Otherwise the
//     -U rows still flow and the sink ignores them.
//   - A sink with a primary key fed updates that are not keyed on exactly
//     that key goes through a SinkUpsertMaterializer
//     (table.exec.sink.upsert-materialize: AUTO, or FORCE for every
//     updating input, NONE never), shown as upsertMaterialize=[true];
//     under AUTO, updates keyed on another upsert key fail instead, as on
//     Flink 2.3, which asks for ON CONFLICT (checkUpsertKeyConflict).
//   - Changelog sources: see changelog_normalize.go (ChangelogNormalize
//     leaves out -U or goes, a CDC scan gets DropUpdateBefore).

// projectKeys maps upsert keys through a projection (nil projs = the
// identity): a key survives when all its columns are projected as is.
func projectKeys(keys [][]int, projs []expr.Expr) [][]int {
	if projs == nil || len(keys) == 0 {
		return keys
	}
	pos := map[int]int{}
	for i, e := range projs {
		if r, ok := keyColumn(e); ok {
			if _, seen := pos[r.Index]; !seen {
				pos[r.Index] = i
			}
		}
	}
	var out [][]int
	for _, k := range keys {
		mapped := make([]int, 0, len(k))
		for _, c := range k {
			p, ok := pos[c]
			if !ok {
				mapped = nil
				break
			}
			mapped = append(mapped, p)
		}
		if mapped != nil || len(k) == 0 {
			out = append(out, mapped)
		}
	}
	return out
}

// keyColumn reports the input column e passes on as it is, or through a
// cast that keeps distinct values distinct (Flink's FlinkRelMdUniqueKeys:
// a rename or a key-preserving cast, LogicalTypeCasts.supportsInjectiveCast):
// the same type but for nullability, or an integer widened to a larger
// integer type (an INSERT's implicit cast of an INT key to a BIGINT
// column).
func keyColumn(e expr.Expr) (*expr.InputRef, bool) {
	if r, ok := e.(*expr.InputRef); ok {
		return r, true
	}
	c, ok := e.(*expr.Call)
	if !ok || c.Name != "CAST" || len(c.Args) != 1 {
		return nil, false
	}
	r, ok := c.Args[0].(*expr.InputRef)
	if !ok {
		return nil, false
	}
	from, to := r.Type(), c.Type()
	if from.WithNullable(true).Equals(to.WithNullable(true)) {
		return r, true
	}
	width := map[types.TypeRoot]int{types.TinyInt: 1, types.SmallInt: 2, types.Integer: 3, types.BigInt: 4}
	if wf, wt := width[from.Root], width[to.Root]; wf > 0 && wt >= wf {
		return r, true
	}
	return nil, false
}

// calcKeys are a Calc's upsert keys: its input's that it projects, a
// derived set even when empty (Flink's Calc never reports "none").
func calcKeys(keys [][]int, projs []expr.Expr) [][]int {
	if out := projectKeys(keys, projs); out != nil {
		return out
	}
	return [][]int{}
}

// withoutUpdateBefore is m without -U.
func withoutUpdateBefore(m types.ChangelogMode) types.ChangelogMode {
	var kinds []types.RowKind
	for _, k := range m.Kinds() {
		if k != types.UpdateBefore {
			kinds = append(kinds, k)
		}
	}
	return types.ChangelogModeOf(kinds...)
}

// dropUpdateBefore makes p's output free of -U rows when the operator
// producing its updates can leave them out; it reports whether it could.
func dropUpdateBefore(p *Node) bool {
	if !p.Mode.Contains(types.UpdateBefore) {
		return true
	}
	ok := false
	switch op := p.Op.(type) {
	case *Exchange, *WatermarkAssigner:
		ok = dropUpdateBefore(p.Inputs[0])
	case *Calc:
		ok = (op.Where == nil || whereOnUpsertKey(p)) && dropUpdateBefore(p.Inputs[0])
	case *GroupAggregate:
		op.NoUpdateBefore = true
		ok = op.Streaming
	case *Deduplicate:
		op.NoUpdateBefore = true
		ok = true
	case *Rank:
		op.NoUpdateBefore = true
		ok = true
	case *SortLimit:
		op.NoUpdateBefore = true
		ok = true
	case *ChangelogNormalize, *TableSourceScan:
		ok = dropNormalizedUpdateBefore(p)
	case *Join:
		ok = dropJoinUpdateBefore(p)
	}
	if ok {
		p.Mode = withoutUpdateBefore(p.Mode)
	}
	return ok
}

// whereOnUpsertKey reports whether a Calc's filter reads only columns of
// its input's (first) upsert key: such a filter keeps or drops every
// version of a key alike, so the Calc may pass on upserts (Flink's
// isNonUpsertKeyCondition).
func whereOnUpsertKey(p *Node) bool {
	in := p.Inputs[0]
	c, isCalc := p.Op.(*Calc)
	if !isCalc || c.Where == nil || len(in.upsertKeys) == 0 {
		return false
	}
	key := map[int]bool{}
	for _, c := range in.upsertKeys[0] {
		key[c] = true
	}
	for _, r := range expr.InputRefs(c.Where) {
		if !key[r] {
			return false
		}
	}
	return true
}

// keyedOn reports whether one of p's upsert keys is exactly the column set
// pk.
func keyedOn(p *Node, pk []int) bool {
	want := map[int]bool{}
	for _, c := range pk {
		want[c] = true
	}
	for _, k := range p.upsertKeys {
		if len(k) != len(want) {
			continue
		}
		all := true
		for _, c := range k {
			if !want[c] {
				all = false
			}
		}
		if all {
			return true
		}
	}
	return false
}

// sinkUpdates adapts an updating input to a sink (see above): it returns
// the input to connect, the mode the sink gets and whether a
// SinkUpsertMaterializer runs in front of it (the input is then hash
// distributed on the primary key pk, column positions of the input).
//
// par is the sink's own parallelism ('sink.parallelism'), 0 when unset:
// the materializer then runs at parallelism.default.
func (pl *planner) sinkUpdates(in *Node, accepted types.ChangelogMode, pk []int, par int) (*Node, bool) {
	if !pl.env.Streaming {
		return in, false
	}
	strategy := strings.ToUpper(pl.env.Config.GetString(config.SinkUpsertMaterialize.Key, "AUTO"))
	if in.Mode.IsInsertOnly() && (len(pk) == 0 || strategy != "FORCE") {
		// an insert-only input is written as it is, unless FORCE asks
		// for the materializer before a sink with a primary key (Flink
		// 2.3.0 shows upsertMaterialize=[true] then, whatever the input)
		return in, false
	}
	if len(pk) > 0 {
		keyed := keyedOn(in, pk) && !in.Mode.IsInsertOnly()
		if strategy == "FORCE" || strategy == "AUTO" && !keyed {
			if par == 0 {
				par = pl.env.parallelism()
			}
			ex := pl.exchange(in, opspec.Hash, pk, par)
			ex.hidden = true
			return ex, true
		}
		if !keyed {
			return in, false
		}
	}
	if !accepted.Contains(types.UpdateBefore) && accepted.Contains(types.UpdateAfter) {
		dropUpdateBefore(in)
	}
	return in, false
}

// checkUpsertKeyConflict fails as Flink 2.3 does when an updating query
// is written, with 'table.exec.sink.upsert-materialize' AUTO (the
// default), to a sink whose primary key pk (input positions) is not the
// query's upsert key: Flink asks for an ON CONFLICT clause, which Riffle
// does not support yet. The message names the first upsert key, "none"
// when the input derives none (a scan of a table without primary key) and
// nothing when it derives an empty set (a projection or join that keeps
// no key), as Flink's does. FORCE and NONE pass (the
// SinkUpsertMaterializer runs, or not). An insert-only query counts as
// updating when the sink accepts it as upserts (accepted, the sink's
// changelog mode for it, is not insert-only).
func (pl *planner) checkUpsertKeyConflict(in *Node, s *plan.Sink, accepted types.ChangelogMode, pk []int, cols []types.Column) {
	// an insert-only query is checked only when the sink turns it into
	// upserts by its key (upsert-kafka: Flink 2.3.0 asks for ON CONFLICT
	// there, as rows of one key could overwrite each other), not before a
	// sink that appends (blackhole, print with a primary key)
	if !pl.env.Streaming || (in.Mode.IsInsertOnly() && accepted.IsInsertOnly()) || len(pk) == 0 {
		return
	}
	if strings.ToUpper(pl.env.Config.GetString(config.SinkUpsertMaterialize.Key, "AUTO")) != "AUTO" || keyedOn(in, pk) {
		return
	}
	name := func(i int) string {
		if i < len(cols) {
			return cols[i].Name
		}
		return fmt.Sprintf("$%d", i)
	}
	var pkNames, ukNames []string
	for _, i := range pk {
		pkNames = append(pkNames, name(i))
	}
	ukText := "none"
	if in.upsertKeys != nil {
		ukText = ""
	}
	if len(in.upsertKeys) > 0 {
		uk := append([]int(nil), in.upsertKeys[0]...)
		sort.Ints(uk)
		for _, i := range uk {
			ukNames = append(ukNames, name(i))
		}
		ukText = "[" + strings.Join(ukNames, ", ") + "]"
	}
	pl.fail("The query has an upsert key that differs from the primary key of the sink table '%s'. Primary key: [%s], upsert key: %s. "+
		"This can lead to non-deterministic results when multiple records with different upsert keys map to the same primary key. "+
		"Please specify an ON CONFLICT clause to define how conflicts should be handled: "+
		"ON CONFLICT DO DEDUPLICATE (update to the latest record, state intensive, since we need to keep the entire history), "+
		"or ON CONFLICT DO ERROR (fail on conflict), or ON CONFLICT DO NOTHING (keep first record).",
		s.ID.Summary(), strings.Join(pkNames, ", "), ukText)
}

// Join inputs and outputs (Flink's JoinInputSideSpec and
// FlinkRelMdUpsertKeys/FlinkRelMdUniqueKeys.getJoinUniqueKeys).

// joinInputSpec names what the join knows of an input's uniqueness:
// JoinKeyContainsUniqueKey when one of its upsert keys lies within the
// join keys (one row per join key), HasUniqueKey when it has one,
// NoUniqueKey otherwise.
func joinInputSpec(in *Node, joinKeys []int) string {
	if len(in.upsertKeys) == 0 {
		return "NoUniqueKey"
	}
	if containsKey(in.upsertKeys, joinKeys) {
		return "JoinKeyContainsUniqueKey"
	}
	return "HasUniqueKey"
}

// containsKey reports whether one of keys lies within cols.
func containsKey(keys [][]int, cols []int) bool {
	in := map[int]bool{}
	for _, c := range cols {
		in[c] = true
	}
	for _, k := range keys {
		all := len(k) > 0
		for _, c := range k {
			if !in[c] {
				all = false
			}
		}
		if all {
			return true
		}
	}
	return false
}

// joinUpsertKeys derives a streaming join's upsert keys (output positions;
// the right side's columns follow the nl left ones). A side's keys count
// only when they hold its join keys (changes of one key then reach one
// join instance); a pair of them is a key of the output, and one side's
// keys alone are when the other side is unique on its join keys and the
// join adds no NULL rows for the first side. Semi and anti joins keep the
// left side's keys.
func joinUpsertKeys(kind opspec.JoinKind, nl int, left, right *Node, lk, rk []int) [][]int {
	filter := func(keys [][]int, dist []int) [][]int {
		var out [][]int
		for _, k := range keys {
			if containsKey([][]int{dist}, k) {
				out = append(out, k)
			}
		}
		return out
	}
	lkeys, rkeys := filter(left.upsertKeys, lk), filter(right.upsertKeys, rk)
	if kind == opspec.SemiJoin || kind == opspec.AntiJoin {
		return lkeys
	}
	shift := func(k []int) []int {
		out := make([]int, len(k))
		for i, c := range k {
			out[i] = c + nl
		}
		return out
	}
	out := [][]int{} // a derived, possibly empty set (Flink: not "none")
	for _, l := range lkeys {
		for _, r := range rkeys {
			out = append(out, append(append([]int(nil), l...), shift(r)...))
		}
	}
	nullsOnLeft := kind == opspec.RightJoin || kind == opspec.FullJoin
	nullsOnRight := kind == opspec.LeftJoin || kind == opspec.FullJoin
	if containsKey(right.upsertKeys, rk) && !nullsOnLeft {
		out = append(out, lkeys...)
	}
	if containsKey(left.upsertKeys, lk) && !nullsOnRight {
		for _, r := range rkeys {
			out = append(out, shift(r))
		}
	}
	return out
}
