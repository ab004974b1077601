package table

import (
	"fmt"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/types"
)

func (x *execution) createDatabase(cd *sql.CreateDatabase) (*TableResult, error) {
	t := x.env
	parts := identNames(cd.Name.Parts)
	cat := t.catalogs.CurrentCatalog()
	if len(parts) == 2 {
		cat = parts[0]
	}
	c, err := t.catalogs.Catalog(cat)
	if err != nil {
		return nil, err
	}
	db := &catalog.Database{Properties: props(cd.Options)}
	if cd.Comment != nil {
		db.Comment = *cd.Comment
	}
	if err := c.CreateDatabase(parts[len(parts)-1], db, cd.IfNotExists); err != nil {
		return nil, err
	}
	return okResult(), nil
}

func (x *execution) alterDatabase(ad *sql.AlterDatabase) (*TableResult, error) {
	t := x.env
	parts := identNames(ad.Name.Parts)
	cat := t.catalogs.CurrentCatalog()
	if len(parts) == 2 {
		cat = parts[0]
	}
	c, err := t.catalogs.Catalog(cat)
	if err != nil {
		return nil, err
	}
	db, err := c.GetDatabase(parts[len(parts)-1])
	if err != nil {
		return nil, err
	}
	nd := &catalog.Database{Properties: map[string]string{}, Comment: db.Comment}
	for k, v := range db.Properties {
		nd.Properties[k] = v
	}
	for k, v := range props(ad.Options) {
		nd.Properties[k] = v
	}
	if err := c.AlterDatabase(parts[len(parts)-1], nd, false); err != nil {
		return nil, err
	}
	return okResult(), nil
}

// createCatalog runs CREATE CATALOG [IF NOT EXISTS] name [COMMENT …] WITH
// (options): the 'type' option picks a registered catalog.Factory
// (catalog.FindFactory's error, Flink's, for an unknown one), whose
// declared options are checked as Flink's FactoryUtil does before the
// catalog is created, opened and registered; its descriptor (options and
// comment) is kept for SHOW CREATE / DESCRIBE / ALTER CATALOG.
func (x *execution) createCatalog(cc *sql.CreateCatalog) (*TableResult, error) {
	opts := props(cc.Options)
	f, err := catalog.FindFactory(opts)
	if err != nil {
		return nil, err
	}
	name := cc.Name.Name
	if err := catalog.ValidateFactoryOptions(f, opts); err != nil {
		return nil, err
	}
	if _, ok := x.env.catalogs.GetCatalog(name); ok {
		if cc.IfNotExists {
			return okResult(), nil
		}
		return nil, errorf("Catalog %s already exists.", name)
	}
	if err := x.env.checkCatalogPath(name, opts); err != nil {
		return nil, err
	}
	c, err := f.Create(name, opts)
	if err != nil {
		return nil, err
	}
	if err := x.env.catalogs.RegisterCatalog(name, c); err != nil {
		_ = c.Close()
		return nil, err
	}
	x.env.mu.Lock()
	if x.env.catalogDescriptors == nil {
		x.env.catalogDescriptors = map[string]catalogDescriptor{}
	}
	x.env.catalogDescriptors[name] = catalogDescriptor{options: opts, comment: cc.Comment}
	x.env.mu.Unlock()
	return okResult(), nil
}

// checkCatalogPath applies the file access policy (SetPathPolicy) to a
// catalog's 'path' option (the persistent catalog's file), as connectors
// apply it to a table's.
func (t *TableEnvironment) checkCatalogPath(name string, opts map[string]string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.checkCatalogPathLocked(name, opts)
}

func (t *TableEnvironment) checkCatalogPathLocked(name string, opts map[string]string) error {
	p, ok := opts["path"]
	if !ok || t.checkPath == nil {
		return nil
	}
	if err := t.checkPath(p); err != nil {
		return fmt.Errorf("catalog %s: %w", name, err)
	}
	return nil
}

