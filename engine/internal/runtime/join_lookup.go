package runtime

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// SourceLookupJoin is the processing-time temporal join against a table
// whose source looks rows up by key (Flink's LookupJoin over a
// LookupTableSource, e.g. the jdbc connector): for each distinct key of
// an input batch it asks the source's Lookuper for the rows of that key,
// through the partial cache when the table asks for one, applies the
// calc on the temporal table (its filter and projection), keeps the pairs
// that satisfy the residual condition and emits one row per match (+I),
// or a NULL-padded row for a left join without match. A key with a NULL
// column matches nothing and is never looked up.
//
// The input is the left side's columns followed by the key columns (cast
// to the looked-up columns' types); the output is the left side's columns
// (without the key columns) and the right side's columns.
type SourceLookupJoin struct {
	BaseOperator
	Kind opspec.JoinKind
	// NumLeft is the number of left columns in the input (before the keys).
	NumLeft int
	// KeyCols are the input's key columns and KeyTypes their types, in
	// the order of the keys the Lookuper was opened with.
	KeyCols  []int
	KeyTypes []*types.DataType
	// RightFilter and RightProject are the calc on the looked-up rows
	// (over the columns the Lookuper returns): nil filter keeps every
	// row, nil projection keeps the columns as they are.
	RightFilter  expr.Expr
	RightProject []expr.Expr
	// RightTypes are the right side's column types (after the calc).
	RightTypes []*types.DataType
	// Residual is the join condition beyond the keys, over the left
	// columns followed by the right ones (nil: none).
	Residual expr.Expr
	// OpenLookuper opens the source's Lookuper for this instance.
	OpenLookuper func(ctx context.Context) (connector.Lookuper, error)
	// Cache configures the partial cache (nil: every key is looked up).
	Cache *connector.LookupCacheConfig
	// Table names the right table in errors.
	Table string

	lookuper connector.Lookuper
	cache    *LookupCache
	calc     *Calc
	residual expr.Evaluator
	// loads counts the source lookups
	loads int64
}

// Open implements Operator: it opens the Lookuper.
func (j *SourceLookupJoin) Open(ctx *OpContext, out Output) error {
	j.BaseOperator.Open(ctx, out)
	if j.Residual != nil {
		ev, err := expr.Compile(j.Residual)
		if err != nil {
			return err
		}
		j.residual = ev
	}
	if j.RightFilter != nil || j.RightProject != nil {
		c, err := NewCalc(j.RightFilter, j.RightProject)
		if err != nil {
			return err
		}
		j.calc = c
	}
	if j.Cache != nil {
		j.cache = NewLookupCache(*j.Cache, ctx.Config.clock())
	}
	l, err := j.OpenLookuper(ctx.Ctx)
	if err != nil {
		return fmt.Errorf("lookup join: opening lookups into %s: %w", j.Table, err)
	}
	j.lookuper = l
	return nil
}

// Close implements Operator: it closes the Lookuper.
func (j *SourceLookupJoin) Close() error {
	if j.lookuper != nil {
		return j.lookuper.Close()
	}
	return nil
}

// CacheStats returns the cache's hit, miss and load counts (loads are the
// source lookups, counted with or without a cache).
func (j *SourceLookupJoin) CacheStats() (hits, misses, loads int64) {
	if j.cache == nil {
		return 0, j.loads, j.loads
	}
	return j.cache.HitCount, j.cache.MissCount, j.cache.LoadCount
}

