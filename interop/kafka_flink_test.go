//go:build interop

package interop

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/gateway"
)

// kafkaFlinkWith returns the WITH clause of a Flink table on topic of the
// broker k: connector kafka, the broker's bootstrap address, read from the
// earliest offsets up to the log end seen at start (a bounded read), with
// more options ("'format' = 'json'", …) after those.
func kafkaFlinkWith(k Kafka, topic string, more ...string) string {
	opts := []string{
		"'connector' = 'kafka'",
		fmt.Sprintf("'topic' = '%s'", topic),
		fmt.Sprintf("'properties.bootstrap.servers' = '%s'", k.Bootstrap),
		"'properties.group.id' = 'riffle-interop'",
		"'scan.startup.mode' = 'earliest-offset'",
		"'scan.bounded.mode' = 'latest-offset'",
	}
	return "WITH (\n  " + strings.Join(append(opts, more...), ",\n  ") + "\n)"
}

// kafkaFlinkJars are the jars of Flink's kafka connector and avro format
// that scripts/flink.sh installs into Flink's lib/ (interop/flink/pom.xml).
var kafkaFlinkJars = []string{"flink-sql-connector-kafka-5.0.0-2.2.jar", "flink-sql-avro-2.3.0.jar"}

// kafkaFlinkSession opens a session on the running Flink (as fcConnectFlink)
// that can use the kafka connector and the avro format: it adds their jars
// to the session (ADD JAR), so that a cluster started before they were
// installed reads Kafka too. On a cluster that has them in lib/ already the
// classes still come from lib/ (org.apache.flink. classes load parent-first).
func kafkaFlinkSession(t testing.TB, ctx context.Context, f Flink, props map[string]string) *gateway.RemoteEngine {
	t.Helper()
	e := fcConnectFlink(t, f, props)
	for _, jar := range kafkaFlinkJars {
		path := filepath.Join(f.Home, "lib", jar)
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("Flink's kafka jars are not installed (scripts/flink.sh install): %v", err)
		}
		fcExec(t, ctx, e, "ADD JAR '"+path+"'")
	}
	return e
}

// TestKafkaFlinkReadsJSON: records produced to the real broker with
// franz-go are read by real Flink through its kafka connector (json format,
// bounded by the log end), in batch mode with the partition and offset
// metadata columns and in streaming mode, with exact rows.
func TestKafkaFlinkReadsJSON(t *testing.T) {
	k := kafkaRequire(t)
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	topic := UniqueTopic("flink-json")
	if err := k.CreateTopic(ctx, topic, 2, nil); err != nil {
		t.Fatal(err)
	}
	recs := ValueRecords(
		`{"id": 1, "name": "ada", "amount": 1.5}`,
		`{"id": 2, "name": "bob", "amount": -2.25}`,
		`{"id": 3, "name": null, "amount": 0}`,
		`{"id": 4, "name": "cy", "extra": true}`,
		`{"id": 5, "name": "dee", "amount": 1e3}`,
	)
	for i, r := range recs {
		r.Partition = int32(i % 2)
	}
	if err := k.Produce(ctx, topic, recs...); err != nil {
		t.Fatal(err)
	}
	ddl := "CREATE TABLE src (\n  id INT,\n  name STRING,\n  amount DOUBLE,\n" +
		"  part INT METADATA FROM 'partition' VIRTUAL,\n  off BIGINT METADATA FROM 'offset' VIRTUAL\n) " +
		kafkaFlinkWith(k, topic, "'format' = 'json'")

	batch := kafkaFlinkSession(t, ctx, f, fcBatchProps())
	fcExec(t, ctx, batch, ddl)
	fcMustEqual(t, "batch read", fcRowsOf(t, ctx, batch, "SELECT id, name, amount, part, off FROM src ORDER BY id"), []string{
		"+I[1, ada, 1.5, 0, 0]",
		"+I[2, bob, -2.25, 1, 0]",
		"+I[3, <NULL>, 0.0, 0, 1]",
		"+I[4, cy, <NULL>, 1, 1]",
		"+I[5, dee, 1000.0, 0, 2]",
	})

	stream := kafkaFlinkSession(t, ctx, f, fcStreamingProps())
	fcExec(t, ctx, stream, ddl)
	got := fcRowsOf(t, ctx, stream, "SELECT id, UPPER(name) FROM src WHERE id <> 2")
	sort.Strings(got)
	fcMustEqual(t, "streaming read", got, []string{"+I[1, ADA]", "+I[3, <NULL>]", "+I[4, CY]", "+I[5, DEE]"})
}

// TestKafkaFlinkWritesJSONAndAvro: real Flink writes a topic through its
// kafka connector (json, then avro), franz-go reads the json messages back
// byte for byte, and Flink reads the avro topic back with the same rows.
func TestKafkaFlinkWritesJSONAndAvro(t *testing.T) {
	k := kafkaRequire(t)
	f := fcRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	jsonTopic, avroTopic := UniqueTopic("flink-out-json"), UniqueTopic("flink-out-avro")
	for _, topic := range []string{jsonTopic, avroTopic} {
		if err := k.CreateTopic(ctx, topic, 1, nil); err != nil {
			t.Fatal(err)
		}
	}
	e := kafkaFlinkSession(t, ctx, f, fcBatchProps())
	cols := "(id INT, name STRING, amount DECIMAL(10, 2), ts TIMESTAMP(3))"
	fcExec(t, ctx, e, "CREATE TABLE out_json "+cols+" "+kafkaFlinkWith(k, jsonTopic, "'format' = 'json'"))
	fcExec(t, ctx, e, "CREATE TABLE out_avro "+cols+" "+kafkaFlinkWith(k, avroTopic, "'format' = 'avro'"))
	values := "VALUES (1, 'ada', CAST(1.50 AS DECIMAL(10, 2)), TIMESTAMP '2024-05-06 07:08:09.123'), " +
		"(2, CAST(NULL AS STRING), CAST(-3 AS DECIMAL(10, 2)), CAST(NULL AS TIMESTAMP(3)))"
	for _, sink := range []string{"out_json", "out_avro"} {
		// table.dml-sync: the statement returns when the job has finished.
		fcRowsOf(t, ctx, e, "INSERT INTO "+sink+" "+values)
	}

	got, err := k.Consume(ctx, jsonTopic, 2)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []string
	for _, r := range got {
		if r.Key != nil {
			t.Errorf("json message %d has key %q, want none", r.Offset, r.Key)
		}
		msgs = append(msgs, string(r.Value))
	}
	// Flink's sink runs at the cluster's parallelism: the two rows may
	// reach the one partition in either order
	sort.Strings(msgs)
	fcMustEqual(t, "Flink's json messages", msgs, []string{
		// Flink 2.3's json format writes a DECIMAL without trailing zeros.
		`{"id":1,"name":"ada","amount":1.5,"ts":"2024-05-06 07:08:09.123"}`,
		`{"id":2,"name":null,"amount":-3,"ts":null}`,
	})

	avro, err := k.Consume(ctx, avroTopic, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(avro) != 2 || len(avro[0].Value) == 0 || avro[0].Value[0] == '{' {
		t.Fatalf("avro topic holds %d messages, first %q; want 2 binary avro records", len(avro), avro[0].Value)
	}
	fcMustEqual(t, "avro read back", fcRowsOf(t, ctx, e, "SELECT * FROM out_avro ORDER BY id"), []string{
		"+I[1, ada, 1.50, 2024-05-06 07:08:09.123]",
		"+I[2, <NULL>, -3.00, <NULL>]",
	})
}
