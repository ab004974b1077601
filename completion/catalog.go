package completion

import (
	"sort"
	"strings"

	"github.com/riffle-sql/riffle/engine/catalog"
	"github.com/riffle-sql/riffle/engine/expr"
	"github.com/riffle-sql/riffle/engine/table"
)

// Catalog is what completion reads from the engine: the objects in scope
// and the functions. Implementations must be safe to call from a worker
// goroutine.
type Catalog interface {
	CurrentCatalog() string
	CurrentDatabase() string
	Catalogs() []string
	Databases(catalog string) []string
	// Tables lists the tables and views of a database (temporary ones
	// included).
	Tables(catalog, database string) []Object
	// Table resolves a 1- to 3-part name against the current catalog and
	// database.
	Table(path []string) (*TableMeta, bool)
	// Functions lists the functions callable by name.
	Functions() []Function
}

// Object is a table or view name.
type Object struct {
	Name string
	View bool
}

// Column is a column with its type as Flink prints it.
type Column struct {
	Name string
	Type string
}

// TableMeta describes a resolved table or view.
type TableMeta struct {
	Columns []Column
	// Options are a table's WITH options (nil for views).
	Options map[string]string
}

// Function is a function with the signatures shown next to it.
type Function struct {
	Name       string
	Signatures []string
	Aggregate  bool
}

// EnvCatalog reads the catalogs and functions of a TableEnvironment.
func EnvCatalog(env *table.TableEnvironment) Catalog { return envCatalog{env} }

type envCatalog struct{ env *table.TableEnvironment }

func (c envCatalog) CurrentCatalog() string  { return c.env.Catalogs().CurrentCatalog() }
func (c envCatalog) CurrentDatabase() string { return c.env.Catalogs().CurrentDatabase() }
func (c envCatalog) Catalogs() []string      { return c.env.Catalogs().ListCatalogs() }

func (c envCatalog) Databases(name string) []string {
	cat, ok := c.env.Catalogs().GetCatalog(name)
	if !ok {
		return nil
	}
	dbs, err := cat.ListDatabases()
	if err != nil {
		return nil
	}
	return dbs
}

func (c envCatalog) Tables(cat, db string) []Object {
	m := c.env.Catalogs()
	names, err := m.ListTables(cat, db, nil)
	if err != nil {
		return nil
	}
	// views: the catalog's own list and the temporary ones (asking every
	// table its kind would read each table of a JDBC catalog's server)
	isView := map[string]bool{}
	if c, ok := m.GetCatalog(cat); ok {
		views, _ := c.ListViews(db)
		for _, v := range views {
			isView[v] = true
		}
	}
	for _, n := range m.ListTemporary(cat, db, nil) {
		isView[n] = false
	}
	view := catalog.KindView
	for _, n := range m.ListTemporary(cat, db, &view) {
		isView[n] = true
	}
	out := make([]Object, len(names))
	for i, n := range names {
		out[i] = Object{Name: n, View: isView[n]}
	}
	return out
}

func (c envCatalog) Table(path []string) (*TableMeta, bool) {
	m := c.env.Catalogs()
	id, err := m.Qualify(path)
	if err != nil {
		return nil, false
	}
	rt, ok, err := m.GetTable(id)
	if err != nil || !ok {
		return nil, false
	}
	meta := &TableMeta{Options: rt.Table.Options()}
	for _, col := range rt.Table.Schema().Columns {
		meta.Columns = append(meta.Columns, Column{Name: col.Name, Type: col.Type.String()})
	}
	return meta, true
}

// notCallable are registry entries that SQL writes as operators or
// keywords, or that only the planner uses.
var notCallable = map[string]bool{"AND": true, "OR": true, "NOT": true, "IN": true, "LIKE": true, "CASE": true,
	"GET_FIELD": true, "ITEM": true, "SUM0": true}

func (c envCatalog) Functions() []Function {
	var out []Function
	for _, n := range expr.Builtins.Names() {
		f, ok := expr.Builtins.Lookup(n)
		if !ok || notCallable[n] || !isWord(f.Name) || strings.HasPrefix(n, "UNARY_") || n == "NEGATE" {
			continue
		}
		out = append(out, Function{Name: n, Signatures: f.Signatures, Aggregate: f.Kind == expr.AggregateKind})
	}
	// user-defined functions, through the public API
	if res, err := c.env.ExecuteSQL("SHOW USER FUNCTIONS"); err == nil {
		if it, err := res.Collect(); err == nil {
			for it.Next() {
				if name, ok := it.Row().Values[0].(string); ok {
					out = append(out, Function{Name: name, Signatures: []string{name + "(...)"}})
				}
			}
			it.Close()
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func isWord(s string) bool {
	for _, r := range s {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}
