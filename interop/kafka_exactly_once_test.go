//go:build interop

package interop

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/riffle-sql/riffle/engine/config"
	"github.com/riffle-sql/riffle/engine/connector"
	_ "github.com/riffle-sql/riffle/engine/connector/all"
	"github.com/riffle-sql/riffle/engine/connector/kafka"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// The exactly-once Kafka sink (issue 16) against the real broker: a
// checkpointed streaming INSERT from a paced datagen sequence into a topic
// with 'sink.delivery-guarantee' = 'exactly-once' runs in a child process
// that is killed (SIGKILL) at random moments and resumed from its latest
// complete checkpoint. A read_committed reader sees, after every kill, a
// part of the sequence with no value twice, and at the end every value
// exactly once; a read_uncommitted reader sees the rows of the aborted
// transactions too.

type eosSpec struct {
	Topic, Checkpoints, Resume, Prefix string
	Rows, RowsPerSecond, Parallelism   int
}

const eosChildEnv = "RIFFLE_KAFKA_EOS_CHILD"

// TestKafkaExactlyOnceChild is the child process of
// TestKafkaExactlyOnceKillRecovery.
func TestKafkaExactlyOnceChild(t *testing.T) {
	raw := os.Getenv(eosChildEnv)
	if raw == "" {
		t.Skip("the child process of TestKafkaExactlyOnceKillRecovery")
	}
	var s eosSpec
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		t.Fatal(err)
	}
	k := kafkaRequire(t)
	env := table.MustCreate(table.InStreamingMode())
	stmts := []string{
		fmt.Sprintf("SET 'parallelism.default' = '%d'", s.Parallelism),
		"SET 'execution.checkpointing.interval' = '100 ms'",
		"SET 'execution.checkpointing.dir' = '" + s.Checkpoints + "'",
		"SET 'execution.checkpointing.num-retained' = '2'",
		"SET 'restart-strategy.type' = 'none'",
		fmt.Sprintf(`CREATE TABLE gen (v BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '%d',
			'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '%d')`, s.RowsPerSecond, s.Rows),
		fmt.Sprintf(`CREATE TABLE out_t (v BIGINT) WITH ('connector' = 'kafka', 'topic' = '%s',
			'properties.bootstrap.servers' = '%s', 'format' = 'json',
			'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '%s',
			'properties.transaction.timeout.ms' = '60000')`, s.Topic, k.Bootstrap, s.Prefix),
	}
	if s.Resume != "" {
		stmts = append(stmts, "SET 'execution.state-recovery.path' = '"+s.Resume+"'")
	}
	for _, q := range stmts {
		if _, err := env.ExecuteSQL(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	res, err := env.ExecuteSQL("INSERT INTO out_t SELECT v FROM gen")
	if err != nil {
		t.Fatal(err)
	}
	// the job's checkpoints are under <checkpoints>/<job id> (made at
	// submission, deleted when the job finishes)
	fmt.Println("RUNNING " + res.JobClient().JobID())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := res.JobClient().Wait(ctx); err != nil {
		t.Fatal(err)
	}
	fmt.Println("FINISHED")
}

// eosRunChild starts the child and waits until its job runs; it returns
// the job's id ("" when the child ended before its job ran) and a
// channel that gets the child's exit (nil for a kill).
func eosRunChild(t *testing.T, s eosSpec) (*exec.Cmd, string, <-chan error) {
	t.Helper()
	raw, _ := json.Marshal(s)
	cmd := exec.Command(os.Args[0], "-test.run=^TestKafkaExactlyOnceChild$", "-test.count=1", "-test.v")
	cmd.Env = append(os.Environ(), eosChildEnv+"="+string(raw))
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	running := make(chan struct{})
	done := make(chan error, 1)
	var jobID string
	go func() {
		var log strings.Builder
		sc := bufio.NewScanner(out)
		seen := false
		for sc.Scan() {
			log.WriteString(sc.Text() + "\n")
			if id, ok := strings.CutPrefix(sc.Text(), "RUNNING "); !seen && ok {
				seen, jobID = true, id
				close(running)
			}
		}
		err := cmd.Wait()
		if err != nil && !strings.Contains(err.Error(), "killed") {
			err = fmt.Errorf("%v\n%s%s", err, log.String(), stderr.String())
		} else if err != nil {
			err = nil
		}
		if !seen {
			close(running)
		}
		done <- err
	}()
	<-running
	return cmd, jobID, done
}

// eosLatestCheckpoint is the complete checkpoint written last under dir.
func eosLatestCheckpoint(dir string) string {
	metas, _ := filepath.Glob(filepath.Join(dir, "*", "chk-*", "_metadata"))
	best, bestT := "", time.Time{}
	for _, m := range metas {
		if strings.Contains(m, ".inprogress") {
			continue
		}
		fi, err := os.Stat(m)
		if err != nil {
			continue
		}
		if fi.ModTime().After(bestT) {
			best, bestT = filepath.Dir(m), fi.ModTime()
		}
	}
	return best
}

// eosOpenTransaction reports whether a partition of topic holds records
// of a transaction neither committed nor aborted: its high watermark is
// past its last stable offset.
func eosOpenTransaction(t *testing.T, k Kafka, topic string) bool {
	t.Helper()
	cl, err := k.Client()
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	adm := kadm.NewClient(cl)
	ends, err := adm.ListEndOffsets(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	stable, err := adm.ListCommittedOffsets(ctx, topic)
	if err != nil {
		t.Fatal(err)
	}
	open := false
	ends.Each(func(o kadm.ListedOffset) {
		if s, ok := stable.Lookup(topic, o.Partition); ok && o.Offset > s.Offset {
			open = true
		}
	})
	return open
}

// eosReadCommittedUntil reads the topic as eosRead does with
// read_committed, again until ok accepts the values or 30 s pass, and
// returns the last values read. A transaction's commit returns once its
// coordinator has logged it; the commit markers reach the partitions
// after that, and the last stable offset moves only then, so a read at
// once may not see the transaction yet.
func eosReadCommittedUntil(t *testing.T, k Kafka, topic string, ok func([]int) bool) []int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := eosRead(t, k, topic, true)
		if ok(got) || time.Now().After(deadline) {
			return got
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// eosRead reads the topic from the start with the isolation level given,
// up to the last stable offset (read_committed) or the high watermark,
// and returns the values' numbers.
func eosRead(t *testing.T, k Kafka, topic string, committed bool) []int {
	t.Helper()
	opts := []kgo.Opt{kgo.KeepControlRecords()}
	if committed {
		opts = append(opts, kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	}
	cl, err := k.Client(opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	adm := kadm.NewClient(cl)
	var ends kadm.ListedOffsets
	if committed {
		ends, err = adm.ListCommittedOffsets(ctx, topic)
	} else {
		ends, err = adm.ListEndOffsets(ctx, topic)
	}
	if err != nil {
		t.Fatal(err)
	}
	want := map[int32]int64{}
	parts := map[int32]kgo.Offset{}
	ends.Each(func(o kadm.ListedOffset) {
		if o.Offset > 0 {
			want[o.Partition] = o.Offset
			parts[o.Partition] = kgo.NewOffset().AtStart()
		}
	})
	var out []int
	if len(parts) == 0 {
		return out
	}
	cl.AddConsumePartitions(map[string]map[int32]kgo.Offset{topic: parts})
	for len(want) > 0 {
		f := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("reading %s: still waiting for offsets %v", topic, want)
		}
		f.EachRecord(func(r *kgo.Record) {
			if end, ok := want[r.Partition]; ok && r.Offset < end && !r.Attrs.IsControl() {
				var row struct{ V int }
				if err := json.Unmarshal(r.Value, &row); err != nil {
					t.Fatalf("record %q: %v", r.Value, err)
				}
				out = append(out, row.V)
			}
			if r.Offset+1 >= want[r.Partition] {
				delete(want, r.Partition)
			}
		})
	}
	sort.Ints(out)
	return out
}

// eosCheck reports the first value seen twice or missing from 1..rows
// (missing only when complete).
func eosCheck(vals []int, rows int, complete bool) error {
	seen := map[int]bool{}
	for _, v := range vals {
		if v < 1 || v > rows {
			return fmt.Errorf("value %d is not in 1..%d", v, rows)
		}
		if seen[v] {
			return fmt.Errorf("value %d is there twice", v)
		}
		seen[v] = true
	}
	if complete && len(seen) != rows {
		for v := 1; v <= rows; v++ {
			if !seen[v] {
				return fmt.Errorf("value %d is missing (%d of %d there)", v, len(seen), rows)
			}
		}
	}
	return nil
}

func TestKafkaExactlyOnceKillRecovery(t *testing.T) {
	k := kafkaRequire(t)
	for _, par := range []int{1, 2} {
		t.Run("parallelism-"+strconv.Itoa(par), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			topic := UniqueTopic("riffle-eos")
			if err := k.CreateTopic(ctx, topic, 2, nil); err != nil {
				t.Fatal(err)
			}
			spec := eosSpec{Topic: topic, Checkpoints: filepath.Join(t.TempDir(), "checkpoints"), Prefix: topic,
				Rows: 10000, RowsPerSecond: 2000, Parallelism: par}
			// at least kills kills; more (up to maxKills) until one has
			// left a transaction open, which the next run must abort: a
			// kill lands between a checkpoint's commit and the next
			// records now and then, leaving nothing to abort
			const kills, maxKills = 8, 24
			rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 16))
			killed, finished, leftOpen := 0, false, 0
			resumedFrom := map[string]bool{}
			for i := 0; (i < kills || (leftOpen == 0 && i < maxKills)) && !finished; i++ {
				spec.Resume = eosLatestCheckpoint(spec.Checkpoints)
				if spec.Resume != "" {
					resumedFrom[spec.Resume] = true
				}
				cmd, jobID, done := eosRunChild(t, spec)
				delay := time.Duration(200+rng.IntN(600)) * time.Millisecond
				select {
				case err := <-done:
					if err != nil {
						t.Fatalf("run %d: %v", i, err)
					}
					finished = true
					continue
				case <-time.After(delay):
				}
				killed++
				if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
					t.Fatal(err)
				}
				<-done
				if eosOpenTransaction(t, k, topic) {
					leftOpen++
				}
				// what a read_committed reader sees now was committed by a
				// checkpoint: part of the sequence, nothing twice
				if err := eosCheck(eosRead(t, k, topic, true), spec.Rows, false); err != nil {
					t.Fatalf("after kill %d, read_committed: %v", killed, err)
				}
				// a job killed after it finished (its final checkpoint
				// committed the rest, its checkpoints are deleted) but
				// before its process exited is done: resuming an earlier
				// job's checkpoint would write the tail again
				if jobID != "" {
					if _, err := os.Stat(filepath.Join(spec.Checkpoints, jobID)); os.IsNotExist(err) {
						finished = true
					}
				}
			}
			if !finished {
				spec.Resume = eosLatestCheckpoint(spec.Checkpoints)
				_, _, done := eosRunChild(t, spec)
				if err := <-done; err != nil {
					t.Fatalf("last run: %v", err)
				}
			}
			committed := eosReadCommittedUntil(t, k, topic, func(got []int) bool { return eosCheck(got, spec.Rows, true) == nil })
			if err := eosCheck(committed, spec.Rows, true); err != nil {
				t.Fatalf("after %d kills, read_committed: %v", killed, err)
			}
			all := eosRead(t, k, topic, false)
			t.Logf("%d kills (%d left a transaction open), resumed from %d checkpoints: read_committed %d rows (each value once), read_uncommitted %d rows",
				killed, leftOpen, len(resumedFrom), len(committed), len(all))
			if killed < kills/2 || len(resumedFrom) < 2 {
				t.Fatalf("only %d kills and %d checkpoints resumed from: the test did not exercise recovery", killed, len(resumedFrom))
			}
			if len(all) <= len(committed) {
				t.Fatalf("read_uncommitted sees %d rows, read_committed %d: no kill left an aborted transaction behind, so the test showed nothing about them", len(all), len(committed))
			}
		})
	}
}

