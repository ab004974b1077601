package kafkabrowser

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/twmb/franz-go/pkg/kgo"
)

// Header is one record header.
type Header struct {
	Key   string
	Value []byte
}

// Message is one record read by Peek.
type Message struct {
	Topic     string
	Partition int32
	Offset    int64
	Timestamp time.Time
	Key       []byte // nil: no key
	Value     []byte // nil: a tombstone
	Headers   []Header
}

// PeekOptions say which messages Peek reads.
type PeekOptions struct {
	// Latest reads the newest messages; false reads the oldest kept.
	Latest bool
	// N is how many messages (per partition when Partition >= 0 or
	// PerPartition, else in all); 0 means 50.
	N int
	// Partition reads one partition; -1 reads all.
	Partition int32
	// PerPartition reads N from each partition instead of N in all.
	PerPartition bool
}

// PeekResult is what Peek read.
type PeekResult struct {
	Messages []Message // by timestamp, then partition and offset; newest first for Latest
	// Partial reports that the deadline ended the read before every
	// partition's range was read (a compacted or transactional topic's
	// offsets have gaps; a slow broker).
	Partial bool
}

// Peek reads the earliest or latest N messages of topic without joining
// a consumer group (nothing is committed). It reads each partition's
// range [start, end) as listed when called and stops there, or when ctx
// (bounded to DefaultTimeout when it has no deadline) ends.
func (c *Client) Peek(ctx context.Context, topic string, o PeekOptions) (PeekResult, error) {
	if o.N <= 0 {
		o.N = 50
	}
	ctx, cancel := bound(ctx)
	defer cancel()
	ends, err := c.adm.ListEndOffsets(ctx, topic)
	if err != nil {
		return PeekResult{}, c.explain(ctx, "peeking at "+topic, err)
	}
	starts, err := c.adm.ListStartOffsets(ctx, topic)
	if err != nil {
		return PeekResult{}, c.explain(ctx, "peeking at "+topic, err)
	}
	if len(ends[topic]) == 0 {
		return PeekResult{}, fmt.Errorf("peeking at %s: no such topic", topic)
	}
	// the range of each partition
	type rng struct{ from, to int64 }
	want := map[int32]rng{}
	for p, e := range ends[topic] {
		if o.Partition >= 0 && p != o.Partition {
			continue
		}
		if e.Err != nil {
			return PeekResult{}, c.explain(ctx, fmt.Sprintf("peeking at %s partition %d", topic, p), e.Err)
		}
		s, ok := starts.Lookup(topic, p)
		if !ok || s.Err != nil {
			continue
		}
		r := rng{s.Offset, e.Offset}
		if o.Latest {
			r.from = max(s.Offset, e.Offset-int64(o.N))
		} else {
			r.to = min(e.Offset, s.Offset+int64(o.N))
		}
		if r.from < r.to {
			want[p] = r
		}
	}
	if o.Partition >= 0 && len(ends[topic]) > 0 {
		if _, ok := ends[topic][o.Partition]; !ok {
			return PeekResult{}, fmt.Errorf("peeking at %s: no partition %d (it has %d)", topic, o.Partition, len(ends[topic]))
		}
	}
	if len(want) == 0 {
		return PeekResult{}, nil
	}
	offs := map[int32]kgo.Offset{}
	for p, r := range want {
		offs[p] = kgo.NewOffset().At(r.from)
	}
	opts, _ := c.cfg.clientOpts()
	opts = append(opts, kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: offs}),
		kgo.FetchMaxWait(300*time.Millisecond), kgo.WithHooks(c.dial))
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return PeekResult{}, err
	}
	defer cl.Close()
	var res PeekResult
	left := len(want)
	done := map[int32]bool{}
	empty := 0
	for left > 0 {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			res.Partial = true
			break
		}
		var ferr error
		fs.EachError(func(_ string, p int32, err error) {
			if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
				ferr = fmt.Errorf("partition %d: %w", p, err)
			}
		})
		if ferr != nil {
			return res, c.explain(ctx, "peeking at "+topic, ferr)
		}
		n := 0
		fs.EachRecord(func(r *kgo.Record) {
			w, ok := want[r.Partition]
			if !ok || done[r.Partition] || r.Offset >= w.to {
				if ok && !done[r.Partition] && r.Offset >= w.to {
					done[r.Partition] = true
					left--
				}
				return
			}
			n++
			m := Message{Topic: r.Topic, Partition: r.Partition, Offset: r.Offset, Timestamp: r.Timestamp, Key: r.Key, Value: r.Value}
			for _, h := range r.Headers {
				m.Headers = append(m.Headers, Header{Key: h.Key, Value: h.Value})
			}
			res.Messages = append(res.Messages, m)
			if r.Offset >= w.to-1 {
				done[r.Partition] = true
				left--
			}
		})
		if n == 0 {
			// gaps (compaction, transaction markers) can leave the last
			// offsets of a range without a record
			if empty++; empty >= 5 {
				res.Partial = left > 0
				break
			}
		} else {
			empty = 0
		}
	}
	sort.SliceStable(res.Messages, func(i, j int) bool {
		a, b := res.Messages[i], res.Messages[j]
		if !a.Timestamp.Equal(b.Timestamp) {
			return a.Timestamp.Before(b.Timestamp)
		}
		if a.Partition != b.Partition {
			return a.Partition < b.Partition
		}
		return a.Offset < b.Offset
	})
	if o.Partition < 0 && !o.PerPartition && len(res.Messages) > o.N {
		if o.Latest {
			res.Messages = res.Messages[len(res.Messages)-o.N:]
		} else {
			res.Messages = res.Messages[:o.N]
		}
	}
	if o.Latest {
		// newest first, as consoles show the latest messages
		for i, j := 0, len(res.Messages)-1; i < j; i, j = i+1, j-1 {
			res.Messages[i], res.Messages[j] = res.Messages[j], res.Messages[i]
		}
	}
	return res, nil
}

