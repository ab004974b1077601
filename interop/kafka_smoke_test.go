//go:build interop

package interop

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestKafkaBrokerSmoke checks the ground the Kafka tests stand on: the real
// broker creates a topic with three partitions, takes keyed records with
// headers on chosen partitions, and gives them back with their keys,
// values, headers and offsets; a topic nobody created is an error (automatic
// creation is off).
func TestKafkaBrokerSmoke(t *testing.T) {
	k := kafkaRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()

	topic := UniqueTopic("smoke")
	if err := k.CreateTopic(ctx, topic, 3, map[string]string{"retention.ms": "3600000"}); err != nil {
		t.Fatal(err)
	}
	var recs []*kgo.Record
	for i := 0; i < 30; i++ {
		recs = append(recs, &kgo.Record{
			Partition: int32(i % 3),
			Key:       []byte(fmt.Sprintf("k%d", i)),
			Value:     []byte(fmt.Sprintf(`{"id":%d}`, i)),
			Headers:   []kgo.RecordHeader{{Key: "n", Value: []byte(fmt.Sprint(i))}},
		})
	}
	if err := k.Produce(ctx, topic, recs...); err != nil {
		t.Fatal(err)
	}
	got, err := k.Consume(ctx, topic, len(recs))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(recs) {
		t.Fatalf("consumed %d records, want %d", len(got), len(recs))
	}
	next := map[int32]int64{}
	seen := map[string]bool{}
	for _, r := range got {
		var i int
		if _, err := fmt.Sscanf(string(r.Key), "k%d", &i); err != nil {
			t.Fatalf("key %q: %v", r.Key, err)
		}
		if r.Topic != topic || r.Partition != int32(i%3) {
			t.Fatalf("record %d in %s[%d], want %s[%d]", i, r.Topic, r.Partition, topic, i%3)
		}
		if want := fmt.Sprintf(`{"id":%d}`, i); string(r.Value) != want {
			t.Fatalf("record %d value %q, want %q", i, r.Value, want)
		}
		if len(r.Headers) != 1 || r.Headers[0].Key != "n" || string(r.Headers[0].Value) != fmt.Sprint(i) {
			t.Fatalf("record %d headers %v", i, r.Headers)
		}
		// Offsets within a partition count from 0 in produce order.
		if r.Offset != next[r.Partition] || r.Offset != int64(i/3) {
			t.Fatalf("record %d at offset %d of partition %d, want %d", i, r.Offset, r.Partition, i/3)
		}
		next[r.Partition]++
		seen[string(r.Key)] = true
	}
	if len(seen) != len(recs) {
		t.Fatalf("%d distinct keys, want %d", len(seen), len(recs))
	}

	// The broker's own view: three partitions, ten records each.
	c, err := k.Client()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	adm := kadm.NewClient(c)
	ends, err := adm.ListEndOffsets(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	for p := int32(0); p < 3; p++ {
		o, ok := ends.Lookup(topic, p)
		if !ok || o.Err != nil || o.Offset != 10 {
			t.Fatalf("end offset of partition %d = %+v, want 10", p, o)
		}
	}

	// No automatic topic creation: producing to a missing topic fails.
	missing := UniqueTopic("missing")
	pctx, pcancel := context.WithTimeout(ctx, 5*time.Second)
	defer pcancel()
	err = k.Produce(pctx, missing, ValueRecords("x")...)
	if err == nil {
		t.Fatalf("producing to missing topic %s succeeded; automatic topic creation should be off", missing)
	}
	md, merr := adm.Metadata(ctx, missing)
	if merr != nil {
		t.Fatal(merr)
	}
	if td := md.Topics[missing]; td.Err != kerr.UnknownTopicOrPartition {
		t.Fatalf("metadata of %s: err %v, want UNKNOWN_TOPIC_OR_PARTITION (produce said %v)", missing, td.Err, err)
	}
}

// TestKafkaBrokerRestart checks the fault tests' tool: scripts/kafka.sh
// restart (Kafka.Restart) brings the broker back on the same address with
// the same topics and offsets, and clients that stay open across it
// reconnect by themselves: a producer's records written before and after,
// and a consumer's, arrive once each and in order.
func TestKafkaBrokerRestart(t *testing.T) {
	k := kafkaRequire(t)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	topic := UniqueTopic("restart")
	if err := k.CreateTopic(ctx, topic, 1, nil); err != nil {
		t.Fatal(err)
	}
	prod, err := k.Client(kgo.DefaultProduceTopic(topic))
	if err != nil {
		t.Fatal(err)
	}
	defer prod.Close()
	cons, err := k.Client(kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cons.Close()
	var got []string
	consume := func(n int) {
		t.Helper()
		for len(got) < n {
			fs := cons.PollFetches(ctx)
			if ctx.Err() != nil {
				t.Fatalf("consumed %v, want %d records: %v", got, n, ctx.Err())
			}
			// Errors while the broker is away are retried by the client.
			fs.EachRecord(func(r *kgo.Record) { got = append(got, fmt.Sprintf("%d:%s", r.Offset, r.Value)) })
		}
	}
	produce := func(from, to int) {
		t.Helper()
		var recs []*kgo.Record
		for i := from; i < to; i++ {
			recs = append(recs, &kgo.Record{Value: []byte(fmt.Sprint(i))})
		}
		if err := prod.ProduceSync(ctx, recs...).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	produce(0, 3)
	consume(3)
	before := k.Bootstrap
	if err := k.Restart(ctx); err != nil {
		t.Fatal(err)
	}
	after, err := KafkaFromEnvFile(k.RunDir)
	if err != nil {
		t.Fatal(err)
	}
	if after.Bootstrap != before {
		t.Fatalf("after restart the broker is at %s, want %s", after.Bootstrap, before)
	}
	produce(3, 6)
	consume(6)
	want := []string{"0:0", "1:1", "2:2", "3:3", "4:4", "5:5"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("consumed %v, want %v", got, want)
	}
}
