// Package results keeps a query's changelog in a form that the result
// grid, the charts and the CSV exporter all read, without GUI imports.
//
// A Result receives rows with their RowKind (+I, -U, +U, -D) from the
// engine and offers two views of them, as Flink's SQL Client does:
//
//   - TableView: the materialised table. +I/+U append a row; -U/-D remove
//     the newest row whose fields are all equal; at most MaxTableRows rows
//     are kept (default 1,000,000, Flink's
//     sql-client.execution.max-table-result.rows), the oldest dropped first
//     and counted.
//   - ChangelogView: every change with its kind, the latest MaxChangelogRows
//     (default 10,000), older ones counted as dropped.
//
// Values are stored by column in typed slices (see vec.go), so a million
// rows of five scalar columns take tens of megabytes. Readers take cheap,
// consistent Snapshots of a window of rows as display text (Format) with
// NULL flags, or a Frozen copy of a whole view for export and charts. A
// Result is safe for one writer and any number of readers at once.
//
// Readers never wait long for the writer, so a UI goroutine can read a
// Result while a million rows pour in: batches are converted outside the
// lock and applied ingestRows rows per critical section; State, Stats, Len,
// Version and NeedsRefresh read counters published after every write and
// take no lock; Freeze (and ReadValues, SortBy) hold the read lock only to
// capture the chunk list (sealed chunks are immutable and shared, the one
// still written to is copied), in time proportional to the number of
// chunks, not rows.
package results

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/riffle-sql/riffle/engine/types"
)

// Defaults of Options.
const (
	DefaultMaxTableRows     = 1_000_000
	DefaultMaxChangelogRows = 10_000
)

// Column names a result column and gives its type.
type Column struct {
	Name string
	Type *types.DataType
}

// Options configure a Result.
type Options struct {
	// MaxTableRows caps the table view (0 = DefaultMaxTableRows, < 0 = no cap).
	MaxTableRows int
	// MaxChangelogRows caps the changelog view (0 = DefaultMaxChangelogRows,
	// < 0 = no cap).
	MaxChangelogRows int
	// Location is the session time zone used to show TIMESTAMP_LTZ values
	// (Flink's table.local-time-zone); nil = UTC.
	Location *time.Location
}

// View selects how a result is shown.
type View uint8

// The views.
const (
	TableView     View = iota // materialised: retractions applied
	ChangelogView             // every change with its RowKind
)

func (v View) String() string {
	if v == ChangelogView {
		return "changelog"
	}
	return "table"
}

// State is the lifecycle of the query feeding a Result.
type State uint8

// The states.
const (
	Running State = iota
	Finished
	Canceled
	Failed
)

func (s State) String() string {
	return [...]string{"RUNNING", "FINISHED", "CANCELED", "FAILED"}[s]
}

// ingestRows is the most rows AddRecord and AddRows apply under one write
// lock (a fraction of a millisecond), so that a reader waits at most that
// long for a writer, however large the batch.
const ingestRows = 1024

// ErrRunning is returned by SortBy while the query still runs.
var ErrRunning = errors.New("results: the query is still running")

// Result holds one query's changelog and its views.
type Result struct {
	cols  []Column
	specs []colSpec
	fmt   Formatter

	mu        sync.RWMutex
	tab       *table
	log       *changelog
	state     State
	err       error
	badValues int64
	sorted    *sortOrder

	version atomic.Uint64
	paused  atomic.Bool
	// pub is what State, Stats and Len read without the lock: republished
	// at the end of every write.
	pub atomic.Pointer[published]
	// bytesAt is log.total when Stats.Bytes was last measured.
	bytesAt int64

	// stageMu guards stage, the chunk batches are converted into outside
	// the lock (reused, so ingest does not allocate per batch).
	stageMu sync.Mutex
	stage   *chunk
}

// published are a Result's counters as of its last write.
type published struct {
	state       State
	err         error
	stats       Stats
	tableLen    int
	changelogLn int
}

