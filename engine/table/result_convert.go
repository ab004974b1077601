package table

import (
	"context"
	"runtime/pprof"
	"strconv"

	"github.com/riffle-sql/riffle/engine/types"
)

// rowConversion turns a query's result batches into rows (Go values) on
// several goroutines while the reader consumes earlier rows: boxing 3 M
// rows of three columns costs about as much CPU as the job that computed
// them (bench's OVER query), so with one converter the reader's goroutine
// was the serial part of a two-thread query. It starts once the reader
// asks for a row's values (RowIterator.Row): a reader that only counts
// rows converts nothing. A reader goroutine takes the
// batches from the collector in order and hands each to the next free
// converter (each with its own types.RowConverter); RowIterator.Next takes
// them back in the collector's order. It reads at most 3 × workers batches
// ahead of Next.
//
// The converters write each batch's values into one block
// (types.RowConverter.ValueBlock); Row makes the batch's rows over it. A
// block whose rows nobody asked for (a reader of Values) comes back
// through free once Next has passed its batch, so such a reader's values
// go through a few cache-resident blocks instead of a new block a batch
// (3 M rows of three columns: 144 MB of values, and Row's 168 MB of rows,
// less to allocate and zero).
type rowConversion struct {
	order  chan *convertedBatch
	free   chan []any
	cancel context.CancelFunc
}

// convertedBatch is one batch on its way through the converters: vals is
// set (or err, the collector's io.EOF or error) once done is closed.
type convertedBatch struct {
	b    *types.Batch
	vals []any
	err  error
	done chan struct{}
}

// startRowConversion starts the reader and workers converters for the
// result of it; they stop at the collector's end or error, or when ctx
// (or the returned conversion's cancel) ends.
func startRowConversion(it *RowIterator, workers int) *rowConversion {
	ctx, cancel := context.WithCancel(it.ctx)
	work := make(chan *convertedBatch, workers)
	rc := &rowConversion{order: make(chan *convertedBatch, 2*workers), free: make(chan []any, 4*workers), cancel: cancel}
	res := it.res
	for w := range workers {
		conv := types.NewRowConverter(res.schema.types)
		go func() {
			// CPU profiles name them as the job's tasks are named
			// (runtime's task and subtask labels)
			labels := pprof.Labels("task", "result rows", "subtask", strconv.Itoa(w))
			pprof.Do(ctx, labels, func(context.Context) {
				for cb := range work {
					var reuse []any
					select {
					case reuse = <-rc.free:
					default:
					}
					cb.vals = conv.ValueBlock(cb.b, reuse)
					close(cb.done)
				}
			})
		}()
	}
	go func() {
		defer close(rc.order)
		defer close(work)
		for {
			cb := &convertedBatch{done: make(chan struct{})}
			if p := res.takePending(); p != nil {
				cb.b = p
			} else {
				cb.b, cb.err = res.collector.Next(ctx)
			}
			if cb.err == nil && cb.b.Len == 0 {
				continue
			}
			if cb.err != nil {
				close(cb.done)
			} else {
				select {
				case work <- cb:
				case <-ctx.Done():
					return
				}
			}
			select {
			case rc.order <- cb:
			case <-ctx.Done():
				return
			}
			if cb.err != nil {
				return
			}
		}
	}()
	return rc
}

// recycle gives back a block no row refers to (nil: none); it is dropped
// when enough are waiting.
func (rc *rowConversion) recycle(vals []any) {
	if vals == nil {
		return
	}
	select {
	case rc.free <- vals:
	default:
	}
}

// next returns the next converted batch and its block of values; io.EOF
// at the end, the job's or ctx's error.
func (rc *rowConversion) next(ctx context.Context) (*types.Batch, []any, error) {
	cb, ok := <-rc.order
	if !ok {
		// the reader stopped on ctx's end, or on cancel's (Close), before
		// handing over its error
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		return nil, nil, context.Canceled
	}
	<-cb.done
	if cb.err != nil {
		return nil, nil, cb.err
	}
	return cb.b, cb.vals, nil
}
