package kafkabrowser

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/riffle-sql/riffle/engine/connector/infer"
)

// fake starts an in-process broker on 127.0.0.1 (a free port).
func fake(t *testing.T, opts ...kfake.Opt) (*kfake.Cluster, Config) {
	t.Helper()
	c, err := kfake.NewCluster(append([]kfake.Opt{kfake.NumBrokers(1), kfake.ListenFn(func(network, _ string) (net.Listener, error) {
		return net.Listen(network, "127.0.0.1:0")
	})}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c, Config{Name: "fake", Bootstrap: strings.Join(c.ListenAddrs(), ",")}
}

func client(t *testing.T, cfg Config) *Client {
	t.Helper()
	c, err := Dial(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func produce(t *testing.T, c *Client, topic string, p int32, values ...string) {
	t.Helper()
	var recs []*kgo.Record
	for i, v := range values {
		r := &kgo.Record{Topic: topic, Partition: p, Value: []byte(v), Key: []byte(fmt.Sprint("k", i)),
			Timestamp: time.UnixMilli(int64(1_700_000_000_000 + i*1000 + int(p)))}
		if v == "<tombstone>" {
			r.Value = nil
		}
		recs = append(recs, r)
	}
	if err := c.Produce(context.Background(), recs...); err != nil {
		t.Fatal(err)
	}
}

// manualClient produces to chosen partitions.
func manualClient(t *testing.T, cfg Config) *Client {
	t.Helper()
	opts, err := cfg.clientOpts()
	if err != nil {
		t.Fatal(err)
	}
	opts = append(opts, kgo.RecordPartitioner(kgo.ManualPartitioner()))
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	c := &Client{cfg: cfg, cl: cl, dial: &dialErrors{}}
	c.adm = newAdm(cl)
	t.Cleanup(cl.Close)
	return c
}

func TestTopicsPartitionsOffsetsAndMessageCounts(t *testing.T) {
	_, cfg := fake(t, kfake.SeedTopics(3, "orders"), kfake.SeedTopics(1, "events"))
	c := manualClient(t, cfg)
	produce(t, c, "orders", 0, `{"a":1}`, `{"a":2}`)
	produce(t, c, "orders", 2, `{"a":3}`, `{"a":4}`, `{"a":5}`)
	topics, err := c.Topics(context.Background(), false)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tp := range topics {
		s := fmt.Sprintf("%s %d partitions %d messages:", tp.Name, len(tp.Partitions), tp.Messages())
		for _, p := range tp.Partitions {
			s += fmt.Sprintf(" p%d[%d,%d)", p.ID, p.Start, p.End)
		}
		got = append(got, s)
	}
	want := []string{"events 1 partitions 0 messages: p0[0,0)", "orders 3 partitions 5 messages: p0[0,2) p1[0,0) p2[0,3)"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("topics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	info, err := Test(context.Background(), cfg, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if info.Brokers != 1 || info.Topics != 2 {
		t.Errorf("test: %+v, want 1 broker, 2 topics", info)
	}
}

func TestPeekEarliestLatestAndOnePartition(t *testing.T) {
	_, cfg := fake(t, kfake.SeedTopics(2, "t"))
	c := manualClient(t, cfg)
	produce(t, c, "t", 0, "a0", "a1", "a2", "a3")
	produce(t, c, "t", 1, "b0", "b1", "<tombstone>")
	vals := func(ms []Message) string {
		var s []string
		for _, m := range ms {
			s = append(s, fmt.Sprintf("%d/%d=%s", m.Partition, m.Offset, Short(m.Value, 20)))
		}
		return strings.Join(s, " ")
	}
	ctx := context.Background()
	r, err := c.Peek(ctx, "t", PeekOptions{N: 2, Partition: -1, PerPartition: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := vals(r.Messages), "0/0=a0 1/0=b0 0/1=a1 1/1=b1"; got != want || r.Partial {
		t.Errorf("earliest 2 per partition: %s (partial %v), want %s", got, r.Partial, want)
	}
	r, err = c.Peek(ctx, "t", PeekOptions{N: 3, Latest: true, Partition: -1})
	if err != nil {
		t.Fatal(err)
	}
	// latest 3 of all by timestamp: a2 (t0+2000), a3 (+3000), b2 (+2001)
	if got, want := vals(r.Messages), "0/3=a3 1/2=(null) 0/2=a2"; got != want {
		t.Errorf("latest 3: %s, want %s", got, want)
	}
	r, err = c.Peek(ctx, "t", PeekOptions{N: 10, Partition: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := vals(r.Messages), "1/0=b0 1/1=b1 1/2=(null)"; got != want {
		t.Errorf("partition 1: %s, want %s", got, want)
	}
	if string(r.Messages[0].Key) != "k0" {
		t.Errorf("key %q", r.Messages[0].Key)
	}
	if _, err := c.Peek(ctx, "t", PeekOptions{N: 1, Partition: 7}); err == nil || !strings.Contains(err.Error(), "no partition 7") {
		t.Errorf("partition 7: %v", err)
	}
	if _, err := c.Peek(ctx, "missing", PeekOptions{N: 1, Partition: -1}); err == nil || !strings.Contains(err.Error(), "no such topic") {
		t.Errorf("missing topic: %v", err)
	}
}

func TestConsumerGroupLag(t *testing.T) {
	_, cfg := fake(t, kfake.SeedTopics(2, "t"))
	c := manualClient(t, cfg)
	produce(t, c, "t", 0, "a", "b", "c", "d")
	produce(t, c, "t", 1, "e", "f")
	// a group that read 1 record of partition 0 and committed
	opts, _ := cfg.clientOpts()
	g, err := kgo.NewClient(append(opts, kgo.ConsumerGroup("g1"), kgo.ConsumeTopics("t"), kgo.DisableAutoCommit(),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))...)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var first *kgo.Record
	for first == nil {
		fs := g.PollRecords(ctx, 1)
		if ctx.Err() != nil {
			t.Fatal("no record polled")
		}
		fs.EachRecord(func(r *kgo.Record) {
			if first == nil {
				first = r
			}
		})
	}
	if err := g.CommitRecords(ctx, first); err != nil {
		t.Fatal(err)
	}
	lags, err := c.Lags(ctx, "t")
	if err != nil {
		t.Fatal(err)
	}
	if len(lags) != 1 || lags[0].Group != "g1" {
		t.Fatalf("lags %+v", lags)
	}
	var p []string
	for _, pl := range lags[0].Partitions {
		p = append(p, fmt.Sprintf("p%d committed %d end %d lag %d", pl.Partition, pl.Committed, pl.End, pl.Lag))
	}
	want := fmt.Sprintf("p%d committed 1 end %d lag %d", first.Partition, map[int32]int64{0: 4, 1: 2}[first.Partition], map[int32]int64{0: 3, 1: 1}[first.Partition])
	if !strings.Contains(strings.Join(p, "; "), want) {
		t.Errorf("partitions %q, want %q among them", p, want)
	}
}

func TestUnreachableBrokerFailsInBoundedTimeWithTheReason(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close() // nothing listens there now
	_, err = Test(context.Background(), Config{Name: "x", Bootstrap: addr}, 2*time.Second)
	if err == nil || !strings.Contains(err.Error(), "cannot reach the Kafka cluster at "+addr) || !strings.Contains(err.Error(), "refused") {
		t.Errorf("error %v, want cannot reach … refused", err)
	}
	// a host name that does not resolve is said plainly (the resolver's
	// "lookup h on 10.255.255.53:53: no such host" named the DNS server)
	dns := &net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "nosuchhost.invalid", Server: "10.255.255.53:53", IsNotFound: true}}
	if got, want := dialText(dns), "no host named nosuchhost.invalid (the name does not resolve: check its spelling)"; got != want {
		t.Errorf("dialText %q, want %q", got, want)
	}
	for _, bad := range []Config{{Name: "x"}, {Name: "x", Bootstrap: "kafka://h:1"}, {Name: "x", Bootstrap: "h"},
		{Name: "x", Bootstrap: "h:1", Security: SASLPlaintext, Mechanism: MechPlain}, {Name: "x", Bootstrap: "h:1", Security: "TLS"},
		{Name: "x", Bootstrap: "h:1", Security: SSL, CAFile: "/nonexistent.pem"}} {
		if err := bad.Validate(); err == nil {
			t.Errorf("%+v: valid", bad)
		}
	}
}

func TestSASLCredentials(t *testing.T) {
	_, cfg := fake(t, kfake.EnableSASL(), kfake.Superuser("SCRAM-SHA-256", "admin", "s3cret"), kfake.SeedTopics(1, "t"))
	cfg.Security, cfg.Mechanism, cfg.Username, cfg.Password = SASLPlaintext, MechScramSHA256, "admin", "s3cret"
	if _, err := Test(context.Background(), cfg, 5*time.Second); err != nil {
		t.Fatalf("good password: %v", err)
	}
	cfg.Password = "wrong"
	_, err := Test(context.Background(), cfg, 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), "authentication: check the user name, password") {
		t.Errorf("wrong password: %v", err)
	}
	// the DDL's options carry a masked password; Unmask puts it back
	opts := cfg.TableOptions(true)
	jaas := opts[len(opts)-1][1]
	if want := `org.apache.kafka.common.security.scram.ScramLoginModule required username="admin" password="********";`; jaas != want {
		t.Errorf("jaas %q", jaas)
	}
	if got := cfg.Unmask(jaas); !strings.Contains(got, `password="wrong"`) {
		t.Errorf("unmasked %q", got)
	}
}

func TestInferJSONAndCDCEnvelopes(t *testing.T) {
	cfg := Config{Name: "c", Bootstrap: "127.0.0.1:9092"}
	msg := func(vs ...string) []Message {
		var out []Message
		for i, v := range vs {
			m := Message{Offset: int64(i), Value: []byte(v)}
			if v == "" {
				m.Value = nil
			}
			out = append(out, m)
		}
		return out
	}
	cols := func(p *Proposal) string {
		var s []string
		for _, c := range p.Columns {
			s = append(s, c.Name+" "+c.Type.String())
		}
		return strings.Join(s, ", ")
	}
	cases := []struct {
		name, format, cols string
		msgs               []Message
		opt                string
	}{
		{"json", "json", "id BIGINT, item STRING, price DOUBLE",
			msg(`{"id":1,"item":"tea","price":2.5}`, `{"id":2,"item":"cake","price":4}`, ""), ""},
		{"debezium", "debezium-json", "id BIGINT, name STRING",
			msg(`{"before":null,"after":{"id":1,"name":"a"},"op":"c","source":{"db":"x"},"ts_ms":1}`,
				`{"before":{"id":1,"name":"a"},"after":{"id":1,"name":"b"},"op":"u","ts_ms":2}`,
				`{"before":{"id":1,"name":"b"},"after":null,"op":"d","ts_ms":3}`), ""},
		{"debezium with schema", "debezium-json", "id BIGINT, name STRING",
			msg(`{"schema":{"type":"struct"},"payload":{"before":null,"after":{"id":1,"name":"a"},"op":"c"}}`), "debezium-json.schema-include"},
		{"canal", "canal-json", "id BIGINT, v STRING",
			msg(`{"data":[{"id":1,"v":"x"},{"id":2,"v":"y"}],"database":"d","table":"t","type":"INSERT","es":1,"ts":1}`), ""},
		{"maxwell", "maxwell-json", "id BIGINT, v STRING",
			msg(`{"database":"d","table":"t","type":"insert","ts":1,"data":{"id":1,"v":"x"}}`), ""},
		{"text", "raw", "value STRING", msg("hello", "world"), ""},
		{"binary", "raw", "value BYTES", msg("\x01\x02\xff"), ""},
	}
	for _, c := range cases {
		p, err := Infer(cfg, "shop.orders-1", c.msgs)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if p.Format != c.format || p.Result.Format != c.format || cols(p) != c.cols {
			t.Errorf("%s: format %s columns %q, want %s %q", c.name, p.Format, cols(p), c.format, c.cols)
		}
		if v, _ := p.Option("format"); v != c.format {
			t.Errorf("%s: option format %q", c.name, v)
		}
		if c.opt != "" {
			if v, _ := p.Option(c.opt); v != "true" {
				t.Errorf("%s: %s %q", c.name, c.opt, v)
			}
		}
		if v, _ := p.Option("connector"); v != "kafka" {
			t.Errorf("%s: connector %q", c.name, v)
		}
	}
	p, err := Infer(cfg, "shop.orders-1", cases[0].msgs)
	if err != nil {
		t.Fatal(err)
	}
	want := "CREATE TABLE shop_orders_1 (\n  id BIGINT,\n  item STRING,\n  price DOUBLE\n)\nWITH (\n  'connector' = 'kafka',\n  'topic' = 'shop.orders-1',\n" +
		"  'properties.bootstrap.servers' = '127.0.0.1:9092',\n  'scan.startup.mode' = 'earliest-offset',\n  'format' = 'json'\n)"
	if got := p.CreateTable("", false); got != want {
		t.Errorf("DDL:\n%s\nwant:\n%s", got, want)
	}
	if p.Tombstones != 1 {
		t.Errorf("tombstones %d", p.Tombstones)
	}
	if _, err := Infer(cfg, "a", msg("\x00\x00\x00\x00\x07\x02ab")); !errors.Is(err, infer.ErrUnsupported) || !strings.Contains(err.Error(), "schema id 7") {
		t.Errorf("confluent avro: %v", err)
	}
	if _, err := Infer(cfg, "a", nil); !errors.Is(err, infer.ErrUnsupported) {
		t.Errorf("empty: %v", err)
	}
}

func TestRender(t *testing.T) {
	if enc, s := Render([]byte(`{"a":1,"b":[1,2]}`)); enc != EncJSON || s != "{\n  \"a\": 1,\n  \"b\": [\n    1,\n    2\n  ]\n}" {
		t.Errorf("json: %s %q", enc, s)
	}
	if enc, s := Render([]byte("plain")); enc != EncText || s != "plain" {
		t.Errorf("text: %s %q", enc, s)
	}
	if enc, s := Render([]byte{0, 1, 0xfe}); enc != EncBinary || !strings.Contains(s, "00 01 fe") || !strings.HasSuffix(s, "base64: AAH+") {
		t.Errorf("binary: %s %q", enc, s)
	}
	if s := Short([]byte{0xde, 0xad, 0xbe, 0xef}, 4); s != "0xdead…" {
		t.Errorf("short binary %q", s)
	}
}

func TestProduceCSVAsJSON(t *testing.T) {
	_, cfg := fake(t)
	c := client(t, cfg)
	in := strings.NewReader("date,delay,origin\n2001-01-01 00:05:00,-3,ORD\n2001-01-01 00:07:00,12,LAX\n")
	var seen []int
	n, err := c.ProduceCSV(context.Background(), "flights", 2, in, "origin", func(k int) { seen = append(seen, k) })
	if err != nil || n != 2 || fmt.Sprint(seen) != "[2]" {
		t.Fatalf("produced %d %v: %v", n, seen, err)
	}
	r, err := c.Peek(context.Background(), "flights", PeekOptions{N: 10, Partition: -1})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, m := range r.Messages {
		got[string(m.Key)] = string(m.Value)
	}
	want := map[string]string{"ORD": `{"date":"2001-01-01 00:05:00","delay":-3,"origin":"ORD"}`, "LAX": `{"date":"2001-01-01 00:07:00","delay":12,"origin":"LAX"}`}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("messages %v, want %v", got, want)
	}
	if _, err := c.ProduceCSV(context.Background(), "flights", 2, strings.NewReader("a,b\n1,2\n"), "nope", nil); err == nil || !strings.Contains(err.Error(), `no column "nope"`) {
		t.Errorf("missing key column: %v", err)
	}
}

func TestInferJudgesTimestampsInWrittenOrder(t *testing.T) {
	var msgs []Message
	base := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	for i := 9; i >= 0; i-- { // newest first, as Peek gives the latest
		ts := base.Add(time.Duration(i) * time.Minute)
		msgs = append(msgs, Message{Partition: int32(i % 2), Offset: int64(i / 2), Timestamp: ts,
			Value: []byte(fmt.Sprintf(`{"id":%d,"at":"%s"}`, i, ts.Format("2006-01-02 15:04:05.000")))})
	}
	p, err := Infer(Config{Name: "c", Bootstrap: "h:1"}, "t", msgs)
	if err != nil {
		t.Fatal(err)
	}
	if p.Rowtime == nil || p.Rowtime.Column != "at" || p.Rowtime.Order != "ascending" {
		t.Errorf("rowtime %+v, want at, ascending", p.Rowtime)
	}
}

// The watermark is kept per partition, so the rowtime's order is judged
// within each partition: two partitions written at the same instant, each
// ascending, interleave by up to 37 s across partitions (the session's
// compacted topic was proposed a 39 s delay); only disorder inside a
// partition counts.
func TestInferJudgesTimestampsPerPartition(t *testing.T) {
	written := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC) // one produce call: equal record timestamps
	msgs := func(late int) []Message {
		var out []Message
		for i := 0; i < 40; i++ {
			at := 10 + i // seconds
			if late > 0 && i == 30 {
				at = 10 + i - late // 30th of the sample, late within partition 0
			}
			// even ids in partition 0, odd in 1: in the written order
			// (equal timestamps, then partition) partition 1's first
			// (second 11) follows partition 0's last (second 48)
			out = append(out, Message{Partition: int32(i % 2), Offset: int64(i / 2), Timestamp: written,
				Value: []byte(fmt.Sprintf(`{"id":%d,"updated":"2026-12-01T10:00:%02dZ"}`, i, at))})
		}
		return out
	}
	p, err := Infer(Config{Name: "c", Bootstrap: "h:1"}, "t", msgs(0))
	if err != nil {
		t.Fatal(err)
	}
	if rt := p.Rowtime; rt == nil || rt.Column != "updated" || rt.Order != "ascending" || rt.Delay != "1" || rt.Unit != "SECOND" {
		t.Errorf("rowtime %+v, want updated, ascending, 1 SECOND", p.Rowtime)
	}
	notes := strings.Join(p.Notes, "\n")
	if !strings.Contains(notes, "updated is ascending within each partition of the sample") || strings.Contains(notes, "out of order") {
		t.Errorf("notes:\n%s", notes)
	}
	if !strings.Contains(p.CreateTable("t", true), "WATERMARK FOR updated AS updated - INTERVAL '1' SECOND") {
		t.Errorf("DDL:\n%s", p.CreateTable("t", true))
	}

	// message 30 (second 28) after message 28 (second 38) in partition 0:
	// 10 s late there, a 10 s delay
	p, err = Infer(Config{Name: "c", Bootstrap: "h:1"}, "t", msgs(12))
	if err != nil {
		t.Fatal(err)
	}
	if rt := p.Rowtime; rt == nil || rt.Order != "out of order" || rt.Delay != "10" || rt.Unit != "SECOND" || rt.MaxLateness != 10_000 {
		t.Errorf("rowtime %+v, want out of order by 10 SECOND", p.Rowtime)
	}
	if notes := strings.Join(p.Notes, "\n"); !strings.Contains(notes, "updated is out of order by up to 10 second(s) within a partition of the sample") {
		t.Errorf("notes:\n%s", notes)
	}
}

// With no timestamp in the values (a Debezium topic, raw text), the Kafka
// record timestamp is offered as the event time, a metadata column, its
// order judged per partition (the session's Debezium and text topics had
// no event time at all).
func TestInferOffersTheRecordTimestamp(t *testing.T) {
	cfg := Config{Name: "c", Bootstrap: "h:1"}
	at := time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	var dbz, text []Message
	for i := 0; i < 6; i++ {
		ts := at.Add(time.Duration(i) * time.Second)
		dbz = append(dbz, Message{Partition: int32(i % 2), Offset: int64(i / 2), Timestamp: ts,
			Value: []byte(fmt.Sprintf(`{"before":null,"after":{"id":%d,"name":"n%d"},"op":"c","ts_ms":%d}`, i, i, i))})
		text = append(text, Message{Offset: int64(i), Timestamp: ts, Value: []byte(fmt.Sprintf("line %d", i))})
	}
	text[3].Timestamp = at.Add(-4 * time.Second) // 6 s behind offset 2's

	p, err := Infer(cfg, "inventory.products", dbz)
	if err != nil {
		t.Fatal(err)
	}
	ddl := p.CreateTable("", true)
	for _, w := range []string{"event_time TIMESTAMP_LTZ(3) METADATA FROM 'timestamp'", "WATERMARK FOR event_time AS event_time - INTERVAL '1' SECOND", "'format' = 'debezium-json'"} {
		if !strings.Contains(ddl, w) {
			t.Errorf("debezium DDL lacks %q:\n%s", w, ddl)
		}
	}
	if rt := p.Rowtime; rt == nil || rt.Column != "event_time" || rt.Order != "ascending" || rt.Expr != "" {
		t.Errorf("rowtime %+v", p.Rowtime)
	}
	if c := p.Columns[len(p.Columns)-1]; c.Example != "2026-12-01 10:00:00.000Z" {
		t.Errorf("example %q", c.Example)
	}

	p, err = Infer(cfg, "logs", text)
	if err != nil {
		t.Fatal(err)
	}
	if rt := p.Rowtime; rt == nil || rt.Order != "out of order" || rt.Delay != "6" || rt.Unit != "SECOND" || rt.MaxLateness != 6000 {
		t.Errorf("rowtime %+v, want out of order by 6 SECOND", p.Rowtime)
	}
	ddl = p.CreateTable("", true)
	if want := "CREATE TABLE logs (\n  `value` STRING,\n  event_time TIMESTAMP_LTZ(3) METADATA FROM 'timestamp',\n  WATERMARK FOR event_time AS event_time - INTERVAL '6' SECOND\n)"; !strings.HasPrefix(ddl, want) {
		t.Errorf("raw DDL:\n%s\nwant it to start\n%s", ddl, want)
	}
	if !strings.Contains(strings.Join(p.Notes, "\n"), "the Kafka record timestamp is offered as the event time") {
		t.Errorf("notes %q", p.Notes)
	}

	// a value field named event_time: the metadata column takes another name
	p, err = Infer(cfg, "t", []Message{{Timestamp: at, Value: []byte(`{"event_time":"x"}`)}})
	if err != nil || p.Rowtime == nil || p.Rowtime.Column != "event_time_2" {
		t.Errorf("rowtime %+v (%v)", p.Rowtime, err)
	}
	// values with their own timestamps keep them as the rowtime
	p, err = Infer(cfg, "t", []Message{{Timestamp: at, Value: []byte(`{"at":"2026-12-01 10:00:00.000"}`)}})
	if err != nil || p.Rowtime == nil || p.Rowtime.Column != "at" || len(p.Columns) != 1 {
		t.Errorf("rowtime %+v, %d columns (%v)", p.Rowtime, len(p.Columns), err)
	}
}

func TestNotAKafkaBrokerFailsClearly(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			buf := make([]byte, 512)
			c.Read(buf)
			c.Write([]byte("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"))
			c.Close()
		}
	}()
	_, err = Test(context.Background(), Config{Name: "x", Bootstrap: l.Addr().String()}, 3*time.Second)
	if err == nil || !strings.Contains(err.Error(), l.Addr().String()+" answered, but not as a Kafka broker") || !strings.Contains(err.Error(), "HTTP") {
		t.Errorf("error %v", err)
	}
}

func TestSilentPortTimesOut(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan net.Conn, 64)
	defer func() {
		l.Close()
		for {
			select {
			case c := <-accepted:
				c.Close()
			default:
				return
			}
		}
	}()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			select {
			case accepted <- c: // accepted, never answered
			default:
				c.Close()
			}
		}
	}()
	_, err = Test(context.Background(), Config{Name: "x", Bootstrap: l.Addr().String()}, time.Second)
	if err == nil || !strings.Contains(err.Error(), "no answer from the Kafka cluster at "+l.Addr().String()+" in time") {
		t.Errorf("error %v", err)
	}
}

