package config

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// NewFrom returns a configuration holding a copy of other's entries
// (PyFlink's Configuration(other)); a nil other gives an empty one.
func NewFrom(other *Configuration) *Configuration { return other.Clone() }

// AddAllWithPrefix copies every entry of o into c with each key prefixed
// by prefix, and returns c (PyFlink's add_all(other, prefix)).
func (c *Configuration) AddAllWithPrefix(o *Configuration, prefix string) *Configuration {
	for k, v := range o.ToMap() {
		c.Set(prefix+k, v)
	}
	return c
}

// AddAllToDict copies every entry into dst (PyFlink's add_all_to_dict).
func (c *Configuration) AddAllToDict(dst map[string]string) {
	for k, v := range c.ToMap() {
		dst[k] = v
	}
}

// ToDict is ToMap (PyFlink's to_dict).
func (c *Configuration) ToDict() map[string]string { return c.ToMap() }

// RemoveConfig deletes a key and reports whether it was set (PyFlink's
// remove_config).
func (c *Configuration) RemoveConfig(key string) bool { return c.Remove(key) }

// GetBytearray returns a byte array stored with SetBytearray (base64 text),
// or def when unset or not valid base64 (PyFlink's get_bytearray).
func (c *Configuration) GetBytearray(key string, def []byte) []byte {
	if v, ok := c.Get(key); ok {
		if b, err := base64.StdEncoding.DecodeString(v); err == nil {
			return b
		}
	}
	return def
}

// SetBytearray stores a byte array as base64 text and returns c (PyFlink's
// set_bytearray).
func (c *Configuration) SetBytearray(key string, v []byte) *Configuration {
	c.Set(key, base64.StdEncoding.EncodeToString(v))
	return c
}

// SetDuration stores a duration in Flink's syntax ("30 s") and returns c.
func (c *Configuration) SetDuration(key string, d time.Duration) *Configuration {
	c.Set(key, FormatDuration(d))
	return c
}

// FormatDuration renders a duration in Flink's syntax with the largest
// exact unit: "3 min", "30 s", "200 ms", "0 ms".
func FormatDuration(d time.Duration) string {
	units := []struct {
		d    time.Duration
		name string
	}{{24 * time.Hour, "d"}, {time.Hour, "h"}, {time.Minute, "min"}, {time.Second, "s"}, {time.Millisecond, "ms"}, {time.Microsecond, "us"}, {time.Nanosecond, "ns"}}
	if d == 0 {
		return "0 ms"
	}
	for _, u := range units {
		if d%u.d == 0 {
			return fmt.Sprintf("%d %s", d/u.d, u.name)
		}
	}
	return fmt.Sprintf("%d ns", d)
}

// ConfigOption is a typed configuration option (PyFlink's ConfigOption):
// a key, optional deprecated fallback keys, an optional default and a
// description. Build one with Key; read and write it with Get and Set.
// It is immutable.
type ConfigOption[T any] struct {
	key          string
	def          T
	hasDefault   bool
	fallbackKeys []string
	description  string
	parse        func(string) (T, error)
	format       func(T) string
}

// Key returns the option's key.
func (o *ConfigOption[T]) Key() string { return o.key }

// DefaultValue returns the default and whether the option has one.
func (o *ConfigOption[T]) DefaultValue() (T, bool) { return o.def, o.hasDefault }

// HasDefaultValue reports whether the option has a default.
func (o *ConfigOption[T]) HasDefaultValue() bool { return o.hasDefault }

// FallbackKeys returns the deprecated keys read when the key is unset.
func (o *ConfigOption[T]) FallbackKeys() []string { return append([]string(nil), o.fallbackKeys...) }

// Description returns the option's description.
func (o *ConfigOption[T]) Description() string { return o.description }

// WithFallbackKeys returns a copy that also reads the given deprecated
// keys (Flink's withFallbackKeys / withDeprecatedKeys).
func (o *ConfigOption[T]) WithFallbackKeys(keys ...string) *ConfigOption[T] {
	c := *o
	c.fallbackKeys = append(append([]string(nil), o.fallbackKeys...), keys...)
	return &c
}

// WithDescription returns a copy with a description.
func (o *ConfigOption[T]) WithDescription(d string) *ConfigOption[T] {
	c := *o
	c.description = d
	return &c
}

// String renders "Key: 'k' , default: v".
func (o *ConfigOption[T]) String() string {
	if !o.hasDefault {
		return fmt.Sprintf("Key: '%s' , default: null (fallback keys: %v)", o.key, o.fallbackKeys)
	}
	return fmt.Sprintf("Key: '%s' , default: %s (fallback keys: %v)", o.key, o.format(o.def), o.fallbackKeys)
}

// OptionBuilder is the first step of building a ConfigOption (PyFlink's
// ConfigOptions.OptionBuilder).
type OptionBuilder struct{ key string }

// Key starts an option with that key (PyFlink's ConfigOptions.key):
//
//	config.Key("tmp.dir").StringType().DefaultValue("/tmp")
func Key(key string) *OptionBuilder { return &OptionBuilder{key: key} }

// TypedConfigOptionBuilder is the second step, with the value type fixed
// (PyFlink's TypedConfigOptionBuilder).
type TypedConfigOptionBuilder[T any] struct {
	key    string
	parse  func(string) (T, error)
	format func(T) string
}

