package kafka

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/connector/internal/columns"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// Kafka metadata keys (Flink's KafkaDynamicSource.ReadableMetadata).
const (
	MetaTopic         = "topic"
	MetaPartition     = "partition"
	MetaHeaders       = "headers"
	MetaLeaderEpoch   = "leader-epoch"
	MetaOffset        = "offset"
	MetaTimestamp     = "timestamp"
	MetaTimestampType = "timestamp-type"
)

// kafkaMetadata are the readable metadata columns every Kafka record has.
func kafkaMetadata() map[string]*types.DataType {
	return map[string]*types.DataType{
		MetaTopic:         types.StringType().NotNull(),
		MetaPartition:     types.IntType().NotNull(),
		MetaHeaders:       types.MapType(types.StringType(), types.BytesType()).NotNull(),
		MetaLeaderEpoch:   types.IntType(),
		MetaOffset:        types.BigIntType().NotNull(),
		MetaTimestamp:     types.TimestampLTZType(3).NotNull(),
		MetaTimestampType: types.StringType().NotNull(),
	}
}

// Source reads a kafka or upsert-kafka table. Its splits are the topic
// partitions; one reader per parallel instance fetches the partitions the
// instance owns together (connector.MultiSplitSource), assigned as Flink's
// KafkaSourceEnumerator assigns them.
type Source struct {
	t         *tableOptions
	keyFmt    connector.MessageFormatFactory
	valFmt    connector.MessageFormatFactory
	mode      types.ChangelogMode
	valueMeta map[string]*types.DataType

	splitsMu  sync.Mutex
	splitsErr error // the last failed Splits look-up, returned once more
}

// Partition is a split: one partition of a topic.
type Partition struct {
	Topic     string
	Partition int32
}

// String names the split as Flink's KafkaPartitionSplit does ("orders-0").
func (p Partition) String() string { return fmt.Sprintf("%s-%d", p.Topic, p.Partition) }

func newSource(ctx *connector.Context, t *tableOptions) (*Source, error) {
	s := &Source{t: t, mode: types.InsertOnlyMode}
	var err error
	if s.valFmt, err = connector.LookupMessageFormat(OptValueFormat, t.valueFormat); err != nil {
		return nil, t.errorf("%v", err)
	}
	if t.keyFormat != "" {
		if s.keyFmt, err = connector.LookupMessageFormat(OptKeyFormat, t.keyFormat); err != nil {
			return nil, t.errorf("%v", err)
		}
	}
	if cf, ok := s.valFmt.(connector.ChangelogFormat); ok {
		s.mode = cf.DecodingChangelogMode()
	}
	if s.keyFmt != nil {
		if cf, ok := s.keyFmt.(connector.ChangelogFormat); ok && !cf.DecodingChangelogMode().IsInsertOnly() {
			if t.upsert {
				return nil, t.errorf("'upsert-kafka' connector doesn't support '%s' as key format, because '%s' is not in insert-only mode.", t.keyFormat, t.keyFormat)
			}
			return nil, t.errorf("key format '%s' produces changes; a key format must be insert-only", t.keyFormat)
		}
	}
	if t.upsert {
		if !s.mode.IsInsertOnly() {
			return nil, t.errorf("'upsert-kafka' connector doesn't support '%s' as value format, because '%s' is not in insert-only mode.", t.valueFormat, t.valueFormat)
		}
		// Flink's upsert-kafka source declares [UA, D]: every value is an
		// upsert of its key, a tombstone a delete (the planner adds
		// ChangelogNormalize keyed on the primary key)
		s.mode = types.ChangelogModeOf(types.UpdateAfter, types.Delete)
	}
	// create the decoders once so that format option errors surface at
	// planning time
	kd, vd, err := s.decoders(nil, nil)
	if err != nil {
		return nil, err
	}
	_ = kd
	if mm, ok := vd.(connector.MessageMetadata); ok {
		s.valueMeta = mm.ReadableMetadata()
	}
	return s, nil
}