func TestInferUpsertTableFromCompactedTopic(t *testing.T) {
	cfg := Config{Name: "c", Bootstrap: "h:1"}
	msg := func(key, value string) Message {
		m := Message{Key: []byte(key), Value: []byte(value)}
		if value == "" {
			m.Value = nil
		}
		return m
	}
	// values repeat the key's field: value.fields-include ALL
	p, err := Infer(cfg, "users", []Message{
		msg(`{"user_id": 1}`, `{"user_id": 1, "name": "ada"}`),
		msg(`{"user_id": 2}`, `{"user_id": 2, "name": "bob"}`),
		msg(`{"user_id": 1}`, ""),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "CREATE TABLE users (\n  user_id BIGINT,\n  name STRING,\n  PRIMARY KEY (user_id) NOT ENFORCED\n)\nWITH (\n  'connector' = 'upsert-kafka',\n  'topic' = 'users',\n" +
		"  'properties.bootstrap.servers' = 'h:1',\n  'key.format' = 'json',\n  'value.format' = 'json'\n)"
	if got := p.CreateTable("", false); got != want || p.Connector != "upsert-kafka" {
		t.Errorf("DDL (%s):\n%s\nwant:\n%s", p.Connector, got, want)
	}
	// values without the key's fields: EXCEPT_KEY, key columns first
	p, err = Infer(cfg, "users", []Message{
		msg(`{"tenant": "a", "id": 1}`, `{"name": "ada"}`),
		msg(`{"tenant": "a", "id": 1}`, ""),
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := p.CreateTable("", false); !strings.Contains(got, "tenant STRING,\n  id BIGINT,\n  name STRING,\n  PRIMARY KEY (tenant, id) NOT ENFORCED") ||
		!strings.Contains(got, "'value.fields-include' = 'EXCEPT_KEY'") {
		t.Errorf("DDL:\n%s", got)
	}
	// keys that are not JSON objects, or no tombstone: a kafka table
	for _, ms := range [][]Message{
		{msg(`k1`, `{"a": 1}`), msg(`k1`, "")},
		{msg(`{"a": 1}`, `{"a": 1, "b": 2}`)},
		{msg(`{"a": 1, "c": 3}`, `{"a": 1, "b": 2}`), msg(`{"a": 1, "c": 3}`, "")}, // the value holds only some key fields
	} {
		p, err := Infer(cfg, "t", ms)
		if err != nil {
			t.Fatal(err)
		}
		if p.Connector != "kafka" || len(p.PrimaryKey) != 0 {
			t.Errorf("%v: connector %s, key %v", ms, p.Connector, p.PrimaryKey)
		}
	}
}
