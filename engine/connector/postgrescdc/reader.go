package postgrescdc

import (
	"context"
	"errors"
	"io"
	"math"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jackc/pglogrepl"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgproto3"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// reconnectWindow is how long a lost replication connection is retried
// (with backoff from 100ms to 5s) before the reader fails.
var reconnectWindow = 60 * time.Second

// statusInterval is how often the reader tells the server which LSN it
// has handed downstream (when that position moved).
const statusInterval = time.Second

// item is what the streaming goroutine hands to Next: a batch (nil for a
// transaction with no rows of the table), and the LSN to confirm once it is
// handed (0: none, e.g. a snapshot batch or a transaction's first batches).
type item struct {
	b   *types.Batch
	lsn pglogrepl.LSN
	err error
}

type reader struct {
	src       *Source
	t         *tableOptions
	spec      connector.ReadSpec
	splitName string
	active    []string

	cols     []pgColumn   // the projected columns' PostgreSQL columns, in spec order
	decoders []decodeFunc // per projected column
	outTypes []*types.DataType
	bb       *types.BatchBuilder

	conn     *pgx.Conn       // regular connection (snapshot); nil after it
	repl     *pgconn.PgConn  // replication connection
	replPID  uint32          // backend PID of the last replication connection
	snap     bool            // a snapshot transaction is open on conn
	snapOnly bool            // 'snapshot' startup mode: end after it
	startAt  pglogrepl.LSN   // where streaming starts (0: the slot's confirmed position)
	rels     map[uint32]*rel // relations seen in the stream

	items   chan item
	waiting func() // run while send waits for the query (streaming only)
	cancel  context.CancelFunc
	wg      sync.WaitGroup
	err     error // the error Next returned, returned again

	handed  atomic.Uint64 // end LSN of the last transaction Next returned in full
	walEnd  atomic.Uint64 // the server's WAL end last seen
	closeMu sync.Mutex
	closed  bool
}

// rel is a relation of the pgoutput stream.
type rel struct {
	ours bool
	// idx maps each projected column to its position in the relation's
	// tuples
	idx []int
}

// openReader does Open's synchronous part and starts the goroutine that
// reads the snapshot and the stream.
func openReader(ctx context.Context, s *Source, spec connector.ReadSpec) (_ *reader, err error) {
	t := s.t
	r := &reader{src: s, t: t, spec: spec, rels: map[uint32]*rel{}, items: make(chan item, 16),
		splitName: TableSplit{t.schema, t.tableName}.String()}
	r.active = []string{r.splitName}
	defer func() {
		if err != nil {
			r.closeConns()
			if ctx.Err() != nil {
				// cancelled while the server made the reader wait (a lock,
				// a slot waiting for running transactions): not a failure
				err = ctx.Err()
			}
		}
	}()
	if r.conn, err = t.connectRegular(ctx); err != nil {
		return nil, err
	}
	pgCols, err := t.tableColumns(ctx, r.conn)
	if err != nil {
		return nil, err
	}
	for _, c := range spec.Columns {
		name := s.physNames[c]
		i := findColumn(pgCols, name)
		if i == -2 {
			return nil, t.errorf("column %s matches several columns of %s that differ in case only", types.QuoteIdent(name), t.qualified())
		}
		if i < 0 {
			var names []string
			for _, pc := range pgCols {
				names = append(names, pc.Name)
			}
			return nil, t.errorf("column %s does not exist in PostgreSQL table %s; its columns are: %s", types.QuoteIdent(name), t.qualified(), strings.Join(names, ", "))
		}
		dec, err := decoderFor(pgCols[i], s.physTypes[c])
		if err != nil {
			return nil, t.errorf("%v", err)
		}
		r.cols = append(r.cols, pgCols[i])
		r.decoders = append(r.decoders, dec)
		r.outTypes = append(r.outTypes, s.physTypes[c])
	}
	meta := readableMetadata()
	for _, k := range spec.Metadata {
		r.outTypes = append(r.outTypes, meta[k])
	}
	r.bb = types.NewBatchBuilder(r.outTypes)
	if t.startup == StartupSnapshot {
		// the snapshot alone: no slot, no publication
		if _, err := r.conn.Exec(ctx, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"); err != nil {
			return nil, t.errorf("cannot begin the snapshot transaction: %v", err)
		}
		r.snap, r.snapOnly = true, true
		return r.start(), nil
	}
	if err := t.ensurePublication(ctx, r.conn); err != nil {
		return nil, err
	}
	if err := t.checkBeforeImages(ctx, r.conn); err != nil {
		return nil, err
	}
	slot, err := t.lookupSlot(ctx, r.conn)
	if err != nil {
		return nil, err
	}
	if r.repl, err = t.connectReplication(ctx); err != nil {
		return nil, err
	}
	switch t.startup {
	case StartupInitial:
		// a new slot exports the snapshot its stream starts after: the
		// snapshot and the stream meet with no gap and no overlap. An
		// existing slot cannot export one, so it is dropped and created
		// again (its old position has no use for a fresh snapshot).
		if slot.exists {
			if err := t.dropInactiveSlot(ctx, r.conn); err != nil {
				return nil, err
			}
		}
		res, err := pglogrepl.CreateReplicationSlot(ctx, r.repl, t.slot, "pgoutput",
			pglogrepl.CreateReplicationSlotOptions{Mode: pglogrepl.LogicalReplication, SnapshotAction: "EXPORT_SNAPSHOT"})
		if err != nil {
			return nil, t.slotError("create", err)
		}
		if r.startAt, err = pglogrepl.ParseLSN(res.ConsistentPoint); err != nil {
			return nil, t.errorf("bad consistent point %q of slot '%s'", res.ConsistentPoint, t.slot)
		}
		if _, err := r.conn.Exec(ctx, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"); err != nil {
			return nil, t.errorf("cannot begin the snapshot transaction: %v", err)
		}
		if _, err := r.conn.Exec(ctx, "SET TRANSACTION SNAPSHOT "+quoteLiteral(res.SnapshotName)); err != nil {
			return nil, t.errorf("cannot import the snapshot of slot '%s': %v", t.slot, err)
		}
		r.snap = true
	case StartupLatest:
		if slot.exists {
			// skip what the slot kept: stream from now on
			if _, err := r.conn.Exec(ctx, "SELECT pg_replication_slot_advance($1, pg_current_wal_lsn())", t.slot); err != nil {
				return nil, t.errorf("cannot advance replication slot '%s' to the current position: %v", t.slot, err)
			}
		} else {
			res, err := pglogrepl.CreateReplicationSlot(ctx, r.repl, t.slot, "pgoutput",
				pglogrepl.CreateReplicationSlotOptions{Mode: pglogrepl.LogicalReplication, SnapshotAction: "NOEXPORT_SNAPSHOT"})
			if err != nil {
				return nil, t.slotError("create", err)
			}
			if r.startAt, err = pglogrepl.ParseLSN(res.ConsistentPoint); err != nil {
				return nil, t.errorf("bad consistent point %q of slot '%s'", res.ConsistentPoint, t.slot)
			}
		}
		r.conn.Close(ctx)
		r.conn = nil
	case StartupCommitted:
		// resume where the slot's consumer left off (its
		// confirmed_flush_lsn); a new slot starts now
		if !slot.exists {
			res, err := pglogrepl.CreateReplicationSlot(ctx, r.repl, t.slot, "pgoutput",
				pglogrepl.CreateReplicationSlotOptions{Mode: pglogrepl.LogicalReplication, SnapshotAction: "NOEXPORT_SNAPSHOT"})
			if err != nil {
				return nil, t.slotError("create", err)
			}
			if r.startAt, err = pglogrepl.ParseLSN(res.ConsistentPoint); err != nil {
				return nil, t.errorf("bad consistent point %q of slot '%s'", res.ConsistentPoint, t.slot)
			}
		}
		r.conn.Close(ctx)
		r.conn = nil
	}
	return r.start(), nil
}

// start starts the goroutine that reads the snapshot and the stream.
func (r *reader) start() *reader {
	rctx, cancel := context.WithCancel(context.Background())
	r.cancel = cancel
	r.wg.Add(1)
	go r.run(rctx)
	return r
}

// run reads the snapshot (initial mode) and then the stream, handing rows
// to Next through r.items.
func (r *reader) run(ctx context.Context) {
	defer r.wg.Done()
	err := r.readSnapshot(ctx)
	if err == nil {
		if r.snapOnly {
			err = io.EOF
		} else {
			err = r.stream(ctx)
		}
	}
	if err != nil && ctx.Err() == nil {
		select {
		case r.items <- item{err: err}:
		case <-ctx.Done():
		}
	}
}

// send hands an item to Next; false when the reader is closing. While the
// query does not take it, r.waiting (set while streaming) runs every
// statusInterval, so that the server keeps hearing from the reader (it
// drops a silent client after wal_sender_timeout).
func (r *reader) send(ctx context.Context, it item) bool {
	select {
	case r.items <- it:
		return true
	case <-ctx.Done():
		return false
	default:
	}
	var tick <-chan time.Time
	if r.waiting != nil {
		t := time.NewTicker(statusInterval)
		defer t.Stop()
		tick = t.C
	}
	for {
		select {
		case r.items <- it:
			return true
		case <-ctx.Done():
			return false
		case <-tick:
			r.waiting()
		}
	}
}

// appendRow appends one row of decoded projected values with its kind and
// metadata.
func (r *reader) appendRow(kind types.RowKind, vals []any, opTs time.Time) error {
	row := make([]any, 0, len(r.outTypes))
	row = append(row, vals...)
	for _, k := range r.spec.Metadata {
		switch k {
		case MetaTableName:
			row = append(row, r.t.tableName)
		case MetaSchemaName:
			row = append(row, r.t.schema)
		case MetaDatabaseName:
			row = append(row, r.t.database)
		case MetaOpTs:
			row = append(row, opTs)
		case MetaRowKind:
			row = append(row, kind.ShortString())
		}
	}
	if r.t.appendOnly {
		kind = types.Insert
	}
	if err := r.bb.Append(kind, row); err != nil {
		return r.t.errorf("%v", err)
	}
	return nil
}

func (r *reader) readSnapshot(ctx context.Context) error {
	if !r.snap {
		return nil
	}
	defer func() {
		r.conn.Close(context.Background())
		r.conn = nil
	}()
	var sel []string
	for _, c := range r.cols {
		sel = append(sel, pgx.Identifier{c.Name}.Sanitize())
	}
	q := "SELECT " + strings.Join(sel, ", ") + " FROM " + r.t.qualified()
	rr := r.conn.PgConn().ExecParams(ctx, q, nil, nil, nil, nil)
	vals := make([]any, len(r.cols))
	epoch := time.Unix(0, 0).UTC()
	for rr.NextRow() {
		for i, raw := range rr.Values() {
			if raw == nil {
				vals[i] = nil
				continue
			}
			v, err := r.decoders[i](string(raw))
			if err != nil {
				rr.Close()
				return r.t.errorf("snapshot of %s: column %s: %v", r.t.qualified(), types.QuoteIdent(r.cols[i].Name), err)
			}
			vals[i] = v
		}
		if err := r.appendRow(types.Insert, vals, epoch); err != nil {
			rr.Close()
			return err
		}
		if r.bb.Len() >= r.t.fetchSize {
			if !r.send(ctx, item{b: r.bb.Build()}) {
				rr.Close()
				return ctx.Err()
			}
		}
	}
	if _, err := rr.Close(); err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return r.t.errorf("snapshot of %s failed: %v", r.t.qualified(), err)
	}
	if _, err := r.conn.Exec(ctx, "COMMIT"); err != nil && ctx.Err() == nil {
		return r.t.errorf("snapshot of %s: commit: %v", r.t.qualified(), err)
	}
	if r.bb.Len() > 0 {
		if !r.send(ctx, item{b: r.bb.Build()}) {
			return ctx.Err()
		}
	}
	return nil
}

