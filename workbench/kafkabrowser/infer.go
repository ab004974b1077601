package kafkabrowser

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/riffle-sql/riffle/engine/connector/infer"
	"github.com/riffle-sql/riffle/engine/types"
)

// Envelopes Infer recognizes in message values.
const (
	EnvelopeNone     = ""         // plain JSON objects: format json
	EnvelopeDebezium = "debezium" // {"before", "after", "op"} (or under "payload"): debezium-json
	EnvelopeCanal    = "canal"    // {"data": [rows], "type": "INSERT"…}: canal-json
	EnvelopeMaxwell  = "maxwell"  // {"data": {row}, "type": "insert"…}: maxwell-json
)

// Proposal is a table proposed for a topic.
type Proposal struct {
	// Result holds the columns, the rowtime proposal and the WITH options
	// ('connector' = 'kafka' first; the password masked, see
	// Config.TableOptions), as infer gives them for files.
	*infer.Result
	Topic string
	// Connector is 'kafka', or 'upsert-kafka' for a compacted topic of
	// JSON keys and values with tombstones (PrimaryKey set).
	Connector string
	Format    string // json, debezium-json, canal-json, maxwell-json, raw
	Envelope  string
	// Sampled is the number of messages looked at; Tombstones of them had
	// no value.
	Sampled, Tombstones int
}

