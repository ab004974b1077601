package kafka

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
)

// Exactly-once delivery ('sink.delivery-guarantee' = 'exactly-once'): the
// rows a writer receives between two checkpoints go into one Kafka
// transaction, as Flink's KafkaSink writes them. The transaction is
// flushed when the checkpoint's barrier reaches the writer (PrepareCommit:
// every record acknowledged, the transaction still open) and committed
// once the checkpoint is complete (CommitCheckpoint); the next rows open a
// new transaction under a new transactional id.
//
// Transactional ids are '<prefix>-<subtask>-<n>' with n = 1, 2, … counted
// per writer (Flink's incrementing naming). A committable records the
// id, producer id and epoch of the prepared transaction and the n the
// writer goes on with, so that a job resumed from the checkpoint commits
// the transaction (an EndTxn request with the saved producer id and epoch,
// as Flink's resumed producer does) and then, before writing, aborts what
// the interrupted run left open under the ids that follow: it sends
// InitProducerId for n, n+1, … (which fences and aborts an open
// transaction) until an id the brokers have never seen (epoch 0).

// defaultTxnTimeout is the transaction.timeout.ms Flink's KafkaSink sets
// when the table does not (one hour; brokers allow 15 minutes unless
// transaction.max.timeout.ms is raised).
const defaultTxnTimeout = time.Hour

// txnCommittable is what PrepareCommit of one checkpoint returns (JSON).
type txnCommittable struct {
	// Next is the number of the transactional id the writer writes its
	// next rows under.
	Next int64 `json:"next"`
	// ID, PID and Epoch name the prepared transaction; ID is empty when
	// no row was written since the previous checkpoint.
	ID    string `json:"id,omitempty"`
	PID   int64  `json:"pid,omitempty"`
	Epoch int16  `json:"epoch,omitempty"`
}

// txnState is the transactional side of a writer.
type txnState struct {
	mu       sync.Mutex
	timeout  time.Duration
	cur      *kgo.Client // the open transaction; nil until a row comes
	curSeq   int64
	curRecs  bool
	next     int64 // number of the id the next transaction opens under
	probed   bool  // lingering transactions of an earlier run aborted
	prepared map[string]*kgo.Client
	opts     []kgo.Opt
}

// checkExactlyOnce validates exactly-once delivery when the sink is
// created: the transaction timeout and its relation to the checkpoint
// interval, acknowledgements, and checkpointing itself.
func checkExactlyOnce(ctx *connector.Context, t *tableOptions) (time.Duration, error) {
	timeout := defaultTxnTimeout
	if v := strings.TrimSpace(t.props["transaction.timeout.ms"]); v != "" {
		n, err := strconv.ParseInt(v, 10, 32)
		if err != nil || n <= 0 {
			return 0, t.errorf("invalid 'properties.transaction.timeout.ms' value '%s': expected a positive number of milliseconds", v)
		}
		timeout = time.Duration(n) * time.Millisecond
	}
	switch strings.TrimSpace(t.props["acks"]) {
	case "0", "1":
		return 0, t.errorf("'sink.delivery-guarantee' = 'exactly-once' writes Kafka transactions, which need 'properties.acks' = 'all' (or unset), not '%s'", t.props["acks"])
	}
	if ctx.Config == nil || ctx.Config.IsBatch() {
		// a batch job commits its one transaction at the end of input,
		// as Flink's KafkaSink does without checkpoints
		return timeout, nil
	}
	interval := ctx.Config.GetDuration(config.CheckpointingInterval.Key, 0)
	if interval <= 0 {
		return 0, t.errorf("'sink.delivery-guarantee' = 'exactly-once' commits Kafka transactions when checkpoints complete, but checkpointing is off: set 'execution.checkpointing.interval' (without it a streaming job's rows would never become visible), or use 'at-least-once'")
	}
	if timeout <= interval {
		return 0, t.errorf("'properties.transaction.timeout.ms' (%v) must be longer than 'execution.checkpointing.interval' (%v): the brokers abort a transaction open longer than its timeout, and each stays open at least one interval until its checkpoint completes", timeout, interval)
	}
	return timeout, nil
}

