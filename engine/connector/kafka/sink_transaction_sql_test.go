package kafka_test

import (
	"context"
	"fmt"
	"testing"
	"time"
)

// TestExactlyOnceInsertSQL: a checkpointed streaming INSERT into an
// exactly-once kafka table on the in-process broker writes its rows in one
// transaction per checkpoint and instance; a read_committed kafka table
// reads each row once.
func TestExactlyOnceInsertSQL(t *testing.T) {
	bs := broker(t, map[string]int32{"eos": 2})
	e := env(t, true)
	cfg := e.GetConfig()
	cfg.Set("parallelism.default", "2")
	cfg.Set("execution.checkpointing.interval", "50 ms")
	cfg.Set("execution.checkpointing.dir", t.TempDir())
	exec(t, e, `CREATE TABLE gen (v BIGINT) WITH ('connector' = 'datagen', 'rows-per-second' = '1000',
		'fields.v.kind' = 'sequence', 'fields.v.start' = '1', 'fields.v.end' = '2000')`)
	exec(t, e, fmt.Sprintf(`CREATE TABLE eos (v BIGINT) WITH ('connector' = 'kafka', 'topic' = 'eos',
		'properties.bootstrap.servers' = '%s', 'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once',
		'sink.transactional-id-prefix' = 'sql-test', 'properties.transaction.timeout.ms' = '60000')`, bs))
	res, err := e.ExecuteSQL("INSERT INTO eos SELECT v FROM gen")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	job := res.JobClient()
	if err := job.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	if n := job.CheckpointCounts().Completed; n < 2 {
		t.Fatalf("%d checkpoints completed: the rows were not split over transactions", n)
	}
	b := env(t, false)
	exec(t, b, fmt.Sprintf(`CREATE TABLE eos (v BIGINT) WITH ('connector' = 'kafka', 'topic' = 'eos',
		'properties.bootstrap.servers' = '%s', 'format' = 'json', 'scan.startup.mode' = 'earliest-offset',
		'scan.bounded.mode' = 'latest-offset', 'properties.isolation.level' = 'read_committed')`, bs))
	got := query(t, b, "SELECT COUNT(*), COUNT(DISTINCT v), MIN(v), MAX(v) FROM eos")
	if len(got) != 1 || got[0] != "+I[2000, 2000, 1, 2000]" {
		t.Fatalf("read_committed: %v, want +I[2000, 2000, 1, 2000]", got)
	}
}
