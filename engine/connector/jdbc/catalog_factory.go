package jdbc

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
)

// CatalogFactoryIdentifier is the 'type' of a JDBC catalog.
const CatalogFactoryIdentifier = "jdbc"

// CatalogFactory creates JDBC catalogs (Flink's JdbcCatalogFactory):
// CREATE CATALOG c WITH ('type' = 'jdbc', 'base-url' = 'jdbc:postgresql://host:port',
// 'default-database' = 'db', 'username' = 'u', 'password' = 'p').
// 'base-url', 'default-database', 'username' and 'password' are required,
// as in Flink; 'compatible-mode' is accepted and must be empty (Flink
// uses it for databases compatible with another, which Riffle does not
// read).
type CatalogFactory struct{}

// Identifier implements catalog.Factory.
func (CatalogFactory) Identifier() string { return CatalogFactoryIdentifier }

// Options implements catalog.Factory.
func (CatalogFactory) Options() []catalog.FactoryOption {
	return []catalog.FactoryOption{
		{Key: CatalogOptionBaseURL, Required: true, Description: "the server's JDBC URL without a database: jdbc:postgresql://host:port, jdbc:mysql://host:port or jdbc:mariadb://host:port"},
		{Key: CatalogOptionDefaultDatabase, Required: true, Description: "the database used when none is named (USE CATALOG)"},
		{Key: CatalogOptionUsername, Required: true, Description: "the user the catalog and its tables connect as"},
		{Key: CatalogOptionPassword, Required: true, Description: "the user's password"},
		{Key: CatalogOptionCompatibleMode, Description: "Flink's mode for databases compatible with another; not supported"},
	}
}

// Create implements catalog.Factory: the catalog is not connected yet
// (the catalog manager opens it, which connects to the default database).
func (CatalogFactory) Create(name string, options map[string]string) (catalog.Catalog, error) {
	if m := strings.TrimSpace(options[CatalogOptionCompatibleMode]); m != "" {
		return nil, fmt.Errorf("JDBC catalog %s: 'compatible-mode' = '%s' is not supported by Riffle's JDBC catalog", name, m)
	}
	return NewCatalog(name, options[CatalogOptionDefaultDatabase], options[CatalogOptionUsername], options[CatalogOptionPassword], options[CatalogOptionBaseURL])
}

func init() { catalog.RegisterFactory(CatalogFactory{}) }
