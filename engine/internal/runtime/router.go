package runtime

import (
	"context"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/riffle-sql/riffle/engine/internal/opspec"
	"github.com/riffle-sql/riffle/engine/types"
	"github.com/riffle-sql/riffle/engine/vector"
)

// router delivers a task's output to the input channels of its
// consumers' instances according to each edge's partitioning.
type router struct {
	ctx     context.Context
	inst    int
	targets []target
	m       *OperatorMetrics
	rr      int
	idle    bool
	sized   bool // the channels have byte budgets: size each batch
}

// setIdle broadcasts a change of this task's watermark status.
func (r *router) setIdle(idle bool) {
	if idle == r.idle {
		return
	}
	r.idle = idle
	kind := evActive
	if idle {
		kind = evIdle
	}
	_ = r.broadcast(event{kind: kind})
}

type target struct {
	part  opspec.Partitioning
	keys  []int
	chans []*channel // one per consumer instance (this input)
	pool  *keyGroupPool
}

func (e *executor) newRouter(ctx context.Context, n *Node, inst int) *router {
	r := &router{ctx: ctx, inst: inst, m: n.metrics, sized: e.cfg.ChannelBytes > 0}
	for _, c := range n.consumers {
		for in, edge := range c.Inputs {
			if edge.From != n {
				continue
			}
			chans := make([]*channel, c.Parallelism)
			for k := range chans {
				chans[k] = e.inbound[c.ID][k][in]
			}
			r.targets = append(r.targets, target{part: edge.Part, keys: edge.Keys, chans: chans, pool: chans[0].pool})
		}
	}
	return r
}

// send puts ev into channel c, waiting while c is full by count
// (JobConfig.ChannelCapacity events) or, for a batch, by bytes
// (JobConfig.ChannelBytes, ev.size being the batch's inFlightBytes).
func (r *router) send(c *channel, ev event) error {
	if ev.size > 0 && c.budget != nil && !c.budget.tryAcquire(ev.size) {
		// counted before waiting, so that a stalled job shows it
		r.m.Backpressure.Add(1)
		if _, err := c.budget.acquire(r.ctx, ev.size); err != nil {
			return err
		}
	}
	select {
	case c.c <- ev:
		return nil
	default:
	}
	r.m.Backpressure.Add(1)
	select {
	case c.c <- ev:
		return nil
	case <-r.ctx.Done():
		c.budget.release(ev.size)
		return r.ctx.Err()
	}
}

// data is the event carrying b, sized for the byte budgets.
func data(b *types.Batch, producer int, sized bool) event {
	ev := event{kind: evData, batch: b, producer: producer}
	if sized {
		ev.size = inFlightBytes(b)
	}
	return ev
}

// producer id of this instance at a consumer: forward edges have a single
// producer per consumer instance.
func (r *router) producerID(t target) int {
	if t.part == opspec.Forward {
		return 0
	}
	return r.inst
}

func (r *router) Emit(b *types.Batch) error {
	if b == nil || b.Len == 0 {
		return nil
	}
	for _, t := range r.targets {
		pid := r.producerID(t)
		switch t.part {
		case opspec.Forward:
			if err := r.send(t.chans[r.inst], data(b, pid, r.sized)); err != nil {
				return err
			}
		case opspec.Single:
			if err := r.send(t.chans[0], data(b, pid, r.sized)); err != nil {
				return err
			}
		case opspec.Broadcast:
			// one size for every copy: each channel holds the batch
			ev := data(b, pid, r.sized)
			for _, c := range t.chans {
				if err := r.send(c, ev); err != nil {
					return err
				}
			}
		case opspec.Rebalance:
			r.rr = (r.rr + 1) % len(t.chans)
			if err := r.send(t.chans[r.rr], data(b, pid, r.sized)); err != nil {
				return err
			}
		case opspec.Hash:
			if t.pool != nil {
				t.pool.add(b, t.keys)
				continue
			}
			if len(t.chans) == 1 {
				if err := r.send(t.chans[0], data(b, pid, r.sized)); err != nil {
					return err
				}
				continue
			}
			parts := PartitionBatch(b, t.keys, len(t.chans))
			for k, p := range parts {
				if p == nil {
					continue
				}
				if err := r.send(t.chans[k], data(p, pid, r.sized)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (r *router) EmitWatermark(wm int64) error {
	return r.broadcast(event{kind: evWatermark, wm: wm})
}

func (r *router) end() error { return r.broadcast(event{kind: evEnd}) }

func (r *router) broadcast(ev event) error {
	for _, t := range r.targets {
		ev.producer = r.producerID(t)
		switch t.part {
		case opspec.Forward:
			if err := r.send(t.chans[r.inst], ev); err != nil {
				return err
			}
		case opspec.Single:
			if err := r.send(t.chans[0], ev); err != nil {
				return err
			}
		default:
			for _, c := range t.chans {
				if err := r.send(c, ev); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// PartitionBatch splits a batch into n parts by the hash of its key
// columns (nil parts are empty). Rows keep their relative order.
func PartitionBatch(b *types.Batch, keys []int, n int) []*types.Batch {
	hashes := make([]uint64, b.Len)
	for _, k := range keys {
		HashColumn(b.Cols[k], hashes)
	}
	idx := make([][]int32, n)
	for i, h := range hashes {
		p := int(h % uint64(n))
		idx[p] = append(idx[p], int32(i))
	}
	out := make([]*types.Batch, n)
	for p, sel := range idx {
		if len(sel) == 0 {
			continue
		}
		if len(sel) == b.Len {
			out[p] = b
			continue
		}
		cols := make([]arrow.Array, len(b.Cols))
		for c, col := range b.Cols {
			cols[c] = vector.Take(col, sel)
		}
		var kinds []types.RowKind
		if b.Kinds != nil {
			kinds = make([]types.RowKind, len(sel))
			for i, s := range sel {
				kinds[i] = b.Kinds[s]
			}
		}
		out[p] = &types.Batch{Cols: cols, Kinds: kinds, Len: len(sel)}
	}
	return out
}
