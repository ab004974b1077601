// Package persistence keeps Riffle workspaces in SQLite: one file per
// workspace holding the editor tabs, window layout, query history, the
// init script, export settings, connections, chart settings and generic
// key/value settings.
//
// The database runs in WAL mode with synchronous=NORMAL, so a committed
// write survives a killed process. The schema carries a version; Open
// applies the forward migrations in one transaction. Loading skips a
// damaged row (say, a JSON blob that no longer parses) and reports it in
// Workspace.Problems instead of failing. A Store is safe for concurrent use.
package persistence

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	_ "github.com/mattn/go-sqlite3" // the "sqlite3" driver
)

// DefaultFileName is the default workspace's file name.
const DefaultFileName = "default.riffle"

// DefaultPath is os.UserConfigDir()/riffle/default.riffle.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("persistence: locating the user config directory: %w", err)
	}
	return filepath.Join(dir, "riffle", DefaultFileName), nil
}

// Store is an open workspace file.
type Store struct {
	db   *sql.DB
	path string
	lock *workspaceLock // nil for a read-only store
	// copyDir, for a read-only store, holds the private copy it works on.
	copyDir string
}

// ErrNewerSchema is returned by Open for a workspace written by a newer Riffle.
var ErrNewerSchema = errors.New("persistence: the workspace was written by a newer version of Riffle")

// Open opens (creating if needed) the workspace at path and migrates its
// schema to the current version. It first takes the workspace's lock (see
// LockPath), held until Close: when another process (or another Store of
// this process) has the workspace open, Open fails with a *LockedError
// (errors.Is(err, ErrLocked)) and writes nothing; OpenReadOnly is the
// alternative.
func Open(ctx context.Context, path string) (*Store, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	lock, err := lockWorkspace(path)
	if err != nil {
		return nil, err
	}
	s, err := openDB(ctx, path)
	if err != nil {
		lock.release()
		return nil, err
	}
	if err := lock.lockIdentity(path); err != nil {
		s.db.Close()
		lock.release()
		return nil, err
	}
	s.lock = lock
	return s, nil
}

// OpenReadOnly opens the workspace at path without its lock and without
// ever writing it: it works on a private copy (taken with SQLite's VACUUM
// INTO, a consistent read even while another process writes), which
// Close deletes. Everything saved through the Store goes to the copy and
// is lost at Close. It is what a second window on a workspace that is
// already open uses.
func OpenReadOnly(ctx context.Context, path string) (*Store, error) {
	if _, err := os.Stat(path); err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	dir, err := os.MkdirTemp("", "riffle-readonly-")
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	copyPath := filepath.Join(dir, filepath.Base(path))
	if err := snapshotInto(ctx, path, copyPath); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s, err := openDB(ctx, copyPath)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	s.path, s.copyDir = path, dir
	return s, nil
}

// snapshotInto copies the database at src to dst through a read-only
// connection.
func snapshotInto(ctx context.Context, src, dst string) error {
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("_busy_timeout", "5000")
	db, err := sql.Open("sqlite3", "file:"+url.PathEscape(src)+"?"+q.Encode())
	if err != nil {
		return fmt.Errorf("persistence: %w", err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, dst); err != nil {
		return fmt.Errorf("persistence: reading %s: %w", src, err)
	}
	return nil
}

// ReadOnly reports a Store opened with OpenReadOnly: nothing it saves
// reaches the workspace file.
func (s *Store) ReadOnly() bool { return s.copyDir != "" }

func openDB(ctx context.Context, path string) (*Store, error) {
	q := url.Values{}
	q.Set("_journal_mode", "WAL")
	q.Set("_synchronous", "NORMAL")
	q.Set("_busy_timeout", "5000")
	q.Set("_foreign_keys", "1")
	q.Set("_txlock", "immediate")
	db, err := sql.Open("sqlite3", "file:"+url.PathEscape(path)+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	// One connection: writes are small and serialised anyway, and no two of
	// our own connections can then wait on each other's locks.
	db.SetMaxOpenConns(1)
	s := &Store{db: db, path: path}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// Path returns the workspace file's path.
func (s *Store) Path() string { return s.path }

// Close closes the database (flush autosavers first) and releases the
// workspace's lock (a read-only Store deletes its copy).
func (s *Store) Close() error {
	err := s.db.Close()
	s.lock.release()
	s.lock = nil
	if s.copyDir != "" {
		os.RemoveAll(s.copyDir)
	}
	return err
}

// SchemaVersion returns the schema version of the open workspace.
func (s *Store) SchemaVersion(ctx context.Context) (int, error) {
	var v int
	err := s.db.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v)
	return v, err
}

func (s *Store) tx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("persistence: %w", err)
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("persistence: %w", err)
	}
	return nil
}

