package runtime

import (
	"container/list"
	"fmt"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// LookupCache is the partial cache in front of a lookup source (Flink's
// DefaultLookupCache, 'lookup.cache' = 'PARTIAL'): the rows of each key
// looked up, kept until MaxRows keys push out the least recently used one,
// or until they expire ExpireAfterWriteMillis after they were loaded or
// ExpireAfterAccessMillis after they were last read, by the job's clock.
// Keys without rows are kept only when CacheMissingKey is set. One cache
// belongs to one parallel instance of a lookup join (one goroutine); it is
// not safe for concurrent use.
type LookupCache struct {
	cfg     connector.LookupCacheConfig
	clock   Clock
	entries map[string]*list.Element
	lru     *list.List // front: most recently used

	// HitCount, MissCount and LoadCount count lookups answered by the
	// cache, lookups it could not answer, and loads from the source
	// (Flink's hitCount, missCount and loadCount cache metrics).
	HitCount, MissCount, LoadCount int64
}

type lookupCacheEntry struct {
	key      string
	rows     *types.Batch
	written  time.Time
	accessed time.Time
}

// NewLookupCache returns an empty cache configured by cfg that tells time
// by clock (nil: the system clock).
func NewLookupCache(cfg connector.LookupCacheConfig, clock Clock) *LookupCache {
	if clock == nil {
		clock = SystemClock{}
	}
	return &LookupCache{cfg: cfg, clock: clock, entries: map[string]*list.Element{}, lru: list.New()}
}

// Get returns the cached rows of key (a batch with Len 0 for a key cached
// as missing) and whether the key was cached and not expired; it counts a
// hit or a miss.
func (c *LookupCache) Get(key string) (*types.Batch, bool) {
	el, ok := c.entries[key]
	if !ok {
		c.MissCount++
		return nil, false
	}
	e := el.Value.(*lookupCacheEntry)
	now := c.clock.Now()
	if c.expired(e, now) {
		c.remove(el)
		c.MissCount++
		return nil, false
	}
	e.accessed = now
	c.lru.MoveToFront(el)
	c.HitCount++
	return e.rows, true
}

func (c *LookupCache) expired(e *lookupCacheEntry, now time.Time) bool {
	if w := c.cfg.ExpireAfterWriteMillis; w > 0 && !now.Before(e.written.Add(time.Duration(w)*time.Millisecond)) {
		return true
	}
	if a := c.cfg.ExpireAfterAccessMillis; a > 0 && !now.Before(e.accessed.Add(time.Duration(a)*time.Millisecond)) {
		return true
	}
	return false
}

// Put caches the rows of key (Len 0: the key has none, cached only with
// CacheMissingKey), evicting the least recently used keys beyond MaxRows.
func (c *LookupCache) Put(key string, rows *types.Batch) {
	if rows == nil || rows.Len == 0 {
		if !c.cfg.CacheMissingKey {
			return
		}
	}
	now := c.clock.Now()
	if el, ok := c.entries[key]; ok {
		e := el.Value.(*lookupCacheEntry)
		e.rows, e.written, e.accessed = rows, now, now
		c.lru.MoveToFront(el)
		return
	}
	c.entries[key] = c.lru.PushFront(&lookupCacheEntry{key: key, rows: rows, written: now, accessed: now})
	for c.cfg.MaxRows > 0 && int64(c.lru.Len()) > c.cfg.MaxRows {
		c.remove(c.lru.Back())
	}
}

func (c *LookupCache) remove(el *list.Element) {
	c.lru.Remove(el)
	delete(c.entries, el.Value.(*lookupCacheEntry).key)
}

// Len is the number of cached keys (expired ones included until read).
func (c *LookupCache) Len() int { return c.lru.Len() }

// lookupKey renders a key's Go values as a map key: values of different
// types never collide ("1" the string and 1 the number differ).
func lookupKey(vals []any) string {
	var sb strings.Builder
	for i, v := range vals {
		if i > 0 {
			sb.WriteByte(0)
		}
		switch x := v.(type) {
		case time.Time:
			fmt.Fprintf(&sb, "time:%d.%09d", x.Unix(), x.Nanosecond())
		case []byte:
			fmt.Fprintf(&sb, "bytes:%x", x)
		default:
			fmt.Fprintf(&sb, "%T:%v", v, v)
		}
	}
	return sb.String()
}
