// Package config holds Riffle's key/value configuration (PyFlink's
// pyflink.common.Configuration) and the options the engine reads, with
// Flink's keys, defaults and value syntax.
package config

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Configuration is a thread-safe map of string keys to string values with
// typed getters (Flink's Configuration). Values keep the text they were set
// with; typed getters parse on read.
type Configuration struct {
	mu   sync.RWMutex
	data map[string]string
}

// New returns an empty configuration.
func New() *Configuration { return &Configuration{data: map[string]string{}} }

// Clone returns an independent copy (nil-safe: a nil receiver clones to empty).
func (c *Configuration) Clone() *Configuration {
	out := New()
	if c == nil {
		return out
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	for k, v := range c.data {
		out.data[k] = v
	}
	return out
}

// Set stores a value as text.
func (c *Configuration) Set(key, value string) {
	c.mu.Lock()
	c.data[key] = value
	c.mu.Unlock()
}

// Get returns the text value and whether it is set.
func (c *Configuration) Get(key string) (string, bool) {
	if c == nil {
		return "", false
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	v, ok := c.data[key]
	return v, ok
}

// GetString returns the value or def when unset (PyFlink's get_string).
func (c *Configuration) GetString(key, def string) string {
	if v, ok := c.Get(key); ok {
		return v
	}
	return def
}

// SetString stores a string and returns c for chaining (PyFlink's
// set_string).
func (c *Configuration) SetString(key, value string) *Configuration {
	c.Set(key, value)
	return c
}

// GetInteger parses an integer value; def when unset or unparsable
// (PyFlink's get_integer).
func (c *Configuration) GetInteger(key string, def int64) int64 {
	if v, ok := c.Get(key); ok {
		if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
			return n
		}
	}
	return def
}

// SetInteger stores an integer and returns c for chaining (PyFlink's
// set_integer).
func (c *Configuration) SetInteger(key string, v int64) *Configuration {
	c.Set(key, strconv.FormatInt(v, 10))
	return c
}

// GetBoolean parses "true"/"false" (case-insensitive); def otherwise
// (PyFlink's get_boolean).
func (c *Configuration) GetBoolean(key string, def bool) bool {
	if v, ok := c.Get(key); ok {
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "true":
			return true
		case "false":
			return false
		}
	}
	return def
}

// SetBoolean stores a boolean and returns c for chaining (PyFlink's
// set_boolean).
func (c *Configuration) SetBoolean(key string, v bool) *Configuration {
	c.Set(key, strconv.FormatBool(v))
	return c
}

// GetFloat parses a float value; def when unset or unparsable (PyFlink's
// get_float).
func (c *Configuration) GetFloat(key string, def float64) float64 {
	if v, ok := c.Get(key); ok {
		if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
			return f
		}
	}
	return def
}

// SetFloat stores a float and returns c for chaining (PyFlink's
// set_float).
func (c *Configuration) SetFloat(key string, v float64) *Configuration {
	c.Set(key, strconv.FormatFloat(v, 'g', -1, 64))
	return c
}

// GetDuration parses a Flink duration ("200 ms", "10s", "1 min", "2 h",
// "1d"; a bare number is milliseconds); def when unset or unparsable.
func (c *Configuration) GetDuration(key string, def time.Duration) time.Duration {
	if v, ok := c.Get(key); ok {
		if d, err := ParseDuration(v); err == nil {
			return d
		}
	}
	return def
}

// ContainsKey reports whether the key is set (PyFlink's contains_key).
func (c *Configuration) ContainsKey(key string) bool {
	_, ok := c.Get(key)
	return ok
}

// Remove deletes a key and reports whether it was set.
func (c *Configuration) Remove(key string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.data[key]
	delete(c.data, key)
	return ok
}

// KeySet lists the keys in sorted order (PyFlink's key_set).
func (c *Configuration) KeySet() []string {
	if c == nil {
		return nil
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	keys := make([]string, 0, len(c.data))
	for k := range c.data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// ToMap returns a copy of all entries (PyFlink's to_dict).
func (c *Configuration) ToMap() map[string]string {
	out := map[string]string{}
	if c == nil {
		return out
	}
	c.mu.RLock()
	defer c.mu.RUnlock()
	for k, v := range c.data {
		out[k] = v
	}
	return out
}

// AddAll copies every entry of o into c, overwriting existing keys, and
// returns c (PyFlink's add_all without a prefix).
func (c *Configuration) AddAll(o *Configuration) *Configuration {
	for k, v := range o.ToMap() {
		c.Set(k, v)
	}
	return c
}

// Clear removes every entry.
func (c *Configuration) Clear() {
	c.mu.Lock()
	c.data = map[string]string{}
	c.mu.Unlock()
}

// ParseDuration parses Flink's duration syntax: a number followed by an
// optional unit (ns, us/µs, ms, s/sec/second(s), min/minute(s), h/hour(s),
// d/day(s)); no unit means milliseconds.
func ParseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9') {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("invalid duration %q: expected a number", s)
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("invalid duration %q: %v", s, err)
	}
	unit := strings.TrimSpace(s[i:])
	var mult time.Duration
	switch unit {
	case "ns", "nano", "nanos", "nanosecond", "nanoseconds":
		mult = time.Nanosecond
	case "us", "µs", "micro", "micros", "microsecond", "microseconds":
		mult = time.Microsecond
	case "", "ms", "milli", "millis", "millisecond", "milliseconds":
		mult = time.Millisecond
	case "s", "sec", "secs", "second", "seconds":
		mult = time.Second
	case "m", "min", "mins", "minute", "minutes":
		mult = time.Minute
	case "h", "hour", "hours":
		mult = time.Hour
	case "d", "day", "days":
		mult = 24 * time.Hour
	default:
		return 0, fmt.Errorf("invalid duration %q: unknown unit %q", s, unit)
	}
	if n > math.MaxInt64/int64(mult) {
		// Flink's TimeUtils.parseDuration refuses it the same way
		return 0, fmt.Errorf("invalid duration %q: it cannot be represented as a 64-bit number of nanoseconds (numeric overflow)", s)
	}
	return time.Duration(n) * mult, nil
}
