package table

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/testwait"
)

// The disk state backend in SQL (issue 16): savepoint round trips of the
// operators that keep their state in it, with a cache of 3 keys so that
// most keys live only in the store; incremental checkpoints; bad options.

// diskBackend are the SETs of the disk backend with a tiny cache, its
// working files under dir.
func diskBackend(dir string) []string {
	return []string{
		"SET 'state.backend.type' = 'rocksdb'",
		"SET 'state.backend.rocksdb.localdir' = '" + dir + "'",
		"SET 'riffle.state.backend.cache-entries' = '3'",
		"SET 'state.backend.rocksdb.block.cache-size' = '1 mb'",
		"SET 'state.backend.rocksdb.writebuffer.size' = '256 kb'",
	}
}

func TestDiskStateBackendSavepointRoundTrip(t *testing.T) {
	if testing.Short() {
		t.Skip("paced sources")
	}
	for _, c := range []struct {
		name, query string
		sets        []string
	}{
		{"group aggregate", "SELECT v % 37 AS g, COUNT(*), SUM(v), MAX(v), MIN(k), AVG(v) FROM gen GROUP BY v % 37", nil},
		{"global aggregate", "SELECT COUNT(*), SUM(v), MAX(v) FROM gen", nil},
		{"group aggregate of a changelog", "SELECT c, COUNT(*) FROM (SELECT v % 23 AS g, COUNT(*) AS c FROM gen GROUP BY v % 23) GROUP BY c", nil},
		{"mini-batch group aggregates of a join", "SELECT g, AVG(m), COUNT(*) FROM (SELECT a.v % 11 AS g, a.k, MAX(b.w) AS m FROM gen AS a JOIN gen2 AS b ON a.k = b.k2 AND b.w <= a.v GROUP BY a.v % 11, a.k) GROUP BY g",
			[]string{"SET 'table.exec.mini-batch.enabled' = 'true'", "SET 'table.exec.mini-batch.allow-latency' = '50 ms'", "SET 'table.exec.mini-batch.size' = '100'"}},
		{"regular join", "SELECT a.k, COUNT(*) FROM gen AS a JOIN gen2 AS b ON a.v = b.w GROUP BY a.k", nil},
		{"regular join alone", "SELECT a.v, b.w, a.k FROM gen AS a JOIN gen2 AS b ON a.v = b.w", nil},
		{"left join", "SELECT a.v, b.w, a.k FROM gen AS a LEFT JOIN gen2 AS b ON a.v = b.w * 2", nil},
		{"full join of a changelog", "SELECT a.g, a.c, b.w FROM (SELECT v % 13 AS g, COUNT(*) AS c FROM gen GROUP BY v % 13) AS a FULL JOIN gen2 AS b ON a.g = b.w AND a.c > 3", nil},
		{"right join aggregated", "SELECT b.k2, COUNT(a.v), COUNT(*) FROM gen AS a RIGHT JOIN gen2 AS b ON a.v = b.w + 1 AND a.v % 3 <> 0 GROUP BY b.k2", nil},
		{"semi join", "SELECT v, k FROM gen WHERE v IN (SELECT w * 2 FROM gen2 WHERE w % 3 <> 0)", nil},
		{"anti join of a changelog", "SELECT g, c FROM (SELECT v % 41 AS g, COUNT(*) AS c FROM gen GROUP BY v % 41) AS a WHERE NOT EXISTS (SELECT * FROM gen2 AS b WHERE b.w = a.c * 40 + a.g)", nil},
		{"tumble window", "SELECT window_start, k, COUNT(*), SUM(v), MAX(v) FROM TABLE(TUMBLE(TABLE gen, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end, k", nil},
		{"hop window", "SELECT window_start, v % 13 AS g, COUNT(*), AVG(v) FROM TABLE(HOP(TABLE gen, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '15' SECOND)) GROUP BY window_start, window_end, v % 13", nil},
		{"top-n", "SELECT k, v FROM (SELECT k, v, ROW_NUMBER() OVER (PARTITION BY v % 17 ORDER BY v DESC) AS rn FROM gen) WHERE rn <= 2", nil},
		{"top-1 with rank number", "SELECT g, v, rn FROM (SELECT v % 19 AS g, v, ROW_NUMBER() OVER (PARTITION BY v % 19 ORDER BY k DESC, v ASC) AS rn FROM gen) WHERE rn = 1", nil},
		{"top-n of a changelog", "SELECT g, c FROM (SELECT g, c, ROW_NUMBER() OVER (PARTITION BY g % 3 ORDER BY c DESC, g) AS rn FROM (SELECT v % 29 AS g, COUNT(*) AS c FROM gen GROUP BY v % 29)) WHERE rn <= 2", nil},
		{"deduplication keep first", "SELECT g, v FROM (SELECT v % 31 AS g, v, ROW_NUMBER() OVER (PARTITION BY v % 31 ORDER BY ts ASC) AS rn FROM gen) WHERE rn = 1", nil},
		{"deduplication keep last", "SELECT g, v FROM (SELECT v % 31 AS g, v, ROW_NUMBER() OVER (PARTITION BY v % 31 ORDER BY ts DESC) AS rn FROM gen) WHERE rn = 1", nil},
		{"global hop window", "SELECT window_start, COUNT(*), SUM(v) FROM TABLE(HOP(TABLE gen, DESCRIPTOR(ts), INTERVAL '5' SECOND, INTERVAL '15' SECOND)) GROUP BY window_start, window_end", nil},
		{"cumulate window", "SELECT window_start, window_end, k, MIN(v), COUNT(*) FROM TABLE(CUMULATE(TABLE gen, DESCRIPTOR(ts), INTERVAL '4' SECOND, INTERVAL '20' SECOND)) GROUP BY window_start, window_end, k", nil},
		{"join of a changelog with a condition", "SELECT a.k, b.c, COUNT(*) FROM gen AS a JOIN (SELECT w % 7 AS g, COUNT(*) AS c FROM gen2 GROUP BY w % 7) AS b ON a.v % 7 = b.g AND a.v > b.c GROUP BY a.k, b.c", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			ref := roundTripEnv(t, false)
			res, err := ref.ExecuteSQLContext(ctx, c.query)
			if err != nil {
				t.Fatal(err)
			}
			want := applyChanges(collectAll(t, ctx, res))
			if len(want) == 0 {
				t.Fatal("the uninterrupted run gave no rows")
			}

			work := t.TempDir()
			env := roundTripEnv(t, true)
			mustExec(t, env, diskBackend(work)...)
			mustExec(t, env, c.sets...)
			mustExec(t, env,
				"SET 'execution.checkpointing.interval' = '1 h'",
				"SET 'execution.checkpointing.dir' = '"+t.TempDir()+"'")
			first, err := env.ExecuteSQLContext(ctx, c.query)
			if err != nil {
				t.Fatal(err)
			}
			job := first.JobClient()
			got := readWhileRunning(ctx, first)
			testwait.Until(t, time.Minute, "a fifth of the rows read", func() bool {
				ms := job.Metrics()
				return len(ms) > 0 && ms[0].RecordsOut >= roundTripRows/5
			})
			// the job's working files are under the local directory
			if entries, _ := os.ReadDir(work); len(entries) != 1 || !strings.HasPrefix(entries[0].Name(), "riffle-state-") {
				t.Fatalf("working directory %s holds %v, want one riffle-state-… folder", work, entries)
			}
			path, err := job.StopWithSavepointContext(ctx, t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			rows := <-got
			if n := job.Metrics()[0].RecordsOut; n >= roundTripRows {
				t.Fatalf("the first run read all %d rows before its savepoint: nothing to resume", n)
			}
			dbs, _ := filepath.Glob(filepath.Join(strings.TrimPrefix(path, "file:"), "*.db", "*.sst"))
			if len(dbs) == 0 {
				t.Fatalf("savepoint %s holds no store files", path)
			}
			testwait.Until(t, 10*time.Second, "the first job's working files removed", func() bool {
				entries, _ := os.ReadDir(work)
				return len(entries) == 0
			})
			mustExec(t, env, "SET 'execution.state-recovery.path' = '"+path+"'")
			if _, err := ReadCheckpoint(path); err != nil {
				t.Fatal(err)
			}
			second, err := env.ExecuteSQLContext(ctx, c.query)
			if err != nil {
				t.Fatal(err)
			}
			rows = append(rows, collectAll(t, ctx, second)...)
			if got := applyChanges(rows); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("stopped and resumed: %d rows, uninterrupted: %d\n got %v\nwant %v", len(got), len(want), got, want)
			}
			// a savepoint of the disk backend cannot resume with state in memory
			mustExec(t, env, "SET 'state.backend.type' = 'hashmap'")
			_, err = env.ExecuteSQLContext(ctx, c.query)
			if err == nil {
				third, _ := env.ExecuteSQLContext(ctx, c.query)
				if third != nil {
					for _, err = range third.Rows(ctx) {
						if err != nil {
							break
						}
					}
				}
			}
			if err == nil || !strings.Contains(err.Error(), "state.backend.type 'rocksdb'") {
				t.Fatalf("resuming a disk savepoint in memory: %v", err)
			}
		})
	}
}