// startReplication starts streaming the slot from r.startAt (0: the slot's
// confirmed position).
func (r *reader) startReplication(ctx context.Context) error {
	args := []string{"proto_version '1'", "publication_names " + quoteLiteral(r.t.publication)}
	err := pglogrepl.StartReplication(ctx, r.repl, r.t.slot, r.startAt, pglogrepl.StartReplicationOptions{PluginArgs: args})
	if err != nil {
		return err
	}
	setStreaming(r.repl)
	return nil
}

// fatalStreamError reports whether a streaming error must not be retried,
// and describes it.
func (r *reader) fatalStreamError(err error) (error, bool) {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code {
		case "42704": // undefined_object: the slot is gone
			return r.t.errorf("replication slot '%s' no longer exists (it was dropped while the query read it): %s; rerun the query to create it and take a new snapshot", r.t.slot, pe.Message), true
		case "28P01", "28000", "3D000", "42501":
			return r.t.connectError(err), true
		case "55006", "57P01", "57P02", "57P03", "53300", "08006", "08003", "08000", "08001":
			return err, false
		}
		if strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "57") {
			return err, false
		}
		return r.t.errorf("replication of slot '%s' failed: %s (SQLSTATE %s)", r.t.slot, pe.Message, pe.Code), true
	}
	return err, false
}

