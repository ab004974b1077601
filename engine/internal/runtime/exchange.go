package runtime

import (
	"context"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/riffle-sql/riffle/engine/types"
)

// DefaultChannelBytes is the default of JobConfig.ChannelBytes
// (riffle.exchange.max-bytes-per-channel): 1 MiB of batches may wait in
// one channel between two tasks, besides the count bound of
// JobConfig.ChannelCapacity batches.
const DefaultChannelBytes = 1 << 20

// byteBudget bounds the bytes of the batches waiting in one channel
// between tasks (and in a source's hand-off to its task), as Flink bounds
// a channel's in-flight data by its fixed number of fixed-size network
// buffers (taskmanager.network.memory.buffers-per-channel ×
// taskmanager.memory.segment-size). A producer acquires a batch's size
// before it sends the batch and waits while the bytes already waiting plus
// the batch's would exceed the limit (back-pressure); the consumer
// releases the size when it takes the batch out of the channel. A batch is
// always admitted into an empty channel, however large, so a batch over
// the limit passes alone and the budget never blocks a channel for good:
// the bytes waiting are at most max(limit, the largest batch).
//
// The fast path is one compare-and-swap per send and one atomic add plus
// one atomic load per receive; producers that must wait park on wake,
// which a release fills when someone waits.
type byteBudget struct {
	limit   int64
	used    atomic.Int64 // bytes acquired and not yet released
	waiters atomic.Int32 // producers waiting for room
	peak    atomic.Int64 // the most bytes ever acquired at once (tests)
	wake    chan struct{}
}

// newByteBudget returns a budget of limit bytes, or nil (no byte bound)
// when limit <= 0. A nil *byteBudget admits everything.
func newByteBudget(limit int64) *byteBudget {
	if limit <= 0 {
		return nil
	}
	return &byteBudget{limit: limit, wake: make(chan struct{}, 1)}
}

// tryAcquire takes n bytes if they fit (or nothing is waiting).
func (g *byteBudget) tryAcquire(n int64) bool {
	for {
		cur := g.used.Load()
		if cur != 0 && cur+n > g.limit {
			return false
		}
		if g.used.CompareAndSwap(cur, cur+n) {
			if cur+n > g.peak.Load() {
				g.peak.Store(cur + n) // racy max: a test's figure, not a bound
			}
			return true
		}
	}
}

// acquire takes n bytes, waiting while they do not fit; it returns
// whether it had to wait, or ctx's error if ctx ended first.
func (g *byteBudget) acquire(ctx context.Context, n int64) (waited bool, err error) {
	if g == nil || n <= 0 || g.tryAcquire(n) {
		return false, nil
	}
	for {
		// register first, then look again: a release that happens after
		// the look sees the waiter and fills wake
		g.waiters.Add(1)
		if g.tryAcquire(n) {
			g.waiters.Add(-1)
			g.passOn()
			return true, nil
		}
		select {
		case <-g.wake:
			g.waiters.Add(-1)
		case <-ctx.Done():
			g.waiters.Add(-1)
			return true, ctx.Err()
		}
		if g.tryAcquire(n) {
			g.passOn()
			return true, nil
		}
	}
}

// passOn wakes another waiting producer after one took its bytes, in case
// the room left is enough for it too.
func (g *byteBudget) passOn() {
	if g.waiters.Load() > 0 && g.used.Load() < g.limit {
		select {
		case g.wake <- struct{}{}:
		default:
		}
	}
}

// release gives back n bytes acquired before and wakes a waiting producer.
func (g *byteBudget) release(n int64) {
	if g == nil || n <= 0 {
		return
	}
	g.used.Add(-n)
	if g.waiters.Load() > 0 {
		select {
		case g.wake <- struct{}{}:
		default:
		}
	}
}

// inFlightBytes estimates the memory a batch keeps alive while it waits in
// a channel: for each column, the bytes of the rows it covers (validity
// bitmap, fixed-width values, the offsets and value bytes of strings and
// binaries; a slice of a larger array counts its rows only, since the
// array it views is held by whoever made the slice), plus its RowKinds.
// Nested columns count their whole Arrow buffers, dictionary columns
// their indices' and their dictionary's. It does
// not allocate.
func inFlightBytes(b *types.Batch) int64 {
	n := int64(len(b.Kinds))
	for _, c := range b.Cols {
		if c != nil {
			n += arrayDataBytes(c.Data())
		}
	}
	return n
}

func arrayDataBytes(d arrow.ArrayData) int64 {
	rows := int64(d.Len())
	bufs := d.Buffers()
	var n int64
	if len(bufs) > 0 && bufs[0] != nil {
		n += (rows + 7) / 8
	}
	switch t := d.DataType().(type) {
	case *arrow.DictionaryType:
		n = allBufferBytes(d)
		// Dictionary returns a typed nil *array.Data when there is none
		if dict, ok := d.Dictionary().(*array.Data); ok && dict != nil {
			n += allBufferBytes(dict)
		}
		return n
	case arrow.FixedWidthDataType:
		return n + (rows*int64(t.BitWidth())+7)/8
	case *arrow.StringType, *arrow.BinaryType:
		if len(bufs) > 1 && bufs[1] != nil {
			offs := arrow.Int32Traits.CastFromBytes(bufs[1].Bytes())
			if o := d.Offset(); o+int(rows) < len(offs) {
				return n + 4*(rows+1) + int64(offs[o+int(rows)]-offs[o])
			}
		}
	case *arrow.LargeStringType, *arrow.LargeBinaryType:
		if len(bufs) > 1 && bufs[1] != nil {
			offs := arrow.Int64Traits.CastFromBytes(bufs[1].Bytes())
			if o := d.Offset(); o+int(rows) < len(offs) {
				return n + 8*(rows+1) + offs[o+int(rows)] - offs[o]
			}
		}
	}
	return allBufferBytes(d)
}

// allBufferBytes sums the lengths of d's buffers and its children's.
func allBufferBytes(d arrow.ArrayData) int64 {
	var n int64
	for _, buf := range d.Buffers() {
		if buf != nil {
			n += int64(buf.Len())
		}
	}
	for _, c := range d.Children() {
		n += allBufferBytes(c)
	}
	return n
}
