package kafka

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// Option keys, as Flink's KafkaConnectorOptions names them.
const (
	OptTopic                  = "topic"
	OptTopicPattern           = "topic-pattern"
	OptBootstrapServers       = "properties.bootstrap.servers"
	OptGroupID                = "properties.group.id"
	OptFormat                 = "format"
	OptKeyFormat              = "key.format"
	OptKeyFields              = "key.fields"
	OptKeyFieldsPrefix        = "key.fields-prefix"
	OptValueFormat            = "value.format"
	OptValueFieldsInclude     = "value.fields-include"
	OptStartupMode            = "scan.startup.mode"
	OptStartupSpecificOffsets = "scan.startup.specific-offsets"
	OptStartupTimestamp       = "scan.startup.timestamp-millis"
	OptBoundedMode            = "scan.bounded.mode"
	OptBoundedSpecificOffsets = "scan.bounded.specific-offsets"
	OptBoundedTimestamp       = "scan.bounded.timestamp-millis"
	OptDiscoveryInterval      = "scan.topic-partition-discovery.interval"
	OptIdleTimeout            = "scan.watermark.idle-timeout"
	OptScanParallelism        = "scan.parallelism"
	OptSinkPartitioner        = "sink.partitioner"
	OptDeliveryGuarantee      = "sink.delivery-guarantee"
	OptTransactionalIDPrefix  = "sink.transactional-id-prefix"
	OptSinkParallelism        = "sink.parallelism"
	OptBufferFlushMaxRows     = "sink.buffer-flush.max-rows"
	OptBufferFlushInterval    = "sink.buffer-flush.interval"

	propertiesPrefix = "properties."
)

// Startup and bounded modes (scan.startup.mode, scan.bounded.mode).
const (
	ModeEarliest        = "earliest-offset"
	ModeLatest          = "latest-offset"
	ModeGroupOffsets    = "group-offsets"
	ModeTimestamp       = "timestamp"
	ModeSpecificOffsets = "specific-offsets"
	ModeUnbounded       = "unbounded"
)

// DefaultDiscoveryInterval is Flink's default for
// scan.topic-partition-discovery.interval.
const DefaultDiscoveryInterval = 5 * time.Minute

