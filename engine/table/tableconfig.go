package table

import (
	"fmt"
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

// GetConfiguration returns the underlying key/value configuration; changes
// apply to statements planned afterwards (PyFlink's get_configuration).
func (c *TableConfig) GetConfiguration() *config.Configuration { return c.conf }

// AddConfiguration copies entries into the session configuration,
// overwriting existing keys (PyFlink's add_configuration).
func (c *TableConfig) AddConfiguration(o *config.Configuration) { c.conf.AddAll(o) }

// GetExecutionConfig returns the execution configuration over the same
// key/value configuration (PyFlink's StreamExecutionEnvironment.get_config).
func (c *TableConfig) GetExecutionConfig() *common.ExecutionConfig {
	return common.NewExecutionConfig(c.conf)
}

// Set sets one option and returns c (PyFlink's TableConfig.set).
func (c *TableConfig) Set(key, value string) *TableConfig {
	c.conf.Set(key, value)
	return c
}

// Get returns an option's value or def.
func (c *TableConfig) Get(key, def string) string { return c.conf.GetString(key, def) }

// GetLocalTimeZone returns table.local-time-zone, the zone of
// TIMESTAMP_LTZ values ("default" = the system zone) (PyFlink's
// get_local_timezone).
func (c *TableConfig) GetLocalTimeZone() string {
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

// GetIdleStateRetention returns table.exec.state.ttl, how long state of an
// idle key is kept (0 = forever) (PyFlink's get_idle_state_retention).
func (c *TableConfig) GetIdleStateRetention() time.Duration {
	return c.conf.GetDuration(config.StateTTL.Key, 0)
}

// SetIdleStateRetention sets table.exec.state.ttl: state of a key idle for
// at least d (and at most 1.5 d) is cleared; 0 never clears it (PyFlink's
// set_idle_state_retention). A key whose state was cleared is treated as
// new, so earlier results may be overwritten.
func (c *TableConfig) SetIdleStateRetention(d time.Duration) {
	c.conf.Set(config.StateTTL.Key, config.FormatDuration(d))
}

// SetIdleStateRetentionTime sets the idle state retention to minTime;
// maxTime is otherwise ignored and derived as 1.5 × minTime (PyFlink's
// set_idle_state_retention_time). As in Flink, maxTime must exceed
// minTime by at least 5 minutes unless both are 0 (never clean up);
// otherwise it returns an error and changes nothing.
//
// Deprecated: use SetIdleStateRetention.
func (c *TableConfig) SetIdleStateRetentionTime(minTime, maxTime time.Duration) error {
	if maxTime-minTime < 5*time.Minute && !(minTime == 0 && maxTime == 0) {
		return fmt.Errorf("Difference between minTime: %v and maxTime: %v should be at least 5 minutes.", minTime, maxTime)
	}
	c.SetIdleStateRetention(minTime)
	return nil
}

// GetMinIdleStateRetentionTime returns the retention in milliseconds
// (PyFlink's get_min_idle_state_retention_time).
//
// Deprecated: use GetIdleStateRetention.
func (c *TableConfig) GetMinIdleStateRetentionTime() int64 {
	return c.GetIdleStateRetention().Milliseconds()
}

// GetMaxIdleStateRetentionTime returns 1.5 × the retention in milliseconds
// (PyFlink's get_max_idle_state_retention_time).
//
// Deprecated: use GetIdleStateRetention.
func (c *TableConfig) GetMaxIdleStateRetentionTime() int64 {
	return c.GetIdleStateRetention().Milliseconds() * 3 / 2
}

// GetDecimalContext returns the precision and rounding mode of DECIMAL
// division (default 34, HALF_EVEN) (PyFlink's get_decimal_context).
func (c *TableConfig) GetDecimalContext() (int, string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.decimalContext.Precision, string(c.decimalContext.RoundingMode)
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

// GetMaxGeneratedCodeLength returns the threshold for splitting generated
// code (default 4000, as Flink's table.generated-code.max-length and PyFlink
// 2.3; the 1.14 docs said 64000); Riffle generates no code, so it is
// informational (PyFlink's get_max_generated_code_length).
func (c *TableConfig) GetMaxGeneratedCodeLength() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.maxCodeLength
}

// SetMaxGeneratedCodeLength sets it (PyFlink's
// set_max_generated_code_length).
func (c *TableConfig) SetMaxGeneratedCodeLength(n int) {
	c.mu.Lock()
	c.maxCodeLength = n
	c.mu.Unlock()
}

// GetNullCheck reports whether fields are checked for NULL (default true;
// Riffle always checks) (PyFlink's get_null_check).
func (c *TableConfig) GetNullCheck() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nullCheck
}

// SetNullCheck records the setting; outer joins need it on (PyFlink's
// set_null_check).
func (c *TableConfig) SetNullCheck(v bool) {
	c.mu.Lock()
	c.nullCheck = v
	c.mu.Unlock()
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

// GetSQLDialect returns table.sql-dialect (PyFlink's get_sql_dialect).
func (c *TableConfig) GetSQLDialect() SqlDialect {
	if strings.EqualFold(c.conf.GetString("table.sql-dialect", "default"), "hive") {
		return SqlDialectHive
	}
	return SqlDialectDefault
}

// SetSQLDialect sets table.sql-dialect (PyFlink's set_sql_dialect).
func (c *TableConfig) SetSQLDialect(d SqlDialect) {
	c.conf.Set("table.sql-dialect", strings.ToLower(d.String()))
}

// GetPythonExecutable returns python.executable (PyFlink's
// get_python_executable); Riffle runs no Python, so it is only stored.
func (c *TableConfig) GetPythonExecutable() string { return c.conf.GetString("python.executable", "") }

// SetPythonExecutable stores python.executable (PyFlink's
// set_python_executable); Riffle runs no Python.
func (c *TableConfig) SetPythonExecutable(path string) { c.conf.Set("python.executable", path) }

// globalJobParameters is Flink's pipeline.global-job-parameters key.
const globalJobParameters = "pipeline.global-job-parameters"
