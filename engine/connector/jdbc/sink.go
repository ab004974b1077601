package jdbc

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// Sink writes a database table (Flink's JdbcDynamicTableSink): upserts and
// deletes by the PRIMARY KEY when the table declares one, plain INSERTs
// otherwise. Rows are buffered ('sink.buffer-flush.max-rows' /
// '.interval') and each flush is one transaction.
type Sink struct {
	t *tableOptions
}

var _ connector.Sink = (*Sink)(nil)

// ChangelogMode is [I, UA, D] with a primary key and [I] without one, so
// the planner refuses updating input into a table without a key.
func (s *Sink) ChangelogMode(types.ChangelogMode) types.ChangelogMode {
	if len(s.t.pk) == 0 {
		return types.InsertOnlyMode
	}
	return types.UpsertMode
}

// Parallelism is 'sink.parallelism' (0 when unset).
func (s *Sink) Parallelism() int { return s.t.sinkPar }

// Open connects a writer.
func (s *Sink) Open(ctx context.Context, spec connector.WriteSpec, index int) (connector.Writer, error) {
	d := s.t.endpoint.Dialect
	w := &writer{t: s.t, spec: spec, conv: types.NewRowConverter(spec.Types), keyOf: map[string]int{}}
	for _, k := range s.t.pk {
		i := indexOf(spec.Names, k)
		if i < 0 {
			return nil, s.t.errorf("primary key column '%s' is not among the written columns", k)
		}
		w.keyIdx = append(w.keyIdx, i)
	}
	if len(w.keyIdx) > 0 {
		w.upsertSQL = d.UpsertStatement(s.t.dbTable, spec.Names, s.t.pk)
		w.deleteSQL = d.DeleteStatement(s.t.dbTable, s.t.pk)
	} else {
		w.insertSQL = d.InsertStatement(s.t.dbTable, spec.Names)
	}
	c, err := connect(ctx, s.t)
	if err != nil {
		return nil, err
	}
	w.c = c
	w.ctx = ctx
	if s.t.flushInterval > 0 && s.t.flushMaxRows != 1 {
		w.stop = make(chan struct{})
		w.stopped = make(chan struct{})
		go w.flushLoop()
	}
	return w, nil
}

type bufferedRow struct {
	upsert bool // false: delete by key
	vals   []any
}

type writer struct {
	t    *tableOptions
	spec connector.WriteSpec
	conv *types.RowConverter

	keyIdx                          []int
	insertSQL, upsertSQL, deleteSQL string

	// ctx is the job's (Open's): the timer's flushes and Commit's last
	// one end when the job is cancelled, also while the database makes
	// them wait (a row lock another transaction holds)
	ctx     context.Context
	mu      sync.Mutex
	c       conn
	rows    []bufferedRow
	keyOf   map[string]int // key -> index in rows (upsert mode)
	count   int            // records added since the last flush (Flink's batchCount)
	err     error          // first flush failure of the timer
	stop    chan struct{}
	stopped chan struct{}
	closed  bool
}