func TestDiskStateBackendOptionErrors(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		sets        []string
		query, want string
	}{
		{[]string{"SET 'state.backend.type' = 'leveldb'"}, "SELECT k, COUNT(*) FROM gen GROUP BY k", "'leveldb' for key 'state.backend.type'"},
		{[]string{"SET 'state.backend.type' = 'rocksdb'", "SET 'state.backend.rocksdb.block.cache-size' = 'lots'"}, "SELECT k, COUNT(*) FROM gen GROUP BY k", "state.backend.rocksdb.block.cache-size"},
		{[]string{"SET 'state.backend.type' = 'forst'"}, "SELECT k, COUNT(DISTINCT v) FROM gen GROUP BY k", "COUNT(DISTINCT"},
		{[]string{"SET 'state.backend.type' = 'rocksdb'", "SET 'table.exec.state.ttl' = '1 h'"}, "SELECT v FROM gen WHERE v IN (SELECT w FROM gen2)", "state TTL (table.exec.state.ttl) is not supported with state.backend.type 'rocksdb'"},
	} {
		env := roundTripEnv(t, false)
		var err error
		for _, s := range c.sets {
			if _, err = env.ExecuteSQLContext(ctx, s); err != nil {
				break
			}
		}
		if err == nil {
			var res *TableResult
			res, err = env.ExecuteSQLContext(ctx, c.query)
			if err == nil {
				for _, err = range res.Rows(ctx) {
					if err != nil {
						break
					}
				}
			}
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %s: error %v, want one with %q", c.sets, c.query, err, c.want)
		}
	}
}

