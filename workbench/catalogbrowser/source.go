package catalogbrowser

import (
	"fmt"
	"sort"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/sql"
	"github.com/riffle-sql/riffle/engine/table"
	"github.com/riffle-sql/riffle/engine/types"
)

// ObjectKind says what a catalog object is.
type ObjectKind uint8

// The object kinds the browser shows.
const (
	KindTable ObjectKind = iota
	KindView
)

// Object is a table or view of a database.
type Object struct {
	Name      string
	Kind      ObjectKind
	Temporary bool
	// Materialized describes a materialized table (nil for other
	// objects); see materialized.go.
	Materialized *Materialized
}

// Column is one column of a table or view, as the browser shows it.
type Column struct {
	Name string
	// Type is the column's Flink type without time-attribute markers
	// ("TIMESTAMP(3) NOT NULL").
	Type       string
	PrimaryKey bool
	Rowtime    bool
	Proctime   bool
	// Computed is the expression of a computed column ("" otherwise);
	// Metadata is set for metadata columns.
	Computed string
	Metadata bool
	Comment  string
}

// Details are the columns and watermark of a table or view.
type Details struct {
	Columns []Column
	// Watermark is "rowtime AS expr" of the table's WATERMARK clause, or "".
	Watermark string
	Comment   string
}

// Source is what the browser reads. Every method is called on the UI
// goroutine and must be quick (the engine's catalogs are in memory), but
// for the catalogs a RemoteCatalogs source names (kinds.go), which are
// read on a background goroutine.
type Source interface {
	Catalogs() []string
	Databases(catalog string) ([]string, error)
	// Objects lists the tables and views of a database, sorted by name.
	Objects(catalog, database string) ([]Object, error)
	Details(catalog, database, object string) (Details, error)
	// Current returns the current catalog and database (names in them
	// need no qualification).
	Current() (catalog, database string)
}

// EnvSource reads the catalogs of a TableEnvironment.
type EnvSource struct {
	Env *table.TableEnvironment
}

var _ Source = EnvSource{}

// Catalogs lists the registered catalogs, sorted.
func (s EnvSource) Catalogs() []string {
	out := s.Env.Catalogs().ListCatalogs()
	sort.Strings(out)
	return out
}

// Databases lists the databases of a catalog, sorted.
func (s EnvSource) Databases(cat string) ([]string, error) {
	c, err := s.Env.Catalogs().Catalog(cat)
	if err != nil {
		return nil, err
	}
	dbs, err := c.ListDatabases()
	if err != nil {
		return nil, err
	}
	out := append([]string(nil), dbs...)
	sort.Strings(out)
	return out, nil
}

// Objects lists the tables and views (permanent and temporary) of a
// database.
func (s EnvSource) Objects(cat, db string) ([]Object, error) {
	m := s.Env.Catalogs()
	names, err := m.ListTables(cat, db, nil)
	if err != nil {
		return nil, err
	}
	// Views: the catalog's own list (asking each table its kind would read
	// every table of a remote catalog), and the temporary ones, which
	// shadow a permanent object of the same name.
	c, err := m.Catalog(cat)
	if err != nil {
		return nil, err
	}
	views, err := c.ListViews(db)
	if err != nil {
		return nil, err
	}
	isView := make(map[string]bool, len(views))
	for _, v := range views {
		isView[v] = true
	}
	tmp := map[string]bool{}
	for _, n := range m.ListTemporary(cat, db, nil) {
		tmp[n] = true
		isView[n] = false
	}
	view := catalog.KindView
	for _, n := range m.ListTemporary(cat, db, &view) {
		isView[n] = true
	}
	mat := s.materialized(cat, db)
	out := make([]Object, 0, len(names))
	for _, n := range names {
		o := Object{Name: n, Temporary: tmp[n]}
		if isView[n] {
			o.Kind = KindView
		}
		if m, ok := mat[n]; ok && !o.Temporary {
			o.Materialized = &m
		}
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Details reads an object's schema.
func (s EnvSource) Details(cat, db, obj string) (Details, error) {
	rt, ok, err := s.Env.Catalogs().GetTable(catalog.ObjectIdentifier{Catalog: cat, Database: db, Object: obj})
	if err != nil {
		return Details{}, err
	}
	if !ok {
		return Details{}, fmt.Errorf("%s.%s.%s no longer exists", cat, db, obj)
	}
	sch := rt.Table.Schema()
	d := Details{Comment: rt.Table.Comment()}
	if sch == nil {
		return d, nil
	}
	pk := map[string]bool{}
	if sch.PrimaryKey != nil {
		for _, c := range sch.PrimaryKey.Columns {
			pk[c] = true
		}
	}
	rowtime := map[string]bool{}
	var wms []string
	for _, w := range sch.Watermarks {
		rowtime[w.RowtimeAttribute] = true
		wms = append(wms, sql.QuoteIdentIfNeeded(w.RowtimeAttribute)+" AS "+w.Expr)
	}
	d.Watermark = strings.Join(wms, ", ")
	for _, c := range sch.Columns {
		col := Column{Name: c.Name, PrimaryKey: pk[c.Name], Comment: c.Comment}
		if c.Type != nil {
			col.Type = c.Type.WithTimeAttr(types.NoTimeAttr).String()
			col.Rowtime = c.Type.IsRowtime() || rowtime[c.Name]
			col.Proctime = c.Type.IsProctime()
		}
		col.Rowtime = col.Rowtime || rowtime[c.Name]
		switch c.Kind {
		case types.ComputedColumn:
			col.Computed = c.Expr
		case types.MetadataColumn:
			col.Metadata = true
		}
		d.Columns = append(d.Columns, col)
	}
	return d, nil
}

// Current returns the environment's current catalog and database.
func (s EnvSource) Current() (string, string) {
	m := s.Env.Catalogs()
	return m.CurrentCatalog(), m.CurrentDatabase()
}