// reconnect opens a new replication connection and restarts streaming
// after the last transaction handed to Next's queue, retrying with backoff
// for reconnectWindow.
func (r *reader) reconnect(ctx context.Context, cause error) error {
	if r.repl != nil {
		r.replPID = r.repl.PID()
		r.repl.Close(context.Background())
		r.repl = nil
	}
	deadline := time.Now().Add(reconnectWindow)
	backoff := 100 * time.Millisecond
	last := cause
	for {
		if time.Now().After(deadline) {
			return r.t.errorf("lost the replication connection to PostgreSQL at %s and could not reconnect within %s: %v", r.t.addr(), reconnectWindow, last)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(backoff):
		}
		if backoff < 5*time.Second {
			backoff *= 2
		}
		c, err := r.t.connectReplication(ctx)
		if err != nil {
			var pe *pgconn.PgError
			if errors.As(err, &pe) && (pe.Code == "28P01" || pe.Code == "28000" || pe.Code == "3D000") {
				return err // already described by connectReplication
			}
			last = err
			continue
		}
		r.repl = c
		if err := r.startReplication(ctx); err != nil {
			c.Close(context.Background())
			r.repl = nil
			if e, fatal := r.fatalStreamError(err); fatal {
				return e
			}
			last = err
			continue
		}
		return nil
	}
}

