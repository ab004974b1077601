package catalogbrowser

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/riffle-sql/riffle/engine/testwait"
)

// A materialized table has its own icon, "materialized" beside its name,
// and first child lines with its refresh mode, freshness and status; a
// FULL table's say when it was last refreshed, once it has been.
func TestTreeShowsMaterializedTables(t *testing.T) {
	test.NewTempApp(t)
	dir := t.TempDir()
	src := filepath.Join(dir, "src.csv")
	if err := os.WriteFile(src, []byte("1,a\n2,b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env := newEnv(t,
		"CREATE TABLE gen (k INT, v STRING) WITH ('connector' = 'datagen', 'rows-per-second' = '10')",
		"CREATE MATERIALIZED TABLE live WITH ('connector' = 'blackhole') FRESHNESS = INTERVAL '3' MINUTE AS SELECT k, COUNT(*) AS n FROM gen GROUP BY k",
		fmt.Sprintf("CREATE TABLE src (k INT, v STRING) WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv')", src),
		fmt.Sprintf("CREATE MATERIALIZED TABLE daily WITH ('connector' = 'filesystem', 'path' = '%s', 'format' = 'csv') "+
			"FRESHNESS = INTERVAL '1' SECOND REFRESH_MODE = FULL AS SELECT v, SUM(k) AS s FROM src GROUP BY v", filepath.Join(dir, "daily")),
	)
	t.Cleanup(func() {
		for _, n := range []string{"live", "daily"} {
			if _, err := env.ExecuteSQL("DROP MATERIALIZED TABLE " + n); err != nil {
				t.Errorf("drop %s: %v", n, err)
			}
		}
	})
	testwait.Until(t, time.Minute, "the continuous refresh job to run", func() bool {
		infos, err := env.MaterializedTables("default_catalog", "default_database")
		if err != nil {
			return false
		}
		for _, i := range infos {
			if j, ok := env.JobByID(i.RefreshJobID); ok && i.Name == "live" {
				return j.Status().String() == "RUNNING"
			}
		}
		return false
	})
	b := New(EnvSource{Env: env})
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(500, 600))
	b.OpenPath("default_catalog", "default_database", "live")
	got := strings.Join(b.VisibleLabels(), "\n")
	for _, want := range []string{
		"    daily materialized\n",
		"    gen\n",
		"    live materialized\n      CONTINUOUS refresh\n      freshness 3 min\n      status ACTIVATED\n      job RUNNING\n      k INT",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("tree lacks %q:\n%s", want, got)
		}
	}
	if b.icon(nodeID(nodeObject, "default_catalog", "default_database", "live")) != materializedIcon ||
		b.icon(nodeID(nodeObject, "default_catalog", "default_database", "gen")) == materializedIcon {
		t.Error("only the materialized tables have the materialized icon")
	}

	// the FULL table: refreshed by its schedule, then the line says when
	testwait.Until(t, time.Minute, "a FULL refresh to complete", func() bool {
		infos, err := env.MaterializedTables("default_catalog", "default_database")
		if err != nil {
			return false
		}
		for _, i := range infos {
			if i.Name == "daily" && !i.LastRefresh.IsZero() {
				return true
			}
		}
		return false
	})
	b.Reload()
	b.OpenPath("default_catalog", "default_database", "daily")
	got = strings.Join(b.VisibleLabels(), "\n")
	const want = "    daily materialized\n      FULL refresh\n      freshness 1 s\n      status ACTIVATED\n      last refresh "
	i := strings.Index(got, want)
	if i < 0 {
		t.Fatalf("tree lacks %q:\n%s", want, got)
	}
	last, _, _ := strings.Cut(got[i+len(want):], "\n")
	if _, err := time.Parse("15:04:05", last); err != nil {
		if _, err := time.Parse("2006-01-02 15:04:05", last); err != nil {
			t.Errorf("last refresh %q is not a time", last)
		}
	}
}

func TestMaterializedLines(t *testing.T) {
	now := time.Date(2026, 12, 2, 14, 0, 0, 0, time.Local)
	m := Materialized{RefreshMode: "FULL", Freshness: "INTERVAL '2' DAY", Status: "SUSPENDED"}
	if got, want := fmt.Sprint(m.Lines(now)), "[[FULL refresh] [freshness 2 days] [status SUSPENDED] [last refresh not yet]]"; got != want {
		t.Errorf("Lines() = %s, want %s", got, want)
	}
	c := Materialized{RefreshMode: "CONTINUOUS", Freshness: "INTERVAL '30' SECOND", Status: "ACTIVATED", JobID: "j1"}
	if got, want := fmt.Sprint(c.Lines(now)), "[[CONTINUOUS refresh] [freshness 30 s] [status ACTIVATED] [job not running]]"; got != want {
		t.Errorf("Lines() = %s, want %s", got, want)
	}
	m.LastRefresh = now.Add(-time.Hour)
	if got := m.Lines(now)[3][1]; got != "13:00:00" {
		t.Errorf("last refresh today: %q", got)
	}
	m.LastRefresh = now.Add(-48 * time.Hour)
	if got := m.Lines(now)[3][1]; got != "2026-11-30 14:00:00" {
		t.Errorf("last refresh two days ago: %q", got)
	}
}