// DefaultValue completes the option with a default (PyFlink's
// default_value).
func (b *TypedConfigOptionBuilder[T]) DefaultValue(v T) *ConfigOption[T] {
	return &ConfigOption[T]{key: b.key, def: v, hasDefault: true, parse: b.parse, format: b.format}
}

// NoDefaultValue completes the option without a default (PyFlink's
// no_default_value).
func (b *TypedConfigOptionBuilder[T]) NoDefaultValue() *ConfigOption[T] {
	return &ConfigOption[T]{key: b.key, parse: b.parse, format: b.format}
}

func typed[T any](key string, parse func(string) (T, error), format func(T) string) *TypedConfigOptionBuilder[T] {
	return &TypedConfigOptionBuilder[T]{key: key, parse: parse, format: format}
}

// BooleanType makes a bool option (PyFlink's boolean_type).
func (b *OptionBuilder) BooleanType() *TypedConfigOptionBuilder[bool] {
	return typed(b.key, func(s string) (bool, error) { return strconv.ParseBool(strings.ToLower(strings.TrimSpace(s))) }, strconv.FormatBool)
}

// IntType makes a 32-bit integer option (PyFlink's int_type).
func (b *OptionBuilder) IntType() *TypedConfigOptionBuilder[int32] {
	return typed(b.key, func(s string) (int32, error) {
		n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
		return int32(n), err
	}, func(v int32) string { return strconv.FormatInt(int64(v), 10) })
}

// LongType makes a 64-bit integer option (PyFlink's long_type).
func (b *OptionBuilder) LongType() *TypedConfigOptionBuilder[int64] {
	return typed(b.key, func(s string) (int64, error) { return strconv.ParseInt(strings.TrimSpace(s), 10, 64) },
		func(v int64) string { return strconv.FormatInt(v, 10) })
}

// FloatType makes a 4-byte float option (PyFlink's float_type).
func (b *OptionBuilder) FloatType() *TypedConfigOptionBuilder[float32] {
	return typed(b.key, func(s string) (float32, error) {
		f, err := strconv.ParseFloat(strings.TrimSpace(s), 32)
		return float32(f), err
	}, func(v float32) string { return strconv.FormatFloat(float64(v), 'g', -1, 32) })
}

// DoubleType makes an 8-byte float option (PyFlink's double_type).
func (b *OptionBuilder) DoubleType() *TypedConfigOptionBuilder[float64] {
	return typed(b.key, func(s string) (float64, error) { return strconv.ParseFloat(strings.TrimSpace(s), 64) },
		func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) })
}

// StringType makes a string option (PyFlink's string_type).
func (b *OptionBuilder) StringType() *TypedConfigOptionBuilder[string] {
	return typed(b.key, func(s string) (string, error) { return s, nil }, func(v string) string { return v })
}

// DurationType makes a duration option in Flink's syntax ("30 s",
// "3min"; a bare number is milliseconds) (Flink's durationType).
func (b *OptionBuilder) DurationType() *TypedConfigOptionBuilder[time.Duration] {
	return typed(b.key, ParseDuration, FormatDuration)
}

// Get reads an option: the value of its key, else of a fallback key, else
// its default (the zero value without one). A value that does not parse
// as the option's type is an error.
func Get[T any](c *Configuration, o *ConfigOption[T]) (T, error) {
	for _, k := range append([]string{o.key}, o.fallbackKeys...) {
		if v, ok := c.Get(k); ok {
			x, err := o.parse(v)
			if err != nil {
				var zero T
				return zero, fmt.Errorf("Could not parse value '%s' for key '%s': %v", v, k, err)
			}
			return x, nil
		}
	}
	return o.def, nil
}

// GetOptional reads an option like Get and reports whether a value (not a
// default) was found.
func GetOptional[T any](c *Configuration, o *ConfigOption[T]) (T, bool, error) {
	for _, k := range append([]string{o.key}, o.fallbackKeys...) {
		if c.ContainsKey(k) {
			v, err := Get(c, o)
			return v, err == nil, err
		}
	}
	var zero T
	return zero, false, nil
}

// Set writes an option's value as text and returns c.
func Set[T any](c *Configuration, o *ConfigOption[T], v T) *Configuration {
	c.Set(o.key, o.format(v))
	return c
}

// ParseMapValue parses Flink's map option syntax "k1:v1,k2:v2", where a
// key or value holding ',' or ':' is enclosed in single quotes (a quote
// inside is doubled). Malformed entries are skipped.
func ParseMapValue(s string) map[string]string {
	out := map[string]string{}
	for _, part := range splitOutsideQuotes(s, ',') {
		kv := splitOutsideQuotes(part, ':')
		if len(kv) != 2 {
			continue
		}
		out[unquoteMapPart(strings.TrimSpace(kv[0]))] = unquoteMapPart(strings.TrimSpace(kv[1]))
	}
	return out
}

// FormatMapValue renders a map in Flink's map option syntax, keys sorted.
func FormatMapValue(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = quoteMapPart(k) + ":" + quoteMapPart(m[k])
	}
	return strings.Join(parts, ",")
}

func quoteMapPart(s string) string {
	if strings.ContainsAny(s, ",:'") {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return s
}

func unquoteMapPart(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	return s
}

// splitOutsideQuotes splits s at sep where it is not inside single quotes.
func splitOutsideQuotes(s string, sep byte) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []string
	start, quoted := 0, false
	for i := 0; i < len(s); i++ {
		switch {
		case s[i] == '\'':
			quoted = !quoted
		case s[i] == sep && !quoted:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}
