// Package sqlitecatalog is Riffle's persistent catalog: a catalog.Catalog
// kept in one SQLite file, created by CREATE CATALOG c WITH ('type' =
// 'riffle', 'path' = '/some/file.db'). Databases (comments, properties),
// tables (schema with computed and metadata columns, watermarks, primary
// key, partition keys, options, comment), views (original and expanded
// query), functions (by the name a Go UDF was registered under, and
// language), partitions and statistics outlive the process that made them.
//
// Why here and why 'riffle': the package lives under workbench/persistence/, beside
// the workspace store, because it needs cgo SQLite (github.com/mattn/
// go-sqlite3) and the engine module builds without cgo (issue 14); the
// engine only sees the catalog.Factory this package registers, in its
// init, so a binary that imports it (the riffle command through cli, the
// workbench) has the type. The type is 'riffle', not 'sqlite', because the
// catalog stores Riffle's own metadata in a file format of its own (as
// Paimon's catalog is 'paimon', Hive's 'hive'): a 'sqlite' type would read
// as a catalog that lists the tables of any SQLite database, the way
// Flink's 'jdbc' catalog lists a server's tables.
//
// Behaviour: the objects follow catalog.InMemoryCatalog exactly (same
// checks, same errors, names case-sensitive but functions', which are
// lower-cased as Flink does): each call works on an in-memory image of
// the file. The image is read again whenever the file changed (SQLite's
// PRAGMA data_version tells, one cheap query per call), so a change
// committed by another process, or another Catalog on the same file, is
// seen on the next call. A change is one SQLite transaction (BEGIN
// IMMEDIATE): it re-reads the file if it changed, applies the change to
// the image and writes back the rows that differ, so two processes never
// lose each other's changes. A process that holds the file's write lock
// longer than 'lock-timeout' makes a change fail with a *LockedError
// naming the file. The file format is versioned (see FormatVersion); a
// newer file is refused with ErrNewerFormat, a file that is not a SQLite
// database or not a Riffle catalog with an error naming it.
package sqlitecatalog

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"time"

	sqlite3 "github.com/mattn/go-sqlite3"

	"github.com/riffle-sql/riffle/engine/catalog"
)

// FormatVersion is the version of the file format this build writes and
// reads (the schema_version table). Files of older versions are migrated
// forward when opened; newer ones are refused.
const FormatVersion = 1

// DefaultLockTimeout is how long a change waits for another process's
// write to the file ('lock-timeout' option's default).
const DefaultLockTimeout = 5 * time.Second

// ErrNewerFormat is wrapped by Open's error for a file written by a newer
// Riffle (its schema_version is above FormatVersion).
var ErrNewerFormat = errors.New("the catalog file was written by a newer version of Riffle")

// ErrLocked is wrapped by *LockedError.
var ErrLocked = errors.New("the catalog file is locked by another process")

// LockedError is returned when the file stayed locked by another
// connection (usually another process) for longer than the lock timeout.
type LockedError struct {
	Catalog, Path string
	Waited        time.Duration
	Err           error // SQLite's error
}

func (e *LockedError) Error() string {
	return fmt.Sprintf("catalog '%s': the catalog file %s is locked by another process (waited %s): %v; try again once its change is done",
		e.Catalog, e.Path, e.Waited, e.Err)
}

// Unwrap returns ErrLocked and SQLite's error.
func (e *LockedError) Unwrap() []error { return []error{ErrLocked, e.Err} }

// Catalog is a catalog.Catalog stored in a SQLite file. Create it with New
// (or CREATE CATALOG through the factory); it is usable once opened (the
// catalog Manager opens it on registration). It is safe for concurrent
// use.
type Catalog struct {
	name, path, defaultDB string
	lockTimeout           time.Duration

	mu   sync.Mutex
	db   *sql.DB
	conn *sql.Conn // one connection: data_version is per connection
	// image is the file's content as of dataVersion; rows is the same
	// content as stored rows (what a change diffs against).
	image       *catalog.InMemoryCatalog
	rows        map[string]storedRow
	dataVersion int64
}