func kafkaOptions() []connector.Option {
	return []connector.Option{
		{Key: OptTopic, Kind: "string", Description: "Topic name(s) to read from or write to; several are separated by semicolons ('a;b')."},
		{Key: OptTopicPattern, Kind: "string", Description: "Regular expression of the topics to read (source only); new matching topics are picked up by partition discovery."},
		{Key: OptBootstrapServers, Required: true, Kind: "string", Description: "Comma-separated list of Kafka brokers (host:port)."},
		{Key: OptGroupID, Kind: "string", Description: "Consumer group id; needed by 'group-offsets' startup and bounded modes (Riffle does not commit offsets: no checkpoints)."},
		{Key: OptFormat, Kind: "string", Description: "Format of the message value (same as 'value.format')."},
		{Key: OptKeyFormat, Kind: "string", Description: "Format of the message key; requires 'key.fields'."},
		{Key: OptKeyFields, Kind: "string", Description: "Physical columns stored in the message key, separated by semicolons."},
		{Key: OptKeyFieldsPrefix, Kind: "string", Description: "Prefix of the key columns' names, removed before the key format sees them; requires value.fields-include = 'EXCEPT_KEY'."},
		{Key: OptValueFormat, Kind: "string", Description: "Format of the message value."},
		{Key: OptValueFieldsInclude, Default: "ALL", Kind: "enum", Values: []string{"ALL", "EXCEPT_KEY"}, Description: "Whether the value holds every physical column (ALL) or all but the key columns (EXCEPT_KEY)."},
		{Key: OptStartupMode, Default: ModeGroupOffsets, Kind: "enum", Values: []string{ModeEarliest, ModeLatest, ModeGroupOffsets, ModeTimestamp, ModeSpecificOffsets}, Description: "Where reading starts."},
		{Key: OptStartupSpecificOffsets, Kind: "string", Description: "Start offsets for 'specific-offsets' mode: 'partition:0,offset:42;partition:1,offset:300'."},
		{Key: OptStartupTimestamp, Kind: "int", Description: "Start timestamp (epoch milliseconds) for 'timestamp' startup mode."},
		{Key: OptBoundedMode, Default: ModeUnbounded, Kind: "enum", Values: []string{ModeUnbounded, ModeLatest, ModeGroupOffsets, ModeTimestamp, ModeSpecificOffsets}, Description: "Where reading ends; any mode but 'unbounded' makes the source bounded (usable in batch mode)."},
		{Key: OptBoundedSpecificOffsets, Kind: "string", Description: "End offsets (exclusive) for 'specific-offsets' bounded mode: 'partition:0,offset:42;partition:1,offset:300'."},
		{Key: OptBoundedTimestamp, Kind: "int", Description: "End timestamp (epoch milliseconds, exclusive) for 'timestamp' bounded mode."},
		{Key: OptDiscoveryInterval, Default: "5 min", Kind: "duration", Description: "Interval of topic and partition discovery while streaming; 0 disables it."},
		{Key: OptIdleTimeout, Kind: "duration", Description: "A partition without records for this long is idle and does not hold back the watermark (default table.exec.source.idle-timeout)."},
		{Key: OptScanParallelism, Kind: "int", Description: "Number of parallel source instances (at most the number of partitions)."},
		{Key: OptSinkPartitioner, Default: "default", Kind: "string", Description: "Partitioning of written records: 'default' (key hash, sticky without key), 'fixed' (writer i to partition i mod n), 'round-robin'."},
		{Key: OptDeliveryGuarantee, Default: "at-least-once", Kind: "enum", Values: []string{"none", "at-least-once", "exactly-once"}, Description: "Delivery guarantee of the sink; exactly-once writes a Kafka transaction per checkpoint, committed when the checkpoint completes (needs execution.checkpointing.interval in streaming mode)."},
		{Key: OptTransactionalIDPrefix, Kind: "string", Description: "Prefix of the transactional ids ('<prefix>-<subtask>-<n>') of 'exactly-once' delivery; required by it, unique per job on the cluster."},
		{Key: OptSinkParallelism, Kind: "int", Description: "Number of parallel writers (accepted; Riffle runs the sink at its input's parallelism)."},
	}
}

func upsertOptions() []connector.Option {
	var out []connector.Option
	for _, o := range kafkaOptions() {
		switch o.Key {
		case OptFormat, OptKeyFields, OptStartupMode, OptStartupSpecificOffsets, OptStartupTimestamp, OptSinkPartitioner, OptGroupID:
			continue
		case OptKeyFormat, OptValueFormat:
			o.Required = true
		}
		out = append(out, o)
	}
	out = append(out,
		connector.Option{Key: OptBufferFlushMaxRows, Default: "0", Kind: "int", Description: "Rows buffered (reduced per key) before a flush; 0 disables buffering. Set together with sink.buffer-flush.interval."},
		connector.Option{Key: OptBufferFlushInterval, Default: "0", Kind: "duration", Description: "Interval of buffer flushes; 0 disables buffering. Set together with sink.buffer-flush.max-rows."},
	)
	return out
}

// tableOptions is a parsed kafka or upsert-kafka table.
type tableOptions struct {
	table  string
	upsert bool
	opts   map[string]string

	topics  []string
	pattern *regexp.Regexp
	props   map[string]string // properties.* without the prefix

	keyFormat, valueFormat string
	keyFields              []int // physical column indexes stored in the key
	valueFields            []int // physical column indexes stored in the value
	keyPrefix              string

	startup        string
	startupOffsets map[int32]int64
	startupMillis  int64
	bounded        string
	boundedOffsets map[int32]int64
	boundedMillis  int64
	discovery      time.Duration
	idleTimeout    time.Duration
	idleSet        bool
	scanPar        int

	partitioner  string
	delivery     string
	txnPrefix    string // sink.transactional-id-prefix (exactly-once)
	sinkPar      int
	flushMaxRows int
	flushEvery   time.Duration

	physNames []string
	physTypes []*types.DataType
	pk        []int // physical indexes of the primary key
}

