package session

import (
	"context"
	"io"
	"iter"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// Batches iterates the rows of a result, embedded or from a SQL Gateway,
// as batches: Arrow columns in the order of res.Schema(), plus one
// RowKind per row (+I, -U, +U, -D; a streaming query's changelog). The
// sequence ends after the last batch, or with one (nil, error) pair: the
// failure of the query's job, or ctx's error when ctx ended first (which
// stops the query: its job is cancelled). Breaking out of the loop also
// stops an unfinished query. Rows can be read once per result.
//
// The embedded engine hands on its batches as its job produces them; a
// gateway's rows are grouped a fetched page at a time, so a slow stream
// still shows each row as it comes.
func Batches(ctx context.Context, res table.StatementResult) iter.Seq2[*types.Batch, error] {
	return func(yield func(*types.Batch, error) bool) {
		if u, ok := res.(interface{ Unwrap() *table.TableResult }); ok {
			embeddedBatches(ctx, u.Unwrap(), yield)
			return
		}
		rowBatches(ctx, res, yield)
	}
}

func embeddedBatches(ctx context.Context, res *table.TableResult, yield func(*types.Batch, error) bool) {
	it, err := res.Collect()
	if err != nil {
		yield(nil, err)
		return
	}
	defer it.Close()
	for {
		b, err := it.NextBatch(ctx)
		if err == io.EOF {
			return
		}
		if err != nil {
			if ctx.Err() != nil {
				err = ctx.Err()
			}
			yield(nil, err)
			return
		}
		if b == nil || b.Len == 0 {
			continue
		}
		if !yield(b, nil) {
			return
		}
	}
}

// rowBatches groups a result's rows into batches: the rows an iterator
// has fetched (Buffered) go together.
func rowBatches(ctx context.Context, res table.StatementResult, yield func(*types.Batch, error) bool) {
	rows, err := res.Collect()
	if err != nil {
		yield(nil, err)
		return
	}
	defer rows.Close()
	if a, ok := rows.(interface{ Abort() }); ok {
		stop := context.AfterFunc(ctx, a.Abort)
		defer stop()
	}
	buffered, _ := rows.(interface{ Buffered() int })
	ts := res.Schema().FieldDataTypes()
	for {
		bb := types.NewBatchBuilder(ts)
		more := false
		for {
			if ctx.Err() != nil {
				yield(nil, ctx.Err())
				return
			}
			if more = rows.Next(); !more {
				break
			}
			r := rows.Row()
			if err := bb.Append(r.Kind, r.Values); err != nil {
				yield(nil, err)
				return
			}
			if buffered == nil || buffered.Buffered() == 0 || bb.Len() >= maxBatchRows {
				break
			}
		}
		if bb.Len() > 0 && !yield(bb.Build(), nil) {
			return
		}
		if !more {
			err := rows.Err()
			if err == nil {
				err = ctx.Err()
			}
			if err != nil {
				yield(nil, err)
			}
			return
		}
	}
}

// maxBatchRows bounds a batch grouped from rows.
const maxBatchRows = 4096