// New returns a catalog named name on the file at path (created when
// opened if missing), with default database defaultDB ("default" when
// empty) and lock timeout (DefaultLockTimeout when <= 0). Call Open.
func New(name, path, defaultDB string, lockTimeout time.Duration) *Catalog {
	if defaultDB == "" {
		defaultDB = "default"
	}
	if lockTimeout <= 0 {
		lockTimeout = DefaultLockTimeout
	}
	return &Catalog{name: name, path: path, defaultDB: defaultDB, lockTimeout: lockTimeout}
}

// Name returns the catalog's name.
func (c *Catalog) Name() string { return c.name }

// Path returns the catalog file's path.
func (c *Catalog) Path() string { return c.path }

// Open opens the file, creating it (and its folder) when missing,
// migrates an older format, refuses a newer one (ErrNewerFormat) and makes
// sure the default database exists. Errors name the file.
func (c *Catalog) Open() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn != nil {
		return nil
	}
	if c.path == "" {
		return fmt.Errorf("catalog '%s': option 'path' is empty: it names the SQLite file that holds the catalog", c.name)
	}
	if st, err := os.Stat(c.path); err == nil && st.IsDir() {
		return fmt.Errorf("catalog '%s': %s is a folder, not a catalog file", c.name, c.path)
	}
	if err := os.MkdirAll(filepath.Dir(c.path), 0o755); err != nil {
		return fmt.Errorf("catalog '%s': creating the folder of %s: %w", c.name, c.path, err)
	}
	// a new file is readable by its owner only (tables' options may hold
	// passwords; SQLite gives its journal the same mode)
	if f, err := os.OpenFile(c.path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
		f.Close()
	}
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(c.lockTimeout.Milliseconds()))
	// A rollback journal, not WAL: between statements the catalog is this
	// one file, complete (a copy or backup of it alone loses nothing, and
	// no -wal/-shm files stay beside it). Readers still read while another
	// process holds a write transaction; they wait only for its commit.
	q.Set("_journal_mode", "DELETE")
	q.Set("_synchronous", "NORMAL")
	db, err := sql.Open("sqlite3", "file:"+url.PathEscape(c.path)+"?"+q.Encode())
	if err != nil {
		return c.fileErr("opening", err)
	}
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		db.Close()
		return c.fileErr("opening", err)
	}
	c.db, c.conn = db, conn
	if err := c.migrate(ctx); err != nil {
		c.closeLocked()
		return err
	}
	return nil
}

// Close closes the file. A closed catalog can be opened again.
func (c *Catalog) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closeLocked()
}

func (c *Catalog) closeLocked() error {
	if c.conn == nil {
		return nil
	}
	err := c.conn.Close()
	if e := c.db.Close(); err == nil {
		err = e
	}
	c.conn, c.db, c.image, c.rows = nil, nil, nil, nil
	return err
}

// DefaultDatabase implements catalog.Catalog.
func (c *Catalog) DefaultDatabase() string { return c.defaultDB }

// fileErr wraps a SQLite error with the catalog and its file; a busy or
// locked file becomes a *LockedError, a damaged one says so.
func (c *Catalog) fileErr(doing string, err error) error {
	var se sqlite3.Error
	if errors.As(err, &se) {
		switch se.Code {
		case sqlite3.ErrBusy, sqlite3.ErrLocked:
			return &LockedError{Catalog: c.name, Path: c.path, Waited: c.lockTimeout, Err: err}
		case sqlite3.ErrNotADB, sqlite3.ErrCorrupt:
			return fmt.Errorf("catalog '%s': %s is not a readable Riffle catalog file (damaged, or not a SQLite database): %w", c.name, c.path, err)
		}
	}
	return fmt.Errorf("catalog '%s': %s the catalog file %s: %w", c.name, doing, c.path, err)
}

