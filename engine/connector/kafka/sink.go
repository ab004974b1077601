package kafka

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// writableMetadata are the metadata keys a Kafka sink writes (Flink's
// KafkaDynamicSink.WritableMetadata).
func writableMetadata() map[string]*types.DataType {
	return map[string]*types.DataType{
		MetaTopic:     types.StringType().NotNull(),
		MetaHeaders:   types.MapType(types.StringType(), types.BytesType()),
		MetaTimestamp: types.TimestampLTZType(3),
	}
}

// Sink writes a kafka or upsert-kafka table.
type Sink struct {
	t        *tableOptions
	keyFmt   connector.MessageFormatFactory
	valFmt   connector.MessageFormatFactory
	accepted types.ChangelogMode
	// schema columns written (persisted), by WriteSpec position
	cols []sinkColumn
	// txnTimeout is the transaction timeout of exactly-once delivery
	// (sink_transaction.go)
	txnTimeout time.Duration
}

type sinkColumn struct {
	phys int    // physical index, -1 for metadata
	meta string // metadata key
}

func newSink(ctx *connector.Context, t *tableOptions) (*Sink, error) {
	if t.pattern != nil {
		return nil, t.errorf("option 'topic-pattern' cannot be used by a sink; name the topic in 'topic' (or write a 'topic' metadata column)")
	}
	s := &Sink{t: t, accepted: types.InsertOnlyMode}
	var err error
	if t.delivery == "exactly-once" {
		if s.txnTimeout, err = checkExactlyOnce(ctx, t); err != nil {
			return nil, err
		}
	}
	if s.valFmt, err = connector.LookupMessageFormat(OptValueFormat, t.valueFormat); err != nil {
		return nil, t.errorf("%v", err)
	}
	if t.keyFormat != "" {
		if s.keyFmt, err = connector.LookupMessageFormat(OptKeyFormat, t.keyFormat); err != nil {
			return nil, t.errorf("%v", err)
		}
	}
	if cf, ok := s.valFmt.(connector.ChangelogFormat); ok {
		s.accepted = cf.EncodingChangelogMode()
		if t.upsert && !s.accepted.IsInsertOnly() {
			return nil, t.errorf("'upsert-kafka' connector doesn't support '%s' as value format, because '%s' is not in insert-only mode.", t.valueFormat, t.valueFormat)
		}
	}
	if t.upsert {
		s.accepted = types.UpsertMode
	}
	writable := writableMetadata()
	hasTopicCol := false
	for _, c := range ctx.Schema.Columns {
		if !c.IsPersisted() {
			continue
		}
		if c.Kind == types.PhysicalColumn {
			s.cols = append(s.cols, sinkColumn{phys: indexOf(t.physNames, c.Name)})
			continue
		}
		key := c.MetadataKey
		if key == "" {
			key = c.Name
		}
		if _, ok := writable[key]; !ok {
			var keys []string
			for k := range writable {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			return nil, t.errorf("Invalid metadata key '%s' in column '%s' of table '%s'. The DynamicTableSink class 'KafkaDynamicSink' supports the following metadata keys for writing:\n%s", key, c.Name, t.table, strings.Join(keys, "\n"))
		}
		if key == MetaTopic {
			hasTopicCol = true
		}
		s.cols = append(s.cols, sinkColumn{phys: -1, meta: key})
	}
	if !hasTopicCol && len(t.topics) != 1 {
		return nil, t.errorf("a Kafka sink writes to one topic: set 'topic' to a single topic, or declare a writable 'topic' metadata column to choose the topic per row")
	}
	// encoders are created now so that format errors surface at planning
	if _, _, err := s.encoders(); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Sink) formatContext(key bool) *connector.FormatContext {
	src := &Source{t: s.t}
	return src.formatContext(key)
}

func (s *Sink) encoders() (connector.MessageEncoder, connector.MessageEncoder, error) {
	var ke connector.MessageEncoder
	var err error
	if s.keyFmt != nil {
		if ke, err = s.keyFmt.CreateMessageEncoder(s.formatContext(true)); err != nil {
			return nil, nil, s.t.errorf("key format '%s': %v", s.t.keyFormat, err)
		}
	}
	ve, err := s.valFmt.CreateMessageEncoder(s.formatContext(false))
	if err != nil {
		return nil, nil, s.t.errorf("value format '%s': %v", s.t.valueFormat, err)
	}
	return ke, ve, nil
}

// ChangelogMode is [I] for insert-only formats, the format's kinds for a
// CDC format, and [I, UA, D] for upsert-kafka.
func (s *Sink) ChangelogMode(types.ChangelogMode) types.ChangelogMode { return s.accepted }

// Parallelism is 'sink.parallelism' (0 when unset).
func (s *Sink) Parallelism() int { return s.t.sinkPar }

// Open starts writer index: a franz-go producer of its own.
func (s *Sink) Open(ctx context.Context, spec connector.WriteSpec, index int) (connector.Writer, error) {
	if len(spec.Names) != len(s.cols) {
		return nil, s.t.errorf("sink receives %d columns, expected %d", len(spec.Names), len(s.cols))
	}
	ke, ve, err := s.encoders()
	if err != nil {
		return nil, err
	}
	t := s.t
	// no RecordDeliveryTimeout: franz-go measures it from the record's
	// timestamp, which a 'timestamp' metadata column may set in the past
	opts := []kgo.Opt{kgo.ProduceRequestTimeout(t.apiTimeout())}
	switch t.partitioner {
	case "fixed":
		opts = append(opts, kgo.RecordPartitioner(kgo.ManualPartitioner()))
	case "round-robin":
		opts = append(opts, kgo.RecordPartitioner(kgo.RoundRobinPartitioner()))
	default:
		opts = append(opts, kgo.RecordPartitioner(kgo.StickyKeyPartitioner(nil)))
	}
	if acks := strings.TrimSpace(t.props["acks"]); acks != "" {
		switch acks {
		case "0":
			opts = append(opts, kgo.RequiredAcks(kgo.NoAck()), kgo.DisableIdempotentWrite())
		case "1":
			opts = append(opts, kgo.RequiredAcks(kgo.LeaderAck()), kgo.DisableIdempotentWrite())
		case "all", "-1":
			opts = append(opts, kgo.RequiredAcks(kgo.AllISRAcks()))
		default:
			return nil, t.errorf("invalid 'properties.acks' value '%s': expected 0, 1, all or -1", acks)
		}
	}
	if v := strings.TrimSpace(t.props["linger.ms"]); v != "" {
		d, err := time.ParseDuration(v + "ms")
		if err != nil {
			return nil, t.errorf("invalid 'properties.linger.ms' value '%s'", v)
		}
		opts = append(opts, kgo.ProducerLinger(d))
	}
	if v := strings.ToLower(strings.TrimSpace(t.props["compression.type"])); v != "" {
		var c kgo.CompressionCodec
		switch v {
		case "none":
			c = kgo.NoCompression()
		case "gzip":
			c = kgo.GzipCompression()
		case "snappy":
			c = kgo.SnappyCompression()
		case "lz4":
			c = kgo.Lz4Compression()
		case "zstd":
			c = kgo.ZstdCompression()
		default:
			return nil, t.errorf("invalid 'properties.compression.type' value '%s': expected none, gzip, snappy, lz4 or zstd", v)
		}
		opts = append(opts, kgo.ProducerBatchCompression(c))
	}
	if v := strings.TrimSpace(t.props["max.request.size"]); v != "" {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil || n <= 0 {
			return nil, t.errorf("invalid 'properties.max.request.size' value '%s': expected bytes", v)
		}
		opts = append(opts, kgo.ProducerBatchMaxBytes(int32(n)))
	}
	cl, err := t.newClient(opts...)
	if err != nil {
		return nil, err
	}
	w := &writer{s: s, cl: cl, adm: kadm.NewClient(cl), ke: ke, ve: ve, index: index, spec: spec,
		partitions: map[string]int32{}, ctx: ctx, metaCol: map[string]int{}}
	for i, c := range s.cols {
		if c.phys < 0 {
			w.metaCol[c.meta] = i + 1
		}
	}
	if _, perRow := w.metaCol[MetaTopic]; !perRow {
		// the topic is known: a missing topic or an unreachable broker
		// fails here with the source's messages, instead of the first
		// write's broker error or a flush that waits for the API timeout
		if _, err := t.topicPartitions(ctx, w.adm); err != nil {
			cl.Close()
			return nil, err
		}
	}
	if t.upsert && t.flushMaxRows > 0 {
		w.buf = map[string]int{}
		w.stopFlush = make(chan struct{})
		w.flushDone = make(chan struct{})
		go w.flushLoop()
	}
	if t.delivery == "exactly-once" {
		w.txn = &txnState{timeout: s.txnTimeout, prepared: map[string]*kgo.Client{}, opts: opts}
		return txnWriter{w}, nil
	}
	return w, nil
}

type writer struct {
	s     *Sink
	cl    *kgo.Client
	adm   *kadm.Client
	ke    connector.MessageEncoder
	ve    connector.MessageEncoder
	index int
	spec  connector.WriteSpec
	ctx   context.Context
	// metaCol maps a metadata key to 1 + its WriteSpec position
	metaCol map[string]int

	partitions map[string]int32 // topic -> partition count (fixed partitioner)

	// txn is set for exactly-once delivery (sink_transaction.go); cl
	// then only looks up metadata and sends transaction requests
	txn *txnState

	errMu  sync.Mutex
	err    error
	closed bool

	// upsert buffer (sink.buffer-flush.*): the latest record per key
	bufMu     sync.Mutex
	flushMu   sync.Mutex
	buf       map[string]int // topic + key -> position in bufRecs
	bufRecs   []*kgo.Record
	stopFlush chan struct{}
	flushDone chan struct{}
}

func (w *writer) setErr(err error) {
	w.errMu.Lock()
	if w.err == nil {
		w.err = err
	}
	w.errMu.Unlock()
}

func (w *writer) firstErr() error {
	w.errMu.Lock()
	defer w.errMu.Unlock()
	return w.err
}

// Write encodes each row into a record and produces it (asynchronously:
// broker errors fail a later Write or the Commit).
func (w *writer) Write(ctx context.Context, b *types.Batch) error {
	if err := w.firstErr(); err != nil {
		return err
	}
	t := w.s.t
	key, val := w.parts(b)
	var rows []*types.Row
	if len(w.metaCol) > 0 {
		rows = b.Rows(w.spec.Types)
	}
	for i := 0; i < b.Len; i++ {
		kind := b.Kind(i)
		if kind == types.UpdateBefore && t.upsert {
			continue
		}
		rec := &kgo.Record{}
		if w.ke != nil {
			k, err := w.ke.Encode(nil, key, i)
			if err != nil {
				return t.errorf("cannot encode the message key: %v", err)
			}
			rec.Key = k
		}
		if t.upsert && kind == types.Delete {
			rec.Value = nil // a tombstone
		} else {
			v, err := w.ve.Encode(nil, val, i)
			if err != nil {
				return t.errorf("cannot encode the message value: %v", err)
			}
			if v == nil {
				continue
			}
			rec.Value = v
		}
		if len(t.topics) == 1 {
			rec.Topic = t.topics[0]
		}
		if rows != nil {
			r := rows[i]
			if p := w.metaCol[MetaTopic]; p > 0 {
				if tp, ok := r.Values[p-1].(string); ok && tp != "" {
					rec.Topic = tp
				}
			}
			if p := w.metaCol[MetaTimestamp]; p > 0 {
				if ts, ok := r.Values[p-1].(time.Time); ok {
					rec.Timestamp = ts
				}
			}
			if p := w.metaCol[MetaHeaders]; p > 0 {
				if m, ok := r.Values[p-1].(*types.Map); ok {
					for j := range m.Keys {
						// an entry whose key or value is NULL is not
						// written, as in Flink's kafka sink
						k, ok := m.Keys[j].(string)
						if !ok {
							continue
						}
						h := kgo.RecordHeader{Key: k}
						switch v := m.Values[j].(type) {
						case []byte:
							h.Value = v
						case string:
							h.Value = []byte(v)
						default:
							continue
						}
						rec.Headers = append(rec.Headers, h)
					}
				}
			}
		}
		if rec.Topic == "" {
			return t.errorf("the 'topic' metadata column is NULL and option 'topic' names no single topic to fall back to")
		}
		if t.partitioner == "fixed" {
			n, err := w.partitionCount(ctx, rec.Topic)
			if err != nil {
				return err
			}
			rec.Partition = int32(w.index) % n
		}
		if w.buf != nil {
			w.buffer(rec)
			continue
		}
		w.produce(rec)
	}
	return w.firstErr()
}

// parts projects b onto the key and value columns.
func (w *writer) parts(b *types.Batch) (key, val *types.Batch) {
	t := w.s.t
	pos := map[int]int{}
	for i, c := range w.s.cols {
		if c.phys >= 0 {
			pos[c.phys] = i
		}
	}
	pick := func(fields []int) *types.Batch {
		cols := make([]arrow.Array, len(fields))
		for i, f := range fields {
			cols[i] = b.Cols[pos[f]]
		}
		return types.NewBatch(cols, b.Kinds, b.Len)
	}
	if w.ke != nil {
		key = pick(t.keyFields)
	}
	return key, pick(t.valueFields)
}

func (w *writer) partitionCount(ctx context.Context, topic string) (int32, error) {
	if n, ok := w.partitions[topic]; ok {
		return n, nil
	}
	tctx, cancel := context.WithTimeout(ctx, w.s.t.apiTimeout())
	defer cancel()
	d, err := w.adm.ListTopics(tctx, topic)
	if err != nil {
		return 0, w.s.t.brokerError("cannot list the partitions of topic '"+topic+"'", err)
	}
	td, ok := d[topic]
	if !ok || td.Err != nil || len(td.Partitions) == 0 {
		return 0, w.s.t.errorf("topic '%s' does not exist on the Kafka brokers at '%s'", topic, w.s.t.props["bootstrap.servers"])
	}
	n := int32(len(td.Partitions))
	w.partitions[topic] = n
	return n, nil
}

func (w *writer) produce(rec *kgo.Record) {
	if w.txn != nil {
		w.txnProduce(rec)
		return
	}
	none := w.s.t.delivery == "none"
	w.cl.Produce(w.ctx, rec, func(r *kgo.Record, err error) {
		if err != nil && !none && !errors.Is(err, context.Canceled) {
			w.setErr(w.s.t.brokerError(fmt.Sprintf("cannot write to topic '%s'", r.Topic), err))
		}
	})
}

// buffer keeps the latest record per topic and key (Flink's
// ReducingUpsertWriter) and flushes when max-rows keys are buffered.
func (w *writer) buffer(rec *kgo.Record) {
	w.bufMu.Lock()
	k := rec.Topic + "\x00" + string(rec.Key)
	if i, ok := w.buf[k]; ok {
		w.bufRecs[i] = rec
	} else {
		w.buf[k] = len(w.bufRecs)
		w.bufRecs = append(w.bufRecs, rec)
	}
	full := len(w.bufRecs) >= w.s.t.flushMaxRows
	w.bufMu.Unlock()
	if full {
		w.flushBuffer()
	}
}

func (w *writer) flushBuffer() {
	// one flush at a time: a checkpoint's flush (exactly-once) returns
	// only once the records the interval flush took are produced, so
	// that they are in the checkpoint's transaction
	w.flushMu.Lock()
	defer w.flushMu.Unlock()
	w.bufMu.Lock()
	recs := w.bufRecs
	w.bufRecs = nil
	clear(w.buf)
	w.bufMu.Unlock()
	for _, r := range recs {
		w.produce(r)
	}
}

func (w *writer) flushLoop() {
	defer close(w.flushDone)
	tick := time.NewTicker(w.s.t.flushEvery)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			w.flushBuffer()
		case <-w.stopFlush:
			return
		}
	}
}

