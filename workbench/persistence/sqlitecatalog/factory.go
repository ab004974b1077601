package sqlitecatalog

import (
	"fmt"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/config"
)

// Identifier is the catalog type: CREATE CATALOG c WITH ('type' = 'riffle', …).
const Identifier = "riffle"

// Option keys of the riffle catalog type.
const (
	// OptionPath names the SQLite file (required; created when missing).
	OptionPath = "path"
	// OptionLockTimeout is how long a change waits for another process's
	// write to the file, in Flink's duration syntax ("5 s", "500 ms").
	OptionLockTimeout = "lock-timeout"
)

// Factory creates riffle catalogs (registered under Identifier by this
// package's init).
type Factory struct{}

// Identifier implements catalog.Factory.
func (Factory) Identifier() string { return Identifier }

// Options implements catalog.Factory.
func (Factory) Options() []catalog.FactoryOption {
	return []catalog.FactoryOption{
		{Key: OptionPath, Required: true, Description: "the SQLite file that holds the catalog (created when missing)"},
		{Key: catalog.OptionDefaultDatabase, Default: "default", Description: "the database made with the file and used when none is named"},
		{Key: OptionLockTimeout, Default: "5 s", Description: "how long a change waits while another process writes the file"},
	}
}

// Create implements catalog.Factory: the catalog is opened by the catalog
// Manager. An unreadable 'lock-timeout' is an error naming it.
func (Factory) Create(name string, options map[string]string) (catalog.Catalog, error) {
	timeout := DefaultLockTimeout
	if s, ok := options[OptionLockTimeout]; ok {
		d, err := config.ParseDuration(s)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("catalog '%s': option '%s' = '%s' is not a positive duration (say '5 s' or '500 ms')", name, OptionLockTimeout, s)
		}
		timeout = d
	}
	return New(name, options[OptionPath], options[catalog.OptionDefaultDatabase], timeout), nil
}

func init() { catalog.RegisterFactory(Factory{}) }
