// Package postgrescdc implements the 'postgres-cdc' source connector in the
// manner of Flink CDC's PostgreSQLTableFactory: an initial snapshot of one
// PostgreSQL table followed by its changes read from a logical replication
// slot with the pgoutput plug-in, as a changelog (+I/-U/+U/-D, or upserts
// with 'changelog-mode' = 'upsert'), with the metadata columns op_ts,
// table_name, schema_name and database_name. See docs/postgres-cdc.md.
package postgrescdc

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
)

// Option keys (Flink CDC's PostgresSourceOptions and JdbcSourceOptions).
const (
	OptHostname           = "hostname"
	OptPort               = "port"
	OptUsername           = "username"
	OptPassword           = "password"
	OptDatabaseName       = "database-name"
	OptSchemaName         = "schema-name"
	OptTableName          = "table-name"
	OptSlotName           = "slot.name"
	OptDecodingPluginName = "decoding.plugin.name"
	OptChangelogMode      = "changelog-mode"
	OptStartupMode        = "scan.startup.mode"
	OptIncrementalSnap    = "scan.incremental.snapshot.enabled"
	OptHeartbeatInterval  = "heartbeat.interval.ms"
	OptConnectTimeout     = "connect.timeout"
	OptConnectMaxRetries  = "connect.max-retries"
	OptFetchSize          = "scan.snapshot.fetch.size"
	OptAppendOnly         = "scan.read-changelog-as-append-only.enabled"

	// debeziumPrefix marks Debezium pass-through properties: accepted;
	// debezium.publication.name and debezium.slot.drop.on.stop are honoured,
	// the rest are ignored.
	debeziumPrefix = "debezium."
)

// Startup modes.
const (
	StartupInitial   = "initial"
	StartupLatest    = "latest-offset"
	StartupCommitted = "committed-offset"
	StartupSnapshot  = "snapshot"
)

var startupModes = []string{StartupInitial, StartupLatest, StartupCommitted, StartupSnapshot}

// Changelog modes (Flink CDC's DebeziumChangelogMode).
const (
	ChangelogAll    = "all"
	ChangelogUpsert = "upsert"
)

// DefaultPublication is Debezium's default publication.name.
const DefaultPublication = "dbz_publication"

// Factory is the 'postgres-cdc' connector.
type Factory struct{}

// Identifier is "postgres-cdc".
func (Factory) Identifier() string { return "postgres-cdc" }

// Options lists the connector's options (debezium.* keys are accepted by
// prefix).
func (Factory) Options() []connector.Option {
	opts := []connector.Option{
		{Key: OptHostname, Required: true, Kind: "string", Description: "IP address or hostname of the PostgreSQL server."},
		{Key: OptPort, Default: "5432", Kind: "int", Description: "Port of the PostgreSQL server."},
		{Key: OptUsername, Required: true, Kind: "string", Description: "User to connect as (needs the REPLICATION attribute, or superuser)."},
		{Key: OptPassword, Required: true, Kind: "string", Description: "Password of the user."},
		{Key: OptDatabaseName, Required: true, Kind: "string", Description: "Database of the captured table."},
		{Key: OptSchemaName, Required: true, Kind: "string", Description: "Schema of the captured table (one name; Flink CDC also takes a regular expression)."},
		{Key: OptTableName, Required: true, Kind: "string", Description: "Captured table (one name; Flink CDC also takes a regular expression)."},
		{Key: OptSlotName, Required: true, Kind: "string", Description: "Logical replication slot to create or reuse: lower-case letters, digits and '_'."},
		{Key: OptDecodingPluginName, Default: "pgoutput", Kind: "enum", Values: []string{"pgoutput"}, Description: "Logical decoding plug-in; Riffle supports pgoutput only (Flink CDC's default is decoderbufs)."},
		{Key: OptChangelogMode, Default: ChangelogAll, Kind: "enum", Values: []string{ChangelogAll, ChangelogUpsert}, Description: "all: a retract changelog (-U/+U, needs REPLICA IDENTITY FULL); upsert: +U and -D by primary key."},
		{Key: OptStartupMode, Default: StartupInitial, Kind: "enum", Values: startupModes, Description: "initial: snapshot then changes; latest-offset: changes from now on; committed-offset: changes from the slot's confirmed position; snapshot: the snapshot alone (bounded)."},
		{Key: OptIncrementalSnap, Default: "false", Kind: "bool", Description: "Accepted for compatibility; the snapshot is always one consistent read exported by the slot."},
		{Key: OptHeartbeatInterval, Default: "30s", Kind: "duration", Description: "Interval of the standby status updates sent to the server while idle."},
		{Key: OptConnectTimeout, Default: "30s", Kind: "duration", Description: "Timeout of one connection attempt."},
		{Key: OptConnectMaxRetries, Default: "3", Kind: "int", Description: "Accepted for compatibility; a lost replication connection is retried for 60s."},
		{Key: OptFetchSize, Default: "1024", Kind: "int", Description: "Rows per batch of the snapshot."},
		{Key: OptAppendOnly, Default: "false", Kind: "bool", Description: "Emit every change (-U, +U, -D too) as an INSERT; the row_kind metadata keeps the original kind."},
	}
	for _, k := range acceptedIgnored {
		opts = append(opts, connector.Option{Key: k, Kind: "string", Description: "Flink CDC's incremental snapshot tuning: accepted, no effect (the snapshot is one consistent read)."})
	}
	return opts
}