func (t *tableOptions) errorf(format string, args ...any) error {
	return fmt.Errorf("table %s: %s", t.table, fmt.Sprintf(format, args...))
}

// parseOptions validates the options of a kafka (upsert=false) or
// upsert-kafka table, with Flink's messages where Flink has one.
func parseOptions(ctx *connector.Context, upsert bool) (*tableOptions, error) {
	t := &tableOptions{table: ctx.Table, upsert: upsert, opts: ctx.Options, props: map[string]string{},
		physNames: ctx.PhysicalNames(), physTypes: ctx.PhysicalTypes()}
	declared := kafkaOptions()
	if upsert {
		declared = upsertOptions()
	}
	var prefixes []string
	for _, k := range []string{OptFormat, OptKeyFormat, OptValueFormat} {
		if v := ctx.Options[k]; v != "" {
			switch k {
			case OptFormat:
				prefixes = append(prefixes, v)
			case OptKeyFormat:
				prefixes = append(prefixes, "key."+v)
			case OptValueFormat:
				prefixes = append(prefixes, "value."+v)
			}
		}
	}
	prefixes = append(prefixes, "properties")
	if err := connector.ValidateOptions(ctx, declared, prefixes...); err != nil {
		return nil, err
	}
	for k, v := range ctx.Options {
		if strings.HasPrefix(k, propertiesPrefix) {
			t.props[strings.TrimPrefix(k, propertiesPrefix)] = v
		}
	}
	if err := checkProperties(t.props); err != nil {
		return nil, t.errorf("%v", err)
	}
	o := ctx.Options
	// topics
	topicOpt, hasTopic := o[OptTopic]
	patOpt, hasPattern := o[OptTopicPattern]
	if hasTopic && hasPattern {
		return nil, t.errorf("Option 'topic' and 'topic-pattern' shouldn't be set together.")
	}
	if hasTopic {
		for _, s := range strings.Split(topicOpt, ";") {
			if s = strings.TrimSpace(s); s != "" {
				t.topics = append(t.topics, s)
			}
		}
		if len(t.topics) == 0 {
			return nil, t.errorf("option 'topic' names no topic")
		}
	}
	if hasPattern {
		re, err := regexp.Compile("^(?:" + patOpt + ")$")
		if err != nil {
			return nil, t.errorf("invalid regular expression '%s' in option 'topic-pattern': %v", patOpt, err)
		}
		t.pattern = re
	}
	// formats
	t.valueFormat = o[OptValueFormat]
	if f, ok := o[OptFormat]; ok {
		if t.valueFormat != "" {
			return nil, t.errorf("Option 'format' and 'value.format' shouldn't be set together; 'format' is the value format.")
		}
		t.valueFormat = f
	}
	if t.valueFormat == "" {
		return nil, t.errorf("Could not find required option 'value.format' (or 'format').")
	}
	t.keyFormat = o[OptKeyFormat]
	t.keyPrefix = o[OptKeyFieldsPrefix]
	schema := ctx.Schema
	if upsert {
		if schema.PrimaryKey == nil || len(schema.PrimaryKey.Columns) == 0 {
			return nil, t.errorf("'upsert-kafka' tables require to define a PRIMARY KEY constraint. The PRIMARY KEY specifies which columns should be read from or write to the Kafka message key. The PRIMARY KEY also defines records in the 'upsert-kafka' table should update or delete on which keys.")
		}
		for _, c := range schema.PrimaryKey.Columns {
			i := indexOf(t.physNames, c)
			if i < 0 {
				return nil, t.errorf("primary key column '%s' is not a physical column", c)
			}
			t.pk = append(t.pk, i)
		}
		t.keyFields = append([]int(nil), t.pk...)
	} else {
		kf, hasKF := o[OptKeyFields]
		if t.keyFormat == "" && hasKF {
			return nil, t.errorf("The option 'key.fields' can only be declared if a key format is defined using 'key.format'.")
		}
		if t.keyFormat != "" && strings.TrimSpace(kf) == "" {
			return nil, t.errorf("A key format 'key.format' requires the declaration of one or more of key fields using 'key.fields'.")
		}
		if t.keyFormat != "" {
			for _, f := range strings.Split(kf, ";") {
				f = strings.TrimSpace(f)
				i := indexOf(t.physNames, f)
				if i < 0 {
					return nil, t.errorf("Could not find the field '%s' in the table schema for usage in the key format. A key field must be a regular, physical column. The following columns can be selected in the 'key.fields' option:\n[%s]", f, strings.Join(t.physNames, ", "))
				}
				t.keyFields = append(t.keyFields, i)
			}
		}
	}
	for _, i := range t.keyFields {
		if !strings.HasPrefix(t.physNames[i], t.keyPrefix) {
			return nil, t.errorf("All fields in 'key.fields' must be prefixed with '%s' when option 'key.fields-prefix' is set but field '%s' is not prefixed.", t.keyPrefix, t.physNames[i])
		}
	}
	include := strings.ToUpper(strings.TrimSpace(o[OptValueFieldsInclude]))
	if include == "" {
		include = "ALL"
	}
	switch include {
	case "ALL":
		if t.keyPrefix != "" {
			return nil, t.errorf("A key prefix is not allowed when option 'value.fields-include' is set to 'ALL'. Set it to 'EXCEPT_KEY' instead to avoid field overlaps.")
		}
		for i := range t.physNames {
			t.valueFields = append(t.valueFields, i)
		}
	case "EXCEPT_KEY":
		for i := range t.physNames {
			if !containsInt(t.keyFields, i) {
				t.valueFields = append(t.valueFields, i)
			}
		}
	default:
		return nil, t.errorf("Could not parse value '%s' for key 'value.fields-include'. Possible values: ALL, EXCEPT_KEY", o[OptValueFieldsInclude])
	}
	// scan options
	var err error
	t.startup = ModeGroupOffsets
	if upsert {
		t.startup = ModeEarliest // always, to keep data integrity (Flink)
	}
	if v, ok := o[OptStartupMode]; ok {
		t.startup = strings.ToLower(strings.TrimSpace(v))
		switch t.startup {
		case ModeEarliest, ModeLatest, ModeGroupOffsets:
		case ModeTimestamp:
			ms, ok := o[OptStartupTimestamp]
			if !ok {
				return nil, t.errorf("'%s' is required in '%s' startup mode but missing.", OptStartupTimestamp, ModeTimestamp)
			}
			if t.startupMillis, err = parseInt64(OptStartupTimestamp, ms); err != nil {
				return nil, t.errorf("%v", err)
			}
		case ModeSpecificOffsets:
			so, ok := o[OptStartupSpecificOffsets]
			if !ok {
				return nil, t.errorf("'%s' is required in '%s' startup mode but missing.", OptStartupSpecificOffsets, ModeSpecificOffsets)
			}
			if len(t.topics) != 1 {
				return nil, t.errorf("Currently Kafka source only supports specific offset for single topic.")
			}
			if t.startupOffsets, err = parseSpecificOffsets(so, OptStartupSpecificOffsets); err != nil {
				return nil, t.errorf("%v", err)
			}
		default:
			return nil, t.errorf("Could not parse value '%s' for key '%s'. Possible values: %s", v, OptStartupMode, strings.Join([]string{ModeEarliest, ModeLatest, ModeGroupOffsets, ModeTimestamp, ModeSpecificOffsets}, ", "))
		}
	}
	t.bounded = ModeUnbounded
	if v, ok := o[OptBoundedMode]; ok {
		t.bounded = strings.ToLower(strings.TrimSpace(v))
		switch t.bounded {
		case ModeUnbounded, ModeLatest, ModeGroupOffsets:
		case ModeTimestamp:
			ms, ok := o[OptBoundedTimestamp]
			if !ok {
				return nil, t.errorf("'%s' is required in '%s' bounded mode but missing.", OptBoundedTimestamp, ModeTimestamp)
			}
			if t.boundedMillis, err = parseInt64(OptBoundedTimestamp, ms); err != nil {
				return nil, t.errorf("%v", err)
			}
		case ModeSpecificOffsets:
			so, ok := o[OptBoundedSpecificOffsets]
			if !ok {
				return nil, t.errorf("'%s' is required in '%s' bounded mode but missing.", OptBoundedSpecificOffsets, ModeSpecificOffsets)
			}
			if len(t.topics) != 1 {
				return nil, t.errorf("Currently Kafka source only supports specific offset for single topic.")
			}
			if t.boundedOffsets, err = parseSpecificOffsets(so, OptBoundedSpecificOffsets); err != nil {
				return nil, t.errorf("%v", err)
			}
		default:
			return nil, t.errorf("Could not parse value '%s' for key '%s'. Possible values: %s", v, OptBoundedMode, strings.Join([]string{ModeUnbounded, ModeLatest, ModeGroupOffsets, ModeTimestamp, ModeSpecificOffsets}, ", "))
		}
	}
	t.discovery = DefaultDiscoveryInterval
	if v, ok := o[OptDiscoveryInterval]; ok {
		if t.discovery, err = config.ParseDuration(v); err != nil {
			return nil, t.errorf("invalid value '%s' for option '%s': %v", v, OptDiscoveryInterval, err)
		}
	}
	if v, ok := o[OptIdleTimeout]; ok {
		if t.idleTimeout, err = config.ParseDuration(v); err != nil {
			return nil, t.errorf("invalid value '%s' for option '%s': %v", v, OptIdleTimeout, err)
		}
		t.idleSet = true
	}
	if t.scanPar, err = positiveInt(o, OptScanParallelism); err != nil {
		return nil, t.errorf("%v", err)
	}
	if t.sinkPar, err = positiveInt(o, OptSinkParallelism); err != nil {
		return nil, t.errorf("%v", err)
	}
	// sink options
	t.partitioner = "default"
	if v, ok := o[OptSinkPartitioner]; ok {
		t.partitioner = strings.TrimSpace(v)
		switch t.partitioner {
		case "default", "fixed":
		case "round-robin":
			if _, ok := o[OptKeyFields]; ok {
				return nil, t.errorf("Currently 'round-robin' partitioner only works when option 'key.fields' is not specified.")
			}
		case "":
			return nil, t.errorf("Option 'sink.partitioner' should be a non-empty string.")
		default:
			return nil, t.errorf("Could not find and instantiate partitioner class '%s': Riffle cannot load Java classes; use 'default', 'fixed' or 'round-robin'", t.partitioner)
		}
	}
	t.delivery = "at-least-once"
	if v, ok := o[OptDeliveryGuarantee]; ok {
		t.delivery = strings.ToLower(strings.TrimSpace(v))
		switch t.delivery {
		case "none", "at-least-once":
		case "exactly-once":
			if strings.TrimSpace(o[OptTransactionalIDPrefix]) == "" {
				return nil, t.errorf("sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE.")
			}
			t.txnPrefix = strings.TrimSpace(o[OptTransactionalIDPrefix])
		default:
			return nil, t.errorf("Could not parse value '%s' for key '%s'. Possible values: none, at-least-once, exactly-once", v, OptDeliveryGuarantee)
		}
	}
	if upsert {
		if v, ok := o[OptBufferFlushMaxRows]; ok {
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil {
				return nil, t.errorf("invalid value '%s' for option '%s': expected an integer", v, OptBufferFlushMaxRows)
			}
			t.flushMaxRows = n
		}
		if v, ok := o[OptBufferFlushInterval]; ok {
			if t.flushEvery, err = config.ParseDuration(v); err != nil {
				return nil, t.errorf("invalid value '%s' for option '%s': %v", v, OptBufferFlushInterval, err)
			}
		}
		if (t.flushMaxRows > 0) != (t.flushEvery > 0) {
			return nil, t.errorf("'%s' and '%s' must be set to be greater than zero together to enable sink buffer flushing.", OptBufferFlushMaxRows, OptBufferFlushInterval)
		}
	}
	// client settings (security protocol, SASL, TLS stores) fail at
	// planning time rather than when the job starts
	if _, err := t.clientOptions(); err != nil {
		return nil, err
	}
	return t, nil
}