// Infer proposes a table reading topic on the cluster cfg from sampled
// messages: plain JSON objects give their fields as columns ('format' =
// 'json'); Debezium, Canal and Maxwell change events give the row type
// inside 'after'/'before' or 'data' and the matching CDC format; values
// that are not JSON give one 'value' column with 'format' = 'raw' (STRING
// for text, BYTES otherwise). Avro in Confluent's wire format is
// recognized and refused with a reason (its schema is in a registry). The
// table starts reading at the earliest offset.
func Infer(cfg Config, topic string, msgs []Message) (*Proposal, error) {
	p := &Proposal{Topic: topic, Sampled: len(msgs)}
	// in the order they were written, as a reader of the topic sees
	// them: the rowtime proposal judges the timestamps' order
	msgs = append([]Message(nil), msgs...)
	sort.SliceStable(msgs, func(i, j int) bool {
		a, b := msgs[i], msgs[j]
		if !a.Timestamp.Equal(b.Timestamp) {
			return a.Timestamp.Before(b.Timestamp)
		}
		if a.Partition != b.Partition {
			return a.Partition < b.Partition
		}
		return a.Offset < b.Offset
	})
	var values [][]byte
	for _, m := range msgs {
		if m.Value == nil {
			p.Tombstones++
			continue
		}
		values = append(values, m.Value)
	}
	if len(values) == 0 {
		if len(msgs) == 0 {
			return nil, fmt.Errorf("%w: topic %s has no messages to infer a table from", infer.ErrUnsupported, topic)
		}
		return nil, fmt.Errorf("%w: the %d sampled messages of topic %s are all tombstones (no value)", infer.ErrUnsupported, len(msgs), topic)
	}
	name := tableName(topic)
	source := "topic " + topic
	objs, env, schemaInclude := envelopeRows(values)
	var fmtOpts []infer.Option
	switch {
	case env != EnvelopeNone || len(objs) > 0:
		if len(objs) == 0 {
			return nil, fmt.Errorf("%w: the change events of topic %s carry no row (every 'after'/'before'/'data' is null)", infer.ErrUnsupported, topic)
		}
		r, err := infer.JSONObjects(name, source, objs)
		if err != nil {
			return nil, err
		}
		p.Result, p.Envelope = r, env
		p.Format = map[string]string{EnvelopeNone: "json", EnvelopeDebezium: "debezium-json", EnvelopeCanal: "canal-json", EnvelopeMaxwell: "maxwell-json"}[env]
		r.Format = p.Format // what the review dialog names
		for _, o := range r.Options {
			if k, ok := strings.CutPrefix(o.Key, "json."); ok {
				if p.Format == "canal-json" || p.Format == "maxwell-json" || p.Format == "debezium-json" {
					if k == "timestamp-format.standard" || k == "ignore-parse-errors" {
						fmtOpts = append(fmtOpts, infer.Option{Key: p.Format + "." + k, Value: o.Value})
					}
					continue
				}
				fmtOpts = append(fmtOpts, o)
			}
		}
		if schemaInclude {
			fmtOpts = append(fmtOpts, infer.Option{Key: "debezium-json.schema-include", Value: "true"})
		}
		switch env {
		case EnvelopeDebezium:
			p.Notes = append(p.Notes, "The values are Debezium change events: the columns are the row inside 'after' (or 'before' for a delete), read as a changelog (+I/-U/+U/-D) by 'format' = 'debezium-json'.")
		case EnvelopeCanal:
			p.Notes = append(p.Notes, "The values are Canal change events: the columns are the rows inside 'data', read as a changelog by 'format' = 'canal-json'.")
		case EnvelopeMaxwell:
			p.Notes = append(p.Notes, "The values are Maxwell change events: the columns are the row inside 'data', read as a changelog by 'format' = 'maxwell-json'.")
		}
	default:
		if id, ok := confluentAvro(values); ok {
			return nil, fmt.Errorf("%w: the values of topic %s are Avro in Confluent's wire format (schema id %d): their schema is in a schema registry, which Riffle does not read ('avro-confluent' is not available yet), so no table can be inferred; Flink reads such a topic with 'format' = 'avro-confluent' and 'avro-confluent.url'", infer.ErrUnsupported, topic, id)
		}
		text := true
		for _, v := range values {
			if !utf8.Valid(v) || !printable(v) {
				text = false
				break
			}
		}
		col := infer.Column{Name: "value", Type: types.StringType(), Example: Short(values[0], 60)}
		note := "The values are not JSON objects: the table reads each value whole as one STRING column ('format' = 'raw')."
		if !text {
			col.Type = types.BytesType()
			note = "The values are binary and not a format the workbench recognizes: the table reads each value whole as one BYTES column ('format' = 'raw')."
		}
		p.Result = &infer.Result{Path: source, Format: "raw", Name: name, Columns: []infer.Column{col}, Records: int64(len(values)), Complete: true}
		p.Format = "raw"
		p.Notes = append(p.Notes, note)
	}
	if p.Rowtime != nil {
		perPartitionRowtime(p, name, source, msgs)
	} else {
		recordTimestampRowtime(p, msgs)
	}
	// infer words its notes for files
	for i, n := range p.Notes {
		p.Notes[i] = strings.ReplaceAll(n, " in the file", " in the sample")
	}
	p.Notes = append([]string{fmt.Sprintf("Inferred from %d sampled message(s) of topic %s.", p.Sampled, topic)}, p.Notes...)
	if env == EnvelopeNone && p.Format == "json" && p.Tombstones > 0 {
		if keyCols, exceptKey, note, ok := upsertKey(name, source, msgs, p.Result); ok {
			// a compacted topic of JSON keys and values: an upsert table
			p.Connector = "upsert-kafka"
			if exceptKey {
				p.Columns = append(keyCols, p.Columns...)
			}
			for _, c := range keyCols {
				p.PrimaryKey = append(p.PrimaryKey, c.Name)
			}
			opts := []infer.Option{{Key: "connector", Value: "upsert-kafka"}, {Key: "topic", Value: topic}}
			for _, kv := range cfg.TableOptions(true) {
				opts = append(opts, infer.Option{Key: kv[0], Value: kv[1]})
			}
			opts = append(opts, infer.Option{Key: "key.format", Value: "json"}, infer.Option{Key: "value.format", Value: "json"})
			if exceptKey {
				opts = append(opts, infer.Option{Key: "value.fields-include", Value: "EXCEPT_KEY"})
			}
			for _, o := range fmtOpts {
				opts = append(opts, infer.Option{Key: "value." + o.Key, Value: o.Value})
			}
			p.Options = opts
			p.Notes = append(p.Notes, note)
			return p, nil
		}
	}
	p.Connector = "kafka"
	opts := []infer.Option{{Key: "connector", Value: "kafka"}, {Key: "topic", Value: topic}}
	for _, kv := range cfg.TableOptions(true) {
		opts = append(opts, infer.Option{Key: kv[0], Value: kv[1]})
	}
	opts = append(opts, infer.Option{Key: "scan.startup.mode", Value: "earliest-offset"}, infer.Option{Key: "format", Value: p.Format})
	opts = append(opts, fmtOpts...)
	p.Options = opts
	if p.Tombstones > 0 {
		p.Notes = append(p.Notes, fmt.Sprintf("%d sampled message(s) are tombstones (no value): a 'kafka' table skips them; an 'upsert-kafka' table with a PRIMARY KEY reads them as deletes.", p.Tombstones))
	}
	return p, nil
}