// rowsOf returns the right rows of one key: from the cache, or looked up,
// put through the calc and cached.
func (j *SourceLookupJoin) rowsOf(key []any) (*types.Batch, error) {
	var ks string
	m := j.Ctx.Metrics
	if j.cache != nil {
		ks = lookupKey(key)
		if rows, ok := j.cache.Get(ks); ok {
			if m != nil {
				m.LookupHits.Add(1)
			}
			return rows, nil
		}
		j.cache.LoadCount++
	}
	j.loads++
	if m != nil {
		m.LookupMisses.Add(1)
		m.LookupLoads.Add(1)
	}
	rows, err := j.lookuper.Lookup(j.Ctx.Ctx, key)
	if err != nil {
		return nil, fmt.Errorf("lookup join: looking up %v in %s: %w", key, j.Table, err)
	}
	if rows == nil {
		rows = &types.Batch{Len: 0}
	}
	if j.calc != nil && rows.Len > 0 {
		if rows, err = j.calc.Apply(j.Ctx.Eval, rows); err != nil {
			return nil, err
		}
	}
	if j.cache != nil {
		j.cache.Put(ks, rows)
	}
	return rows, nil
}

// ProcessBatch implements Operator.
func (j *SourceLookupJoin) ProcessBatch(_ int, b *types.Batch) error {
	store := NewRowStore(j.RightTypes)
	type span struct{ from, n int32 }
	spans := map[string]span{}
	var pRow, pEntry []int32
	key := make([]any, len(j.KeyCols))
	for i := 0; i < b.Len; i++ {
		null := false
		for k, c := range j.KeyCols {
			key[k] = types.ValueAt(b.Cols[c], i, j.KeyTypes[k])
			if key[k] == nil {
				null = true
			}
		}
		if null {
			continue
		}
		ks := lookupKey(key)
		sp, ok := spans[ks]
		if !ok {
			rows, err := j.rowsOf(append([]any(nil), key...))
			if err != nil {
				return err
			}
			sp = span{from: store.Len(), n: int32(rows.Len)}
			if rows.Len > 0 {
				store.Append(rows, nil)
			}
			spans[ks] = sp
		}
		for e := sp.from; e < sp.from+sp.n; e++ {
			pRow = append(pRow, int32(i))
			pEntry = append(pEntry, e)
		}
	}
	left := &types.Batch{Cols: b.Cols[:j.NumLeft], Kinds: b.Kinds, Len: b.Len}
	if j.residual != nil && len(pRow) > 0 {
		var err error
		if pRow, pEntry, err = keepResidualPairs(j.residual, j.Ctx.Eval, pairBatchOf(left, 0, store, pRow, pEntry), pRow, pEntry); err != nil {
			return err
		}
	}
	if j.Kind == opspec.LeftJoin {
		pRow, pEntry = padUnmatched(b.Len, pRow, pEntry)
	}
	if len(pRow) == 0 {
		return nil
	}
	cols := make([]arrow.Array, 0, j.NumLeft+len(j.RightTypes))
	for _, c := range left.Cols {
		cols = append(cols, vector.Take(c, pRow))
	}
	cols = append(cols, store.Gather(pEntry)...)
	var kinds []types.RowKind
	if b.Kinds != nil {
		kinds = make([]types.RowKind, len(pRow))
		for k, r := range pRow {
			kinds[k] = b.Kinds[r]
		}
	}
	return j.Emit(&types.Batch{Cols: cols, Kinds: kinds, Len: len(pRow)})
}

// padUnmatched adds a pair (row, -1) for each of the n input rows without
// a pair, keeping input order (pairs are sorted by row).
func padUnmatched(n int, pRow, pEntry []int32) ([]int32, []int32) {
	r2 := make([]int32, 0, max(n, len(pRow)))
	e2 := make([]int32, 0, max(n, len(pRow)))
	p := 0
	for i := 0; i < n; i++ {
		found := false
		for p < len(pRow) && int(pRow[p]) == i {
			r2 = append(r2, pRow[p])
			e2 = append(e2, pEntry[p])
			p++
			found = true
		}
		if !found {
			r2 = append(r2, int32(i))
			e2 = append(e2, -1)
		}
	}
	return r2, e2
}

// StateSize implements StateReporter: the cached keys.
func (j *SourceLookupJoin) StateSize() (int64, int64) {
	if j.cache == nil {
		return 0, 0
	}
	return int64(j.cache.Len()), 0
}
