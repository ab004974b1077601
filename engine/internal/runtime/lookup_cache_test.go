package runtime

import (
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

func cacheRows(t *testing.T, vals ...int64) *types.Batch {
	t.Helper()
	bb := types.NewBatchBuilder([]*types.DataType{types.BigIntType()})
	for _, v := range vals {
		if err := bb.Append(types.Insert, []any{v}); err != nil {
			t.Fatal(err)
		}
	}
	return bb.Build()
}

func wantCached(t *testing.T, c *LookupCache, key string, want int) {
	t.Helper()
	rows, ok := c.Get(key)
	if want < 0 {
		if ok {
			t.Fatalf("%s: cached (%d rows), want a miss", key, rows.Len)
		}
		return
	}
	if !ok || rows.Len != want {
		t.Fatalf("%s: cached=%v rows=%v, want %d rows", key, ok, rows, want)
	}
}

// The LRU bound evicts the least recently used key, a read counting as a use.
func TestLookupCacheMaxRows(t *testing.T) {
	c := NewLookupCache(connector.LookupCacheConfig{MaxRows: 2}, NewManualClock(time.Unix(0, 0)))
	c.Put("a", cacheRows(t, 1))
	c.Put("b", cacheRows(t, 2, 3))
	wantCached(t, c, "a", 1) // a is now the most recent
	c.Put("c", cacheRows(t, 4))
	if c.Len() != 2 {
		t.Fatalf("len %d, want 2", c.Len())
	}
	wantCached(t, c, "b", -1)
	wantCached(t, c, "a", 1)
	wantCached(t, c, "c", 1)
	if c.HitCount != 3 || c.MissCount != 1 {
		t.Fatalf("hits %d misses %d, want 3 and 1", c.HitCount, c.MissCount)
	}
}

// Entries expire by the job's clock after the write, however often read.
func TestLookupCacheExpireAfterWrite(t *testing.T) {
	clk := NewManualClock(time.Unix(1000, 0))
	c := NewLookupCache(connector.LookupCacheConfig{ExpireAfterWriteMillis: 10_000}, clk)
	c.Put("k", cacheRows(t, 1))
	clk.Advance(9 * time.Second)
	wantCached(t, c, "k", 1)
	clk.Advance(999 * time.Millisecond)
	wantCached(t, c, "k", 1)
	clk.Advance(time.Millisecond)
	wantCached(t, c, "k", -1)
	if c.Len() != 0 {
		t.Fatalf("an expired entry stays: len %d", c.Len())
	}
	// written again, the clock starts over
	c.Put("k", cacheRows(t, 1, 2))
	clk.Advance(5 * time.Second)
	wantCached(t, c, "k", 2)
}

// Entries expire after the last read; each read extends them.
func TestLookupCacheExpireAfterAccess(t *testing.T) {
	clk := NewManualClock(time.Unix(1000, 0))
	c := NewLookupCache(connector.LookupCacheConfig{ExpireAfterAccessMillis: 1000}, clk)
	c.Put("k", cacheRows(t, 1))
	for i := 0; i < 5; i++ {
		clk.Advance(900 * time.Millisecond)
		wantCached(t, c, "k", 1)
	}
	clk.Advance(1000 * time.Millisecond)
	wantCached(t, c, "k", -1)
}

// A key without rows is cached only when caching-missing-key is set.
func TestLookupCacheMissingKey(t *testing.T) {
	clk := NewManualClock(time.Unix(0, 0))
	off := NewLookupCache(connector.LookupCacheConfig{}, clk)
	off.Put("none", cacheRows(t))
	wantCached(t, off, "none", -1)
	on := NewLookupCache(connector.LookupCacheConfig{CacheMissingKey: true}, clk)
	on.Put("none", cacheRows(t))
	wantCached(t, on, "none", 0)
}

// Keys of different types or values never share an entry.
func TestLookupKeyDistinct(t *testing.T) {
	keys := map[string]bool{}
	for _, k := range [][]any{{int64(1)}, {"1"}, {int32(1)}, {int64(1), "a"}, {"1\x00a"},
		{time.Unix(1, 5)}, {time.Unix(1, 6)}, {[]byte("x")}, {"x"}} {
		s := lookupKey(k)
		if keys[s] {
			t.Fatalf("key %v collides: %q", k, s)
		}
		keys[s] = true
	}
}
