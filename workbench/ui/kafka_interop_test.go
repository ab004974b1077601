//go:build interop

package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/riffle-sql/riffle/interop"
	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
	"github.com/riffle-sql/riffle/workbench/ui/kafkapeek"
	"github.com/riffle-sql/riffle/workbench/ui/topicbrowser"
)

// TestKafkaWorkbenchRealBroker drives the workbench against a real Apache
// Kafka broker (scripts/kafka.sh) as a user does: a Kafka connection
// tested and saved, the topic tree with partitions and message counts,
// a peek at the latest messages, a table inferred from a JSON topic and
// one from a Debezium topic, created in one step and queried (the Debezium
// table's changelog applied), and the Jobs panel's partitions of the
// running query.
//
//	KAFKA_RUN_DIR=$(mktemp -d) scripts/kafka.sh start
//	go test -tags interop,migrated_fynedo -run TestKafkaWorkbench ./ui/
func TestKafkaWorkbenchRealBroker(t *testing.T) {
	k, err := interop.KafkaFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	orders, products := interop.UniqueTopic("wb-orders"), interop.UniqueTopic("wb-products")
	if err := k.CreateTopic(ctx, orders, 2, nil); err != nil {
		t.Fatal(err)
	}
	if err := k.CreateTopic(ctx, products, 1, nil); err != nil {
		t.Fatal(err)
	}
	base := time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)
	var recs []*kgo.Record
	for i := 0; i < 6; i++ {
		ts := base.Add(time.Duration(i) * time.Minute)
		recs = append(recs, &kgo.Record{Partition: int32(i % 2), Key: []byte(fmt.Sprint(i)), Timestamp: ts,
			Value: []byte(fmt.Sprintf(`{"order_id": %d, "item": "item-%d", "amount": %d.25, "order_time": "%s"}`, i, i, i, ts.Format("2006-01-02 15:04:05.000")))})
	}
	if err := k.Produce(ctx, orders, recs...); err != nil {
		t.Fatal(err)
	}
	if err := k.Produce(ctx, products, interop.ValueRecords(
		`{"before": null, "after": {"id": 1, "name": "scooter", "weight": 3.14}, "op": "c", "ts_ms": 1}`,
		`{"before": null, "after": {"id": 2, "name": "hammer", "weight": 0.5}, "op": "c", "ts_ms": 2}`,
		`{"before": {"id": 1, "name": "scooter", "weight": 3.14}, "after": {"id": 1, "name": "scooter", "weight": 5.18}, "op": "u", "ts_ms": 3}`,
		`{"before": {"id": 2, "name": "hammer", "weight": 0.5}, "after": null, "op": "d", "ts_ms": 4}`,
	)...); err != nil {
		t.Fatal(err)
	}

	// a consumer group that committed the first two records of partition 0
	group := interop.UniqueTopic("wb-group")
	gc, err := k.Client(kgo.ConsumerGroup(group), kgo.ConsumeTopics(orders), kgo.DisableAutoCommit(),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	var first []*kgo.Record
	for len(first) < 2 && ctx.Err() == nil {
		gc.PollFetches(ctx).EachRecord(func(r *kgo.Record) {
			if r.Partition == 0 && len(first) < 2 {
				first = append(first, r)
			}
		})
	}
	if err := gc.CommitRecords(ctx, first...); err != nil {
		t.Fatal(err)
	}
	gc.Close()

	h := newHarness(t)
	c := h.addKafka("real", k.Bootstrap)
	tree := h.kafkaTree("real")
	for _, want := range []string{"  " + orders + " · 6 messages · 2 partitions", "  " + products + " · 4 messages · 1 partition"} {
		if !strings.Contains(tree, want+"\n") && !strings.HasSuffix(tree, want) {
			t.Errorf("tree lacks %q:\n%s", want, tree)
		}
	}
	h.wb.kafka.browser.Tree().OpenBranch(topicbrowser.TopicID("real", orders))
	h.until("the partitions", func() bool {
		return strings.Contains(strings.Join(h.wb.kafka.browser.VisibleLabels(), "\n"), "partition 1 · 3 messages · offsets 0 … 3")
	})
	// the group's lag: partition 0 committed 2 of 3, partition 1 nothing
	h.until("the consumer group", func() bool {
		return strings.Contains(strings.Join(h.wb.kafka.browser.VisibleLabels(), "\n"), "Consumer groups")
	})
	h.wb.kafka.browser.Tree().OpenBranch(topicbrowser.GroupsID("real", orders))
	h.wb.kafka.browser.Tree().OpenBranch(topicbrowser.GroupID("real", orders, group))
	tree = strings.Join(h.wb.kafka.browser.VisibleLabels(), "\n")
	for _, want := range []string{"      " + group + " · Empty · lag ", "        partition 0 · lag 1 · committed 2 · end 3"} {
		if !strings.Contains(tree, want) {
			t.Errorf("tree lacks %q:\n%s", want, tree)
		}
	}
	// internal topics are hidden unless asked for
	if strings.Contains(tree, "__consumer_offsets") {
		t.Errorf("internal topic shown:\n%s", tree)
	}
	h.wb.kafka.browser.InternalCheck().SetChecked(true)
	h.until("the internal topics", func() bool {
		return strings.Contains(strings.Join(h.wb.kafka.browser.VisibleLabels(), "\n"), "  __consumer_offsets · ")
	})
	h.wb.kafka.browser.InternalCheck().SetChecked(false)

	// peek: the latest 4, newest first
	p := h.wb.openPeek(c, orders, kafkabrowser.PeekOptions{Latest: true, N: 4, Partition: -1})
	h.until("the peek", func() bool { return !p.Loading() })
	var got []string
	for _, m := range p.Messages() {
		got = append(got, kafkapeek.Cell(m, 0)+"/"+kafkapeek.Cell(m, 1)+" key "+kafkapeek.Cell(m, 3))
	}
	if strings.Join(got, ", ") != "1/2 key 5, 0/2 key 4, 1/1 key 3, 0/1 key 2" {
		t.Errorf("peek %q; status %q", got, p.Status())
	}

	// infer, create, query
	h.wb.createTableFromTopic(c, orders)
	h.until("the review", func() bool { r := h.wb.authoring().review; return r != nil && r.Result().Path == "topic "+orders })
	r := h.wb.authoring().review
	ddl := r.DDL().Text()
	for _, w := range []string{"order_id BIGINT", "item STRING", "amount DOUBLE", "order_time TIMESTAMP(3)", "'connector' = 'kafka'",
		"'properties.bootstrap.servers' = '" + k.Bootstrap + "'", "'format' = 'json'"} {
		if !strings.Contains(ddl, w) {
			t.Errorf("DDL lacks %q:\n%s", w, ddl)
		}
	}
	r.NameEntry().SetText("wb_orders")
	r.Apply()
	h.until("the table", func() bool { return r.Created() != "" || strings.HasPrefix(r.StatusLabel().Text, "CREATE") })
	if r.Created() != "wb_orders" {
		t.Fatalf("not created: %s", r.StatusLabel().Text)
	}
	rt := h.run("SET 'execution.runtime-mode' = 'streaming';\nSELECT order_id, item, amount FROM wb_orders")
	if rt == nil {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	h.until("six orders", func() bool { return len(rows(rt.Grid())) == 6 })
	got = rows(rt.Grid())
	sort.Strings(got)
	if want := "0 | item-0 | 0.25; 1 | item-1 | 1.25; 2 | item-2 | 2.25; 3 | item-3 | 3.25; 4 | item-4 | 4.25; 5 | item-5 | 5.25"; strings.Join(got, "; ") != want {
		t.Errorf("rows %q, want %q", strings.Join(got, "; "), want)
	}
	h.until("the partitions in Jobs", func() bool {
		h.wb.mon.jobs.Update(time.Now())
		rows := h.wb.mon.jobs.splits.rows
		return len(rows) == 2 && rows[0].Offset == 3 && rows[1].Offset == 3 && rows[0].LogEnd == 3
	})
	rt.Stop()

	// a Debezium topic: format debezium-json, and its changelog applied
	h.wb.createTableFromTopic(c, products)
	h.until("the review", func() bool { r := h.wb.authoring().review; return r != nil && r.Result().Path == "topic "+products })
	r = h.wb.authoring().review
	if ddl := r.DDL().Text(); !strings.Contains(ddl, "'format' = 'debezium-json'") || !strings.Contains(ddl, "weight DOUBLE") {
		t.Errorf("DDL:\n%s", ddl)
	}
	r.NameEntry().SetText("wb_products")
	r.Apply()
	h.until("the table", func() bool { return r.Created() != "" || strings.HasPrefix(r.StatusLabel().Text, "CREATE") })
	if r.Created() != "wb_products" {
		t.Fatalf("not created: %s", r.StatusLabel().Text)
	}
	h.newTab("")
	rt = h.run("SET 'execution.runtime-mode' = 'streaming';\nSELECT id, name, weight FROM wb_products")
	if rt == nil {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	h.until("the changelog applied", func() bool { return strings.Join(rows(rt.Grid()), "; ") == "1 | scooter | 5.18" })
	rt.Stop()
}

// TestKafkaGeneratedTableOnFlink: the CREATE TABLE the workbench generates
// for a topic (json, and debezium-json) is Flink's: run on real Flink 2.3
// through a SQL Gateway connection of the workbench (with Flink's kafka
// connector jar and 'scan.bounded.mode' added so the read ends), it reads
// the same rows Riffle reads.
//
//	go test -tags interop,migrated_fynedo -run TestKafkaGeneratedTableOnFlink ./ui/
func TestKafkaGeneratedTableOnFlink(t *testing.T) {
	k, err := interop.KafkaFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	f, err := interop.FlinkFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	jars, _ := filepath.Glob(filepath.Join(f.Home, "lib", "flink-sql-connector-kafka-*.jar"))
	if len(jars) == 0 {
		t.Fatalf("Flink's kafka connector is not in %s/lib (scripts/flink.sh install)", f.Home)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	orders, products, users := interop.UniqueTopic("wbf-orders"), interop.UniqueTopic("wbf-products"), interop.UniqueTopic("wbf-users")
	for _, tp := range []string{orders, products, users} {
		if err := k.CreateTopic(ctx, tp, 2, nil); err != nil {
			t.Fatal(err)
		}
	}
	var recs []*kgo.Record
	for i := 0; i < 4; i++ {
		recs = append(recs, &kgo.Record{Partition: int32(i % 2),
			Value: []byte(fmt.Sprintf(`{"order_id": %d, "item": "item-%d", "tags": ["a", "b%d"], "customer": {"id": %d}}`, i, i, i, 10+i))})
	}
	if err := k.Produce(ctx, orders, recs...); err != nil {
		t.Fatal(err)
	}
	if err := k.Produce(ctx, products, interop.ValueRecords(
		`{"before": null, "after": {"id": 1, "name": "scooter", "weight": 3.14}, "op": "c", "ts_ms": 1}`,
		`{"before": {"id": 1, "name": "scooter", "weight": 3.14}, "after": {"id": 1, "name": "scooter", "weight": 5.18}, "op": "u", "ts_ms": 2}`,
	)...); err != nil {
		t.Fatal(err)
	}

	keyed := func(key, value string) *kgo.Record {
		r := &kgo.Record{Key: []byte(key), Value: []byte(value)}
		if value == "" {
			r.Value = nil
		}
		return r
	}
	if err := k.Produce(ctx, users,
		keyed(`{"user_id": 1}`, `{"user_id": 1, "name": "ada", "visits": 1}`),
		keyed(`{"user_id": 2}`, `{"user_id": 2, "name": "bob", "visits": 1}`),
		keyed(`{"user_id": 1}`, `{"user_id": 1, "name": "ada", "visits": 2}`),
		keyed(`{"user_id": 2}`, ""),
	); err != nil {
		t.Fatal(err)
	}

	h := newHarness(t)
	c := h.addKafka("real", k.Bootstrap)
	generated := func(topic, name string) string {
		h.wb.createTableFromTopic(c, topic)
		h.until("the review", func() bool { r := h.wb.authoring().review; return r != nil && r.Result().Path == "topic "+topic })
		r := h.wb.authoring().review
		r.NameEntry().SetText(name)
		ddl := r.DDL().Text()
		r.Hide()
		ddl = strings.Replace(ddl, "CREATE TABLE", "CREATE TEMPORARY TABLE", 1)
		if strings.Contains(ddl, "'upsert-kafka'") {
			return strings.Replace(ddl, "'key.format' = 'json',", "'key.format' = 'json',\n  'scan.bounded.mode' = 'latest-offset',", 1)
		}
		return strings.Replace(ddl, "'scan.startup.mode' = 'earliest-offset',", "'scan.startup.mode' = 'earliest-offset',\n  'scan.bounded.mode' = 'latest-offset',", 1)
	}
	ordersDDL := generated(orders, "f_orders")
	if !strings.Contains(ordersDDL, "tags ARRAY<STRING>") || !strings.Contains(ordersDDL, "customer ROW<`id` BIGINT>") {
		t.Errorf("DDL:\n%s", ordersDDL)
	}
	productsDDL := generated(products, "f_products")
	usersDDL := generated(users, "f_users")
	if !strings.Contains(usersDDL, "PRIMARY KEY (user_id) NOT ENFORCED") || !strings.Contains(usersDDL, "'connector' = 'upsert-kafka'") {
		t.Errorf("DDL:\n%s", usersDDL)
	}
	// no value holds a timestamp: the record timestamp is the event time
	// (a metadata column with a watermark), on json, debezium-json and
	// upsert-kafka tables alike
	for _, ddl := range []string{ordersDDL, productsDDL, usersDDL} {
		if !strings.Contains(ddl, "event_time TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'") || !strings.Contains(ddl, "WATERMARK FOR event_time AS event_time - INTERVAL") {
			t.Errorf("DDL without the record timestamp's event time:\n%s", ddl)
		}
	}

	h.newTab("")
	h.addConnection("flink", f.Gateway, "", "")
	prelude := ""
	for _, j := range jars {
		prelude += "ADD JAR '" + j + "';\n"
	}
	rt := h.run("SET 'execution.runtime-mode' = 'batch';\n" + prelude + ordersDDL + ";\n" +
		"SELECT order_id, item, tags[2] AS t2, customer.id AS cid FROM f_orders ORDER BY order_id")
	if rt == nil {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	h.waitDone(rt)
	if got, want := strings.Join(rows(rt.Grid()), "; "), "0 | item-0 | b0 | 10; 1 | item-1 | b1 | 11; 2 | item-2 | b2 | 12; 3 | item-3 | b3 | 13"; got != want {
		t.Errorf("Flink read %q, want %q; messages:\n%s", got, want, h.messages())
	}
	rt = h.run("SET 'execution.runtime-mode' = 'streaming';\n" + prelude + productsDDL + ";\n" +
		"SELECT id, name, weight, CAST(event_time AS STRING) > '2020' AS recent FROM f_products")
	if rt == nil {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	h.waitDone(rt)
	if got := strings.Join(rows(rt.Grid()), "; "); got != "1 | scooter | 5.18 | TRUE" {
		t.Errorf("Flink read %q from the Debezium topic, want the updated row; messages:\n%s", got, h.messages())
	}
	rt = h.run("SET 'execution.runtime-mode' = 'streaming';\n" + prelude + usersDDL + ";\n" +
		"SELECT user_id, name, visits FROM f_users")
	if rt == nil {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	h.waitDone(rt)
	if got := strings.Join(rows(rt.Grid()), "; "); got != "1 | ada | 2" {
		t.Errorf("Flink read %q from the compacted topic, want user 1's latest row; messages:\n%s", got, h.messages())
	}
}