// formatContext is the FormatContext of the key (key=true) or value part.
func (s *Source) formatContext(key bool) *connector.FormatContext {
	t := s.t
	fc := &connector.FormatContext{Table: t.table, AllNames: t.physNames, AllTypes: t.physTypes}
	fields, id, prefix := t.valueFields, t.valueFormat, "value."
	if key {
		fields, id, prefix = t.keyFields, t.keyFormat, "key."
	}
	for _, i := range fields {
		name := t.physNames[i]
		if key {
			name = name[len(t.keyPrefix):]
		}
		fc.Names = append(fc.Names, name)
		fc.Types = append(fc.Types, t.physTypes[i])
	}
	fc.Options = formatOptions(t.opts, id, prefix, !key && t.opts[OptFormat] != "")
	return fc
}

// formatOptions extracts a part's format options: 'key.json.x' for the
// key, 'value.json.x' (or 'json.x' with 'format') for the value.
func formatOptions(opts map[string]string, id, prefix string, plain bool) map[string]string {
	out := connector.FormatOptions(opts, prefix+id)
	if plain {
		for k, v := range connector.FormatOptions(opts, id) {
			out[k] = v
		}
	}
	return out
}

// valueUses is how the read of spec uses each value field (the value
// format's columns; see connector.FormatContext.Uses): a field outside
// spec.Columns is not read; nil when every field is read whole.
func (s *Source) valueUses(spec connector.ReadSpec) []*connector.FieldUse {
	t := s.t
	uses := make([]*connector.FieldUse, len(t.valueFields))
	partial := false
	for vi, f := range t.valueFields {
		for j, c := range spec.Columns {
			if c != f {
				continue
			}
			u := connector.WholeUse
			if spec.Uses != nil && j < len(spec.Uses) {
				u = spec.Uses[j]
			}
			uses[vi] = connector.MergeUses(uses[vi], u)
		}
		partial = partial || !uses[vi].Whole()
	}
	if !partial {
		return nil
	}
	return uses
}

// decoders creates the key decoder (nil without key format) and the value
// decoder, selecting the value format's metadata keys meta; uses, when
// not nil, says how the read uses each value field.
func (s *Source) decoders(meta []string, uses []*connector.FieldUse) (connector.MessageDecoder, connector.MessageDecoder, error) {
	var kd connector.MessageDecoder
	var err error
	if s.keyFmt != nil {
		if kd, err = s.keyFmt.CreateMessageDecoder(s.formatContext(true)); err != nil {
			return nil, nil, s.t.errorf("key format '%s': %v", s.t.keyFormat, err)
		}
	}
	vc := s.formatContext(false)
	vc.Uses = uses
	vd, err := s.valFmt.CreateMessageDecoder(vc)
	if err != nil {
		return nil, nil, s.t.errorf("value format '%s': %v", s.t.valueFormat, err)
	}
	if len(meta) > 0 {
		mm, ok := vd.(connector.MessageMetadata)
		if !ok {
			return nil, nil, s.t.errorf("value format '%s' has no metadata", s.t.valueFormat)
		}
		if err := mm.SetMetadata(meta); err != nil {
			return nil, nil, s.t.errorf("value format '%s': %v", s.t.valueFormat, err)
		}
	}
	return kd, vd, nil
}

// Bounded reports whether scan.bounded.mode ends the read.
func (s *Source) Bounded() bool { return s.t.bounded != ModeUnbounded }

// ChangelogMode is the value format's ([I] for json, csv, raw, avro; the
// CDC formats' kinds), or [UA, D] for upsert-kafka.
func (s *Source) ChangelogMode() types.ChangelogMode { return s.mode }

// ScanParallelism is 'scan.parallelism' (0 when unset).
func (s *Source) ScanParallelism() int { return s.t.scanPar }

// WatermarkIdleTimeout is 'scan.watermark.idle-timeout'.
func (s *Source) WatermarkIdleTimeout() (time.Duration, bool) { return s.t.idleTimeout, s.t.idleSet }

// ReadableMetadata lists Kafka's metadata keys and the value format's,
// prefixed 'value.'.
func (s *Source) ReadableMetadata() map[string]*types.DataType {
	m := kafkaMetadata()
	for k, t := range s.valueMeta {
		m["value."+k] = t
	}
	return m
}