// New creates an empty, running Result for the given columns.
func New(cols []Column, opts Options) *Result {
	if opts.MaxTableRows == 0 {
		opts.MaxTableRows = DefaultMaxTableRows
	}
	if opts.MaxChangelogRows == 0 {
		opts.MaxChangelogRows = DefaultMaxChangelogRows
	}
	r := &Result{cols: slices.Clone(cols), fmt: Formatter{Location: opts.Location}}
	r.specs = make([]colSpec, len(cols))
	for i, c := range cols {
		r.specs[i] = newColSpec(c.Name, c.Type)
	}
	r.tab = newTable(r.specs, opts.MaxTableRows)
	r.log = &changelog{specs: r.specs, max: opts.MaxChangelogRows}
	r.publishLocked()
	return r
}

// publishLocked republishes the counters (the write lock is held, or the
// Result is not shared yet). Stats.Bytes walks the chunks, so it is measured
// again only every chunkRows changes and when the state changes.
func (r *Result) publishLocked() {
	p := &published{state: r.state, err: r.err, tableLen: r.tab.live, changelogLn: r.log.visible()}
	bytes := 0
	if old := r.pub.Load(); old != nil && old.state == r.state && r.log.total-r.bytesAt < chunkRows {
		bytes = old.stats.Bytes
	} else {
		bytes = r.tab.bytes() + r.log.bytes()
		r.bytesAt = r.log.total
	}
	p.stats = Stats{
		Rows:             r.tab.live,
		Changes:          r.log.total,
		Dropped:          r.tab.dropped,
		ChangelogDropped: r.log.dropped(),
		Unmatched:        r.tab.unmatched,
		BadValues:        r.badValues,
		Bytes:            bytes,
	}
	r.pub.Store(p)
}

// Columns returns the result's columns.
func (r *Result) Columns() []Column { return r.cols }

// Formatter returns the formatter used for display text.
func (r *Result) Formatter() Formatter { return r.fmt }

// Add applies one change. values follow engine/types' value conventions
// (nil = NULL); a value of the wrong Go type is stored as NULL and
// reported as an error (the change is still applied).
func (r *Result) Add(kind types.RowKind, values []any) error {
	r.mu.Lock()
	err := r.addLocked(kind, values)
	r.changed()
	r.mu.Unlock()
	return err
}

// AddRow applies one row with its RowKind.
func (r *Result) AddRow(row *types.Row) error { return r.Add(row.Kind, row.Values) }

// AddRows applies a batch of rows; it returns the first error and still
// applies every row. The values are converted outside the lock and applied
// ingestRows at a time.
func (r *Result) AddRows(rows []*types.Row) error {
	var first error
	r.stageMu.Lock()
	defer r.stageMu.Unlock()
	st := r.staging()
	kinds := st.kinds[:0]
	for lo := 0; lo < len(rows); lo += ingestRows {
		hi := min(len(rows), lo+ingestRows)
		st.reset()
		kinds = kinds[:0]
		bad := 0
		for _, row := range rows[lo:hi] {
			if err := st.appendValues(row.Values); err != nil {
				bad++
				if first == nil {
					first = err
				}
			}
			kinds = append(kinds, row.Kind)
		}
		r.applyStaged(st, kinds, bad)
	}
	st.kinds = kinds[:0]
	return first
}

// staging returns the reused staging chunk (stageMu is held).
func (r *Result) staging() *chunk {
	if r.stage == nil {
		r.stage = newChunk(r.specs, 0, ingestRows)
	}
	return r.stage
}

// applyStaged applies the rows of a staging chunk (kinds nil = all
// INSERT) under one write lock; bad is how many of them had a value stored
// as NULL because it did not fit.
func (r *Result) applyStaged(st *chunk, kinds []types.RowKind, bad int) {
	n := st.n()
	if n == 0 {
		return
	}
	r.mu.Lock()
	for j := 0; j < n; j++ {
		kind := types.Insert
		if kinds != nil {
			kind = kinds[j]
		}
		c, off := r.log.addFrom(kind, st.cols, j)
		r.applyLogged(kind, c, off)
	}
	r.badValues += int64(bad)
	r.changed()
	r.mu.Unlock()
	// Let the goroutines that waited meanwhile (the UI's) run before the
	// next slice: a big batch then delays them by one slice, not by all.
	runtime.Gosched()
	if afterIngest != nil {
		afterIngest(r)
	}
}

