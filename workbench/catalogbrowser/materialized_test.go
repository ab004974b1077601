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
// and a first child line with its refresh mode, freshness and status; a
// FULL table's line says when it was last refreshed, once it has been.
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
	b := New(EnvSource{Env: env})
	w := test.NewTempWindow(t, b)
	w.Resize(fyne.NewSize(500, 600))
	b.OpenPath("default_catalog", "default_database", "live")
	got := strings.Join(b.VisibleLabels(), "\n")
	for _, want := range []string{
		"    daily materialized\n",
		"    gen\n",
		"    live materialized\n      materialized CONTINUOUS · freshness 3 min · ACTIVATED\n      k INT",
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
	line := ""
	for _, l := range b.VisibleLabels() {
		if strings.HasPrefix(l, "      materialized FULL") {
			line = l
		}
	}
	const prefix = "      materialized FULL · freshness 1 s · ACTIVATED · last refresh "
	if !strings.HasPrefix(line, prefix) {
		t.Fatalf("FULL table's line %q, want prefix %q", line, prefix)
	}
	if _, err := time.ParseInLocation("2006-01-02 15:04:05", strings.TrimPrefix(line, prefix), time.Local); err != nil {
		t.Errorf("last refresh is not a time: %v", err)
	}
}

func TestMaterializedDetailBeforeFirstRefresh(t *testing.T) {
	m := Materialized{RefreshMode: "FULL", Freshness: "INTERVAL '2' DAY", Status: "SUSPENDED"}
	if got, want := m.Detail(), "materialized · FULL · freshness 2 days · SUSPENDED · not refreshed yet"; got != want {
		t.Errorf("Detail() = %q, want %q", got, want)
	}
}
