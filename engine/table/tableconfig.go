package table

import (
	"strings"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/common"
	"github.com/riffle-sql/riffle/engine/config"
)

// TableConfig is the session configuration of a TableEnvironment
// (PyFlink's TableConfig): typed access to common options over the
// key/value Configuration. Set options before building the queries they
// should affect: some are read when a query is planned (the current
// catalog, the dialect), others when its job runs (the time zone).
type TableConfig struct {
	conf *config.Configuration

	mu             sync.Mutex
	decimalContext DecimalContext
	maxCodeLength  int
	nullCheck      bool
}

func newTableConfig(c *config.Configuration) *TableConfig {
	return &TableConfig{conf: c, decimalContext: DecimalContext{Precision: 34, RoundingMode: RoundHalfEven}, maxCodeLength: 4000, nullCheck: true}
}

// NewTableConfig returns a configuration with the defaults (PyFlink's
// TableConfig()).
func NewTableConfig() *TableConfig { return newTableConfig(config.New()) }

// DefaultTableConfig returns a configuration with the defaults (PyFlink's
// TableConfig.get_default).
func DefaultTableConfig() *TableConfig { return NewTableConfig() }

// Configuration returns the underlying key/value configuration; changes
// apply to statements planned afterwards (PyFlink's get_configuration).
func (c *TableConfig) Configuration() *config.Configuration { return c.conf }

// AddConfiguration copies entries into the session configuration,
// overwriting existing keys (PyFlink's add_configuration).
func (c *TableConfig) AddConfiguration(o *config.Configuration) { c.conf.AddAll(o) }

// ExecutionConfig returns the execution configuration over the same
// key/value configuration (PyFlink's StreamExecutionEnvironment.get_config).
func (c *TableConfig) ExecutionConfig() *common.ExecutionConfig {
	return common.NewExecutionConfig(c.conf)
}

// Set sets one option and returns c (PyFlink's TableConfig.set).
func (c *TableConfig) Set(key, value string) *TableConfig {
	c.conf.Set(key, value)
	return c
}

// Get returns an option's value or def.
func (c *TableConfig) Get(key, def string) string { return c.conf.GetString(key, def) }

// LocalTimeZone returns table.local-time-zone, the zone of
// TIMESTAMP_LTZ values ("default" = the system zone) (PyFlink's
// get_local_timezone).
func (c *TableConfig) LocalTimeZone() string {
	return c.conf.GetString(config.LocalTimeZone.Key, config.LocalTimeZone.Default)
}

// LocalTimeZoneLocation resolves table.local-time-zone to a location as
// the engine does at run time: "default" (or unset) is time.Local, a region
// name is loaded from the zone database, and a custom offset id such as
// "GMT+08:00" is a fixed zone (config.ParseTimeZone). An id the engine
// cannot resolve is an error (a job would fail on it as well).
func (c *TableConfig) LocalTimeZoneLocation() (*time.Location, error) {
	return c.conf.TimeZone()
}

// SetLocalTimeZone sets table.local-time-zone: a zone name such as
// "America/Los_Angeles", an offset id such as "GMT-08:00", or "default"
// (PyFlink's set_local_timezone). It fails for unknown zones.
func (c *TableConfig) SetLocalTimeZone(zone string) error {
	if zone != "default" {
		if _, err := config.ParseTimeZone(zone); err != nil {
			return err
		}
	}
	c.conf.Set(config.LocalTimeZone.Key, zone)
	return nil
}

// IdleStateRetention returns table.exec.state.ttl, how long state of an
// idle key is kept (0 = forever) (PyFlink's get_idle_state_retention).
func (c *TableConfig) IdleStateRetention() time.Duration {
	return c.conf.GetDuration(config.StateTTL.Key, 0)
}

// SetIdleStateRetention sets table.exec.state.ttl: state of a key idle for
// at least d (and at most 1.5 d) is cleared; 0 never clears it (PyFlink's
// set_idle_state_retention). A key whose state was cleared is treated as
// new, so earlier results may be overwritten.
func (c *TableConfig) SetIdleStateRetention(d time.Duration) {
	c.conf.Set(config.StateTTL.Key, config.FormatDuration(d))
}

// DecimalContext returns the precision and rounding mode of DECIMAL
// division (default 34, HALF_EVEN).
func (c *TableConfig) DecimalContext() DecimalContext {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.decimalContext
}

// SetDecimalContext sets the precision (0 = unlimited) and rounding mode
// (UP, DOWN, CEILING, FLOOR, HALF_UP, HALF_DOWN, HALF_EVEN, UNNECESSARY)
// of DECIMAL division (PyFlink's set_decimal_context). Riffle derives
// DECIMAL division types with Flink SQL's rules; the context is kept for
// programs that read it back and for DecimalContext.Round.
func (c *TableConfig) SetDecimalContext(precision int, roundingMode string) error {
	m := RoundingMode(strings.ToUpper(roundingMode))
	if !m.valid() {
		return errorf("unknown rounding mode %q", roundingMode)
	}
	if precision < 0 {
		return errorf("the precision must not be negative, got %d", precision)
	}
	c.mu.Lock()
	c.decimalContext = DecimalContext{Precision: precision, RoundingMode: m}
	c.mu.Unlock()
	return nil
}

// SqlDialect is the SQL dialect of statements (PyFlink's SqlDialect).
type SqlDialect int

// SQL dialects.
const (
	// SqlDialectDefault is Flink's SQL dialect.
	SqlDialectDefault SqlDialect = iota
	// SqlDialectHive is Hive's dialect, which Riffle's parser does not
	// support: statements then fail.
	SqlDialectHive
)

func (d SqlDialect) String() string { return [...]string{"DEFAULT", "HIVE"}[d] }

// SQLDialect returns table.sql-dialect (PyFlink's get_sql_dialect).
func (c *TableConfig) SQLDialect() SqlDialect {
	if strings.EqualFold(c.conf.GetString("table.sql-dialect", "default"), "hive") {
		return SqlDialectHive
	}
	return SqlDialectDefault
}

// SetSQLDialect sets table.sql-dialect (PyFlink's set_sql_dialect).
func (c *TableConfig) SetSQLDialect(d SqlDialect) {
	c.conf.Set("table.sql-dialect", strings.ToLower(d.String()))
}

// globalJobParameters is Flink's pipeline.global-job-parameters key.
const globalJobParameters = "pipeline.global-job-parameters"
