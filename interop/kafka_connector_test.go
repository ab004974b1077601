//go:build interop

package interop

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/riffle-sql/riffle/engine/connector"
	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/table"
)

// Riffle's kafka and upsert-kafka connectors against the real broker
// (scripts/kafka.sh), with the same statements run on real Flink's kafka
// connector where Flink runs: the records written and the rows read must
// agree.

// kcRiffle opens Riffle's embedded engine (UTC, DML waits for its job).
func kcRiffle(t testing.TB, streaming bool) table.Engine {
	t.Helper()
	s := table.InBatchMode()
	if streaming {
		s = table.InStreamingMode()
	}
	env, err := table.Create(s)
	if err != nil {
		t.Fatal(err)
	}
	env.GetConfig().Set("table.dml-sync", "true")
	env.GetConfig().Set("table.local-time-zone", "UTC")
	e := table.NewEmbeddedEngine(env)
	t.Cleanup(func() { e.Close() })
	return e
}

// kcFlink opens a session on the running Flink that can use the kafka
// connector (UTC).
func kcFlink(t testing.TB, ctx context.Context, streaming bool) table.Engine {
	t.Helper()
	f := fcRequire(t)
	props := fcBatchProps()
	if streaming {
		props = fcStreamingProps()
	}
	props["table.local-time-zone"] = "UTC"
	return kafkaFlinkSession(t, ctx, f, props)
}

// kcWith is the WITH clause of a table on topic, bounded by the log end.
func kcWith(k Kafka, connectorID, topic string, more ...string) string {
	opts := []string{
		fmt.Sprintf("'connector' = '%s'", connectorID),
		fmt.Sprintf("'topic' = '%s'", topic),
		fmt.Sprintf("'properties.bootstrap.servers' = '%s'", k.Bootstrap),
		"'scan.bounded.mode' = 'latest-offset'",
	}
	if connectorID == "kafka" {
		opts = append(opts, "'scan.startup.mode' = 'earliest-offset'")
	}
	return "WITH (\n  " + strings.Join(append(opts, more...), ",\n  ") + "\n)"
}

// kcRecords renders records as "p<partition> key -> value ts headers",
// sorted by partition and offset.
func kcRecords(recs []*kgo.Record) []string { return kcRecordsTS(recs, true) }

// kcRecordsTS is kcRecords, leaving the timestamps out unless withTS
// (records stamped with their produce time differ between runs).
func kcRecordsTS(recs []*kgo.Record, withTS bool) []string {
	sort.SliceStable(recs, func(i, j int) bool {
		if recs[i].Partition != recs[j].Partition {
			return recs[i].Partition < recs[j].Partition
		}
		return recs[i].Offset < recs[j].Offset
	})
	return kcRender(recs, withTS)
}

// kcRender renders records in their order as kcRecordsTS does.
func kcRender(recs []*kgo.Record, withTS bool) []string {
	var out []string
	for _, r := range recs {
		key, val := "null", "null"
		if r.Key != nil {
			key = string(r.Key)
		}
		if r.Value != nil {
			val = string(r.Value)
		}
		var hs []string
		for _, h := range r.Headers {
			hs = append(hs, h.Key+"="+string(h.Value))
		}
		ts := ""
		if withTS {
			ts = fmt.Sprintf(" ts=%d", r.Timestamp.UnixMilli())
		}
		out = append(out, fmt.Sprintf("p%d %s -> %s%s headers=%v", r.Partition, key, val, ts, hs))
	}
	return out
}

// kcRecordsPerKey is kcRecordsTS without timestamps, with each partition's
// records grouped by key (each key's records in offset order).
func kcRecordsPerKey(recs []*kgo.Record) []string {
	recs = append([]*kgo.Record(nil), recs...)
	sort.SliceStable(recs, func(i, j int) bool {
		if recs[i].Partition != recs[j].Partition {
			return recs[i].Partition < recs[j].Partition
		}
		if c := bytes.Compare(recs[i].Key, recs[j].Key); c != 0 {
			return c < 0
		}
		return recs[i].Offset < recs[j].Offset
	})
	return kcRender(recs, false)
}