// Rendering of message bytes.

// Encodings Render reports.
const (
	EncNull   = "null"
	EncJSON   = "json"
	EncText   = "text"
	EncBinary = "binary"
)

// Render shows message bytes: pretty JSON (two-space indent) for JSON,
// the text for other UTF-8 text, and for binary data a hex dump (16 bytes
// a line, offsets and printable characters) followed by the base64 form.
// It returns the encoding found.
func Render(b []byte) (enc, text string) {
	if b == nil {
		return EncNull, "(null)"
	}
	if t := bytes.TrimSpace(b); len(t) > 0 && (t[0] == '{' || t[0] == '[') && json.Valid(t) {
		var out bytes.Buffer
		if json.Indent(&out, t, "", "  ") == nil {
			return EncJSON, out.String()
		}
	}
	if utf8.Valid(b) && printable(b) {
		return EncText, string(b)
	}
	return EncBinary, hex.Dump(b) + "\nbase64: " + base64.StdEncoding.EncodeToString(b)
}

// Short shows message bytes on one line for a grid cell, at most n runes:
// compact JSON, text, or "0x…" hex for binary data.
func Short(b []byte, n int) string {
	var s string
	switch {
	case b == nil:
		return "(null)"
	case utf8.Valid(b) && printable(b):
		s = string(b)
		if t := bytes.TrimSpace(b); len(t) > 0 && (t[0] == '{' || t[0] == '[') {
			var c bytes.Buffer
			if json.Compact(&c, t) == nil {
				s = c.String()
			}
		}
		s = strings.Join(strings.Fields(s), " ")
	default:
		s = "0x" + hex.EncodeToString(b[:min(len(b), n/2)])
		if len(b) > n/2 {
			s += "…"
		}
		return s
	}
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return s
}

func printable(b []byte) bool {
	for _, r := range string(b) {
		if r < 0x20 && r != '\n' && r != '\r' && r != '\t' {
			return false
		}
	}
	return true
}