// perPartitionRowtime judges the proposed rowtime's order partition by
// partition, each in offset order: the kafka source keeps a watermark per
// partition (the table's watermark is the least of them, as in Flink's
// Kafka source), so timestamps that interleave across partitions make no
// row late; only disorder within a partition does. With messages of one
// partition only, the proposal over the whole sample stands. The delay
// becomes the largest within a partition and the note says so.
func perPartitionRowtime(p *Proposal, name, source string, msgs []Message) {
	byPart := map[int32][]Message{}
	for _, m := range msgs {
		if m.Value != nil {
			byPart[m.Partition] = append(byPart[m.Partition], m)
		}
	}
	if len(byPart) < 2 {
		return
	}
	rt := p.Rowtime
	var worst *infer.Rowtime
	for _, part := range byPart {
		sort.SliceStable(part, func(i, j int) bool { return part[i].Offset < part[j].Offset })
		values := make([][]byte, len(part))
		for i, m := range part {
			values[i] = m.Value
		}
		objs, _, _ := envelopeRows(values)
		if len(objs) == 0 {
			continue
		}
		r, err := infer.JSONObjects(name, source, objs)
		if err != nil || r.Rowtime == nil || r.Rowtime.Source != rt.Source {
			continue
		}
		if worst == nil || r.Rowtime.MaxLateness > worst.MaxLateness ||
			(r.Rowtime.Order == "descending" && worst.Order != "descending" && r.Rowtime.MaxLateness >= worst.MaxLateness) {
			worst = r.Rowtime
		}
	}
	if worst == nil {
		return
	}
	rt.Order, rt.Delay, rt.Unit, rt.MaxLateness = worst.Order, worst.Delay, worst.Unit, worst.MaxLateness
	var note string
	switch rt.Order {
	case "ascending":
		note = fmt.Sprintf("%s is ascending within each partition of the sample (the watermark is kept per partition, so their interleaving makes no row late): a watermark of %s - INTERVAL '1' SECOND drops no rows.", rt.Source, rt.Column)
	case "descending":
		note = fmt.Sprintf("%s is in descending order within a partition of the sample (newest first): in streaming mode nearly every row is late unless the watermark delay covers the whole span (%s %s); batch mode reads it in any order.", rt.Source, rt.Delay, rt.Unit)
	default:
		note = fmt.Sprintf("%s is out of order by up to %s %s(s) within a partition of the sample (the watermark is kept per partition, so disorder across partitions makes no row late): the proposed watermark delay covers that.", rt.Source, rt.Delay, strings.ToLower(rt.Unit))
	}
	for i, n := range p.Notes {
		if strings.HasPrefix(n, rt.Source+" is ") && (strings.Contains(n, " in the file") || strings.Contains(n, " in the sample")) {
			p.Notes[i] = note
			return
		}
	}
	p.Notes = append(p.Notes, note)
}

// recordTimestampRowtime offers the Kafka record timestamp as the event
// time when no field of the values holds timestamps (a Debezium topic, raw
// text, binary data): a column event_time TIMESTAMP_LTZ(3) METADATA FROM
// 'timestamp' (Flink's kafka and upsert-kafka metadata key), its order
// judged within each partition in offset order. Messages without a
// timestamp (Kafka's NoTimestampType, -1) offer nothing.
func recordTimestampRowtime(p *Proposal, msgs []Message) {
	if len(msgs) == 0 {
		return
	}
	byPart := map[int32][]Message{}
	first := msgs[0].Timestamp
	for _, m := range msgs {
		if m.Timestamp.UnixMilli() <= 0 {
			return
		}
		if m.Timestamp.Before(first) {
			first = m.Timestamp
		}
		byPart[m.Partition] = append(byPart[m.Partition], m)
	}
	var late int64
	for _, part := range byPart {
		sort.SliceStable(part, func(i, j int) bool { return part[i].Offset < part[j].Offset })
		seen := int64(math.MinInt64)
		for _, m := range part {
			t := m.Timestamp.UnixMilli()
			if t < seen {
				late = max(late, seen-t)
			}
			seen = max(seen, t)
		}
	}
	name := "event_time"
	used := map[string]bool{}
	for _, c := range p.Columns {
		used[strings.ToLower(c.Name)] = true
	}
	for k := 2; used[name]; k++ {
		name = fmt.Sprintf("event_time_%d", k)
	}
	p.Columns = append(p.Columns, infer.Column{Name: name, Type: types.TimestampLTZType(3), Metadata: "timestamp",
		Example: first.UTC().Format("2006-01-02 15:04:05.000Z")})
	rt := &infer.Rowtime{Column: name, Source: name, MaxLateness: late, Order: "ascending", Delay: "1", Unit: "SECOND"}
	if late > 0 {
		rt.Order = "out of order"
		rt.Delay, rt.Unit = lateness(late)
	}
	p.Rowtime = rt
	note := fmt.Sprintf("No field of the values holds timestamps: the Kafka record timestamp is offered as the event time, %s TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'; ", name)
	if late == 0 {
		note += fmt.Sprintf("it is ascending within each partition of the sample: a watermark of %s - INTERVAL '1' SECOND drops no rows.", name)
	} else {
		note += fmt.Sprintf("it is out of order by up to %s %s(s) within a partition of the sample: the proposed watermark delay covers that.", rt.Delay, strings.ToLower(rt.Unit))
	}
	p.Notes = append(p.Notes, note)
}

