package kafka

import (
	"context"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/testwait"
	"github.com/riffle-sql/riffle/engine/types"
)

func eosOpts(bs, topic string, extra ...string) map[string]string {
	o := map[string]string{"connector": "kafka", "topic": topic, "properties.bootstrap.servers": bs,
		"value.format": "json", "sink.delivery-guarantee": "exactly-once", "sink.transactional-id-prefix": "riffle-test",
		"properties.transaction.timeout.ms": "60000"}
	for i := 0; i+1 < len(extra); i += 2 {
		o[extra[i]] = extra[i+1]
	}
	return o
}

func checkpointed(interval string) *config.Configuration {
	c := config.New()
	if interval != "" {
		c.Set("execution.checkpointing.interval", interval)
	}
	return c
}

// TestExactlyOnceOptions: the refusals of exactly-once delivery, each with
// its reason.
func TestExactlyOnceOptions(t *testing.T) {
	schema := &types.Schema{Columns: []types.Column{{Name: "k", Type: types.StringType()}}}
	batch := config.New()
	batch.Set("execution.runtime-mode", "batch")
	for _, tc := range []struct {
		name string
		opts map[string]string
		cfg  *config.Configuration
		want string // "" : accepted
	}{
		{"no prefix", map[string]string{"sink.transactional-id-prefix": ""}, checkpointed("1 s"),
			"sink.transactional-id-prefix must be specified when using DeliveryGuarantee.EXACTLY_ONCE."},
		{"streaming without checkpoints", nil, checkpointed(""), "checkpointing is off: set 'execution.checkpointing.interval'"},
		{"timeout not above the interval", map[string]string{"properties.transaction.timeout.ms": "1000"}, checkpointed("1 s"),
			"'properties.transaction.timeout.ms' (1s) must be longer than 'execution.checkpointing.interval' (1s)"},
		{"bad timeout", map[string]string{"properties.transaction.timeout.ms": "soon"}, checkpointed("1 s"),
			"invalid 'properties.transaction.timeout.ms' value 'soon'"},
		{"acks 1", map[string]string{"properties.acks": "1"}, checkpointed("1 s"), "need 'properties.acks' = 'all'"},
		{"default timeout of an hour", map[string]string{"properties.transaction.timeout.ms": ""}, checkpointed("10 min"), ""},
		{"checkpointed", nil, checkpointed("1 s"), ""},
		{"batch commits at the end", nil, batch, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := eosOpts("127.0.0.1:1", "t")
			for k, v := range tc.opts {
				if v == "" {
					delete(o, k)
				} else {
					o[k] = v
				}
			}
			ctx := &connector.Context{Table: "`cat`.`db`.`t`", Schema: schema, Options: o, Config: tc.cfg}
			_, err := (Factory{}).CreateSink(ctx)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

// committedValues reads the topic as a read_committed consumer up to its
// last stable offset and returns the values.
func committedValues(t *testing.T, bs, topic string) []string {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(bs), kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.KeepControlRecords())
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ends, err := kadm.NewClient(cl).ListCommittedOffsets(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	want := map[int32]int64{}
	parts := map[int32]kgo.Offset{}
	ends.Each(func(o kadm.ListedOffset) {
		if o.Offset > 0 {
			want[o.Partition] = o.Offset
			parts[o.Partition] = kgo.NewOffset().AtStart()
		}
	})
	var out []string
	if len(parts) == 0 {
		return out
	}
	cl.AddConsumePartitions(map[string]map[int32]kgo.Offset{topic: parts})
	for len(want) > 0 {
		f := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("read_committed: still waiting for %v after %v", want, out)
		}
		// control records (the commit markers) are kept so that the
		// last offset before the stable one is seen
		f.EachRecord(func(r *kgo.Record) {
			if !r.Attrs.IsControl() {
				out = append(out, string(r.Value))
			}
			if r.Offset+1 >= want[r.Partition] {
				delete(want, r.Partition)
			}
		})
	}
	sort.Strings(out)
	return out
}

func writeValues(t *testing.T, w connector.Writer, vals ...string) {
	t.Helper()
	ts := []*types.DataType{types.StringType()}
	var rows []*types.Row
	for _, v := range vals {
		rows = append(rows, types.NewRow(v))
	}
	if err := w.Write(context.Background(), batchOf(t, ts, rows...)); err != nil {
		t.Fatal(err)
	}
}

// TestExactlyOnceTransactions drives the writer as the runtime does, on an
// in-process broker: rows are visible to a read_committed reader only once
// their checkpoint is committed; a writer that stops (as a killed job)
// leaves its open transaction, which a writer resumed from the checkpoint
// aborts, and the resumed writer commits the checkpoint's transaction
// again without error.
func TestExactlyOnceTransactions(t *testing.T) {
	bs := fakeBroker(t, map[string]int32{"out": 1})
	schema := &types.Schema{Columns: []types.Column{{Name: "v", Type: types.StringType()}}}
	ctx := &connector.Context{Table: "`cat`.`db`.`out`", Schema: schema, Options: eosOpts(bs, "out"), Config: checkpointed("1 s")}
	sink, err := (Factory{}).CreateSink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	spec := connector.WriteSpec{Names: []string{"v"}, Types: []*types.DataType{types.StringType()}}
	bg := context.Background()
	open := func() connector.CommittingWriter {
		w, err := sink.Open(bg, spec, 0)
		if err != nil {
			t.Fatal(err)
		}
		cw, ok := w.(connector.CommittingWriter)
		if !ok {
			t.Fatalf("an exactly-once writer is a %T, not a CommittingWriter", w)
		}
		return cw
	}

	w1 := open()
	writeValues(t, w1, "a", "b")
	c1, err := w1.PrepareCommit(bg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := committedValues(t, bs, "out"); len(got) != 0 {
		t.Fatalf("before checkpoint 1 completes a read_committed reader sees %v", got)
	}
	writeValues(t, w1, "c")
	if err := w1.CommitCheckpoint(bg, 1, c1); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(committedValues(t, bs, "out"), ","); got != `{"v":"a"},{"v":"b"}` {
		t.Fatalf("after checkpoint 1: %s", got)
	}
	// "c" is in checkpoint 2's transaction, prepared; then the job dies
	// before checkpoint 2 completes, and "d" was written after it
	if _, err := w1.PrepareCommit(bg, 2); err != nil {
		t.Fatal(err)
	}
	writeValues(t, w1, "d")
	// the killed process: nothing more from w1 (its clients stay open,
	// as a dead process's transactions stay open on the brokers)

	// resumed from checkpoint 1: its transaction is committed again
	// (idempotent), the transactions w1 left open are aborted
	w2 := open()
	if err := w2.CommitCheckpoint(bg, 1, c1); err != nil {
		t.Fatalf("committing checkpoint 1 again after the restore: %v", err)
	}
	writeValues(t, w2, "c2", "d2")
	c2, err := w2.PrepareCommit(bg, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := w2.CommitCheckpoint(bg, 2, c2); err != nil {
		t.Fatal(err)
	}
	if err := w2.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(committedValues(t, bs, "out"), ","); got != `{"v":"a"},{"v":"b"},{"v":"c2"},{"v":"d2"}` {
		t.Fatalf("after the resumed run: %s", got)
	}
	w1.Abort()
}

// TestExactlyOnceAbort: a writer aborted (a cancelled or failed job)
// aborts its open transaction at once, so that read_committed readers are
// not held back until the transaction times out, and publishes nothing
// after its last committed checkpoint.
func TestExactlyOnceAbort(t *testing.T) {
	bs := fakeBroker(t, map[string]int32{"out": 1})
	schema := &types.Schema{Columns: []types.Column{{Name: "v", Type: types.StringType()}}}
	ctx := &connector.Context{Table: "`cat`.`db`.`out`", Schema: schema, Options: eosOpts(bs, "out"), Config: checkpointed("1 s")}
	sink, err := (Factory{}).CreateSink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	bg := context.Background()
	w, err := sink.Open(bg, connector.WriteSpec{Names: []string{"v"}, Types: []*types.DataType{types.StringType()}}, 0)
	if err != nil {
		t.Fatal(err)
	}
	cw := w.(connector.CommittingWriter)
	writeValues(t, w, "a")
	c1, err := cw.PrepareCommit(bg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := cw.CommitCheckpoint(bg, 1, c1); err != nil {
		t.Fatal(err)
	}
	writeValues(t, w, "b", "c")
	cl, err := kgo.NewClient(kgo.SeedBrokers(bs))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	// b and c are in the log (a, its commit marker, b, c), uncommitted
	testwait.Until(t, 10*time.Second, "b and c written", func() bool {
		end, err := adm.ListEndOffsets(bg, "out")
		o, _ := end.Lookup("out", 0)
		return err == nil && o.Offset >= 4
	})
	w.Abort()
	stable, err := adm.ListCommittedOffsets(bg, "out")
	if err != nil {
		t.Fatal(err)
	}
	end, err := adm.ListEndOffsets(bg, "out")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := stable.Lookup("out", 0)
	e, _ := end.Lookup("out", 0)
	if s.Offset != e.Offset {
		t.Fatalf("after Abort the last stable offset is %d, the log end %d: a transaction is still open", s.Offset, e.Offset)
	}
	if got := strings.Join(committedValues(t, bs, "out"), ","); got != `{"v":"a"}` {
		t.Fatalf("read_committed after the abort: %s", got)
	}
}

// TestExactlyOnceUpsertBuffer: an exactly-once upsert-kafka writer writes
// its sink.buffer-flush buffer into the checkpoint's transaction when the
// barrier arrives, so the rows before the checkpoint are committed with it.
func TestExactlyOnceUpsertBuffer(t *testing.T) {
	bs := fakeBroker(t, map[string]int32{"u": 1})
	ctx := ctxFor(kvSchema(), upsertOpts(bs, "u", "sink.buffer-flush.max-rows", "100", "sink.buffer-flush.interval", "1 h",
		"sink.delivery-guarantee", "exactly-once", "sink.transactional-id-prefix", "upsert-test",
		"properties.transaction.timeout.ms", "60000"))
	ctx.Config = checkpointed("1 s")
	sk, err := UpsertFactory{}.CreateSink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	ts := ctx.Schema.ColumnTypes()
	w := openKVWriter(t, sk, ts)
	cw := w.(connector.CommittingWriter)
	bg := context.Background()
	if err := w.Write(bg, batchOf(t, ts,
		types.NewRowWithKind(types.Insert, "a", int64(1)),
		types.NewRowWithKind(types.UpdateAfter, "a", int64(2)))); err != nil {
		t.Fatal(err)
	}
	c1, err := cw.PrepareCommit(bg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := cw.CommitCheckpoint(bg, 1, c1); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(committedValues(t, bs, "u"), ","); got != `{"k":"a","n":2}` {
		t.Fatalf("read_committed after checkpoint 1: %s", got)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
}