// Splits lists the topic partitions, sorted by topic and partition. An
// unreachable broker or a missing topic fails within the API timeout.
//
// A failed look-up is remembered and returned by the next call without
// asking the brokers again: the planner lists the splits when it plans the
// scan (and ignores an error) and the job lists them again when it starts,
// so an unreachable broker would otherwise cost the query twice the API
// timeout. The call after that asks the brokers again.
func (s *Source) Splits(ctx context.Context) ([]connector.Split, error) {
	s.splitsMu.Lock()
	defer s.splitsMu.Unlock()
	if err := s.splitsErr; err != nil {
		s.splitsErr = nil
		return nil, err
	}
	parts, err := s.listPartitions(ctx)
	if err != nil {
		s.splitsErr = err
		return nil, err
	}
	return sortedSplits(parts), nil
}

func (s *Source) listPartitions(ctx context.Context) (map[string][]int32, error) {
	cl, err := s.t.newClient()
	if err != nil {
		return nil, err
	}
	defer cl.Close()
	return s.t.topicPartitions(ctx, kadm.NewClient(cl))
}

func sortedSplits(parts map[string][]int32) []connector.Split {
	var topics []string
	for tp := range parts {
		topics = append(topics, tp)
	}
	sort.Strings(topics)
	var out []connector.Split
	for _, tp := range topics {
		for _, p := range parts[tp] {
			out = append(out, Partition{Topic: tp, Partition: p})
		}
	}
	return out
}

// javaStringHash is Java's String.hashCode (UTF-16 code units).
func javaStringHash(s string) int32 {
	var h int32
	for _, r := range s {
		if r >= 0x10000 {
			r -= 0x10000
			h = 31*h + int32(0xD800+(r>>10))
			h = 31*h + int32(0xDC00+(r&0x3FF))
			continue
		}
		h = 31*h + int32(r)
	}
	return h
}

// owner is the instance that reads partition p of topic among par
// instances, as Flink's KafkaSourceEnumerator.getSplitOwner computes it.
func owner(topic string, p int32, par int) int {
	start := int((javaStringHash(topic)*31)&0x7FFFFFFF) % par
	return (start + int(p)) % par
}

