package jdbc

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// Option keys, as Flink's JdbcConnectorOptions and LookupOptions name them.
const (
	OptURL                     = "url"
	OptTableName               = "table-name"
	OptUsername                = "username"
	OptPassword                = "password"
	OptDriver                  = "driver"
	OptMaxRetryTimeout         = "connection.max-retry-timeout"
	OptPartitionColumn         = "scan.partition.column"
	OptPartitionNum            = "scan.partition.num"
	OptPartitionLowerBound     = "scan.partition.lower-bound"
	OptPartitionUpperBound     = "scan.partition.upper-bound"
	OptFetchSize               = "scan.fetch-size"
	OptAutoCommit              = "scan.auto-commit"
	OptFilterHandlingPolicy    = "filter.handling.policy"
	OptLookupCache             = "lookup.cache"
	OptPartialCacheMaxRows     = "lookup.partial-cache.max-rows"
	OptPartialCacheWrite       = "lookup.partial-cache.expire-after-write"
	OptPartialCacheAccess      = "lookup.partial-cache.expire-after-access"
	OptPartialCacheMissingKey  = "lookup.partial-cache.cache-missing-key"
	OptLookupMaxRetries        = "lookup.max-retries"
	OptLegacyCacheMaxRows      = "lookup.cache.max-rows"
	OptLegacyCacheTTL          = "lookup.cache.ttl"
	OptLegacyCacheMissingKey   = "lookup.cache.caching-missing-key"
	OptSinkBufferFlushMaxRows  = "sink.buffer-flush.max-rows"
	OptSinkBufferFlushInterval = "sink.buffer-flush.interval"
	OptSinkMaxRetries          = "sink.max-retries"
	OptSinkParallelism         = "sink.parallelism"
)

func jdbcOptions() []connector.Option {
	return []connector.Option{
		{Key: OptURL, Required: true, Kind: "string", Description: "JDBC URL: jdbc:postgresql://host:port/db, jdbc:mysql://host:port/db or jdbc:mariadb://host:port/db, with optional ?param=value parameters."},
		{Key: OptTableName, Required: true, Kind: "string", Description: "Name of the database table; 'schema.table' for PostgreSQL."},
		{Key: OptUsername, Kind: "string", Description: "Database user; set together with 'password'."},
		{Key: OptPassword, Kind: "string", Description: "Database password; set together with 'username'."},
		{Key: OptDriver, Kind: "string", Description: "JDBC driver class name: accepted and ignored (Riffle picks its Go driver from the URL)."},
		{Key: OptMaxRetryTimeout, Default: "60 s", Kind: "duration", Description: "Longest wait for a connection to the database (at least 1 s)."},
		{Key: OptPartitionColumn, Kind: "string", Description: "Numeric column whose range splits the scan into parallel partitions; set with all scan.partition.* options."},
		{Key: OptPartitionNum, Kind: "int", Description: "Number of partitions of a partitioned scan."},
		{Key: OptPartitionLowerBound, Kind: "int", Description: "Smallest value of the first partition."},
		{Key: OptPartitionUpperBound, Kind: "int", Description: "Largest value of the last partition."},
		{Key: OptFetchSize, Default: "0", Kind: "int", Description: "Rows fetched per round trip; 0 lets the driver stream. With scan.auto-commit = false PostgreSQL reads through a cursor FETCHing this many rows."},
		{Key: OptAutoCommit, Default: "true", Kind: "bool", Description: "Whether the scan runs outside a transaction (true) or inside one (false)."},
		{Key: OptFilterHandlingPolicy, Default: "ALWAYS", Kind: "enum", Values: []string{"ALWAYS", "NEVER"}, Description: "Whether WHERE conditions are pushed into the database's query."},
		{Key: OptLookupCache, Default: "NONE", Kind: "enum", Values: []string{"NONE", "PARTIAL", "FULL"}, Description: "Cache of lookup join results: NONE or PARTIAL (FULL is accepted and caches nothing, as in Flink's jdbc connector)."},
		{Key: OptPartialCacheMaxRows, Kind: "int", Description: "Most keys kept by the PARTIAL lookup cache."},
		{Key: OptPartialCacheWrite, Kind: "duration", Description: "A cached key expires this long after it was looked up."},
		{Key: OptPartialCacheAccess, Kind: "duration", Description: "A cached key expires this long after it was last used."},
		{Key: OptPartialCacheMissingKey, Default: "true", Kind: "bool", Description: "Whether keys without rows are cached too."},
		{Key: OptLookupMaxRetries, Default: "3", Kind: "int", Description: "Retries of a failed lookup query."},
		{Key: OptLegacyCacheMaxRows, Kind: "int", Description: "Deprecated: lookup.partial-cache.max-rows (set with lookup.cache.ttl)."},
		{Key: OptLegacyCacheTTL, Kind: "duration", Description: "Deprecated: lookup.partial-cache.expire-after-write (set with lookup.cache.max-rows)."},
		{Key: OptLegacyCacheMissingKey, Default: "true", Kind: "bool", Description: "Deprecated: lookup.partial-cache.cache-missing-key."},
		{Key: OptSinkBufferFlushMaxRows, Default: "100", Kind: "int", Description: "Rows buffered before a flush; 0 disables the size trigger."},
		{Key: OptSinkBufferFlushInterval, Default: "1 s", Kind: "duration", Description: "A buffer older than this is flushed even on a quiet stream; 0 disables the timer."},
		{Key: OptSinkMaxRetries, Default: "3", Kind: "int", Description: "Retries of a failed batch (each batch is one transaction)."},
		{Key: OptSinkParallelism, Kind: "int", Description: "Number of parallel writers (accepted; Riffle runs the sink at its input's parallelism)."},
	}
}

