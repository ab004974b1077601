package table

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/testwait"
	"github.com/riffle-sql/riffle/engine/types"
)

func mtExec(t *testing.T, env *TableEnvironment, stmt string) *TableResult {
	t.Helper()
	res, err := env.ExecuteSQL(stmt)
	if err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
	return res
}

func mtState(t *testing.T, env *TableEnvironment, name string) *catalog.Materialized {
	t.Helper()
	tbl, err := env.materializedOf(catalog.ObjectIdentifier{Catalog: env.CurrentCatalog(), Database: env.CurrentDatabase(), Object: name})
	if err != nil {
		t.Fatal(err)
	}
	return tbl.Materialized
}

// A CONTINUOUS table over an unbounded source: its streaming job runs with
// checkpoints (every freshness interval), SUSPEND stops it with a
// savepoint, RESUME starts a new job from that savepoint, DROP cancels the
// job.
func TestMaterializedContinuousSuspendResume(t *testing.T) {
	env := MustCreate(InStreamingMode())
	sp := t.TempDir()
	mtExec(t, env, fmt.Sprintf("SET 'execution.checkpointing.savepoint-dir' = '%s'", sp))
	mtExec(t, env, "CREATE TABLE gen (k INT, v STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '50', 'fields.k.min' = '1', 'fields.k.max' = '5')")
	mtExec(t, env, "CREATE MATERIALIZED TABLE m WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '1' SECOND AS SELECT k, COUNT(*) AS n FROM gen GROUP BY k")

	m := mtState(t, env, "m")
	if m.RefreshMode != catalog.RefreshContinuous || m.RefreshStatus != catalog.RefreshActivated || m.RefreshJobID == "" {
		t.Fatalf("after CREATE: mode %s, status %s, job %q", m.RefreshMode, m.RefreshStatus, m.RefreshJobID)
	}
	first, ok := env.JobByID(m.RefreshJobID)
	if !ok {
		t.Fatalf("job %s is not listed by the environment", m.RefreshJobID)
	}
	if want := "Materialized_table_`default_catalog`.`default_database`.`m`_continuous_refresh_job"; first.JobName() != want {
		t.Errorf("job name %q, want %q", first.JobName(), want)
	}
	testwait.Until(t, time.Minute, "a checkpoint of the refresh job", func() bool { return first.CheckpointCounts().Completed > 0 })

	mtExec(t, env, "ALTER MATERIALIZED TABLE m SUSPEND")
	m = mtState(t, env, "m")
	if m.RefreshStatus != catalog.RefreshSuspended || m.SavepointPath == "" {
		t.Fatalf("after SUSPEND: status %s, savepoint %q", m.RefreshStatus, m.SavepointPath)
	}
	if !strings.Contains(m.SavepointPath, sp) {
		t.Errorf("savepoint %s is not under %s", m.SavepointPath, sp)
	}
	if st := first.Status(); !st.IsTerminal() {
		t.Fatalf("the suspended job is %s", st)
	}
	if _, err := env.ExecuteSQL("ALTER MATERIALIZED TABLE m SUSPEND"); err == nil || !strings.Contains(err.Error(), "continuous refresh job has been suspended, jobId is "+first.JobID()) {
		t.Fatalf("second SUSPEND: %v", err)
	}

	mtExec(t, env, "ALTER MATERIALIZED TABLE m RESUME WITH ('sink.parallelism' = '1')")
	m = mtState(t, env, "m")
	second, ok := env.JobByID(m.RefreshJobID)
	if !ok || second == first || m.RefreshStatus != catalog.RefreshActivated || m.SavepointPath != "" {
		t.Fatalf("after RESUME: job %q (listed %v), status %s, savepoint %q", m.RefreshJobID, ok, m.RefreshStatus, m.SavepointPath)
	}
	if !strings.Contains(second.Statement(), "OPTIONS('sink.parallelism'='1')") {
		t.Errorf("the resumed job's statement lacks the dynamic options:\n%s", second.Statement())
	}
	if _, err := env.ExecuteSQL("ALTER MATERIALIZED TABLE m RESUME"); err == nil || !strings.Contains(err.Error(), "continuous refresh job has been resumed") {
		t.Fatalf("RESUME of a running table: %v", err)
	}

	mtExec(t, env, "DROP MATERIALIZED TABLE m")
	testwait.Until(t, time.Minute, "the refresh job to end after DROP", func() bool { return second.Status().IsTerminal() })
	if st := second.Status(); st != JobCanceled {
		t.Errorf("after DROP the refresh job is %s, want CANCELED", st)
	}
}