// parseSpecificOffsets parses 'partition:0,offset:42;partition:1,offset:300'.
func parseSpecificOffsets(s, key string) (map[int32]int64, error) {
	bad := fmt.Errorf("Invalid properties '%s' should follow the format 'partition:0,offset:42;partition:1,offset:300', but is '%s'.", key, s)
	out := map[int32]int64{}
	for _, pair := range strings.Split(s, ";") {
		kv := strings.Split(pair, ",")
		if len(kv) != 2 || !strings.HasPrefix(kv[0], "partition:") || !strings.HasPrefix(kv[1], "offset:") {
			return nil, bad
		}
		p, err1 := strconv.ParseInt(strings.TrimPrefix(kv[0], "partition:"), 10, 32)
		off, err2 := strconv.ParseInt(strings.TrimPrefix(kv[1], "offset:"), 10, 64)
		if err1 != nil || err2 != nil {
			return nil, bad
		}
		out[int32(p)] = off
	}
	if len(out) == 0 {
		return nil, bad
	}
	return out, nil
}

func parseInt64(key, v string) (int64, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("Could not parse value '%s' for key '%s': expected a long integer", v, key)
	}
	return n, nil
}

func positiveInt(o map[string]string, key string) (int, error) {
	v, ok := o[key]
	if !ok {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("invalid value '%s' for option '%s': expected a positive integer", v, key)
	}
	return n, nil
}

