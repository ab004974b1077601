package kafka

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/riffle-sql/riffle/engine/connector"
)

// Checkpoints (connector.PositionReader, connector.ResumableSource,
// connector.ResumableMultiSplitSource).
//
// A reader's position holds, for every partition it reads (those it was
// opened with and those discovered since), the offset of the next record
// after the rows Next has returned, and the stop offset of a bounded read
// (so that a resumed 'latest-offset' read ends where the interrupted one
// would have, not at the latest offset of the resume). Records fetched but
// not yet returned are not covered: they are fetched again. A reader
// reopened there (OpenInstanceAt, OpenAt) starts each saved partition at
// its offset, whatever 'scan.startup.mode' says, and the partitions found
// since the checkpoint at their earliest offset, as discovered partitions
// are. Offsets are not committed to the brokers (Flink commits them on
// checkpoint for monitoring only; the checkpoint is the truth).

// positionVersion is the version of the position encoding (JSON).
const positionVersion = 1

// position is a reader's saved position.
type position struct {
	Version int `json:"version"`
	// Instance and Parallelism are the reader's instance among parallel
	// ones (OpenInstance); -1 and 0 for a reader of one partition (Open).
	Instance    int `json:"instance"`
	Parallelism int `json:"parallelism"`
	// Partitions are sorted by topic and partition.
	Partitions []partitionOffset `json:"partitions"`
}

// partitionOffset is where a partition's reading stands.
type partitionOffset struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	// Next is the offset of the next record to read.
	Next int64 `json:"next"`
	// Stop is the end offset (exclusive) of a bounded read; -1 unbounded.
	Stop int64 `json:"stop"`
}

// offsetOf returns p's saved offset, nil when p is not saved (or saved is
// nil).
func (saved *position) offsetOf(p Partition) *partitionOffset {
	if saved == nil {
		return nil
	}
	for i := range saved.Partitions {
		if o := &saved.Partitions[i]; o.Topic == p.Topic && o.Partition == p.Partition {
			return o
		}
	}
	return nil
}

// byTopic lists the saved partitions by topic.
func (saved *position) byTopic() map[string][]int32 {
	out := map[string][]int32{}
	for _, o := range saved.Partitions {
		out[o.Topic] = append(out[o.Topic], o.Partition)
	}
	return out
}

// advanceQueued moves st's position to next once the partition's queued
// batches are returned: the last queued batch of the partition takes next,
// or st itself when none is queued.
func (r *reader) advanceQueued(st *partState, next int64) {
	for i := len(r.queue) - 1; i >= 0; i-- {
		if r.queue[i].split == st.name {
			r.queue[i].next = next
			return
		}
	}
	r.mu.Lock()
	st.pos = next
	r.mu.Unlock()
}

// Position returns the offsets after the rows Next returned of every
// partition the reader reads (JSON).
func (r *reader) Position() ([]byte, error) {
	p := position{Version: positionVersion, Instance: r.instance, Parallelism: r.parallelism, Partitions: []partitionOffset{}}
	r.mu.Lock()
	for _, st := range r.parts {
		p.Partitions = append(p.Partitions, partitionOffset{Topic: st.topic, Partition: st.part, Next: st.pos, Stop: st.stop})
	}
	r.mu.Unlock()
	sort.Slice(p.Partitions, func(i, j int) bool {
		a, b := p.Partitions[i], p.Partitions[j]
		return a.Topic < b.Topic || a.Topic == b.Topic && a.Partition < b.Partition
	})
	return json.Marshal(p)
}

// decodePosition decodes pos and checks it was taken by the reader of
// instance among parallelism (-1, 0: one partition's reader) and holds only
// partitions owns accepts.
func (s *Source) decodePosition(pos []byte, instance, parallelism int, owns func(Partition) bool) (*position, error) {
	fail := func(format string, args ...any) error {
		what := fmt.Sprintf("reader %d of %d", instance+1, parallelism)
		if parallelism == 0 {
			what = "partition reader"
		}
		return s.t.errorf("%s: cannot resume at the checkpoint's position: %s", what, fmt.Sprintf(format, args...))
	}
	var p position
	if err := json.Unmarshal(pos, &p); err != nil {
		return nil, fail("the position is corrupt (%v)", err)
	}
	if p.Version != positionVersion {
		return nil, fail("the position has version %d; this program reads version %d", p.Version, positionVersion)
	}
	if p.Instance != instance || p.Parallelism != parallelism {
		if p.Parallelism == 0 || parallelism == 0 {
			return nil, fail("the position is of another kind of reader")
		}
		return nil, fail("the position is of reader %d of %d (the parallelism of a Kafka source cannot change across a restore)", p.Instance+1, p.Parallelism)
	}
	for _, o := range p.Partitions {
		sp := Partition{o.Topic, o.Partition}
		if o.Topic == "" || o.Partition < 0 || o.Next < 0 || o.Stop < -1 {
			return nil, fail("the position is corrupt (partition %s at offset %d, stop %d)", sp, o.Next, o.Stop)
		}
		if !owns(sp) {
			return nil, fail("partition %s is not this reader's", sp)
		}
	}
	return &p, nil
}

// OpenInstanceAt is OpenInstance resuming at pos, a position the same
// instance's reader returned: every saved partition starts at its saved
// offset, partitions found since at their earliest offset. A position that
// does not decode, is of another instance or parallelism, or names a
// partition the instance does not own is an error naming the table.
func (s *Source) OpenInstanceAt(ctx context.Context, splits []connector.Split, instance, parallelism int, spec connector.ReadSpec, pos []byte) (connector.Reader, error) {
	owns := func(p Partition) bool { return owner(p.Topic, p.Partition, parallelism) == instance }
	saved, err := s.decodePosition(pos, instance, parallelism, owns)
	if err != nil {
		return nil, err
	}
	r, err := s.open(ctx, splits, owns, true, spec, saved)
	if err != nil {
		return nil, err
	}
	r.instance, r.parallelism = instance, parallelism
	return r, nil
}

// OpenAt opens one partition's reader (Open) at pos, a position a reader
// of the same partition returned.
func (s *Source) OpenAt(ctx context.Context, split connector.Split, spec connector.ReadSpec, pos []byte) (connector.Reader, error) {
	p, ok := split.(Partition)
	if !ok {
		return nil, s.t.errorf("unexpected split %T", split)
	}
	saved, err := s.decodePosition(pos, -1, 0, func(q Partition) bool { return q == p })
	if err != nil {
		return nil, err
	}
	r, err := s.open(ctx, []connector.Split{split}, func(Partition) bool { return true }, false, spec, saved)
	if err != nil {
		return nil, err
	}
	return r, nil
}

var (
	_ connector.PositionReader            = (*reader)(nil)
	_ connector.ResumableSource           = (*Source)(nil)
	_ connector.ResumableMultiSplitSource = (*Source)(nil)
)