// Open reads one partition alone.
func (s *Source) Open(ctx context.Context, split connector.Split, spec connector.ReadSpec) (connector.Reader, error) {
	r, err := s.open(ctx, []connector.Split{split}, func(Partition) bool { return true }, false, spec, nil)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// OpenInstance reads the partitions owned by instance among parallelism,
// and (while unbounded, with partition discovery on) the partitions and
// topics discovered later.
func (s *Source) OpenInstance(ctx context.Context, splits []connector.Split, instance, parallelism int, spec connector.ReadSpec) (connector.Reader, error) {
	owns := func(p Partition) bool { return owner(p.Topic, p.Partition, parallelism) == instance }
	r, err := s.open(ctx, splits, owns, true, spec, nil)
	if err != nil {
		return nil, err
	}
	r.instance, r.parallelism = instance, parallelism
	return r, nil
}

// open starts a reader of the owned splits, at their startup offsets or,
// for the partitions of saved (a checkpoint's position), at its offsets.
func (s *Source) open(ctx context.Context, splits []connector.Split, owns func(Partition) bool, discover bool, spec connector.ReadSpec, saved *position) (*reader, error) {
	t := s.t
	meta := kafkaMetadata()
	var valueMeta []string
	for _, k := range spec.Metadata {
		if len(k) > 6 && k[:6] == "value." {
			if _, ok := s.valueMeta[k[6:]]; ok {
				valueMeta = append(valueMeta, k[6:])
				continue
			}
		}
		if _, ok := meta[k]; !ok {
			return nil, t.errorf("unknown metadata key '%s'", k)
		}
	}
	kd, vd, err := s.decoders(valueMeta, s.valueUses(spec))
	if err != nil {
		return nil, err
	}
	copts, err := t.consumerOptions()
	if err != nil {
		return nil, err
	}
	cl, err := t.newClient(copts...)
	if err != nil {
		return nil, err
	}
	r := &reader{src: s, spec: spec, cl: cl, adm: kadm.NewClient(cl), kd: kd, vd: vd, owns: owns,
		parts: map[string]*partState{}, nValueMeta: len(valueMeta), instance: -1}
	if discover && !s.Bounded() && t.discovery > 0 {
		r.discoverEvery = t.discovery
		r.nextDiscovery = time.Now().Add(t.discovery)
	}
	byTopic := map[string][]int32{}
	for _, sp := range splits {
		p, ok := sp.(Partition)
		if !ok {
			cl.Close()
			return nil, t.errorf("unexpected split %T", sp)
		}
		if owns(p) && saved.offsetOf(p) == nil {
			byTopic[p.Topic] = append(byTopic[p.Topic], p.Partition)
		}
	}
	mode := t.startup
	if saved != nil {
		// Partitions found since the checkpoint start as discovered ones.
		mode = ModeEarliest
		if err := r.assignAt(ctx, saved.byTopic(), "", nil, 0, saved); err != nil {
			cl.Close()
			return nil, err
		}
	}
	if err := r.assign(ctx, byTopic, mode, t.startupOffsets, t.startupMillis); err != nil {
		cl.Close()
		return nil, err
	}
	return r, nil
}

// partState is where the reader of one partition stands.
type partState struct {
	topic  string
	part   int32
	name   string
	next   int64 // next offset to read
	pos    int64 // next offset after the rows Next returned (Position)
	stop   int64 // end offset (exclusive) of a bounded read; -1 unbounded
	logEnd int64 // high watermark last fetched; -1 unknown
	read   bool  // a record was read
	done   bool
}

type reader struct {
	src  *Source
	spec connector.ReadSpec
	cl   *kgo.Client
	adm  *kadm.Client
	kd   connector.MessageDecoder
	vd   connector.MessageDecoder
	owns func(Partition) bool

	mu     sync.Mutex // guards parts for Progress
	parts  map[string]*partState
	active []string

	// Wake: woken is set until a Next returns (nil, nil) for it;
	// pollCancel interrupts the poll in progress
	wakeMu     sync.Mutex
	woken      bool
	pollCancel context.CancelFunc

	queue      []queued
	lastSplit  string
	nValueMeta int

	discoverEvery time.Duration
	nextDiscovery time.Time
	closed        bool

	// instance and parallelism name an OpenInstance reader in its
	// position (-1 and 0 for Open's).
	instance, parallelism int
}

type queued struct {
	b     *types.Batch
	split string
	next  int64 // the partition's next offset after b
}

// assign starts reading the given partitions at the offsets of mode, and
// resolves their stop offsets for a bounded read.
func (r *reader) assign(ctx context.Context, parts map[string][]int32, mode string, specific map[int32]int64, millis int64) error {
	return r.assignAt(ctx, parts, mode, specific, millis, nil)
}

// assignAt is assign, starting the partitions of saved (a checkpoint's
// position) at its offsets, and stopping a bounded read at its stop
// offsets where it has them.
func (r *reader) assignAt(ctx context.Context, parts map[string][]int32, mode string, specific map[int32]int64, millis int64, saved *position) error {
	if len(parts) == 0 {
		r.updateActive()
		return nil
	}
	t := r.src.t
	var starts map[string]map[int32]int64
	var err error
	if saved == nil {
		if starts, err = t.resolveOffsets(ctx, r.adm, mode, specific, millis, parts, true); err != nil {
			return err
		}
	}
	var stops map[string]map[int32]int64
	if t.bounded != ModeUnbounded {
		if stops, err = t.resolveOffsets(ctx, r.adm, t.bounded, t.boundedOffsets, t.boundedMillis, parts, false); err != nil {
			return err
		}
	}
	consume := map[string]map[int32]kgo.Offset{}
	r.mu.Lock()
	for tp, ps := range parts {
		for _, p := range ps {
			st := &partState{topic: tp, part: p, name: Partition{tp, p}.String(), next: starts[tp][p], stop: -1, logEnd: -1}
			if stops != nil {
				st.stop = stops[tp][p]
			}
			if o := saved.offsetOf(Partition{tp, p}); o != nil {
				st.next = o.Next
				if stops != nil && o.Stop >= 0 {
					st.stop = o.Stop
				}
			}
			st.pos = st.next
			if stops != nil {
				if st.next >= st.stop {
					st.done = true
				}
			}
			r.parts[st.name] = st
			if !st.done {
				if consume[tp] == nil {
					consume[tp] = map[int32]kgo.Offset{}
				}
				consume[tp][p] = kgo.NewOffset().At(st.next)
			}
		}
	}
	r.mu.Unlock()
	r.updateActive()
	if len(consume) > 0 {
		r.cl.AddConsumePartitions(consume)
	}
	return nil
}

func (r *reader) updateActive() {
	r.mu.Lock()
	defer r.mu.Unlock()
	var act []string
	for name, st := range r.parts {
		if !st.done {
			act = append(act, name)
		}
	}
	sort.Strings(act)
	r.active = act
}

// BatchSplit names the partition of the last batch.
func (r *reader) BatchSplit() string { return r.lastSplit }

// ActiveSplits names the partitions being read.
func (r *reader) ActiveSplits() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.active
}