// migrations[i] moves the file format from version i to i+1. Never edit a
// shipped one: add a new one (and raise FormatVersion).
var migrations = []string{
	// 0 -> 1: the first format. Definitions and statistics are JSON (see
	// encode.go); spec is a partition's k1=v1/k2=v2 in key order.
	`CREATE TABLE schema_version (version INTEGER NOT NULL);
	 INSERT INTO schema_version(version) VALUES (0);
	 CREATE TABLE catalog_info (key TEXT PRIMARY KEY, value TEXT NOT NULL);
	 INSERT INTO catalog_info(key, value) VALUES ('format', 'riffle-catalog');
	 CREATE TABLE databases (
	   name       TEXT PRIMARY KEY,
	   comment    TEXT NOT NULL DEFAULT '',
	   properties TEXT NOT NULL DEFAULT '{}'
	 );
	 CREATE TABLE tables (
	   database          TEXT NOT NULL,
	   name              TEXT NOT NULL,
	   kind              TEXT NOT NULL,
	   definition        TEXT NOT NULL,
	   statistics        TEXT NOT NULL DEFAULT '',
	   column_statistics TEXT NOT NULL DEFAULT '',
	   PRIMARY KEY (database, name)
	 );
	 CREATE TABLE functions (
	   database   TEXT NOT NULL,
	   name       TEXT NOT NULL,
	   class_name TEXT NOT NULL,
	   language   TEXT NOT NULL,
	   PRIMARY KEY (database, name)
	 );
	 CREATE TABLE partitions (
	   database          TEXT NOT NULL,
	   table_name        TEXT NOT NULL,
	   spec              TEXT NOT NULL,
	   spec_json         TEXT NOT NULL,
	   properties        TEXT NOT NULL DEFAULT '{}',
	   comment           TEXT NOT NULL DEFAULT '',
	   statistics        TEXT NOT NULL DEFAULT '',
	   column_statistics TEXT NOT NULL DEFAULT '',
	   PRIMARY KEY (database, table_name, spec)
	 );`,
}

// migrate creates or upgrades the file's format in one transaction and
// adds the default database when it is missing.
func (c *Catalog) migrate(ctx context.Context) error {
	// a file that is not SQLite fails on its first read
	var n int
	if err := c.conn.QueryRowContext(ctx, `SELECT count(*) FROM sqlite_master`).Scan(&n); err != nil {
		return c.fileErr("reading", err)
	}
	// an up-to-date file with its default database needs no write: opening
	// it does not wait for another process's write transaction
	var v, hasDefault int
	if err := c.conn.QueryRowContext(ctx, `SELECT (SELECT version FROM schema_version), (SELECT count(*) FROM databases WHERE name = ?)`, c.defaultDB).Scan(&v, &hasDefault); err == nil && v == FormatVersion && hasDefault == 1 {
		var format string
		if err := c.conn.QueryRowContext(ctx, `SELECT value FROM catalog_info WHERE key = 'format'`).Scan(&format); err == nil && format == "riffle-catalog" {
			return nil
		}
	}
	return c.tx(ctx, func() error {
		var hasVersion, tables int
		if err := c.conn.QueryRowContext(ctx,
			`SELECT count(*) FILTER (WHERE name = 'schema_version'), count(*) FROM sqlite_master WHERE type = 'table'`).Scan(&hasVersion, &tables); err != nil {
			return c.fileErr("reading", err)
		}
		v := 0
		if hasVersion > 0 {
			if err := c.conn.QueryRowContext(ctx, `SELECT version FROM schema_version`).Scan(&v); err != nil {
				return c.fileErr("reading the format version of", err)
			}
			var format string
			if err := c.conn.QueryRowContext(ctx, `SELECT value FROM catalog_info WHERE key = 'format'`).Scan(&format); err != nil || format != "riffle-catalog" {
				return fmt.Errorf("catalog '%s': %s is a SQLite database but not a Riffle catalog file", c.name, c.path)
			}
		} else if tables > 0 {
			return fmt.Errorf("catalog '%s': %s is a SQLite database but not a Riffle catalog file (it has tables and no schema_version); give 'path' a new file", c.name, c.path)
		}
		if v > FormatVersion {
			return fmt.Errorf("catalog '%s': %s: %w (format %d, this build reads up to %d)", c.name, c.path, ErrNewerFormat, v, FormatVersion)
		}
		for ; v < FormatVersion; v++ {
			if _, err := c.conn.ExecContext(ctx, migrations[v]); err != nil {
				return c.fileErr(fmt.Sprintf("migrating (format %d to %d)", v, v+1), err)
			}
			if _, err := c.conn.ExecContext(ctx, `UPDATE schema_version SET version = ?`, v+1); err != nil {
				return c.fileErr("migrating", err)
			}
		}
		if _, err := c.conn.ExecContext(ctx, `INSERT OR IGNORE INTO databases(name) VALUES (?)`, c.defaultDB); err != nil {
			return c.fileErr("writing", err)
		}
		return nil
	})
}

