package persistence

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
	"time"
)

// Running jobs survive reopening the workspace, oldest first, and are
// forgotten one by one or all at once.
func TestRunningJobsRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ws.riffle")
	s := open(t, path)
	ctx := context.Background()
	t0 := time.Date(2026, 12, 2, 7, 0, 0, 123456789, time.UTC)
	a := RunningJob{JobID: "aaaa", TabID: 3, Statement: "SELECT k, COUNT(*) FROM gen GROUP BY k",
		CheckpointDir: "/tmp/cp", CheckpointInterval: "1 s", JobCheckpointDir: "/tmp/cp/aaaa", Started: t0.Add(time.Second)}
	b := RunningJob{JobID: "bbbb", TabID: 1, Statement: "INSERT INTO t SELECT * FROM gen",
		CheckpointInterval: "10 s", JobCheckpointDir: "/home/u/.local/state/riffle/checkpoints/bbbb", Started: t0}
	for _, j := range []RunningJob{a, b} {
		if err := s.SaveRunningJob(ctx, j); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SaveRunningJob(ctx, RunningJob{}); err == nil {
		t.Error("a job without an id was saved")
	}
	s.Close()
	s = open(t, path)
	defer s.Close()
	got, err := s.RunningJobs(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || !got[0].Started.Equal(b.Started) || !got[1].Started.Equal(a.Started) {
		t.Fatalf("jobs %+v", got)
	}
	got[0].Started, got[1].Started = b.Started, a.Started
	if got[0] != b || got[1] != a {
		t.Errorf("jobs %+v, want %+v and %+v", got, b, a)
	}
	must(t, s.ForgetRunningJob(ctx, "bbbb"))
	must(t, s.ForgetRunningJob(ctx, "none"))
	if got, _ := s.RunningJobs(ctx); len(got) != 1 || got[0].JobID != "aaaa" {
		t.Errorf("after forgetting bbbb: %+v", got)
	}
	must(t, s.ForgetRunningJobs(ctx))
	if got, _ := s.RunningJobs(ctx); len(got) != 0 {
		t.Errorf("after forgetting all: %+v", got)
	}
}

// A schema-4 workspace migrates to one with no running jobs, its Kafka
// connections kept.
func TestMigrationFromVersion4AddsRunningJobs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v4.riffle")
	db, err := sql.Open("sqlite3", path)
	must(t, err)
	stmts := append([]string{}, migrations[:4]...)
	stmts = append(stmts, `UPDATE schema_version SET version = 4`,
		`INSERT INTO kafka_connections(name, settings) VALUES ('k', '{"bootstrap":"b:9092"}')`)
	for _, stmt := range stmts {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	db.Close()
	s := open(t, path)
	defer s.Close()
	if v, _ := s.SchemaVersion(context.Background()); v != CurrentVersion {
		t.Fatalf("schema %d", v)
	}
	jobs, err := s.RunningJobs(context.Background())
	if err != nil || len(jobs) != 0 {
		t.Fatal(jobs, err)
	}
	must(t, s.SaveRunningJob(context.Background(), RunningJob{JobID: "j", JobCheckpointDir: "/d/j"}))
	if k, _, _ := s.KafkaConnections(context.Background()); len(k) != 1 || k[0].Bootstrap != "b:9092" {
		t.Errorf("kafka connections %+v", k)
	}
}