// Progress reports every assigned partition's offset and log end.
func (r *reader) Progress() []connector.SplitProgress {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]connector.SplitProgress, 0, len(r.parts))
	for _, st := range r.parts {
		off := st.next
		if !st.read {
			off = -1
		}
		out = append(out, connector.SplitProgress{Split: st.name, Offset: off, LogEnd: st.logEnd, Watermark: math.MinInt64})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Split < out[j].Split })
	return out
}

// SkippedRows counts messages skipped by the formats' ignore-parse-errors.
func (r *reader) SkippedRows() int64 {
	n := r.vd.SkippedRows()
	if r.kd != nil {
		n += r.kd.SkippedRows()
	}
	return n
}

func (r *reader) allDone() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, st := range r.parts {
		if !st.done {
			return false
		}
	}
	return true
}

// Next returns the rows of the next fetched partition; io.EOF once every
// partition of a bounded read reached its stop offset.
func (r *reader) Next(ctx context.Context) (*types.Batch, error) {
	for {
		if len(r.queue) > 0 {
			q := r.queue[0]
			r.queue = r.queue[1:]
			r.lastSplit = q.split
			r.mu.Lock()
			r.parts[q.split].pos = q.next
			r.mu.Unlock()
			return q.b, nil
		}
		if r.src.Bounded() && r.allDone() {
			return nil, io.EOF
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		pollCtx := ctx
		var cancel context.CancelFunc = func() {}
		if r.discoverEvery > 0 {
			if !time.Now().Before(r.nextDiscovery) {
				if err := r.discover(ctx); err != nil {
					return nil, err
				}
				r.nextDiscovery = time.Now().Add(r.discoverEvery)
			}
			pollCtx, cancel = context.WithDeadline(ctx, r.nextDiscovery)
		}
		// Wake (a checkpoint) interrupts the poll
		var wakeCancel context.CancelFunc
		pollCtx, wakeCancel = context.WithCancel(pollCtx)
		r.wakeMu.Lock()
		if r.woken {
			r.woken = false
			r.wakeMu.Unlock()
			wakeCancel()
			cancel()
			return nil, nil
		}
		r.pollCancel = wakeCancel
		r.wakeMu.Unlock()
		fetches := r.cl.PollFetches(pollCtx)
		r.wakeMu.Lock()
		woken := r.woken
		r.woken, r.pollCancel = false, nil
		r.wakeMu.Unlock()
		wakeCancel()
		cancel()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var ferr error
		fetches.EachError(func(topic string, p int32, err error) {
			if ferr != nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
				return
			}
			if errors.Is(err, kgo.ErrClientClosed) {
				ferr = err
				return
			}
			ferr = r.src.t.brokerError(fmt.Sprintf("cannot fetch topic '%s' partition %d", topic, p), err)
		})
		if ferr != nil {
			return nil, ferr
		}
		var derr error
		fetches.EachPartition(func(fp kgo.FetchTopicPartition) {
			if derr != nil || fp.Err != nil {
				return
			}
			derr = r.decodePartition(fp.Topic, fp.Partition, fp.HighWatermark, fp.Records)
		})
		if derr != nil {
			return nil, derr
		}
		if woken && len(r.queue) == 0 {
			return nil, nil
		}
	}
}

// Wake makes a Next waiting for records return (nil, nil) soon
// (connector.WakeableReader): a checkpoint's barrier need not wait for
// the next record of an idle topic.
func (r *reader) Wake() {
	r.wakeMu.Lock()
	defer r.wakeMu.Unlock()
	r.woken = true
	if r.pollCancel != nil {
		r.pollCancel()
	}
}

