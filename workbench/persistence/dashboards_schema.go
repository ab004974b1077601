package persistence

// migrationDashboards (5 -> 6) stores the workspace's live dashboards
// (issue 21): a dashboard is a named grid of tiles; a tile pins one live
// query's view (its grid, a chart, a single-value tile, the changelog
// rate). The tile's kind-specific settings (column, chart settings, grid
// cell and span) are JSON in spec, so new tile kinds need no migration.
const migrationDashboards = `CREATE TABLE dashboards (
   id       INTEGER PRIMARY KEY,
   name     TEXT NOT NULL UNIQUE,
   position INTEGER NOT NULL DEFAULT 0,
   layout   TEXT NOT NULL DEFAULT '{}'
 );
 CREATE TABLE dashboard_tiles (
   id           INTEGER PRIMARY KEY,
   dashboard_id INTEGER NOT NULL REFERENCES dashboards(id) ON DELETE CASCADE,
   kind         TEXT NOT NULL,
   title        TEXT NOT NULL DEFAULT '',
   statement    TEXT NOT NULL,
   spec         TEXT NOT NULL DEFAULT '{}',
   position     INTEGER NOT NULL
 );`
