package catalog

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Factory creates catalogs of one type (Flink's CatalogFactory): the
// 'type' option of CREATE CATALOG name WITH ('type' = '…', …) picks the
// factory whose Identifier it is.
//
// Factories register themselves with RegisterFactory, usually from an init
// function of their package, so a binary has the catalog types of the
// packages it links: generic_in_memory is always there (this package); the
// jdbc catalog comes with engine/connector/jdbc, the persistent SQLite
// catalog with the catalogstore package (kept outside engine/ so that the
// engine module does not link SQLite).
type Factory interface {
	// Identifier is the 'type' value, e.g. "generic_in_memory".
	Identifier() string
	// Options lists the options the type understands, besides 'type' and
	// 'property-version' (which every type accepts, as in Flink).
	Options() []FactoryOption
	// Create builds a catalog called name from its options (with 'type';
	// already checked by ValidateFactoryOptions: required keys present, no
	// unknown key). It does not open it: the Manager opens a catalog when
	// it is registered.
	Create(name string, options map[string]string) (Catalog, error)
}

// FactoryOption declares one option of a catalog type: its key, whether it
// is required, its default ("" for none) and a one-line description (for
// completion and documentation).
type FactoryOption struct {
	Key         string
	Required    bool
	Default     string
	Description string
}

// Option keys every catalog type accepts.
const (
	// OptionType is the key that picks the factory.
	OptionType = "type"
	// OptionPropertyVersion is Flink's 'property-version', accepted and
	// ignored by every factory.
	OptionPropertyVersion = "property-version"
	// OptionDefaultDatabase is the default database of generic_in_memory
	// and most other types.
	OptionDefaultDatabase = "default-database"
)

var (
	factoryMu sync.RWMutex
	factories = map[string]Factory{}
)

// RegisterFactory makes a catalog type available under f.Identifier(). A
// later registration of the same identifier replaces the earlier one.
func RegisterFactory(f Factory) {
	factoryMu.Lock()
	defer factoryMu.Unlock()
	factories[f.Identifier()] = f
}

// LookupFactory returns the factory registered for the type id.
func LookupFactory(id string) (Factory, bool) {
	factoryMu.RLock()
	defer factoryMu.RUnlock()
	f, ok := factories[id]
	return f, ok
}

// FactoryIdentifiers lists the registered catalog types, sorted.
func FactoryIdentifiers() []string {
	factoryMu.RLock()
	defer factoryMu.RUnlock()
	return sortedKeys(factories)
}

// FindFactory returns the factory for the 'type' in options, or Flink's
// error for a type no factory has: "Could not find any factory for
// identifier 'x' that implements
// 'org.apache.flink.table.factories.CatalogFactory'. Available factory
// identifiers are:" and the registered types, one a line.
func FindFactory(options map[string]string) (Factory, error) {
	typ := options[OptionType]
	if f, ok := LookupFactory(typ); ok {
		return f, nil
	}
	return nil, fmt.Errorf("Could not find any factory for identifier '%s' that implements 'org.apache.flink.table.factories.CatalogFactory'. Available factory identifiers are:\n\n%s",
		typ, strings.Join(FactoryIdentifiers(), "\n"))
}

// ValidateFactoryOptions checks options (with 'type') against what f
// declares, with Flink's FactoryUtil messages: a missing required key is
// "One or more required options are missing. … Missing required options
// are: …"; unknown keys are "Unsupported options found for 'type'. …
// Unsupported options: … Supported options: …" (keys one a line, sorted;
// 'property-version' is always supported).
func ValidateFactoryOptions(f Factory, options map[string]string) error {
	known := map[string]bool{OptionPropertyVersion: true}
	var missing []string
	for _, o := range f.Options() {
		known[o.Key] = true
		if o.Required {
			if v, ok := options[o.Key]; !ok || v == "" {
				missing = append(missing, o.Key)
			}
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("One or more required options are missing.\n\nMissing required options are:\n\n%s", strings.Join(missing, "\n"))
	}
	var unknown []string
	for _, k := range sortedKeys(options) {
		if k != OptionType && !known[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	return fmt.Errorf("Unsupported options found for '%s'.\n\nUnsupported options:\n\n%s\n\nSupported options:\n\n%s",
		f.Identifier(), strings.Join(unknown, "\n"), strings.Join(sortedKeys(known), "\n"))
}

// CreateCatalog finds the factory for options' 'type', validates the
// options and creates the catalog (not yet opened). Errors are FindFactory's,
// ValidateFactoryOptions' or the factory's.
func CreateCatalog(name string, options map[string]string) (Catalog, error) {
	f, err := FindFactory(options)
	if err != nil {
		return nil, err
	}
	if err := ValidateFactoryOptions(f, options); err != nil {
		return nil, err
	}
	return f.Create(name, options)
}

// ReplaceCatalog puts c in the place of the registered catalog name (ALTER
// CATALOG re-creating a catalog from its new options): c is opened first,
// and only once it opened is the old catalog closed and replaced. The
// current catalog may be replaced. Errors: no catalog name; c's Open
// error (the old catalog stays).
func (m *Manager) ReplaceCatalog(name string, c Catalog) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.catalogs[name]
	if !ok {
		return fmt.Errorf("Catalog %s does not exist.", name)
	}
	if err := c.Open(); err != nil {
		return err
	}
	m.catalogs[name] = c
	return old.Close()
}

// InMemoryFactoryIdentifier is the type of GenericInMemoryCatalog.
const InMemoryFactoryIdentifier = "generic_in_memory"

// InMemoryFactory creates InMemoryCatalogs (Flink's
// GenericInMemoryCatalogFactory): option 'default-database', "default"
// when not given (as in Flink 2; default_database is only the built-in
// default_catalog's).
type InMemoryFactory struct{}

// Identifier implements Factory.
func (InMemoryFactory) Identifier() string { return InMemoryFactoryIdentifier }

// Options implements Factory.
func (InMemoryFactory) Options() []FactoryOption {
	return []FactoryOption{{Key: OptionDefaultDatabase, Default: "default", Description: "the database made when the catalog is created and used when none is named"}}
}

// Create implements Factory.
func (InMemoryFactory) Create(name string, options map[string]string) (Catalog, error) {
	db := options[OptionDefaultDatabase]
	if db == "" {
		db = "default"
	}
	return NewInMemoryCatalog(name, db), nil
}

func init() { RegisterFactory(InMemoryFactory{}) }