// ---- the data ----------------------------------------------------------------

// Tab is an editor tab.
type Tab struct {
	ID         int64
	Title      string
	Text       string
	CursorLine int // 0-based
	CursorCol  int // 0-based, in runes
	Order      int // position among the tabs, left to right
}

// Window is the main window's size and split positions (keyed by split
// name, e.g. "catalog", "results"; each a fraction 0..1 as Fyne's Split.Offset).
type Window struct {
	Width, Height float32
	Splits        map[string]float64
}

// HistoryEntry is one executed statement.
type HistoryEntry struct {
	ID        int64
	Statement string
	Started   time.Time
	Duration  time.Duration
	Rows      int64
	Error     string // empty when it succeeded
}

// ExportSettings are the last CSV export dialog's choices.
type ExportSettings struct {
	Delimiter          string `json:"delimiter"`
	Quote              string `json:"quote"`
	Header             bool   `json:"header"`
	QuotePolicy        string `json:"quotePolicy"` // as-needed | all | all-but-nulls | never
	NullText           string `json:"nullText"`
	CRLF               bool   `json:"crlf"`
	BOM                bool   `json:"bom"`
	ReplaceNewlines    bool   `json:"replaceNewlines"`
	NewlineReplacement string `json:"newlineReplacement"`
	DecimalSeparator   string `json:"decimalSeparator"`
	LastDir            string `json:"lastDir"`
	// Format is the export dialog's file format: csv (default), json or
	// parquet (results.ParseExportFormat).
	Format string `json:"format,omitempty"`
}

// Connection kinds.
const (
	KindEmbedded = "embedded"
	KindGateway  = "gateway"
)

// Connection is an engine the workbench can run statements on.
type Connection struct {
	Name       string
	Kind       string // KindEmbedded or KindGateway
	URL        string
	Token      string
	Properties map[string]string // session properties (SET 'k' = 'v')
	// ClusterREST is, for a gateway, the REST API of the Flink cluster it
	// submits to (the JobManager's, e.g. "http://127.0.0.1:8081"), or "":
	// optional; jobs are then listed, followed and cancelled there (see
	// gateway.RemoteOptions.ClusterREST).
	ClusterREST string
}

// Workspace is everything Load reads at start.
type Workspace struct {
	Tabs        []Tab // in Order
	SelectedTab int64
	Window      Window
	InitScript  string
	Export      ExportSettings
	Connections []Connection
	Charts      map[int64]json.RawMessage // chart settings per tab
	Settings    map[string]string
	// Problems lists damaged rows that were skipped.
	Problems []error
}

// RowError describes a damaged row skipped while loading.
type RowError struct {
	Table, Key string
	Err        error
}

func (e *RowError) Error() string {
	return fmt.Sprintf("workspace: skipped %s %q: %v", e.Table, e.Key, e.Err)
}

func (e *RowError) Unwrap() error { return e.Err }

