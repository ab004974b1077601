package kafka

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/riffle-sql/riffle/engine/connector"
	_ "github.com/riffle-sql/riffle/engine/connector/format/json"
	_ "github.com/riffle-sql/riffle/engine/connector/format/raw"
	"github.com/riffle-sql/riffle/engine/types"
)

func fakeBroker(t *testing.T, topics map[string]int32, opts ...kfake.Opt) string {
	t.Helper()
	all := []kfake.Opt{kfake.NumBrokers(1), kfake.ListenFn(func(network, _ string) (net.Listener, error) {
		return net.Listen(network, "127.0.0.1:0")
	})}
	for name, n := range topics {
		all = append(all, kfake.SeedTopics(n, name))
	}
	c, err := kfake.NewCluster(append(all, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return strings.Join(c.ListenAddrs(), ",")
}

func kvSchema() *types.Schema {
	return &types.Schema{
		Columns:    []types.Column{{Name: "k", Type: types.StringType().NotNull()}, {Name: "n", Type: types.BigIntType()}},
		PrimaryKey: &types.UniqueConstraint{Name: "PK_k", Columns: []string{"k"}},
	}
}

func ctxFor(schema *types.Schema, opts map[string]string) *connector.Context {
	return &connector.Context{Table: "`cat`.`db`.`t`", Schema: schema, Options: opts}
}

func upsertOpts(bs, topic string, extra ...string) map[string]string {
	o := map[string]string{"connector": "upsert-kafka", "topic": topic, "properties.bootstrap.servers": bs,
		"key.format": "json", "value.format": "json"}
	for i := 0; i+1 < len(extra); i += 2 {
		o[extra[i]] = extra[i+1]
	}
	return o
}

func batchOf(t *testing.T, ts []*types.DataType, rows ...*types.Row) *types.Batch {
	t.Helper()
	bb := types.NewBatchBuilder(ts)
	for _, r := range rows {
		if err := bb.AppendRow(r); err != nil {
			t.Fatal(err)
		}
	}
	return bb.Build()
}

func readAll(t *testing.T, bs, topic string, n int) []string {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(bs), kgo.ConsumeTopics(topic), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out []string
	for len(out) < n {
		f := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("read %d of %d records: %v", len(out), n, out)
		}
		f.EachRecord(func(r *kgo.Record) {
			v := "null"
			if r.Value != nil {
				v = string(r.Value)
			}
			out = append(out, string(r.Key)+" -> "+v)
		})
	}
	return out
}

func TestUpsertSinkTombstones(t *testing.T) {
	bs := fakeBroker(t, map[string]int32{"u": 1})
	ctx := ctxFor(kvSchema(), upsertOpts(bs, "u"))
	sk, err := UpsertFactory{}.CreateSink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := sk.ChangelogMode(types.InsertOnlyMode).String(); got != "I,UA,D" {
		t.Errorf("sink mode %s", got)
	}
	ts := ctx.Schema.ColumnTypes()
	w := openKVWriter(t, sk, ts)
	b := batchOf(t, ts,
		types.NewRowWithKind(types.Insert, "a", int64(1)),
		types.NewRowWithKind(types.UpdateBefore, "a", int64(1)),
		types.NewRowWithKind(types.UpdateAfter, "a", int64(2)),
		types.NewRowWithKind(types.Delete, "a", int64(2)),
	)
	if err := w.Write(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	got := readAll(t, bs, "u", 3)
	want := []string{`{"k":"a"} -> {"k":"a","n":1}`, `{"k":"a"} -> {"k":"a","n":2}`, `{"k":"a"} -> null`}
	wantRecords(t, got, want)
}

func TestUpsertSinkBufferFlushReducesPerKey(t *testing.T) {
	bs := fakeBroker(t, map[string]int32{"u": 1})
	ctx := ctxFor(kvSchema(), upsertOpts(bs, "u", "sink.buffer-flush.max-rows", "100", "sink.buffer-flush.interval", "1 h"))
	sk, err := UpsertFactory{}.CreateSink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ts := ctx.Schema.ColumnTypes()
	w := openKVWriter(t, sk, ts)
	b := batchOf(t, ts,
		types.NewRowWithKind(types.Insert, "a", int64(1)),
		types.NewRowWithKind(types.Insert, "b", int64(1)),
		types.NewRowWithKind(types.UpdateAfter, "a", int64(2)),
		types.NewRowWithKind(types.Delete, "b", int64(1)),
		types.NewRowWithKind(types.UpdateAfter, "a", int64(3)),
	)
	if err := w.Write(context.Background(), b); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	got := readAll(t, bs, "u", 2)
	want := []string{`{"k":"a"} -> {"k":"a","n":3}`, `{"k":"b"} -> null`}
	wantRecords(t, got, want)
}

func TestUpsertSinkBufferFlushByRows(t *testing.T) {
	bs := fakeBroker(t, map[string]int32{"u": 1})
	ctx := ctxFor(kvSchema(), upsertOpts(bs, "u", "sink.buffer-flush.max-rows", "2", "sink.buffer-flush.interval", "1 h"))
	sk, err := UpsertFactory{}.CreateSink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ts := ctx.Schema.ColumnTypes()
	w := openKVWriter(t, sk, ts)
	defer w.Abort()
	// two keys fill the buffer: flushed without a commit
	if err := w.Write(context.Background(), batchOf(t, ts,
		types.NewRowWithKind(types.Insert, "a", int64(1)),
		types.NewRowWithKind(types.UpdateAfter, "a", int64(2)),
		types.NewRowWithKind(types.Insert, "b", int64(7)))); err != nil {
		t.Fatal(err)
	}
	got := readAll(t, bs, "u", 2)
	want := []string{`{"k":"a"} -> {"k":"a","n":2}`, `{"k":"b"} -> {"k":"b","n":7}`}
	wantRecords(t, got, want)
}

func TestUpsertSourceKinds(t *testing.T) {
	bs := fakeBroker(t, map[string]int32{"u": 1})
	cl, err := kgo.NewClient(kgo.SeedBrokers(bs), kgo.DefaultProduceTopic("u"))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*kgo.Record{
		{Key: []byte(`{"k":"a"}`), Value: []byte(`{"k":"a","n":1}`)},
		{Key: []byte(`{"k":"a"}`), Value: []byte(`{"k":"a","n":2}`)},
		{Key: []byte(`{"k":"a"}`)},
	} {
		if err := cl.ProduceSync(context.Background(), r).FirstErr(); err != nil {
			t.Fatal(err)
		}
	}
	cl.Close()
	ctx := ctxFor(kvSchema(), upsertOpts(bs, "u", "scan.bounded.mode", "latest-offset"))
	src, err := UpsertFactory{}.CreateSource(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if got := src.ChangelogMode().String(); got != "UA,D" {
		t.Errorf("source mode %s, want Flink's [UA,D]", got)
	}
	splits, err := src.Splits(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r, err := src.(connector.MultiSplitSource).OpenInstance(context.Background(), splits, 0, 1, connector.ReadSpec{Columns: []int{0, 1}, Metadata: []string{"offset"}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var got []string
	for {
		b, err := r.Next(context.Background())
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if s := r.(connector.MultiSplitReader).BatchSplit(); s != "u-0" {
			t.Errorf("split %q", s)
		}
		for _, row := range b.Rows([]*types.DataType{types.StringType(), types.BigIntType(), types.BigIntType()}) {
			got = append(got, row.String())
		}
	}
	// as Flink's DynamicKafkaDeserializationSchema: values keep the value
	// format's kind (+I), a tombstone is -D with the key and NULL values
	want := "+I[a, 1, 0] +I[a, 2, 1] -D[a, null, 2]"
	if strings.Join(got, " ") != want {
		t.Errorf("rows %s, want %s", strings.Join(got, " "), want)
	}
	p := r.(connector.ProgressReporter).Progress()
	if len(p) != 1 || p[0].Split != "u-0" || p[0].Offset != 3 || p[0].LogEnd != 3 {
		t.Errorf("progress %+v", p)
	}
}

func TestExactlyOnceNeedsCheckpoints(t *testing.T) {
	ctx := ctxFor(kvSchema(), map[string]string{"connector": "kafka", "topic": "x", "properties.bootstrap.servers": "127.0.0.1:1",
		"format": "json", "sink.delivery-guarantee": "exactly-once", "sink.transactional-id-prefix": "riffle"})
	ctx.Config = checkpointed("")
	_, err := Factory{}.CreateSink(ctx)
	if err == nil || !strings.Contains(err.Error(), "but checkpointing is off: set 'execution.checkpointing.interval'") {
		t.Fatalf("error %v", err)
	}
	delete(ctx.Options, "sink.transactional-id-prefix")
	_, err = Factory{}.CreateSink(ctx)
	if err == nil || !strings.Contains(err.Error(), "sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE.") {
		t.Fatalf("error %v", err)
	}
}

func TestJavaStringHashAndOwner(t *testing.T) {
	// "orders".hashCode() in Java is -1008770331
	if h := javaStringHash("orders"); h != -1008770331 {
		t.Errorf("hash %d", h)
	}
	// every instance owns a partition when par <= partitions
	seen := map[int]bool{}
	for p := int32(0); p < 3; p++ {
		seen[owner("orders", p, 3)] = true
	}
	if len(seen) != 3 {
		t.Errorf("owners %v", seen)
	}
}

var _ = errors.New
var _ = fmt.Sprint

// TestSplitsErrorIsReturnedOnce: the planner lists the splits and the job
// lists them again; a look-up that failed (a port that accepts and never
// answers) is returned by the next call without a new connection, so the
// query waits the API timeout once, not twice; the call after that asks
// again.
func TestSplitsErrorIsReturnedOnce(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	accepted := make(chan net.Conn, 100)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			accepted <- c // held open, never answered
		}
	}()
	t.Cleanup(func() {
		l.Close()
		close(accepted)
		for c := range accepted {
			c.Close()
		}
	})
	opts := map[string]string{"connector": "kafka", "topic": "t", "properties.bootstrap.servers": l.Addr().String(),
		"format": "json", "properties.default.api.timeout.ms": "300"}
	src, err := Factory{}.CreateSource(ctxFor(&types.Schema{Columns: []types.Column{{Name: "v", Type: types.IntType()}}}, opts))
	if err != nil {
		t.Fatal(err)
	}
	// a hang guard: the look-up gives up when the API timeout ends
	first := make(chan error, 1)
	go func() {
		_, err := src.Splits(context.Background())
		first <- err
	}()
	var err1 error
	select {
	case err1 = <-first:
	case <-time.After(8 * time.Second):
		t.Fatal("a look-up bounded by 300 ms still waits after 8 s")
	}
	if err1 == nil || !strings.Contains(err1.Error(), "no answer from the Kafka brokers at '"+l.Addr().String()+"' within 300ms") {
		t.Fatalf("first look-up: %v", err1)
	}
	n := len(accepted)
	if n == 0 {
		t.Fatal("the first look-up did not connect")
	}
	if _, err2 := src.Splits(context.Background()); err2 != err1 {
		t.Fatalf("second look-up: %v, want the first one's error", err2)
	}
	if len(accepted) != n {
		t.Fatalf("the second look-up connected again (%d connections, %d before)", len(accepted), n)
	}
	if _, err3 := src.Splits(context.Background()); err3 == nil || err3 == err1 {
		t.Fatalf("third look-up: %v, want a new error", err3)
	}
	if len(accepted) == n {
		t.Fatal("the third look-up did not connect")
	}
}

// openKVWriter opens writer 0 of sk for the columns k, n of kvSchema.
func openKVWriter(t *testing.T, sk connector.Sink, ts []*types.DataType) connector.Writer {
	t.Helper()
	w, err := sk.Open(context.Background(), connector.WriteSpec{Names: []string{"k", "n"}, Types: ts}, 0)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// wantRecords compares records read back ("key -> value" lines) in order.
func wantRecords(t *testing.T, got, want []string) {
	t.Helper()
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("records:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