// TestDiskStateBackendIncrementalCheckpoints: with
// execution.checkpointing.incremental a checkpoint shares the SST files
// of the previous one (hard links: the same file) and reports less new
// data than it holds; without, every checkpoint is written whole.
func TestDiskStateBackendIncrementalCheckpoints(t *testing.T) {
	if testing.Short() {
		t.Skip("paced sources")
	}
	for _, incremental := range []bool{true, false} {
		t.Run(fmt.Sprintf("incremental=%v", incremental), func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			cps := t.TempDir()
			env := roundTripEnv(t, true)
			mustExec(t, env, diskBackend(t.TempDir())...)
			mustExec(t, env,
				"SET 'execution.checkpointing.interval' = '50 ms'",
				"SET 'execution.checkpointing.num-retained' = '2'",
				fmt.Sprintf("SET 'execution.checkpointing.incremental' = '%v'", incremental),
				"SET 'execution.checkpointing.externalized-checkpoint-retention' = 'RETAIN_ON_CANCELLATION'",
				"SET 'execution.checkpointing.dir' = '"+cps+"'")
			res, err := env.ExecuteSQLContext(ctx, "SELECT v % 37 AS g, COUNT(*), SUM(v) FROM gen GROUP BY v % 37")
			if err != nil {
				t.Fatal(err)
			}
			job := res.JobClient()
			go func() {
				for _, err := range res.Rows(ctx) {
					if err != nil {
						return
					}
				}
			}()
			seen := map[int64]CheckpointInfo{}
			testwait.Until(t, 30*time.Second, "four checkpoints", func() bool {
				if c, ok := job.LastCheckpoint(); ok {
					seen[c.ID] = c
				}
				return len(seen) >= 4
			})
			if err := job.Cancel(); err != nil {
				t.Fatal(err)
			}
			_ = job.Wait(ctx)
			shared := 0
			for _, c := range seen {
				if c.Size <= 0 || c.IncrementalSize <= 0 || c.IncrementalSize > c.Size {
					t.Fatalf("checkpoint %d: size %d, incremental size %d", c.ID, c.Size, c.IncrementalSize)
				}
				if c.IncrementalSize < c.Size {
					shared++
				}
			}
			// the two retained checkpoints: same-named SST files are one file
			// when incremental, copies when not
			dirs, _ := filepath.Glob(filepath.Join(cps, "*", "chk-*"))
			if len(dirs) != 2 {
				t.Fatalf("retained checkpoints: %v", dirs)
			}
			sameFiles, common := 0, 0
			ssts, _ := filepath.Glob(filepath.Join(dirs[0], "*.db", "*.sst"))
			for _, a := range ssts {
				b := filepath.Join(dirs[1], filepath.Base(filepath.Dir(a)), filepath.Base(a))
				fa, errA := os.Stat(a)
				fb, errB := os.Stat(b)
				if errA != nil || errB != nil {
					continue
				}
				common++
				if os.SameFile(fa, fb) {
					sameFiles++
				}
			}
			if incremental {
				// (compactions may leave the two with no SST file in common)
				if shared == 0 || sameFiles != common {
					t.Fatalf("incremental: %d of %d checkpoints shared data; %d of %d common SST files are one file", shared, len(seen), sameFiles, common)
				}
			} else if shared != 0 || sameFiles != 0 {
				t.Fatalf("full: %d checkpoints shared data, %d SST files linked", shared, sameFiles)
			}
			// the latest retained checkpoint loads
			if _, err := ReadCheckpoint(filepath.Dir(dirs[0])); err != nil {
				t.Fatal(err)
			}
			// a store file missing or changed: an error naming it
			for _, d := range dirs {
				if _, err := ReadCheckpoint(d); err != nil {
					t.Fatal(err)
				}
			}
			if len(ssts) > 0 {
				if err := os.Remove(ssts[0]); err != nil {
					t.Fatal(err)
				}
				if _, err := ReadCheckpoint(dirs[0]); err == nil || !strings.Contains(err.Error(), ssts[0]) {
					t.Fatalf("missing %s: %v", ssts[0], err)
				}
			}
			manifests, _ := filepath.Glob(filepath.Join(dirs[1], "*.db", "MANIFEST-*"))
			if len(manifests) == 0 {
				t.Fatalf("no MANIFEST in %s", dirs[1])
			}
			data, _ := os.ReadFile(manifests[0])
			data[len(data)-1] ^= 0xff
			if err := os.WriteFile(manifests[0], data, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := ReadCheckpoint(dirs[1]); err == nil || !strings.Contains(err.Error(), manifests[0]+" is corrupt") {
				t.Fatalf("changed %s: %v", manifests[0], err)
			}
		})
	}
}