// txn is the transaction being decoded.
type txn struct {
	commitTime time.Time
	rows       int
}

// stream reads the replication stream: rows of each committed transaction
// are handed to Next at its commit; the server is told the end LSN of the
// last transaction Next returned in full.
func (r *reader) stream(ctx context.Context) error {
	if err := r.startReplication(ctx); err != nil {
		if e, fatal := r.fatalStreamError(err); fatal {
			return e
		}
		if err := r.reconnect(ctx, err); err != nil {
			return err
		}
	}
	var (
		cur          *txn
		queued       = uint64(r.startAt) // end LSN of the last transaction queued
		sent         uint64              // flush position last reported
		idleWALEnd   uint64              // a keepalive's WAL end, confirmable when idle
		nextStatus   = time.Now().Add(statusInterval)
		lastKeepSent = time.Now()
	)
	if r.handed.Load() == 0 {
		r.handed.Store(uint64(r.startAt))
	}
	sendStatus := func(force bool) error {
		pos := r.handed.Load()
		if cur == nil && pos == queued && idleWALEnd > pos {
			pos = idleWALEnd
		}
		if !force && pos == sent && time.Since(lastKeepSent) < r.t.heartbeat {
			return nil
		}
		if pos == 0 {
			return nil
		}
		err := pglogrepl.SendStandbyStatusUpdate(ctx, r.repl, pglogrepl.StandbyStatusUpdate{WALWritePosition: pglogrepl.LSN(pos)})
		if err == nil {
			sent = pos
			lastKeepSent = time.Now()
		}
		return err
	}
	r.waiting = func() { _ = sendStatus(time.Since(lastKeepSent) >= 10*time.Second) }
	defer func() { r.waiting = nil }()
	defer func() {
		// a cancelled query reports the position it reached, from which
		// 'committed-offset' resumes
		if ctx.Err() != nil && r.repl != nil && !r.repl.IsClosed() {
			_ = sendStatus(true)
		}
	}()
	for {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		var err error
		if !time.Now().Before(nextStatus) {
			err = sendStatus(false)
			nextStatus = time.Now().Add(statusInterval)
		}
		var msg pgproto3.BackendMessage
		if err == nil {
			rctx, cancel := context.WithDeadline(ctx, nextStatus)
			msg, err = r.repl.ReceiveMessage(rctx)
			cancel()
			if err != nil && ctx.Err() == nil && pgconn.Timeout(err) {
				continue
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			if e, fatal := r.fatalStreamError(err); fatal {
				return e
			}
			// resume after the last transaction queued: the server skips
			// transactions that committed before it
			cur = nil
			r.bb.Build()
			r.startAt = pglogrepl.LSN(queued)
			if err := r.reconnect(ctx, err); err != nil {
				return err
			}
			continue
		}
		switch m := msg.(type) {
		case *pgproto3.CopyData:
			if len(m.Data) == 0 {
				continue
			}
			switch m.Data[0] {
			case pglogrepl.PrimaryKeepaliveMessageByteID:
				pkm, err := pglogrepl.ParsePrimaryKeepaliveMessage(m.Data[1:])
				if err != nil {
					return r.t.errorf("bad keepalive from the server: %v", err)
				}
				r.walEnd.Store(uint64(pkm.ServerWALEnd))
				if cur == nil && r.handed.Load() == queued {
					idleWALEnd = uint64(pkm.ServerWALEnd)
				}
				if pkm.ReplyRequested {
					if err := sendStatus(true); err != nil && ctx.Err() == nil {
						continue // the next receive reports the broken connection
					}
				}
			case pglogrepl.XLogDataByteID:
				xld, err := pglogrepl.ParseXLogData(m.Data[1:])
				if err != nil {
					return r.t.errorf("bad XLogData from the server: %v", err)
				}
				if uint64(xld.ServerWALEnd) > r.walEnd.Load() {
					r.walEnd.Store(uint64(xld.ServerWALEnd))
				}
				lm, err := pglogrepl.Parse(xld.WALData)
				if err != nil {
					return r.t.errorf("cannot decode a pgoutput message: %v", err)
				}
				switch lm := lm.(type) {
				case *pglogrepl.RelationMessage:
					if err := r.relation(lm); err != nil {
						return err
					}
				case *pglogrepl.BeginMessage:
					cur = &txn{commitTime: lm.CommitTime}
				case *pglogrepl.CommitMessage:
					if cur == nil {
						continue
					}
					end := lm.TransactionEndLSN
					var b *types.Batch
					if r.bb.Len() > 0 {
						b = r.bb.Build()
					}
					cur = nil
					if !r.send(ctx, item{b: b, lsn: end}) {
						return ctx.Err()
					}
					queued = uint64(end)
				case *pglogrepl.InsertMessage:
					if err := r.change(cur, lm.RelationID, nil, lm.Tuple, 'I'); err != nil {
						return err
					}
				case *pglogrepl.UpdateMessage:
					if err := r.change(cur, lm.RelationID, lm.OldTuple, lm.NewTuple, 'U'); err != nil {
						return err
					}
				case *pglogrepl.DeleteMessage:
					if err := r.change(cur, lm.RelationID, lm.OldTuple, nil, 'D'); err != nil {
						return err
					}
				case *pglogrepl.TruncateMessage:
					// skipped, as Debezium 1.9's truncate.handling.mode =
					// skip (Flink CDC's default) does
				}
			}
		case *pgproto3.ErrorResponse:
			err := pgconn.ErrorResponseToPgError(m)
			if e, fatal := r.fatalStreamError(err); fatal {
				return e
			}
			cur = nil
			r.bb.Build()
			r.startAt = pglogrepl.LSN(queued)
			if err := r.reconnect(ctx, err); err != nil {
				return err
			}
		case *pgproto3.CopyDone:
			cur = nil
			r.bb.Build()
			r.startAt = pglogrepl.LSN(queued)
			if err := r.reconnect(ctx, io.EOF); err != nil {
				return err
			}
		}
	}
}

// relation records a relation of the stream; for the captured table it
// maps the projected columns to the relation's columns.
func (r *reader) relation(m *pglogrepl.RelationMessage) error {
	rl := &rel{ours: m.Namespace == r.t.schema && m.RelationName == r.t.tableName}
	r.rels[m.RelationID] = rl
	if !rl.ours {
		return nil
	}
	cols := make([]pgColumn, len(m.Columns))
	for i, c := range m.Columns {
		cols[i] = pgColumn{Name: c.Name, TypeOID: c.DataType}
	}
	for _, want := range r.cols {
		j := findColumn(cols, want.Name)
		if j < 0 {
			return r.t.errorf("column %s no longer exists in PostgreSQL table %s (the table was altered while the query read it)", types.QuoteIdent(want.Name), r.t.qualified())
		}
		if cols[j].TypeOID != want.TypeOID {
			return r.t.errorf("column %s of PostgreSQL table %s changed its type while the query read it (type OID %d, was %d); rerun the query", types.QuoteIdent(want.Name), r.t.qualified(), cols[j].TypeOID, want.TypeOID)
		}
		rl.idx = append(rl.idx, j)
	}
	return nil
}

// decodeTuple decodes the projected columns of a tuple; fallback supplies
// unchanged TOASTed values (the old tuple of an update), may be nil.
func (r *reader) decodeTuple(rl *rel, tup *pglogrepl.TupleData, fallback []any) ([]any, error) {
	vals := make([]any, len(rl.idx))
	for i, j := range rl.idx {
		if j >= len(tup.Columns) {
			continue
		}
		c := tup.Columns[j]
		switch c.DataType {
		case pglogrepl.TupleDataTypeNull:
		case pglogrepl.TupleDataTypeToast:
			if fallback != nil {
				vals[i] = fallback[i]
			}
		case pglogrepl.TupleDataTypeText:
			v, err := r.decoders[i](string(c.Data))
			if err != nil {
				return nil, r.t.errorf("column %s: %v", types.QuoteIdent(r.cols[i].Name), err)
			}
			vals[i] = v
		default:
			return nil, r.t.errorf("column %s: unexpected tuple data kind %q", types.QuoteIdent(r.cols[i].Name), c.DataType)
		}
	}
	return vals, nil
}

// change turns an INSERT, UPDATE or DELETE of the captured table into
// rows.
func (r *reader) change(cur *txn, relID uint32, old *pglogrepl.TupleData, tup *pglogrepl.TupleData, op byte) error {
	rl, ok := r.rels[relID]
	if !ok || !rl.ours {
		return nil
	}
	ts := time.Unix(0, 0).UTC()
	if cur != nil {
		ts = cur.commitTime
		cur.rows++
	}
	var before []any
	if old != nil {
		var err error
		if before, err = r.decodeTuple(rl, old, nil); err != nil {
			return err
		}
	}
	switch op {
	case 'I':
		vals, err := r.decodeTuple(rl, tup, nil)
		if err != nil {
			return err
		}
		return r.appendRow(types.Insert, vals, ts)
	case 'U':
		after, err := r.decodeTuple(rl, tup, before)
		if err != nil {
			return err
		}
		if !r.t.upsert {
			if before == nil {
				return r.t.errorf("the \"before\" image of an UPDATE is missing: set the table's replica identity to FULL (ALTER TABLE %s REPLICA IDENTITY FULL) for 'changelog-mode' = 'all', or use 'changelog-mode' = 'upsert'", r.t.qualified())
			}
			if err := r.appendRow(types.UpdateBefore, before, ts); err != nil {
				return err
			}
		}
		return r.appendRow(types.UpdateAfter, after, ts)
	case 'D':
		if before == nil {
			return r.t.errorf("the \"before\" image of a DELETE is missing: set the table's replica identity to FULL (ALTER TABLE %s REPLICA IDENTITY FULL) or DEFAULT with a primary key", r.t.qualified())
		}
		return r.appendRow(types.Delete, before, ts)
	}
	return nil
}

// Next returns the next batch: snapshot rows first, then each committed
// transaction's rows. It blocks until a batch is due and returns ctx.Err()
// when ctx is cancelled.
func (r *reader) Next(ctx context.Context) (*types.Batch, error) {
	if r.err != nil {
		return nil, r.err
	}
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case it := <-r.items:
			if it.err != nil {
				r.err = it.err
				return nil, it.err
			}
			if it.lsn != 0 {
				r.handed.Store(uint64(it.lsn))
			}
			if it.b != nil && it.b.Len > 0 {
				return it.b, nil
			}
		}
	}
}

