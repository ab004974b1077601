package runtime

import (
	"fmt"
	"slices"
	"sort"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/internal/state"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Match runs MATCH_RECOGNIZE (Flink's CepOperator with the NFA its CEP
// library compiles from the pattern), one row per match.
//
// Rows are partitioned by Spec.PartitionKeys. On a rowtime attribute a
// row waits until the watermark passes its timestamp; the rows the
// watermark releases run through the pattern ordered by time, then by the
// secondary ORDER BY keys, then by arrival. A row at or before the
// current watermark is late: dropped and counted in LateDropped. On a
// processing-time attribute rows run through the pattern as they arrive;
// with secondary ORDER BY keys, the rows of one millisecond run ordered by
// them once the clock moves on.
//
// Matching follows Flink's NFA: rows of a match are contiguous; every row
// may start a match; a greedy element that can take a row takes it (the
// elements after it do not); a reluctant one tries both; a match
// completes once its elements have their minimum rows and no later
// element requires one. AFTER MATCH SKIP then prunes the partial and held
// matches that started at or before the last row (PAST LAST ROW), the
// first row (TO NEXT ROW), or before the first/last row of a variable (TO
// FIRST/LAST v); a match is held back while a partial match that started
// earlier is alive, so matches come out in the order of their first rows.
// WITHIN drops a partial match once a row (or the watermark, or on
// processing time the clock) is WITHIN or more after its first row, so
// state stays bounded.
//
// The input is insert-only; the output is insert-only: the partition
// columns followed by the measures.
type Match struct {
	BaseOperator
	Spec     *opspec.MatchSpec
	InTypes  []*types.DataType
	OutTypes []*types.DataType

	innerEv   []expr.Evaluator
	innerT    []*types.DataType
	defEv     []expr.Evaluator
	defTerms  [][]int
	measEv    []expr.Evaluator
	termTypes []*types.DataType // nullable copies of the terms' types
	keyTypes  []*types.DataType
	secTypes  []*types.DataType
	clock     Clock

	parts   map[string]*matchPartition
	wm      int64 // current watermark (rowtime)
	seq     int64 // rows numbered in arrival order
	nextID  int64 // rows numbered in the order they run through the pattern
	pending int   // rows waiting for the watermark (or, on processing
	// time with secondary ORDER BY keys, for the clock to move on)
	out []matchResult
	// waiting holds the keys of the partitions with waiting rows
	waiting map[string]bool
	// processing time: when the waiting rows run (-1: none wait); the
	// earliest WITHIN bound of a partial match (-1: none; it may be
	// early: partial matches pruned since are not taken out)
	flushDue, expiry int64
}

// matchRow is one input row as the pattern sees it.
type matchRow struct {
	seq   int64 // arrival order
	id    int64 // processing order (set when the row runs through the pattern)
	ts    int64 // time attribute, milliseconds
	time  any   // time attribute value
	sec   []any // secondary ORDER BY values
	inner []any // Spec.Inners evaluated on the row
}

// matchPartial is a partial match: elem is the pattern element the last
// row went to, count the rows that element has; rows[i] is mapped to
// variable vars[i].
type matchPartial struct {
	elem, count int
	rows        []*matchRow
	vars        []int
}

type matchPartition struct {
	key      []any
	pending  []*matchRow
	partials []*matchPartial
	// completed holds finished matches not yet emitted (an earlier
	// partial match is alive), ordered by first row
	completed []*matchPartial
}

type matchResult struct {
	key   []any
	match *matchPartial
}

// Open implements Operator.
func (m *Match) Open(ctx *OpContext, out Output) error {
	m.BaseOperator.Open(ctx, out)
	m.clock = ctx.Config.clock()
	m.wm = MinWatermark
	m.parts = map[string]*matchPartition{}
	m.waiting = map[string]bool{}
	m.flushDue, m.expiry = -1, -1
	s := m.Spec
	for _, e := range s.Inners {
		ev, err := expr.Compile(e)
		if err != nil {
			return err
		}
		m.innerEv = append(m.innerEv, ev)
		m.innerT = append(m.innerT, e.Type())
	}
	for _, t := range s.Terms {
		m.termTypes = append(m.termTypes, t.T.WithNullable(true))
	}
	m.defEv = make([]expr.Evaluator, len(s.Defines))
	m.defTerms = make([][]int, len(s.Defines))
	for v, d := range s.Defines {
		if d == nil {
			continue
		}
		ev, err := expr.Compile(d)
		if err != nil {
			return err
		}
		m.defEv[v] = ev
		m.defTerms[v] = expr.InputRefs(d)
	}
	for _, e := range s.Measures {
		ev, err := expr.Compile(e)
		if err != nil {
			return err
		}
		m.measEv = append(m.measEv, ev)
	}
	for _, k := range s.PartitionKeys {
		m.keyTypes = append(m.keyTypes, m.InTypes[k])
	}
	for _, k := range s.Keys {
		m.secTypes = append(m.secTypes, m.InTypes[k.Col])
	}
	return nil
}

// ProcessBatch implements Operator.
func (m *Match) ProcessBatch(_ int, b *types.Batch) error {
	if b.Len == 0 {
		return nil
	}
	if !b.InsertOnly() {
		return fmt.Errorf("Match doesn't support consuming update and delete changes")
	}
	inner := make([]arrow.Array, len(m.innerEv))
	for i, ev := range m.innerEv {
		a, err := expr.EvalArray(ev, m.Ctx.Eval, b)
		if err != nil {
			return err
		}
		inner[i] = a
	}
	var ts []int64
	var valid []byte
	if !m.Spec.Proctime {
		ts, valid = timestampsMillis(b.Cols[m.Spec.TimeCol])
	}
	late := 0
	for i := 0; i < b.Len; i++ {
		r := &matchRow{seq: m.seq}
		m.seq++
		if m.Spec.Proctime {
			now := m.clock.Now()
			r.ts, r.time = now.UnixMilli(), now
		} else {
			if valid != nil && !vector.BitIsSet(valid, i) || ts[i] <= m.wm {
				late++
				continue
			}
			r.ts, r.time = ts[i], types.ValueAt(b.Cols[m.Spec.TimeCol], i, m.InTypes[m.Spec.TimeCol])
		}
		for j, k := range m.Spec.Keys {
			r.sec = append(r.sec, types.ValueAt(b.Cols[k.Col], i, m.secTypes[j]))
		}
		r.inner = make([]any, len(inner))
		for j, a := range inner {
			r.inner[j] = types.ValueAt(a, i, m.innerT[j])
		}
		p, ks, err := m.partition(b, i)
		if err != nil {
			return err
		}
		if m.Spec.Proctime && len(m.Spec.Keys) == 0 {
			if err := m.step(p, r); err != nil {
				return err
			}
			continue
		}
		if m.Spec.Proctime && m.flushDue < 0 {
			// rows of the same millisecond run ordered by the secondary
			// keys once the clock moves on (Flink's CepOperator)
			m.flushDue = r.ts + 1
		}
		p.pending = append(p.pending, r)
		m.waiting[ks] = true
		m.pending++
	}
	if late > 0 {
		m.Ctx.Metrics.LateDropped.Add(int64(late))
	}
	m.reportState()
	return m.flush()
}

// partition returns the state of row i's partition and its key.
func (m *Match) partition(b *types.Batch, i int) (*matchPartition, string, error) {
	key := make([]any, len(m.Spec.PartitionKeys))
	w := state.NewWriter(16)
	for j, k := range m.Spec.PartitionKeys {
		key[j] = types.ValueAt(b.Cols[k], i, m.keyTypes[j])
		w.Value(key[j], m.keyTypes[j])
	}
	if err := w.Err(); err != nil {
		return nil, "", err
	}
	ks := string(w.Data())
	p := m.parts[ks]
	if p == nil {
		p = &matchPartition{key: key}
		m.parts[ks] = p
	}
	return p, ks, nil
}

// ProcessWatermark runs the rows the watermark released through the
// pattern, emits the matches, then forwards the watermark.
func (m *Match) ProcessWatermark(_ int, wm int64) error {
	if m.Spec.Proctime {
		if wm == MaxWatermark && m.pending > 0 {
			// the end of a bounded input runs the rows still waiting
			if err := m.flushProctime(); err != nil {
				return err
			}
		}
		return m.Out.EmitWatermark(wm)
	}
	if wm <= m.wm {
		return m.Out.EmitWatermark(wm)
	}
	m.wm = wm
	// the partitions with rows waiting, then, once the watermark passes
	// the earliest WITHIN bound, every partition
	for _, ks := range sortedSet(m.waiting) {
		p := m.parts[ks]
		var due, rest []*matchRow
		for _, r := range p.pending {
			if r.ts <= wm {
				due = append(due, r)
			} else {
				rest = append(rest, r)
			}
		}
		m.pending -= len(due)
		p.pending = rest
		if len(rest) == 0 {
			delete(m.waiting, ks)
		}
		slices.SortStableFunc(due, m.compareRows)
		for _, r := range due {
			if err := m.step(p, r); err != nil {
				return err
			}
		}
		if err := m.advanceTime(p, wm); err != nil {
			return err
		}
		m.dropIfEmpty(ks, p)
	}
	if m.expiry >= 0 && wm >= m.expiry {
		if err := m.expire(wm); err != nil {
			return err
		}
	}
	m.reportState()
	if err := m.flush(); err != nil {
		return err
	}
	return m.Out.EmitWatermark(wm)
}

// flushProctime runs the rows waiting on processing time, per partition
// ordered by the secondary keys then arrival.
func (m *Match) flushProctime() error {
	m.flushDue = -1
	for _, ks := range sortedSet(m.waiting) {
		delete(m.waiting, ks)
		p := m.parts[ks]
		due := p.pending
		p.pending = nil
		m.pending -= len(due)
		slices.SortStableFunc(due, m.compareRows)
		for _, r := range due {
			if err := m.step(p, r); err != nil {
				return err
			}
		}
	}
	m.reportState()
	return m.flush()
}

// NextProcessingTime implements ProcessingTimeOperator: on processing
// time, when waiting rows run or a partial match reaches its WITHIN
// bound.
func (m *Match) NextProcessingTime() (int64, bool) {
	if !m.Spec.Proctime {
		return 0, false
	}
	switch {
	case m.flushDue >= 0 && m.expiry >= 0:
		return min(m.flushDue, m.expiry), true
	case m.flushDue >= 0:
		return m.flushDue, true
	case m.expiry >= 0:
		return m.expiry, true
	}
	return 0, false
}

// OnProcessingTime implements ProcessingTimeOperator.
func (m *Match) OnProcessingTime(now int64) error {
	if !m.Spec.Proctime {
		return nil
	}
	if m.flushDue >= 0 && now >= m.flushDue {
		if err := m.flushProctime(); err != nil {
			return err
		}
	}
	if m.expiry < 0 || now < m.expiry {
		return nil
	}
	if err := m.expire(now); err != nil {
		return err
	}
	m.reportState()
	return m.flush()
}

// expire drops the partial matches of every partition whose WITHIN bound
// now passed, and the partitions left empty.
func (m *Match) expire(now int64) error {
	for _, ks := range m.sortedKeys() {
		p := m.parts[ks]
		if err := m.advanceTime(p, now); err != nil {
			return err
		}
		m.dropIfEmpty(ks, p)
	}
	m.resetExpiry()
	return nil
}

func (m *Match) dropIfEmpty(ks string, p *matchPartition) {
	if len(p.pending) == 0 && len(p.partials) == 0 && len(p.completed) == 0 {
		delete(m.parts, ks)
	}
}

func sortedSet(set map[string]bool) []string {
	keys := make([]string, 0, len(set))
	for k := range set {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// resetExpiry recomputes the earliest WITHIN bound of the partial
// matches.
func (m *Match) resetExpiry() {
	m.expiry = -1
	if m.Spec.WithinMillis <= 0 {
		return
	}
	for _, p := range m.parts {
		for _, c := range p.partials {
			m.noteExpiry(c)
		}
	}
}

func (m *Match) noteExpiry(c *matchPartial) {
	if m.Spec.WithinMillis <= 0 {
		return
	}
	if e := c.rows[0].ts + m.Spec.WithinMillis; m.expiry < 0 || e < m.expiry {
		m.expiry = e
	}
}

func (m *Match) sortedKeys() []string {
	keys := make([]string, 0, len(m.parts))
	for k := range m.parts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// compareRows orders rows by time, secondary keys, arrival.
func (m *Match) compareRows(a, b *matchRow) int {
	if a.ts != b.ts {
		if a.ts < b.ts {
			return -1
		}
		return 1
	}
	for i, k := range m.Spec.Keys {
		x, y := a.sec[i], b.sec[i]
		if x == nil || y == nil {
			if x == nil && y == nil {
				continue
			}
			if (x == nil) == k.NullsFirst {
				return -1
			}
			return 1
		}
		c := CompareValues(x, y)
		if k.Desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	if a.seq < b.seq {
		return -1
	}
	if a.seq > b.seq {
		return 1
	}
	return 0
}

// advanceTime drops the partial matches WITHIN no longer allows at time
// now, then emits the held matches no earlier partial match waits for.
func (m *Match) advanceTime(p *matchPartition, now int64) error {
	if w := m.Spec.WithinMillis; w > 0 {
		keep := p.partials[:0]
		for _, c := range p.partials {
			if now-c.rows[0].ts < w {
				keep = append(keep, c)
			}
		}
		p.partials = keep
	}
	return m.release(p)
}

// step runs one row through the pattern of partition p.
func (m *Match) step(p *matchPartition, r *matchRow) error {
	r.id = m.nextID
	m.nextID++
	if err := m.advanceTime(p, r.ts); err != nil {
		return err
	}
	var next, done []*matchPartial
	cands := append(append([]*matchPartial(nil), p.partials...), &matchPartial{elem: -1})
	for _, c := range cands {
		if err := m.advance(c, r, &next, &done); err != nil {
			return err
		}
	}
	p.partials = next
	for _, c := range next {
		if len(c.rows) == 1 {
			m.noteExpiry(c)
		}
	}
	if len(done) == 0 {
		// a held match may be free now that an earlier partial match
		// ended
		return m.release(p)
	}
	p.completed = append(p.completed, done...)
	slices.SortStableFunc(p.completed, func(a, b *matchPartial) int {
		return compareSeq(a.rows[0].id, b.rows[0].id)
	})
	return m.release(p)
}

func compareSeq(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// advance adds to next the partial matches c becomes by taking row r, and
// to done those that complete with it.
func (m *Match) advance(c *matchPartial, r *matchRow, next, done *[]*matchPartial) error {
	pat := m.Spec.Pattern
	add := func(elem, count int) {
		n := &matchPartial{elem: elem, count: count,
			rows: append(slices.Clip(c.rows), r), vars: append(slices.Clip(c.vars), pat[elem].Var)}
		if m.complete(elem, count) {
			*done = append(*done, n)
		}
		if pat[elem].Max < 0 || count < pat[elem].Max || elem+1 < len(pat) {
			*next = append(*next, n)
		}
	}
	first := 0
	if c.elem >= 0 {
		e := pat[c.elem]
		if e.Max < 0 || c.count < e.Max {
			ok, err := m.cond(c, r, e.Var)
			if err != nil {
				return err
			}
			if ok {
				add(c.elem, c.count+1)
				if !e.Reluctant {
					// greedy: the row goes to this element only
					return nil
				}
			}
		} else if greedyLoop(e) {
			// a full greedy {n,m} does not pass a row its own condition
			// accepts on to the next element: Flink's NFA ends the match
			// there (checked on Flink 2.3.0: A{1,3} B with A always true
			// matches nothing)
			ok, err := m.cond(c, r, e.Var)
			if err != nil {
				return err
			}
			if ok {
				return nil
			}
		}
		if c.count < e.Min {
			return nil
		}
		first = c.elem + 1
	}
	for j := first; j < len(pat); j++ {
		e := pat[j]
		ok, err := m.cond(c, r, e.Var)
		if err != nil {
			return err
		}
		if ok {
			add(j, 1)
			if greedyLoop(e) && e.Min == 0 {
				// a greedy optional loop (*, {0,m}) that takes the row is
				// not skipped; ? is not greedy in Flink: both ways are
				// tried and the match that completes first wins
				break
			}
		}
		if e.Min > 0 {
			break
		}
	}
	return nil
}

// greedyLoop reports a greedy quantifier that loops (*, +, {n,}, {n,m}
// with n < m, m > 1): Flink's SQL gives these its CEP's greedy(); ? and an
// exact {n} have no greedy choice to make.
func greedyLoop(e opspec.MatchElem) bool {
	return !e.Reluctant && e.Min != e.Max && e.Max != 1
}

// complete reports whether a partial match at element elem with count
// rows is a match: the element has its minimum and no later element
// requires a row.
func (m *Match) complete(elem, count int) bool {
	pat := m.Spec.Pattern
	if count < pat[elem].Min {
		return false
	}
	for _, e := range pat[elem+1:] {
		if e.Min > 0 {
			return false
		}
	}
	return true
}

// cond evaluates variable v's DEFINE for row r appended to partial c.
func (m *Match) cond(c *matchPartial, r *matchRow, v int) (bool, error) {
	ev := m.defEv[v]
	if ev == nil {
		return true, nil
	}
	rows := append(slices.Clip(c.rows), r)
	vars := append(slices.Clip(c.vars), v)
	vals := make([]any, len(m.Spec.Terms))
	for _, t := range m.defTerms[v] {
		x, err := m.term(t, rows, vars)
		if err != nil {
			return false, err
		}
		vals[t] = x
	}
	bb := types.NewBatchBuilder(m.termTypes)
	if err := bb.Append(types.Insert, vals); err != nil {
		return false, err
	}
	out, err := ev(m.Ctx.Eval, bb.Build())
	if err != nil {
		return false, err
	}
	x := out.Value(0)
	ok, _ := x.(bool)
	return ok, nil
}

// term computes term t over the rows of a (partial) match.
func (m *Match) term(t int, rows []*matchRow, vars []int) (any, error) {
	s := m.Spec
	tm := s.Terms[t]
	of := func(v int) []*matchRow {
		if v < 0 {
			return rows
		}
		var out []*matchRow
		for i, r := range rows {
			if vars[i] == v {
				out = append(out, r)
			}
		}
		return out
	}
	switch tm.Kind {
	case opspec.TermLast, opspec.TermFirst:
		rs := of(tm.Var)
		i := len(rs) - 1 - tm.Offset
		if tm.Kind == opspec.TermFirst {
			i = tm.Offset
		}
		if i < 0 || i >= len(rs) {
			return nil, nil
		}
		return rs[i].inner[tm.Inner], nil
	case opspec.TermPrev:
		last := len(rows) - 1
		if tm.Var >= 0 {
			for last >= 0 && vars[last] != tm.Var {
				last--
			}
		}
		i := last - tm.Offset
		if last < 0 || i < 0 {
			return nil, nil
		}
		return rows[i].inner[tm.Inner], nil
	case opspec.TermAgg:
		return m.aggregate(tm, of(tm.Var))
	case opspec.TermRowtime:
		return rows[len(rows)-1].time, nil
	case opspec.TermProctime:
		return m.clock.Now(), nil
	case opspec.TermClassifier:
		return s.Vars[vars[len(vars)-1]], nil
	}
	return nil, fmt.Errorf("unknown MATCH_RECOGNIZE term %d", tm.Kind)
}

// aggregate folds an aggregate term over rows with the engine's
// accumulators.
func (m *Match) aggregate(tm opspec.MatchTerm, rows []*matchRow) (any, error) {
	spec := opspec.AggSpec{Func: tm.Agg, Filter: -1, Type: tm.T}
	var args []arrow.Array
	if tm.Inner >= 0 {
		it := m.innerT[tm.Inner]
		spec.Args, spec.ArgTypes = []int{0}, []*types.DataType{it}
		bb := types.NewBatchBuilder([]*types.DataType{it})
		for _, r := range rows {
			if err := bb.Append(types.Insert, []any{r.inner[tm.Inner]}); err != nil {
				return nil, err
			}
		}
		args = bb.Build().Cols
	}
	acc, err := newAccumulator(spec, false)
	if err != nil {
		return nil, err
	}
	acc.resize(1)
	for i := range rows {
		acc.update(0, args, i, false)
	}
	return acc.result(0), nil
}

// release emits the completed matches of p that no earlier partial match
// waits for, pruning per AFTER MATCH SKIP.
func (m *Match) release(p *matchPartition) error {
	for len(p.completed) > 0 {
		c := p.completed[0]
		start := c.rows[0].id
		for _, q := range p.partials {
			if q.rows[0].id < start {
				return nil
			}
		}
		p.completed = p.completed[1:]
		m.out = append(m.out, matchResult{key: p.key, match: c})
		prune, strict, err := m.pruneAt(c)
		if err != nil {
			return err
		}
		drop := func(ms []*matchPartial) []*matchPartial {
			keep := ms[:0]
			for _, q := range ms {
				s := q.rows[0].id
				if s < prune || !strict && s == prune {
					continue
				}
				keep = append(keep, q)
			}
			return keep
		}
		p.partials = drop(p.partials)
		p.completed = drop(p.completed)
	}
	return nil
}

// pruneAt returns the row before which (strict) or at and before which
// the partial matches are dropped after match c.
func (m *Match) pruneAt(c *matchPartial) (int64, bool, error) {
	s := m.Spec
	switch s.Skip {
	case opspec.SkipPastLastRow:
		return c.rows[len(c.rows)-1].id, false, nil
	case opspec.SkipToNextRow:
		return c.rows[0].id, false, nil
	}
	var at []*matchRow
	for i, r := range c.rows {
		if c.vars[i] == s.SkipVar {
			at = append(at, r)
		}
	}
	if len(at) == 0 {
		return 0, false, fmt.Errorf("Could not skip to %s. No such element in the found match %s", s.Vars[s.SkipVar], m.describe(c))
	}
	r := at[len(at)-1]
	if s.Skip == opspec.SkipToFirst {
		r = at[0]
	}
	if r.id == c.rows[0].id {
		return 0, false, fmt.Errorf("Could not skip to first element of a match.")
	}
	return r.id, true, nil
}

func (m *Match) describe(c *matchPartial) string {
	var parts []string
	for i := range c.rows {
		parts = append(parts, m.Spec.Vars[c.vars[i]])
	}
	return fmt.Sprint(parts)
}

// flush emits the matches found: the partition key and the measures.
func (m *Match) flush() error {
	if len(m.out) == 0 {
		return nil
	}
	res := m.out
	m.out = nil
	size := max(m.Ctx.Config.BatchSize, 1)
	for lo := 0; lo < len(res); lo += size {
		chunk := res[lo:min(lo+size, len(res))]
		tb := types.NewBatchBuilder(m.termTypes)
		for _, r := range chunk {
			vals := make([]any, len(m.Spec.Terms))
			for t := range vals {
				x, err := m.term(t, r.match.rows, r.match.vars)
				if err != nil {
					return err
				}
				vals[t] = x
			}
			if err := tb.Append(types.Insert, vals); err != nil {
				return err
			}
		}
		terms := tb.Build()
		nk := len(m.Spec.PartitionKeys)
		cols := make([]arrow.Array, nk+len(m.measEv))
		kb := types.NewBatchBuilder(m.keyTypes)
		for _, r := range chunk {
			if err := kb.Append(types.Insert, r.key); err != nil {
				return err
			}
		}
		copy(cols, kb.Build().Cols)
		for i, ev := range m.measEv {
			a, err := expr.EvalArray(ev, m.Ctx.Eval, terms)
			if err != nil {
				return err
			}
			cols[nk+i] = a
		}
		if err := m.Emit(types.NewBatch(cols, nil, len(chunk))); err != nil {
			return err
		}
	}
	return nil
}

// EndInput implements Operator: the rows still waiting run at the final
// watermark that follows.
func (m *Match) EndInput(int) error { return nil }

// StateSize implements StateReporter: partitions and an estimate of the
// rows held.
func (m *Match) StateSize() (int64, int64) {
	rows := int64(0)
	for _, p := range m.parts {
		rows += int64(len(p.pending))
		for _, c := range p.partials {
			rows += int64(len(c.rows))
		}
		for _, c := range p.completed {
			rows += int64(len(c.rows))
		}
	}
	return int64(len(m.parts)), rows * int64(32+16*len(m.innerEv))
}

func (m *Match) reportState() {
	if m.Ctx != nil {
		m.Ctx.ReportState(m.StateSize())
	}
}