// Load reads the whole workspace. Damaged rows are skipped and listed in
// Problems; only a database failure is an error.
func (s *Store) Load(ctx context.Context) (*Workspace, error) {
	w := &Workspace{Charts: map[int64]json.RawMessage{}, Settings: map[string]string{}}
	var err error
	if w.Tabs, err = s.Tabs(ctx); err != nil {
		return nil, err
	}
	var windowJSON, exportJSON string
	err = s.db.QueryRowContext(ctx,
		`SELECT selected_tab, init_script, window_json, export_json FROM workspace WHERE id = 1`).
		Scan(&w.SelectedTab, &w.InitScript, &windowJSON, &exportJSON)
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	if windowJSON != "" {
		if err := json.Unmarshal([]byte(windowJSON), &w.Window); err != nil {
			w.Problems = append(w.Problems, &RowError{"workspace", "window", err})
			w.Window = Window{}
		}
	}
	if exportJSON != "" {
		if err := json.Unmarshal([]byte(exportJSON), &w.Export); err != nil {
			w.Problems = append(w.Problems, &RowError{"workspace", "export settings", err})
			w.Export = ExportSettings{}
		}
	}
	if w.Connections, err = s.connections(ctx, &w.Problems); err != nil {
		return nil, err
	}
	rows, err := s.db.QueryContext(ctx, `SELECT tab_id, settings FROM charts ORDER BY tab_id`)
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	for rows.Next() {
		var id int64
		var blob string
		if err := rows.Scan(&id, &blob); err != nil {
			rows.Close()
			return nil, fmt.Errorf("persistence: %w", err)
		}
		if !json.Valid([]byte(blob)) {
			w.Problems = append(w.Problems, &RowError{"charts", fmt.Sprint(id), errors.New("not valid JSON")})
			continue
		}
		w.Charts[id] = json.RawMessage(blob)
	}
	rows.Close()
	if w.Settings, err = s.Settings(ctx); err != nil {
		return nil, err
	}
	return w, rows.Err()
}

// ---- tabs --------------------------------------------------------------------

// Tabs returns the tabs in order.
func (s *Store) Tabs(ctx context.Context) ([]Tab, error) {
	rows, err := s.db.QueryContext(ctx,
		`SELECT id, title, text, cursor_line, cursor_col, position FROM tabs ORDER BY position, id`)
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	defer rows.Close()
	var tabs []Tab
	for rows.Next() {
		var t Tab
		if err := rows.Scan(&t.ID, &t.Title, &t.Text, &t.CursorLine, &t.CursorCol, &t.Order); err != nil {
			return nil, fmt.Errorf("persistence: %w", err)
		}
		tabs = append(tabs, t)
	}
	return tabs, rows.Err()
}

// SaveTabs makes the stored tabs exactly tabs (inserting those with ID 0
// and returning them with their new IDs), removing any others, and records
// the selected tab. Saving the same set again changes nothing.
func (s *Store) SaveTabs(ctx context.Context, tabs []Tab, selected int64) ([]Tab, error) {
	out := append([]Tab(nil), tabs...)
	err := s.tx(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `CREATE TEMP TABLE IF NOT EXISTS keep(id INTEGER PRIMARY KEY)`); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM temp.keep`); err != nil {
			return err
		}
		for i := range out {
			t := &out[i]
			if t.ID == 0 {
				res, err := tx.ExecContext(ctx,
					`INSERT INTO tabs(title, text, cursor_line, cursor_col, position) VALUES (?, ?, ?, ?, ?)`,
					t.Title, t.Text, t.CursorLine, t.CursorCol, t.Order)
				if err != nil {
					return err
				}
				if t.ID, err = res.LastInsertId(); err != nil {
					return err
				}
			} else if _, err := tx.ExecContext(ctx,
				`INSERT INTO tabs(id, title, text, cursor_line, cursor_col, position) VALUES (?, ?, ?, ?, ?, ?)
				 ON CONFLICT(id) DO UPDATE SET title = excluded.title, text = excluded.text,
				   cursor_line = excluded.cursor_line, cursor_col = excluded.cursor_col, position = excluded.position`,
				t.ID, t.Title, t.Text, t.CursorLine, t.CursorCol, t.Order); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO temp.keep(id) VALUES (?)`, t.ID); err != nil {
				return err
			}
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM tabs WHERE id NOT IN (SELECT id FROM temp.keep)`); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `UPDATE workspace SET selected_tab = ? WHERE id = 1`, selected)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("persistence: saving tabs: %w", err)
	}
	return out, nil
}

// ErrNoTab is returned by UpdateTab for a tab that is not stored (closed).
var ErrNoTab = errors.New("persistence: no such tab")

// UpdateTab saves an existing tab's title, text, cursor and order. It never
// re-creates a tab that was closed (ErrNoTab), so a late autosave cannot
// bring a closed tab back.
func (s *Store) UpdateTab(ctx context.Context, t Tab) error {
	res, err := s.db.ExecContext(ctx,
		`UPDATE tabs SET title = ?, text = ?, cursor_line = ?, cursor_col = ?, position = ? WHERE id = ?`,
		t.Title, t.Text, t.CursorLine, t.CursorCol, t.Order, t.ID)
	if err != nil {
		return fmt.Errorf("persistence: saving tab %d: %w", t.ID, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNoTab
	}
	return nil
}

// DeleteTab removes a tab and its chart settings.
func (s *Store) DeleteTab(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM tabs WHERE id = ?`, id)
	return err
}