// BatchSplit names the one split ("schema.table").
func (r *reader) BatchSplit() string { return r.splitName }

// ActiveSplits is the one split.
func (r *reader) ActiveSplits() []string { return r.active }

// Progress reports the split's position: Offset is the LSN handed
// downstream, LogEnd the server's WAL end last seen.
func (r *reader) Progress() []connector.SplitProgress {
	off := int64(r.handed.Load())
	if off == 0 {
		off = -1
	}
	end := int64(r.walEnd.Load())
	if end == 0 {
		end = -1
	}
	return []connector.SplitProgress{{Split: r.splitName, Offset: off, LogEnd: end, Watermark: math.MinInt64}}
}

func (r *reader) closeConns() {
	if r.conn != nil {
		r.conn.Close(context.Background())
		r.conn = nil
	}
	if r.repl != nil {
		r.replPID = r.repl.PID()
		r.repl.Close(context.Background())
		r.repl = nil
	}
}

// Close stops the reader and closes its connections. The slot stays (its
// confirmed position is the last transaction returned by Next) unless
// 'debezium.slot.drop.on.stop' = 'true'. Safe to call twice.
func (r *reader) Close() error {
	r.closeMu.Lock()
	defer r.closeMu.Unlock()
	if r.closed {
		return nil
	}
	r.closed = true
	if r.cancel != nil {
		r.cancel()
	}
	r.wg.Wait()
	r.closeConns()
	if r.t.dropSlot {
		return r.dropSlot()
	}
	return nil
}