func (w *writer) txnID(seq int64) string {
	return fmt.Sprintf("%s-%d-%d", w.s.t.txnPrefix, w.index, seq)
}

// txnCtx bounds a transactional request by the API timeout; publishing
// is not cancelled with the job (a checkpoint on disk is committed).
func (w *writer) txnCtx(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, w.s.t.apiTimeout()+5*time.Second)
}

// txnProduce writes rec into the open transaction, opening one first.
func (w *writer) txnProduce(rec *kgo.Record) {
	x := w.txn
	x.mu.Lock()
	defer x.mu.Unlock()
	if err := w.beginLocked(); err != nil {
		w.setErr(err)
		return
	}
	x.curRecs = true
	x.cur.Produce(w.ctx, rec, func(r *kgo.Record, err error) {
		if err != nil && !errors.Is(err, context.Canceled) {
			w.setErr(w.s.t.brokerError(fmt.Sprintf("cannot write to topic '%s' in transaction '%s'", r.Topic, w.txnID(x.curSeq)), err))
		}
	})
}

// beginLocked opens the next transaction unless one is open.
func (w *writer) beginLocked() error {
	x := w.txn
	if x.cur != nil {
		return nil
	}
	if err := w.probeLocked(); err != nil {
		return err
	}
	id := w.txnID(x.next)
	cl, err := w.s.t.newClient(append(append([]kgo.Opt(nil), x.opts...),
		kgo.TransactionalID(id), kgo.TransactionTimeout(x.timeout))...)
	if err != nil {
		return err
	}
	if err := cl.BeginTransaction(); err != nil {
		cl.Close()
		return w.s.t.errorf("cannot begin Kafka transaction '%s': %v", id, err)
	}
	x.cur, x.curSeq, x.curRecs = cl, x.next, false
	x.next++
	return nil
}

// probeLocked aborts, once, the transactions an earlier run of this
// writer left open under ids from x.next on.
func (w *writer) probeLocked() error {
	x := w.txn
	if x.probed {
		return nil
	}
	if x.next < 1 {
		x.next = 1
	}
	for seq := x.next; ; seq++ {
		epoch, err := w.initProducerID(w.txnID(seq))
		if err != nil {
			return err
		}
		if epoch == 0 {
			break
		}
	}
	x.probed = true
	return nil
}

// retriableTxnErr reports the coordinator's answers worth retrying.
func retriableTxnErr(err error) bool {
	return errors.Is(err, kerr.ConcurrentTransactions) || errors.Is(err, kerr.CoordinatorLoadInProgress) ||
		errors.Is(err, kerr.NotCoordinator) || errors.Is(err, kerr.CoordinatorNotAvailable)
}

// initProducerID sends InitProducerId for a transactional id: it fences
// any producer of that id and aborts its open transaction. The epoch is 0
// for an id the brokers had not seen.
func (w *writer) initProducerID(id string) (int16, error) {
	t := w.s.t
	ctx, cancel := w.txnCtx(context.WithoutCancel(w.ctx))
	defer cancel()
	for {
		req := kmsg.NewPtrInitProducerIDRequest()
		req.TransactionalID = &id
		req.TransactionTimeoutMillis = int32(w.txn.timeout / time.Millisecond)
		req.ProducerID, req.ProducerEpoch = -1, -1
		resp, err := req.RequestWith(ctx, w.cl)
		if err == nil {
			err = kerr.ErrorForCode(resp.ErrorCode)
		}
		switch {
		case err == nil:
			return resp.ProducerEpoch, nil
		case errors.Is(err, kerr.InvalidTransactionTimeout):
			return 0, t.errorf("the Kafka brokers at '%s' refuse 'properties.transaction.timeout.ms' = %d (default: Flink's one hour): it is larger than the brokers' transaction.max.timeout.ms (15 minutes unless raised); lower it", t.props["bootstrap.servers"], w.txn.timeout/time.Millisecond)
		case retriableTxnErr(err) && ctx.Err() == nil:
			if werr := sleepCtx(ctx, 50*time.Millisecond); werr != nil {
				return 0, t.brokerError("cannot abort the open Kafka transaction '"+id+"'", werr)
			}
		default:
			return 0, t.brokerError("cannot abort the open Kafka transaction '"+id+"'", err)
		}
	}
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	tm := time.NewTimer(d)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}