// SetSelectedTab records the selected tab.
func (s *Store) SetSelectedTab(ctx context.Context, id int64) error {
	_, err := s.db.ExecContext(ctx, `UPDATE workspace SET selected_tab = ? WHERE id = 1`, id)
	return err
}

// ---- singletons: window, init script, export settings --------------------------

func (s *Store) setWorkspaceColumn(ctx context.Context, col string, v any) error {
	_, err := s.db.ExecContext(ctx, `UPDATE workspace SET `+col+` = ? WHERE id = 1`, v)
	if err != nil {
		return fmt.Errorf("persistence: %w", err)
	}
	return nil
}

// SaveWindow records the window size and split positions.
func (s *Store) SaveWindow(ctx context.Context, w Window) error {
	b, err := json.Marshal(w)
	if err != nil {
		return err
	}
	return s.setWorkspaceColumn(ctx, "window_json", string(b))
}

// SaveInitScript records the statements run when the workspace opens.
func (s *Store) SaveInitScript(ctx context.Context, script string) error {
	return s.setWorkspaceColumn(ctx, "init_script", script)
}

// SaveExportSettings records the export dialog's choices.
func (s *Store) SaveExportSettings(ctx context.Context, e ExportSettings) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	return s.setWorkspaceColumn(ctx, "export_json", string(b))
}

// ---- history -----------------------------------------------------------------

// AddHistory appends an executed statement and returns its ID.
func (s *Store) AddHistory(ctx context.Context, h HistoryEntry) (int64, error) {
	res, err := s.db.ExecContext(ctx,
		`INSERT INTO history(statement, started_at, duration_ms, row_count, error) VALUES (?, ?, ?, ?, ?)`,
		h.Statement, h.Started.UTC().Format(time.RFC3339Nano), h.Duration.Milliseconds(), h.Rows, h.Error)
	if err != nil {
		return 0, fmt.Errorf("persistence: %w", err)
	}
	return res.LastInsertId()
}

// UpdateHistory records the outcome of a statement added earlier (a
// query's final duration, row count and error): it rewrites the entry's
// duration, row count and error by ID. A missing entry (history cleared
// meanwhile) is not an error.
func (s *Store) UpdateHistory(ctx context.Context, h HistoryEntry) error {
	_, err := s.db.ExecContext(ctx,
		`UPDATE history SET duration_ms = ?, row_count = ?, error = ? WHERE id = ?`,
		h.Duration.Milliseconds(), h.Rows, h.Error, h.ID)
	if err != nil {
		return fmt.Errorf("persistence: %w", err)
	}
	return nil
}