func (w *writer) stopBuffer() {
	if w.stopFlush != nil {
		close(w.stopFlush)
		<-w.flushDone
		w.stopFlush = nil
	}
}

// Commit flushes buffered and in-flight records and reports the first
// broker error.
func (w *writer) Commit() error {
	if w.closed {
		return w.firstErr()
	}
	w.stopBuffer()
	if w.buf != nil {
		w.flushBuffer()
	}
	if w.txn != nil {
		err := w.txnEnd()
		w.txnAbort() // closes what is left
		w.closed = true
		w.cl.Close()
		if err != nil {
			w.setErr(err)
		}
		return w.firstErr()
	}
	// the job's context bounds the flush too: a cancelled job does not
	// wait for a broker that does not answer
	ctx, cancel := context.WithTimeout(w.ctx, w.s.t.apiTimeout()+5*time.Second)
	defer cancel()
	if err := w.cl.Flush(ctx); err != nil {
		if w.ctx.Err() != nil {
			w.closed = true
			w.cl.Close()
			return w.ctx.Err()
		}
		w.setErr(w.s.t.brokerError("cannot flush the records written", err))
	}
	w.closed = true
	w.cl.Close()
	return w.firstErr()
}

// Abort drops buffered records and closes the producer (records already
// handed to the client may still reach Kafka: at-least-once has no
// rollback).
func (w *writer) Abort() {
	if w.closed {
		return
	}
	w.stopBuffer()
	if w.txn != nil {
		w.txnAbort()
	}
	w.closed = true
	w.cl.Close()
}