// afterIngest, when set (tests), is called after each slice of AddRecord
// and AddRows has been applied and the lock released.
var afterIngest func(*Result)

func (r *Result) addLocked(kind types.RowKind, values []any) error {
	c, off, err := r.log.add(kind, values)
	if err != nil {
		r.badValues++
	}
	r.applyLogged(kind, c, off)
	return err
}

// applyLogged applies the change just stored in the changelog at (c, off)
// to the table.
func (r *Result) applyLogged(kind types.RowKind, c *chunk, off int) {
	if kind.IsRetract() {
		r.tab.retract(c.cols, off)
	} else {
		r.tab.insert(c.cols, off)
	}
}

// changed drops the sort order, republishes the counters and bumps the
// version (the write lock is held).
func (r *Result) changed() {
	r.sorted = nil
	r.publishLocked()
	r.version.Add(1)
}

// Finish marks the end of the query: err nil means it finished, a
// context.Canceled error that it was cancelled, anything else that it failed.
func (r *Result) Finish(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case err == nil:
		r.state = Finished
	case errors.Is(err, context.Canceled):
		r.state = Canceled
	default:
		r.state = Failed
	}
	r.err = err
	r.publishLocked()
	r.version.Add(1)
}

// State returns the query's state and its error (Failed, Canceled). It
// never blocks.
func (r *Result) State() (State, error) {
	p := r.pub.Load()
	return p.state, p.err
}

// Version increases with every change of the result (rows, state, sort
// order). A UI ticker compares it with the last one it drew to skip
// unchanged frames. It never blocks.
func (r *Result) Version() uint64 { return r.version.Load() }

// SetPaused pauses or resumes the view: while paused, NeedsRefresh reports
// false (the UI keeps its frame), and the Result keeps consuming changes.
func (r *Result) SetPaused(p bool) {
	r.paused.Store(p)
	if !p {
		r.version.Add(1) // resume publishes the latest snapshot
	}
}

// Paused reports whether the view is paused.
func (r *Result) Paused() bool { return r.paused.Load() }

// NeedsRefresh reports whether a UI that last drew version drawn should
// take a new snapshot: the result changed and the view is not paused.
func (r *Result) NeedsRefresh(drawn uint64) bool {
	return !r.paused.Load() && r.version.Load() != drawn
}

// Stats are counters of a Result.
type Stats struct {
	Rows             int   // rows in the table view
	Changes          int64 // changes received
	Dropped          int64 // table rows dropped by the cap
	ChangelogDropped int64 // changes no longer held by the changelog view
	Unmatched        int64 // retractions that matched no row (ignored, as Flink does)
	BadValues        int64 // changes with a value of the wrong type (stored as NULL)
	Bytes            int   // approximate heap bytes of the stored rows (measured every few thousand changes)
}

// Stats returns the counters as of the last change. It never blocks.
func (r *Result) Stats() Stats { return r.pub.Load().stats }

// Len returns the number of rows of a view. It never blocks.
func (r *Result) Len(v View) int {
	p := r.pub.Load()
	if v == ChangelogView {
		return p.changelogLn
	}
	return p.tableLen
}

func (r *Result) lenLocked(v View) int {
	if v == ChangelogView {
		return r.log.visible()
	}
	return r.tab.live
}

// scan visits rows from..to-1 of a view in display order.
func (r *Result) scan(v View, from, to int, fn func(c *chunk, off int) bool) {
	switch {
	case v == ChangelogView:
		r.log.scan(from, to, fn)
	case r.sorted != nil:
		from, to = max(from, 0), min(to, len(r.sorted.rows))
		for i := from; i < to; i++ {
			if !fn(r.sorted.at(i)) {
				return
			}
		}
	default:
		r.tab.scan(from, to, fn)
	}
}
