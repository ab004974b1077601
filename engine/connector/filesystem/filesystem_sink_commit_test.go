package filesystem

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/connector"
	"github.com/riffle-sql/riffle/engine/types"
)

// readTable reads the table's visible rows, sorted.
func readTable(t *testing.T, ctx *connector.Context) []string {
	t.Helper()
	src, err := connector.CreateSource(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := readAll(t, src, connector.ReadSpec{Limit: -1}, tys)
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(rows)
	return rows
}

// A committing writer's files are in progress, then pending (both
// hidden), then finished once their checkpoint is committed; committing
// again is fine; files prepared for a checkpoint survive Abort; the
// success-file policy marks the committed partitions.
func TestCommittingWriterFileStates(t *testing.T) {
	dir := t.TempDir()
	ctx := partCtx(map[string]string{"path": dir, "format": "csv", "sink.partition-commit.policy.kind": "success-file"}, names, tys, "name")
	sink, err := connector.CreateSink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	bg := context.Background()
	w, err := sink.Open(bg, connector.WriteSpec{Names: names, Types: tys}, 0)
	if err != nil {
		t.Fatal(err)
	}
	cw := w.(connector.CommittingWriter)
	if err := w.Write(bg, batchOf(t, types.NewRow(int32(1), "a"), types.NewRow(int32(2), "b"))); err != nil {
		t.Fatal(err)
	}
	c1, err := cw.PrepareCommit(bg, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(bg, batchOf(t, types.NewRow(int32(3), "a"))); err != nil {
		t.Fatal(err)
	}
	if got := readTable(t, ctx); len(got) != 0 {
		t.Fatalf("visible before the checkpoint completed: %v", got)
	}
	hidden, _ := filepath.Glob(filepath.Join(dir, "name=a", ".part-*.inprogress"))
	if len(hidden) != 2 {
		t.Fatalf("in partition a: %v, want a pending and an in-progress file", visible(t, filepath.Join(dir, "name=a")))
	}
	for i := 0; i < 2; i++ { // committing again (a restore) is fine
		if err := cw.CommitCheckpoint(bg, 1, c1); err != nil {
			t.Fatal(err)
		}
	}
	if got := strings.Join(readTable(t, ctx), ";"); got != "+I[1, a];+I[2, b]" {
		t.Fatalf("after checkpoint 1: %s", got)
	}
	for _, p := range []string{"a", "b"} {
		if _, err := os.Stat(filepath.Join(dir, "name="+p, "_SUCCESS")); err != nil {
			t.Fatalf("success file of partition %s: %v", p, err)
		}
	}
	c2, err := cw.PrepareCommit(bg, 2)
	if err != nil {
		t.Fatal(err)
	}
	w.Abort() // the job is cancelled; a restore commits checkpoint 2
	if err := cw.CommitCheckpoint(bg, 2, c2); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(readTable(t, ctx), ";"); got != "+I[1, a];+I[2, b];+I[3, a]" {
		t.Fatalf("after checkpoint 2: %s", got)
	}
	// a committable whose files are gone, or that does not decode
	fresh := encodeCommittable([]string{"name=b/part-x-0-9"})
	if err := cw.CommitCheckpoint(bg, 3, fresh); err == nil || !strings.Contains(err.Error(), "is missing") {
		t.Fatalf("missing file: %v", err)
	}
	for _, bad := range [][]byte{nil, []byte("fsc1"), c1[:len(c1)-1], encodeCommittable([]string{"../x"})} {
		if err := cw.CommitCheckpoint(bg, 4, bad); err == nil {
			t.Fatalf("committed %q", bad)
		}
	}
}

// The partition commit options Riffle does not implement are refused.
func TestPartitionCommitOptionRefusals(t *testing.T) {
	for opt, want := range map[[2]string]string{
		{"sink.partition-commit.delay", "1 h"}:                  "a delay of 0",
		{"sink.partition-commit.trigger", "partition-time"}:     "only 'process-time'",
		{"sink.partition-commit.policy.kind", "metastore"}:      "only 'success-file'",
		{"sink.partition-commit.policy.kind", "nope"}:           "one of 'success-file'",
		{"sink.rolling-policy.inactivity-interval", "-1 s"}:     "invalid",
		{"sink.partition-commit.success-file.name", "a/b"}:      "a file name",
		{"sink.partition-commit.policy.kind", "success-file,x"}: "one of",
	} {
		_, err := connector.CreateSink(partCtx(map[string]string{"path": t.TempDir(), "format": "csv", opt[0]: opt[1]}, names, tys, "name"))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("%s = %s: %v", opt[0], opt[1], err)
		}
	}
}

// Time-based rolling is checked every check-interval, as Flink's timer
// does: a file rolls at a write when the last check before it found the
// file too old or inactive too long.
func TestRollingByInactivity(t *testing.T) {
	for _, c := range []struct {
		check string
		want  int // part files after writes at 0 and 5m30s
	}{{"1 min", 2}, {"10 min", 1}} {
		dir := t.TempDir()
		sink, err := connector.CreateSink(newCtx(map[string]string{"path": dir, "format": "csv",
			"sink.rolling-policy.inactivity-interval": "5 min", "sink.rolling-policy.check-interval": c.check}, names, tys))
		if err != nil {
			t.Fatal(err)
		}
		w, _ := sink.Open(context.Background(), connector.WriteSpec{Names: names, Types: tys}, 0)
		ww := w.(*writer)
		clock := time.Unix(0, 0)
		ww.now = func() time.Time { return clock }
		_ = ww.Write(context.Background(), batchOf(t, types.NewRow(int32(1), "x")))
		clock = clock.Add(5*time.Minute + 30*time.Second)
		_ = ww.Write(context.Background(), batchOf(t, types.NewRow(int32(2), "x")))
		if len(ww.files) != c.want {
			t.Fatalf("check-interval %s: %d part files, want %d", c.check, len(ww.files), c.want)
		}
		ww.Abort()
	}
}

// A writer opened again with the same index (a job restarted in the same
// process) never reuses the name of a file committed before.
func TestReopenedWriterNamesNewParts(t *testing.T) {
	dir := t.TempDir()
	ctx := newCtx(map[string]string{"path": dir, "format": "csv"}, names, tys)
	sink, err := connector.CreateSink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	bg := context.Background()
	for i := int32(1); i <= 2; i++ {
		w, err := sink.Open(bg, connector.WriteSpec{Names: names, Types: tys}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(bg, batchOf(t, types.NewRow(i, "x"))); err != nil {
			t.Fatal(err)
		}
		c, err := w.(connector.CommittingWriter).PrepareCommit(bg, int64(i))
		if err != nil {
			t.Fatal(err)
		}
		if err := w.(connector.CommittingWriter).CommitCheckpoint(bg, int64(i), c); err != nil {
			t.Fatal(err)
		}
		w.Abort()
	}
	if got := strings.Join(readTable(t, ctx), ";"); got != "+I[1, x];+I[2, x]" {
		t.Fatalf("after two writers of index 0: %s (files %v)", got, visible(t, dir))
	}
}

// With several writers, a partition's success file is written when the
// last writer that prepared for the checkpoint has committed it.
func TestSuccessFileAfterEveryWriter(t *testing.T) {
	dir := t.TempDir()
	ctx := partCtx(map[string]string{"path": dir, "format": "csv", "sink.partition-commit.policy.kind": "success-file"}, names, tys, "name")
	sink, err := connector.CreateSink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	bg := context.Background()
	var ws []connector.CommittingWriter
	var cs [][]byte
	for i := 0; i < 2; i++ {
		w, err := sink.Open(bg, connector.WriteSpec{Names: names, Types: tys}, i)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(bg, batchOf(t, types.NewRow(int32(i), "a"))); err != nil {
			t.Fatal(err)
		}
		cw := w.(connector.CommittingWriter)
		c, err := cw.PrepareCommit(bg, 1)
		if err != nil {
			t.Fatal(err)
		}
		ws, cs = append(ws, cw), append(cs, c)
	}
	success := filepath.Join(dir, "name=a", "_SUCCESS")
	if err := ws[0].CommitCheckpoint(bg, 1, cs[0]); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(success); !os.IsNotExist(err) {
		t.Fatalf("success file after one writer of two: %v", err)
	}
	if err := ws[1].CommitCheckpoint(bg, 1, cs[1]); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(success); err != nil {
		t.Fatalf("success file after both writers: %v", err)
	}
	if got := strings.Join(readTable(t, ctx), ";"); got != "+I[0, a];+I[1, a]" {
		t.Fatalf("read back: %s", got)
	}
}