func indexOf(names []string, n string) int {
	for i, x := range names {
		if x == n {
			return i
		}
	}
	return -1
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Kafka client properties (properties.*) Riffle maps onto franz-go, and
// those it accepts without effect (they tune the Java client only). Any
// other property is rejected.
var (
	mappedProperties = []string{
		"bootstrap.servers", "group.id", "client.id", "security.protocol",
		"sasl.mechanism", "sasl.jaas.config",
		"ssl.truststore.location", "ssl.truststore.type", "ssl.truststore.certificates",
		"ssl.keystore.location", "ssl.keystore.type", "ssl.keystore.certificate.chain", "ssl.keystore.key",
		"ssl.key.password", "ssl.keystore.password", "ssl.truststore.password",
		"ssl.endpoint.identification.algorithm",
		"auto.offset.reset", "isolation.level",
		"request.timeout.ms", "default.api.timeout.ms",
		"acks", "linger.ms", "compression.type", "max.request.size", "fetch.max.wait.ms",
		"max.partition.fetch.bytes", "fetch.max.bytes",
	}
	ignoredProperties = []string{
		"enable.auto.commit", "auto.commit.interval.ms", "session.timeout.ms", "heartbeat.interval.ms",
		"max.poll.records", "max.poll.interval.ms", "fetch.min.bytes",
		"client.dns.lookup", "reconnect.backoff.ms", "reconnect.backoff.max.ms", "retry.backoff.ms",
		"metadata.max.age.ms", "partition.discovery.interval.ms", "receive.buffer.bytes", "send.buffer.bytes",
		"batch.size", "buffer.memory", "delivery.timeout.ms", "retries", "max.in.flight.requests.per.connection",
		"enable.idempotence", "transaction.timeout.ms", "commit.offsets.on.checkpoint", "register.consumer.metrics",
		"client.id.prefix", "allow.auto.create.topics", "ssl.protocol", "ssl.enabled.protocols",
	}
)

func checkProperties(props map[string]string) error {
	var unknown []string
	for k := range props {
		if !containsString(mappedProperties, k) && !containsString(ignoredProperties, k) {
			unknown = append(unknown, "properties."+k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("Kafka client properties without an equivalent in Riffle's Kafka client (franz-go): %s; supported: %s (accepted without effect: %s)",
			strings.Join(unknown, ", "), strings.Join(mappedProperties, ", "), strings.Join(ignoredProperties, ", "))
	}
	return nil
}

func containsString(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
