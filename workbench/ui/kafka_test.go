package ui

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/riffle-sql/riffle/assets"
	"github.com/riffle-sql/riffle/workbench/kafkabrowser"
	"github.com/riffle-sql/riffle/workbench/persistence"
	"github.com/riffle-sql/riffle/workbench/ui/kafkapeek"
	"github.com/riffle-sql/riffle/workbench/ui/topicbrowser"
)

// kafkaFake starts an in-process Kafka broker on 127.0.0.1 with a JSON
// topic "orders" (2 partitions) and a Debezium topic "inventory.products".
func kafkaFake(t *testing.T) string {
	t.Helper()
	c, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(2, "orders"), kfake.SeedTopics(1, "inventory.products"),
		kfake.ListenFn(func(network, _ string) (net.Listener, error) { return net.Listen(network, "127.0.0.1:0") }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	addr := strings.Join(c.ListenAddrs(), ",")
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	var recs []*kgo.Record
	for i := 0; i < 5; i++ {
		recs = append(recs, &kgo.Record{Topic: "orders", Partition: int32(i % 2), Key: []byte(fmt.Sprint("o", i)),
			Value:     []byte(fmt.Sprintf(`{"order_id": %d, "item": "item-%d", "price": %d.5, "ts": "2024-05-01 10:00:0%d.000"}`, i, i, i, i)),
			Timestamp: time.UnixMilli(1_714_557_600_000 + int64(i)*1000), Headers: []kgo.RecordHeader{{Key: "source", Value: []byte("test")}}})
	}
	for i, ev := range []string{
		`{"before": null, "after": {"id": 1, "name": "scooter", "weight": 3.14}, "op": "c", "ts_ms": 1}`,
		`{"before": {"id": 1, "name": "scooter", "weight": 3.14}, "after": {"id": 1, "name": "scooter", "weight": 5.1}, "op": "u", "ts_ms": 2}`,
	} {
		recs = append(recs, &kgo.Record{Topic: "inventory.products", Value: []byte(ev), Timestamp: time.UnixMilli(1_714_557_600_000 + int64(i))})
	}
	if err := cl.ProduceSync(context.Background(), recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
	return addr
}

// addKafka adds a Kafka connection through File ▸ Kafka connections…,
// tests it and saves it.
func (h *harness) addKafka(name, bootstrap string) *kafkaConn {
	h.t.Helper()
	cd := h.wb.openKafkaConnectionsDialog("")
	cd.NameEntry().SetText(name)
	test.Type(cd.BootstrapEntry(), bootstrap)
	test.Tap(cd.TestButton())
	h.until("the connection test", func() bool {
		return strings.HasPrefix(cd.Status(), "Connected") || strings.HasPrefix(cd.Status(), "Failed")
	})
	if !strings.Contains(cd.Status(), ": 1 broker, ") || strings.Contains(cd.Status(), "(s)") {
		h.t.Fatalf("test: %q", cd.Status())
	}
	test.Tap(cd.SaveButton())
	c := h.wb.kafka.byName(name)
	if c == nil {
		h.t.Fatalf("not saved: %s", cd.Status())
	}
	cd.Hide()
	return c
}

// kafkaTree opens the connection node and returns the tree's text once
// the topics are read.
func (h *harness) kafkaTree(name string) string {
	h.t.Helper()
	k := h.wb.kafka.browser
	k.Tree().OpenBranch(topicbrowser.ConnID(name))
	var got string
	h.until("the topics", func() bool {
		got = strings.Join(k.VisibleLabels(), "\n")
		return !strings.Contains(got, "Reading topics")
	})
	return got
}

func TestSentence(t *testing.T) {
	if got := sentence("topic empty has no messages to infer a table from"); got != "Topic empty has no messages to infer a table from." {
		t.Errorf("sentence %q", got)
	}
	if got := sentence("Done."); got != "Done." {
		t.Errorf("sentence %q", got)
	}
}

func TestKafkaBrowsePeekAndCreateTable(t *testing.T) {
	addr := kafkaFake(t)
	h := newHarness(t)
	if got := strings.Join(h.wb.kafka.browser.VisibleLabels(), "\n"); got != "Add a Kafka cluster with +" {
		t.Errorf("empty tree: %q", got)
	}
	c := h.addKafka("local", addr)
	got := h.kafkaTree("local")
	want := "local · " + addr + " · 2 topics\n" +
		"  inventory.products · 2 messages · 1 partition\n" +
		"  orders · 5 messages · 2 partitions"
	if got != want {
		t.Errorf("tree:\n%s\nwant:\n%s", got, want)
	}
	h.wb.kafka.browser.Tree().OpenBranch(topicbrowser.TopicID("local", "orders"))
	h.until("the partitions", func() bool {
		return strings.Contains(strings.Join(h.wb.kafka.browser.VisibleLabels(), "\n"), "partition 1")
	})
	got = strings.Join(h.wb.kafka.browser.VisibleLabels(), "\n")
	for _, w := range []string{"    partition 0 · 3 messages · offsets 0 … 3 · leader 0", "    partition 1 · 2 messages · offsets 0 … 2 · leader 0"} {
		if !strings.Contains(got, w) {
			t.Errorf("tree:\n%s\nwant a line %q", got, w)
		}
	}
	// the narrow tree cuts details: a selected node's whole line is in
	// the status bar
	h.wb.kafka.browser.Tree().Select(topicbrowser.TopicID("local", "orders"))
	if got := h.wb.statusLeft.Text; got != "orders · 5 messages · 2 partitions" {
		t.Errorf("status %q after selecting orders", got)
	}
	// a topic's context menu
	var items []string
	for _, it := range h.wb.kafka.browser.MenuFor(topicbrowser.TopicID("local", "orders")).Items {
		items = append(items, it.Label)
	}
	if got := strings.Join(items, "|"); got != "Peek latest 50|Peek earliest 50||Create table from topic…|Insert topic name into editor" {
		t.Errorf("topic menu %q", got)
	}
	// the workspace keeps the connection
	list, _, err := h.wb.store.KafkaConnections(context.Background())
	if err != nil || len(list) != 1 || list[0].Bootstrap != addr {
		t.Errorf("stored %+v (%v)", list, err)
	}

	// peek: the latest 3 of all partitions, by time
	p := h.wb.openPeek(c, "orders", kafkabrowser.PeekOptions{Latest: true, N: 3, Partition: -1})
	h.until("the peek", func() bool { return !p.Loading() })
	if len(p.Messages()) != 3 {
		t.Fatalf("peek: %d messages; status %q", len(p.Messages()), p.Status())
	}
	if !strings.HasPrefix(p.Status(), "The latest 3 messages, newest first · read at ") {
		t.Errorf("peek status %q", p.Status())
	}
	var cells []string
	for _, m := range p.Messages() {
		cells = append(cells, kafkapeek.Cell(m, 0)+"/"+kafkapeek.Cell(m, 1)+" "+kafkapeek.Cell(m, 3)+" "+kafkapeek.Cell(m, 4)+" "+kafkapeek.Cell(m, 5))
	}
	wantCells := `0/2 o4 {"order_id":4,"item":"item-4","price":4.5,"ts":"2024-05-01 10:00:04.000"} source=test` + "\n" +
		`1/1 o3 {"order_id":3,"item":"item-3","price":3.5,"ts":"2024-05-01 10:00:03.000"} source=test` + "\n" +
		`0/1 o2 {"order_id":2,"item":"item-2","price":2.5,"ts":"2024-05-01 10:00:02.000"} source=test`
	if strings.Join(cells, "\n") != wantCells {
		t.Errorf("peek rows:\n%s\nwant:\n%s", strings.Join(cells, "\n"), wantCells)
	}
	p.SelectRow(0)
	if !strings.Contains(p.Detail(), "Value (json, ") || !strings.Contains(p.Detail(), "\"item\": \"item-4\",") {
		t.Errorf("detail: %q", p.Detail())
	}
	// earliest of partition 1 only
	p = h.wb.openPeek(c, "orders", kafkabrowser.PeekOptions{N: 10, Partition: 1})
	h.until("the peek", func() bool { return !p.Loading() })
	if len(p.Messages()) != 2 || p.Messages()[0].Offset != 0 || p.Messages()[1].Partition != 1 {
		t.Errorf("partition 1: %+v", p.Messages())
	}
	if !strings.HasPrefix(p.Status(), "All 2 messages (asked for the earliest 10) · read at ") {
		t.Errorf("peek status %q", p.Status())
	}
	if len(h.wb.kafka.peeks) != 1 {
		t.Errorf("%d peek tabs, want the one reused", len(h.wb.kafka.peeks))
	}

	// infer and create
	h.wb.createTableFromTopic(c, "orders")
	h.until("the review", func() bool {
		return h.wb.authoring().review != nil && h.wb.authoring().review.Result().Path == "topic orders"
	})
	r := h.wb.authoring().review
	ddl := r.DDL().Text()
	for _, w := range []string{"CREATE TABLE orders (", "order_id BIGINT", "item STRING", "price DOUBLE", "ts TIMESTAMP(3)",
		"'connector' = 'kafka'", "'topic' = 'orders'", "'properties.bootstrap.servers' = '" + addr + "'",
		"'scan.startup.mode' = 'earliest-offset'", "'format' = 'json'", "WATERMARK FOR ts AS"} {
		if !strings.Contains(ddl, w) {
			t.Errorf("DDL lacks %q:\n%s", w, ddl)
		}
	}
	test.Tap(r.CreateButton())
	h.until("the table", func() bool { return r.Created() != "" || r.StatusLabel().Importance == widget.DangerImportance })
	if r.Created() != "orders" {
		t.Fatalf("not created: %s", r.StatusLabel().Text)
	}
	if !strings.Contains(h.messages(), "Table orders created from topic orders.") {
		t.Errorf("messages:\n%s", h.messages())
	}

	// a streaming query over the new table: the Jobs panel lists its
	// partitions with their offsets and log ends
	h.newTab("SET 'execution.runtime-mode' = 'streaming';\nSELECT order_id, item FROM orders")
	h.runAll()
	h.until("the partitions in Jobs", func() bool {
		h.wb.mon.jobs.Update(time.Now())
		rows := h.wb.mon.jobs.splits.rows
		return len(rows) == 2 && rows[0].Offset == 3 && rows[1].Offset == 2
	})
	sv := h.wb.mon.jobs.splits
	var prog []string
	for _, r := range sv.rows {
		prog = append(prog, fmt.Sprintf("%s offset %s end %s lag %s", sv.cell(r, 1), sv.cell(r, 2), sv.cell(r, 3), sv.cell(r, 4)))
	}
	if got, want := strings.Join(prog, "; "), "orders-0 offset 3 end 3 lag 0; orders-1 offset 2 end 2 lag 0"; got != want {
		t.Errorf("partitions %q, want %q", got, want)
	}
	if !sv.box.Visible() || sv.title.Text != "Partitions: 2 read by running jobs · lag 0 records" {
		t.Errorf("partitions title %q (visible %v)", sv.title.Text, sv.box.Visible())
	}

	// a Debezium topic: the row inside 'after', format debezium-json
	h.wb.createTableFromTopic(c, "inventory.products")
	h.until("the review", func() bool { return h.wb.authoring().review != r })
	ddl = h.wb.authoring().review.DDL().Text()
	for _, w := range []string{"CREATE TABLE inventory_products (", "id BIGINT", "name STRING", "weight DOUBLE", "'format' = 'debezium-json'"} {
		if !strings.Contains(ddl, w) {
			t.Errorf("DDL lacks %q:\n%s", w, ddl)
		}
	}
	h.wb.authoring().review.Hide()
	h.wb.closeKafkaTab(p.Item())
	if len(h.wb.kafka.peeks) != 0 {
		t.Error("peek tab not closed")
	}
}

func TestKafkaConnectionErrorsAreClear(t *testing.T) {
	h := newHarness(t)
	cd := h.wb.openKafkaConnectionsDialog("")
	cd.NameEntry().SetText("bad")
	test.Tap(cd.SaveButton())
	if !strings.Contains(cd.Status(), "bootstrap servers") {
		t.Errorf("save without servers: %q", cd.Status())
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cd.BootstrapEntry().SetText(addr)
	test.Tap(cd.TestButton())
	h.until("the test", func() bool { return strings.HasPrefix(cd.Status(), "Failed") })
	if want := "Failed: cannot reach the Kafka cluster at " + addr + ": connection refused"; cd.Status() != want {
		t.Errorf("test: %q, want %q", cd.Status(), want)
	}
	// SASL: the password is kept for the session but stored only when asked
	cd.SecuritySelect().SetSelected(kafkabrowser.SASLPlaintext)
	cd.UserEntry().SetText("alice")
	cd.PasswordEntry().SetText("secret")
	test.Tap(cd.SaveButton())
	list, _, _ := h.wb.store.KafkaConnections(context.Background())
	if len(list) != 1 || list[0].Password != "" || list[0].Username != "alice" {
		t.Errorf("stored %+v: want no password", list)
	}
	if c := h.wb.kafka.byName("bad"); c == nil || c.config().Password != "secret" {
		t.Error("the session lost the password")
	}
	cd.SavePasswordCheck().SetChecked(true)
	test.Tap(cd.SaveButton())
	list, _, _ = h.wb.store.KafkaConnections(context.Background())
	if len(list) != 1 || list[0].Password != "secret" {
		t.Errorf("stored %+v: want the password", list)
	}
	// the tree shows the failure on the connection
	got := h.kafkaTree("bad")
	// a short name, the reason beside it (cut with an ellipsis when long)
	if !strings.Contains(got, "\n  Cannot read topics · cannot reach the Kafka cluster at ") {
		t.Errorf("tree: %q", got)
	}
}

// TestKafkaPasswordStaysOutOfSavedSQL: on a SASL cluster the generated
// CREATE TABLE shows and saves the password masked and runs with it.
func TestKafkaPasswordStaysOutOfSavedSQL(t *testing.T) {
	cl, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-512", "alice", "s3cr3t"), kfake.SeedTopics(1, "events"),
		kfake.ListenFn(func(network, _ string) (net.Listener, error) { return net.Listen(network, "127.0.0.1:0") }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	cfg := kafkabrowser.Config{Name: "secure", Bootstrap: strings.Join(cl.ListenAddrs(), ","), Security: kafkabrowser.SASLPlaintext,
		Mechanism: kafkabrowser.MechScramSHA512, Username: "alice", Password: "s3cr3t"}
	bc, err := kafkabrowser.Dial(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer bc.Close()
	if err := bc.Produce(context.Background(), &kgo.Record{Topic: "events", Value: []byte(`{"id": 1, "kind": "click"}`)}); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	c, err := h.wb.kafka.save("", cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.wb.createTableFromTopic(c, "events")
	h.until("the review", func() bool { r := h.wb.authoring().review; return r != nil && r.Result().Path == "topic events" })
	r := h.wb.authoring().review
	shown := r.DDL().Text()
	if !strings.Contains(shown, `'properties.sasl.jaas.config' = 'org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="********";'`) ||
		!strings.Contains(shown, "'properties.sasl.mechanism' = 'SCRAM-SHA-512'") || !strings.Contains(shown, "'properties.security.protocol' = 'SASL_PLAINTEXT'") ||
		strings.Contains(shown, "s3cr3t") {
		t.Errorf("shown DDL:\n%s", shown)
	}
	r.Apply()
	h.until("the table", func() bool { return r.Created() != "" || r.StatusLabel().Importance == widget.DangerImportance })
	if r.Created() != "events" {
		t.Fatalf("not created: %s", r.StatusLabel().Text)
	}
	if strings.Contains(h.wb.initScript, "s3cr3t") || !strings.Contains(h.wb.initScript, `password="********"`) {
		t.Errorf("init script:\n%s", h.wb.initScript)
	}
	var hist []persistence.HistoryEntry
	h.until("the CREATE in History", func() bool {
		hist, _, _ = h.wb.store.History(context.Background(), 100)
		for _, e := range hist {
			if strings.HasPrefix(e.Statement, "CREATE TABLE events") {
				return true
			}
		}
		return false
	})
	for _, e := range hist {
		if strings.Contains(e.Statement, "s3cr3t") {
			t.Errorf("History keeps the password: %s", e.Statement)
		}
	}
	// the table in the session has the real password: it reads the topic
	rt := h.run("SET 'execution.runtime-mode' = 'streaming';\nSELECT id, kind FROM events")
	if rt == nil {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	h.until("the row", func() bool { return strings.Join(rows(rt.Grid()), "; ") == "1 | click" })
	rt.Stop()
	// the stored connection has no password (not saved)
	list, _, _ := h.wb.store.KafkaConnections(context.Background())
	if len(list) != 1 || list[0].Password != "" {
		t.Errorf("stored %+v", list)
	}
	if sql := demoKafkaSQL(cfg); strings.Contains(sql, "s3cr3t") || !strings.Contains(sql, `password="********"`) {
		t.Errorf("demo SQL:\n%s", sql)
	}
}

func TestKafkaPaneSplitIsSaved(t *testing.T) {
	test.NewTempApp(t)
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path)
	if got := h.wb.kafka.split.Offset; got != 0.8 {
		t.Errorf("split without clusters %v, want 0.8", got)
	}
	if _, err := h.wb.kafka.save("", kafkabrowser.Config{Name: "x", Bootstrap: "127.0.0.1:1"}); err != nil {
		t.Fatal(err)
	}
	if got := h.wb.kafka.split.Offset; got != 0.62 {
		t.Errorf("split with a cluster %v, want 0.62", got)
	}
	h.wb.kafka.split.SetOffset(0.45)
	h.close()
	h = open(t, path)
	defer h.close()
	if got := h.wb.kafka.split.Offset; got != 0.45 {
		t.Errorf("split after reopening %v, want 0.45", got)
	}
	if h.wb.kafka.byName("x") == nil {
		t.Error("the connection was not kept")
	}
}

// TestKafkaCreateUpsertTableFromCompactedTopic: JSON keys and tombstones
// give an upsert-kafka table whose query shows the topic's latest rows.
func TestKafkaCreateUpsertTableFromCompactedTopic(t *testing.T) {
	cl, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(1, "users"),
		kfake.ListenFn(func(network, _ string) (net.Listener, error) { return net.Listen(network, "127.0.0.1:0") }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	cfg := kafkabrowser.Config{Name: "local", Bootstrap: strings.Join(cl.ListenAddrs(), ",")}
	bc, err := kafkabrowser.Dial(cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer bc.Close()
	rec := func(key, value string) *kgo.Record {
		r := &kgo.Record{Topic: "users", Key: []byte(key), Value: []byte(value)}
		if value == "" {
			r.Value = nil
		}
		return r
	}
	if err := bc.Produce(context.Background(),
		rec(`{"user_id": 1}`, `{"user_id": 1, "name": "ada", "visits": 1}`),
		rec(`{"user_id": 2}`, `{"user_id": 2, "name": "bob", "visits": 1}`),
		rec(`{"user_id": 1}`, `{"user_id": 1, "name": "ada", "visits": 2}`),
		rec(`{"user_id": 3}`, `{"user_id": 3, "name": "cy", "visits": 7}`),
		rec(`{"user_id": 2}`, ""),
	); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	c, err := h.wb.kafka.save("", cfg)
	if err != nil {
		t.Fatal(err)
	}
	h.wb.createTableFromTopic(c, "users")
	h.until("the review", func() bool { r := h.wb.authoring().review; return r != nil && r.Result().Path == "topic users" })
	r := h.wb.authoring().review
	ddl := r.DDL().Text()
	for _, w := range []string{"PRIMARY KEY (user_id) NOT ENFORCED", "'connector' = 'upsert-kafka'", "'key.format' = 'json'", "'value.format' = 'json'"} {
		if !strings.Contains(ddl, w) {
			t.Errorf("DDL lacks %q:\n%s", w, ddl)
		}
	}
	if strings.Contains(ddl, "scan.startup.mode") {
		t.Errorf("upsert-kafka has no scan.startup.mode:\n%s", ddl)
	}
	r.Apply()
	h.until("the table", func() bool { return r.Created() != "" || r.StatusLabel().Importance == widget.DangerImportance })
	if r.Created() != "users" {
		t.Fatalf("not created: %s", r.StatusLabel().Text)
	}
	rt := h.run("SET 'execution.runtime-mode' = 'streaming';\nSELECT user_id, name, visits FROM users")
	if rt == nil {
		t.Fatalf("no result; messages:\n%s", h.messages())
	}
	var got []string
	h.until("the latest rows", func() bool {
		got = rows(rt.Grid())
		sort.Strings(got)
		return strings.Join(got, "; ") == "1 | ada | 2; 3 | cy | 7"
	})
	rt.Stop()
}

// After a restart a SASL connection whose password was not saved says so
// in a line that fits the tree, and a double click (or its menu) opens the
// connection to enter it; saved, the topics are read again.
func TestKafkaMissingPasswordNode(t *testing.T) {
	test.NewTempApp(t)
	addr := kafkaFake(t)
	path := filepath.Join(t.TempDir(), "ws.riffle")
	h := open(t, path)
	cfg := kafkabrowser.Config{Name: "sec", Bootstrap: addr, Security: kafkabrowser.SASLPlaintext, Mechanism: kafkabrowser.MechPlain, Username: "alice", Password: "pw"}
	if _, err := h.wb.kafka.save("", cfg); err != nil {
		t.Fatal(err)
	}
	h.close()
	h = open(t, path)
	defer h.close()
	conn := topicbrowser.ConnID("sec")
	h.wb.kafka.browser.Tree().OpenBranch(conn)
	h.until("the error node", func() bool {
		return strings.Contains(strings.Join(h.wb.kafka.browser.VisibleLabels(), "\n"), "  No password: double-click to enter it")
	})
	errNode := topicbrowser.ErrorID("sec")
	var items []string
	for _, it := range h.wb.kafka.browser.MenuFor(errNode).Items {
		items = append(items, it.Label)
	}
	if got := strings.Join(items, "|"); got != "Edit connection…|Retry" {
		t.Errorf("error node menu %q", got)
	}
	h.wb.kafka.browser.DoubleTap(errNode)
	cd := h.wb.kafka.dlg
	if cd == nil || cd.NameEntry().Text != "sec" || cd.UserEntry().Text != "alice" || cd.PasswordEntry().Text != "" {
		t.Fatalf("dialog %+v", cd)
	}
	cd.PasswordEntry().SetText("pw")
	cd.Save()
	// read again with the password (kfake takes no SASL: another error)
	h.until("the connection read again", func() bool {
		got := strings.Join(h.wb.kafka.browser.VisibleLabels(), "\n")
		return !strings.Contains(got, "No password") && !strings.Contains(got, "Reading topics")
	})
}

// A consumer group's lag per partition comes first in its line (the
// narrow tree cut it off after 'committed … · end …').
func TestKafkaGroupLagFirst(t *testing.T) {
	addr := kafkaFake(t)
	cl, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	offs := kadm.Offsets{}
	offs.Add(kadm.Offset{Topic: "orders", Partition: 0, At: 2, LeaderEpoch: -1})
	if _, err := kadm.NewClient(cl).CommitOffsets(context.Background(), "billing", offs); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	h.addKafka("local", addr)
	h.kafkaTree("local")
	topic := topicbrowser.TopicID("local", "orders")
	h.wb.kafka.browser.Tree().OpenBranch(topic)
	h.wb.kafka.browser.Children(topic) // reads the groups of an open topic
	h.until("the groups", func() bool {
		return strings.Contains(strings.Join(h.wb.kafka.browser.VisibleLabels(), "\n"), "Consumer groups")
	})
	h.wb.kafka.browser.Tree().OpenBranch(topicbrowser.GroupsID("local", "orders"))
	h.wb.kafka.browser.Tree().OpenBranch(topicbrowser.GroupID("local", "orders", "billing"))
	got := strings.Join(h.wb.kafka.browser.VisibleLabels(), "\n")
	for _, w := range []string{"  orders · 5 messages · 2 partitions · lag 3", "      billing · Empty · lag 3", "        partition 0 · lag 1 · committed 2 · end 3"} {
		if !strings.Contains(got, w) {
			t.Errorf("tree:\n%s\nwant a line %q", got, w)
		}
	}
}

// Producing the demo flights into a topic that holds messages already
// writes nothing (each flight would be there twice and the demo would
// count every departure twice); the demo query opens on what is there.
func TestKafkaDemoFlightsAreNotProducedTwice(t *testing.T) {
	cl, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.SeedTopics(4, assets.DemoKafkaTopic),
		kfake.ListenFn(func(network, _ string) (net.Listener, error) { return net.Listen(network, "127.0.0.1:0") }))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	addr := strings.Join(cl.ListenAddrs(), ",")
	kc, err := kgo.NewClient(kgo.SeedBrokers(addr))
	if err != nil {
		t.Fatal(err)
	}
	defer kc.Close()
	if err := kc.ProduceSync(context.Background(), &kgo.Record{Topic: assets.DemoKafkaTopic, Value: []byte(`{"origin":"LAX"}`)}).FirstErr(); err != nil {
		t.Fatal(err)
	}
	h := newHarness(t)
	c := h.addKafka("local", addr)
	tabs := len(h.wb.editors.list)
	h.wb.produceDemoFlights(c)
	h.until("the demo tab", func() bool { return len(h.wb.editors.list) == tabs+1 })
	want := assets.DemoKafkaTopic + " on local holds 1 message already: not produced again"
	if !strings.Contains(h.messages(), want) {
		t.Errorf("messages:\n%s\nwant %q", h.messages(), want)
	}
	// the unedited demo tab is reused, not opened again
	again := h.wb.openDemoKafkaTab(c.config())
	if len(h.wb.editors.list) != tabs+1 || again != h.wb.editors.list[len(h.wb.editors.list)-1] {
		t.Errorf("%d tabs after a second open, want %d", len(h.wb.editors.list), tabs+1)
	}
	again.ed.SetText(again.ed.Text() + "\n-- edited")
	if h.wb.openDemoKafkaTab(c.config()) == again || len(h.wb.editors.list) != tabs+2 {
		t.Errorf("an edited demo tab was reused (%d tabs)", len(h.wb.editors.list))
	}
	bc, err := kafkabrowser.Dial(c.config())
	if err != nil {
		t.Fatal(err)
	}
	defer bc.Close()
	topics, err := bc.Topics(context.Background(), false)
	if err != nil || len(topics) != 1 || topics[0].Messages() != 1 {
		t.Errorf("topics %+v (%v): want the one message", topics, err)
	}
}