// discover looks for new partitions (and topics matching topic-pattern)
// and reads them from their earliest offset, as Flink does for partitions
// discovered after the start.
func (r *reader) discover(ctx context.Context) error {
	parts, err := r.src.t.topicPartitions(ctx, r.adm)
	if err != nil {
		// a failed discovery is retried at the next interval (Flink
		// logs it); a broker that stays away fails the fetches
		return nil
	}
	fresh := map[string][]int32{}
	r.mu.Lock()
	for tp, ps := range parts {
		for _, p := range ps {
			sp := Partition{tp, p}
			if _, ok := r.parts[sp.String()]; !ok && r.owns(sp) {
				fresh[tp] = append(fresh[tp], p)
			}
		}
	}
	r.mu.Unlock()
	if len(fresh) == 0 {
		return nil
	}
	return r.assign(ctx, fresh, ModeEarliest, nil, 0)
}

// msgRow says where output row i comes from.
type msgRow struct {
	rec    *kgo.Record
	keyRow int32 // row of the key batch; -1 without key
	valRow int32 // row of the value batch; -1 for a tombstone
	kind   types.RowKind
}

// decodePartition decodes the records of one fetched partition into one
// queued batch.
func (r *reader) decodePartition(topic string, part int32, hw int64, recs []*kgo.Record) error {
	name := Partition{topic, part}.String()
	r.mu.Lock()
	st := r.parts[name]
	r.mu.Unlock()
	if st == nil || st.done {
		return nil
	}
	defer func() {
		for _, rec := range recs {
			rec.Recycle()
		}
	}()
	t := r.src.t
	rows := make([]msgRow, 0, len(recs))
	var nKey, nVal int32
	next := st.next
	finished := false
	for _, rec := range recs {
		if rec.Offset < next {
			continue // already read (a re-fetch after a broker restart)
		}
		if st.stop >= 0 && rec.Offset >= st.stop {
			finished = true
			break
		}
		next = rec.Offset + 1
		if rec.Attrs.IsControl() {
			continue
		}
		keyRow := int32(-1)
		if r.kd != nil {
			if rec.Key == nil {
				continue // no key row: Flink emits nothing
			}
			n, err := r.kd.Decode(rec.Key)
			if err != nil {
				return dataError(topic, part, rec.Offset, "key", err)
			}
			if n == 0 {
				continue // skipped by ignore-parse-errors
			}
			keyRow = nKey + int32(n) - 1
			nKey += int32(n)
		}
		if rec.Value == nil {
			if t.upsert {
				rows = append(rows, msgRow{rec: rec, keyRow: keyRow, valRow: -1, kind: types.Delete})
			}
			continue // a tombstone of a plain kafka table is skipped
		}
		n, err := r.vd.Decode(rec.Value)
		if err != nil {
			return dataError(topic, part, rec.Offset, "value", err)
		}
		for j := 0; j < n; j++ {
			rows = append(rows, msgRow{rec: rec, keyRow: keyRow, valRow: nVal + int32(j), kind: types.Insert})
		}
		nVal += int32(n)
	}
	var keyB *types.Batch
	if r.kd != nil {
		keyB = r.kd.Flush()
	}
	valB := r.vd.Flush()
	if st.stop >= 0 && next >= st.stop {
		finished = true
	}
	r.mu.Lock()
	st.next = next
	st.read = st.read || len(recs) > 0
	if hw >= 0 {
		st.logEnd = hw
	}
	if finished {
		st.done = true
	}
	r.mu.Unlock()
	if finished {
		r.cl.RemoveConsumePartitions(map[string][]int32{topic: {part}})
		r.updateActive()
	}
	if len(rows) == 0 {
		// Nothing to return (control records, skipped messages): the
		// position moves on after the partition's batches still queued.
		r.advanceQueued(st, next)
		return nil
	}
	b, err := r.assemble(rows, keyB, valB)
	if err != nil {
		return err
	}
	r.queue = append(r.queue, queued{b: b, split: name, next: next})
	return nil
}

func dataError(topic string, part int32, offset int64, what string, err error) error {
	return &connector.DataError{File: fmt.Sprintf("topic '%s' partition %d offset %d", topic, part, offset),
		Msg: fmt.Sprintf("cannot decode the message %s: %v", what, err)}
}

