package config

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Option describes one configuration key the engine reads (Flink's
// ConfigOption): its key, default as text, value kind and description.
// SET without arguments lists every option that is set; completion and the
// table designer list all known options.
type Option struct {
	Key         string
	Default     string
	Kind        string // "string", "int", "bool", "duration", "enum", "float"
	Values      []string
	Description string
	// Check, when set, validates a value that parses as Kind (a range).
	Check func(value string) error
}

var registry = map[string]Option{}

// Register adds an option to the registry of known keys and returns it.
func Register(o Option) Option {
	registry[o.Key] = o
	return o
}

// Lookup returns a known option by key.
func Lookup(key string) (Option, bool) {
	o, ok := registry[key]
	return o, ok
}

// Known lists every registered option sorted by key.
func Known() []Option {
	out := make([]Option, 0, len(registry))
	for _, o := range registry {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// The engine's options, with Flink's keys and defaults.
var (
	RuntimeMode = Register(Option{Key: "execution.runtime-mode", Default: "streaming", Kind: "enum",
		Values: []string{"streaming", "batch", "automatic"}, Description: "Runtime execution mode of jobs: STREAMING or BATCH."})
	// Parallelism's Default is the number of cores (DefaultParallelism),
	// Flink's default for local execution; read it with
	// Configuration.Parallelism.
	Parallelism = Register(Option{Key: "parallelism.default", Default: strconv.Itoa(DefaultParallelism()), Kind: "int",
		Description: "Default parallelism of jobs (parallel instances of each operator, each a set of goroutines), from 1 to 512; unset or -1: the number of cores, as in Flink's local execution.",
		Check:       checkParallelism})
	LocalTimeZone = Register(Option{Key: "table.local-time-zone", Default: "default", Kind: "string",
		Description: "Session time zone for TIMESTAMP_LTZ conversions, e.g. 'UTC' or 'Europe/Berlin'; 'default' means the system zone."})
	DMLSync = Register(Option{Key: "table.dml-sync", Default: "false", Kind: "bool",
		Description: "Whether INSERT INTO statements wait for their job to finish."})
	AutoWatermarkInterval = Register(Option{Key: "pipeline.auto-watermark-interval", Default: "200 ms", Kind: "duration",
		Description: "Interval at which sources emit watermarks."})
	PipelineName = Register(Option{Key: "pipeline.name", Default: "", Kind: "string",
		Description: "Name of the next submitted job."})
	SourceIdleTimeout = Register(Option{Key: "table.exec.source.idle-timeout", Default: "0 ms", Kind: "duration",
		Description: "A source split that sends no rows for this long is marked idle and ignored by watermark alignment; 0 disables."})
	StateTTL = Register(Option{Key: "table.exec.state.ttl", Default: "0 ms", Kind: "duration",
		Description: "Idle state retention of stateful operators; 0 keeps state forever."})
	AggPhaseStrategy = Register(Option{Key: "table.optimizer.agg-phase-strategy", Default: "AUTO", Kind: "enum",
		Values: []string{"AUTO", "TWO_PHASE", "ONE_PHASE"}, Description: "Strategy for batch GROUP BY: TWO_PHASE pre-aggregates each input task (LocalHashAggregate) before the exchange and merges after it, when every aggregate call can be merged (COUNT, SUM, SUM0, AVG, MIN, MAX; one COUNT(DISTINCT) column); ONE_PHASE exchanges the input rows; AUTO takes two phases when the aggregate's input runs in more than one task."})
	ReuseSubPlan = Register(Option{Key: "table.optimizer.reuse-sub-plan-enabled", Default: "true", Kind: "bool",
		Description: "Whether the subtrees a query's plan holds more than once are one node: EXPLAIN's execution plan prints the later ones as Reused(reference_id=[n]), and the scans of one table read the same way are one source. false also turns table.optimizer.reuse-source-enabled off."})
	ReuseSource = Register(Option{Key: "table.optimizer.reuse-source-enabled", Default: "true", Kind: "bool",
		Description: "Whether the table scans of a query that read one table the same way are one source, read once for all their branches (only while table.optimizer.reuse-sub-plan-enabled is true); false gives every scan its own source, and EXPLAIN prints each."})
	MiniBatchEnabled = Register(Option{Key: "table.exec.mini-batch.enabled", Default: "false", Kind: "bool",
		Description: "Buffer input rows and emit aggregate updates once per mini-batch."})
	MiniBatchLatency = Register(Option{Key: "table.exec.mini-batch.allow-latency", Default: "0 ms", Kind: "duration",
		Description: "Maximum latency of a mini-batch."})
	MiniBatchSize = Register(Option{Key: "table.exec.mini-batch.size", Default: "-1", Kind: "int",
		Description: "Maximum number of rows buffered in a mini-batch."})
	SinkUpsertMaterialize = Register(Option{Key: "table.exec.sink.upsert-materialize", Default: "AUTO", Kind: "enum",
		Values: []string{"NONE", "AUTO", "FORCE"}, Description: "Whether an updating query written to a sink with a primary key goes through a SinkUpsertMaterializer: AUTO when its updates are not keyed on the primary key (updates keyed on another upsert key fail, as on Flink 2.3, which asks for ON CONFLICT)."})
	SinkNotNullEnforcer = Register(Option{Key: "table.exec.sink.not-null-enforcer", Default: "ERROR", Kind: "enum",
		Values: []string{"ERROR", "DROP"}, Description: "What a sink does with NULL in a NOT NULL column."})
	ResultMode = Register(Option{Key: "sql-client.execution.result-mode", Default: "table", Kind: "enum",
		Values: []string{"table", "changelog", "tableau"}, Description: "How the SQL client shows query results."})
	MaxTableResultRows = Register(Option{Key: "sql-client.execution.max-table-result.rows", Default: "1000000", Kind: "int",
		Description: "Maximum rows kept by the table result view; older rows are dropped."})
	MaxColumnWidth = Register(Option{Key: "table.display.max-column-width", Default: "30", Kind: "int",
		Description: "Maximum width of a column in tableau output; longer values end with '...'.",
		Check:       checkColumnWidth("table.display.max-column-width")})
	// SQLClientMaxColumnWidth is Flink's deprecated SQL Client key; it
	// wins over table.display.max-column-width when both are set (Flink's
	// SqlClientOptions.DISPLAY_MAX_COLUMN_WIDTH takes the table key as its
	// fallback).
	SQLClientMaxColumnWidth = Register(Option{Key: "sql-client.display.max-column-width", Default: "30", Kind: "int",
		Description: "Deprecated, use table.display.max-column-width: maximum width of a column in tableau output; longer values end with '...'.",
		Check:       checkColumnWidth("sql-client.display.max-column-width")})
	Verbose = Register(Option{Key: "sql-client.verbose", Default: "false", Kind: "bool",
		Description: "Print full stack traces of errors."})
)

// TimeZone resolves table.local-time-zone to a location ("default" and an
// unset key mean time.Local).
func (c *Configuration) TimeZone() (*time.Location, error) {
	name := c.GetString(LocalTimeZone.Key, LocalTimeZone.Default)
	if name == "" || name == "default" {
		return time.Local, nil
	}
	return ParseTimeZone(name)
}

// ParseTimeZone resolves a zone id of table.local-time-zone as Flink's
// ZoneId does: a region name ("America/Los_Angeles", "UTC") or a custom
// offset id "GMT+hh:mm" / "GMT-hh:mm" (also "GMT+h" and "GMT+hhmm"), at
// most 18 hours away. Other ids are an error.
func ParseTimeZone(name string) (*time.Location, error) {
	loc, err := time.LoadLocation(name)
	if err == nil {
		return loc, nil
	}
	if loc, ok := parseGMTOffset(name); ok {
		return loc, nil
	}
	return nil, err
}

// parseGMTOffset accepts "GMT+hh:mm" / "GMT-hh:mm" ids.
func parseGMTOffset(z string) (*time.Location, bool) {
	if !strings.HasPrefix(z, "GMT") || len(z) < 5 {
		return nil, false
	}
	sign := 1
	switch z[3] {
	case '+':
	case '-':
		sign = -1
	default:
		return nil, false
	}
	h, m, ok := strings.Cut(z[4:], ":")
	if !ok {
		h, m = z[4:], "0"
		if len(h) == 4 {
			h, m = h[:2], h[2:]
		}
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || len(h) > 2 || len(m) > 2 || hh > 18 || mm > 59 || hh == 18 && mm > 0 {
		return nil, false
	}
	return time.FixedZone(z, sign*(hh*3600+mm*60)), true
}

// IsBatch reports whether execution.runtime-mode is batch.
func (c *Configuration) IsBatch() bool {
	switch c.GetString(RuntimeMode.Key, RuntimeMode.Default) {
	case "batch", "BATCH":
		return true
	}
	return false
}

// CheckValue reports a value that the known option key cannot take: not an
// integer, a boolean (true or false, any case), a duration (ParseDuration),
// a number or one of the enumeration's values (any case), with Flink's
// "Could not parse value ... for key ..." message. Unknown keys and string
// options accept any value.
func CheckValue(key, value string) error {
	o, ok := Lookup(key)
	if !ok {
		return nil
	}
	v := strings.TrimSpace(value)
	var expected string
	switch o.Kind {
	case "int":
		if _, err := strconv.ParseInt(v, 10, 64); err != nil {
			expected = "an integer"
		}
	case "bool":
		if !strings.EqualFold(v, "true") && !strings.EqualFold(v, "false") {
			expected = "true or false"
		}
	case "duration":
		if _, err := ParseDuration(v); err != nil {
			expected = "a duration such as '10 s' or '500 ms'"
		}
	case "float":
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			expected = "a number"
		}
	case "enum":
		found := false
		for _, e := range o.Values {
			if strings.EqualFold(v, e) {
				found = true
			}
		}
		if !found {
			expected = "one of " + strings.Join(o.Values, ", ")
		}
	}
	if expected != "" {
		return fmt.Errorf("Could not parse value '%s' for key '%s' (expected %s).", value, key, expected)
	}
	if o.Check != nil {
		return o.Check(v)
	}
	return nil
}

// checkColumnWidth validates a maximum column width: an int (Flink's
// option is a Java int) above 0 (Flink's PrintStyle refuses the others
// with "maxColumnWidth should be greater than 0").
func checkColumnWidth(key string) func(string) error {
	return func(v string) error {
		_, err := ParseColumnWidth(key, v)
		return err
	}
}

// ParseColumnWidth reads the value of a maximum column width key
// (table.display.max-column-width, sql-client.display.max-column-width):
// an integer from 1 to 2^31 - 1, else an error naming the key and value.
func ParseColumnWidth(key, value string) (int, error) {
	v := strings.TrimSpace(value)
	n, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("Could not parse value '%s' for key '%s' (expected an integer).", value, key)
	}
	if n <= 0 {
		return 0, fmt.Errorf("Invalid value '%s' for key '%s': maxColumnWidth should be greater than 0.", value, key)
	}
	return int(n), nil
}

// IsClientDisplayOption reports whether key is one of the SQL Client's
// display options, which only the client showing a result reads (the
// maximum column width keys): a SQL Gateway stores them unchecked, as
// Flink's stores any SET.
func IsClientDisplayOption(key string) bool {
	return key == SQLClientMaxColumnWidth.Key || key == MaxColumnWidth.Key
}

// DisplayMaxColumnWidth is the maximum column width of tableau output:
// sql-client.display.max-column-width when it is set, else
// table.display.max-column-width, else 30. get looks a key up in the
// session's configuration.
func DisplayMaxColumnWidth(get func(key string) (string, bool)) (int, error) {
	for _, k := range []string{SQLClientMaxColumnWidth.Key, MaxColumnWidth.Key} {
		if v, ok := get(k); ok {
			return ParseColumnWidth(k, v)
		}
	}
	return 30, nil
}

// MaxParallelism is the largest parallelism a job may ask for: every
// parallel instance runs in this process as goroutines with their own
// buffers, so it plays the part of Flink's available task slots.
const MaxParallelism = 512

func checkParallelism(v string) error {
	n, _ := strconv.ParseInt(v, 10, 64)
	switch {
	case n == -1:
		return nil
	case n < 1:
		return fmt.Errorf("Invalid value '%s' for key 'parallelism.default': the parallelism must be at least 1 (or -1 for the default).", v)
	case n > MaxParallelism:
		return fmt.Errorf("Invalid value '%s' for key 'parallelism.default': a job runs at most %d parallel instances of an operator in one Riffle process (each a set of goroutines with its own buffers), as a Flink job is bounded by its task slots.", v, MaxParallelism)
	}
	return nil
}