func kcSorted(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

// kcPerKey keeps the order of rows within each first field, and sorts keys.
func kcPerKey(rows []string) []string {
	key := func(r string) string {
		body := r[3:]
		if i := strings.IndexAny(body, ",]"); i >= 0 {
			return body[:i]
		}
		return body
	}
	out := append([]string(nil), rows...)
	sort.SliceStable(out, func(i, j int) bool { return key(out[i]) < key(out[j]) })
	return out
}

func kcNeedFormat(t *testing.T, id string) {
	t.Helper()
	f, err := connector.LookupFormat(id)
	if err != nil {
		t.Skipf("Riffle has no '%s' format yet: %v", id, err)
	}
	if _, ok := f.(connector.MessageFormatFactory); !ok {
		t.Skipf("Riffle's '%s' format cannot be used on Kafka yet", id)
	}
}

// TestKafkaConnectorJSONMatchesFlink: Riffle and Flink write the same rows
// (json key and value, timestamp and headers metadata) to two topics; the
// records agree byte for byte and partition for partition (Kafka's
// default partitioner on both sides); then both engines read Riffle's
// topic with the same table and agree on every row and metadata column.
func TestKafkaConnectorJSONMatchesFlink(t *testing.T) {
	k := kafkaRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	riffleTopic, flinkTopic := UniqueTopic("kc-json-riffle"), UniqueTopic("kc-json-flink")
	for _, tp := range []string{riffleTopic, flinkTopic} {
		if err := k.CreateTopic(ctx, tp, 3, nil); err != nil {
			t.Fatal(err)
		}
	}
	cols := `(id INT, name STRING, amount DECIMAL(10, 2), tags ARRAY<STRING>,
  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',
  hs MAP<STRING, BYTES> METADATA FROM 'headers')`
	fmtOpts := []string{"'key.format' = 'json'", "'key.fields' = 'id'", "'value.format' = 'json'", "'value.fields-include' = 'EXCEPT_KEY'"}
	values := `VALUES
  (1, 'ada', CAST(1.50 AS DECIMAL(10, 2)), ARRAY['x', 'y'], TO_TIMESTAMP_LTZ(1714979289123, 3), MAP['src', CAST('web' AS BYTES)]),
  (2, CAST(NULL AS STRING), CAST(-3 AS DECIMAL(10, 2)), CAST(NULL AS ARRAY<STRING>), TO_TIMESTAMP_LTZ(1714979289124, 3), MAP['a', CAST('1' AS BYTES), 'b', CAST('2' AS BYTES)]),
  (3, 'cy', CAST(0 AS DECIMAL(10, 2)), ARRAY['z'], TO_TIMESTAMP_LTZ(1714979289125, 3), CAST(NULL AS MAP<STRING, BYTES>)),
  (4, 'dee', CAST(99.99 AS DECIMAL(10, 2)), CAST(NULL AS ARRAY<STRING>), TO_TIMESTAMP_LTZ(1714979289126, 3), MAP['k', CAST('' AS BYTES)])`
	riffle := kcRiffle(t, false)
	flink := kcFlink(t, ctx, false)
	fcExec(t, ctx, riffle, "CREATE TABLE out_json "+cols+" "+kcWith(k, "kafka", riffleTopic, fmtOpts...))
	fcExec(t, ctx, flink, "CREATE TABLE out_json "+cols+" "+kcWith(k, "kafka", flinkTopic, fmtOpts...))
	fcRowsOf(t, ctx, riffle, "INSERT INTO out_json "+values)
	fcRowsOf(t, ctx, flink, "INSERT INTO out_json "+values)
	rr, err := k.Consume(ctx, riffleTopic, 4)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := k.Consume(ctx, flinkTopic, 4)
	if err != nil {
		t.Fatal(err)
	}
	// the same records on the same partitions; their order within a
	// partition follows the writers' parallelism, which differs
	fcMustEqual(t, "records (Riffle vs Flink)", kcSorted(kcRecords(rr)), kcSorted(kcRecords(fr)))

	// both engines read Riffle's topic
	read := "CREATE TABLE in_json (id INT, name STRING, amount DECIMAL(10, 2), tags ARRAY<STRING>,\n" +
		"  ts TIMESTAMP_LTZ(3) METADATA FROM 'timestamp', hs MAP<STRING, BYTES> METADATA FROM 'headers',\n" +
		"  part INT METADATA FROM 'partition' VIRTUAL, off BIGINT METADATA FROM 'offset' VIRTUAL,\n" +
		"  tt STRING METADATA FROM 'timestamp-type' VIRTUAL, tp STRING METADATA FROM 'topic' VIRTUAL) " +
		kcWith(k, "kafka", riffleTopic, fmtOpts...)
	fcExec(t, ctx, riffle, read)
	fcExec(t, ctx, flink, read)
	q := "SELECT id, name, amount, tags, ts, CARDINALITY(hs), part, off, tt, tp = '" + riffleTopic + "' FROM in_json"
	want := kcSorted(fcRowsOf(t, ctx, flink, q))
	fcMustEqual(t, "rows read (Riffle vs Flink)", kcSorted(fcRowsOf(t, ctx, riffle, q)), want)
	if len(want) != 4 {
		t.Fatalf("Flink read %d rows: %v", len(want), want)
	}
}

// TestKafkaConnectorUpsertMatchesFlink: an aggregation written through
// upsert-kafka by Riffle and by Flink gives the same records per key; a
// tombstone appended to both topics; the upsert-kafka source of each engine
// then reads Riffle's topic with the same changelog per key (Flink's
// ChangelogNormalize: +I, -U/+U, -D).
func TestKafkaConnectorUpsertMatchesFlink(t *testing.T) {
	k := kafkaRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	src, riffleTopic, flinkTopic := UniqueTopic("kc-up-src"), UniqueTopic("kc-up-riffle"), UniqueTopic("kc-up-flink")
	for _, tp := range []string{src, riffleTopic, flinkTopic} {
		if err := k.CreateTopic(ctx, tp, 2, nil); err != nil {
			t.Fatal(err)
		}
	}
	if err := k.Produce(ctx, src, ValueRecords(`{"k":"a","v":1}`, `{"k":"b","v":10}`, `{"k":"a","v":2}`, `{"k":"c","v":5}`, `{"k":"a","v":3}`)...); err != nil {
		t.Fatal(err)
	}
	riffle := kcRiffle(t, true)
	flink := kcFlink(t, ctx, true)
	for _, e := range []struct {
		eng   table.Engine
		topic string
	}{{riffle, riffleTopic}, {flink, flinkTopic}} {
		fcExec(t, ctx, e.eng, "CREATE TABLE src (k STRING, v INT) "+kcWith(k, "kafka", src, "'format' = 'json'"))
		fcExec(t, ctx, e.eng, "CREATE TABLE sums (k STRING, total INT, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) "+
			kcWith(k, "upsert-kafka", e.topic, "'key.format' = 'json'", "'value.format' = 'json'"))
		fcRowsOf(t, ctx, e.eng, "INSERT INTO sums SELECT k, SUM(v), COUNT(*) FROM src GROUP BY k")
	}
	rr, err := k.Consume(ctx, riffleTopic, 5)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := k.Consume(ctx, flinkTopic, 5)
	if err != nil {
		t.Fatal(err)
	}
	// Kafka orders records per partition, and an upsert sink's changes per
	// key; the interleaving of different keys in one partition follows
	// which aggregate subtask emitted first (both engines run at
	// parallelism 2 here), so the records are compared key by key
	fcMustEqual(t, "upsert records per key (Riffle vs Flink)", kcRecordsPerKey(rr), kcRecordsPerKey(fr))
	// a tombstone for b in b's partition
	var bPart int32
	for _, r := range rr {
		if string(r.Key) == `{"k":"b"}` {
			bPart = r.Partition
		}
	}
	if err := k.Produce(ctx, riffleTopic, &kgo.Record{Partition: bPart, Key: []byte(`{"k":"b"}`)}); err != nil {
		t.Fatal(err)
	}
	read := "CREATE TABLE sums_in (k STRING, total INT, n BIGINT, PRIMARY KEY (k) NOT ENFORCED) " +
		kcWith(k, "upsert-kafka", riffleTopic, "'key.format' = 'json'", "'value.format' = 'json'")
	fcExec(t, ctx, riffle, read)
	fcExec(t, ctx, flink, read)
	q := "SELECT k, total, n FROM sums_in"
	want := kcPerKey(fcRowsOf(t, ctx, flink, q))
	fcMustEqual(t, "upsert changelog (Riffle vs Flink)", kcPerKey(fcRowsOf(t, ctx, riffle, q)), want)
	fcMustEqual(t, "Flink's changelog", want, []string{
		"+I[a, 1, 1]", "-U[a, 1, 1]", "+U[a, 3, 2]", "-U[a, 3, 2]", "+U[a, 6, 3]",
		"+I[b, 10, 1]", "-D[b, 10, 1]",
		"+I[c, 5, 1]",
	})
}

// TestKafkaConnectorDebeziumMatchesFlink: Debezium change events on the
// real broker read by Riffle's and Flink's kafka source with debezium-json
// give the same changelog.
func TestKafkaConnectorDebeziumMatchesFlink(t *testing.T) {
	kcNeedFormat(t, "debezium-json")
	k := kafkaRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	topic := UniqueTopic("kc-dbz")
	if err := k.CreateTopic(ctx, topic, 1, nil); err != nil {
		t.Fatal(err)
	}
	events := ValueRecords(
		`{"before":null,"after":{"id":1,"name":"ada","qty":3},"source":{"ts_ms":1714979289000,"db":"shop","table":"items"},"op":"c","ts_ms":1714979289001}`,
		`{"before":null,"after":{"id":2,"name":"bob","qty":1},"source":{"ts_ms":1714979290000,"db":"shop","table":"items"},"op":"r","ts_ms":1714979290001}`,
		`{"before":{"id":1,"name":"ada","qty":3},"after":{"id":1,"name":"ada","qty":4},"source":{"ts_ms":1714979291000,"db":"shop","table":"items"},"op":"u","ts_ms":1714979291001}`,
		`{"before":{"id":2,"name":"bob","qty":1},"after":null,"source":{"ts_ms":1714979292000,"db":"shop","table":"items"},"op":"d","ts_ms":1714979292001}`,
	)
	if err := k.Produce(ctx, topic, events...); err != nil {
		t.Fatal(err)
	}
	riffle := kcRiffle(t, true)
	flink := kcFlink(t, ctx, true)
	ddl := "CREATE TABLE items (id INT, name STRING, qty INT) " + kcWith(k, "kafka", topic, "'format' = 'debezium-json'")
	fcExec(t, ctx, riffle, ddl)
	fcExec(t, ctx, flink, ddl)
	q := "SELECT * FROM items"
	want := fcRowsOf(t, ctx, flink, q)
	fcMustEqual(t, "debezium changelog (Riffle vs Flink)", fcRowsOf(t, ctx, riffle, q), want)
	fcMustEqual(t, "Flink's changelog", want, []string{
		"+I[1, ada, 3]", "+I[2, bob, 1]", "-U[1, ada, 3]", "+U[1, ada, 4]", "-D[2, bob, 1]",
	})
	// an aggregation over the changelog
	q2 := "SELECT SUM(qty), COUNT(*) FROM items"
	fcMustEqual(t, "aggregate over debezium (Riffle vs Flink)", fcApplyChangelog(t, fcRowsOf(t, ctx, riffle, q2)),
		fcApplyChangelog(t, fcRowsOf(t, ctx, flink, q2)))
}

// TestKafkaConnectorAvroMatchesFlink: Riffle and Flink write the same rows
// as avro; the messages agree byte for byte, and each engine reads the
// other's topic.
func TestKafkaConnectorAvroMatchesFlink(t *testing.T) {
	kcNeedFormat(t, "avro")
	k := kafkaRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	riffleTopic, flinkTopic := UniqueTopic("kc-avro-riffle"), UniqueTopic("kc-avro-flink")
	for _, tp := range []string{riffleTopic, flinkTopic} {
		if err := k.CreateTopic(ctx, tp, 1, nil); err != nil {
			t.Fatal(err)
		}
	}
	cols := "(id INT, name STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3))"
	values := "VALUES (1, 'ada', CAST(1.50 AS DECIMAL(10, 2)), TIMESTAMP '2024-05-06 07:08:09.123'), " +
		"(2, CAST(NULL AS STRING), CAST(-3 AS DECIMAL(10, 2)), CAST(NULL AS TIMESTAMP(3)))"
	riffle := kcRiffle(t, false)
	flink := kcFlink(t, ctx, false)
	for _, e := range []struct {
		eng          table.Engine
		mine, theirs string
	}{{riffle, riffleTopic, flinkTopic}, {flink, flinkTopic, riffleTopic}} {
		fcExec(t, ctx, e.eng, "CREATE TABLE out_avro "+cols+" "+kcWith(k, "kafka", e.mine, "'format' = 'avro'"))
		fcExec(t, ctx, e.eng, "CREATE TABLE in_avro "+cols+" "+kcWith(k, "kafka", e.theirs, "'format' = 'avro'"))
		fcRowsOf(t, ctx, e.eng, "INSERT INTO out_avro "+values)
	}
	rr, err := k.Consume(ctx, riffleTopic, 2)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := k.Consume(ctx, flinkTopic, 2)
	if err != nil {
		t.Fatal(err)
	}
	// the two rows may reach the topic in either order (Flink's VALUES
	// source and sink run in parallel): compare the messages as a set
	msgSet := func(recs []*kgo.Record) []string {
		var out []string
		for _, r := range recs {
			out = append(out, string(r.Value))
		}
		sort.Strings(out)
		return out
	}
	rv, fv := msgSet(rr), msgSet(fr)
	for i := range rv {
		if rv[i] != fv[i] {
			t.Errorf("avro message %d (sorted): Riffle %x, Flink %x", i, rv[i], fv[i])
		}
	}
	q := "SELECT * FROM in_avro"
	fcMustEqual(t, "Riffle reads Flink's avro", kcSorted(fcRowsOf(t, ctx, riffle, q)), kcSorted(fcRowsOf(t, ctx, flink, q)))
}

// kcPrivateKafka starts a broker of the test's own (scripts/kafka.sh start
// with a fresh KAFKA_RUN_DIR) and stops it by its PID when the test ends.
func kcPrivateKafka(t *testing.T) Kafka {
	t.Helper()
	root, err := RepoRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	script := filepath.Join(root, "scripts", "kafka.sh")
	run := func(args ...string) (string, error) {
		cmd := exec.Command(script, args...)
		cmd.Env = append(os.Environ(), "KAFKA_RUN_DIR="+dir)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	if out, err := run("start"); err != nil {
		t.Fatalf("scripts/kafka.sh start: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if out, err := run("stop"); err != nil {
			t.Errorf("scripts/kafka.sh stop: %v\n%s", err, out)
		}
	})
	vars, err := readEnvFile(filepath.Join(dir, "endpoints.env"))
	if err != nil {
		t.Fatal(err)
	}
	return Kafka{Version: vars["KAFKA_VERSION"], Bootstrap: vars["KAFKA_BOOTSTRAP"], Home: vars["KAFKA_HOME"], RunDir: dir}
}

// TestKafkaConnectorSurvivesBrokerRestart: a streaming query reads a topic
// of a private broker, the broker restarts (same ports and data), and the
// query goes on: the records produced after the restart arrive, and no
// record is read twice or lost.
func TestKafkaConnectorSurvivesBrokerRestart(t *testing.T) {
	k := kcPrivateKafka(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	topic := UniqueTopic("kc-restart")
	if err := k.CreateTopic(ctx, topic, 2, nil); err != nil {
		t.Fatal(err)
	}
	produce := func(from, to int) {
		var recs []*kgo.Record
		for i := from; i < to; i++ {
			recs = append(recs, &kgo.Record{Partition: int32(i % 2), Value: []byte(fmt.Sprintf(`{"v":%d}`, i))})
		}
		if err := k.Produce(ctx, topic, recs...); err != nil {
			t.Fatal(err)
		}
	}
	produce(0, 6)
	env, err := table.Create(table.InStreamingMode())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := env.ExecuteSQL("CREATE TABLE ev (v INT) WITH ('connector' = 'kafka', 'topic' = '" + topic +
		"', 'properties.bootstrap.servers' = '" + k.Bootstrap + "', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset'," +
		" 'properties.default.api.timeout.ms' = '120000')"); err != nil {
		t.Fatal(err)
	}
	res, err := env.ExecuteSQL("SELECT v FROM ev")
	if err != nil {
		t.Fatal(err)
	}
	it, err := res.Collect()
	if err != nil {
		t.Fatal(err)
	}
	defer it.Close()
	rows := make(chan string, 100)
	go func() {
		for it.Next() {
			rows <- it.Row().String()
		}
		close(rows)
	}()
	next := func(n int) []string {
		var out []string
		deadline := time.After(3 * time.Minute)
		for len(out) < n {
			select {
			case r, ok := <-rows:
				if !ok {
					t.Fatalf("query ended after %v: %v", out, it.Err())
				}
				out = append(out, r)
			case <-deadline:
				t.Fatalf("got %d of %d rows: %v", len(out), n, out)
			}
		}
		return kcSorted(out)
	}
	fcMustEqual(t, "before the restart", next(6), []string{"+I[0]", "+I[1]", "+I[2]", "+I[3]", "+I[4]", "+I[5]"})
	if err := k.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	produce(6, 10)
	fcMustEqual(t, "after the restart", next(4), []string{"+I[6]", "+I[7]", "+I[8]", "+I[9]"})
	// nothing read twice: the next row is the next record produced
	produce(10, 11)
	fcMustEqual(t, "next", next(1), []string{"+I[10]"})
}

// TestKafkaConnectorErrorsOnRealBroker: a missing topic, a malformed
// message (with its topic, partition and offset) and
// value.json.ignore-parse-errors, on the real broker.
func TestKafkaConnectorErrorsOnRealBroker(t *testing.T) {
	k := kafkaRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	topic := UniqueTopic("kc-bad")
	if err := k.CreateTopic(ctx, topic, 1, nil); err != nil {
		t.Fatal(err)
	}
	if err := k.Produce(ctx, topic, ValueRecords(`{"v":1}`, `{"v":`, `{"v":3}`)...); err != nil {
		t.Fatal(err)
	}
	env, err := table.Create(table.InBatchMode())
	if err != nil {
		t.Fatal(err)
	}
	run := func(sql string) ([]string, error) {
		res, err := env.ExecuteSQL(sql)
		if err != nil {
			return nil, err
		}
		it, err := res.Collect()
		if err != nil {
			return nil, err
		}
		defer it.Close()
		var out []string
		for it.Next() {
			out = append(out, it.Row().String())
		}
		return out, it.Err()
	}
	missing := UniqueTopic("kc-missing")
	for _, ddl := range []string{
		"CREATE TABLE strict (v INT) " + kcWith(k, "kafka", topic, "'format' = 'json'"),
		"CREATE TABLE lenient (v INT) " + kcWith(k, "kafka", topic, "'value.format' = 'json'", "'value.json.ignore-parse-errors' = 'true'"),
		"CREATE TABLE nowhere (v INT) " + kcWith(k, "kafka", missing, "'format' = 'json'"),
	} {
		if _, err := env.ExecuteSQL(ddl); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := run("SELECT * FROM strict"); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("topic '%s' partition 0 offset 1: cannot decode the message value:", topic)) {
		t.Errorf("malformed message: %v", err)
	}
	rows, err := run("SELECT * FROM lenient")
	if err != nil {
		t.Fatal(err)
	}
	fcMustEqual(t, "lenient rows", rows, []string{"+I[1]", "+I[3]"})
	if _, err := run("SELECT * FROM nowhere"); err == nil || !strings.Contains(err.Error(), fmt.Sprintf("topic '%s' does not exist on the Kafka brokers at '%s'", missing, k.Bootstrap)) {
		t.Errorf("missing topic: %v", err)
	}
}