// Write buffers the batch's rows, reducing them by key in upsert mode
// (Flink's TableBufferReducedStatementExecutor: the last change of a key
// wins; +I/+U upsert it, -D and -U delete it), and flushes when
// 'sink.buffer-flush.max-rows' records have been added.
func (w *writer) Write(ctx context.Context, b *types.Batch) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return w.t.errorf("write after the sink was closed")
	}
	d := w.t.endpoint.Dialect
	for _, r := range w.conv.Rows(b) {
		vals := make([]any, len(r.Values))
		for i, v := range r.Values {
			vals[i] = toDriver(d, v, w.spec.Types[i])
		}
		if len(w.keyIdx) == 0 {
			if r.Kind != types.Insert {
				return w.t.errorf("the table has no PRIMARY KEY, so it takes inserts only, but got a %s row", r.Kind.ShortString())
			}
			w.rows = append(w.rows, bufferedRow{upsert: true, vals: vals})
		} else {
			up := r.Kind == types.Insert || r.Kind == types.UpdateAfter
			if !up {
				keys := make([]any, len(w.keyIdx))
				for i, k := range w.keyIdx {
					keys[i] = vals[k]
				}
				vals = keys
			}
			key := w.keyString(r.Values)
			if i, ok := w.keyOf[key]; ok {
				w.rows[i] = bufferedRow{upsert: up, vals: vals}
			} else {
				w.keyOf[key] = len(w.rows)
				w.rows = append(w.rows, bufferedRow{upsert: up, vals: vals})
			}
		}
		w.count++
		if w.t.flushMaxRows > 0 && w.count >= w.t.flushMaxRows {
			if err := w.flushLocked(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *writer) keyString(vals []any) string {
	var b strings.Builder
	for _, k := range w.keyIdx {
		b.WriteString(types.FormatValue(vals[k]))
		b.WriteByte(0)
	}
	return b.String()
}

// flushLocked writes the buffer as one transaction, retrying up to
// 'sink.max-retries' times (1 s, 2 s, ... apart, on a new connection) unless
// the failure is one a retry cannot fix (bad data, a constraint violation,
// a missing table). On failure nothing of the batch is in the table.
func (w *writer) flushLocked(ctx context.Context) error {
	if len(w.rows) == 0 {
		w.count = 0
		return nil
	}
	stmts := make([]statement, len(w.rows))
	for i, r := range w.rows {
		switch {
		case w.insertSQL != "":
			stmts[i] = statement{w.insertSQL, r.vals}
		case r.upsert:
			stmts[i] = statement{w.upsertSQL, r.vals}
		default:
			stmts[i] = statement{w.deleteSQL, r.vals}
		}
	}
	var err error
	formatted := false // err is a connect error, already worded
	for attempt := 0; attempt <= w.t.sinkRetries; attempt++ {
		if attempt > 0 {
			select {
			case <-time.After(time.Duration(attempt) * time.Second):
			case <-ctx.Done():
				return ctx.Err()
			}
			if w.c != nil {
				w.c.close()
				w.c = nil
			}
			c, cerr := connect(ctx, w.t)
			if cerr != nil {
				err, formatted = cerr, true
				continue
			}
			w.c = c
		}
		if w.c == nil {
			continue
		}
		formatted = false
		if err = w.c.execBatch(ctx, stmts); err == nil {
			w.rows = w.rows[:0]
			clear(w.keyOf)
			w.count = 0
			return nil
		}
		if permanent(err) || ctx.Err() == context.Canceled {
			break
		}
	}
	n := len(w.rows)
	w.rows = w.rows[:0]
	clear(w.keyOf)
	w.count = 0
	if ctx.Err() == context.Canceled {
		// the job was cancelled: not a failure of the database
		return ctx.Err()
	}
	if !formatted {
		err = w.t.queryError("writing", err)
	}
	rows := "rows"
	if n == 1 {
		rows = "row"
	}
	return fmt.Errorf("%w (a batch of %d %s was not written; the transaction was rolled back)", err, n, rows)
}

func (w *writer) flushLoop() {
	defer close(w.stopped)
	tick := time.NewTicker(w.t.flushInterval)
	defer tick.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-tick.C:
			w.mu.Lock()
			if w.err == nil && !w.closed && len(w.rows) > 0 {
				ctx, cancel := context.WithTimeout(w.ctx, w.t.maxRetryTimeout*time.Duration(w.t.sinkRetries+2))
				w.err = w.flushLocked(ctx)
				cancel()
			}
			w.mu.Unlock()
		}
	}
}

func (w *writer) stopTimer() {
	if w.stop != nil {
		close(w.stop)
		<-w.stopped
		w.stop = nil
	}
}

// Commit flushes what is buffered (the last batch of a bounded INSERT)
// and closes the connection; it reports the first failed flush.
func (w *writer) Commit() error {
	w.stopTimer()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return w.err
	}
	err := w.err
	if err == nil {
		err = w.flushLocked(w.ctx)
	}
	w.closed = true
	if w.c != nil {
		w.c.close()
	}
	return err
}

// Abort drops the buffer and closes the connection (a flush in progress
// rolls back its transaction; flushed batches stay committed).
func (w *writer) Abort() {
	w.stopTimer()
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	w.closed = true
	w.rows = nil
	if w.c != nil {
		w.c.close()
	}
}
