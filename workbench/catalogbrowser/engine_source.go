package catalogbrowser

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
)

// ErrLoading is what a Source returns for a branch whose children are on
// their way (EngineSource, reading over the network): the tree shows a
// "loading…" node in its place, and the Source's owner calls Reload when
// the answer arrives.
var ErrLoading = errors.New("loading…")

// CatalogLister is implemented by a Source whose list of catalogs can fail
// or be pending (ErrLoading); the browser then uses it instead of Catalogs.
type CatalogLister interface {
	ListCatalogs() ([]string, error)
}

// EngineSource reads the catalogs of a table.Engine (a remote engine
// behind a SQL Gateway: SHOW CATALOGS, SHOW DATABASES, SHOW TABLES / VIEWS,
// DESCRIBE) without ever blocking the UI goroutine. Its methods are called
// on the UI goroutine, as Source's are, and answer from a cache: a branch
// not read yet answers ErrLoading and is read on a background goroutine;
// when the answer arrives, OnChange is called on the UI goroutine (through
// Do) and the browser's Reload shows it.
//
// Invalidate marks everything read as stale: stale answers are still
// shown while they are read again, and OnChange is called only for those
// that changed, so refreshing after every statement does not flicker.
//
// What DESCRIBE does not tell is not shown: every object is permanent
// (temporary objects are not marked) and there are no comments.
type EngineSource struct {
	// Engine returns the engine to read (it may connect first); it is
	// called on a background goroutine.
	Engine func(ctx context.Context) (table.Engine, error)
	// Do runs a function on the UI goroutine (fyne.Do).
	Do func(func())
	// OnChange is called on the UI goroutine when answers arrived that
	// differ from what was shown (call the Browser's Reload).
	OnChange func()
	// Timeout bounds each read (0 = 30 s).
	Timeout time.Duration

	entries map[string]*sourceEntry
	gen     int
	sem     chan struct{}
	// reading counts the reads started and not yet posted (Do): tests wait
	// for it to reach 0 instead of sleeping.
	reading atomic.Int32
}

type sourceEntry struct {
	val     any
	err     error
	loaded  bool // val or err is an answer
	loading bool
	stale   bool // shown, and read again
}

// current is the cached answer of SHOW CURRENT CATALOG / DATABASE.
type current struct{ catalog, database string }

var _ Source = (*EngineSource)(nil)
var _ CatalogLister = (*EngineSource)(nil)

// NewEngineSource returns a source reading the engine that eng returns,
// posting its answers with do and calling onChange (both on the UI
// goroutine).
func NewEngineSource(eng func(context.Context) (table.Engine, error), do func(func()), onChange func()) *EngineSource {
	return &EngineSource{Engine: eng, Do: do, OnChange: onChange}
}

// maxReads bounds the reads a source runs at once.
const maxReads = 3

// get returns the answer for key, starting a read when there is none or it
// is stale.
func (s *EngineSource) get(key string, read func(ctx context.Context, e table.Engine) (any, error)) (any, error) {
	if s.entries == nil {
		s.entries = map[string]*sourceEntry{}
		s.sem = make(chan struct{}, maxReads)
	}
	e := s.entries[key]
	if e == nil {
		e = &sourceEntry{}
		s.entries[key] = e
	}
	if (!e.loaded || e.stale) && !e.loading {
		e.loading = true
		s.start(key, e, read)
	}
	if !e.loaded {
		return nil, ErrLoading
	}
	return e.val, e.err
}