// tx runs fn in a write transaction on the connection (BEGIN IMMEDIATE:
// the write lock is taken first, waiting up to the lock timeout).
func (c *Catalog) tx(ctx context.Context, fn func() error) error {
	if _, err := c.conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		return c.fileErr("locking", err)
	}
	if err := fn(); err != nil {
		c.conn.ExecContext(ctx, `ROLLBACK`)
		return err
	}
	if _, err := c.conn.ExecContext(ctx, `COMMIT`); err != nil {
		c.conn.ExecContext(ctx, `ROLLBACK`)
		return c.fileErr("writing", err)
	}
	return nil
}

// errClosed is what calls on a catalog that is not open return.
func (c *Catalog) errClosed() error {
	return fmt.Errorf("catalog '%s' (%s) is not open", c.name, c.path)
}

// current returns the image, read again when the file changed since it
// was read. The caller holds c.mu; inTx says a transaction is open (the
// read then happens in it).
func (c *Catalog) current(ctx context.Context, inTx bool) (*catalog.InMemoryCatalog, error) {
	if c.conn == nil {
		return nil, c.errClosed()
	}
	var v int64
	if err := c.conn.QueryRowContext(ctx, `PRAGMA data_version`).Scan(&v); err != nil {
		return nil, c.fileErr("reading", err)
	}
	if c.image != nil && v == c.dataVersion {
		return c.image, nil
	}
	if !inTx {
		// a read transaction: every table read from one snapshot
		if _, err := c.conn.ExecContext(ctx, `BEGIN`); err != nil {
			return nil, c.fileErr("reading", err)
		}
		defer c.conn.ExecContext(ctx, `COMMIT`)
	}
	img, rows, err := c.load(ctx)
	if err != nil {
		c.image, c.rows = nil, nil
		return nil, err
	}
	c.image, c.rows, c.dataVersion = img, rows, v
	return img, nil
}

// read runs fn on the current image.
func (c *Catalog) read(fn func(m *catalog.InMemoryCatalog) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	m, err := c.current(context.Background(), false)
	if err != nil {
		return err
	}
	return fn(m)
}

// change runs fn on the image inside a write transaction and stores the
// rows it changed. An error of fn (say, the table exists) rolls back and
// is returned as it is; any other failure also drops the image, so the
// next call reads the file again.
func (c *Catalog) change(fn func(m *catalog.InMemoryCatalog) error) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.conn == nil {
		return c.errClosed()
	}
	ctx := context.Background()
	var fnErr error
	err := c.tx(ctx, func() error {
		// under the write lock: nobody else changes the file now
		m, err := c.current(ctx, true)
		if err != nil {
			return err
		}
		if fnErr = fn(m); fnErr != nil {
			return fnErr
		}
		after, err := c.dump(m)
		if err != nil {
			return err
		}
		if err := c.writeDiff(ctx, c.rows, after); err != nil {
			return err
		}
		c.rows = after
		return nil
	})
	if err != nil && err != fnErr {
		c.image, c.rows = nil, nil
	}
	return err
}

// Snapshot copies the catalog file at src to dst (which must not exist)
// as one consistent read, even while another process writes src (SQLite's
// VACUUM INTO through a read-only connection). A missing src copies
// nothing and is no error: a catalog opened on dst starts empty. It is
// what a read-only workbench window works on.
func Snapshot(ctx context.Context, src, dst string) error {
	if _, err := os.Stat(src); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("_busy_timeout", fmt.Sprint(DefaultLockTimeout.Milliseconds()))
	db, err := sql.Open("sqlite3", "file:"+url.PathEscape(src)+"?"+q.Encode())
	if err != nil {
		return fmt.Errorf("copying the catalog file %s: %w", src, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, dst); err != nil {
		return fmt.Errorf("copying the catalog file %s: %w", src, err)
	}
	return nil
}
