package persistence

import (
	"path/filepath"
	"strings"
)

// CatalogPath is the file of a workspace's persistent catalog (the
// workbench's 'workspace' catalog, type 'riffle'): beside the workspace
// file, its name without the extension plus ".catalog.db"
// ("~/.config/riffle/default.riffle" → ".../default.catalog.db"). A
// separate file, not tables in the workspace file, because the catalog is
// shared: a second window on a workspace works on a private copy of the
// workspace (OpenReadOnly), and other programs (riffle sql) may open the
// catalog with CREATE CATALOG … 'path' while the workbench runs, which
// SQLite's locking makes safe; the workspace file, by contrast, is locked
// by one window.
func CatalogPath(workspace string) string {
	ext := filepath.Ext(workspace)
	return strings.TrimSuffix(workspace, ext) + ".catalog.db"
}