// dropSlot drops the slot once the walsender of this reader has let go of
// it; a slot another reader took over meanwhile is left alone.
func (r *reader) dropSlot() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := r.t.connectRegular(ctx)
	if err != nil {
		return err
	}
	defer c.Close(context.Background())
	// the highest position this reader knows: a slot created again by a
	// newer reader of the same name starts beyond it
	known := pglogrepl.LSN(r.walEnd.Load())
	if r.startAt > known {
		known = r.startAt
	}
	for {
		var pid *int64
		var restart *string
		err := c.QueryRow(ctx, "SELECT active_pid, restart_lsn::text FROM pg_replication_slots WHERE slot_name = $1", r.t.slot).Scan(&pid, &restart)
		if errors.Is(err, pgx.ErrNoRows) {
			return nil
		}
		if err != nil {
			return r.t.errorf("cannot drop replication slot '%s': %v", r.t.slot, err)
		}
		if restart != nil && known > 0 {
			if lsn, err := pglogrepl.ParseLSN(*restart); err == nil && lsn > known {
				return nil // not ours: created again after this reader stopped
			}
		}
		switch {
		case pid == nil:
			if _, err := c.Exec(ctx, "SELECT pg_drop_replication_slot($1)", r.t.slot); err != nil {
				var pe *pgconn.PgError
				if errors.As(err, &pe) && (pe.Code == "42704" || pe.Code == "55006") {
					return nil // gone, or taken by another reader
				}
				return r.t.errorf("cannot drop replication slot '%s': %v", r.t.slot, err)
			}
			return nil
		case uint32(*pid) != r.replPID:
			return nil // another reader streams it now
		}
		select {
		case <-ctx.Done():
			return r.t.errorf("cannot drop replication slot '%s': its walsender did not exit within 10 s", r.t.slot)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
