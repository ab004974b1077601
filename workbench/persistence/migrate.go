package persistence

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations[i] moves the schema from version i to i+1. Never edit a
// shipped migration: add a new one.
var migrations = []string{
	// 0 -> 1: the first workspace format.
	`CREATE TABLE schema_version (version INTEGER NOT NULL);
	 INSERT INTO schema_version(version) VALUES (0);
	 CREATE TABLE settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
	 CREATE TABLE tabs (
	   id       INTEGER PRIMARY KEY,
	   title    TEXT NOT NULL,
	   body     TEXT NOT NULL,
	   position INTEGER NOT NULL
	 );
	 CREATE TABLE history (
	   id          INTEGER PRIMARY KEY,
	   statement   TEXT NOT NULL,
	   started_at  TEXT NOT NULL,
	   duration_ms INTEGER NOT NULL,
	   row_count   INTEGER NOT NULL,
	   error       TEXT NOT NULL DEFAULT ''
	 );`,

	// 1 -> 2: cursors, the workspace singleton (selected tab, window, init
	// script, export settings), connections and chart settings.
	`ALTER TABLE tabs RENAME COLUMN body TO text;
	 ALTER TABLE tabs ADD COLUMN cursor_line INTEGER NOT NULL DEFAULT 0;
	 ALTER TABLE tabs ADD COLUMN cursor_col INTEGER NOT NULL DEFAULT 0;
	 CREATE TABLE workspace (
	   id           INTEGER PRIMARY KEY CHECK (id = 1),
	   selected_tab INTEGER NOT NULL DEFAULT 0,
	   init_script  TEXT NOT NULL DEFAULT '',
	   window_json  TEXT NOT NULL DEFAULT '',
	   export_json  TEXT NOT NULL DEFAULT ''
	 );
	 INSERT INTO workspace(id) VALUES (1);
	 CREATE TABLE connections (
	   name       TEXT PRIMARY KEY,
	   kind       TEXT NOT NULL,
	   url        TEXT NOT NULL DEFAULT '',
	   token      TEXT NOT NULL DEFAULT '',
	   properties TEXT NOT NULL DEFAULT '{}'
	 );
	 CREATE TABLE charts (
	   tab_id   INTEGER PRIMARY KEY REFERENCES tabs(id) ON DELETE CASCADE,
	   settings TEXT NOT NULL
	 );`,

	// 2 -> 3: a gateway connection's optional cluster REST URL (the Flink
	// JobManager's REST API, where its jobs are listed and cancelled).
	`ALTER TABLE connections ADD COLUMN cluster_rest TEXT NOT NULL DEFAULT '';`,

	// 3 -> 4: Kafka cluster connections (see kafka.go): settings as JSON,
	// the password apart and only when the user saved it.
	`CREATE TABLE kafka_connections (
	   name     TEXT PRIMARY KEY,
	   settings TEXT NOT NULL DEFAULT '{}',
	   password TEXT NOT NULL DEFAULT ''
	 );`,

	// 4 -> 5: the running embedded streaming jobs that take checkpoints
	// (see running_jobs.go), offered for resuming after a crash.
	`CREATE TABLE running_jobs (
	   job_id              TEXT PRIMARY KEY,
	   tab_id              INTEGER NOT NULL,
	   statement           TEXT NOT NULL,
	   checkpoint_dir      TEXT NOT NULL DEFAULT '',
	   checkpoint_interval TEXT NOT NULL DEFAULT '',
	   job_checkpoint_dir  TEXT NOT NULL,
	   started_at          TEXT NOT NULL
	 );`,

	// 5 -> 6: live dashboards and their tiles (dashboards_schema.go).
	migrationDashboards,

	// 6 -> 7: alert rules on live queries and the alert log
	// (alerts_schema.go).
	migrationAlerts,
}

// CurrentVersion is the schema version this build writes.
var CurrentVersion = len(migrations)

func (s *Store) migrate(ctx context.Context) error {
	return s.tx(ctx, func(tx *sql.Tx) error {
		var v int
		var n int
		if err := tx.QueryRowContext(ctx,
			`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'`).Scan(&n); err != nil {
			return fmt.Errorf("persistence: reading the schema version: %w", err)
		}
		if n > 0 {
			if err := tx.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil {
				return fmt.Errorf("persistence: reading the schema version: %w", err)
			}
		}
		if v > CurrentVersion {
			return fmt.Errorf("%w (schema %d, this build knows %d)", ErrNewerSchema, v, CurrentVersion)
		}
		for ; v < CurrentVersion; v++ {
			if _, err := tx.ExecContext(ctx, migrations[v]); err != nil {
				return fmt.Errorf("persistence: migrating the workspace from schema %d to %d: %w", v, v+1, err)
			}
			if _, err := tx.ExecContext(ctx, `UPDATE schema_version SET version = ?`, v+1); err != nil {
				return err
			}
		}
		return nil
	})
}