// tableOptions is a parsed jdbc table.
type tableOptions struct {
	table     string // Riffle's table name, for messages
	endpoint  *Endpoint
	dbTable   string // 'table-name'
	physNames []string
	physTypes []*types.DataType
	pk        []string

	maxRetryTimeout time.Duration

	partColumn       string
	partNum          int
	partLower        int64
	partUpper        int64
	fetchSize        int
	autoCommit       bool
	filterPushdown   bool
	cache            *connector.LookupCacheConfig
	lookupMaxRetries int

	flushMaxRows  int
	flushInterval time.Duration
	sinkRetries   int
	sinkPar       int
}

func (t *tableOptions) errorf(format string, args ...any) error {
	return fmt.Errorf("table %s: %s", t.table, fmt.Sprintf(format, args...))
}

// parseOptions validates a jdbc table's options with Flink's rules and
// messages (JdbcDynamicTableFactory.validateConfigOptions and the
// dialect's type validation).
func parseOptions(ctx *connector.Context) (*tableOptions, error) {
	if err := connector.ValidateOptions(ctx, jdbcOptions()); err != nil {
		return nil, err
	}
	o := ctx.Options
	t := &tableOptions{table: ctx.Table, dbTable: o[OptTableName], physNames: ctx.PhysicalNames(), physTypes: ctx.PhysicalTypes()}
	if ctx.Schema.PrimaryKey != nil {
		t.pk = append(t.pk, ctx.Schema.PrimaryKey.Columns...)
	}
	if strings.TrimSpace(t.dbTable) == "" {
		return nil, t.errorf("option '%s' must not be empty", OptTableName)
	}
	if err := t.allOrNone(o, OptUsername, OptPassword); err != nil {
		return nil, err
	}
	ep, err := ParseURL(o[OptURL], o[OptUsername], o[OptPassword])
	if err != nil {
		return nil, t.errorf("%v", err)
	}
	t.endpoint = ep
	if err := ep.Dialect.Validate(t.physNames, t.physTypes); err != nil {
		return nil, t.errorf("%v", err)
	}
	if err := t.allOrNone(o, OptPartitionColumn, OptPartitionNum, OptPartitionLowerBound, OptPartitionUpperBound); err != nil {
		return nil, err
	}
	if c, ok := o[OptPartitionColumn]; ok {
		t.partColumn = c
		// the range is split in numbers: a declared partition column must
		// be numeric (one not declared is the database's business)
		for i, n := range t.physNames {
			if strings.EqualFold(n, c) && !t.physTypes[i].IsNumeric() {
				return nil, t.errorf("'%s' = '%s' is a %s column; the partition column must be numeric, as its range from '%s' to '%s' is split into '%s' parts.",
					OptPartitionColumn, c, t.physTypes[i], OptPartitionLowerBound, OptPartitionUpperBound, OptPartitionNum)
			}
		}
		if t.partNum, err = intOpt(o, OptPartitionNum, 0); err != nil {
			return nil, t.errorf("%v", err)
		}
		if t.partNum <= 0 {
			return nil, t.errorf("'%s' must be positive, but is %d.", OptPartitionNum, t.partNum)
		}
		if t.partLower, err = int64Opt(o, OptPartitionLowerBound); err != nil {
			return nil, t.errorf("%v", err)
		}
		if t.partUpper, err = int64Opt(o, OptPartitionUpperBound); err != nil {
			return nil, t.errorf("%v", err)
		}
		if t.partLower > t.partUpper {
			return nil, t.errorf("'%s'='%d' must not be larger than '%s'='%d'.", OptPartitionLowerBound, t.partLower, OptPartitionUpperBound, t.partUpper)
		}
	}
	if t.fetchSize, err = intOpt(o, OptFetchSize, 0); err != nil {
		return nil, t.errorf("%v", err)
	}
	if t.fetchSize < 0 {
		return nil, t.errorf("The value of '%s' option shouldn't be negative, but is %d.", OptFetchSize, t.fetchSize)
	}
	if t.autoCommit, err = boolOpt(o, OptAutoCommit, true); err != nil {
		return nil, t.errorf("%v", err)
	}
	switch strings.ToUpper(strings.TrimSpace(o[OptFilterHandlingPolicy])) {
	case "", "ALWAYS":
		t.filterPushdown = true
	case "NEVER":
	default:
		return nil, t.errorf("Could not parse value '%s' for key '%s'. Possible values: ALWAYS, NEVER", o[OptFilterHandlingPolicy], OptFilterHandlingPolicy)
	}
	if t.maxRetryTimeout, err = durationOpt(o, OptMaxRetryTimeout, 60*time.Second); err != nil {
		return nil, t.errorf("%v", err)
	}
	if t.maxRetryTimeout < time.Second || t.maxRetryTimeout%time.Second != 0 {
		return nil, t.errorf("The value of '%s' option must be in second granularity and shouldn't be smaller than 1 second, but is %s.", OptMaxRetryTimeout, o[OptMaxRetryTimeout])
	}
	// lookup
	if err := t.allOrNone(o, OptLegacyCacheMaxRows, OptLegacyCacheTTL); err != nil {
		return nil, err
	}
	if t.lookupMaxRetries, err = intOpt(o, OptLookupMaxRetries, 3); err != nil {
		return nil, t.errorf("%v", err)
	}
	if t.lookupMaxRetries < 0 {
		return nil, t.errorf("The value of '%s' option shouldn't be negative, but is %d.", OptLookupMaxRetries, t.lookupMaxRetries)
	}
	if err := t.parseCache(o); err != nil {
		return nil, err
	}
	// sink
	if t.flushMaxRows, err = intOpt(o, OptSinkBufferFlushMaxRows, 100); err != nil {
		return nil, t.errorf("%v", err)
	}
	if t.flushMaxRows < 0 {
		return nil, t.errorf("The value of '%s' option shouldn't be negative, but is %d.", OptSinkBufferFlushMaxRows, t.flushMaxRows)
	}
	if t.flushInterval, err = durationOpt(o, OptSinkBufferFlushInterval, time.Second); err != nil {
		return nil, t.errorf("%v", err)
	}
	if t.sinkRetries, err = intOpt(o, OptSinkMaxRetries, 3); err != nil {
		return nil, t.errorf("%v", err)
	}
	if t.sinkRetries < 0 {
		return nil, t.errorf("The value of '%s' option shouldn't be negative, but is %d.", OptSinkMaxRetries, t.sinkRetries)
	}
	if t.sinkPar, err = intOpt(o, OptSinkParallelism, 0); err != nil {
		return nil, t.errorf("%v", err)
	}
	if _, ok := o[OptSinkParallelism]; ok && t.sinkPar <= 0 {
		return nil, t.errorf("invalid value '%s' for option '%s': expected a positive integer", o[OptSinkParallelism], OptSinkParallelism)
	}
	return t, nil
}