// txnPrepare implements PrepareCommit for exactly-once delivery.
func (w *writer) txnPrepare(ctx context.Context) ([]byte, error) {
	if w.buf != nil {
		w.flushBuffer()
	}
	x := w.txn
	x.mu.Lock()
	defer x.mu.Unlock()
	if err := w.firstErr(); err != nil {
		return nil, err
	}
	if err := w.probeLocked(); err != nil {
		return nil, err
	}
	if x.cur == nil || !x.curRecs {
		// nothing written: the open transaction (if any) goes on
		next := x.next
		if x.cur != nil {
			next = x.curSeq
		}
		return json.Marshal(txnCommittable{Next: next})
	}
	id := w.txnID(x.curSeq)
	fctx, cancel := w.txnCtx(ctx)
	defer cancel()
	if err := x.cur.Flush(fctx); err != nil {
		return nil, w.s.t.brokerError("cannot flush Kafka transaction '"+id+"'", err)
	}
	if err := w.firstErr(); err != nil {
		return nil, err
	}
	pid, epoch, err := x.cur.ProducerID(fctx)
	if err != nil {
		return nil, w.s.t.brokerError("cannot read the producer id of Kafka transaction '"+id+"'", err)
	}
	b, err := json.Marshal(txnCommittable{Next: x.curSeq + 1, ID: id, PID: pid, Epoch: epoch})
	if err != nil {
		return nil, err
	}
	x.prepared[id] = x.cur
	x.cur = nil
	return b, nil
}

// txnCommit implements CommitCheckpoint: it commits the prepared
// transaction, with its own producer when this run prepared it, or else
// (a committable restored from a checkpoint) with an EndTxn request under
// the saved producer id and epoch. A transaction the brokers already
// committed is not an error.
func (w *writer) txnCommit(ctx context.Context, checkpointID int64, data []byte) error {
	var c txnCommittable
	if err := json.Unmarshal(data, &c); err != nil {
		return w.s.t.errorf("the committable of checkpoint %d does not decode: %v", checkpointID, err)
	}
	x := w.txn
	x.mu.Lock()
	defer x.mu.Unlock()
	if !x.probed && c.Next > x.next {
		x.next = c.Next
	}
	if c.ID == "" {
		return nil
	}
	cctx, cancel := w.txnCtx(ctx)
	defer cancel()
	if cl, ok := x.prepared[c.ID]; ok {
		err := cl.EndTransaction(cctx, kgo.TryCommit)
		cl.Close()
		delete(x.prepared, c.ID)
		if err != nil {
			return w.s.t.brokerError(fmt.Sprintf("cannot commit Kafka transaction '%s' of checkpoint %d", c.ID, checkpointID), err)
		}
		return nil
	}
	return w.resumeCommit(cctx, checkpointID, c)
}

func (w *writer) resumeCommit(ctx context.Context, checkpointID int64, c txnCommittable) error {
	t := w.s.t
	for {
		req := kmsg.NewPtrEndTxnRequest()
		req.TransactionalID, req.ProducerID, req.ProducerEpoch, req.Commit = c.ID, c.PID, c.Epoch, true
		resp, err := req.RequestWith(ctx, w.cl)
		if err == nil {
			err = kerr.ErrorForCode(resp.ErrorCode)
		}
		switch {
		case err == nil:
			return nil
		case retriableTxnErr(err) && ctx.Err() == nil:
			if werr := sleepCtx(ctx, 50*time.Millisecond); werr != nil {
				return t.brokerError(fmt.Sprintf("cannot commit Kafka transaction '%s' of checkpoint %d", c.ID, checkpointID), werr)
			}
			continue
		case errors.Is(err, kerr.InvalidTxnState), errors.Is(err, kerr.ProducerFenced), errors.Is(err, kerr.InvalidProducerEpoch),
			errors.Is(err, kerr.InvalidProducerIDMapping):
			// committed already (a retry after a restore), or lost
			state, derr := w.txnState(ctx, c)
			if errors.Is(derr, kerr.TransactionalIDNotFound) {
				// the brokers forgot the id (transactional.id.expiration.ms
				// after its last use, 7 days by default): its transaction
				// ended long ago, and there is nothing left to commit
				return nil
			}
			if derr == nil && state == "CompleteCommit" {
				return nil
			}
			if derr != nil {
				state = "unknown (" + derr.Error() + ")"
			}
			return t.errorf("cannot commit Kafka transaction '%s' of checkpoint %d: %v; the brokers report it %s (a transaction open longer than 'properties.transaction.timeout.ms' is aborted by the brokers, and its rows are lost)", c.ID, checkpointID, err, state)
		default:
			return t.brokerError(fmt.Sprintf("cannot commit Kafka transaction '%s' of checkpoint %d", c.ID, checkpointID), err)
		}
	}
}

