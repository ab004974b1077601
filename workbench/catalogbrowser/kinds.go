package catalogbrowser

import (
	"fmt"
	"path/filepath"
	"reflect"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/riffle-sql/riffle/engine/catalog"
)

// CatalogKind says what kind of catalog a tree node shows.
type CatalogKind uint8

// The kinds of catalogs the tree tells apart.
const (
	// CatalogUnknown is a catalog the source says nothing of (a remote
	// engine's).
	CatalogUnknown CatalogKind = iota
	// CatalogInMemory is a generic_in_memory catalog (default_catalog):
	// its objects last as long as the session.
	CatalogInMemory
	// CatalogPersistent is a catalog kept in a file (the workspace's
	// SQLite catalog): its objects survive a restart.
	CatalogPersistent
	// CatalogJDBC is a read-only JDBC catalog on a PostgreSQL or MySQL
	// server.
	CatalogJDBC
)

// CatalogInfo is what the tree says of a catalog beside its name.
type CatalogInfo struct {
	Kind CatalogKind
	// Summary is a short description: the server of a JDBC catalog
	// ("PostgreSQL 127.0.0.1:5432"), the file of a persistent one.
	Summary string
}

// Label is the dimmed text after the catalog's name: its kind and
// summary ("JDBC · PostgreSQL 127.0.0.1:5432", "persistent · ws.db",
// "in-memory"); "" for an unknown kind.
func (i CatalogInfo) Label() string {
	var k string
	switch i.Kind {
	case CatalogInMemory:
		k = "in-memory"
	case CatalogPersistent:
		k = "persistent"
	case CatalogJDBC:
		k = "JDBC"
	default:
		return i.Summary
	}
	if i.Summary != "" {
		return k + " · " + i.Summary
	}
	return k
}

// CatalogDescriber is implemented by a Source that knows what kind each
// catalog is (EnvSource); the tree shows the kind by icon and label.
type CatalogDescriber interface {
	CatalogInfo(catalog string) CatalogInfo
}

// RemoteCatalogs is implemented by a Source some of whose catalogs are
// read over the network (a JDBC catalog, EnvSource): the browser reads the
// databases, tables and columns of those catalogs on a background
// goroutine, shows "loading…" meanwhile and an error on the node when the
// read fails. Source methods for such a catalog must be safe to call from
// any goroutine.
type RemoteCatalogs interface {
	// RemoteKey returns, for a catalog read over the network, a key that
	// changes when the catalog is replaced (dropped and created again);
	// ok is false for catalogs that are quick to read.
	RemoteKey(catalog string) (key string, ok bool)
}

// The catalog methods EnvSource looks for (structurally: a catalog
// package does not import the browser).
type (
	// kindedCatalog: a catalog that names its kind ("jdbc") and a summary
	// (the JDBC catalog).
	kindedCatalog interface {
		CatalogKind() string
		CatalogSummary() string
	}
	// remoteCatalog: a catalog whose reads go over the network.
	remoteCatalog interface{ IsRemote() bool }
	// fileCatalog: a catalog kept in a file (the persistent SQLite one).
	fileCatalog interface{ Path() string }
)

// CatalogInfo implements CatalogDescriber: a catalog that names its kind
// ("jdbc", "riffle"/"sqlite"), else one kept in a file (Path) is
// persistent, an InMemoryCatalog is in-memory.
func (s EnvSource) CatalogInfo(name string) CatalogInfo {
	c, ok := s.Env.Catalogs().GetCatalog(name)
	if !ok {
		return CatalogInfo{}
	}
	if k, ok := c.(kindedCatalog); ok {
		switch k.CatalogKind() {
		case "jdbc":
			return CatalogInfo{Kind: CatalogJDBC, Summary: k.CatalogSummary()}
		case "generic_in_memory":
			return CatalogInfo{Kind: CatalogInMemory, Summary: k.CatalogSummary()}
		case "riffle", "sqlite", "persistent":
			return CatalogInfo{Kind: CatalogPersistent, Summary: k.CatalogSummary()}
		}
		return CatalogInfo{Summary: k.CatalogSummary()}
	}
	if f, ok := c.(fileCatalog); ok {
		return CatalogInfo{Kind: CatalogPersistent, Summary: filepath.Base(f.Path())}
	}
	if _, ok := c.(*catalog.InMemoryCatalog); ok {
		return CatalogInfo{Kind: CatalogInMemory}
	}
	return CatalogInfo{}
}

// RemoteKey implements RemoteCatalogs: catalogs that say IsRemote (JDBC
// catalogs) are read off the UI goroutine.
func (s EnvSource) RemoteKey(name string) (string, bool) {
	c, ok := s.Env.Catalogs().GetCatalog(name)
	if !ok {
		return "", false
	}
	if r, ok := c.(remoteCatalog); ok && r.IsRemote() {
		return fmt.Sprintf("%p", c), true
	}
	return "", false
}

// catalogInfo asks the source what a catalog is.
func (b *Browser) catalogInfo(name string) CatalogInfo {
	if d, ok := b.src.(CatalogDescriber); ok {
		return d.CatalogInfo(name)
	}
	return CatalogInfo{}
}

// catalogIcon is the icon of a catalog of a kind: a memory chip for
// in-memory, a disk for persistent, a database cylinder for JDBC.
func catalogIcon(k CatalogKind) fyne.Resource {
	switch k {
	case CatalogInMemory:
		return memoryIcon
	case CatalogPersistent:
		return theme.DocumentSaveIcon()
	case CatalogJDBC:
		return databaseIcon
	}
	return theme.StorageIcon()
}

