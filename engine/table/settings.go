package table

import (
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/config"
)

// EnvironmentSettings chooses the runtime mode and the names of the
// built-in catalog and database of a TableEnvironment (PyFlink's
// EnvironmentSettings). It is immutable; build it with InStreamingMode,
// InBatchMode or NewEnvironmentSettingsBuilder.
type EnvironmentSettings struct {
	streaming       bool
	builtinCatalog  string
	builtinDatabase string
	config          *config.Configuration
}

// InStreamingMode returns settings for streaming mode, Flink's default:
// bounded and unbounded input (PyFlink's EnvironmentSettings.in_streaming_mode).
func InStreamingMode() *EnvironmentSettings {
	return &EnvironmentSettings{streaming: true, builtinCatalog: catalog.DefaultCatalog, builtinDatabase: catalog.DefaultDatabase}
}

// InBatchMode returns settings for batch mode: bounded input only,
// results computed once (PyFlink's EnvironmentSettings.in_batch_mode).
func InBatchMode() *EnvironmentSettings {
	return &EnvironmentSettings{streaming: false, builtinCatalog: catalog.DefaultCatalog, builtinDatabase: catalog.DefaultDatabase}
}

// IsStreamingMode reports the mode (PyFlink's is_streaming_mode).
func (s *EnvironmentSettings) IsStreamingMode() bool { return s.streaming }

// BuiltinCatalogName is the name of the initial catalog
// (default_catalog by default) (PyFlink's get_built_in_catalog_name).
func (s *EnvironmentSettings) BuiltinCatalogName() string { return s.builtinCatalog }

// BuiltinDatabaseName is the name of the initial database
// (default_database by default) (PyFlink's get_built_in_database_name).
func (s *EnvironmentSettings) BuiltinDatabaseName() string { return s.builtinDatabase }

// WithConfiguration returns a copy carrying initial configuration entries
// for the environments created with it.
func (s *EnvironmentSettings) WithConfiguration(c *config.Configuration) *EnvironmentSettings {
	cp := *s
	cp.config = c.Clone()
	return &cp
}

// ToConfiguration returns the settings as configuration entries:
// execution.runtime-mode, STREAMING or BATCH, as Flink 2.3's
// EnvironmentSettings.getConfiguration holds it (PyFlink 1.14's
// to_configuration also set table.planner=blink; Flink 2.x has no such
// option).
func (s *EnvironmentSettings) ToConfiguration() *config.Configuration {
	c := s.config.Clone()
	mode := "STREAMING"
	if !s.streaming {
		mode = "BATCH"
	}
	c.Set(config.RuntimeMode.Key, mode)
	return c
}

// EnvironmentSettingsFromConfiguration builds settings from configuration
// entries: execution.runtime-mode selects the mode; all entries are kept
// for the environment (PyFlink's EnvironmentSettings.from_configuration).
func EnvironmentSettingsFromConfiguration(c *config.Configuration) *EnvironmentSettings {
	s := InStreamingMode()
	if c.IsBatch() {
		s = InBatchMode()
	}
	s.config = c.Clone()
	return s
}

// EnvironmentSettingsBuilder builds EnvironmentSettings (PyFlink's
// EnvironmentSettings.Builder).
type EnvironmentSettingsBuilder struct {
	s   EnvironmentSettings
	err error
}

// NewEnvironmentSettingsBuilder starts settings in streaming mode with
// the default catalog and database names (PyFlink's
// EnvironmentSettings.new_instance).
func NewEnvironmentSettingsBuilder() *EnvironmentSettingsBuilder {
	return &EnvironmentSettingsBuilder{s: *InStreamingMode()}
}

// InBatchMode selects batch mode (PyFlink's Builder.in_batch_mode).
func (b *EnvironmentSettingsBuilder) InBatchMode() *EnvironmentSettingsBuilder {
	b.s.streaming = false
	return b
}

// InStreamingMode selects streaming mode, the default (PyFlink's
// Builder.in_streaming_mode).
func (b *EnvironmentSettingsBuilder) InStreamingMode() *EnvironmentSettingsBuilder {
	b.s.streaming = true
	return b
}

// WithBuiltInCatalogName names the built-in in-memory catalog, which holds
// temporary objects and is the initial current catalog (default
// "default_catalog") (PyFlink's with_built_in_catalog_name).
func (b *EnvironmentSettingsBuilder) WithBuiltInCatalogName(name string) *EnvironmentSettingsBuilder {
	if strings.TrimSpace(name) == "" {
		b.err = errorf("the built-in catalog name must not be empty")
		return b
	}
	b.s.builtinCatalog = name
	return b
}

// WithBuiltInDatabaseName names the built-in database, the initial current
// database (default "default_database") (PyFlink's
// with_built_in_database_name).
func (b *EnvironmentSettingsBuilder) WithBuiltInDatabaseName(name string) *EnvironmentSettingsBuilder {
	if strings.TrimSpace(name) == "" {
		b.err = errorf("the built-in database name must not be empty")
		return b
	}
	b.s.builtinDatabase = name
	return b
}

// WithConfiguration adds initial configuration entries.
func (b *EnvironmentSettingsBuilder) WithConfiguration(c *config.Configuration) *EnvironmentSettingsBuilder {
	b.s.config = c.Clone()
	return b
}

// Build returns the settings, or the builder's error (PyFlink's build).
func (b *EnvironmentSettingsBuilder) Build() (*EnvironmentSettings, error) {
	if b.err != nil {
		return nil, b.err
	}
	s := b.s
	return &s, nil
}
