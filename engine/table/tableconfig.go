package table

import (
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