// TestKafkaExactlyOnceResumeCommit drives the sink's writers as the
// runtime does, on the real broker, through the window between a
// checkpoint's completion and its commit: a writer prepares checkpoint 1
// and checkpoint 2, then dies (its producers stay open, as a killed
// process's transactions do) without committing either; a writer resumed
// from checkpoint 1 commits its transaction with the saved producer id
// and epoch, commits it again without error (a second restore), aborts
// checkpoint 2's transaction and the one open after it, and goes on.
func TestKafkaExactlyOnceResumeCommit(t *testing.T) {
	k := kafkaRequire(t)
	bg := context.Background()
	topic := UniqueTopic("riffle-eos-resume")
	if err := k.CreateTopic(bg, topic, 1, nil); err != nil {
		t.Fatal(err)
	}
	schema := &types.Schema{Columns: []types.Column{{Name: "v", Type: types.BigIntType()}}}
	cfg := config.New()
	cfg.Set("execution.checkpointing.interval", "1 s")
	sink, err := kafka.Factory{}.CreateSink(&connector.Context{Table: "`t`", Schema: schema, Config: cfg, Options: map[string]string{
		"connector": "kafka", "topic": topic, "properties.bootstrap.servers": k.Bootstrap, "format": "json",
		"sink.delivery-guarantee": "exactly-once", "sink.transactional-id-prefix": topic,
		"properties.transaction.timeout.ms": "60000"}})
	if err != nil {
		t.Fatal(err)
	}
	spec := connector.WriteSpec{Names: []string{"v"}, Types: []*types.DataType{types.BigIntType()}}
	open := func() connector.CommittingWriter {
		w, err := sink.Open(bg, spec, 0)
		if err != nil {
			t.Fatal(err)
		}
		return w.(connector.CommittingWriter)
	}
	write := func(w connector.Writer, vals ...int64) {
		bb := types.NewBatchBuilder(spec.Types)
		for _, v := range vals {
			if err := bb.AppendRow(types.NewRow(v)); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Write(bg, bb.Build()); err != nil {
			t.Fatal(err)
		}
	}
	w1 := open()
	write(w1, 1, 2)
	c1, err := w1.PrepareCommit(bg, 1)
	if err != nil {
		t.Fatal(err)
	}
	write(w1, 3)
	if _, err := w1.PrepareCommit(bg, 2); err != nil {
		t.Fatal(err)
	}
	write(w1, 4)
	if got := eosRead(t, k, topic, true); len(got) != 0 {
		t.Fatalf("nothing is committed yet, read_committed sees %v", got)
	}

	w2 := open()
	for i := 0; i < 2; i++ {
		if err := w2.CommitCheckpoint(bg, 1, c1); err != nil {
			t.Fatalf("commit %d of checkpoint 1 by the resumed writer: %v", i+1, err)
		}
	}
	write(w2, 30, 40)
	c2, err := w2.PrepareCommit(bg, 2)
	if err != nil {
		t.Fatal(err)
	}
	if err := w2.CommitCheckpoint(bg, 2, c2); err != nil {
		t.Fatal(err)
	}
	if err := w2.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(eosReadCommittedUntil(t, k, topic, func(got []int) bool { return len(got) >= 4 })); got != "[1 2 30 40]" {
		t.Fatalf("read_committed: %s, want [1 2 30 40]", got)
	}
	if got := fmt.Sprint(eosRead(t, k, topic, false)); got != "[1 2 3 4 30 40]" {
		t.Fatalf("read_uncommitted: %s, want the aborted 3 and 4 too", got)
	}
	w1.Abort()
}