// alterCatalog runs ALTER CATALOG name SET (options) | RESET (keys) |
// COMMENT 'text' as Flink 2.3.0 does: it changes what DESCRIBE CATALOG and
// SHOW CREATE CATALOG report (the catalog's descriptor); RESET refuses no
// key and the key 'type'; a key that is not set is ignored; an empty
// comment is kept as given.
func (x *execution) alterCatalog(ac *sql.AlterCatalog) (*TableResult, error) {
	t := x.env
	name := ac.Name.Name
	t.mu.Lock()
	defer t.mu.Unlock()
	desc, ok := t.catalogDescriptors[name]
	if _, exists := t.catalogs.GetCatalog(name); !exists || !ok {
		// Flink alters what its catalog store keeps: catalogs made by
		// CREATE CATALOG (not default_catalog)
		return nil, errorf("Catalog %s does not exist in the catalog store.", name)
	}
	opts := make(map[string]string, len(desc.options))
	for k, v := range desc.options {
		opts[k] = v
	}
	switch {
	case ac.Comment != nil:
		c := *ac.Comment
		desc.comment = &c
	case ac.Options != nil:
		for k, v := range props(ac.Options) {
			opts[k] = v
		}
	default:
		if len(ac.ResetKeys) == 0 {
			return nil, errorf("ALTER CATALOG RESET does not support empty key")
		}
		for _, k := range ac.ResetKeys {
			if k == "type" {
				return nil, errorf("ALTER CATALOG RESET does not support changing 'type'")
			}
		}
		for _, k := range ac.ResetKeys {
			delete(opts, k)
		}
	}
	optionsChanged := ac.Comment == nil
	desc.options = opts
	t.catalogDescriptors[name] = desc
	// Flink stores the new descriptor, then re-creates the catalog from it,
	// which is where unknown options fail (the descriptor stays changed)
	f, err := catalog.FindFactory(opts)
	if err != nil {
		return nil, err
	}
	if err := catalog.ValidateFactoryOptions(f, opts); err != nil {
		return nil, err
	}
	// A generic_in_memory catalog keeps its objects (re-creating it would
	// empty it, and none of its options but default-database exists);
	// other types are re-created from the new options, so that a changed
	// 'path' or URL takes effect, and replace the open catalog once the
	// new one opened.
	if optionsChanged && f.Identifier() != catalog.InMemoryFactoryIdentifier {
		if err := t.checkCatalogPathLocked(name, opts); err != nil {
			return nil, err
		}
		c, err := f.Create(name, opts)
		if err != nil {
			return nil, err
		}
		if err := t.catalogs.ReplaceCatalog(name, c); err != nil {
			return nil, err
		}
	}
	return okResult(), nil
}

// showCreateCatalog answers SHOW CREATE CATALOG name in Flink 2.3.0's
// text: CREATE CATALOG `name`, the COMMENT line when it has one, and its
// options (with 'type') sorted by key in a WITH block.
func (x *execution) showCreateCatalog(name string) (*TableResult, error) {
	t := x.env
	t.mu.Lock()
	desc, ok := t.catalogDescriptors[name]
	t.mu.Unlock()
	if _, exists := t.catalogs.GetCatalog(name); !exists || !ok {
		return nil, errorf("Cannot obtain metadata information from Catalog %s.", name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "CREATE CATALOG %s\n", sql.QuoteIdent(name))
	if desc.comment != nil {
		fmt.Fprintf(&b, "COMMENT '%s'\n", strings.ReplaceAll(*desc.comment, "'", "''"))
	}
	b.WriteString("WITH (\n")
	keys := sortedKeys(desc.options)
	for i, k := range keys {
		sep := ","
		if i == len(keys)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "  '%s' = '%s'%s\n", strings.ReplaceAll(k, "'", "''"), strings.ReplaceAll(desc.options[k], "'", "''"), sep)
	}
	b.WriteString(")\n")
	return &TableResult{kind: SuccessWithContent, schema: NewTableSchema([]string{"result"},
		[]*types.DataType{types.StringType()}), static: []*types.Row{types.NewRow(b.String())}}, nil
}

// catalogDescriptor is what CREATE CATALOG said of a catalog: its options
// (with 'type') and its comment (nil when it had none), as Flink's
// CatalogDescriptor.
type catalogDescriptor struct {
	options map[string]string
	comment *string
}

// describeCatalog answers DESCRIBE CATALOG [EXTENDED] name as Flink 2.3.0
// does: rows name, type and comment (NULL when CREATE CATALOG gave none),
// with EXTENDED also option:<key> rows for the options but 'type', sorted
// by key. A catalog not made by CREATE CATALOG (default_catalog, one
// registered through the API) has no descriptor: Flink fails with "Cannot
// obtain metadata information from Catalog <name>.".
func (x *execution) describeCatalog(name string, extended bool) (*TableResult, error) {
	t := x.env
	t.mu.Lock()
	desc, ok := t.catalogDescriptors[name]
	t.mu.Unlock()
	if _, exists := t.catalogs.GetCatalog(name); !exists || !ok {
		return nil, errorf("Cannot obtain metadata information from Catalog %s.", name)
	}
	var comment any
	if desc.comment != nil {
		comment = *desc.comment
	}
	rows := []*types.Row{types.NewRow("name", name), types.NewRow("type", desc.options["type"]), types.NewRow("comment", comment)}
	if extended {
		for _, k := range sortedKeys(desc.options) {
			if k != "type" {
				rows = append(rows, types.NewRow("option:"+k, desc.options[k]))
			}
		}
	}
	return &TableResult{kind: SuccessWithContent, schema: NewTableSchema([]string{"info name", "info value"},
		[]*types.DataType{types.StringType(), types.StringType()}), static: rows}, nil
}
