package table

import "github.com/riffle-sql/riffle/engine/catalog"

// Config returns the session configuration.
func (t *TableEnvironment) Config() *TableConfig { return t.config }

// CurrentCatalog returns the name of the current catalog (USE CATALOG).
func (t *TableEnvironment) CurrentCatalog() string { return t.catalogs.CurrentCatalog() }

// CurrentDatabase returns the name of the current database (USE).
func (t *TableEnvironment) CurrentDatabase() string { return t.catalogs.CurrentDatabase() }

// Catalog returns a registered catalog, or nil when no catalog has that
// name.
func (t *TableEnvironment) Catalog(name string) catalog.Catalog {
	c, _ := t.catalogs.GetCatalog(name)
	return c
}
