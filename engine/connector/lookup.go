package connector

import (
	"context"

	"github.com/riffle-sql/riffle/engine/types"
)

// Lookup sources (Flink's LookupTableSource): a processing-time temporal
// join, `JOIN t FOR SYSTEM_TIME AS OF o.proc_time ON o.k = t.k`, asks the
// table for the rows of each key as the left row arrives, instead of
// reading the whole table when the job starts. The runtime puts the cache
// configured by LookupCacheConfig in front of the Lookuper.

// LookupSource is implemented by sources that can be queried by key.
type LookupSource interface {
	// OpenLookup prepares lookups by the physical columns keys (indexes
	// into Context.PhysicalNames, in the join's key order) returning the
	// physical columns spec.Columns. One Lookuper is opened per parallel
	// instance of the join; it is used by one goroutine.
	OpenLookup(ctx context.Context, keys []int, spec ReadSpec) (Lookuper, error)
}

// Lookuper finds the rows of one key.
type Lookuper interface {
	// Lookup returns the rows whose key columns equal key (one Go value
	// per key column, never nil: a NULL key matches nothing and is not
	// looked up), as a batch of spec.Columns with Len 0 when there are
	// none. An error is returned after the source's own retries
	// (lookup.max-retries) are exhausted and fails the job.
	Lookup(ctx context.Context, key []any) (*types.Batch, error)
	// Close releases connections. It is safe to call twice.
	Close() error
}

// LookupCacheConfig is the lookup cache a LookupSource asks for: Flink's
// 'lookup.cache' = 'PARTIAL' with its 'lookup.partial-cache.*' options.
// Zero values mean no limit (MaxRows) or no expiry.
type LookupCacheConfig struct {
	// MaxRows bounds the number of cached keys
	// ('lookup.partial-cache.max-rows').
	MaxRows int64
	// ExpireAfterWriteMillis and ExpireAfterAccessMillis expire entries
	// ('lookup.partial-cache.expire-after-write' / '-access'), in
	// milliseconds.
	ExpireAfterWriteMillis  int64
	ExpireAfterAccessMillis int64
	// CacheMissingKey caches keys with no rows too
	// ('lookup.partial-cache.cache-missing-key', default true).
	CacheMissingKey bool
}

// CachingLookupSource is implemented by a LookupSource whose table options
// ask for a cache; a nil config means no cache ('lookup.cache' = 'NONE').
type CachingLookupSource interface {
	LookupCache() *LookupCacheConfig
}