// lateness is a watermark delay covering ms milliseconds: whole seconds
// up to 120, then minutes, hours, days.
func lateness(ms int64) (delay, unit string) {
	d := time.Duration(ms) * time.Millisecond
	for _, u := range []struct {
		name string
		d    time.Duration
	}{{"SECOND", time.Second}, {"MINUTE", time.Minute}, {"HOUR", time.Hour}} {
		n := int64(math.Ceil(float64(d) / float64(u.d)))
		if n <= 120 {
			return strconv.FormatInt(n, 10), u.name
		}
	}
	return strconv.FormatInt(int64(math.Ceil(float64(d)/float64(24*time.Hour))), 10), "DAY"
}

// upsertKey proposes the PRIMARY KEY of an upsert table over a topic whose
// messages all have JSON object keys: the key's fields, typed by the json
// inferrer. When the values hold every key field too (same names), the
// key columns are the value's ('value.fields-include' = 'ALL', exceptKey
// false); when they hold none, keyCols are added before the value's
// ('EXCEPT_KEY'). Keys of other shapes, or values holding only some key
// fields, give ok false (the topic is read by 'kafka').
func upsertKey(name, source string, msgs []Message, values *infer.Result) (keyCols []infer.Column, exceptKey bool, note string, ok bool) {
	var keys [][]byte
	for _, m := range msgs {
		t := bytes.TrimSpace(m.Key)
		if len(t) == 0 || t[0] != '{' || !json.Valid(t) {
			return nil, false, "", false
		}
		keys = append(keys, t)
	}
	kr, err := infer.JSONObjects(name, source+" keys", keys)
	if err != nil || kr.Skipped > 0 || len(kr.Columns) == 0 {
		return nil, false, "", false
	}
	inValue := 0
	for _, kc := range kr.Columns {
		for _, vc := range values.Columns {
			if vc.Name == kc.Name {
				inValue++
			}
		}
	}
	tomb := 0
	for _, m := range msgs {
		if m.Value == nil {
			tomb++
		}
	}
	var names []string
	for _, c := range kr.Columns {
		names = append(names, c.Name)
	}
	base := fmt.Sprintf("Every message has a JSON key (%s) and %d are tombstones: the topic looks compacted, so it is read as an upsert table ('upsert-kafka': a value upserts its key's row, a tombstone deletes it; PRIMARY KEY from the key). Use 'connector' = 'kafka' to read every message instead.", strings.Join(names, ", "), tomb)
	switch inValue {
	case len(kr.Columns):
		return kr.Columns, false, base, true
	case 0:
		return kr.Columns, true, base + " The values do not repeat the key's fields: 'value.fields-include' = 'EXCEPT_KEY'.", true
	}
	return nil, false, "", false
}

