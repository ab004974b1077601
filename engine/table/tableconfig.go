package table

import (
	"sort"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
)

// TableConfig is the session configuration of a TableEnvironment
// (PyFlink's TableConfig): typed access to common options over the
// key/value Configuration.
type TableConfig struct {
	conf *config.Configuration
}

// GetConfiguration returns the underlying key/value configuration; changes
// apply to statements planned afterwards.
func (c *TableConfig) GetConfiguration() *config.Configuration { return c.conf }

// Set sets one option (PyFlink's TableConfig.set).
func (c *TableConfig) Set(key, value string) *TableConfig {
	c.conf.Set(key, value)
	return c
}

// Get returns an option's value or def.
func (c *TableConfig) Get(key, def string) string { return c.conf.GetString(key, def) }

// GetLocalTimeZone returns table.local-time-zone ("default" = system zone).
func (c *TableConfig) GetLocalTimeZone() string {
	return c.conf.GetString(config.LocalTimeZone.Key, config.LocalTimeZone.Default)
}

// SetLocalTimeZone sets table.local-time-zone; it fails for unknown zones.
func (c *TableConfig) SetLocalTimeZone(zone string) error {
	if zone != "default" {
		if _, err := time.LoadLocation(zone); err != nil {
			return err
		}
	}
	c.conf.Set(config.LocalTimeZone.Key, zone)
	return nil
}

// GetIdleStateRetention returns table.exec.state.ttl (0 = forever).
func (c *TableConfig) GetIdleStateRetention() time.Duration {
	return c.conf.GetDuration(config.StateTTL.Key, 0)
}

// SetIdleStateRetention sets table.exec.state.ttl.
func (c *TableConfig) SetIdleStateRetention(d time.Duration) {
	c.conf.Set(config.StateTTL.Key, d.String())
}

// AddConfiguration copies entries into the session configuration.
func (c *TableConfig) AddConfiguration(o *config.Configuration) { c.conf.AddAll(o) }

// globalJobParameters is Flink's pipeline.global-job-parameters key.
const globalJobParameters = "pipeline.global-job-parameters"

// parseMapOption parses Flink's map option syntax "k1:v1,k2:v2" (values
// may be quoted with single quotes).
func parseMapOption(v string) map[string]string {
	out := map[string]string{}
	for _, part := range splitUnquoted(v, ',') {
		k, val, ok := strings.Cut(part, ":")
		if !ok {
			continue
		}
		out[unquote(strings.TrimSpace(k))] = unquote(strings.TrimSpace(val))
	}
	return out
}

// formatMapOption renders a map as "k1:v1,k2:v2" in key order, quoting
// keys and values that hold ',' or ':'.
func formatMapOption(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = quoteIfNeeded(k) + ":" + quoteIfNeeded(m[k])
	}
	return strings.Join(parts, ",")
}

func quoteIfNeeded(s string) string {
	if strings.ContainsAny(s, ",:'") {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return s
}

func unquote(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], "''", "'")
	}
	return s
}

// splitUnquoted splits s at sep outside single quotes.
func splitUnquoted(s string, sep byte) []string {
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