// assemble builds the output batch: the projected physical columns (from
// the value, or from the key where the value does not hold them or the
// message is a tombstone), then the metadata columns.
func (r *reader) assemble(rows []msgRow, keyB, valB *types.Batch) (*types.Batch, error) {
	t := r.src.t
	n := len(rows)
	keyIdx := make([]int32, n)
	valIdx := make([]int32, n)
	kinds := make([]types.RowKind, n)
	inserts, tomb := true, false
	for i, m := range rows {
		keyIdx[i], valIdx[i] = m.keyRow, m.valRow
		k := m.kind
		if m.valRow >= 0 && valB.Kinds != nil {
			k = valB.Kinds[m.valRow]
		}
		kinds[i] = k
		inserts = inserts && k == types.Insert
		tomb = tomb || m.valRow < 0
	}
	if inserts {
		kinds = nil
	}
	identity := valB != nil && valB.Len == n
	for i := 0; identity && i < n; i++ {
		identity = valIdx[i] == int32(i)
	}
	cols := make([]arrow.Array, 0, len(r.spec.Columns)+len(r.spec.Metadata))
	for _, c := range r.spec.Columns {
		vpos := indexInt(t.valueFields, c)
		kpos := indexInt(t.keyFields, c)
		switch {
		case vpos >= 0 && kpos >= 0 && tomb:
			// value column, key column for tombstones
			both := vector.Concat([]arrow.Array{valB.Cols[vpos], keyB.Cols[kpos]})
			idx := make([]int32, n)
			off := int32(valB.Len)
			for i, m := range rows {
				if m.valRow >= 0 {
					idx[i] = m.valRow
				} else {
					idx[i] = off + m.keyRow
				}
			}
			cols = append(cols, vector.Take(both, idx))
		case vpos >= 0 && identity:
			cols = append(cols, valB.Cols[vpos])
		case vpos >= 0:
			cols = append(cols, vector.Take(valB.Cols[vpos], valIdx))
		case kpos >= 0:
			cols = append(cols, vector.Take(keyB.Cols[kpos], keyIdx))
		default:
			col := columns.MustNew(t.physTypes[c], n)
			for i := 0; i < n; i++ {
				col.AppendNull()
			}
			cols = append(cols, col.Build())
		}
	}
	vm := 0
	meta := r.src.ReadableMetadata()
	for _, k := range r.spec.Metadata {
		if len(k) > 6 && k[:6] == "value." && r.src.valueMeta[k[6:]] != nil {
			cols = append(cols, vector.Take(valB.Cols[len(t.valueFields)+vm], valIdx))
			vm++
			continue
		}
		col := columns.MustNew(meta[k], n)
		for _, m := range rows {
			if err := columns.AppendValue(col, recordMetadata(m.rec, k)); err != nil {
				return nil, fmt.Errorf("metadata '%s': %v", k, err)
			}
		}
		cols = append(cols, col.Build())
	}
	return types.NewBatch(cols, kinds, n), nil
}

func recordMetadata(rec *kgo.Record, key string) any {
	switch key {
	case MetaTopic:
		return rec.Topic
	case MetaPartition:
		return rec.Partition
	case MetaOffset:
		return rec.Offset
	case MetaLeaderEpoch:
		if rec.LeaderEpoch < 0 {
			return nil
		}
		return rec.LeaderEpoch
	case MetaTimestamp:
		return rec.Timestamp.UTC()
	case MetaTimestampType:
		switch rec.Attrs.TimestampType() {
		case 0:
			return "CreateTime"
		case 1:
			return "LogAppendTime"
		}
		return "NoTimestampType"
	case MetaHeaders:
		m := &types.Map{}
		for _, h := range rec.Headers {
			m.Keys = append(m.Keys, h.Key)
			if h.Value == nil {
				m.Values = append(m.Values, nil)
			} else {
				m.Values = append(m.Values, append([]byte{}, h.Value...))
			}
		}
		return m
	}
	return nil
}

func indexInt(xs []int, x int) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// Close stops the client.
func (r *reader) Close() error {
	if !r.closed {
		r.closed = true
		r.cl.Close()
	}
	return nil
}