// The browser's own icons, drawn in the theme's foreground colour.
var (
	databaseIcon = theme.NewThemedResource(fyne.NewStaticResource("catalog-jdbc.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">`+
		`<ellipse cx="12" cy="5.5" rx="7.5" ry="2.6"/>`+
		`<path d="M4.5 8.3A7.5 2.6 0 0 0 19.5 8.3V11.6A7.5 2.6 0 0 1 4.5 11.6Z"/>`+
		`<path d="M4.5 14.1A7.5 2.6 0 0 0 19.5 14.1V17.9A7.5 2.6 0 0 1 4.5 17.9Z"/>`+
		`</svg>`)))
	memoryIcon = theme.NewThemedResource(fyne.NewStaticResource("catalog-memory.svg", []byte(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24">`+
		`<path d="M6 6H18V18H6Z M9 9V15H15V9Z"/>`+
		`<rect x="8" y="2.5" width="2" height="3"/><rect x="11" y="2.5" width="2" height="3"/><rect x="14" y="2.5" width="2" height="3"/>`+
		`<rect x="8" y="18.5" width="2" height="3"/><rect x="11" y="18.5" width="2" height="3"/><rect x="14" y="18.5" width="2" height="3"/>`+
		`<rect x="2.5" y="8" width="3" height="2"/><rect x="2.5" y="11" width="3" height="2"/><rect x="2.5" y="14" width="3" height="2"/>`+
		`<rect x="18.5" y="8" width="3" height="2"/><rect x="18.5" y="11" width="3" height="2"/><rect x="18.5" y="14" width="3" height="2"/>`+
		`</svg>`)))
)

// remoteEntry is the answer of a read of a remote catalog's branch.
type remoteEntry struct {
	key     string // the catalog's RemoteKey when it was read
	val     any
	err     error
	loaded  bool
	loading bool
	stale   bool // shown, and read again (Reload)
}

// remoteRead answers the read of branch uid of a remote catalog from the
// cache, starting the read on a background goroutine when there is no
// answer (or the catalog was replaced since): ErrLoading until it arrives,
// then the tree is refreshed on the UI goroutine. A stale answer (after
// Reload) is shown while it is read again, and the branch is redrawn only
// when the new answer differs.
func (b *Browser) remoteRead(uid widget.TreeNodeID, key string, read func() (any, error)) (any, error) {
	if b.remote == nil {
		b.remote = map[widget.TreeNodeID]*remoteEntry{}
	}
	e := b.remote[uid]
	if e == nil || e.key != key {
		e = &remoteEntry{key: key}
		b.remote[uid] = e
	}
	if e.loaded && !e.stale {
		return e.val, e.err
	}
	if !e.loading {
		e.loading = true
		b.reading.Add(1)
		do := b.Do
		if do == nil {
			do = fyne.Do
		}
		go func() {
			val, err := read()
			do(func() {
				defer b.reading.Add(-1)
				if b.remote[uid] != e {
					return // refreshed since
				}
				changed := !e.loaded || !reflect.DeepEqual(val, e.val) || errText(err) != errText(e.err)
				e.val, e.err, e.loaded, e.loading, e.stale = val, err, true, false, false
				if changed {
					delete(b.children, uid)
					b.tree.Refresh()
				}
			})
		}()
	}
	if e.loaded {
		return e.val, e.err // stale, shown while read again
	}
	return nil, ErrLoading
}

// remoteKey says whether a catalog is read off the UI goroutine.
func (b *Browser) remoteKey(cat string) (string, bool) {
	if r, ok := b.src.(RemoteCatalogs); ok {
		return r.RemoteKey(cat)
	}
	return "", false
}

// staleRemote marks the answers of remote reads stale (Reload): each is
// read again when next shown, and shown meanwhile; failed answers are
// dropped (read again, "loading…" meanwhile).
func (b *Browser) staleRemote() {
	for k, e := range b.remote {
		switch {
		case e.loaded && e.err != nil:
			delete(b.remote, k)
		case e.loaded:
			e.stale = true
		}
	}
}

// Reading reports how many reads of remote catalogs are under way (tests
// wait for 0).
func (b *Browser) Reading() int { return int(b.reading.Load()) }

// remoteState is the browser's cache of remote reads.
type remoteState struct {
	remote map[widget.TreeNodeID]*remoteEntry
	// reading counts the remote reads started and not yet answered.
	reading atomic.Int32
}

// databases, objects and details read a branch from the source, off the
// UI goroutine for a remote catalog.
func (b *Browser) databases(cat string) ([]string, error) {
	if key, ok := b.remoteKey(cat); ok {
		src := b.src
		v, err := b.remoteRead(nodeID(nodeCatalog, cat), key, func() (any, error) { return src.Databases(cat) })
		if err != nil {
			return nil, err
		}
		return v.([]string), nil
	}
	return b.src.Databases(cat)
}

func (b *Browser) listObjects(cat, db string) ([]Object, error) {
	if key, ok := b.remoteKey(cat); ok {
		src := b.src
		v, err := b.remoteRead(nodeID(nodeDatabase, cat, db), key, func() (any, error) { return src.Objects(cat, db) })
		if err != nil {
			return nil, err
		}
		return v.([]Object), nil
	}
	return b.src.Objects(cat, db)
}

func (b *Browser) objectDetails(cat, db, obj string) (Details, error) {
	if key, ok := b.remoteKey(cat); ok {
		src := b.src
		v, err := b.remoteRead(nodeID(nodeObject, cat, db, obj), key, func() (any, error) { return src.Details(cat, db, obj) })
		if err != nil {
			return Details{}, err
		}
		return v.(Details), nil
	}
	return b.src.Details(cat, db, obj)
}