// txnState describes a transactional id; a later producer epoch or
// producer id than the committable's means the id moved on after the
// transaction ended, which (with ids used once) is reported as committed
// only when the brokers say so.
func (w *writer) txnState(ctx context.Context, c txnCommittable) (string, error) {
	d, err := w.adm.DescribeTransactions(ctx, c.ID)
	if err != nil {
		return "", err
	}
	dt, ok := d[c.ID]
	if !ok {
		return "", fmt.Errorf("not described")
	}
	if dt.Err != nil {
		return "", dt.Err
	}
	if dt.ProducerID != c.PID {
		return dt.State + " under another producer id", nil
	}
	return dt.State, nil
}

// txnEnd commits the open transaction at the end of input (Commit).
func (w *writer) txnEnd() error {
	x := w.txn
	x.mu.Lock()
	defer x.mu.Unlock()
	if err := w.probeLocked(); err != nil {
		return err
	}
	if x.cur == nil {
		return nil
	}
	cl := x.cur
	x.cur = nil
	defer cl.Close()
	if !x.curRecs {
		return nil
	}
	id := w.txnID(x.curSeq)
	ctx, cancel := w.txnCtx(w.ctx)
	defer cancel()
	if err := cl.Flush(ctx); err != nil {
		if w.ctx.Err() != nil {
			return w.ctx.Err()
		}
		return w.s.t.brokerError("cannot flush Kafka transaction '"+id+"'", err)
	}
	if err := w.firstErr(); err != nil {
		return err
	}
	if err := cl.EndTransaction(ctx, kgo.TryCommit); err != nil {
		return w.s.t.brokerError("cannot commit Kafka transaction '"+id+"'", err)
	}
	return nil
}

// txnAbort aborts the open transaction (its rows are after the last
// checkpoint) and closes the producers. Prepared transactions are left
// open: the checkpoint that holds them may have completed, and a job
// resumed from it commits them; otherwise the brokers abort them after
// the transaction timeout, or a run with the same prefix does at start.
func (w *writer) txnAbort() {
	x := w.txn
	x.mu.Lock()
	defer x.mu.Unlock()
	if cl := x.cur; cl != nil {
		x.cur = nil
		ctx, cancel := context.WithTimeout(context.WithoutCancel(w.ctx), 5*time.Second)
		if x.curRecs {
			_ = cl.AbortBufferedRecords(ctx)
		}
		_ = cl.EndTransaction(ctx, kgo.TryAbort)
		cancel()
		cl.Close()
	}
	for id, cl := range x.prepared {
		cl.Close()
		delete(x.prepared, id)
	}
}

// txnWriter is the writer of an exactly-once sink: a
// connector.CommittingWriter (at-least-once writers are not, so that they
// keep publishing as they write).
type txnWriter struct{ *writer }

// PrepareCommit implements connector.CommittingWriter: the open
// transaction is flushed (every record acknowledged) and left open.
func (w txnWriter) PrepareCommit(ctx context.Context, _ int64) ([]byte, error) {
	return w.txnPrepare(ctx)
}

// CommitCheckpoint implements connector.CommittingWriter: it commits the
// transaction PrepareCommit returned (idempotent).
func (w txnWriter) CommitCheckpoint(ctx context.Context, checkpointID int64, committable []byte) error {
	return w.txnCommit(ctx, checkpointID, committable)
}

var _ connector.CommittingWriter = txnWriter{}