// History returns the latest limit statements, newest first (limit <= 0: all).
// An entry whose start time cannot be read is skipped and reported.
func (s *Store) History(ctx context.Context, limit int) ([]HistoryEntry, []error, error) {
	if limit <= 0 {
		limit = -1
	}
	rows, err := s.db.QueryContext(ctx,
		`SELECT id, statement, started_at, duration_ms, row_count, error FROM history ORDER BY id DESC LIMIT ?`, limit)
	if err != nil {
		return nil, nil, fmt.Errorf("persistence: %w", err)
	}
	defer rows.Close()
	var out []HistoryEntry
	var problems []error
	for rows.Next() {
		var h HistoryEntry
		var started string
		var ms int64
		if err := rows.Scan(&h.ID, &h.Statement, &started, &ms, &h.Rows, &h.Error); err != nil {
			return nil, nil, fmt.Errorf("persistence: %w", err)
		}
		t, err := time.Parse(time.RFC3339Nano, started)
		if err != nil {
			problems = append(problems, &RowError{"history", fmt.Sprint(h.ID), err})
			continue
		}
		h.Started, h.Duration = t, time.Duration(ms)*time.Millisecond
		out = append(out, h)
	}
	return out, problems, rows.Err()
}

// ClearHistory deletes the query history.
func (s *Store) ClearHistory(ctx context.Context) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM history`)
	return err
}

// ---- connections ---------------------------------------------------------------

// SaveConnection inserts or replaces a connection by name.
func (s *Store) SaveConnection(ctx context.Context, c Connection) error {
	if c.Kind != KindEmbedded && c.Kind != KindGateway {
		return fmt.Errorf("persistence: connection kind %q: want %q or %q", c.Kind, KindEmbedded, KindGateway)
	}
	props, err := json.Marshal(c.Properties)
	if err != nil {
		return err
	}
	_, err = s.db.ExecContext(ctx,
		`INSERT INTO connections(name, kind, url, token, properties, cluster_rest) VALUES (?, ?, ?, ?, ?, ?)
		 ON CONFLICT(name) DO UPDATE SET kind = excluded.kind, url = excluded.url,
		   token = excluded.token, properties = excluded.properties, cluster_rest = excluded.cluster_rest`,
		c.Name, c.Kind, c.URL, c.Token, string(props), c.ClusterREST)
	return err
}

// DeleteConnection removes a connection.
func (s *Store) DeleteConnection(ctx context.Context, name string) error {
	_, err := s.db.ExecContext(ctx, `DELETE FROM connections WHERE name = ?`, name)
	return err
}

func (s *Store) connections(ctx context.Context, problems *[]error) ([]Connection, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT name, kind, url, token, properties, cluster_rest FROM connections ORDER BY name`)
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	defer rows.Close()
	var out []Connection
	for rows.Next() {
		var c Connection
		var props string
		if err := rows.Scan(&c.Name, &c.Kind, &c.URL, &c.Token, &props, &c.ClusterREST); err != nil {
			return nil, fmt.Errorf("persistence: %w", err)
		}
		if err := json.Unmarshal([]byte(props), &c.Properties); err != nil {
			*problems = append(*problems, &RowError{"connections", c.Name, err})
			continue
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// ---- chart settings ----------------------------------------------------------

// SaveChart stores a tab's chart settings (any JSON document).
func (s *Store) SaveChart(ctx context.Context, tabID int64, settings json.RawMessage) error {
	if !json.Valid(settings) {
		return errors.New("persistence: chart settings are not valid JSON")
	}
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO charts(tab_id, settings) VALUES (?, ?) ON CONFLICT(tab_id) DO UPDATE SET settings = excluded.settings`,
		tabID, string(settings))
	return err
}

// ---- settings ----------------------------------------------------------------

// SetSetting stores a key/value setting.
func (s *Store) SetSetting(ctx context.Context, key, value string) error {
	_, err := s.db.ExecContext(ctx,
		`INSERT INTO settings(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`, key, value)
	return err
}

// Setting returns a setting and whether it is set.
func (s *Store) Setting(ctx context.Context, key string) (string, bool, error) {
	var v string
	err := s.db.QueryRowContext(ctx, `SELECT value FROM settings WHERE key = ?`, key).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return "", false, nil
	}
	return v, err == nil, err
}

// Settings returns all settings.
func (s *Store) Settings(ctx context.Context) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT key, value FROM settings`)
	if err != nil {
		return nil, fmt.Errorf("persistence: %w", err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var k, v string
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("persistence: %w", err)
		}
		out[k] = v
	}
	return out, rows.Err()
}
