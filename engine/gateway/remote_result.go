package gateway

import (
	"context"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// RemoteResult is the result of a statement run on a gateway, with the
// shape of table.TableResult; it implements table.StatementResult.
type RemoteResult struct {
	eng       *RemoteEngine
	op        string
	first     *FetchResults
	kind      table.ResultKind
	schema    *table.TableSchema
	isQuery   bool
	jobID     string
	streaming bool
	zone      *time.Location
	maxWidth  int
	dmlSync   bool
	// plain: the rows are fetched in PLAIN_TEXT (every column a STRING as
	// Flink's SQL Client shows it), because Flink's JSON row format cannot
	// write them; see needsPlainText
	plain bool
	// ltzZone is set when TIMESTAMP_LTZ values arrive as wall-clock times
	// in this zone (Apache Flink's gateway): Next turns them into instants
	ltzZone *time.Location

	mu        sync.Mutex
	collected bool
	released  bool
	static    []*types.Row // rows of a result already read in full
}

// ResultKind returns SUCCESS or SUCCESS_WITH_CONTENT.
func (r *RemoteResult) ResultKind() table.ResultKind { return r.kind }

// Schema returns the result's columns.
func (r *RemoteResult) Schema() *table.TableSchema { return r.schema }

// GetResultKind is ResultKind, the compatibility name table.TableResult
// also has (PyFlink's get_result_kind).
func (r *RemoteResult) GetResultKind() table.ResultKind { return r.ResultKind() }

// GetTableSchema is Schema, the compatibility name table.TableResult also
// has (PyFlink's get_table_schema).
func (r *RemoteResult) GetTableSchema() *table.TableSchema { return r.Schema() }

// IsQuery reports a query result (isQueryResult).
func (r *RemoteResult) IsQuery() bool { return r.isQuery }

// IsStreaming reports a result of a streaming-mode session.
func (r *RemoteResult) IsStreaming() bool { return r.streaming }

// TimeZone is the session's table.local-time-zone.
func (r *RemoteResult) TimeZone() *time.Location { return r.zone }

// JobID is the job of a query or INSERT, or "".
func (r *RemoteResult) JobID() string { return r.jobID }

// GetJobID is JobID, the compatibility name JobClient also has.
func (r *RemoteResult) GetJobID() string { return r.JobID() }

// OperationHandle is the gateway's handle of the statement's operation.
func (r *RemoteResult) OperationHandle() string { return r.op }

// Message is the SQL Client's line for statements without rows, as the
// embedded engine gives it.
func (r *RemoteResult) Message() string {
	switch {
	case r.kind == table.Success:
		return "[INFO] Execute statement succeeded."
	case !r.isQuery && r.jobID != "":
		if r.dmlSync {
			return "[INFO] Complete execution of the SQL update statement."
		}
		return "[INFO] Submitting SQL update statement to the cluster...\n[INFO] SQL update statement has been successfully submitted to the cluster:\nJob ID: " + r.jobID
	}
	return ""
}

// pageURI is the URI of a next page in the result's row format (a
// gateway's nextResultUri repeats the format of the request before).
func (r *RemoteResult) pageURI(uri string) string {
	if !r.plain || uri == "" {
		return uri
	}
	return strings.Replace(uri, "rowFormat="+string(RowFormatJSON), "rowFormat="+string(RowFormatPlainText), 1)
}

// drainStatic reads a small non-query result in full and closes the
// operation.
func (r *RemoteResult) drainStatic(ctx context.Context) {
	fr := r.first
	rows := append([]*types.Row(nil), fr.Rows...)
	for fr.NextResultURI != "" && fr.ResultType != ResultEOS {
		next, err := r.eng.client.FetchURI(ctx, r.pageURI(fr.NextResultURI))
		if err != nil {
			return // leave it to Collect
		}
		fr = next
		rows = append(rows, fr.Rows...)
	}
	r.mu.Lock()
	r.static = rows
	r.mu.Unlock()
	r.release()
}

// release closes the operation on the gateway (once).
func (r *RemoteResult) release() {
	r.mu.Lock()
	done := r.released
	r.released = true
	r.mu.Unlock()
	if done {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, _ = r.eng.client.CloseOperation(ctx, r.eng.session, r.op)
}

// Collect returns an iterator over the rows. It follows nextResultUri page
// by page (fetching the next page while the current one is read) until
// EOS, polling empty pages with back-off. Close the iterator to close the
// operation (an unfinished query is cancelled). Rows can be collected
// once.
func (r *RemoteResult) Collect() (table.Rows, error) {
	it, err := r.CollectRows()
	if err != nil {
		return nil, err
	}
	return it, nil
}

// CollectRows is Collect returning the concrete iterator.
func (r *RemoteResult) CollectRows() (*RemoteRows, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.collected {
		return nil, table.ErrAlreadyCollected
	}
	r.collected = true
	it := &RemoteRows{res: r, ts: r.schema.GetFieldDataTypes(), names: r.schema.GetFieldNames()}
	if r.static != nil || r.released {
		it.rows = r.static
		it.done = true
		return it, nil
	}
	it.rows = r.first.Rows
	if r.first.ResultType == ResultEOS || r.first.NextResultURI == "" {
		it.done = true
		return it, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	it.cancel = cancel
	it.pages = make(chan pageOrErr, 1)
	go it.prefetch(ctx, r.pageURI(r.first.NextResultURI))
	return it, nil
}

// CollectContext is CollectRows bound to ctx: when ctx ends, fetching
// stops, Next returns false after the rows already fetched and Err returns
// ctx's error, and the operation is closed at once, which cancels an
// unfinished query's job on the gateway (Flink cancels it on the
// cluster). Close the iterator as usual.
func (r *RemoteResult) CollectContext(ctx context.Context) (*RemoteRows, error) {
	it, err := r.CollectRows()
	if err != nil {
		return nil, err
	}
	it.ctx = ctx
	it.stopCtx = context.AfterFunc(ctx, func() {
		it.Abort()
		r.release()
	})
	return it, nil
}

// Print writes the result to standard output in tableau layout.
func (r *RemoteResult) Print() error { return r.PrintTo(os.Stdout) }

// PrintTo writes the result in the SQL Client's tableau layout.
func (r *RemoteResult) PrintTo(w io.Writer) error {
	it, err := r.Collect()
	if err != nil {
		return err
	}
	defer it.Close()
	return table.PrintTableau(w, r.schema, it, table.TableauOptions{Streaming: r.isQuery && r.streaming, MaxColumnWidth: r.maxWidth, Zone: r.zone, NullAsEmpty: !r.isQuery})
}

type pageOrErr struct {
	rows []*types.Row
	err  error
}

// RemoteRows iterates a remote result (table.Rows).
type RemoteRows struct {
	res    *RemoteResult
	ts     []*types.DataType
	names  []string
	rows   []*types.Row
	pos    int
	row    *types.Row
	pages  chan pageOrErr
	cancel context.CancelFunc
	done   bool
	err    error
	closed bool
	// ctx and stopCtx are set by CollectContext
	ctx     context.Context
	stopCtx func() bool
}

// prefetch fetches pages ahead of the reader in a pipeline of two
// goroutines, so that fetching a page (the gateway encoding it, the
// transfer) overlaps decoding the previous one: the fetcher follows
// nextResultUri, backs off on empty pages and stops at EOS, on an error or
// when cancelled; the decoder turns pages into rows. At most one fetched
// and one decoded page wait, so memory stays bounded.
func (it *RemoteRows) prefetch(ctx context.Context, uri string) {
	raw := make(chan *FetchResults, 1)
	fetchErr := make(chan error, 1)
	go func() {
		defer close(raw)
		eng := it.res.eng
		wait := eng.opts.PollMin
		for uri != "" {
			fr, err := eng.client.fetchURI(ctx, uri, true)
			if err != nil {
				if ctx.Err() == nil {
					fetchErr <- err
				}
				return
			}
			if fr.ResultType == ResultEOS {
				return
			}
			if len(fr.rawData) > 2 { // not "[]"
				wait = eng.opts.PollMin
				select {
				case raw <- fr:
				case <-ctx.Done():
					return
				}
			} else if fr.NextResultURI != "" {
				if sleepCtx(ctx, wait) != nil {
					return
				}
				wait = min(wait*2, eng.opts.PollMax)
			}
			uri = it.res.pageURI(fr.NextResultURI)
		}
	}()
	defer close(it.pages)
	for fr := range raw {
		if err := fr.decodeData(); err != nil {
			it.send(ctx, pageOrErr{err: err})
			for range raw {
			}
			return
		}
		if len(fr.Rows) > 0 && !it.send(ctx, pageOrErr{rows: fr.Rows}) {
			for range raw {
			}
			return
		}
	}
	select {
	case err := <-fetchErr:
		it.send(ctx, pageOrErr{err: err})
	default:
	}
}

// send hands a page to the reader unless ctx ends first.
func (it *RemoteRows) send(ctx context.Context, p pageOrErr) bool {
	select {
	case it.pages <- p:
		return true
	case <-ctx.Done():
		return false
	}
}

// Next advances to the next row; false at the end or on error.
func (it *RemoteRows) Next() bool {
	for {
		if it.pos < len(it.rows) {
			it.row = it.rows[it.pos]
			it.rows[it.pos] = nil
			it.pos++
			if it.row.Names == nil {
				it.row.Names = it.names
			}
			if z := it.res.ltzZone; z != nil {
				for i, t := range it.ts {
					if i < len(it.row.Values) {
						it.row.Values[i] = wallClockToInstant(it.row.Values[i], t, z)
					}
				}
			}
			return true
		}
		if it.done || it.closed {
			if it.err == nil && it.ctx != nil && it.ctx.Err() != nil {
				it.err = it.ctx.Err()
			}
			it.finish()
			return false
		}
		p, ok := <-it.pages
		if !ok {
			it.done = true
			continue
		}
		if p.err != nil {
			it.err = p.err
			it.done = true
			continue
		}
		it.rows, it.pos = p.rows, 0
	}
}

// finish releases the operation once all rows are read.
func (it *RemoteRows) finish() {
	if it.stopCtx != nil {
		it.stopCtx()
	}
	if !it.closed {
		it.closed = true
		if it.cancel != nil {
			it.cancel()
		}
		it.res.release()
	}
}

// Row returns the current row. Rows are not reused: a row stays valid
// after Next.
func (it *RemoteRows) Row() *types.Row { return it.row }

// Buffered is how many rows Next returns without waiting for the gateway
// (the rest of the page fetched last): a reader that batches rows hands
// its batch on when it reaches 0.
func (it *RemoteRows) Buffered() int { return len(it.rows) - it.pos }

// Err returns the error that ended iteration: the gateway's error (a
// failed job) as *Error, or a transport error.
func (it *RemoteRows) Err() error { return it.err }

// Abort stops the fetching of pages; unlike the other methods it may be
// called from any goroutine, while another one waits in Next. Next then
// returns false after the rows already fetched (Err stays nil: check your
// own reason for aborting), and the reader's Close closes the operation,
// which cancels an unfinished query on the gateway.
func (it *RemoteRows) Abort() {
	if it.cancel != nil {
		it.cancel()
	}
}

// Close stops reading and closes the operation; the gateway cancels an
// unfinished query.
func (it *RemoteRows) Close() error {
	if it.stopCtx != nil {
		it.stopCtx()
	}
	if it.closed {
		return nil
	}
	it.closed = true
	if it.cancel != nil {
		it.cancel()
		for range it.pages { // let the prefetcher end
		}
	}
	it.res.release()
	return nil
}

// maxRememberedStatements bounds the job id → statement memory of a
// RemoteEngine (it is cleared when full).
const maxRememberedStatements = 10_000