// acceptedIgnored are Flink CDC options of its incremental snapshot
// framework and connection pool: accepted so that Flink DDL runs, without
// effect.
var acceptedIgnored = []string{
	"scan.incremental.snapshot.chunk.size",
	"scan.incremental.snapshot.chunk.key-column",
	"scan.incremental.close-idle-reader.enabled",
	"scan.incremental.snapshot.backfill.skip",
	"scan.incremental.snapshot.unbounded-chunk-first.enabled",
	"scan.lsn-commit.checkpoints-num-delay",
	"scan.newly-added-table.enabled",
	"chunk-meta.group.size",
	"chunk-key.even-distribution.factor.upper-bound",
	"chunk-key.even-distribution.factor.lower-bound",
	"connect.pool.size",
}

// tableOptions are a table's parsed options.
type tableOptions struct {
	table        string // qualified Riffle table name, for errors
	host         string
	port         int
	user         string
	password     string
	database     string
	schema       string
	tableName    string
	slot         string
	publication  string
	dropSlot     bool
	upsert       bool
	appendOnly   bool
	startup      string
	heartbeat    time.Duration
	connTimeout  time.Duration
	fetchSize    int
	pkColumns    []string
	ignoredDebez []string
}

var slotNameRE = regexp.MustCompile(`^[a-z0-9_]{1,63}$`)

func (t *tableOptions) errorf(format string, args ...any) error {
	return fmt.Errorf("postgres-cdc table %s: %s", t.table, fmt.Sprintf(format, args...))
}