// envelopeRows finds the rows of sampled values: CDC envelopes when most
// objects are of one kind, else the objects themselves. schemaInclude
// reports Debezium events with their schema ({"schema", "payload"}).
func envelopeRows(values [][]byte) (rows [][]byte, env string, schemaInclude bool) {
	counts := map[string]int{}
	objects := 0
	type parsed struct {
		m   map[string]json.RawMessage
		env string
		inc bool
	}
	var ps []parsed
	for _, v := range values {
		var m map[string]json.RawMessage
		if json.Unmarshal(v, &m) != nil || m == nil {
			continue
		}
		objects++
		e, inc := envelopeOf(m)
		if inc {
			var inner map[string]json.RawMessage
			_ = json.Unmarshal(m["payload"], &inner)
			m = inner
		}
		counts[e]++
		ps = append(ps, parsed{m, e, inc})
	}
	if objects == 0 {
		return nil, EnvelopeNone, false
	}
	for _, e := range []string{EnvelopeDebezium, EnvelopeCanal, EnvelopeMaxwell} {
		if counts[e]*2 > objects {
			env = e
		}
	}
	if env == EnvelopeNone {
		for _, v := range values {
			if t := bytes.TrimSpace(v); len(t) > 0 && t[0] == '{' {
				rows = append(rows, v)
			}
		}
		return rows, EnvelopeNone, false
	}
	for _, p := range ps {
		if p.env != env {
			continue
		}
		schemaInclude = schemaInclude || p.inc
		switch env {
		case EnvelopeDebezium:
			if r := p.m["after"]; notNull(r) {
				rows = append(rows, r)
			} else if r := p.m["before"]; notNull(r) {
				rows = append(rows, r)
			}
		case EnvelopeCanal:
			var data []json.RawMessage
			_ = json.Unmarshal(p.m["data"], &data)
			for _, r := range data {
				if notNull(r) {
					rows = append(rows, r)
				}
			}
		case EnvelopeMaxwell:
			if r := p.m["data"]; notNull(r) {
				rows = append(rows, r)
			}
		}
	}
	return rows, env, schemaInclude
}

func notNull(r json.RawMessage) bool {
	t := bytes.TrimSpace(r)
	return len(t) > 0 && t[0] == '{'
}

// envelopeOf says which CDC envelope an object is.
func envelopeOf(m map[string]json.RawMessage) (env string, schemaInclude bool) {
	if p, ok := m["payload"]; ok && len(m) <= 2 {
		var inner map[string]json.RawMessage
		if json.Unmarshal(p, &inner) == nil && inner != nil {
			if e, _ := envelopeOf(inner); e == EnvelopeDebezium {
				return EnvelopeDebezium, true
			}
		}
	}
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(m[k], &s)
		return s
	}
	_, hasBefore := m["before"]
	_, hasAfter := m["after"]
	if op := str("op"); (hasBefore || hasAfter) && (op == "c" || op == "u" || op == "d" || op == "r") {
		return EnvelopeDebezium, false
	}
	_, hasDB := m["database"]
	_, hasTable := m["table"]
	if d, ok := m["data"]; ok && hasDB && hasTable {
		t := bytes.TrimSpace(d)
		typ := str("type")
		if len(t) > 0 && t[0] == '[' && (typ == "INSERT" || typ == "UPDATE" || typ == "DELETE") {
			return EnvelopeCanal, false
		}
		if len(t) > 0 && t[0] == '{' && (typ == "insert" || typ == "update" || typ == "delete") {
			return EnvelopeMaxwell, false
		}
	}
	return EnvelopeNone, false
}

// confluentAvro reports values in Confluent's wire format (magic byte 0,
// a 4-byte schema id, then Avro), with the first schema id.
func confluentAvro(values [][]byte) (int32, bool) {
	for _, v := range values {
		if len(v) < 6 || v[0] != 0 {
			return 0, false
		}
	}
	return int32(binary.BigEndian.Uint32(values[0][1:5])), true
}

var nonIdent = regexp.MustCompile(`[^A-Za-z0-9_]+`)

// tableName derives a table name from a topic name ("shop.orders-v1" →
// "shop_orders_v1").
func tableName(topic string) string {
	s := strings.Trim(nonIdent.ReplaceAllString(topic, "_"), "_")
	if s == "" {
		return "topic"
	}
	if s[0] >= '0' && s[0] <= '9' {
		s = "t_" + s
	}
	return strings.ToLower(s)
}

// CreateTable renders the proposal as CREATE TABLE (the password masked).
func (p *Proposal) CreateTable(name string, rowtime bool) string {
	return p.Result.CreateTable(name, rowtime)
}

// Unmask puts cfg's password in place of PasswordMask in the JAAS line of
// SQL made from a proposal (the text is run, never shown or saved).
func (c Config) Unmask(sqlText string) string {
	if !c.sasl() {
		return sqlText
	}
	quoted := strings.ReplaceAll(jaasEscape(c.Password), "'", "''")
	return strings.ReplaceAll(sqlText, `password="`+PasswordMask+`"`, `password="`+quoted+`"`)
}

// ErrNoPassword is returned when SQL needs a password the connection does
// not have.
var ErrNoPassword = errors.New("the connection has no password: enter it in the Kafka connection (it is kept for this session unless 'save password' is ticked)")