// A FULL table is refreshed by the in-process schedule every freshness
// interval: a periodic batch job overwrites the table and the table
// records when. DROP ends the schedule.
func TestMaterializedFullSchedule(t *testing.T) {
	env := MustCreate(InStreamingMode())
	dir := t.TempDir()
	src := filepath.Join(dir, "src.csv")
	if err := os.WriteFile(src, []byte("1,a\n2,b\n3,a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mtExec(t, env, fmt.Sprintf("CREATE TABLE src (k INT, v STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')", src))
	mtExec(t, env, fmt.Sprintf(`CREATE MATERIALIZED TABLE f WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')
		FRESHNESS = INTERVAL '1' SECOND REFRESH_MODE = FULL AS SELECT v, SUM(k) AS s FROM src GROUP BY v`, filepath.Join(dir, "f")))
	id := catalog.ObjectIdentifier{Catalog: env.CurrentCatalog(), Database: env.CurrentDatabase(), Object: "f"}
	if _, ok := fullRefreshers.Load(refresherKey{env, id}); !ok {
		t.Fatal("no schedule runs for the FULL table")
	}
	testwait.Until(t, time.Minute, "a periodic refresh to complete", func() bool {
		infos, err := env.MaterializedTables(env.CurrentCatalog(), env.CurrentDatabase())
		return err == nil && len(infos) == 1 && !infos[0].LastRefresh.IsZero()
	})
	periodic := 0
	for _, j := range env.Jobs() {
		if j.JobName() == "Materialized_table_`default_catalog`.`default_database`.`f`_periodic_refresh_job" {
			periodic++
		}
	}
	if periodic == 0 {
		t.Fatal("no periodic refresh job is listed")
	}
	mtExec(t, env, "SET 'execution.runtime-mode' = 'batch'")
	it, err := mtExec(t, env, "SELECT v, s FROM f").Collect()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for it.Next() {
		got = append(got, fmt.Sprintf("%v %v", it.Row().Values[0], it.Row().Values[1]))
	}
	if err := it.Err(); err != nil {
		t.Fatal(err)
	}
	it.Close()
	sort.Strings(got)
	if strings.Join(got, ";") != "a 4;b 2" {
		t.Errorf("rows of f: %v, want [a 4 b 2] (an overwrite leaves one copy)", got)
	}
	mtExec(t, env, "DROP MATERIALIZED TABLE f")
	if _, ok := fullRefreshers.Load(refresherKey{env, id}); ok {
		t.Fatal("the schedule runs on after DROP")
	}
}

// periodicPartitions gives each 'partition.fields.#.date-formatter'
// column the schedule time minus the freshness, formatted in the zone.
func TestMaterializedPeriodicPartitions(t *testing.T) {
	tbl := &catalog.Table{
		TableSchema:   types.NewPhysicalSchema([]string{"ds", "hh", "n"}, []*types.DataType{types.StringType(), types.StringType(), types.BigIntType()}),
		PartitionKeys: []string{"ds", "hh"},
		TableOptions: map[string]string{"partition.fields.ds.date-formatter": "yyyy-MM-dd", "partition.fields.hh.date-formatter": "HH",
			"connector": "blackhole"},
		Materialized: &catalog.Materialized{FreshnessInterval: 1, FreshnessUnit: "HOUR"},
	}
	at := time.Date(2024, 3, 1, 0, 30, 0, 0, time.UTC)
	spec, err := periodicPartitions(catalog.ObjectIdentifier{}, at, tbl, time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if spec["ds"] != "2024-02-29" || spec["hh"] != "23" || len(spec) != 2 {
		t.Fatalf("partitions %v, want ds=2024-02-29 hh=23", spec)
	}
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Skip("no time zone data:", err)
	}
	spec, _ = periodicPartitions(catalog.ObjectIdentifier{}, at, tbl, tokyo)
	if spec["ds"] != "2024-03-01" || spec["hh"] != "08" {
		t.Fatalf("partitions in Asia/Tokyo %v, want ds=2024-03-01 hh=08", spec)
	}
	if got := refreshStatement(catalog.ObjectIdentifier{Catalog: "c", Database: "d", Object: "t"}, "SELECT 1", spec, nil); got != "INSERT OVERWRITE `c`.`d`.`t`\n  SELECT * FROM (SELECT 1)\n  WHERE `ds` = '2024-03-01' AND `hh` = '08'" {
		t.Errorf("refresh statement:\n%s", got)
	}
}