// parseCache reads 'lookup.cache' with its 'lookup.partial-cache.*'
// options, or the deprecated 'lookup.cache.max-rows'/'lookup.cache.ttl'
// pair (used when both are positive, as Flink does).
func (t *tableOptions) parseCache(o map[string]string) error {
	legacyRows, err := int64OptDefault(o, OptLegacyCacheMaxRows, -1)
	if err != nil {
		return t.errorf("%v", err)
	}
	legacyTTL, err := durationOpt(o, OptLegacyCacheTTL, 10*time.Second)
	if err != nil {
		return t.errorf("%v", err)
	}
	legacyMissing, err := boolOpt(o, OptLegacyCacheMissingKey, true)
	if err != nil {
		return t.errorf("%v", err)
	}
	if legacyRows > 0 && legacyTTL > 0 {
		t.cache = &connector.LookupCacheConfig{MaxRows: legacyRows, ExpireAfterWriteMillis: legacyTTL.Milliseconds(), CacheMissingKey: legacyMissing}
	}
	mode := strings.ToUpper(strings.TrimSpace(o[OptLookupCache]))
	switch mode {
	case "", "NONE":
		// the lookup.partial-cache.* options are ignored, as in Flink
		// (an OPTIONS hint can switch a table's cache off this way)
		return nil
	case "PARTIAL":
	case "FULL":
		// Flink's jdbc connector accepts FULL and builds no cache for it
		return nil
	default:
		return t.errorf("Could not parse value '%s' for key '%s'. Possible values: NONE, PARTIAL, FULL", o[OptLookupCache], OptLookupCache)
	}
	c := &connector.LookupCacheConfig{}
	if c.MaxRows, err = int64OptDefault(o, OptPartialCacheMaxRows, 0); err != nil {
		return t.errorf("%v", err)
	}
	w, err := durationOpt(o, OptPartialCacheWrite, 0)
	if err != nil {
		return t.errorf("%v", err)
	}
	a, err := durationOpt(o, OptPartialCacheAccess, 0)
	if err != nil {
		return t.errorf("%v", err)
	}
	c.ExpireAfterWriteMillis, c.ExpireAfterAccessMillis = w.Milliseconds(), a.Milliseconds()
	if c.CacheMissingKey, err = boolOpt(o, OptPartialCacheMissingKey, true); err != nil {
		return t.errorf("%v", err)
	}
	_, hasRows := o[OptPartialCacheMaxRows]
	_, hasW := o[OptPartialCacheWrite]
	_, hasA := o[OptPartialCacheAccess]
	if !hasRows && !hasW && !hasA {
		return t.errorf("Missing '%s', '%s' or '%s' in the configuration. The cache will not have evictions under this configuration and could lead to potential memory issues as the cache size may grow indefinitely.", OptPartialCacheAccess, OptPartialCacheWrite, OptPartialCacheMaxRows)
	}
	t.cache = c
	return nil
}