func (s *EngineSource) start(key string, e *sourceEntry, read func(ctx context.Context, e table.Engine) (any, error)) {
	gen := s.gen
	timeout := s.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	sem := s.sem
	s.reading.Add(1)
	go func() {
		defer s.reading.Add(-1) // after Do has queued the answer
		sem <- struct{}{}
		ctx, cancel := context.WithTimeout(context.Background(), timeout)
		var val any
		eng, err := s.Engine(ctx)
		if err == nil {
			val, err = read(ctx, eng)
		}
		cancel()
		<-sem
		s.Do(func() {
			if s.gen != gen || s.entries[key] != e {
				return // Reset since
			}
			changed := !e.loaded || !reflect.DeepEqual(val, e.val) || errText(err) != errText(e.err)
			e.val, e.err, e.loaded, e.loading, e.stale = val, err, true, false, false
			if changed && s.OnChange != nil {
				s.OnChange()
			}
		})
	}()
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Invalidate marks every answer stale: each is read again the next time it
// is asked for, and shown meanwhile. Call it after a statement that may
// have changed the catalogs, then the Browser's Reload.
func (s *EngineSource) Invalidate() {
	for k, e := range s.entries {
		if e.loaded && e.err != nil {
			delete(s.entries, k) // an error is not worth showing again
			continue
		}
		e.stale = true
	}
}

// Reset forgets every answer and ignores the reads under way (the engine
// changed); call the Browser's Reload next.
func (s *EngineSource) Reset() {
	s.entries = nil
	s.gen++
}

// ListCatalogs implements CatalogLister.
func (s *EngineSource) ListCatalogs() ([]string, error) {
	v, err := s.get("c", func(ctx context.Context, e table.Engine) (any, error) {
		cats, err := e.ListCatalogs(ctx)
		sort.Strings(cats)
		return cats, err
	})
	if err != nil {
		return nil, err
	}
	return v.([]string), nil
}

// Catalogs implements Source (nil while loading or failed; the browser
// uses ListCatalogs).
func (s *EngineSource) Catalogs() []string {
	c, _ := s.ListCatalogs()
	return c
}

// Databases implements Source.
func (s *EngineSource) Databases(cat string) ([]string, error) {
	v, err := s.get("d"+sep+cat, func(ctx context.Context, e table.Engine) (any, error) {
		dbs, err := e.ListDatabases(ctx, cat)
		sort.Strings(dbs)
		return dbs, err
	})
	if err != nil {
		return nil, err
	}
	return v.([]string), nil
}

// Objects implements Source.
func (s *EngineSource) Objects(cat, db string) ([]Object, error) {
	v, err := s.get("o"+sep+cat+sep+db, func(ctx context.Context, e table.Engine) (any, error) {
		ts, err := e.ListTables(ctx, cat, db)
		if err != nil {
			return nil, err
		}
		out := make([]Object, len(ts))
		for i, t := range ts {
			out[i] = Object{Name: t.Name}
			if t.IsView {
				out[i].Kind = KindView
			}
		}
		sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
		return out, nil
	})
	if err != nil {
		return nil, err
	}
	return v.([]Object), nil
}

// Details implements Source with DESCRIBE.
func (s *EngineSource) Details(cat, db, obj string) (Details, error) {
	v, err := s.get("k"+sep+cat+sep+db+sep+obj, func(ctx context.Context, e table.Engine) (any, error) {
		cols, err := e.ListColumns(ctx, cat, db, obj)
		if err != nil {
			return nil, err
		}
		return DetailsFromDescribe(cols), nil
	})
	if err != nil {
		return Details{}, err
	}
	return v.(Details), nil
}

// Current implements Source with SHOW CURRENT CATALOG and SHOW CURRENT
// DATABASE ("", "" until they are read).
func (s *EngineSource) Current() (string, string) {
	v, err := s.get("cur", func(ctx context.Context, e table.Engine) (any, error) {
		cat, err := firstString(ctx, e, "SHOW CURRENT CATALOG")
		if err != nil {
			return nil, err
		}
		db, err := firstString(ctx, e, "SHOW CURRENT DATABASE")
		return current{cat, db}, err
	})
	if err != nil {
		return "", ""
	}
	c := v.(current)
	return c.catalog, c.database
}

// firstString runs a statement and returns the first value of its first row.
func firstString(ctx context.Context, e table.Engine, stmt string) (string, error) {
	res, err := e.ExecuteStatement(ctx, stmt, sql.Pos{})
	if err != nil {
		return "", err
	}
	rows, err := res.Collect()
	if err != nil {
		return "", err
	}
	defer rows.Close()
	if rows.Next() {
		if v := rows.Row().Values; len(v) > 0 {
			s, _ := v[0].(string)
			return s, nil
		}
	}
	return "", rows.Err()
}

// DetailsFromDescribe turns DESCRIBE's rows into what the tree shows, as
// EnvSource shows the same table: the type with NOT NULL and without the
// *ROWTIME* / *PROCTIME* marker, the primary key, computed and metadata
// columns, and the watermark.
func DetailsFromDescribe(cols []table.ColumnInfo) Details {
	var d Details
	var wms []string
	for _, c := range cols {
		col := Column{Name: c.Name, Type: c.Type}
		if t, ok := strings.CutSuffix(col.Type, " *ROWTIME*"); ok {
			col.Type, col.Rowtime = t, true
		}
		if t, ok := strings.CutSuffix(col.Type, " *PROCTIME*"); ok {
			col.Type, col.Proctime = t, true
		}
		if !c.Nullable && !strings.HasSuffix(col.Type, " NOT NULL") {
			col.Type += " NOT NULL"
		}
		if k, ok := strings.CutPrefix(c.Key, "PRI("); ok {
			for _, name := range strings.Split(strings.TrimSuffix(k, ")"), ",") {
				if strings.Trim(strings.TrimSpace(name), "`") == c.Name {
					col.PrimaryKey = true
				}
			}
		}
		switch {
		case strings.HasPrefix(c.Extras, "AS "):
			col.Computed = strings.TrimPrefix(c.Extras, "AS ")
		case strings.HasPrefix(c.Extras, "METADATA"):
			col.Metadata = true
		}
		if c.Watermark != "" {
			col.Rowtime = true
			wms = append(wms, sql.QuoteIdentIfNeeded(c.Name)+" AS "+c.Watermark)
		}
		d.Columns = append(d.Columns, col)
	}
	d.Watermark = strings.Join(wms, ", ")
	return d
}

// Invalidator is implemented by a Source that caches what it read
// (EngineSource): the tree's Refresh menu item invalidates it first.
type Invalidator interface{ Invalidate() }

// refreshFromSource reads everything shown again (the Refresh menu item).
func (b *Browser) refreshFromSource() {
	if inv, ok := b.src.(Invalidator); ok {
		inv.Invalidate()
	}
	b.remote = nil // remote catalogs are read again
	b.Reload()
}

// SetSource makes the browser read src (another connection's catalogs)
// and redraws it; open branches that exist in src too stay open.
func (b *Browser) SetSource(src Source) {
	b.src = src
	b.remote = nil
	b.Reload()
}

// Source returns the source the browser reads.
func (b *Browser) Source() Source { return b.src }

var _ CatalogDescriber = (*EngineSource)(nil)

// CatalogInfo implements CatalogDescriber with DESCRIBE CATALOG EXTENDED,
// read like the other answers (unknown until it arrives). A catalog the
// engine cannot describe (Flink describes only the catalogs CREATE
// CATALOG made, not default_catalog) or a failed read is of unknown kind.
func (s *EngineSource) CatalogInfo(cat string) CatalogInfo {
	v, err := s.get("t"+sep+cat, func(ctx context.Context, e table.Engine) (any, error) {
		res, err := e.ExecuteStatement(ctx, "DESCRIBE CATALOG EXTENDED "+sql.QuoteIdent(cat), sql.Pos{})
		if err != nil {
			return CatalogInfo{}, nil // kept: asking again would fail again
		}
		rows, err := res.Collect()
		if err != nil {
			return CatalogInfo{}, nil
		}
		defer rows.Close()
		props := map[string]string{}
		for rows.Next() {
			if v := rows.Row().Values; len(v) >= 2 {
				k, _ := v[0].(string)
				val, _ := v[1].(string)
				props[k] = val
			}
		}
		return CatalogInfoFromDescriptor(props["type"], props["option:base-url"], props["option:path"]), nil
	})
	if err != nil {
		return CatalogInfo{}
	}
	return v.(CatalogInfo)
}

// CatalogInfoFromDescriptor is what the tree says of a catalog made by
// CREATE CATALOG with this 'type' (and 'base-url' for a JDBC catalog,
// 'path' for a file one): generic_in_memory is in-memory; jdbc is JDBC
// with its server ("PostgreSQL host:port"); a type with a 'path' is
// persistent, with the file's name; any other type is named as it is.
func CatalogInfoFromDescriptor(typ, baseURL, path string) CatalogInfo {
	switch {
	case typ == "generic_in_memory":
		return CatalogInfo{Kind: CatalogInMemory}
	case typ == "jdbc":
		return CatalogInfo{Kind: CatalogJDBC, Summary: jdbcServer(baseURL)}
	case path != "":
		return CatalogInfo{Kind: CatalogPersistent, Summary: filepath.Base(path)}
	}
	return CatalogInfo{Summary: typ}
}

// jdbcServer turns a base-url into "PostgreSQL host:port" (the URL itself
// when it is not one of the known kinds).
func jdbcServer(u string) string {
	rest, ok := strings.CutPrefix(u, "jdbc:")
	if !ok {
		return u
	}
	scheme, host, ok := strings.Cut(rest, "://")
	if !ok {
		return u
	}
	host, _, _ = strings.Cut(host, "/")
	host, _, _ = strings.Cut(host, "?")
	names := map[string]string{"postgresql": "PostgreSQL", "mysql": "MySQL", "mariadb": "MariaDB"}
	n, ok := names[strings.ToLower(scheme)]
	if !ok {
		return u
	}
	return n + " " + host
}
