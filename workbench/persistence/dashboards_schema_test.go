package persistence

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"
)

// A schema-5 workspace (running jobs, no dashboards) migrates to one with
// the dashboard and alert tables, empty, its running jobs kept.
func TestMigrationFromVersion5AddsDashboardsAndAlerts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v5.riffle")
	db, err := sql.Open("sqlite3", path)
	must(t, err)
	stmts := append([]string{}, migrations[:5]...)
	stmts = append(stmts, `UPDATE schema_version SET version = 5`,
		`INSERT INTO running_jobs(job_id, tab_id, statement, job_checkpoint_dir, started_at)
		 VALUES ('j', 1, 'INSERT INTO s SELECT 1', '/d/j', '2026-12-02T10:00:00Z')`)
	for _, stmt := range stmts {
		if _, err := db.Exec(stmt); err != nil {
			t.Fatalf("%s: %v", stmt, err)
		}
	}
	db.Close()
	s := open(t, path)
	defer s.Close()
	ctx := context.Background()
	if v, _ := s.SchemaVersion(ctx); v != CurrentVersion || v < 7 {
		t.Fatalf("schema %d, want %d (at least 7)", v, CurrentVersion)
	}
	for _, table := range []string{"dashboards", "dashboard_tiles", "alert_rules", "alert_log"} {
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT count(*) FROM `+table).Scan(&n); err != nil || n != 0 {
			t.Errorf("%s: %d rows, %v", table, n, err)
		}
	}
	if jobs, err := s.RunningJobs(ctx); err != nil || len(jobs) != 1 || jobs[0].JobID != "j" {
		t.Errorf("running jobs after the migration: %+v, %v", jobs, err)
	}
}
