package catalog

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Default names, as in Flink.
const (
	DefaultCatalog  = "default_catalog"
	DefaultDatabase = "default_database"
)

// ResolvedTable is a table or view found by name.
type ResolvedTable struct {
	ID        ObjectIdentifier
	Table     BaseTable
	Temporary bool
}

// Manager tracks registered catalogs, the current catalog and database,
// and temporary tables and views (Flink's CatalogManager). It is safe for
// concurrent use.
type Manager struct {
	mu         sync.RWMutex
	catalogs   map[string]Catalog
	currentCat string
	currentDB  string
	temporary  map[ObjectIdentifier]BaseTable
}

// NewManager creates a manager with the built-in in-memory catalog
// default_catalog (database default_database) as current.
func NewManager() *Manager { return NewManagerWithBuiltin(DefaultCatalog, DefaultDatabase) }

// NewManagerWithBuiltin creates a manager whose built-in in-memory catalog
// and database have the given names (EnvironmentSettings'
// built-in catalog and database names).
func NewManagerWithBuiltin(catalogName, databaseName string) *Manager {
	m := &Manager{catalogs: map[string]Catalog{}, temporary: map[ObjectIdentifier]BaseTable{}}
	m.catalogs[catalogName] = NewInMemoryCatalog(catalogName, databaseName)
	m.currentCat, m.currentDB = catalogName, databaseName
	return m
}

// RegisterCatalog adds a catalog under a unique name and opens it.
func (m *Manager) RegisterCatalog(name string, c Catalog) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if name == "" {
		return fmt.Errorf("catalog name cannot be empty")
	}
	if _, ok := m.catalogs[name]; ok {
		return fmt.Errorf("Catalog %s already exists.", name)
	}
	if err := c.Open(); err != nil {
		return err
	}
	m.catalogs[name] = c
	return nil
}

// UnregisterCatalog removes a catalog; the current catalog cannot be dropped.
func (m *Manager) UnregisterCatalog(name string, ignoreIfNotExists bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.catalogs[name]
	if !ok {
		if ignoreIfNotExists {
			return nil
		}
		return fmt.Errorf("Catalog %s does not exist.", name)
	}
	if name == m.currentCat {
		return fmt.Errorf("Cannot drop a catalog which is currently in use.")
	}
	delete(m.catalogs, name)
	return c.Close()
}

// GetCatalog returns a catalog by name.
func (m *Manager) GetCatalog(name string) (Catalog, bool) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	c, ok := m.catalogs[name]
	return c, ok
}

// ListCatalogs lists catalog names, sorted.
func (m *Manager) ListCatalogs() []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return sortedKeys(m.catalogs)
}

// CurrentCatalog returns the current catalog's name.
func (m *Manager) CurrentCatalog() string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.currentCat
}

// CurrentDatabase returns the current database's name.
func (m *Manager) CurrentDatabase() string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.currentDB
}

// SetCurrentCatalog switches catalog and sets the current database to that
// catalog's default database (Flink's use_catalog).
func (m *Manager) SetCurrentCatalog(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c, ok := m.catalogs[name]
	if !ok {
		return fmt.Errorf("A catalog with name [%s] does not exist.", name)
	}
	m.currentCat, m.currentDB = name, c.DefaultDatabase()
	return nil
}

// SetCurrentDatabase switches database within the current catalog.
func (m *Manager) SetCurrentDatabase(name string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	c := m.catalogs[m.currentCat]
	if !c.DatabaseExists(name) {
		return fmt.Errorf("A database with name [%s] does not exist in the catalog: [%s].", name, m.currentCat)
	}
	m.currentDB = name
	return nil
}

// Qualify turns a 1-, 2- or 3-part name into a full identifier using the
// current catalog and database.
func (m *Manager) Qualify(parts []string) (ObjectIdentifier, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	switch len(parts) {
	case 1:
		return ObjectIdentifier{m.currentCat, m.currentDB, parts[0]}, nil
	case 2:
		return ObjectIdentifier{m.currentCat, parts[0], parts[1]}, nil
	case 3:
		return ObjectIdentifier{parts[0], parts[1], parts[2]}, nil
	}
	return ObjectIdentifier{}, fmt.Errorf("object identifier %q must have 1 to 3 parts", strings.Join(parts, "."))
}