// parseOptions validates a table's options as PostgreSQLTableFactory does.
func parseOptions(ctx *connector.Context) (*tableOptions, error) {
	if err := connector.ValidateOptions(ctx, Factory{}.Options(), strings.TrimSuffix(debeziumPrefix, ".")); err != nil {
		return nil, err
	}
	o := ctx.Options
	t := &tableOptions{table: ctx.Table, host: o[OptHostname], user: o[OptUsername], password: o[OptPassword],
		database: o[OptDatabaseName], schema: o[OptSchemaName], tableName: o[OptTableName], slot: o[OptSlotName],
		publication: DefaultPublication, port: 5432, startup: StartupInitial, heartbeat: 30 * time.Second,
		connTimeout: 30 * time.Second, fetchSize: 1024}
	if v, ok := o[OptPort]; ok {
		p, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || p <= 0 || p > 65535 {
			return nil, t.errorf("option '%s' must be a port number (1..65535), but is '%s'", OptPort, v)
		}
		t.port = p
	}
	if !slotNameRE.MatchString(t.slot) {
		return nil, t.errorf("option '%s' = '%s' is not a valid replication slot name: slot names contain only lower-case letters, numbers and the underscore character (at most 63)", OptSlotName, t.slot)
	}
	if v, ok := o[OptDecodingPluginName]; ok && v != "pgoutput" {
		return nil, t.errorf("option '%s' = '%s' is not supported: Riffle decodes the pgoutput plug-in only (built into PostgreSQL 10 and later); set '%s' = 'pgoutput'", OptDecodingPluginName, v, OptDecodingPluginName)
	}
	if v, ok := o[OptStartupMode]; ok {
		switch strings.ToLower(v) {
		case StartupInitial, StartupLatest, StartupCommitted, StartupSnapshot:
			t.startup = strings.ToLower(v)
		default:
			return nil, t.errorf("invalid value for option '%s'. Supported values are [%s], but was: %s", OptStartupMode, strings.Join(startupModes, ", "), v)
		}
	}
	if v, ok := o[OptChangelogMode]; ok {
		switch strings.ToLower(v) {
		case ChangelogAll:
		case ChangelogUpsert:
			t.upsert = true
		default:
			return nil, t.errorf("invalid value for option '%s': '%s'; supported values are [%s, %s]", OptChangelogMode, v, ChangelogAll, ChangelogUpsert)
		}
	}
	if v, ok := o[OptIncrementalSnap]; ok {
		if _, err := strconv.ParseBool(strings.TrimSpace(v)); err != nil {
			return nil, t.errorf("option '%s' must be true or false, but is '%s'", OptIncrementalSnap, v)
		}
	}
	if v, ok := o[OptAppendOnly]; ok {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return nil, t.errorf("option '%s' must be true or false, but is '%s'", OptAppendOnly, v)
		}
		t.appendOnly = b
	}
	var err error
	if t.heartbeat, err = durationOption(o, OptHeartbeatInterval, t.heartbeat); err != nil {
		return nil, t.errorf("%v", err)
	}
	if t.connTimeout, err = durationOption(o, OptConnectTimeout, t.connTimeout); err != nil {
		return nil, t.errorf("%v", err)
	}
	if v, ok := o[OptConnectMaxRetries]; ok {
		if n, err := strconv.Atoi(strings.TrimSpace(v)); err != nil || n < 0 {
			return nil, t.errorf("option '%s' must be a non-negative integer, but is '%s'", OptConnectMaxRetries, v)
		}
	}
	if v, ok := o[OptFetchSize]; ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n <= 1 {
			return nil, t.errorf("the value of option '%s' must larger than 1, but is '%s'", OptFetchSize, v)
		}
		t.fetchSize = n
	}
	for k, v := range o {
		if !strings.HasPrefix(k, debeziumPrefix) {
			continue
		}
		switch k {
		case "debezium.publication.name":
			if !slotNameRE.MatchString(v) {
				return nil, t.errorf("option '%s' = '%s' must contain only lower-case letters, numbers and '_'", k, v)
			}
			t.publication = v
		case "debezium.slot.drop.on.stop":
			b, err := strconv.ParseBool(strings.TrimSpace(v))
			if err != nil {
				return nil, t.errorf("option '%s' must be true or false, but is '%s'", k, v)
			}
			t.dropSlot = b
		default:
			t.ignoredDebez = append(t.ignoredDebez, k)
		}
	}
	sort.Strings(t.ignoredDebez)
	pk := ctx.Schema.PrimaryKey
	if pk == nil || len(pk.Columns) == 0 {
		return nil, t.errorf("a PRIMARY KEY is required: declare the captured table's key, e.g. PRIMARY KEY (id) NOT ENFORCED (Riffle keys the changelog on it; Flink CDC requires it for upsert mode and the incremental snapshot)")
	}
	t.pkColumns = pk.Columns
	return t, nil
}

func durationOption(o map[string]string, key string, def time.Duration) (time.Duration, error) {
	v, ok := o[key]
	if !ok {
		return def, nil
	}
	s := strings.TrimSpace(v)
	if n, err := strconv.ParseInt(s, 10, 64); err == nil {
		if n <= 0 {
			return 0, fmt.Errorf("option '%s' must be positive, but is '%s'", key, v)
		}
		return time.Duration(n) * time.Millisecond, nil
	}
	d, err := parseFlinkDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("option '%s' must be a positive duration such as '30s' or '500 ms', but is '%s'", key, v)
	}
	return d, nil
}

// parseFlinkDuration reads Flink's duration syntax: a number and a unit
// (ms, s, min, h, d and their long forms), with optional space.
func parseFlinkDuration(s string) (time.Duration, error) {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 {
		return 0, fmt.Errorf("no number")
	}
	n, err := strconv.ParseInt(s[:i], 10, 64)
	if err != nil {
		return 0, err
	}
	unit := strings.ToLower(strings.TrimSpace(s[i:]))
	switch unit {
	case "", "ms", "milli", "millis", "millisecond", "milliseconds":
		return time.Duration(n) * time.Millisecond, nil
	case "s", "sec", "secs", "second", "seconds":
		return time.Duration(n) * time.Second, nil
	case "min", "m", "minute", "minutes":
		return time.Duration(n) * time.Minute, nil
	case "h", "hour", "hours":
		return time.Duration(n) * time.Hour, nil
	case "d", "day", "days":
		return time.Duration(n) * 24 * time.Hour, nil
	}
	return 0, fmt.Errorf("unknown unit %q", unit)
}

// CreateSource creates a postgres-cdc source. It checks the options only;
// the server is first contacted when the source is opened.
func (Factory) CreateSource(ctx *connector.Context) (connector.Source, error) {
	t, err := parseOptions(ctx)
	if err != nil {
		return nil, err
	}
	return newSource(ctx, t)
}

func init() { connector.Register(Factory{}) }
