package jdbc

import (
	"context"
	"fmt"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

var (
	_ connector.LookupSource        = (*Source)(nil)
	_ connector.CachingLookupSource = (*Source)(nil)
)

// LookupCache is the table's 'lookup.cache' = 'PARTIAL' configuration (or
// the deprecated 'lookup.cache.max-rows'/'lookup.cache.ttl' pair); nil
// without a cache.
func (s *Source) LookupCache() *connector.LookupCacheConfig { return s.t.cache }

// OpenLookup connects a Lookuper running Flink's lookup query
// "SELECT cols FROM t WHERE k1 = $1 AND k2 = $2" (plus any filters pushed
// into the source) for each key.
func (s *Source) OpenLookup(ctx context.Context, keys []int, spec connector.ReadSpec) (connector.Lookuper, error) {
	if len(keys) == 0 {
		return nil, s.t.errorf("a lookup needs at least one key column")
	}
	d := s.t.endpoint.Dialect
	l := &lookuper{s: s}
	for _, k := range keys {
		if k < 0 || k >= len(s.t.physNames) {
			return nil, s.t.errorf("lookup key column %d does not exist", k)
		}
		l.keyNames = append(l.keyNames, s.t.physNames[k])
		l.keyTypes = append(l.keyTypes, s.t.physTypes[k])
	}
	for _, c := range spec.Columns {
		l.names = append(l.names, s.t.physNames[c])
		l.ts = append(l.ts, s.t.physTypes[c])
	}
	l.sql = d.SelectStatement(s.t.dbTable, l.names, l.keyNames)
	a := &argList{d: d, args: make([]any, len(keys))}
	for _, f := range s.filters {
		r, _ := s.render(f, a)
		l.sql += " AND (" + r + ")"
	}
	l.filterArgs = a.args[len(keys):]
	c, err := connect(ctx, s.t)
	if err != nil {
		return nil, err
	}
	l.c = c
	return l, nil
}

type lookuper struct {
	s          *Source
	c          conn
	sql        string
	keyNames   []string
	keyTypes   []*types.DataType
	names      []string
	ts         []*types.DataType
	filterArgs []any
	checked    bool
}

// LookupSQL is the statement the lookuper runs (for tests and EXPLAIN).
func (l *lookuper) LookupSQL() string { return l.sql }

// Lookup runs the query for key, retrying up to 'lookup.max-retries'
// times (1 s, 2 s, ... apart, on a new connection) unless the failure is
// one a retry cannot fix.
func (l *lookuper) Lookup(ctx context.Context, key []any) (*types.Batch, error) {
	t := l.s.t
	if len(key) != len(l.keyNames) {
		return nil, t.errorf("lookup key has %d values, expected %d", len(key), len(l.keyNames))
	}
	args := make([]any, 0, len(key)+len(l.filterArgs))
	for i, k := range key {
		args = append(args, toDriver(t.endpoint.Dialect, k, l.keyTypes[i]))
	}
	args = append(args, l.filterArgs...)
	var err error
	for attempt := 0; attempt <= t.lookupMaxRetries; attempt++ {
		if attempt > 0 {
			select {
			case <-time.After(time.Duration(attempt) * time.Second):
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			if l.c != nil {
				l.c.close()
				l.c = nil
			}
			c, cerr := connect(ctx, t)
			if cerr != nil {
				err = cerr
				continue
			}
			l.c = c
		}
		if l.c == nil {
			continue
		}
		var b *types.Batch
		b, err = l.run(ctx, args)
		if err == nil {
			return b, nil
		}
		if _, ok := err.(*connector.DataError); ok || permanent(err) || ctx.Err() != nil {
			break
		}
		if _, ok := err.(lookupError); ok {
			break
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if de, ok := err.(*connector.DataError); ok {
		return nil, de
	}
	if _, ok := err.(lookupError); ok {
		return nil, err
	}
	return nil, t.queryError(fmt.Sprintf("lookup of key %v", key), err)
}

type lookupError struct{ error }

func (l *lookuper) run(ctx context.Context, args []any) (*types.Batch, error) {
	t := l.s.t
	rows, err := l.c.query(ctx, l.sql, args, queryMode{})
	if err != nil {
		return nil, err
	}
	defer rows.close()
	if !l.checked {
		cols := rows.columns()
		for i := range l.ts {
			if err := t.checkColumnType(l.names[i], cols[i].typ, l.ts[i]); err != nil {
				return nil, lookupError{err}
			}
		}
		l.checked = true
	}
	bb := types.NewBatchBuilder(l.ts)
	conv := make([]any, len(l.ts))
	n := int64(0)
	for rows.next() {
		n++
		if len(l.ts) == 0 {
			_ = bb.Append(types.Insert, nil)
			continue
		}
		vals, err := rows.values()
		if err != nil {
			return nil, err
		}
		for i, v := range vals {
			x, err := toEngine(v, l.ts[i])
			if err != nil {
				return nil, &connector.DataError{File: fmt.Sprintf("%s table '%s' (lookup)", t.endpoint.Dialect.Name, t.dbTable), Line: n, Field: l.names[i], Msg: err.Error()}
			}
			conv[i] = x
		}
		if err := bb.Append(types.Insert, conv); err != nil {
			return nil, lookupError{t.errorf("lookup row %d: %v", n, err)}
		}
	}
	if err := rows.err(); err != nil {
		return nil, err
	}
	return bb.Build(), nil
}

// Close closes the connection; safe to call twice.
func (l *lookuper) Close() error {
	if l.c != nil {
		l.c.close()
		l.c = nil
	}
	return nil
}