// Catalog returns the catalog of an identifier or an error naming it.
func (m *Manager) Catalog(name string) (Catalog, error) {
	m.mu.RLock()
	defer m.mu.RUnlock()
	c, ok := m.catalogs[name]
	if !ok {
		return nil, fmt.Errorf("Catalog %s does not exist", name)
	}
	return c, nil
}

// GetTable resolves an identifier: temporary objects first, then the
// catalog. ok is false when nothing exists under that name.
func (m *Manager) GetTable(id ObjectIdentifier) (ResolvedTable, bool, error) {
	m.mu.RLock()
	t, tmp := m.temporary[id]
	c, catOK := m.catalogs[id.Catalog]
	m.mu.RUnlock()
	if tmp {
		return ResolvedTable{ID: id, Table: t, Temporary: true}, true, nil
	}
	if !catOK {
		return ResolvedTable{}, false, nil
	}
	bt, err := c.GetTable(id.Path())
	if err != nil {
		if IsNotExist(err) {
			return ResolvedTable{}, false, nil
		}
		return ResolvedTable{}, false, err
	}
	return ResolvedTable{ID: id, Table: bt}, true, nil
}

// CreateTemporaryTable registers a temporary table or view; it shadows a
// permanent object with the same identifier.
func (m *Manager) CreateTemporaryTable(id ObjectIdentifier, t BaseTable, ignoreIfExists bool) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.temporary[id]; ok {
		if ignoreIfExists {
			return nil
		}
		// Flink's CatalogManager says "table" for views too
		return fmt.Errorf("Temporary table '%s' already exists", id)
	}
	if _, ok := m.catalogs[id.Catalog]; !ok {
		return fmt.Errorf("Catalog %s does not exist", id.Catalog)
	}
	m.temporary[id] = t
	return nil
}

// DropTemporaryTable removes a temporary table or view of the given kind
// (nil kind: either) and reports whether one was dropped.
func (m *Manager) DropTemporaryTable(id ObjectIdentifier, kind *TableKind) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, ok := m.temporary[id]
	if !ok || (kind != nil && t.Kind() != *kind) {
		return false
	}
	delete(m.temporary, id)
	return true
}

// IsTemporary reports whether a temporary object exists under id.
func (m *Manager) IsTemporary(id ObjectIdentifier) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	_, ok := m.temporary[id]
	return ok
}

// AlterTemporaryTable replaces a temporary object.
func (m *Manager) AlterTemporaryTable(id ObjectIdentifier, t BaseTable) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.temporary[id] = t
}

// ListTables lists tables and views (temporary and permanent) of a
// database, sorted and de-duplicated. kind filters when non-nil.
func (m *Manager) ListTables(catalog, db string, kind *TableKind) ([]string, error) {
	c, err := m.Catalog(catalog)
	if err != nil {
		return nil, err
	}
	names := map[string]bool{}
	if c.DatabaseExists(db) {
		perm, err := c.ListTables(db)
		if err != nil {
			return nil, err
		}
		for _, n := range perm {
			if kind != nil {
				t, err := c.GetTable(ObjectPath{db, n})
				if err != nil || t.Kind() != *kind {
					continue
				}
			}
			names[n] = true
		}
	} else {
		return nil, &DatabaseNotExistError{catalog, db}
	}
	for _, n := range m.ListTemporary(catalog, db, kind) {
		names[n] = true
	}
	return sortedKeys(names), nil
}

// ListTemporary lists temporary objects of a database.
func (m *Manager) ListTemporary(catalog, db string, kind *TableKind) []string {
	m.mu.RLock()
	defer m.mu.RUnlock()
	var out []string
	for id, t := range m.temporary {
		if id.Catalog == catalog && id.Database == db && (kind == nil || t.Kind() == *kind) {
			if tt, ok := t.(*Table); ok && tt.Inline {
				continue
			}
			out = append(out, id.Object)
		}
	}
	sort.Strings(out)
	return out
}