// allOrNone is Flink's checkAllOrNone.
func (t *tableOptions) allOrNone(o map[string]string, keys ...string) error {
	n := 0
	for _, k := range keys {
		if _, ok := o[k]; ok {
			n++
		}
	}
	if n != 0 && n != len(keys) {
		return t.errorf("Either all or none of the following options should be provided:\n%s", strings.Join(keys, "\n"))
	}
	return nil
}

func intOpt(o map[string]string, key string, def int) (int, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, fmt.Errorf("Could not parse value '%s' for key '%s': expected an integer", v, key)
	}
	return n, nil
}

func int64Opt(o map[string]string, key string) (int64, error) {
	v := o[key]
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("Could not parse value '%s' for key '%s': expected a long integer", v, key)
	}
	return n, nil
}

func int64OptDefault(o map[string]string, key string, def int64) (int64, error) {
	if _, ok := o[key]; !ok {
		return def, nil
	}
	return int64Opt(o, key)
}

func boolOpt(o map[string]string, key string, def bool) (bool, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, fmt.Errorf("Could not parse value '%s' for key '%s': expected true or false", v, key)
}

func durationOpt(o map[string]string, key string, def time.Duration) (time.Duration, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	d, err := config.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("Could not parse value '%s' for key '%s': %v", v, key, err)
	}
	return d, nil
}

func indexOf(names []string, n string) int {
	for i, x := range names {
		if x == n {
			return i
		}
	}
	return -1
}
